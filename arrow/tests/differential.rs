//! quarry-arrow against arrow-json on the same records: the schema each infers and the
//! batches each reads must agree, for every corpus input arrow-json can read. YAML, XML
//! and TOML inputs are compared with arrow-json reading their JSON conversions (quarry's
//! RawValue path, written as JSON Lines).

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use quarry_arrow::{infer_schema, read, Options, RecordFormat};
use quarry_formats::{json, toml, xml, yaml, RawValue};

fn corpus(format: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/corpus")
        .join(format);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file() && !path.ends_with("README.md"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus in {}", dir.display());
    files
}

/// The corpus files of `format` and the generated documents, by name.
fn inputs(format: &str, generated: Vec<quarry_corpus_gen::Document>) -> Vec<(String, Vec<u8>)> {
    let files = corpus(format).into_iter().map(|path| {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        (name, std::fs::read(&path).unwrap())
    });
    let generated = generated
        .into_iter()
        .map(|doc| (doc.name.to_owned(), doc.bytes));
    files.chain(generated).collect()
}

/// The schema with every struct's fields sorted by name: arrow-json meets an object's
/// new fields in serde_json's (sorted) key order, quarry in document order.
fn sorted(fields: &Fields) -> Fields {
    let mut fields: Vec<Field> = fields
        .iter()
        .map(|f| {
            f.as_ref()
                .clone()
                .with_data_type(sorted_type(f.data_type()))
        })
        .collect();
    fields.sort_by(|a, b| a.name().cmp(b.name()));
    fields.into()
}

fn sorted_type(ty: &DataType) -> DataType {
    match ty {
        DataType::Struct(fields) => DataType::Struct(sorted(fields)),
        DataType::List(item) => DataType::List(Arc::new(
            item.as_ref()
                .clone()
                .with_data_type(sorted_type(item.data_type())),
        )),
        other => other.clone(),
    }
}

fn arrow_json_schema(lines: &[u8]) -> Result<Schema, arrow_schema::ArrowError> {
    arrow_json::reader::infer_json_schema(Cursor::new(lines), None).map(|(schema, _)| schema)
}

fn arrow_json_read(
    lines: &[u8],
    schema: SchemaRef,
) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let reader = arrow_json::ReaderBuilder::new(schema.clone())
        .with_batch_size(1024)
        .build(Cursor::new(lines))?;
    let batches = reader.collect::<Result<Vec<_>, _>>()?;
    Ok(match batches.len() {
        0 => RecordBatch::new_empty(schema),
        _ => arrow_select::concat::concat_batches(&schema, &batches)?,
    })
}

