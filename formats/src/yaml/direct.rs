//! YAML's direct path: [`DirectSource`], the [`PullSource`] derived types read a
//! one-document YAML stream from, stepping the one parser with a capturing builder, or
//! taking the keys, scalars and collection bounds the parser reads in place.

use std::borrow::Cow;

use quarry_raw_value::pull::cow_into_string;
use quarry_raw_value::{
    Fallback, GuessedKey, PlainKey, Position, PullSource, RawValue, TextRef, ValueKind,
};

use crate::common::{Limits, LineCursor, Span};

use super::builder::*;
use super::parser::*;
use super::raw::{resolve_number, resolve_plain, resolve_scalar, Number, RawValueBuilder};
use super::{Error, ErrorKind, Options};

/// One event of the parser as the direct path reads it (a scalar's text and style stay
/// in the [`Capture`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    Scalar,
    MappingStart,
    SequenceStart,
    /// The end of a mapping or a sequence.
    End,
    DocumentStart,
    DocumentEnd,
    StreamEnd,
    /// What the direct path leaves to the RawValue path: an alias, an anchor, a tag.
    Unsupported,
}

/// The builder the direct path steps the parser with: it keeps the one event a step
/// emits. The event is a one-byte tag and a scalar's text stays here until it is read
/// in place (moving a whole event out right after a step wrote it stalls on store
/// forwarding).
#[derive(Debug)]
struct Capture<'a> {
    event: Option<Event>,
    /// A scalar's text as the input has it, unless `owned`.
    borrowed: &'a str,
    /// A scalar's text that folding or escapes rewrote.
    owned: Option<String>,
    style: ScalarStyle,
    /// The span of the last scalar a step emitted; `None` for one read in place, whose
    /// span its text gives ([`Capture::scalar_span`]).
    span: Option<Span>,
}

impl<'a> Capture<'a> {
    #[inline]
    fn set(&mut self, event: Event) -> Result<(), ErrorKind> {
        self.event = Some(event);
        Ok(())
    }

    /// The last scalar's text.
    #[inline]
    fn text(&self) -> &str {
        match &self.owned {
            None => self.borrowed,
            Some(s) => s,
        }
    }

    /// The last scalar's span in `src`: the step's, or for one read in place, its text's
    /// place in `src` (and its quotes').
    fn scalar_span(&self, src: &str) -> Option<Span> {
        match (self.span, &self.owned) {
            (Some(span), _) => Some(span),
            (None, None) => in_source(src, self.borrowed, self.style),
            (None, Some(_)) => None,
        }
    }

    /// Moves the last scalar's text out.
    #[inline]
    fn take_text(&mut self) -> Cow<'a, str> {
        match self.owned.take() {
            None => Cow::Borrowed(self.borrowed),
            Some(s) => Cow::Owned(s),
        }
    }

    /// `Unsupported` for a node with properties, else `event`.
    #[inline]
    fn collection(&mut self, props: &Props<'a>, event: Event) -> Result<(), ErrorKind> {
        if props.anchor.is_some() || props.tag.is_some() {
            return self.set(Event::Unsupported);
        }
        self.set(event)
    }
}

impl<'a> YamlBuilder<'a> for Capture<'a> {
    #[inline]
    fn document_start(&mut self, _: DocumentStart) -> Result<(), ErrorKind> {
        self.set(Event::DocumentStart)
    }

    #[inline]
    fn document_end(&mut self, _: bool, _: Span) -> Result<(), ErrorKind> {
        self.set(Event::DocumentEnd)
    }

    #[inline]
    fn scalar(
        &mut self,
        value: Cow<'a, str>,
        style: ScalarStyle,
        props: Props<'a>,
        span: Span,
    ) -> Result<(), ErrorKind> {
        if props.anchor.is_some() || props.tag.is_some() {
            return self.set(Event::Unsupported);
        }
        self.span = Some(span);
        // Field by field: the reader loads them one by one right after.
        match value {
            Cow::Borrowed(s) => {
                self.borrowed = s;
                self.owned = None;
            }
            Cow::Owned(s) => self.owned = Some(s),
        }
        self.style = style;
        self.set(Event::Scalar)
    }

    #[inline]
    fn sequence_start(
        &mut self,
        _: CollectionStyle,
        props: Props<'a>,
        _: usize,
    ) -> Result<(), ErrorKind> {
        self.collection(&props, Event::SequenceStart)
    }

    #[inline]
    fn sequence_end(&mut self, _: Span) -> Result<(), ErrorKind> {
        self.set(Event::End)
    }

    #[inline]
    fn mapping_start(
        &mut self,
        _: CollectionStyle,
        props: Props<'a>,
        _: usize,
    ) -> Result<(), ErrorKind> {
        self.collection(&props, Event::MappingStart)
    }

    #[inline]
    fn mapping_end(&mut self, _: Span) -> Result<(), ErrorKind> {
        self.set(Event::End)
    }

    #[inline]
    fn alias(&mut self, _: &'a str, _: Span) -> Result<(), ErrorKind> {
        self.set(Event::Unsupported)
    }

    #[inline]
    fn stream_end(&mut self) -> Result<(), ErrorKind> {
        self.set(Event::StreamEnd)
    }
}

