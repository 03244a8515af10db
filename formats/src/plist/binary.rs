//! The binary property list reader (`bplist00`).
//!
//! Layout: the 8-byte magic, the objects, the offset table (one big-endian offset per
//! object), and a 32-byte trailer giving the offset and reference widths, the object
//! count, the top object and where the offset table starts. Objects are read on
//! demand, in document order from the top object, with an explicit stack: no
//! recursion, so depth is bounded by [`Limits::max_depth`] alone.
//!
//! What is validated, always before anything is allocated or read: the trailer's widths
//! (1..=8 bytes) and counts (at least one object, a top object that exists, an offset
//! table that fits between the header and the trailer); every offset (inside the object
//! area, never in the header, the offset table or the trailer); every object's extent,
//! length and count (it must fit in the object area, so no count can make the reader
//! allocate or loop more than the file's size allows); every reference (to an existing
//! object); integer, real and UID widths; ASCII and UTF-16 text. A container that
//! contains itself, directly or not, is an error (the open containers are the only
//! ones that can close a cycle, and there are at most `max_depth` of them). Objects
//! shared by several containers (a DAG) are read once per reference; the total work
//! (objects visited plus payload bytes) is capped at twice the file size plus
//! [`Limits::max_alias_expansion`], so no file can expand without bound.

use std::borrow::Cow;

use crate::common::{ascii_from, push_utf16, Limits, Span};

use super::builder::{datetime_from_apple_seconds, Integer, PlistBuilder, TextRef};
use super::error::{Error, ErrorKind};

const MAGIC: &[u8; 8] = b"bplist00";
const HEADER: usize = 8;
pub(super) const TRAILER: usize = 32;
/// Slots of the direct-mapped cache of decoded ASCII dict keys, by object index.
pub(super) const KEY_CACHE: usize = 64;

type Result<T> = std::result::Result<T, Error>;

