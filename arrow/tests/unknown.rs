//! No field is lost without a word: a field the schema lacks is an error naming the
//! record, the field and its line and column, unless the reader ignores or counts it;
//! inference reads every record by default, and a sample counts what it missed; types
//! widen as inference goes, and a value that does not fit a fixed schema is an error (or
//! a null when lenient).

use std::io::Cursor;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use quarry_arrow::{
    infer_schema, read, read_json_lines, read_stream, read_with_unknown_fields, Error, FieldCounts,
    Options, RecordFormat, UnknownFields,
};

const FORMATS: [RecordFormat; 5] = [
    RecordFormat::JsonLines,
    RecordFormat::Json,
    RecordFormat::Yaml,
    RecordFormat::Xml,
    RecordFormat::Toml,
];

/// Records 1 to 1,000 with `id` and `name`; record 1,001 also has `extra`. Each record
/// is one line (XML, JSON), or starts a line of its own: the line and column `extra`
/// stands at in record 1,001, and the text.
fn thousand_and_one(format: RecordFormat) -> (String, u64, u64) {
    let mut text = String::new();
    let mut extra_at = (0, 0);
    match format {
        RecordFormat::Json => text.push_str("[\n"),
        RecordFormat::Xml => text.push_str("<log>\n"),
        _ => {}
    }
    for i in 1..=1001u64 {
        let extra = i == 1001;
        let line = text.lines().count() as u64 + 1;
        let (record, column) = match format {
            RecordFormat::JsonLines | RecordFormat::Json => {
                let comma = if format == RecordFormat::Json && i > 1 {
                    ","
                } else {
                    ""
                };
                let record = format!("{comma}{{\"id\": {i}, \"name\": \"n{i}\"");
                let column = record.len() as u64 + 3;
                let tail = if extra { ", \"extra\": true}" } else { "}" };
                (format!("{record}{tail}\n"), column)
            }
            RecordFormat::Yaml => {
                let record = format!("---\nid: {i}\nname: n{i}\n");
                let tail = if extra { "extra: true\n" } else { "" };
                (format!("{record}{tail}"), 1)
            }
            RecordFormat::Xml => {
                let record = format!("<r><id>{i}</id><name>n{i}</name>");
                let column = record.len() as u64 + 1;
                let tail = if extra {
                    "<extra>true</extra></r>"
                } else {
                    "</r>"
                };
                (format!("{record}{tail}\n"), column)
            }
            RecordFormat::Toml => {
                let record = format!("[[r]]\nid = {i}\nname = \"n{i}\"\n");
                let tail = if extra { "extra = true\n" } else { "" };
                (format!("{record}{tail}"), 1)
            }
        };
        if extra {
            let lines_before_extra = match format {
                RecordFormat::Yaml | RecordFormat::Toml => 3,
                _ => 0,
            };
            extra_at = (line + lines_before_extra, column);
        }
        text.push_str(&record);
    }
    match format {
        RecordFormat::Json => text.push_str("]\n"),
        RecordFormat::Xml => text.push_str("</log>\n"),
        _ => {}
    }
    (text, extra_at.0, extra_at.1)
}

fn sample() -> Options {
    Options::default().infer_records(Some(1000))
}

/// Every reader of `bytes` (whole, whole with counts, streamed, and `read_json_lines`
/// for JSON Lines): its batches and the counts it reports, or its error.
fn every_reader(
    bytes: &[u8],
    format: RecordFormat,
    schema: &SchemaRef,
    options: &Options,
) -> Vec<Result<(Vec<RecordBatch>, FieldCounts), Error>> {
    let mut results = vec![
        read(bytes, format, schema.clone(), options).map(|batches| (batches, FieldCounts::new())),
        read_with_unknown_fields(bytes, format, schema.clone(), options),
    ];
    for chunk in [1, 1 << 20] {
        let options = options.clone().stream_chunk(chunk);
        let mut reader = read_stream(Cursor::new(bytes), format, schema.clone(), &options);
        let batches: Result<Vec<_>, _> = reader.by_ref().collect();
        results.push(batches.map(|batches| (batches, reader.unknown_fields())));
    }
    if format == RecordFormat::JsonLines {
        let mut reader = read_json_lines(Cursor::new(bytes), schema.clone(), options);
        let batches: Result<Vec<_>, _> = reader.by_ref().collect();
        results.push(batches.map(|batches| (batches, reader.unknown_fields())));
    }
    results
}

