//! The binary plist's direct path: [`DirectSource`], the [`PullSource`] derived types read
//! a `bplist00` file from, on the reader of `binary.rs` (its offset, width and count
//! checks, depth limit, cycle rule and work budget).

use quarry_raw_value::pull::owned_string;
use quarry_raw_value::{Fallback, Position, PullSource, RawValue, TextRef, ValueKind};

use crate::common::{utf16_string, Limits, Span};

use super::binary::*;
use super::builder::{datetime_from_apple_seconds, Integer};
use super::error::{Error, ErrorKind};
use super::raw::{integer_value, RawValueBuilder};

/// A container the direct path has opened.
#[derive(Clone, Copy, Default)]
struct Open {
    object: u64,
    refs: usize,
    index: usize,
    count: usize,
    dict: bool,
}

/// The open containers: the innermost in place, the ones around it on the heap. A
/// document nested one deep (a dict of scalars, a list of numbers) then allocates
/// nothing for them.
#[derive(Default)]
struct OpenStack {
    depth: usize,
    innermost: Open,
    outer: Vec<Open>,
}

impl OpenStack {
    #[inline(always)]
    fn len(&self) -> usize {
        self.depth
    }

    #[inline(always)]
    fn push(&mut self, open: Open) {
        if self.depth > 0 {
            self.outer.push(self.innermost);
        }
        self.innermost = open;
        self.depth += 1;
    }

    /// Closes the innermost container. The one around it is copied in only where it
    /// is popped: with `unwrap_or_default`, the two ways in would meet with the record on
    /// the stack, its padding copied there by two overlapping 4-byte stores and read back
    /// across both, which no store forwards.
    #[inline(always)]
    fn pop(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        if self.depth > 0 {
            if let Some(open) = self.outer.pop() {
                self.innermost = open;
            }
        }
    }

    #[inline(always)]
    fn last(&self) -> Option<&Open> {
        (self.depth > 0).then_some(&self.innermost)
    }

    #[inline(always)]
    fn last_mut(&mut self) -> Option<&mut Open> {
        (self.depth > 0).then_some(&mut self.innermost)
    }

    /// Whether `object` is open (a container that would contain itself).
    fn contains(&self, object: u64) -> bool {
        self.depth > 0
            && (self.innermost.object == object || self.outer.iter().any(|o| o.object == object))
    }
}

/// The direct path over a binary plist: a [`PullSource`] that derived types decode from
/// without a [`RawValue`](quarry_raw_value::RawValue) in between.
///
/// It reads objects on demand from the top object with the checks, depth limit, cycle
/// rule and work budget of [`parse_binary_with`]. Anything the JSON data model has no
/// word for (dates, data, UIDs) is left to [`PullSource::read_raw`] or falls back, and
/// any error falls back, so the caller's RawValue path reports it.
pub struct DirectSource<'a> {
    r: Reader<'a>,
    limits: Limits,
    next: u64,
    from: usize,
    open: OpenStack,
    budget: Budget,
    scratch: String,
    /// Left empty for small files, where filling it would cost more than it saves.
    key_cache: Vec<(u64, &'a str, Span)>,
    /// Where each value placed by [`PullSource::value_start`] and not yet read ends.
    ends: Vec<usize>,
}

impl<'a> DirectSource<'a> {
    /// A source positioned before the top object of `src`: checks the size limit, the
    /// header and the trailer (an error when `src` is not a binary plist whose trailer
    /// checks out under `limits`).
    #[inline]
    pub fn new(src: &'a [u8], limits: Limits) -> Result<Self, Error> {
        if src.len() > limits.max_document_size {
            return error(
                b"",
                ErrorKind::DocumentSizeLimitReached(limits.max_document_size),
                0,
            );
        }
        let r = Reader::new(src)?;
        let key_cache = if r.num_objects > 4 * KEY_CACHE as u64 {
            vec![(u64::MAX, "", Span::default()); KEY_CACHE]
        } else {
            Vec::new()
        };
        Ok(DirectSource {
            next: r.top,
            from: src.len() - TRAILER + 16,
            budget: Budget::for_file(src, &limits),
            r,
            limits,
            open: OpenStack::default(),
            scratch: String::new(),
            key_cache,
            ends: Vec::new(),
        })
    }

    /// The next object, without moving past it.
    #[inline]
    fn look(&self) -> Result<(Object<'a>, Span), Fallback> {
        self.r.object(self.next, self.from).map_err(|_| Fallback)
    }

