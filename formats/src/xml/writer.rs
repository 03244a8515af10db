//! The XML writers: from a [`Document`] (as parsed, namespaces and all) and from any
//! [`Encode`](quarry_raw_value::Encode) type by the [`RawValue`](quarry_raw_value::RawValue)
//! mapping in reverse.

use quarry_raw_value::{base64, Datetime, EncodeError, Encoder, RawValue};

use super::chars::{is_name, is_xml_char};
use super::raw::TEXT_KEY;
use super::tree::{Document, Node, NodeKind};
use crate::common::Sink;

/// Appends `s` escaped as character data: `&`, `<` and `>` as entities, `\r` as a
/// character reference (so it survives line-end normalization).
pub fn escape_text(out: &mut String, s: &str) {
    escape(out, s, false)
}

/// Appends `s` escaped for a double-quoted attribute value: as text, plus `"`, and tab,
/// newline and CR as character references (so normalization keeps them).
pub fn escape_attribute(out: &mut String, s: &str) {
    escape(out, s, true)
}

#[inline]
fn escape(out: &mut String, s: &str, attribute: bool) {
    let bytes = s.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'\r' => "&#13;",
            b'"' if attribute => "&quot;",
            b'\t' if attribute => "&#9;",
            b'\n' if attribute => "&#10;",
            _ => continue,
        };
        out.push_str(&s[run..i]);
        out.push_str(rep);
        run = i + 1;
    }
    out.push_str(&s[run..]);
}

/// Writes a parsed document back as XML: elements with their attributes as written
/// (namespace declarations included, so prefixes stay bound), text and attribute
/// values escaped, comments and processing instructions kept (a CR in them, which they
/// cannot escape, as LF). The XML declaration and the DOCTYPE are not written: entities
/// are already expanded.
pub fn write_tree(doc: &Document<'_>) -> String {
    let mut out = String::with_capacity(doc.source().len());
    for (i, top) in doc.root().children().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_subtree(&mut out, top);
    }
    out
}

/// Writes `top` and everything inside it, without recursion: down to the first child,
/// else to the next sibling, else up (closing elements) to an ancestor with one.
pub(crate) fn write_subtree(out: &mut String, top: Node<'_, '_>) {
    let mut node = top;
    loop {
        write_open(out, node);
        if let (true, Some(child)) = (node.is_element(), node.first_child()) {
            node = child;
            continue;
        }
        if node.is_element() {
            out.push_str("/>");
        }
        loop {
            if node == top {
                return;
            }
            if let Some(sibling) = node.next_sibling() {
                node = sibling;
                break;
            }
            let Some(parent) = node.parent() else { return };
            out.push_str("</");
            out.push_str(parent.tag_name());
            out.push('>');
            node = parent;
        }
    }
}

/// Appends comment or PI text, which has no escapes: a CR in it (only an entity's
/// `&#13;` can put one there) is written as the LF a reader would normalize it to.
fn push_without_cr(out: &mut String, s: &str) {
    let mut parts = s.split('\r');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for part in parts {
        out.push('\n');
        out.push_str(part);
    }
}

fn write_open(out: &mut String, node: Node<'_, '_>) {
    match node.kind() {
        NodeKind::Element => {
            out.push('<');
            out.push_str(node.tag_name());
            for attr in node.attributes() {
                out.push(' ');
                out.push_str(attr.name());
                out.push_str("=\"");
                escape_attribute(out, attr.value());
                out.push('"');
            }
            if node.has_children() {
                out.push('>');
            }
        }
        NodeKind::Text => escape_text(out, node.text().unwrap_or("")),
        NodeKind::Comment => {
            out.push_str("<!--");
            push_without_cr(out, node.text().unwrap_or(""));
            out.push_str("-->");
        }
        NodeKind::ProcessingInstruction => {
            let (target, data) = node.pi().unwrap_or(("", ""));
            out.push_str("<?");
            out.push_str(target);
            if !data.is_empty() {
                out.push(' ');
                push_without_cr(out, data);
            }
            out.push_str("?>");
        }
        NodeKind::Root => {}
    }
}

