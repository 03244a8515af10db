//! `Options::limits` in every format, through `read`, `read_with_unknown_fields`,
//! `infer_schema`, `read_stream` and `read_json_lines`: a depth bomb, a YAML alias bomb and
//! an XML entity bomb end in an error naming the limit, under the default limits and under
//! limits the user set; a raised depth reads a document the default refuses; a lowered
//! size refuses a larger source.

use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, SchemaRef};
use quarry_arrow::{
    infer_schema, read, read_json_lines, read_stream, read_with_unknown_fields, Error, Limits,
    Options, RecordFormat, UnknownFields,
};

/// A record whose field `a` nests `depth` lists (or elements) deep, in `format`.
fn deep(format: RecordFormat, depth: usize) -> Vec<u8> {
    let lists = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    match format {
        RecordFormat::JsonLines => format!("{{\"a\": {lists}}}\n"),
        RecordFormat::Json => format!("[{{\"a\": {lists}}}]"),
        RecordFormat::Yaml => format!("a: {lists}\n"),
        RecordFormat::Toml => format!("[[r]]\na = {lists}\n"),
        RecordFormat::Xml => format!(
            "<r><rec>{}1{}</rec></r>",
            "<a>".repeat(depth),
            "</a>".repeat(depth)
        ),
    }
    .into_bytes()
}

const FORMATS: [RecordFormat; 5] = [
    RecordFormat::JsonLines,
    RecordFormat::Json,
    RecordFormat::Yaml,
    RecordFormat::Toml,
    RecordFormat::Xml,
];

fn any_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![Field::new("z", DataType::Utf8, true)]))
}

/// Options reading past the fields `any_schema` lacks, so that only a limit can fail.
fn ignoring() -> Options {
    Options::default().unknown_fields(UnknownFields::Ignore)
}

/// The errors of every reader of `bytes`: whole, whole with counts, inferring, streamed
/// (and, for JSON Lines, `read_json_lines`).
fn all_fail(bytes: &[u8], format: RecordFormat, options: &Options) -> Vec<Error> {
    let mut errors = vec![
        read(bytes, format, any_schema(), options).unwrap_err(),
        read_with_unknown_fields(bytes, format, any_schema(), options).unwrap_err(),
        infer_schema(bytes, format, options).unwrap_err(),
        read_stream(bytes, format, any_schema(), options)
            .collect::<Result<Vec<_>, _>>()
            .unwrap_err(),
    ];
    if format == RecordFormat::JsonLines {
        errors.push(
            read_json_lines(bytes, any_schema(), options)
                .collect::<Result<Vec<_>, _>>()
                .unwrap_err(),
        );
    }
    errors
}

#[test]
fn a_depth_bomb_names_the_default_limit_in_every_format() {
    for format in FORMATS {
        let bytes = deep(format, 200);
        for error in all_fail(&bytes, format, &Options::default()) {
            assert!(
                error
                    .message()
                    .contains("nesting deeper than the limit of 128"),
                "{format:?}: {error}"
            );
            assert!(error.line().is_some(), "{format:?}: {error}");
        }
        let error = infer_schema(&bytes, format, &Options::default()).unwrap_err();
        assert!(
            error.message().contains("limit of 128"),
            "{format:?}: {error}"
        );
    }
}

#[test]
fn a_lowered_depth_is_the_limit_named() {
    let options = ignoring().limits(Limits::default().with_max_depth(8));
    for format in FORMATS {
        let bytes = deep(format, 12);
        read(&bytes, format, any_schema(), &ignoring())
            .unwrap_or_else(|e| panic!("{format:?}: the default reads 12 deep: {e}"));
        for error in all_fail(&bytes, format, &options) {
            assert!(
                error
                    .message()
                    .contains("nesting deeper than the limit of 8"),
                "{format:?}: {error}"
            );
        }
    }
}

#[test]
fn a_raised_depth_reads_what_the_default_refuses() {
    let options = Options::default()
        .infer_records(None)
        .limits(Limits::default().with_max_depth(400));
    for format in FORMATS {
        let bytes = deep(format, 200);
        let schema = Arc::new(infer_schema(&bytes, format, &options).unwrap());
        let whole = read(&bytes, format, schema.clone(), &options).unwrap();
        assert_eq!(whole[0].num_rows(), 1, "{format:?}");
        let (counted, unknown) =
            read_with_unknown_fields(&bytes, format, schema.clone(), &options).unwrap();
        assert_eq!((&counted, unknown.len()), (&whole, 0), "{format:?}");
        let streamed: Vec<_> = read_stream(&bytes[..], format, schema.clone(), &options)
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(streamed, whole, "{format:?}");
        if format == RecordFormat::JsonLines {
            let lines: Vec<_> = read_json_lines(&bytes[..], schema, &options)
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(lines, whole);
        }
    }
}