#[test]
fn a_field_after_the_sample_is_an_error_naming_record_field_line_and_column() {
    for format in FORMATS {
        let (text, line, column) = thousand_and_one(format);
        let schema = Arc::new(infer_schema(text.as_bytes(), format, &sample()).unwrap());
        assert!(schema.field_with_name("extra").is_err(), "{format:?}");
        for result in every_reader(text.as_bytes(), format, &schema, &Options::default()) {
            let error = result.unwrap_err();
            assert_eq!(
                error.message(),
                "field `extra` is not in the schema",
                "{format:?}"
            );
            assert_eq!(
                (error.record(), error.line(), error.column()),
                (Some(1001), Some(line), Some(column)),
                "{format:?}: {error}"
            );
            assert_eq!(
                error.to_string(),
                format!(
                    "record 1001: field `extra` is not in the schema at line {line}, column {column}"
                )
            );
        }
    }
}

#[test]
fn inference_reads_every_record_by_default() {
    for format in FORMATS {
        let (text, ..) = thousand_and_one(format);
        let schema = Arc::new(infer_schema(text.as_bytes(), format, &Options::default()).unwrap());
        let extra = schema.field_with_name("extra").unwrap();
        let expected = match format {
            RecordFormat::Xml => DataType::Utf8,
            _ => DataType::Boolean,
        };
        assert_eq!(extra.data_type(), &expected, "{format:?}");
        for result in every_reader(text.as_bytes(), format, &schema, &Options::default()) {
            let (batches, counts) = result.unwrap();
            assert!(counts.is_empty(), "{format:?}");
            let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
            assert_eq!(rows, 1001, "{format:?}");
            let last = batches.last().unwrap();
            let extra = last.column_by_name("extra").unwrap();
            assert_eq!(extra.null_count(), last.num_rows() - 1, "{format:?}");
            assert!(extra.is_valid(last.num_rows() - 1), "{format:?}");
        }
    }
}

#[test]
fn collect_counts_each_unknown_field_and_reads_on() {
    for format in FORMATS {
        let (text, ..) = thousand_and_one(format);
        let schema = Arc::new(infer_schema(text.as_bytes(), format, &sample()).unwrap());
        let collect = Options::default().unknown_fields(UnknownFields::Collect);
        // A sample's options count by default.
        for (options, chosen) in [(collect, true), (sample(), false)] {
            assert_eq!(options.get_unknown_fields(), UnknownFields::Collect);
            let results = every_reader(text.as_bytes(), format, &schema, &options);
            for (i, result) in results.into_iter().enumerate() {
                // Plain `read` cannot give counts: counting that is only the default is
                // an error there, so the field is not dropped without a word.
                if i == 0 && !chosen {
                    assert_eq!(result.unwrap_err().record(), Some(1001), "{format:?}");
                    continue;
                }
                let (batches, counts) = result.unwrap();
                let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
                assert_eq!(rows, 1001, "{format:?}");
                if !counts.is_empty() {
                    assert_eq!(
                        counts,
                        FieldCounts::from([("extra".into(), 1)]),
                        "{format:?}"
                    );
                }
            }
            let (_, counts) =
                read_with_unknown_fields(text.as_bytes(), format, schema.clone(), &options)
                    .unwrap();
            assert_eq!(
                counts,
                FieldCounts::from([("extra".into(), 1)]),
                "{format:?}"
            );
        }
        let ignore = Options::default().unknown_fields(UnknownFields::Ignore);
        for result in every_reader(text.as_bytes(), format, &schema, &ignore) {
            let (batches, counts) = result.unwrap();
            assert_eq!(
                batches.iter().map(RecordBatch::num_rows).sum::<usize>(),
                1001
            );
            assert!(counts.is_empty(), "{format:?}");
        }
    }
    assert_eq!(
        Options::default().get_unknown_fields(),
        UnknownFields::Error
    );
    assert_eq!(
        sample()
            .unknown_fields(UnknownFields::Error)
            .get_unknown_fields(),
        UnknownFields::Error
    );
}