/// The span of a scalar read in place, whose `text` is a slice of `src`: a plain
/// scalar's is its text, a quoted one's takes in its quotes (the tree's spans).
fn in_source(src: &str, text: &str, style: ScalarStyle) -> Option<Span> {
    let start = (text.as_ptr() as usize).checked_sub(src.as_ptr() as usize)?;
    let end = start + text.len();
    let bytes = src.as_bytes();
    let quote = match style {
        ScalarStyle::Plain => return (end <= src.len()).then(|| Span::new(start, end)),
        ScalarStyle::SingleQuoted => b'\'',
        ScalarStyle::DoubleQuoted => b'"',
        _ => return None,
    };
    let quoted =
        start > 0 && bytes.get(start - 1) == Some(&quote) && bytes.get(end) == Some(&quote);
    quoted.then(|| Span::new(start - 1, end + 1))
}

/// The direct path over a one-document YAML stream: a [`PullSource`] that derived types
/// decode from without building a [`RawValue`] first.
///
/// It steps the one parser (or, on the common lines of block collections, takes what
/// the parser reads in place, the same events without a step; a key the decoder
/// guesses is compared in place) and hands its events out as JSON-shaped values: mappings as
/// objects (keys by their text, as the RawValue path keys them), sequences as arrays,
/// scalars resolved by the same core schema. Whatever the RawValue path gives a meaning
/// of its own falls back to it: aliases, anchors, tags, merge keys `<<` (when on),
/// collections as keys, a second document, any error.
pub struct DirectSource<'a> {
    parser: Parser<'a>,
    /// The last event and, for a scalar, its text.
    capture: Capture<'a>,
    /// The event in `capture` was peeked, not yet read.
    peeked: bool,
    merge_keys: bool,
    /// The parser reported an error: every read falls back from then on (the scanner
    /// would go on after the bad token).
    failed: bool,
    /// A key that folding or escapes changed, handed out as transient text.
    scratch: String,
    /// The open collections of [`PullSource::skip_value`], kept so skipping allocates
    /// once: is each a mapping, and is a key next in it.
    skip_stack: Vec<(bool, bool)>,
    /// Where lines start, counted as far as a value was placed.
    lines: LineCursor,
}

impl std::fmt::Debug for DirectSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DirectSource")
            .field("parser", &self.parser)
            .field("capture", &self.capture)
            .field("peeked", &self.peeked)
            .finish_non_exhaustive()
    }
}

impl<'a> DirectSource<'a> {
    /// A source over `input` under `limits`, positioned before the first document's
    /// value; an error when the input is too large, not UTF-8, or has no document.
    #[inline]
    pub fn new(input: &'a [u8], limits: Limits) -> Result<Self, Error> {
        Self::with_options(input, &Options::default().with_limits(limits))
    }

    /// A source over `input` read with `options` (merge keys, limits).
    #[inline]
    pub fn with_options(input: &'a [u8], options: &Options) -> Result<Self, Error> {
        let mut source = DirectSource {
            parser: Parser::new(input, options.limits, false)?,
            capture: Capture {
                event: None,
                borrowed: "",
                owned: None,
                style: ScalarStyle::Plain,
                span: None,
            },
            peeked: false,
            merge_keys: options.merge_keys,
            failed: false,
            scratch: String::new(),
            skip_stack: Vec::new(),
            lines: LineCursor::default(),
        };
        match source.step_to_event() {
            Ok(Event::DocumentStart) => Ok(source),
            Ok(_) => Err(Error::new(
                ErrorKind::UnexpectedEnd("of the stream"),
                input,
                0,
            )),
            Err(e) => Err(e),
        }
    }

