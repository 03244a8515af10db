//! `read_stream` against the whole-file `read`: on every corpus input, generated document
//! and conformance case of JSON, YAML and XML, the streamed batches equal the whole-file
//! ones (or both readers fail, at the same line), with the source cut at every record, at
//! a few records and not at all, and read through a small buffer so that boundaries fall
//! mid-token.

use std::io::BufReader;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use quarry_arrow::{infer_schema, read, read_stream, Options, RecordFormat};

fn files(dir: &Path, extension: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, extension, out);
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(path);
        }
    }
}

/// The corpus, generated documents and conformance cases of `format`, by name.
fn inputs(
    format: &str,
    extension: &str,
    generated: Vec<quarry_corpus_gen::Document>,
) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata");
    let mut paths = Vec::new();
    files(&root.join("corpus").join(format), extension, &mut paths);
    files(&root.join("suites").join(format), extension, &mut paths);
    paths.sort();
    let mut inputs: Vec<_> = paths
        .into_iter()
        .map(|path| (path.display().to_string(), std::fs::read(&path).unwrap()))
        .collect();
    inputs.extend(
        generated
            .into_iter()
            .map(|doc| (doc.name.to_owned(), doc.bytes)),
    );
    inputs
}

fn concat(schema: &SchemaRef, batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(schema, batches).unwrap()
}

fn streamed(
    bytes: &[u8],
    format: RecordFormat,
    schema: SchemaRef,
    options: &Options,
) -> Result<Vec<RecordBatch>, quarry_arrow::Error> {
    let reader = BufReader::with_capacity(61, bytes);
    read_stream(reader, format, schema, options).collect()
}

#[derive(Debug, Default)]
struct Tally {
    equal: usize,
    both_failed: usize,
    no_schema: usize,
    differ: Vec<String>,
}

fn check(format: RecordFormat, inputs: Vec<(String, Vec<u8>)>) -> Tally {
    let mut tally = Tally::default();
    for (name, bytes) in inputs {
        let Ok(schema) = infer_schema(&bytes, format, &Options::default().infer_records(None))
        else {
            tally.no_schema += 1;
            continue;
        };
        let schema = SchemaRef::new(schema);
        for chunk in [1, 200, 1 << 20] {
            let options = Options::default().batch_size(7).stream_chunk(chunk);
            let whole = read(&bytes, format, schema.clone(), &options);
            let stream = streamed(&bytes, format, schema.clone(), &options);
            match (whole, stream) {
                (Ok(whole), Ok(stream)) => {
                    let (whole, stream) = (concat(&schema, &whole), concat(&schema, &stream));
                    if whole == stream {
                        tally.equal += 1;
                    } else {
                        tally
                            .differ
                            .push(format!("{name} (chunk {chunk}): batches differ"));
                    }
                }
                (Err(whole), Err(stream)) => {
                    if whole.line() == stream.line() {
                        tally.both_failed += 1;
                    } else {
                        tally.differ.push(format!(
                            "{name} (chunk {chunk}): whole `{whole}`, streamed `{stream}`"
                        ));
                    }
                }
                (Ok(_), Err(e)) => tally.differ.push(format!(
                    "{name} (chunk {chunk}): only the stream fails: {e}"
                )),
                (Err(e), Ok(_)) => tally.differ.push(format!(
                    "{name} (chunk {chunk}): only the whole read fails: {e}"
                )),
            }
        }
    }
    tally
}

#[test]
fn json_arrays_stream_as_they_read_whole() {
    let tally = check(
        RecordFormat::Json,
        inputs("json", "json", quarry_corpus_gen::json_corpus()),
    );
    println!("{tally:#?}");
    assert!(tally.differ.is_empty(), "{:#?}", tally.differ);
    assert!(tally.equal >= 30, "{tally:#?}");
}

#[test]
fn yaml_streams_stream_as_they_read_whole() {
    let tally = check(
        RecordFormat::Yaml,
        inputs("yaml", "yaml", quarry_corpus_gen::yaml_corpus()),
    );
    println!("{tally:#?}");
    assert!(tally.differ.is_empty(), "{:#?}", tally.differ);
    assert!(tally.equal >= 30, "{tally:#?}");
}