    /// Charges `object`, at `span`, to the budget.
    #[inline(always)]
    fn charge(&mut self, object: &Object<'a>, span: Span) -> Result<(), Fallback> {
        self.budget
            .charge(
                1 + payload_len(object),
                self.r.src,
                span.start,
                &self.limits,
            )
            .map_err(|_| Fallback)
    }

    /// The next object, charged to the budget.
    #[inline(always)]
    fn take(&mut self) -> Result<(Object<'a>, Span), Fallback> {
        let (object, span) = self.look()?;
        self.charge(&object, span)?;
        Ok((object, span))
    }

    /// [`DirectSource::take`] when the next object is of `kind` (its marker's high
    /// nibble); `None`, with nothing taken, when it is not.
    #[inline(always)]
    fn take_of(&mut self, kind: u8) -> Result<Option<Object<'a>>, Fallback> {
        let Some((object, span)) = self
            .r
            .object_of(kind, self.next, self.from)
            .map_err(|_| Fallback)?
        else {
            return Ok(None);
        };
        self.charge(&object, span)?;
        Ok(Some(object))
    }

    /// Opens the container just taken (depth limit and cycle rule checked).
    #[inline]
    fn open(&mut self, refs: usize, count: usize, dict: bool) -> Result<(), Fallback> {
        if self.open.len() >= self.limits.max_depth || self.open.contains(self.next) {
            return Err(Fallback);
        }
        self.open.push(Open {
            object: self.next,
            refs,
            index: 0,
            count,
            dict,
        });
        Ok(())
    }

    /// Moves to the next item of the innermost array; `false` (and closed) at its end.
    #[inline]
    fn advance_item(&mut self) -> Result<bool, Fallback> {
        let ref_size = self.r.ref_size;
        let Some(o) = self.open.last_mut().filter(|o| !o.dict) else {
            return Err(Fallback);
        };
        if o.index < o.count {
            self.from = o.refs + o.index * ref_size;
            o.index += 1;
            self.next = self.r.reference(self.from);
            Ok(true)
        } else {
            self.open.pop();
            Ok(false)
        }
    }

    /// Moves to the next entry of the innermost dict and returns its key; `None` (and
    /// closed) at its end.
    #[inline(always)]
    fn advance_key(&mut self) -> Result<Option<TextRef<'a, '_>>, Fallback> {
        let ref_size = self.r.ref_size;
        let Some(o) = self.open.last_mut().filter(|o| o.dict) else {
            return Err(Fallback);
        };
        if o.index >= o.count {
            self.open.pop();
            return Ok(None);
        }
        let key_at = o.refs + o.index * ref_size;
        self.from = o.refs + (o.count + o.index) * ref_size;
        o.index += 1;
        self.next = self.r.reference(self.from);
        let (key, _) = self
            .r
            .key(
                key_at,
                &mut self.key_cache,
                &mut self.budget,
                &self.limits,
                &mut self.scratch,
            )
            .map_err(|_| Fallback)?;
        Ok(Some(key))
    }
}

