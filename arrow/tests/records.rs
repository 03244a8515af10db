//! What quarry-arrow reads from each format, value by value, and how it fails.

use std::io::Cursor;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type, TimestampMicrosecondType};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef, TimeUnit};
use quarry_arrow::{
    infer_schema, read, read_json_lines, read_stream, read_with_unknown_fields, Options,
    RecordFormat, UnknownFields,
};

fn schema(fields: Vec<Field>) -> SchemaRef {
    Arc::new(Schema::new(fields))
}

fn one_batch(bytes: &str, format: RecordFormat, schema: SchemaRef) -> RecordBatch {
    let mut batches = read(bytes.as_bytes(), format, schema, &Options::default()).unwrap();
    assert_eq!(batches.len(), 1);
    batches.remove(0)
}

/// The error reading `bytes` with the default options.
fn refused(bytes: &[u8], format: RecordFormat, schema: SchemaRef) -> quarry_arrow::Error {
    read(bytes, format, schema, &Options::default()).unwrap_err()
}

fn inferred(bytes: &str, format: RecordFormat) -> Schema {
    infer_schema(bytes.as_bytes(), format, &Options::default()).unwrap()
}

fn strings(batch: &RecordBatch, column: &str) -> Vec<Option<String>> {
    let column = batch.column_by_name(column).unwrap();
    column
        .as_string::<i32>()
        .iter()
        .map(|s| s.map(str::to_owned))
        .collect()
}

fn ints(batch: &RecordBatch, column: &str) -> Vec<Option<i64>> {
    let column = batch.column_by_name(column).unwrap();
    column.as_primitive::<Int64Type>().iter().collect()
}

#[test]
fn json_lines_fill_every_type() {
    let text = r#"{"id": 1, "name": "a", "ok": true, "score": 1.5, "tags": ["x", "y"], "at": {"x": 1}}
{"id": 2, "name": null, "ok": false, "score": 2, "tags": [], "at": null}

{"name": "c", "extra": {"ignored": [1, 2]}, "id": 3}
"#;
    let schema = inferred(text, RecordFormat::JsonLines);
    let names: Vec<_> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, ["id", "name", "ok", "score", "tags", "at", "extra"]);
    assert_eq!(schema.field(3).data_type(), &DataType::Float64);
    let batch = one_batch(text, RecordFormat::JsonLines, Arc::new(schema));
    assert_eq!(batch.num_rows(), 3);
    assert_eq!(ints(&batch, "id"), [Some(1), Some(2), Some(3)]);
    assert_eq!(
        strings(&batch, "name"),
        [Some("a".into()), None, Some("c".into())]
    );
    let scores: Vec<_> = batch
        .column(3)
        .as_primitive::<Float64Type>()
        .iter()
        .collect();
    assert_eq!(scores, [Some(1.5), Some(2.0), None]);
    let tags = batch.column(4).as_list::<i32>();
    assert_eq!(tags.value_offsets(), &[0, 2, 2, 2]);
    assert!(tags.is_null(2) && !tags.is_null(1));
    let at = batch.column(5).as_struct();
    assert!(at.is_valid(0) && at.is_null(1) && at.is_null(2));
}

#[test]
fn a_value_that_does_not_fit_names_record_line_and_column() {
    let text = "{\"n\": 1}\n\n{\"n\": 2}\n{\"n\": \"three\"}\n";
    let schema = schema(vec![Field::new("n", DataType::Int64, true)]);
    let error = refused(text.as_bytes(), RecordFormat::JsonLines, schema.clone());
    assert_eq!(error.record(), Some(3));
    assert_eq!((error.line(), error.column()), (Some(4), Some(7)));
    assert_eq!(
        error.to_string(),
        "record 3: field `n`: expected an integer (Int64), found \"three\" at line 4, column 7"
    );
    // Lenient: a null instead.
    let batches = read(
        text.as_bytes(),
        RecordFormat::JsonLines,
        schema,
        &Options::default().lenient(true),
    )
    .unwrap();
    assert_eq!(ints(&batches[0], "n"), [Some(1), Some(2), None]);
}