/// One decoded object; containers are their reference lists.
pub(super) enum Object<'a> {
    Bool(bool),
    Integer(Integer),
    Real(f64),
    Date(f64),
    Data(&'a [u8]),
    Ascii(&'a str),
    Utf16(&'a [u8]),
    Uid(u64),
    Array { refs: usize, count: usize },
    Dict { refs: usize, count: usize },
}

/// The trailer's facts, validated.
pub(super) struct Reader<'a> {
    pub(super) src: &'a [u8],
    offset_size: usize,
    pub(super) ref_size: usize,
    pub(super) num_objects: u64,
    pub(super) top: u64,
    /// Where the offset table starts: the end of the object area.
    table: usize,
    /// `src` for [`Words::be_at`].
    words: Words<'a>,
    /// [`Words::be_at`]'s shifts for an offset and for a reference.
    offset_shift: u32,
    ref_shift: u32,
}

/// The big-endian unsigned integer in `bytes` (at most 8 of them). The widths files use
/// (integers of 1, 2, 4 and 8 bytes; offsets of 1 to 4) are single loads: a byte loop
/// would be a large share of decoding a list of integers.
#[inline(always)]
fn be(bytes: &[u8]) -> u64 {
    match *bytes {
        [a] => u64::from(a),
        [a, b] => u64::from(u16::from_be_bytes([a, b])),
        [a, b, c] => u64::from(u32::from_be_bytes([0, a, b, c])),
        [a, b, c, d] => u64::from(u32::from_be_bytes([a, b, c, d])),
        [a, b, c, d, e, f, g, h] => u64::from_be_bytes([a, b, c, d, e, f, g, h]),
        _ => be_bytewise(bytes),
    }
}

/// [`be`] a byte at a time: the widths no writer picks, and the reference for the rest.
fn be_bytewise(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

/// A byte slice read as big-endian words: [`Words::be_at`] loads the 8 bytes at a position
/// with one bounds check, against a limit worked out once, where a checked slice would
/// cost a compare and branch of its own on every offset, reference and integer of a file.
#[derive(Clone, Copy)]
pub(super) struct Words<'a> {
    src: &'a [u8],
    /// How many positions have 8 bytes from there to the end of `src`.
    starts: usize,
}

impl<'a> Words<'a> {
    pub(super) fn new(src: &'a [u8]) -> Self {
        Words {
            src,
            starts: src.len().saturating_sub(7),
        }
    }

    /// The big-endian unsigned integer of `width` bytes (1 to 8) at `at`, read as the
    /// 8-byte word there shifted right by `shift` (`64 - 8 * width`): one load, whatever
    /// the width, with no branch on it. Every object, reference and offset of a file is
    /// followed by at least the 32-byte trailer, so the word is there to read whole;
    /// where it is not (never in a file that passed [`Reader::new`]), the bytes are read
    /// one at a time. `None` when the `width` bytes themselves are not there.
    #[inline(always)]
    pub(super) fn be_at(self, at: usize, width: usize, shift: u32) -> Option<u64> {
        if at < self.starts {
            // SAFETY: `starts` is `src.len() - 7` (0 when `src` is shorter than 8 bytes,
            // so this branch is not taken), and `at < starts` puts `at + 8` at or before
            // the end of `src`: the 8 bytes read are inside it. `[u8; 8]` has alignment
            // 1, and the read is unaligned anyway.
            #[allow(unsafe_code)]
            let word = unsafe { self.src.as_ptr().add(at).cast::<[u8; 8]>().read_unaligned() };
            return Some(u64::from_be_bytes(word) >> shift);
        }
        self.src.get(at..at.checked_add(width)?).map(be_bytewise)
    }
}

/// [`Words::be_at`]'s shift for `width` bytes (1 to 8).
const fn shift_for(width: usize) -> u32 {
    (64 - 8 * width) as u32
}

#[cold]
pub(super) fn error<T>(src: &[u8], kind: ErrorKind, offset: usize) -> Result<T> {
    Err(Error::new(kind, src, offset))
}

impl<'a> Reader<'a> {
    #[inline]
    pub(super) fn new(src: &'a [u8]) -> Result<Self> {
        if !src.starts_with(MAGIC) {
            let kind = if src.len() < HEADER && MAGIC.starts_with(src) {
                ErrorKind::Truncated
            } else {
                ErrorKind::InvalidMagic
            };
            return error(src, kind, 0);
        }
        if src.len() < HEADER + 1 + 1 + TRAILER {
            return error(src, ErrorKind::Truncated, src.len());
        }
        let t = src.len() - TRAILER;
        let offset_size = usize::from(src[t + 6]);
        let ref_size = usize::from(src[t + 7]);
        let num_objects = be(&src[t + 8..t + 16]);
        let top = be(&src[t + 16..t + 24]);
        let table = be(&src[t + 24..t + 32]);
        if !(1..=8).contains(&offset_size) {
            return error(src, ErrorKind::InvalidTrailer("offset size"), t + 6);
        }
        if !(1..=8).contains(&ref_size) {
            return error(src, ErrorKind::InvalidTrailer("reference size"), t + 7);
        }
        if num_objects == 0 {
            return error(src, ErrorKind::InvalidTrailer("object count"), t + 8);
        }
        if top >= num_objects {
            return error(src, ErrorKind::InvalidTrailer("top object"), t + 16);
        }
        if table <= HEADER as u64 || table >= t as u64 {
            return error(
                src,
                ErrorKind::InvalidTrailer("offset table offset"),
                t + 24,
            );
        }
        let table = table as usize;
        let table_len = num_objects.checked_mul(offset_size as u64);
        if table_len.map_or(true, |len| len > (t - table) as u64) {
            return error(src, ErrorKind::InvalidTrailer("object count"), t + 8);
        }
        Ok(Reader {
            src,
            offset_size,
            ref_size,
            num_objects,
            top,
            table,
            words: Words::new(src),
            offset_shift: shift_for(offset_size),
            ref_shift: shift_for(ref_size),
        })
    }

    /// Where object `index` starts.
    #[inline(always)]
    fn offset(&self, index: u64, from: usize) -> Result<usize> {
        if index >= self.num_objects {
            return error(self.src, ErrorKind::InvalidReference(index), from);
        }
        // Inside the offset table: `Reader::new` checked that it holds every object's.
        let at = self.table + index as usize * self.offset_size;
        let offset = self
            .words
            .be_at(at, self.offset_size, self.offset_shift)
            .unwrap_or(0);
        if offset < HEADER as u64 || offset >= self.table as u64 {
            return error(self.src, ErrorKind::InvalidOffset(offset), at);
        }
        Ok(offset as usize)
    }

    /// The marker byte of object `index` (referenced from byte `from`): its type and,
    /// in the low nibble, its width or length.
    #[inline(always)]
    pub(super) fn marker(&self, index: u64, from: usize) -> Result<u8> {
        let at = self.offset(index, from)?;
        Ok(self.src[at])
    }

    /// The object reference at byte `at` (inside an already bounds-checked list).
    #[inline(always)]
    pub(super) fn reference(&self, at: usize) -> u64 {
        // Outside the list (never, as its caller checked), `u64::MAX`: no object's index.
        self.words
            .be_at(at, self.ref_size, self.ref_shift)
            .unwrap_or(u64::MAX)
    }

    /// `len` bytes from `start`, inside the object area.
    #[inline]
    fn bytes(&self, start: usize, len: usize, object: usize) -> Result<&'a [u8]> {
        match start.checked_add(len) {
            Some(end) if end <= self.table => Ok(&self.src[start..end]),
            _ => error(self.src, ErrorKind::ObjectOutOfBounds, object),
        }
    }

    /// The length of the object at `at` whose marker's low nibble is `low`, and where
    /// its payload starts.
    #[inline(always)]
    fn length(&self, at: usize, low: u8) -> Result<(usize, usize)> {
        if low != 0x0F {
            return Ok((usize::from(low), at + 1));
        }
        // 15 to 255 (most long strings): a one-byte integer object after the marker, read
        // from the word at the marker. Every caller then checks that the payload, which
        // starts after these two bytes, lies in the object area.
        if let Some(word) = self.words.be_at(at, 8, 0) {
            if (word >> 48) & 0xFF == 0x10 {
                return Ok((((word >> 40) & 0xFF) as usize, at + 3));
            }
        }
        self.long_length(at)
    }

    /// [`Reader::length`] of an object of 15 or more: its length is an integer object
    /// after the marker. Out of line, so the short case inlines small.
    #[inline(never)]
    fn long_length(&self, at: usize) -> Result<(usize, usize)> {
        let marker = *self.bytes(at + 1, 1, at)?.first().unwrap_or(&0);
        if marker >> 4 != 0x1 || marker & 0x0F > 3 {
            return error(self.src, ErrorKind::InvalidLength, at + 1);
        }
        let width = 1usize << (marker & 0x0F);
        let bytes = self.bytes(at + 2, width, at)?;
        let value = be(bytes);
        if width == 8 && value > i64::MAX as u64 {
            return error(self.src, ErrorKind::InvalidLength, at + 1);
        }
        match usize::try_from(value) {
            Ok(len) => Ok((len, at + 2 + width)),
            Err(_) => error(self.src, ErrorKind::ObjectOutOfBounds, at),
        }
    }

    /// Decodes object `index` (referenced from byte `from`), with its span. Inlined into
    /// its callers: returned through memory, the result stalled on store forwarding.
    #[inline(always)]
    pub(super) fn object(&self, index: u64, from: usize) -> Result<(Object<'a>, Span)> {
        let at = self.offset(index, from)?;
        self.object_at(at)
    }

    /// [`Reader::object`] when the object's marker is of `kind` (its high nibble: `0x5`
    /// for an ASCII string, `0x1` for an integer), `None` for any other object. For a
    /// reader that expects one kind: with `kind` a constant, the decode inlined here is
    /// that kind's alone, with no dispatch on the marker.
    #[inline(always)]
    pub(super) fn object_of(
        &self,
        kind: u8,
        index: u64,
        from: usize,
    ) -> Result<Option<(Object<'a>, Span)>> {
        let at = self.offset(index, from)?;
        if self.src[at] >> 4 != kind {
            return Ok(None);
        }
        self.object_at(at).map(Some)
    }

    /// The object whose marker is at `at`, with its span.
    #[inline(always)]
    fn object_at(&self, at: usize) -> Result<(Object<'a>, Span)> {
        let src = self.src;
        let marker = src[at];
        let low = marker & 0x0F;
        let (object, end) = match marker >> 4 {
            0x0 => match marker {
                0x08 => (Object::Bool(false), at + 1),
                0x09 => (Object::Bool(true), at + 1),
                _ => return error(src, ErrorKind::UnknownObject(marker), at),
            },
            0x1 => {
                if low > 4 {
                    return error(src, ErrorKind::InvalidWidth, at);
                }
                let width = 1usize << low;
                let bytes = self.bytes(at + 1, width, at)?;
                let value = match width {
                    // Unsigned below 8 bytes, two's complement at 8: the same cast.
                    1 | 2 | 4 | 8 => {
                        let shift = shift_for(width);
                        Integer::Int(self.words.be_at(at + 1, width, shift).unwrap_or(0) as i64)
                    }
                    _ => {
                        let mut wide = [0u8; 16];
                        wide.copy_from_slice(bytes);
                        match Integer::from_i128(i128::from_be_bytes(wide)) {
                            Some(v) => v,
                            None => return error(src, ErrorKind::IntegerOverflow, at),
                        }
                    }
                };
                (Object::Integer(value), at + 1 + width)
            }
            0x2 => match low {
                2 => {
                    let b = self.bytes(at + 1, 4, at)?;
                    let v = f32::from_be_bytes([b[0], b[1], b[2], b[3]]);
                    (Object::Real(f64::from(v)), at + 5)
                }
                3 => (
                    Object::Real(f64::from_bits(be(self.bytes(at + 1, 8, at)?))),
                    at + 9,
                ),
                _ => return error(src, ErrorKind::InvalidWidth, at),
            },
            0x3 if marker == 0x33 => (
                Object::Date(f64::from_bits(be(self.bytes(at + 1, 8, at)?))),
                at + 9,
            ),
            0x3 => return error(src, ErrorKind::InvalidWidth, at),
            0x4 => {
                let (len, start) = self.length(at, low)?;
                (Object::Data(self.bytes(start, len, at)?), start + len)
            }
            0x5 => {
                let (len, start) = self.length(at, low)?;
                let bytes = self.bytes(start, len, at)?;
                // The offset table and the 32-byte trailer follow the objects, so the
                // word at a string's start is always there to read whole.
                let Some(text) = ascii_from(&src[start..], len) else {
                    let bad = bytes.iter().position(|b| !b.is_ascii()).unwrap_or(0);
                    return error(src, ErrorKind::InvalidAscii, start + bad);
                };
                (Object::Ascii(text), start + len)
            }
            0x6 => {
                let (len, start) = self.length(at, low)?;
                let Some(bytes_len) = len.checked_mul(2) else {
                    return error(src, ErrorKind::ObjectOutOfBounds, at);
                };
                (
                    Object::Utf16(self.bytes(start, bytes_len, at)?),
                    start + bytes_len,
                )
            }
            0x8 => {
                let width = usize::from(low) + 1;
                let bytes = self.bytes(at + 1, width, at)?;
                let (high, low_bytes) = bytes.split_at(width.saturating_sub(8));
                if high.iter().any(|&b| b != 0) {
                    return error(src, ErrorKind::IntegerOverflow, at);
                }
                (Object::Uid(be(low_bytes)), at + 1 + width)
            }
            0xA | 0xD => {
                let (count, start) = self.length(at, low)?;
                let per = if marker >> 4 == 0xA { 1 } else { 2 };
                let Some(len) = count
                    .checked_mul(self.ref_size)
                    .and_then(|n| n.checked_mul(per))
                else {
                    return error(src, ErrorKind::ObjectOutOfBounds, at);
                };
                self.bytes(start, len, at)?;
                let object = if per == 1 {
                    Object::Array { refs: start, count }
                } else {
                    Object::Dict { refs: start, count }
                };
                (object, start + len)
            }
            _ => return error(src, ErrorKind::UnknownObject(marker), at),
        };
        Ok((object, Span::new(at, end)))
    }
}