/// Writes XML from [`Encoder`] events by the RawValue mapping in reverse: a map's
/// `"@name"` entries become attributes, `"$text"` text, other entries child elements
/// (a sequence repeats the element), scalars text. A null omits its element. Without a
/// root name the top-level value must be a map with one entry, the root element.
#[derive(Debug)]
pub struct XmlWriter<'w> {
    out: &'w mut String,
    stack: Vec<Frame>,
    key: String,
    has_key: bool,
    root: Option<String>,
    done: bool,
}

#[derive(Debug)]
enum Frame {
    /// The one-entry map that names the root element.
    Wrapper { written: bool },
    /// An element written from a map; `open` while its start tag is unfinished.
    Element { name: String, open: bool },
    /// A sequence: each item is an element named `name`.
    Seq { name: String },
}

/// What a value event writes to.
enum Slot {
    Element(String),
    Attribute(String),
    Text,
}

fn err(message: impl std::fmt::Display) -> EncodeError {
    EncodeError::custom(message)
}

impl<'w> XmlWriter<'w> {
    /// A writer whose top-level value is the one-entry map `{root name: root value}`.
    pub fn new(out: &'w mut String) -> Self {
        XmlWriter {
            out,
            stack: Vec::new(),
            key: String::new(),
            has_key: false,
            root: None,
            done: false,
        }
    }

    /// A writer whose top-level value is the root element named `root` (for structs).
    pub fn with_root(out: &'w mut String, root: &str) -> Self {
        let mut w = XmlWriter::new(out);
        w.root = Some(root.to_owned());
        w
    }

    /// Checks that a whole document was written.
    pub fn finish(self) -> Result<(), EncodeError> {
        if self.done && self.stack.is_empty() {
            Ok(())
        } else {
            Err(err("XML needs a root element: a map with one entry"))
        }
    }

    /// Finishes the start tag of the innermost element (a sequence's items are
    /// children of the element holding the sequence).
    fn close_tag(&mut self) {
        let element = self
            .stack
            .iter_mut()
            .rev()
            .find(|f| !matches!(f, Frame::Seq { .. }));
        if let Some(Frame::Element { open, .. }) = element {
            if *open {
                self.out.push('>');
                *open = false;
            }
        }
    }

    /// Where the next value goes.
    fn slot(&mut self) -> Result<Slot, EncodeError> {
        if self.done {
            return Err(err("XML has one root element: a second top-level value"));
        }
        match self.stack.last_mut() {
            None => match &self.root {
                Some(root) => {
                    let root = root.clone();
                    check_name(&root)?;
                    Ok(Slot::Element(root))
                }
                None => Err(err(
                    "XML needs a map with one entry, the root element, at the top",
                )),
            },
            Some(Frame::Seq { name }) => Ok(Slot::Element(name.clone())),
            Some(Frame::Wrapper { written }) => {
                if !self.has_key {
                    return Err(err("a map value without a key"));
                }
                if *written {
                    return Err(err("XML has one root element: a second top-level entry"));
                }
                *written = true;
                self.has_key = false;
                check_name(&self.key)?;
                Ok(Slot::Element(self.key.clone()))
            }
            Some(Frame::Element { .. }) => {
                if !self.has_key {
                    return Err(err("a map value without a key"));
                }
                self.has_key = false;
                if let Some(attr) = self.key.strip_prefix('@') {
                    check_name(attr)?;
                    return Ok(Slot::Attribute(attr.to_owned()));
                }
                if self.key == TEXT_KEY {
                    return Ok(Slot::Text);
                }
                check_name(&self.key)?;
                Ok(Slot::Element(self.key.clone()))
            }
        }
    }

