//! XML's direct path against its RawValue path, under XML's rule for sequences: owned and
//! borrowed names and text, and random documents for `XmlHost`.

use proptest::prelude::*;
use quarry::{Decode, Format};

use super::{mostly_direct, Seen};
use crate::paths::xml_paths;

#[derive(Decode, Debug, PartialEq)]
struct XmlHost {
    #[quarry(rename = "@name")]
    name: Option<String>,
    port: Option<u16>,
    alias: Vec<String>,
    weight: Option<f64>,
    on: Option<bool>,
    #[quarry(rename = "$text")]
    text: Option<String>,
    inner: Option<XmlInner>,
    list: Vec<XmlInner>,
    pair: Option<(String, String)>,
}

#[derive(Decode, Debug, PartialEq)]
struct XmlInner {
    #[quarry(rename = "@id")]
    id: Option<i64>,
    v: Option<Vec<String>>,
}

#[test]
fn xml_direct_path_reads_what_the_raw_value_path_reads() {
    let src = "<host name=\"a&amp;b\"><port> 80 </port><alias>x</alias><alias>y&lt;</alias>\
               <inner id=\"-3\"><v>1</v></inner><list id=\"9\"/><list id=\"2\"><v>p</v><v>q</v></list>\
               <weight>1.5e3</weight><on>true</on>tail<!-- c --> more<![CDATA[ & ]]></host>";
    let (raw, direct) = xml_paths::<XmlHost>(src);
    let raw = raw.unwrap();
    assert_eq!(direct.as_ref(), Some(&raw), "the direct path read it");
    assert_eq!(raw.name.as_deref(), Some("a&b"));
    assert_eq!(raw.port, Some(80));
    assert_eq!(raw.alias, ["x", "y<"]);
    assert_eq!(raw.text.as_deref(), Some("tail more & "));
    assert_eq!(raw.list.len(), 2);
    assert_eq!(
        raw.list[1].v.as_deref(),
        Some(&["p".to_owned(), "q".to_owned()][..])
    );
    assert_eq!(
        raw.inner.as_ref().and_then(|i| i.v.clone()),
        Some(vec!["1".to_owned()])
    );
    // One child is a one-element sequence, on both paths.
    let (raw, direct) = xml_paths::<XmlHost>("<host><alias>only</alias></host>");
    assert_eq!(raw.as_ref().unwrap().alias, ["only"]);
    assert_eq!(direct.as_ref(), raw.as_ref().ok());
    // A name repeated after another child is grouped by the RawValue path; the direct
    // path falls back (the struct sees `alias` twice) rather than decode it otherwise.
    let (raw, direct) =
        xml_paths::<XmlHost>("<host><alias>a</alias><port>1</port><alias>b</alias></host>");
    assert_eq!(raw.unwrap().alias, ["a", "b"]);
    assert_eq!(direct, None);
    // Errors on the RawValue path are fallbacks on the direct one.
    for bad in [
        "<host><port>http</port></host>",
        "<host><port>70000</port></host>",
        "<host><on>yes</on></host>",
        "<host><inner>text</inner></host>",
        "<host><pair><a>1</a></pair></host>",
    ] {
        let (raw, direct) = xml_paths::<XmlHost>(bad);
        assert!(raw.is_err(), "{bad}");
        assert_eq!(direct, None, "{bad}");
    }
    // The facade takes the direct path and falls back to the RawValue one for errors.
    let host: XmlHost = quarry::from_str(src, Format::Xml).unwrap();
    assert_eq!(host.port, Some(80));
    let err =
        quarry::from_str::<XmlHost>("<host>\n<port>http</port></host>", Format::Xml).unwrap_err();
    assert_eq!(
        err.to_string(),
        "port: expected integer, found text \"http\" at line 2, column 1"
    );
}

#[test]
fn xml_direct_path_reads_owned_names_and_text_as_the_raw_value_path_does() {
    // An entity's elements have owned names, the document's borrowed ones: a run of
    // `alias` mixing both is still one sequence, and decoded text (`&amp;`) is owned.
    let src = "<!DOCTYPE host [<!ENTITY more \"<alias>e&amp;f</alias><alias>g</alias>\">]>\
               <host name=\"h\"><alias>a</alias>&more;<port>8</port></host>";
    let (raw, direct) = xml_paths::<XmlHost>(src);
    let raw = raw.unwrap();
    assert_eq!(raw.alias, ["a", "e&f", "g"]);
    assert_eq!(direct.as_ref(), Some(&raw), "the direct path read it");
    // A UTF-16 document is transcoded: every name and text on the tape is owned.
    let utf16: Vec<u8> = std::iter::once(0xFEFF_u16)
        .chain(
            "<host name=\"h\"><alias>x</alias><alias>y</alias><port>9</port>t</host>"
                .encode_utf16(),
        )
        .flat_map(u16::to_le_bytes)
        .collect();
    let mut source = quarry::xml::DirectSource::new(&utf16, quarry::Limits::default()).unwrap();
    let direct = XmlHost::decode_direct(&mut source).expect("the direct path read it");
    assert_eq!(direct.name.as_deref(), Some("h"));
    assert_eq!(direct.alias, ["x", "y"]);
    assert_eq!((direct.port, direct.text.as_deref()), (Some(9), Some("t")));
    let facade: XmlHost = quarry::from_slice(&utf16, Format::Xml).unwrap();
    assert_eq!(facade, direct);
}

