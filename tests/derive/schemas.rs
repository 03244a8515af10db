//! The shapes the derive describes (what the decoder accepts), and the JSON Schema
//! written from each type of these tests.

use crate::attributes::{
    Borrowed, Kebab, Metadata, Nested, Pair, Pascal, Port, Screaming, Server, Snake, Strict, Unit,
    WithFlatten, WithFlattenMap, Wrapper,
};
use crate::constraints::{
    Account, CheckedAdjacent, CheckedExternal, CheckedInternal, CheckedUntagged,
    CheckedUntaggedNumber, Gathered,
};
use crate::enums::{Adjacent, External, Internal, Level, Untagged};

#[test]
fn shapes_describe_what_the_decoder_accepts() {
    use quarry::shape::Shape;
    use quarry::shape::{Tagging, VariantContent};

    #[derive(quarry::Decode)]
    #[quarry(rename_all = "camelCase", deny_unknown_fields)]
    #[allow(dead_code)]
    struct Server {
        #[quarry(alias = "host")]
        host_name: String,
        #[quarry(default)]
        port: u16,
        tags: Option<Vec<String>>,
        #[quarry(skip)]
        cache: u8,
        child: Option<Box<Server>>,
    }
    #[derive(quarry::Decode)]
    #[quarry(tag = "type")]
    #[allow(dead_code)]
    enum Auth {
        None,
        Token { value: String },
        Key(Server),
    }

    let Shape::Struct(s) = <Server as quarry::Decode>::shape() else {
        panic!("a struct")
    };
    assert!(s.deny_unknown_fields);
    let names: Vec<_> = s.fields.iter().map(|f| (f.name, f.required)).collect();
    assert_eq!(
        names,
        [
            ("hostName", true),
            ("port", false),
            ("tags", false),
            ("child", false)
        ]
    );
    assert_eq!(s.fields[0].aliases, ["host"]);
    assert!(matches!(
        (s.fields[1].shape)(),
        Shape::Integer { min: 0, max: 65535 }
    ));
    // Recursive types describe themselves lazily.
    let Shape::Optional(child) = (s.fields[3].shape)() else {
        panic!("an option")
    };
    assert!(matches!(child(), Shape::Struct(ref inner) if inner.name == "Server"));

    let Shape::Enum(e) = <Auth as quarry::Decode>::shape() else {
        panic!("an enum")
    };
    assert_eq!(e.tagging, Tagging::Internal { tag: "type" });
    assert!(matches!(e.variants[0].content, VariantContent::Unit));
    assert!(
        matches!(&e.variants[1].content, VariantContent::Struct(v) if v.fields[0].name == "value")
    );
    assert!(matches!(e.variants[2].content, VariantContent::Newtype(_)));
}

/// Every type of these tests has a schema that is a valid draft 2020-12 schema.
#[test]
fn every_derived_type_has_a_valid_json_schema() {
    fn valid<T: quarry::Decode<'static>>() -> serde_json::Value {
        let text = quarry::json::to_string(&quarry::schema::<T>()).unwrap();
        let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
        if let Err(e) = jsonschema::draft202012::meta::validate(&schema) {
            panic!("{e}: {schema:#}");
        }
        schema
    }
    valid::<Server>();
    valid::<Nested>();
    valid::<Snake>();
    valid::<Pascal>();
    valid::<Kebab>();
    valid::<Screaming>();
    valid::<Strict>();
    valid::<Metadata>();
    valid::<WithFlatten>();
    valid::<WithFlattenMap>();
    valid::<Borrowed<'static>>();
    valid::<Unit>();
    valid::<Wrapper<String>>();
    valid::<Level>();
    valid::<External>();
    valid::<Internal>();
    valid::<Adjacent>();
    valid::<Untagged>();
    valid::<Account>();
    valid::<CheckedExternal>();
    valid::<CheckedAdjacent>();
    valid::<CheckedInternal>();
    valid::<CheckedUntaggedNumber>();
    valid::<CheckedUntagged>();
    valid::<Gathered>();
    let pair = valid::<Pair>();
    assert_eq!(pair["prefixItems"][1]["maxItems"], 2);
    let port = valid::<Port>();
    assert_eq!(
        (port["minimum"].as_u64(), port["maximum"].as_u64()),
        (Some(1), Some(65535))
    );
}