    fn scalar(&mut self, text: &str) -> Result<(), EncodeError> {
        check_chars(text)?;
        match self.slot()? {
            Slot::Element(name) => {
                self.close_tag();
                self.out.push('<');
                self.out.push_str(&name);
                if text.is_empty() {
                    self.out.push_str("/>");
                } else {
                    self.out.push('>');
                    escape_text(self.out, text);
                    self.out.push_str("</");
                    self.out.push_str(&name);
                    self.out.push('>');
                }
                self.done |= self
                    .stack
                    .iter()
                    .all(|f| matches!(f, Frame::Wrapper { .. }));
            }
            Slot::Attribute(name) => {
                match self.stack.last() {
                    Some(Frame::Element { open: true, .. }) => {}
                    _ => {
                        return Err(err(format!(
                            "attribute `@{name}` after the element's content"
                        )))
                    }
                }
                self.out.push(' ');
                self.out.push_str(&name);
                self.out.push_str("=\"");
                escape_attribute(self.out, text);
                self.out.push('"');
            }
            Slot::Text => {
                self.close_tag();
                escape_text(self.out, text);
            }
        }
        Ok(())
    }
}

fn check_name(name: &str) -> Result<(), EncodeError> {
    if is_name(name) {
        Ok(())
    } else {
        Err(err(format!("`{name}` is not a valid XML name")))
    }
}

fn check_chars(text: &str) -> Result<(), EncodeError> {
    match text.chars().find(|&c| !is_xml_char(c)) {
        None => Ok(()),
        Some(c) => Err(err(format!(
            "character U+{:04X} cannot be written in XML",
            c as u32
        ))),
    }
}

impl Encoder for XmlWriter<'_> {
    fn null(&mut self) -> Result<(), EncodeError> {
        if matches!(self.stack.last(), Some(Frame::Seq { .. })) {
            return self.scalar("");
        }
        match self.slot()? {
            Slot::Attribute(_) | Slot::Text => Ok(()),
            Slot::Element(_)
                if self.stack.is_empty()
                    || matches!(self.stack.last(), Some(Frame::Wrapper { .. })) =>
            {
                Err(EncodeError::unsupported("a null root element", "XML"))
            }
            Slot::Element(_) => Ok(()),
        }
    }
    fn bool(&mut self, v: bool) -> Result<(), EncodeError> {
        self.scalar(if v { "true" } else { "false" })
    }
    fn i64(&mut self, v: i64) -> Result<(), EncodeError> {
        self.scalar(itoa::Buffer::new().format(v))
    }
    fn u64(&mut self, v: u64) -> Result<(), EncodeError> {
        self.scalar(itoa::Buffer::new().format(v))
    }
    fn f64(&mut self, v: f64) -> Result<(), EncodeError> {
        if v.is_nan() {
            self.scalar("NaN")
        } else if v.is_infinite() {
            self.scalar(if v > 0.0 { "inf" } else { "-inf" })
        } else {
            self.scalar(zmij::Buffer::new().format_finite(v))
        }
    }
    fn big_number(&mut self, text: &str) -> Result<(), EncodeError> {
        self.scalar(text)
    }
    fn str(&mut self, v: &str) -> Result<(), EncodeError> {
        self.scalar(v)
    }
    fn bytes(&mut self, v: &[u8]) -> Result<(), EncodeError> {
        self.scalar(&base64::encode(v))
    }
    fn datetime(&mut self, v: &Datetime) -> Result<(), EncodeError> {
        self.scalar(&v.to_string())
    }
    fn begin_seq(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        match self.slot()? {
            Slot::Element(name) => {
                if matches!(self.stack.last(), Some(Frame::Seq { .. })) {
                    return Err(EncodeError::unsupported(
                        "a sequence inside a sequence",
                        "XML",
                    ));
                }
                if self.stack.is_empty() || matches!(self.stack.last(), Some(Frame::Wrapper { .. }))
                {
                    return Err(EncodeError::unsupported(
                        "a sequence as the root element",
                        "XML",
                    ));
                }
                self.stack.push(Frame::Seq { name });
                Ok(())
            }
            Slot::Attribute(name) => Err(EncodeError::unsupported(
                &format!("a sequence in attribute `@{name}`"),
                "XML",
            )),
            Slot::Text => Err(EncodeError::unsupported("a sequence as text", "XML")),
        }
    }
    fn end_seq(&mut self) -> Result<(), EncodeError> {
        match self.stack.pop() {
            Some(Frame::Seq { .. }) => Ok(()),
            _ => Err(err("end_seq without begin_seq")),
        }
    }
    fn begin_map(&mut self, _: Option<usize>) -> Result<(), EncodeError> {
        if self.stack.is_empty() && self.root.is_none() && !self.done {
            self.stack.push(Frame::Wrapper { written: false });
            return Ok(());
        }
        match self.slot()? {
            Slot::Element(name) => {
                self.close_tag();
                self.out.push('<');
                self.out.push_str(&name);
                self.stack.push(Frame::Element { name, open: true });
                Ok(())
            }
            Slot::Attribute(name) => Err(EncodeError::unsupported(
                &format!("a map in attribute `@{name}`"),
                "XML",
            )),
            Slot::Text => Err(EncodeError::unsupported("a map as text", "XML")),
        }
    }
    fn key(&mut self, key: &str) -> Result<(), EncodeError> {
        self.key.clear();
        self.key.push_str(key);
        self.has_key = true;
        Ok(())
    }
    fn end_map(&mut self) -> Result<(), EncodeError> {
        match self.stack.pop() {
            Some(Frame::Wrapper { written }) => {
                if !written {
                    return Err(err("XML needs a root element: an empty map at the top"));
                }
                self.done = true;
                Ok(())
            }
            Some(Frame::Element { name, open }) => {
                if open {
                    self.out.push_str("/>");
                } else {
                    self.out.push_str("</");
                    self.out.push_str(&name);
                    self.out.push('>');
                }
                if self.stack.is_empty() {
                    self.done = true;
                }
                Ok(())
            }
            _ => Err(err("end_map without begin_map")),
        }
    }
}