#[test]
fn syntax_errors_and_records_that_are_not_objects_are_placed() {
    let schema = schema(vec![Field::new("n", DataType::Int64, true)]);
    let error = refused(
        b"{\"n\": 1}\n{\"n\": }\n",
        RecordFormat::JsonLines,
        schema.clone(),
    );
    assert_eq!(
        (error.line(), error.column()),
        (Some(2), Some(7)),
        "{error}"
    );
    let error = refused(
        b"{\"n\": 1}\n[1]\n",
        RecordFormat::JsonLines,
        schema.clone(),
    );
    assert_eq!(
        error.to_string(),
        "record 2: a record must be an object, found an array at line 2, column 1"
    );
    let error = read(
        b"[{\"n\": 1}, 2]",
        RecordFormat::Json,
        schema.clone(),
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(error.record(), Some(2));
    let error = read(
        b"{\"n\": 1, \"n\": 2}",
        RecordFormat::Json,
        schema.clone(),
        &Options::default(),
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("field `n` is given twice"),
        "{error}"
    );
    let strict = Arc::new(Schema::new(vec![Field::new("n", DataType::Int64, false)]));
    let error = refused(b"{}", RecordFormat::Json, strict);
    assert!(
        error
            .to_string()
            .contains("field `n` is missing but not nullable"),
        "{error}"
    );
}

#[test]
fn narrow_integers_floats_and_strings_convert_as_arrow_json_does() {
    let schema = schema(vec![
        Field::new("small", DataType::Int8, true),
        Field::new("unsigned", DataType::UInt64, true),
        Field::new("from_text", DataType::Int32, true),
        Field::new("float", DataType::Float32, true),
    ]);
    let batch = one_batch(
        r#"[{"small": 12, "unsigned": 18446744073709551615, "from_text": "42", "float": 1},
            {"small": 1.9, "from_text": "-7", "float": "2.5"}]"#,
        RecordFormat::Json,
        schema.clone(),
    );
    assert_eq!(
        format!("{:?}", batch.column(0)),
        "PrimitiveArray<Int8>\n[\n  12,\n  1,\n]"
    );
    assert_eq!(
        batch
            .column(1)
            .as_primitive::<arrow_array::types::UInt64Type>()
            .value(0),
        u64::MAX
    );
    assert_eq!(
        batch
            .column(2)
            .as_primitive::<arrow_array::types::Int32Type>()
            .values(),
        &[42, -7]
    );
    assert_eq!(
        batch
            .column(3)
            .as_primitive::<arrow_array::types::Float32Type>()
            .values(),
        &[1.0, 2.5]
    );
    let error = refused(br#"{"small": 300}"#, RecordFormat::Json, schema);
    assert!(
        error
            .to_string()
            .contains("expected an integer (Int8), found an integer"),
        "{error}"
    );
}

#[test]
fn timestamps_and_dates_from_text_and_toml_datetimes() {
    let ts = DataType::Timestamp(TimeUnit::Microsecond, Some("+00:00".into()));
    let schema = schema(vec![
        Field::new("at", ts.clone(), true),
        Field::new("day", DataType::Date32, true),
    ]);
    let batch = one_batch(
        r#"{"at": "2026-12-01T10:00:00+01:00", "day": "1970-01-11"}"#,
        RecordFormat::JsonLines,
        schema,
    );
    let at = batch.column(0).as_primitive::<TimestampMicrosecondType>();
    assert_eq!(at.value(0), 1_796_115_600_000_000);
    assert_eq!(
        batch
            .column(1)
            .as_primitive::<arrow_array::types::Date32Type>()
            .value(0),
        10
    );

    let toml = "[[event]]\nat = 2026-12-01T09:00:00Z\nday = 1970-01-11\nlocal = 2026-12-01T09:00:00\nname = \"a\"\n\n[[event]]\nname = \"b\"\n";
    let inferred = inferred(toml, RecordFormat::Toml);
    assert_eq!(inferred.field(0).data_type(), &ts);
    assert_eq!(inferred.field(1).data_type(), &DataType::Date32);
    assert_eq!(
        inferred.field(2).data_type(),
        &DataType::Timestamp(TimeUnit::Microsecond, None)
    );
    let batch = one_batch(toml, RecordFormat::Toml, Arc::new(inferred));
    let at = batch.column(0).as_primitive::<TimestampMicrosecondType>();
    assert_eq!((at.value(0), at.is_null(1)), (1_796_115_600_000_000, true));
    assert_eq!(
        batch
            .column(1)
            .as_primitive::<arrow_array::types::Date32Type>()
            .value(0),
        10
    );
    assert_eq!(
        strings(&batch, "name"),
        [Some("a".into()), Some("b".into())]
    );
}

#[test]
fn toml_records_are_the_first_array_of_tables_or_the_one_named() {
    let toml = "title = \"x\"\n[[a]]\nn = 1\n[[b]]\nm = 2\n[[b]]\nm = 3\n[b.sub]\nk = \"v\"\n";
    let schema = inferred(toml, RecordFormat::Toml);
    assert_eq!(schema.fields().len(), 1);
    let options = Options::default().records_at("b");
    let schema = infer_schema(toml.as_bytes(), RecordFormat::Toml, &options).unwrap();
    let batches = read(
        toml.as_bytes(),
        RecordFormat::Toml,
        Arc::new(schema),
        &options,
    )
    .unwrap();
    assert_eq!(ints(&batches[0], "m"), [Some(2), Some(3)]);
    let sub = batches[0].column_by_name("sub").unwrap().as_struct();
    assert!(sub.is_null(0) && sub.is_valid(1));
    let error = infer_schema(b"x = 1", RecordFormat::Toml, &Options::default()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "no array of tables at the top of the document"
    );
}

#[test]
fn yaml_streams_sequences_aliases_and_merge_keys() {
    let yaml = "\
level: info
n: 1
---
- level: warn
  n: 2
- &base {level: error, n: 3}
- <<: *base
  n: 4
- *base
---
";
    let schema = inferred(yaml, RecordFormat::Yaml);
    let batch = one_batch(yaml, RecordFormat::Yaml, Arc::new(schema));
    assert_eq!(
        strings(&batch, "level"),
        ["info", "warn", "error", "error", "error"].map(|s| Some(s.to_owned()))
    );
    assert_eq!(ints(&batch, "n"), [1, 2, 3, 4, 3].map(Some));
    // Quoted scalars stay strings; the core schema types plain ones.
    let schema = inferred("a: '1'\nb: 1\nc: ~\nd: 1e3\n", RecordFormat::Yaml);
    let types: Vec<_> = schema
        .fields()
        .iter()
        .map(|f| f.data_type().clone())
        .collect();
    assert_eq!(
        types,
        [
            DataType::Utf8,
            DataType::Int64,
            DataType::Null,
            DataType::Float64
        ]
    );
    let error = refused(b"a: x\n---\n- 3\n", RecordFormat::Yaml, Arc::new(schema));
    assert_eq!(
        error.to_string(),
        "record 2: a record must be a mapping, found a scalar at line 3, column 3"
    );
}

#[test]
fn xml_records_take_attributes_children_and_text() {
    let xml = r#"<logs>
  <entry level="info"><msg>started</msg><tag>a</tag></entry>
  <entry level="warn"><msg>slow</msg><tag>a</tag><tag>b</tag></entry>
  <entry level="info">plain</entry>
</logs>"#;
    let schema = inferred(xml, RecordFormat::Xml);
    let names: Vec<_> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, ["@level", "msg", "tag", "$text"]);
    assert!(matches!(schema.field(2).data_type(), DataType::List(_)));
    let batch = one_batch(xml, RecordFormat::Xml, Arc::new(schema));
    assert_eq!(
        strings(&batch, "@level"),
        ["info", "warn", "info"].map(|s| Some(s.to_owned()))
    );
    // The lone <tag> of the first entry is a list of one.
    let tags = batch.column(2).as_list::<i32>();
    assert_eq!(tags.value_offsets(), &[0, 1, 3, 3]);
    assert_eq!(strings(&batch, "$text"), [None, None, Some("plain".into())]);
    // XML text is untyped: a schema may ask for numbers.
    let typed = schema_of_n();
    let batch = one_batch(
        "<r><x><n>7</n></x><x><n>8</n></x></r>",
        RecordFormat::Xml,
        typed,
    );
    assert_eq!(ints(&batch, "n"), [Some(7), Some(8)]);
}