/// A direct-mapped cache of decoded ASCII dict keys: (object index, text, span).
/// It has [`KEY_CACHE`] slots, or none to cache nothing.
type KeyCache<'a> = [(u64, &'a str, Span)];

impl<'a> Reader<'a> {
    /// The dict key referenced at byte `key_at`, with its span; UTF-16 keys are decoded
    /// into `scratch`. A key found in `cache` is returned inline; any other is read out of
    /// line, by [`Reader::uncached_key`].
    #[inline(always)]
    pub(super) fn key<'s>(
        &self,
        key_at: usize,
        cache: &mut KeyCache<'a>,
        budget: &mut Budget,
        limits: &Limits,
        scratch: &'s mut String,
    ) -> Result<(TextRef<'a, 's>, Span)> {
        let key_ref = self.reference(key_at);
        // Keys repeat (writers share them): known ASCII keys skip decoding. The slot is a
        // mask of the reference: a division would be a large share of the lookup.
        let slot = cache.get_mut((key_ref % KEY_CACHE as u64) as usize);
        match slot {
            Some(slot) if slot.0 == key_ref => {
                let (text, span) = (slot.1, slot.2);
                budget.charge(1 + text.len(), self.src, span.start, limits)?;
                Ok((TextRef::Borrowed(text), span))
            }
            slot => self.uncached_key(key_ref, key_at, slot, budget, limits, scratch),
        }
    }

    /// [`Reader::key`] of a key not in the cache: decoded, and kept in `slot` when it is
    /// ASCII.
    #[inline(never)]
    fn uncached_key<'s>(
        &self,
        key_ref: u64,
        key_at: usize,
        slot: Option<&mut (u64, &'a str, Span)>,
        budget: &mut Budget,
        limits: &Limits,
        scratch: &'s mut String,
    ) -> Result<(TextRef<'a, 's>, Span)> {
        // ASCII first: most keys are.
        let (key, span) = match self.object_of(0x5, key_ref, key_at)? {
            Some(key) => key,
            None => self.object(key_ref, key_at)?,
        };
        budget.charge(1 + payload_len(&key), self.src, span.start, limits)?;
        match key {
            Object::Ascii(s) => {
                if let Some(slot) = slot {
                    *slot = (key_ref, s, span);
                }
                Ok((TextRef::Borrowed(s), span))
            }
            Object::Utf16(bytes) => {
                if !utf16(bytes, scratch) {
                    return error(self.src, ErrorKind::InvalidUtf16, span.start);
                }
                Ok((TextRef::Decoded(scratch), span))
            }
            _ => error(self.src, ErrorKind::KeyNotString, key_at),
        }
    }
}