/// Writes `value` (a document's RawValue, or with `root`, the root element's value) as
/// XML indented by two spaces. Indentation goes only where white space is dropped on
/// reading: between the child elements of an element without `"$text"`, so
/// `parse(pretty(v)) == parse(compact(v))`.
pub(crate) fn write_pretty(
    out: &mut String,
    value: &RawValue<'_>,
    root: Option<&str>,
) -> Result<(), EncodeError> {
    write_pretty_to(out, value, root, &mut Sink::none())
}

/// [`write_pretty`], handing `out` to `sink` between elements as it fills.
pub(crate) fn write_pretty_to(
    out: &mut String,
    value: &RawValue<'_>,
    root: Option<&str>,
    sink: &mut Sink<'_>,
) -> Result<(), EncodeError> {
    let out = &mut PrettyOut { text: out, sink };
    match root {
        Some(_) if matches!(value, RawValue::Null | RawValue::Seq(_)) => Err(
            EncodeError::unsupported("a null or a sequence as the root element", "XML"),
        ),
        Some(name) => {
            check_name(name)?;
            pretty_element(out, name, value, 0)
        }
        None => match value {
            RawValue::Map(entries) if entries.len() == 1 => {
                let (name, value) = &entries[0];
                check_name(name)?;
                if matches!(value, RawValue::Null | RawValue::Seq(_)) {
                    return Err(EncodeError::unsupported(
                        "a null or a sequence as the root element",
                        "XML",
                    ));
                }
                pretty_element(out, name, value, 0)
            }
            _ => Err(err(
                "XML needs a map with one entry, the root element, at the top",
            )),
        },
    }
}

/// The pretty writer's text, handed to a sink between elements as it fills.
struct PrettyOut<'o, 's, 'w> {
    text: &'o mut String,
    sink: &'s mut Sink<'w>,
}

impl PrettyOut<'_, '_, '_> {
    #[inline]
    fn element_done(&mut self) {
        if self.sink.wants(self.text.as_bytes()) {
            self.sink.spill_text(self.text);
        }
    }
}

impl std::ops::Deref for PrettyOut<'_, '_, '_> {
    type Target = String;
    fn deref(&self) -> &String {
        self.text
    }
}

impl std::ops::DerefMut for PrettyOut<'_, '_, '_> {
    fn deref_mut(&mut self) -> &mut String {
        self.text
    }
}

