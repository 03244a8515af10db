//! Recursive types on a thread of 2 MiB, the stack std gives a spawned thread: the
//! deepest document the parsers accept (under the default depth limit, 128) decodes into
//! them through each format's direct path and through RawValue; and a type that holds
//! itself where the input does not nest deeper (an untagged enum wrapping itself, a
//! newtype cycle, structs flattening each other, an internal tag repeated) stops at the
//! recursion limit with an error, where it used to overflow the stack.
//!
//! Tests run in debug builds, whose frames are the largest; each measures the stack its
//! deepest decode used (`--nocapture` shows the figures).

// The types exist to be decoded: most of their fields are never read.
#![allow(dead_code)]

use std::cell::Cell;
use std::collections::BTreeMap;

use quarry::decode::DecodeErrorKind;
use quarry::pull::Fallback;
use quarry::pull::{PullSource, ValueKind, RECURSION_LIMIT};
use quarry::RawValue;
use quarry::{json, toml, xml, yaml, Decode, DecodeErrors, Format, Limits};

/// The stack of a thread spawned with std's defaults.
const STACK: usize = 2 << 20;

thread_local! {
    /// The lowest stack address a decoder below noted.
    static LOWEST: Cell<usize> = const { Cell::new(usize::MAX) };
}

fn stack_address() -> usize {
    let here = 0u8;
    std::hint::black_box(&here) as *const u8 as usize
}

fn note_stack() {
    LOWEST.with(|lowest| lowest.set(lowest.get().min(stack_address())));
}

/// Runs `decode` on a thread of [`STACK`] bytes: its result, and how many bytes of stack
/// it used down to the deepest decoder that noted it.
fn on_small_stack<R: Send + 'static>(decode: impl FnOnce() -> R + Send + 'static) -> (R, usize) {
    let thread = std::thread::Builder::new().stack_size(STACK);
    let run = move || {
        let top = stack_address();
        let result = decode();
        (result, top.saturating_sub(LOWEST.with(Cell::get)))
    };
    thread.spawn(run).unwrap().join().unwrap()
}

/// Any value, noting the stack.
#[derive(Debug)]
struct Probe;

impl<'de> Decode<'de> for Probe {
    fn decode(_: RawValue<'de>) -> Result<Self, DecodeErrors> {
        note_stack();
        Ok(Probe)
    }

    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        note_stack();
        source.skip_value().map(|()| Probe)
    }
}

/// A `u32`, noting the stack.
#[derive(Debug)]
struct Leaf;

impl<'de> Decode<'de> for Leaf {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        note_stack();
        u32::decode(value).map(|_| Leaf)
    }

    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        note_stack();
        u32::decode_direct(source).map(|_| Leaf)
    }

    fn may_accept(kind: ValueKind, depth: u32) -> bool {
        u32::may_accept(kind, depth)
    }
}

/// A `T`, noting the stack.
#[derive(Debug, PartialEq)]
struct Noted<T>(T);

impl<'de, T: Decode<'de>> Decode<'de> for Noted<T> {
    fn decode(value: RawValue<'de>) -> Result<Self, DecodeErrors> {
        note_stack();
        T::decode(value).map(Noted)
    }

    fn decode_direct<S: PullSource<'de> + ?Sized>(source: &mut S) -> Result<Self, Fallback> {
        note_stack();
        T::decode_direct(source).map(Noted)
    }

    fn may_accept(kind: ValueKind, depth: u32) -> bool {
        T::may_accept(kind, depth)
    }
}

/// A list linked through an optional box.
#[derive(Decode, Debug)]
struct Node {
    v: Option<Probe>,
    child: Option<Box<Node>>,
}

/// A recursive struct with a dozen fields of every kind: larger frames.
#[derive(Decode, Debug)]
struct Wide {
    name: Option<String>,
    id: Option<u64>,
    ratio: Option<f64>,
    on: Option<bool>,
    tags: Option<Vec<String>>,
    labels: Option<BTreeMap<String, String>>,
    note: Option<String>,
    count: Option<i32>,
    kind: Option<String>,
    extra: Option<Vec<u8>>,
    weight: Option<f32>,
    v: Option<Probe>,
    child: Option<Box<Wide>>,
}

/// A tree: a list of itself at every level.
#[derive(Decode, Debug)]
struct Tree {
    v: Option<Probe>,
    #[quarry(default)]
    children: Vec<Tree>,
}

