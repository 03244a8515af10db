//! XML: the elements at the records' path (by default each element under the root) are
//! records, mapped as quarry maps XML everywhere (attributes `@name`, child elements by
//! name, several of one name a list, text `$text`). The one XML parser runs once over the
//! document; each record element's events go to the XML RawValue builder, and the record
//! it gathers is handed to the sink and dropped as soon as the element closes, so memory
//! holds one record. Elements off the path are parsed and skipped.

use quarry_formats::common::{self, Span};
use quarry_formats::xml::{self, RawValueBuilder, StartTag, XmlBuilder};
use quarry_formats::Limits;
use quarry_raw_value::pull::TextRef;
use quarry_raw_value::RawValue;

use crate::error::Error;
use crate::feed::{record_done, syntax_error, walk_record, After, Failure, Flow};
use crate::sink::Sink;

/// Where the records are: the names of the elements from the root down to a record
/// ([`crate::Options::records_at`]), `*` for any name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RecordPath {
    names: Vec<String>,
}

impl Default for RecordPath {
    /// Every element under the root.
    fn default() -> Self {
        RecordPath {
            names: vec!["*".into(), "*".into()],
        }
    }
}

impl RecordPath {
    /// The path `records_at` names, `mediawiki/page`; without one, every element under
    /// the root (`*/*`).
    pub(crate) fn new(records_at: Option<&str>) -> Result<Self, Error> {
        let Some(path) = records_at else {
            return Ok(RecordPath::default());
        };
        let names: Vec<String> = path
            .trim_matches('/')
            .split('/')
            .map(|name| name.trim().to_owned())
            .collect();
        if names.iter().any(String::is_empty) {
            return Err(Error::new(format!(
                "records_at `{path}` is not a path of element names (`root/record`)"
            )));
        }
        Ok(RecordPath { names })
    }

    /// How deep the records are (the root is 1).
    pub(crate) fn depth(&self) -> usize {
        self.names.len()
    }

    /// Whether an element at `depth` (the root is 1) named `name` is on the path.
    pub(crate) fn matches(&self, depth: usize, name: &[u8]) -> bool {
        match self.names.get(depth.wrapping_sub(1)) {
            Some(wanted) => wanted == "*" || wanted.as_bytes() == name,
            None => false,
        }
    }

    /// The name the root must have, unless any will do.
    fn root(&self) -> Option<&str> {
        self.names.first().map(String::as_str).filter(|n| *n != "*")
    }
}

struct Records<'s, 'f, 'a, 'p, S: Sink> {
    sink: &'s mut S,
    after: &'s mut After<'f, S>,
    path: &'p RecordPath,
    depth: usize,
    /// How many of the open elements, from the root down, are on the path.
    on_path: usize,
    record: RawValueBuilder<'a>,
    record_start: usize,
    failure: Failure,
    /// The path of the field the sink refused in the failing record, and that record's
    /// start: placed by reading the document again.
    refused: Option<(Vec<String>, usize)>,
    /// A root of another name than the path's, and where it starts.
    wrong_root: Option<(String, usize)>,
    stopped: bool,
}

impl<S: Sink> Records<'_, '_, '_, '_, S> {
    /// Whether the events now go to the record being gathered.
    #[inline]
    fn in_record(&self) -> bool {
        self.on_path == self.path.depth() && self.depth >= self.on_path
    }
}

impl<'a, S: Sink> XmlBuilder<'a> for Records<'_, '_, 'a, '_, S> {
    fn start_element(&mut self, tag: &StartTag<'a, '_>) {
        self.depth += 1;
        if self.on_path + 1 == self.depth && self.path.matches(self.depth, tag.name().as_bytes()) {
            self.on_path = self.depth;
            if self.depth == self.path.depth() {
                self.record_start = tag.span().start;
            }
        } else if self.depth == 1 && self.wrong_root.is_none() {
            self.wrong_root = Some((tag.name().to_string(), tag.span().start));
        }
        if self.in_record() {
            self.record.start_element(tag);
        }
    }

    fn end_element(&mut self, span: Span) {
        if self.in_record() {
            self.record.end_element(span);
            if self.depth == self.on_path && !self.failure.is_set() && !self.stopped {
                let record = std::mem::take(&mut self.record).finish_root();
                if let Some((_, value)) = record {
                    // An element holding only text is a record of one field, `$text`.
                    let value = match value {
                        RawValue::Text(text) => {
                            RawValue::Map(vec![(xml::TEXT_KEY.into(), RawValue::Text(text))])
                        }
                        value => value,
                    };
                    if let Err(misfit) = walk_record(&value, self.sink, "an element") {
                        let record = self.sink.records();
                        if let Some(field) = self.sink.refused_field() {
                            self.refused = Some((field.to_vec(), self.record_start));
                        }
                        self.failure.set(misfit, self.record_start, record);
                    }
                    record_done!(self);
                }
            }
        }
        if self.on_path == self.depth {
            self.on_path -= 1;
        }
        self.depth -= 1;
    }