fn quarry_read(bytes: &[u8], format: RecordFormat, schema: SchemaRef) -> RecordBatch {
    let options = Options::default().batch_size(700);
    let batches = read(bytes, format, schema.clone(), &options).expect("quarry-arrow reads");
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

/// JSON Lines of the records in `records`.
fn lines_of(records: &[RawValue<'_>]) -> Vec<u8> {
    let mut out = Vec::new();
    for record in records {
        out.extend(json::to_vec(record).unwrap());
        out.push(b'\n');
    }
    out
}

#[derive(Default, Debug)]
struct Tally {
    compared: usize,
    arrow_json_refused: Vec<String>,
}

/// Compares quarry-arrow reading `bytes` as `format` with arrow-json reading `lines`.
/// `typed` says whether the format has types of its own that JSON lacks (TOML
/// datetimes): then the schemas are compared with those types as the strings JSON
/// writes them as.
fn compare(name: &str, bytes: &[u8], format: RecordFormat, lines: &[u8], tally: &mut Tally) {
    let theirs = match arrow_json_schema(lines) {
        Ok(schema) => schema,
        Err(e) => {
            tally.arrow_json_refused.push(format!("{name}: {e}"));
            return;
        }
    };
    let options = Options::default().infer_records(None);
    let ours = infer_schema(bytes, format, &options)
        .unwrap_or_else(|e| panic!("{name}: arrow-json infers a schema, quarry-arrow fails: {e}"));
    let as_json = |fields: &Fields| sorted(&stringly(fields));
    assert_eq!(
        as_json(ours.fields()),
        as_json(theirs.fields()),
        "{name}: inferred schemas differ"
    );

    // The same records under each side's schema.
    for schema in [Arc::new(ours.clone()), Arc::new(theirs.clone())] {
        let expected = match arrow_json_read(lines, schema.clone()) {
            Ok(batch) => batch,
            Err(e) => {
                tally
                    .arrow_json_refused
                    .push(format!("{name} (reading): {e}"));
                return;
            }
        };
        let got = quarry_read(bytes, format, schema);
        assert_eq!(
            got.num_rows(),
            expected.num_rows(),
            "{name}: row counts differ"
        );
        for (i, field) in expected.schema().fields().iter().enumerate() {
            assert_eq!(
                got.column(i).as_ref(),
                expected.column(i).as_ref(),
                "{name}: column `{}` differs",
                field.name()
            );
        }
        assert_eq!(got, expected, "{name}: batches differ");
    }
    tally.compared += 1;
}

/// Timestamps and dates as JSON carries them: strings.
fn stringly(fields: &Fields) -> Fields {
    fields
        .iter()
        .map(|f| {
            let ty = match f.data_type() {
                DataType::Timestamp(..) | DataType::Date32 => DataType::Utf8,
                DataType::Struct(inner) => DataType::Struct(stringly(inner)),
                DataType::List(item) => {
                    let inner = stringly(&Fields::from(vec![item.as_ref().clone()]));
                    DataType::List(inner[0].clone())
                }
                other => other.clone(),
            };
            f.as_ref().clone().with_data_type(ty)
        })
        .collect()
}

/// The records of a JSON document: the items of a top-level array, or the document.
fn json_records(value: RawValue<'_>) -> Vec<RawValue<'_>> {
    match value {
        RawValue::Seq(items) => items,
        other => vec![other],
    }
}

#[test]
fn json_corpus_matches_arrow_json() {
    let mut tally = Tally::default();
    for path in corpus("json") {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let records = json_records(json::parse(&bytes).unwrap());
        if !records.iter().all(|r| matches!(r, RawValue::Map(_))) {
            tally
                .arrow_json_refused
                .push(format!("{name}: records are not all objects"));
            continue;
        }
        let lines = lines_of(&records);
        compare(&name, &bytes, RecordFormat::Json, &lines, &mut tally);
        compare(
            &format!("{name} as lines"),
            &lines,
            RecordFormat::JsonLines,
            &lines,
            &mut tally,
        );
    }
    for doc in quarry_corpus_gen::json_corpus() {
        let records = json_records(json::parse(&doc.bytes).unwrap());
        if !records.iter().all(|r| matches!(r, RawValue::Map(_))) {
            continue;
        }
        let lines = lines_of(&records);
        compare(doc.name, &doc.bytes, RecordFormat::Json, &lines, &mut tally);
        compare(
            doc.name,
            &lines,
            RecordFormat::JsonLines,
            &lines,
            &mut tally,
        );
    }
    println!("{tally:#?}");
    assert!(tally.compared >= 20, "compared only {}", tally.compared);
}

#[test]
fn yaml_corpus_matches_its_json_conversion() {
    let mut tally = Tally::default();
    let inputs = inputs("yaml", quarry_corpus_gen::yaml_corpus());
    for (name, bytes) in inputs {
        let documents = yaml::parse_stream(&bytes).unwrap();
        let mut records = Vec::new();
        for document in documents {
            match document {
                RawValue::Seq(items) => records.extend(items),
                RawValue::Null => {}
                other => records.push(other),
            }
        }
        if records.is_empty() || !records.iter().all(|r| matches!(r, RawValue::Map(_))) {
            tally
                .arrow_json_refused
                .push(format!("{name}: records are not all mappings"));
            continue;
        }
        let lines = lines_of(&records);
        compare(&name, &bytes, RecordFormat::Yaml, &lines, &mut tally);
    }
    println!("{tally:#?}");
    assert!(tally.compared >= 8, "compared only {}", tally.compared);
}

#[test]
fn xml_corpus_matches_its_json_conversion() {
    let mut tally = Tally::default();
    let inputs = inputs("xml", quarry_corpus_gen::xml_corpus());
    for (name, bytes) in inputs {
        let (_, root) = xml::parse_root(&bytes).unwrap();
        // Records in document order are the root's children only when they share one name
        // (the RawValue mapping groups children by name).
        let RawValue::Map(entries) = root else {
            continue;
        };
        let children: Vec<_> = entries
            .into_iter()
            .filter(|(k, _)| !k.starts_with('@') && k != xml::TEXT_KEY)
            .collect();
        if children.len() != 1 {
            tally
                .arrow_json_refused
                .push(format!("{name}: root children of several names"));
            continue;
        }
        let records: Vec<RawValue<'_>> = match children.into_iter().next().unwrap().1 {
            RawValue::Seq(items) => items,
            one => vec![one],
        }
        .into_iter()
        .map(|record| match record {
            RawValue::Text(text) => {
                RawValue::Map(vec![(xml::TEXT_KEY.into(), RawValue::Text(text))])
            }
            other => other,
        })
        .collect();
        let lines = lines_of(&records);
        compare(&name, &bytes, RecordFormat::Xml, &lines, &mut tally);
    }
    println!("{tally:#?}");
    assert!(tally.compared >= 4, "compared only {}", tally.compared);
}

#[test]
fn toml_corpus_matches_its_json_conversion() {
    let mut tally = Tally::default();
    let inputs = inputs("toml", quarry_corpus_gen::toml_corpus());
    for (name, bytes) in inputs {
        let RawValue::Map(entries) = toml::parse(&bytes).unwrap() else {
            continue;
        };
        let tables = entries.into_iter().find(|(_, v)| {
            matches!(v, RawValue::Seq(items) if !items.is_empty() && items.iter().all(|i| matches!(i, RawValue::Map(_))))
        });
        let Some((_, RawValue::Seq(records))) = tables else {
            tally
                .arrow_json_refused
                .push(format!("{name}: no array of tables"));
            continue;
        };
        let lines = lines_of(&records);
        compare(&name, &bytes, RecordFormat::Toml, &lines, &mut tally);
    }
    println!("{tally:#?}");
    assert!(tally.compared >= 2, "compared only {}", tally.compared);
}