fn indent(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// The text a scalar writes as (none for null); containers are an error.
fn scalar_string(value: &RawValue<'_>) -> Result<Option<String>, EncodeError> {
    let text = match value {
        RawValue::Null => return Ok(None),
        RawValue::Bool(b) => b.to_string(),
        RawValue::Int(i) => itoa::Buffer::new().format(*i).to_owned(),
        RawValue::UInt(u) => itoa::Buffer::new().format(*u).to_owned(),
        RawValue::Float(f) if f.is_nan() => "NaN".to_owned(),
        RawValue::Float(f) if f.is_infinite() => (if *f > 0.0 { "inf" } else { "-inf" }).to_owned(),
        RawValue::Float(f) => zmij::Buffer::new().format_finite(*f).to_owned(),
        RawValue::BigNumber(s) | RawValue::String(s) | RawValue::Text(s) => s.to_string(),
        RawValue::Bytes(b) => base64::encode(b),
        RawValue::Datetime(d) => d.to_string(),
        RawValue::Seq(_) | RawValue::Map(_) => {
            return Err(EncodeError::unsupported("a container as text", "XML"))
        }
    };
    check_chars(&text)?;
    Ok(Some(text))
}

fn pretty_element(
    out: &mut PrettyOut<'_, '_, '_>,
    name: &str,
    value: &RawValue<'_>,
    depth: usize,
) -> Result<(), EncodeError> {
    let RawValue::Map(entries) = value else {
        let text = scalar_string(value)
            .map_err(|e| e.at_key(name))?
            .unwrap_or_default();
        out.push('<');
        out.push_str(name);
        if text.is_empty() {
            out.push_str("/>");
        } else {
            out.push('>');
            escape_text(out, &text);
            out.push_str("</");
            out.push_str(name);
            out.push('>');
        }
        return Ok(());
    };
    out.push('<');
    out.push_str(name);
    let mixed = entries.iter().any(|(k, _)| k == TEXT_KEY);
    let mut open = true;
    let mut children = false;
    for (key, item) in entries {
        if let Some(attr) = key.strip_prefix('@') {
            if !open {
                return Err(err(format!(
                    "attribute `@{attr}` after the element's content"
                )));
            }
            check_name(attr)?;
            let Some(text) = scalar_string(item).map_err(|e| e.at_key(key))? else {
                continue;
            };
            out.push(' ');
            out.push_str(attr);
            out.push_str("=\"");
            escape_attribute(out, &text);
            out.push('"');
            continue;
        }
        if open {
            out.push('>');
            open = false;
        }
        if key == TEXT_KEY {
            if let Some(text) = scalar_string(item).map_err(|e| e.at_key(key))? {
                escape_text(out, &text);
            }
            continue;
        }
        check_name(key)?;
        let item_container = item;
        let items: &[RawValue<'_>] = match item {
            RawValue::Seq(items) => items,
            one => std::slice::from_ref(one),
        };
        for (i, item) in items.iter().enumerate() {
            if matches!(item, RawValue::Seq(_)) {
                return Err(
                    EncodeError::unsupported("a sequence inside a sequence", "XML")
                        .at_index(i)
                        .at_key(key),
                );
            }
            // A null omits its element, as in the compact writer; in a sequence it
            // keeps its place as an empty element.
            if matches!(item, RawValue::Null) && !matches!(item_container, RawValue::Seq(_)) {
                continue;
            }
            if !mixed {
                indent(out, depth + 1);
            }
            children = true;
            pretty_element(out, key, item, depth + 1).map_err(|e| e.at_key(key))?;
            out.element_done();
        }
    }
    if open {
        out.push_str("/>");
        return Ok(());
    }
    if children && !mixed {
        indent(out, depth);
    }
    out.push_str("</");
    out.push_str(name);
    out.push('>');
    Ok(())
}

/// Writes the document back as XML (see [`write_tree`]).
impl std::fmt::Display for Document<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&write_tree(self))
    }
}

impl Node<'_, '_> {
    /// This node written as XML (an element with everything inside it), as
    /// [`write_tree`] writes it.
    pub fn to_xml_string(&self) -> String {
        let mut out = String::new();
        write_subtree(&mut out, *self);
        out
    }
}
