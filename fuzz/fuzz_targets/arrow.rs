//! quarry-arrow over every record format: inferring a schema and reading with it, or with
//! a fixed schema of every type (strict and lenient), never panics; a JSON Lines text
//! reads the same whole and streamed; JSON and JSON Lines read the same by the direct path
//! and by the parser's events (`events_only`), batches or error text; every batch has the
//! rows its columns hold.
#![no_main]

use std::fmt::{Debug, Display};
use std::io::Cursor;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, TimeUnit};
use libfuzzer_sys::fuzz_target;
use quarry_arrow::{infer_schema, read, read_json_lines, Options, RecordFormat};

const FORMATS: [RecordFormat; 5] = [
    RecordFormat::JsonLines,
    RecordFormat::Json,
    RecordFormat::Yaml,
    RecordFormat::Xml,
    RecordFormat::Toml,
];

fn fixed() -> Arc<Schema> {
    let list = |t| DataType::List(Arc::new(Field::new_list_field(t, true)));
    Arc::new(Schema::new(vec![
        Field::new("a", DataType::Int64, true),
        Field::new("b", DataType::Utf8, true),
        Field::new("c", list(DataType::Float64), true),
        Field::new(
            "d",
            DataType::Struct(
                vec![
                    Field::new("e", DataType::Boolean, true),
                    Field::new("f", list(list(DataType::UInt8)), true),
                ]
                .into(),
            ),
            true,
        ),
        Field::new(
            "g",
            DataType::Timestamp(TimeUnit::Millisecond, Some("+02:00".into())),
            true,
        ),
        Field::new("h", DataType::Date32, true),
        Field::new("@i", DataType::Utf8View, true),
        Field::new("j", DataType::Null, true),
    ]))
}

/// Two reads of one input give the same batches, or errors with the same text.
fn agree<T: PartialEq + Debug, E: Display + Debug>(a: &Result<T, E>, b: &Result<T, E>, what: &str) {
    match (a, b) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{what}"),
        _ => panic!("{what} disagree: {a:?} / {b:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let format = FORMATS[selector as usize % FORMATS.len()];
    let options = Options::default()
        .batch_size(1 + (selector as usize >> 3))
        .infer_records(None);
    let mut schemas = vec![fixed()];
    if let Ok(schema) = infer_schema(bytes, format, &options) {
        schemas.push(Arc::new(schema));
    }
    for schema in schemas {
        for lenient in [false, true] {
            let options = options.clone().lenient(lenient);
            let whole = read(bytes, format, schema.clone(), &options);
            if let Ok(batches) = &whole {
                for batch in batches {
                    assert!(batch.num_rows() <= options.get_batch_size().max(1));
                    for column in batch.columns() {
                        assert_eq!(column.len(), batch.num_rows());
                    }
                }
            }
            if matches!(format, RecordFormat::JsonLines | RecordFormat::Json) {
                let events = options.clone().events_only(true);
                let by_events = read(bytes, format, schema.clone(), &events);
                agree(&whole, &by_events, "direct and events");
            }
            if format == RecordFormat::JsonLines {
                let streamed: Result<Vec<_>, _> =
                    read_json_lines(Cursor::new(bytes), schema.clone(), &options).collect();
                let streamed_by_events: Result<Vec<_>, _> = read_json_lines(
                    Cursor::new(bytes),
                    schema.clone(),
                    &options.clone().events_only(true),
                )
                .collect();
                agree(&streamed, &streamed_by_events, "streamed direct and events");
                match (&whole, &streamed) {
                    (Ok(a), Ok(b)) => {
                        // `read` hands an empty batch for an empty text; the stream none.
                        let a: Vec<_> = a.iter().filter(|b| b.num_rows() > 0).collect();
                        assert_eq!(a, b.iter().collect::<Vec<_>>());
                    }
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                    _ => panic!("whole and streamed disagree: {whole:?} / {streamed:?}"),
                }
            }
        }
    }
});