/// A MediaWiki export: the `page` elements in the root `mediawiki` are the records, the
/// `siteinfo` beside them is skipped; a deeper path reads the revisions of every page.
#[test]
fn xml_records_at_a_path_of_element_names() {
    let xml = r#"<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" xml:lang="en">
  <siteinfo><sitename>Wiki</sitename><base>https://example.org</base></siteinfo>
  <page>
    <title>One</title><ns>0</ns><id>1</id>
    <revision><id>10</id><text bytes="5">hello</text></revision>
  </page>
  <page>
    <title>Two</title><ns>0</ns><id>2</id>
    <revision><id>20</id><text bytes="3">abc</text></revision>
    <revision><id>21</id><text bytes="4">abcd</text></revision>
  </page>
</mediawiki>"#;
    let pages = Options::default().records_at("mediawiki/page");
    let schema = Arc::new(infer_schema(xml.as_bytes(), RecordFormat::Xml, &pages).unwrap());
    let names: Vec<_> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, ["title", "ns", "id", "revision"]);
    let batches = read(xml.as_bytes(), RecordFormat::Xml, schema.clone(), &pages).unwrap();
    assert_eq!(
        strings(&batches[0], "title"),
        [Some("One".into()), Some("Two".into())]
    );
    let revisions = batches[0].column(3).as_list::<i32>();
    assert_eq!(revisions.value_offsets(), &[0, 1, 3]);
    // `*` stands for any name; the revisions of every page, by a deeper path.
    for path in [
        "mediawiki/page/revision",
        "*/page/revision",
        "/mediawiki/*/revision/",
    ] {
        let options = Options::default().records_at(path);
        let schema = Arc::new(infer_schema(xml.as_bytes(), RecordFormat::Xml, &options).unwrap());
        let batch = one_batch_with(xml, RecordFormat::Xml, schema, &options);
        assert_eq!(
            strings(&batch, "id"),
            ["10", "20", "21"].map(|s| Some(s.to_owned())),
            "{path}"
        );
    }
    // The root must have the path's name.
    let error = read(
        xml.as_bytes(),
        RecordFormat::Xml,
        schema.clone(),
        &Options::default().records_at("wiki/page"),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the root element is `mediawiki`, not `wiki` (records_at) at line 1, column 1"
    );
    let error = read(
        xml.as_bytes(),
        RecordFormat::Xml,
        schema,
        &Options::default().records_at("mediawiki//page"),
    )
    .unwrap_err();
    let streamed = read_stream(
        xml.as_bytes(),
        RecordFormat::Xml,
        schema_of_n(),
        &Options::default().records_at("mediawiki//page"),
    )
    .collect::<Result<Vec<_>, _>>()
    .unwrap_err();
    assert!(
        streamed.message().contains("not a path of element names"),
        "{streamed}"
    );
    assert!(
        error.message().contains("not a path of element names"),
        "{error}"
    );
}