    fn text(&mut self, text: TextRef<'a, '_>, span: Span) {
        if self.in_record() {
            self.record.text(text, span);
        }
    }

    fn cdata(&mut self, text: TextRef<'a, '_>, span: Span) {
        if self.in_record() {
            self.record.cdata(text, span);
        }
    }

    fn comment(&mut self, text: TextRef<'a, '_>, span: Span) {
        if self.in_record() {
            self.record.comment(text, span);
        }
    }

    fn processing_instruction(
        &mut self,
        target: TextRef<'a, '_>,
        data: TextRef<'a, '_>,
        span: Span,
    ) {
        if self.in_record() {
            self.record.processing_instruction(target, data, span);
        }
    }
}

/// An XML document's records, at `path`.
pub(crate) fn feed<S: Sink>(
    bytes: &[u8],
    path: &RecordPath,
    sink: &mut S,
    after: &mut After<'_, S>,
    limits: Limits,
) -> Result<(), Error> {
    let mut records = Records {
        sink,
        after,
        path,
        depth: 0,
        on_path: 0,
        record: RawValueBuilder::default(),
        record_start: 0,
        failure: Failure::default(),
        refused: None,
        wrong_root: None,
        stopped: false,
    };
    xml::parse_with(bytes, &mut records, limits).map_err(syntax_error)?;
    if let (Some((name, start)), Some(wanted)) = (&records.wrong_root, path.root()) {
        let at = common::position_at(bytes, *start);
        return Err(Error::new(format!(
            "the root element is `{name}`, not `{wanted}` (records_at)"
        ))
        .at(None, at.line as u64, at.column as u64));
    }
    let refused = records.refused.take();
    let Some(error) = records.failure.into_error(bytes) else {
        return Ok(());
    };
    // A field the schema lacks is placed at its own element, attribute or text.
    let field_at = refused.and_then(|(field, record_start)| {
        let mut locate = Locate {
            record_start,
            field: &field,
            depth: 0,
            record_depth: None,
            matched: 0,
            found: None,
        };
        xml::parse_with(bytes, &mut locate, limits).ok()?;
        locate.found
    });
    match field_at {
        Some(offset) => {
            let at = common::position_at(bytes, offset);
            let record = error.record();
            Err(error.at(record, at.line as u64, at.column as u64))
        }
        None => Err(error),
    }
}

/// Finds, in the record element starting at `record_start`, the first element,
/// attribute (`@name`) or text (`$text`) at `field` (names from the record down).
struct Locate<'p> {
    record_start: usize,
    field: &'p [String],
    depth: usize,
    record_depth: Option<usize>,
    /// How many of the open elements below the record are on `field`.
    matched: usize,
    found: Option<usize>,
}

impl Locate<'_> {
    /// The element at `field`'s last parent is open: the field may be one of its
    /// attributes.
    fn attributes(&mut self, tag: &StartTag<'_, '_>) {
        let Some(last) = self.field.last() else {
            return;
        };
        if self.matched + 1 != self.field.len() {
            return;
        }
        if let Some(name) = last.strip_prefix('@') {
            if let Some(attribute) = tag.attributes().find(|a| a.name() == name) {
                self.found = Some(attribute.span().start);
            }
        }
    }
}

impl<'a> XmlBuilder<'a> for Locate<'_> {
    fn start_element(&mut self, tag: &StartTag<'a, '_>) {
        self.depth += 1;
        if self.found.is_some() {
            return;
        }
        let Some(record_depth) = self.record_depth else {
            if tag.span().start == self.record_start {
                self.record_depth = Some(self.depth);
                self.attributes(tag);
            }
            return;
        };
        let below = self.depth - record_depth;
        if self.matched + 1 == below
            && self.field.get(below - 1).map(String::as_str) == Some(&**tag.name())
        {
            self.matched = below;
            if below == self.field.len() {
                self.found = Some(tag.span().start);
            } else {
                self.attributes(tag);
            }
        }
    }

    fn end_element(&mut self, _: Span) {
        if let Some(record_depth) = self.record_depth {
            let below = self.depth - record_depth;
            if below == 0 {
                // The record ended: no other element starts where it did.
                self.record_depth = None;
                self.record_start = usize::MAX;
            } else if self.matched == below {
                self.matched -= 1;
            }
        }
        self.depth -= 1;
    }

    fn text(&mut self, text: TextRef<'a, '_>, span: Span) {
        let Some(record_depth) = self.record_depth else {
            return;
        };
        if self.found.is_none()
            && self.matched + 1 == self.field.len()
            && self.depth - record_depth == self.matched
            && self.field.last().map(String::as_str) == Some(xml::TEXT_KEY)
            && !xml::is_xml_whitespace(text.as_str())
        {
            self.found = Some(span.start);
        }
    }
}
