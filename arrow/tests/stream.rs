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
    check_with(format, inputs, &Options::default())
}

/// [`check`] with `base` options (where the records are, say).
fn check_with(format: RecordFormat, inputs: Vec<(String, Vec<u8>)>, base: &Options) -> Tally {
    let mut tally = Tally::default();
    for (name, bytes) in inputs {
        let Ok(schema) = infer_schema(&bytes, format, &base.clone().infer_records(None)) else {
            tally.no_schema += 1;
            continue;
        };
        let schema = SchemaRef::new(schema);
        // The whole-file reader does not look at the stream's chunk size: read once.
        let whole = read(&bytes, format, schema.clone(), &base.clone().batch_size(7))
            .map(|batches| concat(&schema, &batches));
        for chunk in [1, 200, 1 << 20] {
            let options = base.clone().batch_size(7).stream_chunk(chunk);
            let stream = streamed(&bytes, format, schema.clone(), &options);
            match (&whole, stream) {
                (Ok(whole), Ok(stream)) => {
                    if *whole == concat(&schema, &stream) {
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

/// Records deeper than the root's children: every corpus input and conformance case
/// read at depth 3 (`*/*/*`), and a MediaWiki-like export of many pages read at
/// `mediawiki/page` and at `mediawiki/page/revision`, streamed a chunk of whole records
/// at a time, equal the whole-file reader.
#[test]
fn xml_records_at_a_path_stream_as_they_read_whole() {
    let deeper = Options::default().records_at("*/*/*");
    let tally = check_with(
        RecordFormat::Xml,
        inputs("xml", "xml", quarry_corpus_gen::xml_corpus()),
        &deeper,
    );
    println!("{tally:#?}");
    assert!(tally.differ.is_empty(), "{:#?}", tally.differ);
    assert!(tally.equal >= 30, "{tally:#?}");

    let mut wiki = String::from(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE mediawiki [<!ENTITY site \"Wiki\">]>\n\
         <mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.11/\">\n\
         <siteinfo><sitename>&site;</sitename></siteinfo>\n",
    );
    for i in 0..120 {
        wiki.push_str(&format!(
            "<page>\n  <title>Page {i} of &site;</title><id>{i}</id>\n"
        ));
        for r in 0..i % 4 {
            wiki.push_str(&format!(
                "  <revision id=\"{i}{r}\"><text>rev {r}</text></revision>\n"
            ));
        }
        wiki.push_str("</page>\n<!-- between pages -->\n");
    }
    wiki.push_str("</mediawiki>\n");
    for path in ["mediawiki/page", "mediawiki/page/revision"] {
        let options = Options::default().records_at(path);
        let tally = check_with(
            RecordFormat::Xml,
            vec![(path.to_owned(), wiki.clone().into_bytes())],
            &options,
        );
        assert_eq!(tally.equal, 3, "{path}: {tally:#?}");
        let schema =
            SchemaRef::new(infer_schema(wiki.as_bytes(), RecordFormat::Xml, &options).unwrap());
        let rows: usize = read(wiki.as_bytes(), RecordFormat::Xml, schema, &options)
            .unwrap()
            .iter()
            .map(RecordBatch::num_rows)
            .sum();
        let expected = if path.ends_with("page") {
            120
        } else {
            (0..120).map(|i| i % 4).sum()
        };
        assert_eq!(rows, expected, "{path}");
    }
    // A misfit deep in the source is placed alike, streamed or whole.
    let bad = wiki.replacen("id=\"1010\"", "id=\"oops\"", 1);
    let schema = SchemaRef::new(arrow_schema::Schema::new(vec![
        arrow_schema::Field::new("@id", arrow_schema::DataType::Int64, true),
        arrow_schema::Field::new("text", arrow_schema::DataType::Utf8, true),
    ]));
    let options = Options::default()
        .records_at("mediawiki/page/revision")
        .stream_chunk(100);
    let whole = read(bad.as_bytes(), RecordFormat::Xml, schema.clone(), &options).unwrap_err();
    let stream = streamed(bad.as_bytes(), RecordFormat::Xml, schema, &options).unwrap_err();
    assert_eq!(whole.to_string(), stream.to_string());
    let before: usize = (0..101).map(|i| i % 4).sum();
    assert_eq!(whole.record(), Some(before as u64 + 1), "{whole}");
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