/// A JSON-like value behind a newtype: two decoders that decode the same value again
/// (the untagged enum, the newtype) at every level.
#[derive(Decode, Debug)]
#[quarry(untagged)]
enum Value {
    Leaf(Leaf),
    Map(BTreeMap<String, Item>),
    List(Vec<Item>),
}

#[derive(Decode, Debug)]
struct Item(Value);

impl Value {
    fn depth(&self) -> usize {
        match self {
            Value::Leaf(_) => 0,
            Value::Map(items) => 1 + items.values().map(|i| i.0.depth()).max().unwrap_or(0),
            Value::List(items) => 1 + items.iter().map(|i| i.0.depth()).max().unwrap_or(0),
        }
    }
}

const FORMATS: [Format; 4] = [Format::Json, Format::Yaml, Format::Toml, Format::Xml];

/// `depth` maps, each holding the next under `key`, the innermost holding `v`.
fn nested(format: Format, key: &str, depth: usize) -> String {
    let levels = depth - 1;
    match format {
        Format::Json => {
            let open = format!("{{\"{key}\":").repeat(levels);
            format!("{open}{{\"v\":1}}{}", "}".repeat(levels))
        }
        Format::Yaml => {
            let lines = (0..levels).map(|i| format!("{}{key}:\n", "  ".repeat(i)));
            lines.collect::<String>() + &format!("{}v: 1\n", "  ".repeat(levels))
        }
        Format::Toml => {
            let open = format!("{key} = {{").repeat(levels);
            format!("{open}v = 1{}", "}".repeat(levels))
        }
        Format::Xml => {
            let (open, close) = (format!("<{key}>"), format!("</{key}>"));
            format!(
                "<doc>{}<v>1</v>{}</doc>",
                open.repeat(levels),
                close.repeat(levels)
            )
        }
        _ => unreachable!(),
    }
}

/// `depth` maps, each holding a list of the next under `children` (in XML, one child
/// element, which a `Vec` reads as a list of one).
fn lists(format: Format, depth: usize) -> String {
    let levels = depth - 1;
    match format {
        Format::Json => {
            let open = "{\"children\":[".repeat(levels);
            format!("{open}{{\"v\":1}}{}", "]}".repeat(levels))
        }
        Format::Yaml => {
            let items = (1..levels).map(|i| format!("{}- children:\n", "  ".repeat(i - 1)));
            let last = format!("{}- v: 1\n", "  ".repeat(levels - 1));
            format!("children:\n{}{last}", items.collect::<String>())
        }
        Format::Toml => {
            let open = "{children = [".repeat(levels - 1);
            format!("children = [{open}{{v = 1}}{}]", "]}".repeat(levels - 1))
        }
        Format::Xml => nested(format, "children", depth),
        _ => unreachable!(),
    }
}

/// The deepest document `make` writes that `format` accepts under the default limits,
/// and its depth (one more is refused).
fn deepest(format: Format, make: impl Fn(Format, usize) -> String) -> (usize, &'static str) {
    let accepted = |depth| quarry::check(make(format, depth).as_bytes(), format).is_ok();
    let depth = (2..400).take_while(|&d| accepted(d)).last().unwrap();
    assert!(!accepted(depth + 1));
    (depth, Box::leak(make(format, depth).into_boxed_str()))
}

/// `doc` through `format`'s direct path alone: `None` when it falls back.
fn direct<T: for<'de> Decode<'de>>(format: Format, doc: &str) -> Option<T> {
    fn read<'de, T: Decode<'de>, S: PullSource<'de>>(mut source: S) -> Option<T> {
        let value = T::decode_direct(&mut source).ok()?;
        source.finish().ok().map(|()| value)
    }
    let (bytes, limits) = (doc.as_bytes(), Limits::default());
    match format {
        Format::Json => read(json::DirectSource::new(bytes, limits).ok()?),
        Format::Yaml => read(yaml::DirectSource::new(bytes, limits).ok()?),
        Format::Toml => read(toml::DirectSource::new(bytes, limits).ok()?),
        Format::Xml => read(xml::DirectSource::new(bytes, limits).ok()?),
        _ => unreachable!(),
    }
}

