//! YAML streams: a [`YamlBuilder`] that hands each node to a sink as the one YAML parser
//! reads it. A document that is a mapping is a record; one that is a sequence holds a
//! record per item; an empty document holds none. Scalars are typed by the core schema
//! exactly as the RawValue path types them. An alias replays the events of its anchor
//! (counted against the alias expansion limit). Merge keys (`<<`) merge as in the RawValue
//! path: a mapping's own keys win, then earlier merged mappings over later ones.

use std::borrow::Cow;
use std::collections::HashMap;

use quarry_formats::common::Span;
use quarry_formats::yaml::{
    self, CollectionStyle, DocumentStart, ErrorKind, Props, ScalarStyle, Tag, YamlBuilder,
};
use quarry_formats::Limits;
use quarry_raw_value::RawValue;

use crate::error::Error;
use crate::feed::{emit, record_done, syntax_error, After, Failure, Flow};
use crate::sink::{Num, Sink};

/// One event, as kept for replaying an anchor.
#[derive(Debug, Clone)]
enum Event<'a> {
    Scalar(Cow<'a, str>, ScalarStyle, Option<Box<Tag<'a>>>),
    SequenceStart,
    SequenceEnd,
    MappingStart,
    MappingEnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// A mapping; `record` when it is a record. `key` when a key is next; `merge` when
    /// the value next is a merge key's. Its keys so far are `keys[keys..]`, the mappings
    /// it merges `merges[merges..]`.
    Mapping {
        record: bool,
        key: bool,
        merge: bool,
        keys: usize,
        merges: usize,
    },
    Sequence,
    /// A document's top-level sequence: each item is a record.
    Records,
}