/// Decodes big-endian UTF-16 into `out` (emptied first), rejecting unpaired surrogates.
#[inline]
pub(super) fn utf16(bytes: &[u8], out: &mut String) -> bool {
    out.clear();
    push_utf16(bytes, false, out)
}

enum Frame<D, A> {
    Array {
        object: u64,
        array: A,
        refs: usize,
        index: usize,
        count: usize,
        span: Span,
    },
    Dict {
        object: u64,
        dict: D,
        refs: usize,
        index: usize,
        count: usize,
        span: Span,
    },
}

impl<D, A> Frame<D, A> {
    fn object(&self) -> u64 {
        match self {
            Frame::Array { object, .. } | Frame::Dict { object, .. } => *object,
        }
    }
}

/// Work counter: objects visited plus payload bytes, against a cap.
pub(super) struct Budget {
    used: usize,
    cap: usize,
}

impl Budget {
    /// The cap for `src`: twice its size plus the alias expansion limit.
    pub(super) fn for_file(src: &[u8], limits: &Limits) -> Self {
        Budget {
            used: 0,
            cap: src
                .len()
                .saturating_mul(2)
                .saturating_add(limits.max_alias_expansion),
        }
    }

    #[inline]
    pub(super) fn charge(
        &mut self,
        amount: usize,
        src: &[u8],
        at: usize,
        limits: &Limits,
    ) -> Result<()> {
        self.used = self.used.saturating_add(amount);
        if self.used > self.cap {
            return error(
                src,
                ErrorKind::ExpansionLimitReached(limits.max_alias_expansion),
                at,
            );
        }
        Ok(())
    }
}