/// `doc` through RawValue alone, as the facade reads it.
fn via_raw<T: for<'de> Decode<'de>>(format: Format, doc: &str) -> Result<T, DecodeErrors> {
    match format {
        Format::Xml => {
            let root = xml::parse_root(doc.as_bytes()).unwrap().1;
            T::decode_with_options(root, quarry::decode::DecodeOptions::XML)
        }
        _ => T::decode(quarry::parse_raw(doc.as_bytes(), format).unwrap()),
    }
}

fn length(node: &Node) -> usize {
    1 + node.child.as_deref().map_or(0, length)
}

/// The deepest document each format accepts decodes into recursive structs, small and
/// wide, through the direct path, through RawValue and through the facade.
#[test]
fn the_deepest_documents_decode_into_recursive_structs_on_a_2_mib_stack() {
    for format in FORMATS {
        let (depth, doc) = deepest(format, |f, d| nested(f, "child", d));
        // 128 maps; XML's `<v>` is an element of its own.
        assert!(depth >= 127, "{format:?} accepts {depth}");
        let (node, direct_used) = on_small_stack(move || direct::<Node>(format, doc));
        assert_eq!(node.as_ref().map(length), Some(depth), "{format:?} direct");
        let (node, raw_used) = on_small_stack(move || via_raw::<Node>(format, doc));
        assert_eq!(length(&node.unwrap()), depth, "{format:?} RawValue");
        let (node, _) = on_small_stack(move || quarry::from_str::<Node>(doc, format));
        assert_eq!(length(&node.unwrap()), depth, "{format:?} facade");
        let (wide, wide_used) = on_small_stack(move || direct::<Wide>(format, doc).is_some());
        assert!(wide, "{format:?} Wide direct");
        let (wide, wide_raw_used) = on_small_stack(move || via_raw::<Wide>(format, doc).is_ok());
        assert!(wide, "{format:?} Wide RawValue");
        eprintln!(
            "{format:?}, {depth} levels: Node direct {direct_used} B, RawValue {raw_used} B; \
             Wide direct {wide_used} B, RawValue {wide_raw_used} B"
        );
    }
}

/// The deepest tree (a map and a list at every level) and the deepest JSON-like untagged
/// value (an untagged enum and a newtype at every level) decode too.
#[test]
fn the_deepest_documents_decode_into_recursive_lists_and_untagged_enums_on_a_2_mib_stack() {
    for format in FORMATS {
        let (depth, doc) = deepest(format, lists);
        let (tree, tree_used) = on_small_stack(move || direct::<Tree>(format, doc).is_some());
        assert!(tree, "{format:?} Tree direct");
        let (tree, _) = on_small_stack(move || via_raw::<Tree>(format, doc).is_ok());
        assert!(tree, "{format:?} Tree RawValue");
        let (value_depth, doc) = deepest(format, |f, d| nested(f, "child", d));
        let (value, value_used) = on_small_stack(move || direct::<Value>(format, doc));
        assert_eq!(
            value.map(|v| v.depth()),
            Some(value_depth),
            "{format:?} direct"
        );
        let (value, value_raw_used) = on_small_stack(move || via_raw::<Value>(format, doc));
        assert_eq!(value.unwrap().depth(), value_depth, "{format:?} RawValue");
        eprintln!(
            "{format:?}: Tree, {depth} levels, direct {tree_used} B; Value, {value_depth} \
             levels, direct {value_used} B, RawValue {value_raw_used} B"
        );
    }
}

/// `Wrap(Box<Self>)` is a compile error; through `Option` (or any other type) the derive
/// cannot see that the variant decodes the enum again from the same value.
#[derive(Decode, Debug, PartialEq)]
#[quarry(untagged)]
enum Loop {
    Wrap(Option<Box<Noted<Loop>>>),
    Leaf(u32),
}

/// An untagged enum and a newtype, each decoding the other from one value.
#[derive(Decode, Debug)]
#[quarry(untagged)]
enum Ping {
    Pong(Pong),
    Leaf(u32),
}

#[derive(Decode, Debug)]
struct Pong(Box<Ping>);

/// Two structs flattening each other: each decodes the other from its own keys.
#[derive(Decode, Debug)]
struct Outer {
    #[quarry(flatten)]
    inner: Box<Inner>,
}

#[derive(Decode, Debug)]
struct Inner {
    #[quarry(flatten)]
    outer: Option<Box<Outer>>,
}

/// An internally tagged newtype variant reads the same map, less one tag.
#[derive(Decode, Debug)]
#[quarry(tag = "t")]
enum Tagged {
    Again(Box<Tagged>),
    Done,
}