    /// Steps the parser until it emits an event.
    fn step_to_event(&mut self) -> Result<Event, Error> {
        loop {
            if self.parser.state == State::End {
                return Err(self.parser.scanner.error(
                    ErrorKind::UnexpectedEnd("of the stream"),
                    self.parser.last_end,
                ));
            }
            self.parser.step(&mut self.capture)?;
            if let Some(event) = self.capture.event.take() {
                return Ok(event);
            }
        }
    }

    /// Reads the next event (a scalar's text stays in `capture`).
    #[inline]
    fn pull(&mut self) -> Result<Event, Fallback> {
        if self.peeked {
            self.peeked = false;
            return Ok(self.last_event());
        }
        self.next_event()
    }

    /// The next event, without reading it.
    #[inline]
    fn peek(&mut self) -> Result<Event, Fallback> {
        if !self.peeked {
            let event = self.next_event()?;
            self.capture.event = Some(event);
            self.peeked = true;
        }
        Ok(self.last_event())
    }

    /// The event a peek kept.
    #[inline]
    fn last_event(&self) -> Event {
        self.capture.event.unwrap_or(Event::Unsupported)
    }

    /// The parser's next event; after an error, `Fallback` for good.
    #[inline]
    fn next_event(&mut self) -> Result<Event, Fallback> {
        if self.failed {
            return Err(Fallback);
        }
        // The common lines of block collections, read in place without a step.
        if let Some(read) = self.parser.read_in_place() {
            return match read {
                Ok(DirectRead::Scalar(text, style)) => {
                    self.capture.borrowed = text;
                    self.capture.owned = None;
                    self.capture.style = style;
                    // Found from the text when a value asks (`Capture::scalar_span`).
                    self.capture.span = None;
                    Ok(Event::Scalar)
                }
                Ok(DirectRead::MappingStart) => Ok(Event::MappingStart),
                Ok(DirectRead::SequenceStart) => Ok(Event::SequenceStart),
                Ok(DirectRead::End) => Ok(Event::End),
                Err(_) => {
                    self.failed = true;
                    Err(Fallback)
                }
            };
        }
        self.step_to_event().map_err(|_| {
            self.failed = true;
            Fallback
        })
    }