struct Records<'s, 'f, 'a, S: Sink> {
    sink: &'s mut S,
    after: &'s mut After<'f, S>,
    frames: Vec<Frame>,
    failure: Failure,
    stopped: bool,
    /// Events of the anchored nodes still open, and where each one's own events start.
    tape: Vec<Event<'a>>,
    recording: Vec<(&'a str, usize, usize)>,
    anchors: HashMap<&'a str, Vec<Event<'a>>>,
    replayed: usize,
    max_replay: usize,
    /// The keys of the open mappings.
    keys: Vec<Cow<'a, str>>,
    /// The mappings merged into the open mappings, as events.
    merges: Vec<Vec<Event<'a>>>,
    /// The events of a merge key's value being gathered, and its open depth.
    capture: Option<(Vec<Event<'a>>, usize)>,
}

impl<'a, S: Sink> Records<'_, '_, 'a, S> {
    fn start_recording(&mut self, anchor: Option<&'a str>) {
        if let Some(name) = anchor {
            self.recording
                .push((name, self.tape.len(), self.frames.len()));
        }
    }

    fn record(&mut self, event: &Event<'a>) {
        if !self.recording.is_empty() {
            self.tape.push(event.clone());
        }
    }

    /// Ends the recordings whose node just ended (the frame depth is back to theirs).
    fn stop_recording(&mut self) {
        while let Some(&(name, start, depth)) = self.recording.last() {
            if self.frames.len() != depth {
                break;
            }
            self.recording.pop();
            self.anchors.insert(name, self.tape[start..].to_vec());
            if self.recording.is_empty() {
                self.tape.clear();
            }
        }
    }

    /// A collection starts (recorded, with its anchor, for aliases to replay).
    fn open(&mut self, event: Event<'a>, anchor: Option<&'a str>, offset: usize) {
        self.start_recording(anchor);
        self.record(&event);
        self.handle(event, offset);
    }

    /// A collection ends (and the recordings of anchors it closes).
    fn close(&mut self, event: Event<'a>, offset: usize) {
        self.record(&event);
        self.handle(event, offset);
        self.stop_recording();
    }

    fn handle(&mut self, event: Event<'a>, offset: usize) {
        if let Some((events, depth)) = &mut self.capture {
            match event {
                Event::SequenceStart | Event::MappingStart => *depth += 1,
                Event::SequenceEnd | Event::MappingEnd => *depth -= 1,
                Event::Scalar(..) => {}
            }
            events.push(event);
            if *depth == 0 {
                self.merged(offset);
            }
            return;
        }
        if let Some(Frame::Mapping {
            key: false,
            merge: true,
            ..
        }) = self.frames.last()
        {
            if matches!(event, Event::SequenceEnd | Event::MappingEnd) {
                // A merge key whose mapping ends before a value (`? <<`).
                return self.invalid_merge(offset);
            }
            self.capture = Some((Vec::new(), 0));
            return self.handle(event, offset);
        }
        match event {
            Event::Scalar(text, style, tag) => self.scalar(text, style, tag.as_deref(), offset),
            Event::SequenceStart => match self.frames.last().copied() {
                None => self.frames.push(Frame::Records),
                Some(Frame::Records) => self.not_a_record("a sequence", offset),
                Some(Frame::Mapping { key: true, .. }) => self.complex_key(offset),
                _ => {
                    emit!(self, offset, |sink| sink.begin_list());
                    self.frames.push(Frame::Sequence);
                }
            },
            Event::SequenceEnd => {
                if self.frames.pop() == Some(Frame::Sequence) {
                    emit!(self, offset, |sink| sink.end_list());
                }
                self.value_done();
            }
            Event::MappingStart => {
                let record = matches!(self.frames.last(), None | Some(Frame::Records));
                if record {
                    emit!(self, offset, |sink| sink.begin_record());
                } else if let Some(Frame::Mapping { key: true, .. }) = self.frames.last() {
                    return self.complex_key(offset);
                } else {
                    emit!(self, offset, |sink| sink.begin_struct());
                }
                self.frames.push(Frame::Mapping {
                    record,
                    key: true,
                    merge: false,
                    keys: self.keys.len(),
                    merges: self.merges.len(),
                });
            }
            Event::MappingEnd => {
                self.apply_merges(offset);
                if let Some(Frame::Mapping {
                    record,
                    keys,
                    merges,
                    ..
                }) = self.frames.pop()
                {
                    self.keys.truncate(keys);
                    self.merges.truncate(merges);
                    if record {
                        emit!(self, offset, |sink| sink.end_record());
                        record_done!(self);
                    } else {
                        emit!(self, offset, |sink| sink.end_struct());
                    }
                }
                self.value_done();
            }
        }
    }

    /// Between documents: nothing is open, and anchors are forgotten (they name nodes of
    /// their own document).
    fn reset(&mut self) {
        self.anchors.clear();
        self.frames.clear();
        self.keys.clear();
        self.merges.clear();
        self.capture = None;
    }

    /// After a value: the mapping around it wants a key next.
    fn value_done(&mut self) {
        if let Some(Frame::Mapping { key, merge, .. }) = self.frames.last_mut() {
            *key = true;
            *merge = false;
        }
    }

    /// A merge key's value has been gathered: keep the mappings it names.
    fn merged(&mut self, offset: usize) {
        let Some((events, _)) = self.capture.take() else {
            return;
        };
        let mut sources = Vec::new();
        match events.first() {
            Some(Event::MappingStart) => sources.push(events),
            Some(Event::SequenceStart) => {
                let mut at = 1;
                while at + 1 < events.len() {
                    let end = subtree_end(&events, at);
                    if !matches!(events[at], Event::MappingStart) {
                        return self.invalid_merge(offset);
                    }
                    sources.push(events[at..end].to_vec());
                    at = end;
                }
            }
            _ => return self.invalid_merge(offset),
        }
        self.merges.extend(sources);
        self.value_done();
    }

    #[cold]
    fn invalid_merge(&mut self, offset: usize) {
        let record = self.sink.records();
        self.failure.set(
            "a merge key's value must be a mapping or a sequence of mappings".to_owned(),
            offset,
            record,
        );
    }

    /// Before a mapping ends: the entries of its merged mappings whose keys it lacks.
    fn apply_merges(&mut self, offset: usize) {
        let Some(&Frame::Mapping { merges, .. }) = self.frames.last() else {
            return;
        };
        if self.merges.len() == merges {
            return;
        }
        let sources: Vec<_> = self.merges.drain(merges..).collect();
        for source in sources {
            let mut at = 1;
            while at + 1 < source.len() {
                let value_at = subtree_end(&source, at);
                let end = subtree_end(&source, value_at);
                let Event::Scalar(key, ..) = &source[at] else {
                    return self.complex_key(offset);
                };
                let Some(&Frame::Mapping { keys, .. }) = self.frames.last() else {
                    return;
                };
                if !self.keys[keys..].iter().any(|k| k == key) {
                    for event in &source[at..end] {
                        self.handle(event.clone(), offset);
                    }
                }
                at = end;
            }
        }
    }

    fn scalar(
        &mut self,
        text: Cow<'a, str>,
        style: ScalarStyle,
        tag: Option<&Tag<'_>>,
        offset: usize,
    ) {
        match self.frames.last_mut() {
            Some(Frame::Mapping {
                key: key @ true,
                merge,
                ..
            }) => {
                *key = false;
                if style == ScalarStyle::Plain && tag.is_none() && text == "<<" {
                    *merge = true;
                    return;
                }
                emit!(self, offset, |sink| sink.key(&text));
                self.keys.push(text);
                return;
            }
            None | Some(Frame::Records) => {
                let empty = matches!(
                    yaml::resolve_scalar(Cow::Borrowed(&text), style, tag),
                    Ok(RawValue::Null)
                );
                if !empty {
                    self.not_a_record("a scalar", offset);
                }
                return;
            }
            _ => {}
        }
        let value = match yaml::resolve_scalar(Cow::Borrowed(&text), style, tag) {
            Ok(value) => value,
            Err(kind) => {
                let record = self.sink.records();
                self.failure.set(kind.to_string(), offset, record);
                return;
            }
        };
        match value {
            RawValue::Null => emit!(self, offset, |sink| sink.null()),
            RawValue::Bool(b) => emit!(self, offset, |sink| sink.bool(b)),
            RawValue::Int(i) => emit!(self, offset, |sink| sink.number(Num::I64(i))),
            RawValue::UInt(u) => emit!(self, offset, |sink| sink.number(Num::U64(u))),
            RawValue::Float(f) => emit!(self, offset, |sink| sink.number(Num::F64(f))),
            RawValue::BigNumber(text) => {
                let f = text.parse().unwrap_or(f64::NAN);
                emit!(self, offset, |sink| sink.number(Num::F64(f)))
            }
            // Strings, and `!!binary` as the text it was written as.
            _ => emit!(self, offset, |sink| sink.string(&text)),
        }
        self.value_done();
    }

    #[cold]
    fn not_a_record(&mut self, found: &str, offset: usize) {
        let record = self.sink.records();
        self.failure.set(
            format!("a record must be a mapping, found {found}"),
            offset,
            record,
        );
    }

    #[cold]
    fn complex_key(&mut self, offset: usize) {
        let record = self.sink.records();
        self.failure
            .set("a key must be a scalar".to_owned(), offset, record);
    }
}

impl<'a, S: Sink> YamlBuilder<'a> for Records<'_, '_, 'a, S> {
    fn document_start(&mut self, _: DocumentStart) -> Result<(), ErrorKind> {
        self.reset();
        Ok(())
    }

    fn document_end(&mut self, _: bool, _: Span) -> Result<(), ErrorKind> {
        self.reset();
        Ok(())
    }

    fn scalar(
        &mut self,
        value: Cow<'a, str>,
        style: ScalarStyle,
        props: Props<'a>,
        span: Span,
    ) -> Result<(), ErrorKind> {
        if props.anchor.is_none() && self.recording.is_empty() {
            self.handle(Event::Scalar(value, style, props.tag), span.start);
            return Ok(());
        }
        self.start_recording(props.anchor);
        let event = Event::Scalar(value, style, props.tag);
        self.record(&event);
        self.handle(event, span.start);
        self.stop_recording();
        Ok(())
    }

    fn sequence_start(
        &mut self,
        _: CollectionStyle,
        props: Props<'a>,
        start: usize,
    ) -> Result<(), ErrorKind> {
        self.open(Event::SequenceStart, props.anchor, start);
        Ok(())
    }

    fn sequence_end(&mut self, span: Span) -> Result<(), ErrorKind> {
        self.close(Event::SequenceEnd, span.end);
        Ok(())
    }

    fn mapping_start(
        &mut self,
        _: CollectionStyle,
        props: Props<'a>,
        start: usize,
    ) -> Result<(), ErrorKind> {
        self.open(Event::MappingStart, props.anchor, start);
        Ok(())
    }

    fn mapping_end(&mut self, span: Span) -> Result<(), ErrorKind> {
        self.close(Event::MappingEnd, span.end);
        Ok(())
    }

    fn alias(&mut self, name: &'a str, span: Span) -> Result<(), ErrorKind> {
        let Some(events) = self.anchors.get(name).cloned() else {
            return Err(ErrorKind::UndefinedAlias(name.to_owned()));
        };
        self.replayed += events.len();
        if self.replayed > self.max_replay {
            return Err(ErrorKind::AliasExpansionLimitReached(self.max_replay));
        }
        for event in events {
            self.record(&event);
            self.handle(event, span.start);
        }
        Ok(())
    }
}

/// A YAML stream's records.
pub(crate) fn feed<S: Sink>(
    bytes: &[u8],
    sink: &mut S,
    after: &mut After<'_, S>,
    limits: Limits,
) -> Result<(), Error> {
    let mut records = Records {
        sink,
        after,
        frames: Vec::new(),
        failure: Failure::default(),
        stopped: false,
        tape: Vec::new(),
        recording: Vec::new(),
        anchors: HashMap::new(),
        replayed: 0,
        max_replay: limits.max_alias_expansion,
        keys: Vec::new(),
        merges: Vec::new(),
        capture: None,
    };
    yaml::parse_with(bytes, &mut records, limits).map_err(syntax_error)?;
    match records.failure.into_error(bytes) {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The index after the node that starts at `events[at]`.
fn subtree_end(events: &[Event<'_>], at: usize) -> usize {
    let mut depth = 0usize;
    for (i, event) in events.iter().enumerate().skip(at) {
        match event {
            Event::SequenceStart | Event::MappingStart => depth += 1,
            Event::SequenceEnd | Event::MappingEnd => depth = depth.saturating_sub(1),
            Event::Scalar(..) => {}
        }
        if depth == 0 {
            return i + 1;
        }
    }
    events.len()
}