#[test]
fn streamed_counts_cover_the_whole_source() {
    let mut text = String::new();
    for i in 0..5000 {
        text.push_str(&format!("{{\"id\": {i}, \"odd{}\": 1}}\n", i % 2));
    }
    let schema: SchemaRef = Arc::new(Schema::new(vec![Field::new("id", DataType::Int64, true)]));
    let options = Options::default()
        .unknown_fields(UnknownFields::Collect)
        .batch_size(100);
    let mut reader = read_json_lines(Cursor::new(text.as_bytes()), schema.clone(), &options);
    let rows: usize = reader.by_ref().map(|b| b.unwrap().num_rows()).sum();
    assert_eq!(rows, 5000);
    let expected = FieldCounts::from([("odd0".into(), 2500), ("odd1".into(), 2500)]);
    assert_eq!(reader.unknown_fields(), expected);
    let (_, counts) =
        read_with_unknown_fields(text.as_bytes(), RecordFormat::JsonLines, schema, &options)
            .unwrap();
    assert_eq!(counts, expected);
}

#[test]
fn nested_unknown_fields_are_named_by_their_path() {
    let text = "{\"meta\": {\"a\": 1, \"b\": 2}, \"items\": [{\"x\": 1}, {\"x\": 2, \"y\": 3}]}\n";
    let item = DataType::Struct(vec![Field::new("x", DataType::Int64, true)].into());
    let schema: SchemaRef = Arc::new(Schema::new(vec![
        Field::new(
            "meta",
            DataType::Struct(vec![Field::new("a", DataType::Int64, true)].into()),
            true,
        ),
        Field::new(
            "items",
            DataType::List(Arc::new(Field::new_list_field(item, true))),
            true,
        ),
    ]));
    let error = read(
        text.as_bytes(),
        RecordFormat::JsonLines,
        schema.clone(),
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "record 1: field `meta.b` is not in the schema at line 1, column 19"
    );
    let options = Options::default().unknown_fields(UnknownFields::Collect);
    let (_, counts) =
        read_with_unknown_fields(text.as_bytes(), RecordFormat::JsonLines, schema, &options)
            .unwrap();
    assert_eq!(
        counts,
        FieldCounts::from([("items[].y".into(), 1), ("meta.b".into(), 1)])
    );
}

/// XML and TOML records are gathered as values before they meet the columns; the field
/// is placed by reading the document again: an attribute, a nested element, a key in a
/// table of an array of tables.
#[test]
fn fields_of_gathered_records_are_placed_at_themselves() {
    let xml = "<log>\n<r id=\"1\"><m><a>1</a></m></r>\n<r id=\"2\" at=\"x\">\n  <m><a>2</a></m>\n</r>\n<r id=\"3\">\n  <m>\n    <a>3</a><b>4</b>\n  </m>\n</r>\n</log>\n";
    let meta = DataType::Struct(vec![Field::new("a", DataType::Int64, true)].into());
    let schema: SchemaRef = Arc::new(Schema::new(vec![
        Field::new("@id", DataType::Int64, true),
        Field::new("m", meta, true),
    ]));
    let error = read(
        xml.as_bytes(),
        RecordFormat::Xml,
        schema.clone(),
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "record 2: field `@at` is not in the schema at line 3, column 11"
    );
    let without_at = xml.replace(" at=\"x\"", "");
    let error = read(
        without_at.as_bytes(),
        RecordFormat::Xml,
        schema.clone(),
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "record 3: field `m.b` is not in the schema at line 8, column 13"
    );
    let toml = "[[r]]\nid = 1\n\n[[r]]\nid = 2\n[r.m]\na = 1\nb = 2\n";
    let schema: SchemaRef = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, true),
        Field::new(
            "m",
            DataType::Struct(vec![Field::new("a", DataType::Int64, true)].into()),
            true,
        ),
    ]));
    let error = read(
        toml.as_bytes(),
        RecordFormat::Toml,
        schema,
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "record 2: field `m.b` is not in the schema at line 8, column 1"
    );
}