pub(super) fn payload_len(object: &Object<'_>) -> usize {
    match object {
        Object::Data(b) | Object::Utf16(b) => b.len(),
        Object::Ascii(s) => s.len(),
        _ => 0,
    }
}

/// Reads the binary plist `src` into `builder` under `limits` and returns the top value.
pub fn parse_binary_with<'a, B: PlistBuilder<'a>>(
    src: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<B::Value> {
    if src.len() > limits.max_document_size {
        return error(
            b"",
            ErrorKind::DocumentSizeLimitReached(limits.max_document_size),
            0,
        );
    }
    let r = Reader::new(src)?;
    let mut budget = Budget::for_file(src, &limits);
    let from = src.len() - TRAILER + 16;
    walk(
        &r,
        builder,
        &limits,
        limits.max_depth,
        r.top,
        from,
        &mut budget,
    )
}

/// Reads object `top` (referenced from byte `from`) and everything under it into
/// `builder`, at most `max_depth` containers deep, charging `budget`.
pub(super) fn walk<'a, B: PlistBuilder<'a>>(
    r: &Reader<'a>,
    b: &mut B,
    limits: &Limits,
    max_depth: usize,
    top: u64,
    mut from: usize,
    budget: &mut Budget,
) -> Result<B::Value> {
    let src = r.src;
    let mut scratch = String::new();
    let mut stack: Vec<Frame<B::Dict, B::Array>> = Vec::new();
    let mut key_cache = [(u64::MAX, "", Span::default()); KEY_CACHE];
    let mut next = top;
    loop {
        let (object, span) = r.object(next, from)?;
        budget.charge(1 + payload_len(&object), src, span.start, limits)?;
        match object {
            Object::Array { refs, count } | Object::Dict { refs, count } => {
                if stack.len() >= max_depth {
                    return error(
                        src,
                        ErrorKind::DepthLimitReached(limits.max_depth),
                        span.start,
                    );
                }
                if stack.iter().any(|f| f.object() == next) {
                    return error(src, ErrorKind::Cycle, from);
                }
                let frame = if matches!(object, Object::Array { .. }) {
                    Frame::Array {
                        object: next,
                        array: b.begin_array(span.start, Some(count)),
                        refs,
                        index: 0,
                        count,
                        span,
                    }
                } else {
                    Frame::Dict {
                        object: next,
                        dict: b.begin_dict(span.start, Some(count)),
                        refs,
                        index: 0,
                        count,
                        span,
                    }
                };
                stack.push(frame);
            }
            scalar => {
                // Straight into the container: no value parked on the way.
                let value = emit_scalar(b, scalar, span, &mut scratch, src)?;
                if let Some(top) = deliver(b, &mut stack, value) {
                    return Ok(top);
                }
            }
        }
        // Find the next object to read, closing the containers that are complete.
        loop {
            let Some(frame) = stack.last_mut() else {
                return error(src, ErrorKind::Truncated, 0);
            };
            match frame {
                Frame::Array {
                    refs, index, count, ..
                } => {
                    if *index < *count {
                        from = *refs + *index * r.ref_size;
                        next = r.reference(from);
                        *index += 1;
                        break;
                    }
                }
                Frame::Dict {
                    dict,
                    refs,
                    index,
                    count,
                    ..
                } => {
                    if *index < *count {
                        let key_at = *refs + *index * r.ref_size;
                        let key = r.key(key_at, &mut key_cache, budget, limits, &mut scratch)?;
                        b.dict_key(dict, key.0, key.1);
                        from = *refs + (*count + *index) * r.ref_size;
                        next = r.reference(from);
                        *index += 1;
                        break;
                    }
                }
            }
            let value = match stack.pop() {
                Some(Frame::Array { array, span, .. }) => b.end_array(array, span),
                Some(Frame::Dict { dict, span, .. }) => b.end_dict(dict, span),
                None => return error(src, ErrorKind::Truncated, 0),
            };
            if let Some(top) = deliver(b, &mut stack, value) {
                return Ok(top);
            }
        }
    }
}

/// Hands `value` to the innermost open container; returns it when there is none (it is
/// the top value).
#[inline(always)]
fn deliver<'a, B: PlistBuilder<'a>>(
    b: &mut B,
    stack: &mut [Frame<B::Dict, B::Array>],
    value: B::Value,
) -> Option<B::Value> {
    match stack.last_mut() {
        None => Some(value),
        Some(Frame::Array { array, .. }) => {
            b.array_item(array, value);
            None
        }
        Some(Frame::Dict { dict, .. }) => {
            b.dict_value(dict, value);
            None
        }
    }
}

/// The builder's value of a scalar object.
#[inline(always)]
pub(super) fn emit_scalar<'a, B: PlistBuilder<'a>>(
    b: &mut B,
    object: Object<'a>,
    span: Span,
    scratch: &mut String,
    src: &[u8],
) -> Result<B::Value> {
    Ok(match object {
        Object::Bool(v) => b.bool(v, span),
        Object::Integer(v) => b.integer(v, span),
        Object::Real(v) => b.real(v, span),
        Object::Date(seconds) => match datetime_from_apple_seconds(seconds) {
            Some(date) => b.date(date, span),
            None => return error(src, ErrorKind::InvalidDate, span.start),
        },
        Object::Data(bytes) => b.data(Cow::Borrowed(bytes), span),
        Object::Ascii(s) => b.string(TextRef::Borrowed(s), span),
        Object::Utf16(bytes) => {
            if !utf16(bytes, scratch) {
                return error(src, ErrorKind::InvalidUtf16, span.start);
            }
            b.string(TextRef::Decoded(scratch), span)
        }
        Object::Uid(v) => b.uid(v, span),
        Object::Array { .. } | Object::Dict { .. } => {
            return error(src, ErrorKind::UnknownObject(0), span.start)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn be_reads_every_width_as_the_bytewise_fold_does() {
        let bytes = [0xFF, 0x80, 0x01, 0x7F, 0xA5, 0x00, 0x5A, 0xC3];
        for len in 0..=8 {
            for start in 0..=8 - len {
                let slice = &bytes[start..start + len];
                assert_eq!(be(slice), be_bytewise(slice), "{slice:02X?}");
            }
        }
        assert_eq!(be(&[0x12, 0x34, 0x56]), 0x12_3456);
        assert_eq!(be(&[0xFF; 8]), u64::MAX);
    }

    #[test]
    fn be_at_reads_every_width_at_every_position_as_the_bytewise_fold_does() {
        let src = [
            0xFF, 0x80, 0x01, 0x7F, 0xA5, 0x00, 0x5A, 0xC3, 0x10, 0xEE, 0x02,
        ];
        for width in 1..=8 {
            for at in 0..=src.len() + 1 {
                // Near the end there is no whole word: the bytes are read one at a time,
                // and a read past the end is `None`.
                let want = src.get(at..at + width).map(be_bytewise);
                assert_eq!(
                    Words::new(&src).be_at(at, width, shift_for(width)),
                    want,
                    "{at} {width}"
                );
            }
        }
        let words = Words::new(&src);
        assert_eq!(words.be_at(1, 3, shift_for(3)), Some(0x80_017F));
        assert_eq!(words.be_at(0, 8, shift_for(8)), Some(0xFF80_017F_A500_5AC3));
        // Slices too short to hold a word are read a byte at a time, whole or not.
        for len in 0..8 {
            let short = Words::new(&src[..len]);
            for at in 0..=len + 1 {
                assert_eq!(
                    short.be_at(at, 1, shift_for(1)),
                    src[..len].get(at).map(|&b| u64::from(b)),
                    "{len} {at}"
                );
            }
        }
    }
}