    /// The next value if it is a plain scalar, resolved by the core schema; `Fallback`
    /// for anything else.
    #[inline]
    fn read_plain(&mut self) -> Result<RawValue<'a>, Fallback> {
        if self.pull()? != Event::Scalar || self.capture.style != ScalarStyle::Plain {
            return Err(Fallback);
        }
        Ok(resolve_plain(self.capture.take_text()))
    }

    /// The next value if it is a plain scalar the core schema reads as a number: read
    /// from the scalar's text, without a [`RawValue`] in between (whose drop is a call).
    #[inline]
    fn read_plain_number(&mut self) -> Result<Number, Fallback> {
        if self.pull()? != Event::Scalar || self.capture.style != ScalarStyle::Plain {
            return Err(Fallback);
        }
        let text = self.capture.text();
        match text.as_bytes().first() {
            Some(b'0'..=b'9' | b'+' | b'-' | b'.') => resolve_number(text).ok_or(Fallback),
            _ => Err(Fallback),
        }
    }

    /// The next value if it is a string: a non-plain scalar, or a plain one the core
    /// schema reads as a string.
    #[inline]
    fn read_text(&mut self) -> Result<Cow<'a, str>, Fallback> {
        if self.pull()? != Event::Scalar {
            return Err(Fallback);
        }
        if self.capture.style == ScalarStyle::Plain && !plain_is_string(self.capture.text()) {
            return Err(Fallback);
        }
        Ok(self.capture.take_text())
    }

    /// The scalar just pulled, as a key (borrowed, or transient when it was rewritten);
    /// `Fallback` for a merge key.
    #[inline]
    fn key_text(&mut self) -> Result<TextRef<'a, '_>, Fallback> {
        if self.is_merge_key() {
            return Err(Fallback);
        }
        let text = self.capture.take_text();
        Ok(TextRef::from_cow(text, &mut self.scratch))
    }

    /// Whether the scalar just pulled, as a mapping key, is one the RawValue path gives
    /// a meaning of its own (a merge key).
    #[inline]
    fn is_merge_key(&self) -> bool {
        self.merge_keys && self.capture.style == ScalarStyle::Plain && self.capture.text() == "<<"
    }

    /// The open block mapping's next key, when the parser reads it in place without a
    /// step (see [`Parser::plain_key_in_place`]), and whether it is `guess`. A key read
    /// in place is plain and never the merge key `<<` (it starts with a letter, a digit
    /// or one of a few other characters).
    #[inline(always)]
    fn key_in_place(&mut self, guess: &[u8]) -> Option<(&'a str, bool)> {
        if self.peeked || self.failed {
            return None;
        }
        let key = self.parser.plain_key_in_place(guess);
        debug_assert!(!matches!(key, Some(("<<", _))));
        key
    }

    /// The open mapping's next key (`None` at its end) once [`DirectSource::key_in_place`]
    /// read none: the end read in place, or else the parser's next event. Asking the
    /// scanner for the key again would only fail again (a mapping's end would go
    /// through three key reads that fail before the end is read).
    #[inline]
    fn key_after_in_place(&mut self) -> Result<Option<TextRef<'a, '_>>, Fallback> {
        if !self.peeked && !self.failed {
            if let Some(end) = self.parser.mapping_end_in_place() {
                return match end {
                    Ok(()) => Ok(None),
                    Err(_) => {
                        self.failed = true;
                        Err(Fallback)
                    }
                };
            }
        }
        match self.pull()? {
            Event::End => Ok(None),
            Event::Scalar => self.key_text().map(Some),
            _ => Err(Fallback),
        }
    }

    /// Skips the rest of a collection whose start was just read. Falls back where the
    /// RawValue path would do more than keep the content: a collection as a key, a
    /// merge key, an alias, an anchor or a tag.
    fn skip_collection(&mut self, mapping: bool) -> Result<(), Fallback> {
        let mut open = std::mem::take(&mut self.skip_stack);
        open.clear();
        open.push((mapping, mapping));
        let result = self.skip_open(&mut open);
        self.skip_stack = open;
        result
    }

    /// [`DirectSource::skip_collection`] over the stack `open` of open collections.
    fn skip_open(&mut self, open: &mut Vec<(bool, bool)>) -> Result<(), Fallback> {
        while let Some(&(map, key_next)) = open.last() {
            if map {
                open.last_mut().expect("open").1 = !key_next;
            }
            match self.pull()? {
                Event::Scalar => {
                    if map && key_next && self.is_merge_key() {
                        return Err(Fallback);
                    }
                }
                Event::MappingStart | Event::SequenceStart if map && key_next => {
                    return Err(Fallback)
                }
                Event::MappingStart => open.push((true, true)),
                Event::SequenceStart => open.push((false, false)),
                Event::End => {
                    open.pop();
                }
                _ => return Err(Fallback),
            }
        }
        Ok(())
    }
}

/// Whether the core schema reads the plain scalar `text` as a string. Only a scalar
/// starting the way a null, a boolean or a number does needs resolving.
#[inline]
fn plain_is_string(text: &str) -> bool {
    match text.as_bytes().first() {
        None => false,
        Some(b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'0'..=b'9' | b'+' | b'-' | b'.') => {
            matches!(resolve_plain(Cow::Borrowed(text)), RawValue::String(_))
        }
        Some(_) => true,
    }
}