/// Int64 widens to Float64 and to Utf8, Float64 to Utf8, and a field seen only as null
/// takes the type that comes later, whatever the order.
#[test]
fn inference_widens_types() {
    let text = r#"{"i": 1, "f": 1, "s": 1, "n": null, "fs": 1.5}
{"i": 2, "f": 2.5, "s": 2.5, "n": null, "fs": 2}
{"i": 3, "f": 3, "s": "three", "n": 7, "fs": "x"}
{"n": null}
"#;
    let schema = infer_schema(
        text.as_bytes(),
        RecordFormat::JsonLines,
        &Options::default(),
    )
    .unwrap();
    let types: Vec<_> = schema
        .fields()
        .iter()
        .map(|f| (f.name().as_str(), f.data_type().clone()))
        .collect();
    assert_eq!(
        types,
        [
            ("i", DataType::Int64),
            ("f", DataType::Float64),
            ("s", DataType::Utf8),
            ("n", DataType::Int64),
            ("fs", DataType::Utf8),
        ]
    );
    let batch = &read(
        text.as_bytes(),
        RecordFormat::JsonLines,
        Arc::new(schema),
        &Options::default(),
    )
    .unwrap()[0];
    let f = batch
        .column_by_name("f")
        .unwrap()
        .as_primitive::<Float64Type>();
    assert_eq!(
        f.iter().collect::<Vec<_>>(),
        [Some(1.0), Some(2.5), Some(3.0), None]
    );
    let s = batch.column_by_name("s").unwrap().as_string::<i32>();
    assert_eq!(
        s.iter().collect::<Vec<_>>(),
        [Some("1"), Some("2.5"), Some("three"), None]
    );
    let n = batch
        .column_by_name("n")
        .unwrap()
        .as_primitive::<Int64Type>();
    assert_eq!(n.iter().collect::<Vec<_>>(), [None, None, Some(7), None]);
    // A sample that saw only nulls and integers: nulls first, then a type, in any order.
    for (first, second, expected) in [
        ("null", "1", DataType::Int64),
        ("1", "null", DataType::Int64),
        ("null", "1.5", DataType::Float64),
        ("null", "\"a\"", DataType::Utf8),
        ("null", "true", DataType::Boolean),
        ("1", "1.5", DataType::Float64),
        ("1.5", "1", DataType::Float64),
        ("1", "\"a\"", DataType::Utf8),
        ("\"a\"", "1.5", DataType::Utf8),
    ] {
        let text = format!("{{\"v\": {first}}}\n{{\"v\": {second}}}\n");
        let schema = infer_schema(
            text.as_bytes(),
            RecordFormat::JsonLines,
            &Options::default(),
        )
        .unwrap();
        assert_eq!(
            schema.field(0).data_type(),
            &expected,
            "{first} then {second}"
        );
    }
}

/// A schema fixed from a sample meets a value of another type later: an error naming the
/// record, line and column, or a null with `lenient(true)`.
#[test]
fn a_conflicting_type_after_the_sample_is_an_error_or_null_when_lenient() {
    let mut text = String::new();
    for i in 1..=1000 {
        text.push_str(&format!("{{\"n\": {i}}}\n"));
    }
    text.push_str("{\"n\": \"many\"}\n");
    let schema =
        Arc::new(infer_schema(text.as_bytes(), RecordFormat::JsonLines, &sample()).unwrap());
    assert_eq!(schema.field(0).data_type(), &DataType::Int64);
    let error = read(
        text.as_bytes(),
        RecordFormat::JsonLines,
        schema.clone(),
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(
        (error.record(), error.line(), error.column()),
        (Some(1001), Some(1001), Some(7))
    );
    assert!(error.message().contains("field `n`"), "{error}");
    let batches = read(
        text.as_bytes(),
        RecordFormat::JsonLines,
        schema.clone(),
        &Options::default().lenient(true),
    )
    .unwrap();
    let last = batches.last().unwrap();
    let n = last.column(0).as_primitive::<Int64Type>();
    assert!(n.is_null(n.len() - 1));
    assert_eq!(n.value(n.len() - 2), 1000);
    // All records inferred: the column is text, and nothing conflicts.
    let schema = infer_schema(
        text.as_bytes(),
        RecordFormat::JsonLines,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(schema.field(0).data_type(), &DataType::Utf8);
}