/// A list of itself tried before anything else: under XML's rule for sequences, a
/// `Vec` reads any value as a list of one, so it reads the same element again.
#[derive(Decode, Debug)]
#[quarry(untagged)]
enum Listed {
    List(Vec<Listed>),
    Leaf(u32),
}

#[derive(Decode, Debug)]
struct Doc<T> {
    x: T,
}

/// `{x: 1}` in `format`.
fn x_is_one(format: Format) -> &'static str {
    match format {
        Format::Json => "{\"x\": 1}",
        Format::Yaml => "x: 1\n",
        Format::Toml => "x = 1\n",
        Format::Xml => "<doc><x>1</x></doc>",
        _ => unreachable!(),
    }
}

fn is_recursion_limit<T: std::fmt::Debug>(result: Result<T, quarry::Error>) -> bool {
    let Err(quarry::Error::Decode(errors)) = result else {
        panic!("{result:?}")
    };
    let kind = &errors.iter().next().unwrap().kind;
    errors.is_recursion_limit() && *kind == DecodeErrorKind::RecursionLimitReached(RECURSION_LIMIT)
}

/// An untagged enum whose first variant decodes the enum again from the same value is an
/// error at the recursion limit in every format, through both paths, on a 2 MiB stack;
/// the value that variant does take (null) still decodes.
#[test]
fn an_untagged_enum_wrapping_itself_is_an_error_not_a_stack_overflow() {
    for format in FORMATS {
        let doc = x_is_one(format);
        let (direct, used) = on_small_stack(move || direct::<Doc<Loop>>(format, doc));
        assert!(direct.is_none(), "{format:?}: the direct path falls back");
        let (raw, _) = on_small_stack(move || via_raw::<Doc<Loop>>(format, doc));
        assert!(raw.unwrap_err().is_recursion_limit(), "{format:?}");
        let (facade, _) = on_small_stack(move || quarry::from_str::<Doc<Loop>>(doc, format));
        assert!(is_recursion_limit(facade), "{format:?}");
        eprintln!("{format:?}: stopped at the limit, {used} B of stack used");
    }
    let null = quarry::from_str::<Loop>("null", Format::Json).unwrap();
    assert_eq!(null, Loop::Wrap(None));
    let message = quarry::from_str::<Loop>("1", Format::Json).unwrap_err();
    assert_eq!(
        message.to_string(),
        format!(
            "recursion limit reached: untagged enums, newtypes and flattened fields nested \
             {RECURSION_LIMIT} deep (a type that holds itself decodes the same value again) \
             at line 1, column 1"
        )
    );
}

/// An untagged enum and a newtype decoding each other, two structs flattening each
/// other, a list of itself under XML's rule for sequences, and an internal tag repeated
/// ten thousand times are errors at the limit too.
#[test]
fn every_cycle_on_one_value_stops_at_the_recursion_limit() {
    for format in FORMATS {
        let doc = x_is_one(format);
        let (ping, _) = on_small_stack(move || quarry::from_str::<Doc<Ping>>(doc, format));
        assert!(is_recursion_limit(ping), "{format:?}");
    }
    let (outer, _) = on_small_stack(|| quarry::from_str::<Outer>("{\"a\": 1}", Format::Json));
    assert!(is_recursion_limit(outer));
    let (listed, _) = on_small_stack(|| quarry::from_str::<Listed>("<a><b>1</b></a>", Format::Xml));
    assert!(is_recursion_limit(listed));
    let repeated = "\"t\": \"Again\", ".repeat(10_000);
    let doc: &'static str = Box::leak(format!("{{{repeated}\"t\": \"Done\"}}").into_boxed_str());
    let (tagged, _) = on_small_stack(move || quarry::from_str::<Tagged>(doc, Format::Json));
    assert!(is_recursion_limit(tagged));
    // Fewer repeats than the limit decode, a variant for each tag.
    let repeated = "\"t\": \"Again\", ".repeat(100);
    let doc = format!("{{{repeated}\"t\": \"Done\"}}");
    let mut tagged = quarry::from_str::<Tagged>(&doc, Format::Json).unwrap();
    let mut depth = 0;
    while let Tagged::Again(inner) = tagged {
        (depth, tagged) = (depth + 1, *inner);
    }
    assert_eq!(depth, 100);
}