impl<'a> PullSource<'a> for DirectSource<'a> {
    const TYPED_STRINGS: bool = true;
    const GUESSES_IN_PLACE: bool = true;

    #[inline]
    fn peek_token(&mut self) -> Result<ValueKind, Fallback> {
        Ok(match self.peek()? {
            Event::Scalar if self.capture.style == ScalarStyle::Plain => {
                match resolve_plain(Cow::Borrowed(self.capture.text())) {
                    RawValue::Null => ValueKind::Null,
                    RawValue::Bool(_) => ValueKind::Bool,
                    RawValue::String(_) => ValueKind::String,
                    _ => ValueKind::Number,
                }
            }
            Event::Scalar => ValueKind::String,
            Event::MappingStart => ValueKind::Object,
            Event::SequenceStart => ValueKind::Array,
            _ => return Err(Fallback),
        })
    }

    #[inline]
    fn read_null(&mut self) -> Result<(), Fallback> {
        match self.read_plain()? {
            RawValue::Null => Ok(()),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_bool(&mut self) -> Result<bool, Fallback> {
        match self.read_plain()? {
            RawValue::Bool(b) => Ok(b),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_number(&mut self) -> Result<RawValue<'a>, Fallback> {
        match self.read_plain()? {
            number @ (RawValue::Int(_)
            | RawValue::UInt(_)
            | RawValue::Float(_)
            | RawValue::BigNumber(_)) => Ok(number),
            _ => Err(Fallback),
        }
    }

    /// As the default, without a [`RawValue`] in between.
    #[inline]
    fn read_i64(&mut self) -> Result<i64, Fallback> {
        match self.read_plain_number()? {
            Number::Int(i) => Ok(i),
            _ => Err(Fallback),
        }
    }

    /// As the default, without a [`RawValue`] in between.
    #[inline]
    fn read_u64(&mut self) -> Result<u64, Fallback> {
        match self.read_plain_number()? {
            Number::Int(i) => u64::try_from(i).map_err(|_| Fallback),
            Number::UInt(u) => Ok(u),
            _ => Err(Fallback),
        }
    }

    /// As the default, without a [`RawValue`] in between; a number beyond `f64`'s
    /// range falls back.
    #[inline]
    fn read_f64(&mut self) -> Result<f64, Fallback> {
        match self.read_plain_number()? {
            Number::Float(f) => Ok(f),
            Number::Int(i) => Ok(i as f64),
            Number::UInt(u) => Ok(u as f64),
            Number::Big => Err(Fallback),
        }
    }

    #[inline]
    fn read_str(&mut self) -> Result<TextRef<'a, '_>, Fallback> {
        let text = self.read_text()?;
        Ok(TextRef::from_cow(text, &mut self.scratch))
    }

    #[inline]
    fn read_string(&mut self) -> Result<String, Fallback> {
        self.read_text().map(cow_into_string)
    }

    #[inline]
    fn read_cow(&mut self) -> Result<Cow<'a, str>, Fallback> {
        self.read_text()
    }

    #[inline]
    fn begin_array(&mut self) -> Result<(), Fallback> {
        match self.pull()? {
            Event::SequenceStart => Ok(()),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn next_item(&mut self, _first: bool) -> Result<bool, Fallback> {
        if self.peek()? == Event::End {
            self.peeked = false;
            return Ok(false);
        }
        Ok(true)
    }

    #[inline]
    fn begin_object(&mut self) -> Result<(), Fallback> {
        match self.pull()? {
            Event::MappingStart => Ok(()),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn next_key(&mut self, _first: bool) -> Result<Option<TextRef<'a, '_>>, Fallback> {
        if let Some((key, _)) = self.key_in_place(&[]) {
            return Ok(Some(TextRef::Borrowed(key)));
        }
        self.key_after_in_place()
    }

    #[inline]
    fn next_key_guessed(
        &mut self,
        _first: bool,
        guess: PlainKey<'_>,
    ) -> Result<GuessedKey<'a, '_>, Fallback> {
        match self.key_in_place(guess.as_bytes()) {
            Some((_, true)) => Ok(GuessedKey::Guessed),
            // A key that was scanned may still be the guess (one with a space in it).
            Some((key, false)) => Ok(GuessedKey::compare(Some(TextRef::Borrowed(key)), guess)),
            None => Ok(GuessedKey::compare(self.key_after_in_place()?, guess)),
        }
    }

    fn skip_value(&mut self) -> Result<(), Fallback> {
        match self.pull()? {
            Event::Scalar => Ok(()),
            Event::MappingStart => self.skip_collection(true),
            Event::SequenceStart => self.skip_collection(false),
            _ => Err(Fallback),
        }
    }

    fn read_raw(&mut self) -> Result<RawValue<'a>, Fallback> {
        let mapping = match self.pull()? {
            Event::Scalar => {
                let text = self.capture.take_text();
                return resolve_scalar(text, self.capture.style, None).map_err(|_| Fallback);
            }
            Event::MappingStart => true,
            Event::SequenceStart => false,
            _ => return Err(Fallback),
        };
        // The collection's content goes through the RawValue path's own builder.
        let options = super::Options::default().with_merge_keys(self.merge_keys);
        let mut builder = RawValueBuilder::new(&options);
        let start = if mapping {
            builder.mapping_start(CollectionStyle::Block, Props::default(), 0)
        } else {
            builder.sequence_start(CollectionStyle::Block, Props::default(), 0)
        };
        start.map_err(|_| Fallback)?;
        loop {
            if self.failed || self.parser.state == State::End {
                return Err(Fallback);
            }
            if self.parser.step(&mut builder).is_err() {
                self.failed = true;
                return Err(Fallback);
            }
            if let Some(value) = builder.take_root() {
                return Ok(value);
            }
        }
    }

    /// A scalar is placed where the tree places it; a collection falls back.
    fn value_start(&mut self) -> Result<(usize, Option<Position>), Fallback> {
        let event = self.peek()?;
        match (event, self.capture.scalar_span(self.parser.src())) {
            (Event::Scalar, Some(span)) => {
                let src = self.parser.src().as_bytes();
                Ok((span.start, Some(self.lines.position(src, span.start))))
            }
            _ => Err(Fallback),
        }
    }

    fn value_end(&mut self) -> Result<usize, Fallback> {
        let span = self.capture.scalar_span(self.parser.src());
        match (self.peeked, self.last_event(), span) {
            (false, Event::Scalar, Some(span)) => Ok(span.end),
            _ => Err(Fallback),
        }
    }

    fn finish(&mut self) -> Result<(), Fallback> {
        let ended = self.pull() == Ok(Event::DocumentEnd) && self.pull() == Ok(Event::StreamEnd);
        ended.then_some(()).ok_or(Fallback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A guessed key is taken in place when the line starts with it and its `:`, and
    /// is otherwise read as `next_key` reads it: another key, one the guess only begins,
    /// one that begins the guess, a key with a `:` in it, a guess with a space (scanned,
    /// then found equal), a quoted key (read by a step), the first key of a mapping
    /// nested in place, and the end.
    #[test]
    fn keys_are_guessed_in_place_or_read() {
        let text = "top: 0\nid: 1\nabc: 2\nab: 3\nab:c: 4\na b: 5\n'q': 6\nx:\n  in: 7\ny: 8\n";
        let mut src = DirectSource::new(text.as_bytes(), Limits::default()).unwrap();
        let guess = |key| PlainKey::new(key).unwrap();
        let mut keys = Vec::new();
        src.begin_object().unwrap();
        let guesses = [
            "top", "id", "ab", "abcd", "ab", "a b", "q", "x", "in", "}", "z", "y",
        ];
        for (i, g) in guesses.into_iter().enumerate() {
            let first = i == 0 || g == "in";
            let key = match src.next_key_guessed(first, guess(g)).unwrap() {
                GuessedKey::End => "}".to_owned(),
                GuessedKey::Guessed => format!("={g}"),
                GuessedKey::Other(key) => key.to_string(),
            };
            match key.as_str() {
                "}" => {}
                "=x" => src.begin_object().unwrap(),
                _ => src.skip_value().unwrap(),
            }
            keys.push(key);
        }
        let expected = [
            "=top", "=id", "abc", "ab", "ab:c", "=a b", "=q", "=x", "=in", "}", "y", "}",
        ];
        assert_eq!(keys, expected);
        src.finish().unwrap();
    }

    /// The direct path's shortcut for strings agrees with the core schema on texts
    /// starting with every ASCII byte and on every special spelling.
    #[test]
    fn plain_is_string_agrees_with_resolve_plain() {
        let mut texts: Vec<String> = (0x20u8..0x7F)
            .flat_map(|b| {
                let c = b as char;
                [
                    format!("{c}"),
                    format!("{c}1"),
                    format!("{c}x"),
                    format!("{c}inf"),
                ]
            })
            .collect();
        for special in [
            "", "~", "null", "Null", "NULL", "nul", "true", "True", "TRUE", "tRUE", "false",
            "False", "FALSE", "12", "-3", "+4", "0o17", "0x1F", "0xG", "1.5", "1e3", ".inf",
            "-.Inf", ".NaN", ".nan.", "1_000", "é", "Ω1",
        ] {
            texts.push(special.to_owned());
        }
        for text in &texts {
            let expected = matches!(resolve_plain(Cow::Borrowed(text)), RawValue::String(_));
            assert_eq!(plain_is_string(text), expected, "{text:?}");
        }
    }
}