fn one_batch_with(
    bytes: &str,
    format: RecordFormat,
    schema: SchemaRef,
    options: &Options,
) -> RecordBatch {
    let batches = read(bytes.as_bytes(), format, schema.clone(), options).unwrap();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

fn schema_of_n() -> SchemaRef {
    schema(vec![Field::new("n", DataType::Int64, true)])
}

#[test]
fn batches_hold_batch_size_rows_and_stream_in_chunks() {
    let mut text = String::new();
    for i in 0..50_000 {
        text.push_str(&format!(
            "{{\"id\": {i}, \"name\": \"record number {i}\"}}\n"
        ));
    }
    let schema = schema(vec![
        Field::new("id", DataType::Int64, true),
        Field::new("name", DataType::Utf8, true),
    ]);
    let options = Options::default().batch_size(4096);
    let whole = read(
        text.as_bytes(),
        RecordFormat::JsonLines,
        schema.clone(),
        &options,
    )
    .unwrap();
    let streamed: Vec<RecordBatch> =
        read_json_lines(Cursor::new(text.as_bytes()), schema, &options)
            .collect::<Result<_, _>>()
            .unwrap();
    let sizes: Vec<_> = streamed.iter().map(RecordBatch::num_rows).collect();
    assert_eq!(sizes.len(), 13);
    assert!(sizes[..12].iter().all(|&n| n == 4096) && sizes[12] == 50_000 - 12 * 4096);
    assert_eq!(whole, streamed);
    let ids: i64 = streamed
        .iter()
        .flat_map(|b| b.column(0).as_primitive::<Int64Type>().values().to_vec())
        .sum();
    assert_eq!(ids, (0..50_000).sum::<i64>());
}

#[test]
fn streamed_errors_count_lines_across_chunks() {
    let mut text = String::new();
    for i in 0..30_000 {
        text.push_str(&format!("{{\"id\": {i}, \"pad\": \"................\"}}\n"));
    }
    text.push_str("{\"id\": \"x\"}\n");
    let schema = schema(vec![
        Field::new("id", DataType::Int64, true),
        Field::new("pad", DataType::Utf8, true),
    ]);
    let error = read_json_lines(Cursor::new(text.as_bytes()), schema, &Options::default())
        .find_map(Result::err)
        .unwrap();
    assert_eq!(
        (error.record(), error.line(), error.column()),
        (Some(30_001), Some(30_001), Some(8))
    );
}

#[test]
fn inference_follows_arrow_json() {
    let text = r#"{"a": 1, "b": 1, "c": [1], "d": null, "e": 1, "f": [], "g": [null]}
{"a": 2.5, "b": "x", "c": 2, "d": null, "e": true}"#;
    let schema = inferred(text, RecordFormat::JsonLines);
    let list = |t| DataType::List(Arc::new(Field::new_list_field(t, true)));
    let types: Vec<_> = schema
        .fields()
        .iter()
        .map(|f| f.data_type().clone())
        .collect();
    assert_eq!(
        types,
        [
            DataType::Float64,
            DataType::Utf8,
            list(DataType::Int64),
            DataType::Null,
            DataType::Utf8,
            list(DataType::Null),
            list(DataType::Utf8),
        ]
    );
    let error = infer_schema(
        br#"{"a": {"b": 1}}
{"a": 1}"#,
        RecordFormat::JsonLines,
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "record 2: a field holds both objects and scalars at line 2, column 1"
    );
    // Only the first records are read.
    let schema = infer_schema(
        b"{\"a\": 1}\n{\"b\": 1}\n",
        RecordFormat::JsonLines,
        &Options::default().infer_records(Some(1)),
    )
    .unwrap();
    assert_eq!(schema.fields().len(), 1);
    let views = infer_schema(
        b"{\"a\": \"x\"}",
        RecordFormat::JsonLines,
        &Options::default().string_view(true),
    )
    .unwrap();
    assert_eq!(views.field(0).data_type(), &DataType::Utf8View);
    let batch = one_batch("{\"a\": \"x\"}", RecordFormat::JsonLines, Arc::new(views));
    assert_eq!(batch.column(0).as_string_view().value(0), "x");
}

#[test]
fn errors_name_nested_fields_by_path() {
    let list = DataType::List(Arc::new(Field::new_list_field(DataType::Int64, true)));
    let inner = DataType::Struct(vec![Field::new("b", list, true)].into());
    let schema = schema(vec![Field::new("a", inner, true)]);
    let error = read(
        br#"{"a": {"b": [1, "x"]}}"#,
        RecordFormat::Json,
        schema,
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "record 1: field `a.b[]`: expected an integer (Int64), found \"x\" at line 1, column 17"
    );
}

/// Found by the fuzzer: a merge key that ends its mapping without a value.
#[test]
fn a_merge_key_without_a_value_is_an_error_not_a_panic() {
    let schema = schema(vec![Field::new("R", DataType::Utf8, true)]);
    let error = refused(b"? R\n\n\n? <<", RecordFormat::Yaml, schema);
    assert!(
        error
            .to_string()
            .contains("a merge key's value must be a mapping"),
        "{error}"
    );
}

/// A column is sized once for the rows a JSON Lines text holds (its line count), not
/// grown from empty by doubling: 2,000 lines leave 2,001 values of room (the last line
/// may lack its newline), where growth would have left 2,048. A string column starts
/// with room for 16 bytes a value, and later batches start with what the last one held.
/// (Buffers this large are handed over as they were built; small ones are copied into
/// the batch's slab, whose room is the sum of theirs.)
#[test]
fn columns_make_room_for_the_rows_at_once() {
    let text: String = (0..2000)
        .map(|i| format!("{{\"n\":{i},\"s\":\"v{i:04}\"}}\n"))
        .collect();
    let schema = schema(vec![
        Field::new("n", DataType::Int64, true),
        Field::new("s", DataType::Utf8, true),
    ]);
    let batch = one_batch(&text, RecordFormat::JsonLines, schema.clone());
    let n = batch.column(0).as_primitive::<Int64Type>();
    assert_eq!(n.values().inner().capacity(), 2001 * 8);
    let s = batch.column(1).as_string::<i32>();
    assert_eq!(s.offsets().inner().inner().capacity(), 2002 * 4);
    assert_eq!(s.values().capacity(), 2001 * 16);

    let options = Options::default().batch_size(1000);
    let batches = read(text.as_bytes(), RecordFormat::JsonLines, schema, &options).unwrap();
    assert_eq!(batches.len(), 2);
    let second = batches[1].column(1).as_string::<i32>();
    assert_eq!(second.values().capacity(), 1000 * 5);
}

/// A batch's small buffers are copied into one slab that its arrays share: a batch of
/// many narrow columns costs one allocation for its buffers, not one a buffer, and the
/// columns' vectors are kept for the next batch, whose arrays are copies of their own.
#[test]
fn a_batch_of_small_columns_shares_one_buffer() {
    let fields: Vec<Field> = (0..20)
        .flat_map(|i| {
            [
                Field::new(format!("n{i}"), DataType::Int64, true),
                Field::new(format!("s{i}"), DataType::Utf8, true),
            ]
        })
        .collect();
    let text: String = (0..30)
        .map(|row| {
            let cells: Vec<String> = (0..20)
                .filter(|i| (row + i) % 3 != 0)
                .map(|i| format!("\"n{i}\":{},\"s{i}\":\"r{row}c{i}\"", row * i))
                .collect();
            format!("{{{}}}\n", cells.join(","))
        })
        .collect();
    let options = Options::default().batch_size(10);
    let batches = read(
        text.as_bytes(),
        RecordFormat::JsonLines,
        schema(fields),
        &options,
    )
    .unwrap();
    assert_eq!(batches.len(), 3);
    for (b, batch) in batches.iter().enumerate() {
        let mut owners = std::collections::HashSet::new();
        for i in 0..20 {
            let n = batch.column(2 * i).as_primitive::<Int64Type>();
            let s = batch.column(2 * i + 1).as_string::<i32>();
            for row in 0..10 {
                let r = b * 10 + row;
                let given = (r + i) % 3 != 0;
                assert_eq!(n.is_valid(row), given, "batch {b} row {row} n{i}");
                assert_eq!(s.is_valid(row), given);
                if given {
                    assert_eq!(n.value(row), (r * i) as i64);
                    assert_eq!(s.value(row), format!("r{r}c{i}"));
                }
            }
            owners.insert(n.values().inner().data_ptr());
            owners.insert(s.values().data_ptr());
            owners.insert(s.offsets().inner().inner().data_ptr());
            owners.insert(n.nulls().unwrap().buffer().data_ptr());
        }
        assert_eq!(
            owners.len(),
            1,
            "batch {b}: every buffer is a slice of one slab"
        );
    }
}

/// Keys are guessed from the order of the record before and compared in place: a key
/// that follows another order, a key written with an escape, a key that begins like the
/// guess, and a field whose name has a quote in it (never compared in place) all land
/// in their own columns, on the direct path and the events alike.
#[test]
fn guessed_keys_land_in_their_columns_whatever_the_order_and_spelling() {
    let schema = schema(vec![
        Field::new("a", DataType::Int64, true),
        Field::new("ab", DataType::Int64, true),
        Field::new("say \"hi\"", DataType::Int64, true),
        Field::new("naïve", DataType::Utf8, true),
    ]);
    let text = r#"{"a": 1, "ab": 2, "say \"hi\"": 3, "naïve": "x"}
{"a": 4, "ab": 5, "say \"hi\"": 6, "naïve": "y"}
{"ab": 7, "a": 8, "na\u00efve": "z", "say \u0022hi\u0022": 9}
{"a\u0062": 10, "\u0061": 11, "abc": 0, "naïve": "w"}
{"a": 12}
"#;
    let ignoring = Options::default().unknown_fields(UnknownFields::Ignore);
    for options in [ignoring.clone(), ignoring.events_only(true)] {
        let batches = read(
            text.as_bytes(),
            RecordFormat::JsonLines,
            schema.clone(),
            &options,
        )
        .unwrap();
        let batch = &batches[0];
        assert_eq!(
            ints(batch, "a"),
            [Some(1), Some(4), Some(8), Some(11), Some(12)]
        );
        assert_eq!(
            ints(batch, "ab"),
            [Some(2), Some(5), Some(7), Some(10), None]
        );
        assert_eq!(
            ints(batch, "say \"hi\""),
            [Some(3), Some(6), Some(9), None, None]
        );
        assert_eq!(
            strings(batch, "naïve"),
            [Some("x"), Some("y"), Some("z"), Some("w"), None].map(|s| s.map(str::to_owned))
        );
    }
}

/// `read` and `read_json_lines` take JSON Lines by the direct path (records pulled from
/// the parser into the columns); with `events_only`, by the parser's events. On every
/// input below, strict and lenient, whole and streamed, whatever unknown fields do, the
/// two paths give the same batches (and counts of unknown fields) or the same error,
/// message and place included: where the direct path gives up, the events read the input
/// (or the chunk) again to say what is wrong.
#[test]
fn the_direct_path_and_the_events_agree() {
    let item = Arc::new(Field::new("item", DataType::Int64, true));
    let inner = Fields::from(vec![
        Field::new("x", DataType::Float64, true),
        Field::new("tags", DataType::List(item.clone()), true),
    ]);
    let schema = schema(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("name", DataType::Utf8, true),
        Field::new("ok", DataType::Boolean, true),
        Field::new("small", DataType::UInt8, true),
        Field::new("inner", DataType::Struct(inner), true),
        Field::new("list", DataType::List(item), true),
    ]);
    let inputs = [
        // Fits: unknown keys (scalar and nested), nulls, keys in any order, escapes,
        // big numbers, empty containers, blank lines.
        "{\"id\":1,\"name\":\"a\\n\\u00e9\",\"ok\":true,\"small\":7}\n\n{\"other\":{\"a\":[1,{}]},\"id\":2}\n",
        "{\"list\":[1,null,3],\"id\":3,\"inner\":{\"tags\":[],\"x\":1e400}}\n{\"id\":4,\"inner\":null,\"list\":null}",
        "{\"id\":18446744073709551615}\n{\"id\":5,\"inner\":{\"x\":12345678901234567890123}}",
        "{}\n",
        // Misfits: strict errors, lenient nulls.
        "{\"id\":1,\"small\":300}\n",
        "{\"id\":1,\"ok\":\"yes\"}\n",
        "{\"id\":1,\"inner\":[1]}\n{\"id\":2,\"list\":{\"a\":1}}\n",
        "{\"id\":1,\"list\":[1,\"two\"]}\n",
        "{\"id\":1,\"name\":\"a\",\"name\":\"b\"}\n",
        "{\"id\":1,\"inner\":{\"x\":1,\"x\":2}}\n",
        "{\"id\":null}\n",
        "{\"name\":\"no id\"}\n",
        // Syntax errors, and records that are not objects.
        "{\"id\":1}\n{\"id\":2,}\n",
        "{\"id\":1} [1]\n",
        "{\"id\":1}\n\"text\"\n",
        "{\"id\":1,\"name\":\"a\u{1}b\"}\n",
        "{\"id\":1\n",
        "",
    ];
    fn same<E: std::fmt::Display + std::fmt::Debug>(
        direct: Result<Vec<RecordBatch>, E>,
        events: Result<Vec<RecordBatch>, E>,
        what: &str,
    ) {
        match (direct, events) {
            (Ok(direct), Ok(events)) => assert_eq!(direct, events, "{what}"),
            (Err(direct), Err(events)) => {
                assert_eq!(direct.to_string(), events.to_string(), "{what}")
            }
            (direct, events) => panic!("{what}: direct {direct:?}, events {events:?}"),
        }
    }
    let policies = [
        UnknownFields::Error,
        UnknownFields::Ignore,
        UnknownFields::Collect,
    ];
    for (lenient, unknown) in [false, true]
        .into_iter()
        .flat_map(|l| policies.map(|u| (l, u)))
    {
        let options = Options::default()
            .lenient(lenient)
            .unknown_fields(unknown)
            .batch_size(2);
        let events = options.clone().events_only(true);
        for input in inputs {
            let what = format!("{input:?} lenient {lenient}, {unknown:?}");
            let bytes = input.as_bytes();
            same(
                read(bytes, RecordFormat::JsonLines, schema.clone(), &options),
                read(bytes, RecordFormat::JsonLines, schema.clone(), &events),
                &what,
            );
            let counted = |options: &Options| {
                read_with_unknown_fields(bytes, RecordFormat::JsonLines, schema.clone(), options)
                    .map(|(_, counts)| counts)
                    .ok()
            };
            assert_eq!(counted(&options), counted(&events), "{what}");
            let stream = |options: &Options| -> Result<Vec<RecordBatch>, _> {
                read_json_lines(Cursor::new(bytes), schema.clone(), options).collect()
            };
            same(
                stream(&options),
                stream(&events),
                &format!("{what}, streamed"),
            );
        }
    }
    // Streamed, an error in a later chunk counts records and lines from the stream's start.
    let mut text = String::new();
    for i in 0..30_000 {
        text.push_str(&format!("{{\"id\":{i},\"name\":\"record {i} of many\"}}\n"));
    }
    text.push_str("{\"id\":\"thirty thousand\"}\n");
    let stream = |options: &Options| -> Result<Vec<RecordBatch>, _> {
        read_json_lines(Cursor::new(text.as_bytes()), schema.clone(), options).collect()
    };
    let options = Options::default();
    let direct = stream(&options).unwrap_err().to_string();
    assert!(
        direct.contains("record 30001") && direct.contains("line 30001"),
        "{direct}"
    );
    same(
        stream(&options),
        stream(&options.clone().events_only(true)),
        "a misfit after 30,000 records",
    );
}