#[test]
fn xml_documents_stream_as_they_read_whole() {
    let tally = check(
        RecordFormat::Xml,
        inputs("xml", "xml", quarry_corpus_gen::xml_corpus()),
    );
    println!("{tally:#?}");
    assert!(tally.differ.is_empty(), "{:#?}", tally.differ);
    assert!(tally.equal >= 30, "{tally:#?}");
}

/// A value that does not fit its column, far into the source (a later chunk, past a cut
/// in the middle of a line for JSON and XML): the streamed error names the same record,
/// line and column as the whole-file one.
#[test]
fn errors_in_later_chunks_name_the_source_place() {
    let mut json = String::from("[");
    let mut yaml = String::new();
    let mut xml =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE logs [<!ENTITY w \"worker\">]>\n<logs>");
    for i in 0..500 {
        let size = if i == 437 {
            "\"big\"".to_owned()
        } else {
            i.to_string()
        };
        json.push_str(&format!(
            "{}{{\"id\": {i}, \"size\": {size}}}",
            if i == 0 { "" } else { ", " }
        ));
        if i % 10 == 9 {
            json.push('\n');
        }
        yaml.push_str(&format!("---\nid: {i}\nsize: {size}\n"));
        let size = if i == 437 {
            "&w;".to_owned()
        } else {
            i.to_string()
        };
        xml.push_str(&format!("<log id=\"{i}\"><size>{size}</size></log>"));
        if i % 10 == 9 {
            xml.push('\n');
        }
    }
    json.push(']');
    xml.push_str("</logs>\n");
    for (format, text, sample) in [
        (RecordFormat::Json, json, "[{\"id\": 1, \"size\": 2}]"),
        (RecordFormat::Yaml, yaml, "id: 1\nsize: 2\n"),
        (
            RecordFormat::Xml,
            xml,
            "<logs><log id=\"1\"><size>2</size></log></logs>",
        ),
    ] {
        let mut schema = infer_schema(sample.as_bytes(), format, &Options::default()).unwrap();
        if format == RecordFormat::Xml {
            // XML text is typed by inference only; give `size` a number type.
            let fields: Vec<_> = schema
                .fields()
                .iter()
                .map(|f| match f.name().as_str() {
                    "size" => arrow_schema::Field::new("size", arrow_schema::DataType::Int64, true),
                    _ => f.as_ref().clone(),
                })
                .collect();
            schema = arrow_schema::Schema::new(fields);
        }
        let schema = SchemaRef::new(schema);
        let options = Options::default().batch_size(64).stream_chunk(300);
        let whole = read(text.as_bytes(), format, schema.clone(), &options).unwrap_err();
        let stream = streamed(text.as_bytes(), format, schema, &options).unwrap_err();
        assert_eq!(whole.record(), Some(438), "{format:?}: {whole}");
        assert_eq!(
            (
                stream.record(),
                stream.line(),
                stream.column(),
                stream.message()
            ),
            (
                whole.record(),
                whole.line(),
                whole.column(),
                whole.message()
            ),
            "{format:?}: streamed `{stream}`, whole `{whole}`"
        );
    }
}

/// Structural errors the cut finds itself (between a JSON array's items) carry their
/// place too.
#[test]
fn a_missing_comma_between_items_is_placed() {
    let text = b"[{\"a\": 1},\n {\"a\": 2} {\"a\": 3}]";
    let schema = SchemaRef::new(
        infer_schema(b"{\"a\": 1}", RecordFormat::Json, &Options::default()).unwrap(),
    );
    let error = streamed(text, RecordFormat::Json, schema, &Options::default()).unwrap_err();
    assert_eq!(
        (error.line(), error.column()),
        (Some(2), Some(11)),
        "{error}"
    );
    assert!(error.message().contains("expected `,` or `]`"), "{error}");
}
