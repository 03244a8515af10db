//! XML: each element under the root is a record, mapped as quarry maps XML everywhere
//! (attributes `@name`, child elements by name, several of one name a list, text
//! `$text`). The one XML parser runs once over the document; each record element's
//! events go to the XML RawValue builder, and the record it gathers is handed to the
//! sink and dropped as soon as the element closes, so memory holds one record.

use quarry_formats::common::Span;
use quarry_formats::xml::{self, RawValueBuilder, StartTag, XmlBuilder};
use quarry_formats::Limits;
use quarry_raw_value::pull::TextRef;
use quarry_raw_value::RawValue;

use crate::error::Error;
use crate::feed::{record_done, syntax_error, walk_record, After, Failure, Flow};
use crate::sink::Sink;

struct Records<'s, 'f, 'a, S: Sink> {
    sink: &'s mut S,
    after: &'s mut After<'f, S>,
    depth: usize,
    record: RawValueBuilder<'a>,
    record_start: usize,
    failure: Failure,
    stopped: bool,
}

impl<'a, S: Sink> XmlBuilder<'a> for Records<'_, '_, 'a, S> {
    fn start_element(&mut self, tag: &StartTag<'a, '_>) {
        self.depth += 1;
        if self.depth == 2 {
            self.record_start = tag.span().start;
        }
        if self.depth >= 2 {
            self.record.start_element(tag);
        }
    }

    fn end_element(&mut self, span: Span) {
        if self.depth >= 2 {
            self.record.end_element(span);
        }
        if self.depth == 2 && !self.failure.is_set() && !self.stopped {
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
                    self.failure.set(misfit, self.record_start, record);
                }
                record_done!(self);
            }
        }
        self.depth -= 1;
    }

    fn text(&mut self, text: TextRef<'a, '_>, span: Span) {
        if self.depth >= 2 {
            self.record.text(text, span);
        }
    }

    fn cdata(&mut self, text: TextRef<'a, '_>, span: Span) {
        if self.depth >= 2 {
            self.record.cdata(text, span);
        }
    }

    fn comment(&mut self, text: TextRef<'a, '_>, span: Span) {
        if self.depth >= 2 {
            self.record.comment(text, span);
        }
    }

    fn processing_instruction(
        &mut self,
        target: TextRef<'a, '_>,
        data: TextRef<'a, '_>,
        span: Span,
    ) {
        if self.depth >= 2 {
            self.record.processing_instruction(target, data, span);
        }
    }
}

/// An XML document's records.
pub(crate) fn feed<S: Sink>(
    bytes: &[u8],
    sink: &mut S,
    after: &mut After<'_, S>,
    limits: Limits,
) -> Result<(), Error> {
    let mut records = Records {
        sink,
        after,
        depth: 0,
        record: RawValueBuilder::default(),
        record_start: 0,
        failure: Failure::default(),
        stopped: false,
    };
    xml::parse_with(bytes, &mut records, limits).map_err(syntax_error)?;
    match records.failure.into_error(bytes) {
        Some(error) => Err(error),
        None => Ok(()),
    }
}