impl<'a> PullSource<'a> for DirectSource<'a> {
    const TYPED_STRINGS: bool = true;

    /// The kind from the next object's marker alone: the read that follows checks the
    /// rest (and falls back, as this would have).
    #[inline]
    fn peek_token(&mut self) -> Result<ValueKind, Fallback> {
        let marker = self.r.marker(self.next, self.from).map_err(|_| Fallback)?;
        Ok(match marker {
            0x08 | 0x09 => ValueKind::Bool,
            0x10..=0x14 | 0x22 | 0x23 => ValueKind::Number,
            0x50..=0x6F => ValueKind::String,
            0xA0..=0xAF => ValueKind::Array,
            0xD0..=0xDF => ValueKind::Object,
            // Dates, data and UIDs have no JSON kind (the RawValue path decides), and
            // any other marker is an error that path reports.
            _ => return Err(Fallback),
        })
    }

    fn read_null(&mut self) -> Result<(), Fallback> {
        // A plist has no null.
        Err(Fallback)
    }

    #[inline]
    fn read_bool(&mut self) -> Result<bool, Fallback> {
        match self.take_of(0x0)? {
            Some(Object::Bool(v)) => Ok(v),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_number(&mut self) -> Result<RawValue<'a>, Fallback> {
        match self.take()?.0 {
            Object::Integer(v) => Ok(integer_value(v)),
            Object::Real(v) => Ok(RawValue::Float(v)),
            _ => Err(Fallback),
        }
    }

    /// [`PullSource::read_f64`] without a [`RawValue`] in between.
    #[inline]
    fn read_f64(&mut self) -> Result<f64, Fallback> {
        if let Some(Object::Real(v)) = self.take_of(0x2)? {
            return Ok(v);
        }
        match self.take_of(0x1)? {
            Some(Object::Integer(Integer::Int(v))) => Ok(v as f64),
            Some(Object::Integer(Integer::UInt(v))) => Ok(v as f64),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_i64(&mut self) -> Result<i64, Fallback> {
        match self.take_of(0x1)? {
            Some(Object::Integer(v)) => v.as_i64().ok_or(Fallback),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_u64(&mut self) -> Result<u64, Fallback> {
        match self.take_of(0x1)? {
            Some(Object::Integer(v)) => v.as_u64().ok_or(Fallback),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_str(&mut self) -> Result<TextRef<'a, '_>, Fallback> {
        if let Some(Object::Ascii(s)) = self.take_of(0x5)? {
            return Ok(TextRef::Borrowed(s));
        }
        match self.take_of(0x6)? {
            Some(Object::Utf16(bytes)) => {
                if utf16(bytes, &mut self.scratch) {
                    Ok(TextRef::Decoded(&self.scratch))
                } else {
                    Err(Fallback)
                }
            }
            _ => Err(Fallback),
        }
    }

    /// [`PullSource::read_string`] with one look at the object: an ASCII string copied
    /// into its `String`, a UTF-16 one encoded straight into its own, with no scratch
    /// buffer in between.
    #[inline]
    fn read_string(&mut self) -> Result<String, Fallback> {
        let (object, span) = self.look()?;
        match object {
            Object::Ascii(s) => {
                self.charge(&object, span)?;
                Ok(owned_string(s))
            }
            Object::Utf16(bytes) => {
                self.charge(&object, span)?;
                utf16_string(bytes, false).ok_or(Fallback)
            }
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn begin_array(&mut self) -> Result<(), Fallback> {
        match self.take_of(0xA)? {
            Some(Object::Array { refs, count }) => self.open(refs, count, false),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn len_hint(&self) -> usize {
        self.open.last().map_or(0, |o| o.count)
    }

    #[inline]
    fn next_item(&mut self, _first: bool) -> Result<bool, Fallback> {
        self.advance_item()
    }

    #[inline]
    fn begin_object(&mut self) -> Result<(), Fallback> {
        match self.take_of(0xD)? {
            Some(Object::Dict { refs, count }) => self.open(refs, count, true),
            _ => Err(Fallback),
        }
    }

    #[inline(always)]
    fn next_key(&mut self, _first: bool) -> Result<Option<TextRef<'a, '_>>, Fallback> {
        self.advance_key()
    }

    fn skip_value(&mut self) -> Result<(), Fallback> {
        // Every object under this one is read and checked, as the RawValue path would.
        let base = self.open.len();
        loop {
            let (object, _) = self.take()?;
            match object {
                Object::Array { refs, count } => self.open(refs, count, false)?,
                Object::Dict { refs, count } => self.open(refs, count, true)?,
                Object::Utf16(bytes) if !utf16(bytes, &mut self.scratch) => return Err(Fallback),
                Object::Date(seconds) if datetime_from_apple_seconds(seconds).is_none() => {
                    return Err(Fallback)
                }
                _ => {}
            }
            loop {
                if self.open.len() == base {
                    return Ok(());
                }
                let more = if self.open.last().is_some_and(|o| o.dict) {
                    self.advance_key()?.is_some()
                } else {
                    self.advance_item()?
                };
                if more {
                    break;
                }
            }
        }
    }

    fn read_raw(&mut self) -> Result<RawValue<'a>, Fallback> {
        let (object, span) = self.look()?;
        let mut builder = RawValueBuilder::default();
        if matches!(object, Object::Array { .. } | Object::Dict { .. }) {
            let depth = self.limits.max_depth.saturating_sub(self.open.len());
            walk(
                &self.r,
                &mut builder,
                &self.limits,
                depth,
                self.next,
                self.from,
                &mut self.budget,
            )
            .map_err(|_| Fallback)
        } else {
            self.take()?;
            emit_scalar(&mut builder, object, span, &mut self.scratch, self.r.src)
                .map_err(|_| Fallback)
        }
    }

    /// The next object's bytes, as the tree places its node (a container's are its
    /// marker and references); a binary plist has no lines.
    fn value_start(&mut self) -> Result<(usize, Option<Position>), Fallback> {
        let (_, span) = self.r.object(self.next, self.from).map_err(|_| Fallback)?;
        self.ends.push(span.end);
        Ok((span.start, None))
    }

    fn value_end(&mut self) -> Result<usize, Fallback> {
        self.ends.pop().ok_or(Fallback)
    }

    fn finish(&mut self) -> Result<(), Fallback> {
        // The top object has been read; a binary plist has nothing after it.
        Ok(())
    }
}