/// Random XML documents for `XmlHost`: attributes and children it knows, with right and
/// wrong values, repeats adjacent or not, text, CDATA, comments and references mixed in.
fn xml_host_document() -> impl Strategy<Value = String> {
    let attribute = prop_oneof![
        Just(" name=\"n\""),
        Just(" name=\"&quot;q&quot;\""),
        Just(" other=\"o\""),
        Just(" xmlns:p=\"urn:p\""),
    ];
    let piece = prop_oneof![
        Just("<port>80</port>"),
        Just("<port> 7 </port>"),
        Just("<port>+9</port>"),
        Just("<port>-0</port>"),
        Just("<port>x</port>"),
        Just("<port>99999</port>"),
        Just("<port/>"),
        Just("<alias>a</alias>"),
        Just("<alias/>"),
        Just("<alias>&amp;b<!--c-->c</alias>"),
        Just("<alias k=\"1\">v</alias>"),
        Just("<weight>1.5</weight>"),
        Just("<weight> 2 </weight>"),
        Just("<weight>inf</weight>"),
        Just("<weight>w</weight>"),
        Just("<on>true</on>"),
        Just("<on> false </on>"),
        Just("<on>1</on>"),
        Just("<inner id=\"3\"><v>x</v></inner>"),
        Just("<inner/>"),
        Just("<inner>text</inner>"),
        Just("<inner><v>a</v><v>b</v><w/></inner>"),
        Just("<inner id=\"x\"/>"),
        Just("<inner id=\"-0\"/>"),
        Just("<inner id=\"-\"/>"),
        Just("<inner id=\" -12 \"/>"),
        Just("<inner id=\"999999999999999999\"/>"),
        Just("<inner id=\"-9223372036854775808\"/>"),
        Just("<inner id=\"9223372036854775808\"/>"),
        Just("<inner id=\"18446744073709551616\"/>"),
        Just("<port>0065535</port>"),
        Just("<port>18446744073709551615</port>"),
        Just("<list id=\"1\"/>"),
        Just("<list><v>a</v>t<v>b</v></list>"),
        Just("<list>plain</list>"),
        Just("<pair><a>1</a><a>2</a></pair>"),
        Just("<pair>x</pair>"),
        Just("<p:other/>"),
        Just("<other a=\"1\"><deep><deeper/></deep></other>"),
        Just("hello"),
        Just("  \n "),
        Just("<![CDATA[c]]>"),
        Just("<!-- comment -->"),
        Just("<?pi data?>"),
        Just("&lt;"),
    ];
    (
        prop::collection::vec(attribute, 0..3),
        prop::collection::vec(piece, 0..8),
    )
        .prop_map(|(attributes, pieces)| {
            let mut seen = Vec::new();
            let attributes: String = attributes
                .into_iter()
                .filter(|a| {
                    let fresh = !seen.contains(a);
                    seen.push(a);
                    fresh
                })
                .collect();
            format!("<host{attributes}>{}</host>", pieces.concat())
        })
}

/// Of the documents for `XmlHost` that the RawValue path decodes, the share in percent
/// the direct path must read. It read 95% over 5,000 cases, falling back on the rest
/// (a name repeated after another child).
const XML_DIRECT_PERCENT: usize = 80;

/// The direct path may fall back, never differ; and it reads most of what the RawValue
/// path decodes ([`XML_DIRECT_PERCENT`]).
#[test]
fn xml_direct_path_equals_raw_value_path() {
    mostly_direct(file!(), xml_host_document(), XML_DIRECT_PERCENT, |doc| {
        let (raw, direct) = xml_paths::<XmlHost>(&doc);
        if let Some(direct) = &direct {
            prop_assert_eq!(Some(direct), raw.as_ref().ok(), "{}", doc);
        }
        let seen = Seen {
            decoded: raw.is_ok(),
            direct: direct.is_some(),
        };
        let facade = quarry::from_str::<XmlHost>(&doc, Format::Xml);
        prop_assert_eq!(facade.ok(), raw.ok(), "{}", doc);
        Ok(seen)
    });
}