/// Each anchor holds nine aliases of the one before: 9^depth nodes.
fn alias_bomb(depth: usize) -> String {
    let mut yaml = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..=depth {
        let p = i - 1;
        yaml.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    yaml
}

#[test]
fn a_yaml_alias_bomb_names_the_limit() {
    let bytes = alias_bomb(9);
    for error in all_fail(bytes.as_bytes(), RecordFormat::Yaml, &Options::default()) {
        assert!(
            error
                .message()
                .contains("aliases expand to more than the limit of 1000000 nodes"),
            "{error}"
        );
    }
    let small = alias_bomb(3);
    read(
        small.as_bytes(),
        RecordFormat::Yaml,
        any_schema(),
        &ignoring(),
    )
    .unwrap();
    let options = ignoring().limits(Limits::default().with_max_alias_expansion(100));
    for error in all_fail(small.as_bytes(), RecordFormat::Yaml, &options) {
        assert!(
            error
                .message()
                .contains("aliases expand to more than the limit of 100 nodes"),
            "{error}"
        );
    }
}

/// Each entity holds ten of the one before: 10^(levels + 1) bytes.
fn entity_bomb(levels: usize) -> String {
    let mut xml =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n<!ENTITY e0 \"xxxxxxxxxx\">\n");
    for i in 1..=levels {
        let p = i - 1;
        xml.push_str(&format!(
            "<!ENTITY e{i} \"{}\">\n",
            format!("&e{p};").repeat(10)
        ));
    }
    xml.push_str(&format!("]>\n<r><rec><v>&e{levels};</v></rec></r>\n"));
    xml
}

#[test]
fn an_xml_entity_bomb_names_the_limit() {
    let bytes = entity_bomb(8);
    for error in all_fail(bytes.as_bytes(), RecordFormat::Xml, &Options::default()) {
        assert!(
            error
                .message()
                .contains("entity expansion larger than the limit of 10485760 bytes"),
            "{error}"
        );
    }
    let small = entity_bomb(2);
    read(
        small.as_bytes(),
        RecordFormat::Xml,
        any_schema(),
        &ignoring(),
    )
    .unwrap();
    let options = ignoring().limits(Limits::default().with_max_entity_expansion(100));
    for error in all_fail(small.as_bytes(), RecordFormat::Xml, &options) {
        assert!(
            error
                .message()
                .contains("entity expansion larger than the limit of 100 bytes"),
            "{error}"
        );
    }
}

#[test]
fn a_lowered_document_size_refuses_a_larger_source() {
    let options = Options::default().limits(Limits::default().with_max_document_size(1000));
    for format in FORMATS {
        let mut bytes = Vec::new();
        match format {
            RecordFormat::Json => bytes.push(b'['),
            RecordFormat::Xml => bytes.extend_from_slice(b"<r>"),
            _ => {}
        }
        for i in 0..100 {
            let record = match format {
                RecordFormat::JsonLines => format!("{{\"z\": \"{i}\"}}\n"),
                RecordFormat::Json if i == 0 => format!("{{\"z\": \"{i}\"}}\n"),
                RecordFormat::Json => format!(",{{\"z\": \"{i}\"}}\n"),
                RecordFormat::Yaml => format!("---\nz: '{i}'\n"),
                RecordFormat::Toml => format!("[[r]]\nz = '{i}'\n"),
                RecordFormat::Xml => format!("<rec><z>{i}</z></rec>\n"),
            };
            bytes.extend_from_slice(record.as_bytes());
        }
        match format {
            RecordFormat::Json => bytes.push(b']'),
            RecordFormat::Xml => bytes.extend_from_slice(b"</r>"),
            _ => {}
        }
        read(&bytes, format, any_schema(), &Options::default())
            .unwrap_or_else(|e| panic!("{format:?}: {e}"));
        for error in all_fail(&bytes, format, &options.clone().stream_chunk(100)) {
            assert!(
                error
                    .message()
                    .contains("document larger than the limit of 1000 bytes"),
                "{format:?}: {error}"
            );
        }
    }
}
