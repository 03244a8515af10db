//! Plain vectors that a column's values, validity bits and strings are kept in, and the
//! slab a batch's small buffers are copied into when the batch is taken.
//!
//! Arrow's own builders keep their bits in 64-byte-aligned buffers (an aligned
//! allocation for every column that sees a null) and build each string array through a
//! generic `ArrayData`, with a vector of buffers and a fresh offsets buffer for the next
//! batch: on a wide schema with few rows a batch (GitHub's event log: about 200 columns,
//! 30 rows), that is most of the cost of finishing a batch. Here a column's vectors are
//! kept from batch to batch; a batch copies the small ones end to end into one
//! [`Slab`] that its arrays share (one allocation, not one per buffer), and hands the
//! large ones over whole.

use std::ops::{Deref, DerefMut};

use arrow_array::StringArray;
use arrow_buffer::{
    ArrowNativeType, BooleanBuffer, Buffer, MutableBuffer, NullBuffer, OffsetBuffer, ScalarBuffer,
};
use quarry_raw_value::Fallback;

/// A buffer of more bytes than this is handed to Arrow whole, not copied into the slab:
/// past it, the copy would cost more than the allocation it saves.
const SMALL: usize = 4096;

/// The bytes a buffer of `len` bytes takes in the slab: none if it is not small, else
/// its bytes rounded up to 8, so every buffer starts aligned for any native type.
fn room(len: usize) -> usize {
    if len <= SMALL {
        len.next_multiple_of(8)
    } else {
        0
    }
}

/// The small buffers of a batch, being copied end to end ([`Slab::pack`]) before the
/// batch's arrays are made from slices of it ([`Slab::finish`]).
#[derive(Debug)]
pub(crate) struct Slab {
    bytes: MutableBuffer,
}

/// Where a packed buffer lies in its batch's slab.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Packed {
    start: usize,
    len: usize,
}

impl Slab {
    /// A slab of `room` bytes, the sum of what each buffer to be packed reports.
    pub(crate) fn with_room(room: usize) -> Self {
        Slab {
            bytes: MutableBuffer::with_capacity(room),
        }
    }

    /// Copies `items` to the end of the slab if they are small; where they lie.
    pub(crate) fn pack<T: ArrowNativeType>(&mut self, items: &[T]) -> Option<Packed> {
        let len = std::mem::size_of_val(items);
        if len > SMALL {
            return None;
        }
        let start = self.bytes.len();
        self.bytes.extend_from_slice(items);
        self.bytes.extend_zeros(room(len) - len);
        Some(Packed { start, len })
    }

    /// The bytes packed so far.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len()
    }

    /// The slab as one buffer, which the packed buffers are slices of.
    pub(crate) fn finish(self) -> Buffer {
        self.bytes.into()
    }
}

/// A column's values: a vector kept from batch to batch, packed into the batch's slab
/// when small.
#[derive(Debug)]
pub(crate) struct Values<T> {
    vec: Vec<T>,
    packed: Option<Packed>,
}

impl<T> Default for Values<T> {
    fn default() -> Self {
        Values {
            vec: Vec::new(),
            packed: None,
        }
    }
}

impl<T> Deref for Values<T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        &self.vec
    }
}

impl<T> DerefMut for Values<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.vec
    }
}

impl<T: ArrowNativeType> Values<T> {
    /// Appends `n` copies of `value`.
    pub(crate) fn push_n(&mut self, n: usize, value: T) {
        let len = self.vec.len();
        self.vec.resize(len + n, value);
    }

    /// The bytes [`Values::pack`] will take in the slab.
    pub(crate) fn room(&self) -> usize {
        room(std::mem::size_of_val(self.vec.as_slice()))
    }

    /// Copies the values into `slab` if they are small.
    pub(crate) fn pack(&mut self, slab: &mut Slab) {
        self.packed = slab.pack(&self.vec);
    }

    /// The values so far as a buffer (a slice of `slab` if they were packed into it,
    /// else the vector itself); starts empty again.
    pub(crate) fn finish(&mut self, slab: &Buffer) -> ScalarBuffer<T> {
        match self.packed.take() {
            Some(Packed { start, len }) => {
                let count = self.vec.len();
                self.vec.clear();
                ScalarBuffer::new(slab.slice_with_length(start, len), 0, count)
            }
            None => ScalarBuffer::from(std::mem::take(&mut self.vec)),
        }
    }
}

/// A column's validity bits: none until its first null (a column without nulls hands
/// over none), then one bit a value, set for a value and clear for a null.
#[derive(Debug, Default)]
pub(crate) struct Nulls {
    len: usize,
    /// Whether there was a null: until then `bits` is empty.
    any: bool,
    bits: Values<u64>,
}

impl Nulls {
    /// Sets the bits for the `len` values so far, all valid (the values before the
    /// first null).
    #[cold]
    fn set_valid(&mut self, len: usize) {
        self.any = true;
        self.bits.clear();
        self.bits.resize(len / 64, u64::MAX);
        match len % 64 {
            0 => {}
            rest => self.bits.push((1 << rest) - 1),
        }
    }

    /// One value that is not null.
    #[inline]
    pub(crate) fn append_non_null(&mut self) {
        if self.any {
            let (word, bit) = (self.len / 64, self.len % 64);
            if word == self.bits.len() {
                self.bits.push(0);
            }
            self.bits[word] |= 1 << bit;
        }
        self.len += 1;
    }

    /// `n` nulls.
    pub(crate) fn append_n_nulls(&mut self, n: usize) {
        if !self.any {
            self.set_valid(self.len);
        }
        self.len += n;
        self.bits.resize(self.len.div_ceil(64), 0);
    }

    /// The bytes [`Nulls::pack`] will take in the slab.
    pub(crate) fn room(&self) -> usize {
        self.bits.room()
    }

    /// Copies the bits into `slab` if they are few.
    pub(crate) fn pack(&mut self, slab: &mut Slab) {
        self.bits.pack(slab);
    }

    /// The bits so far, if there was a null (a slice of `slab` if they were packed into
    /// it); starts empty again.
    pub(crate) fn finish(&mut self, slab: &Buffer) -> Option<NullBuffer> {
        let len = std::mem::take(&mut self.len);
        let bits = self.bits.finish(slab);
        if !std::mem::take(&mut self.any) {
            return None;
        }
        Some(NullBuffer::new(BooleanBuffer::new(
            bits.into_inner(),
            0,
            len,
        )))
    }
}

/// A `Utf8` column's values would pass `i32::MAX` bytes in one batch.
#[derive(Debug)]
pub(crate) struct TooLong;

/// A `Utf8` column: the values' bytes end to end, where each ends, and their validity.
#[derive(Debug, Default)]
pub(crate) struct Strings {
    /// The offset each value ends at, after the first value's start, 0; empty (not
    /// `[0]`) until a value or null is appended, so a column never written in a batch
    /// allocates nothing for its next one.
    offsets: Values<i32>,
    bytes: String,
    /// Where `bytes` lie in the batch's slab, once packed.
    bytes_packed: Option<Packed>,
    nulls: Nulls,
}

impl Strings {
    /// Room for `values` more values of `bytes` more bytes in all.
    pub(crate) fn reserve(&mut self, values: usize, bytes: usize) {
        self.offsets.reserve(values + 1);
        self.bytes.reserve(bytes);
    }

    /// The bytes of the values so far.
    pub(crate) fn bytes_len(&self) -> usize {
        self.bytes.len()
    }

    /// Appends `value`; an error when the column would pass 2 GiB (`i32` offsets).
    #[inline(always)]
    pub(crate) fn append_value(&mut self, value: &str) -> Result<(), TooLong> {
        let end = i32::try_from(self.bytes.len() + value.len()).map_err(|_| TooLong)?;
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.bytes.push_str(value);
        self.offsets.push(end);
        self.nulls.append_non_null();
        Ok(())
    }

    /// Appends the value `read` pushes onto the column's bytes (a reader decoding
    /// straight into the column, with no copy in between). Falls back when `read` does,
    /// or when the column would pass 2 GiB (the value then taken back off): the event
    /// path, reading again, says which.
    #[inline(always)]
    pub(crate) fn append_read(
        &mut self,
        read: impl FnOnce(&mut String) -> Result<(), Fallback>,
    ) -> Result<(), Fallback> {
        let start = self.bytes.len();
        let read = read(&mut self.bytes);
        let Ok(end) = read.and_then(|()| i32::try_from(self.bytes.len()).map_err(|_| Fallback))
        else {
            self.bytes.truncate(start);
            return Err(Fallback);
        };
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.offsets.push(end);
        self.nulls.append_non_null();
        Ok(())
    }

    /// Appends `n` nulls.
    pub(crate) fn append_nulls(&mut self, n: usize) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        let end = *self.offsets.last().unwrap_or(&0);
        self.offsets.push_n(n, end);
        self.nulls.append_n_nulls(n);
    }

    /// The bytes [`Strings::pack`] will take in the slab.
    pub(crate) fn room(&self) -> usize {
        room(4 * self.offsets.len().max(1)) + room(self.bytes.len()) + self.nulls.room()
    }

    /// Copies the offsets, bytes and bits that are small into `slab`.
    pub(crate) fn pack(&mut self, slab: &mut Slab) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.offsets.pack(slab);
        self.bytes_packed = slab.pack(self.bytes.as_bytes());
        self.nulls.pack(slab);
    }

    /// The values so far as an array (of slices of `slab` where they were packed into
    /// it); starts empty again.
    pub(crate) fn finish(&mut self, slab: &Buffer) -> StringArray {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        let offsets = self.offsets.finish(slab);
        let values = match self.bytes_packed.take() {
            Some(Packed { start, len }) => {
                self.bytes.clear();
                slab.slice_with_length(start, len)
            }
            None => Buffer::from_vec(std::mem::take(&mut self.bytes).into_bytes()),
        };
        let nulls = self.nulls.finish(slab);
        // `offsets` start at 0 and never fall (each is the length of `bytes` after a
        // value), which `OffsetBuffer::new` checks again in one pass.
        if let Some(nulls) = &nulls {
            debug_assert_eq!(nulls.len() + 1, offsets.len());
        }
        let offsets = OffsetBuffer::new(offsets);
        // SAFETY: `values` was a `String`, so it is UTF-8, and every offset is its length
        // after a whole `&str` was pushed, so each falls on a character boundary; the
        // last is its length; `nulls` has one bit per value (both count every append).
        // `StringArray::try_new` would check the UTF-8 again, byte by byte.
        #[allow(unsafe_code)]
        unsafe {
            StringArray::new_unchecked(offsets, values, nulls)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;

    /// The bits of `nulls` as a batch takes them: packed into a slab, or handed over.
    fn take_nulls(nulls: &mut Nulls, packed: bool) -> Option<NullBuffer> {
        let mut slab = Slab::with_room(nulls.room());
        if packed {
            nulls.pack(&mut slab);
        }
        nulls.finish(&slab.finish())
    }

    /// The values of `strings` as a batch takes them: packed into a slab, or handed over.
    fn take_strings(strings: &mut Strings, packed: bool) -> StringArray {
        let mut slab = Slab::with_room(strings.room());
        if packed {
            strings.pack(&mut slab);
        }
        strings.finish(&slab.finish())
    }

    #[test]
    fn nulls_are_kept_only_from_the_first_null() {
        for packed in [false, true] {
            let mut nulls = Nulls::default();
            nulls.append_non_null();
            nulls.append_non_null();
            assert!(nulls.bits.is_empty());
            assert!(take_nulls(&mut nulls, packed).is_none());

            for n in [0, 1, 63, 64, 65, 130, 40_000] {
                let mut nulls = Nulls::default();
                for _ in 0..n {
                    nulls.append_non_null();
                }
                nulls.append_n_nulls(3);
                for _ in 0..70 {
                    nulls.append_non_null();
                }
                let buffer = take_nulls(&mut nulls, packed).expect("a null was appended");
                assert_eq!(buffer.len(), n + 73);
                assert_eq!(buffer.null_count(), 3);
                for i in 0..n + 73 {
                    assert_eq!(
                        buffer.is_null(i),
                        (n..n + 3).contains(&i),
                        "value {i} of {n}"
                    );
                }
                nulls.append_non_null();
                let again = take_nulls(&mut nulls, packed);
                assert!(again.is_none(), "finish starts empty again");
            }
        }
    }

    /// A value that would take a column past `i32` offsets is refused before it is
    /// pushed (Arrow's builder panicked), and the column stays as it was.
    #[test]
    fn a_column_past_two_gib_refuses_the_value() {
        let gib = "a".repeat(1 << 30);
        let mut strings = Strings::default();
        strings.append_value(&gib).unwrap();
        assert!(strings.append_value(&gib).is_err());
        assert_eq!(strings.bytes_len(), 1 << 30);
        // A reader decoding straight into the column: taken back off past 2 GiB, and
        // when the reader fails part way.
        let read = strings.append_read(|bytes| {
            bytes.push_str(&gib);
            Ok(())
        });
        assert!(read.is_err());
        assert_eq!(strings.bytes_len(), 1 << 30);
        let read = strings.append_read(|bytes| {
            bytes.push_str("half a value");
            Err(Fallback)
        });
        assert!(read.is_err());
        assert_eq!(strings.bytes_len(), 1 << 30);
        strings
            .append_read(|bytes| {
                bytes.push_str("read");
                Ok(())
            })
            .unwrap();
        strings.append_value("fits").unwrap();
        let array = take_strings(&mut strings, true);
        assert_eq!(array.len(), 3);
        assert_eq!((array.value(1), array.value(2)), ("read", "fits"));
    }

    #[test]
    fn strings_become_the_array_arrow_builds() {
        let values = [
            Some("a"),
            None,
            Some(""),
            Some("日本語 🚀"),
            None,
            None,
            Some("z"),
        ];
        for packed in [false, true] {
            let mut strings = Strings::default();
            // Three batches through the same column: a packed batch's arrays are copies,
            // so the vectors kept for the next batch may be written again.
            let mut arrays = Vec::new();
            for _ in 0..3 {
                for value in values {
                    match value {
                        Some(v) => strings.append_value(v).unwrap(),
                        None => strings.append_nulls(1),
                    }
                }
                arrays.push(take_strings(&mut strings, packed));
            }
            for array in arrays {
                array.to_data().validate_full().unwrap();
                assert_eq!(array, StringArray::from(values.to_vec()));
            }
            let again = take_strings(&mut strings, packed);
            assert_eq!(again.len(), 0);
            again.to_data().validate_full().unwrap();
        }
    }

    /// A batch's small buffers are slices of one slab, aligned for their type; a large
    /// one is handed over whole, not copied.
    #[test]
    fn small_buffers_share_the_slab_and_large_ones_are_handed_over() {
        let mut small = Values::<i64>::default();
        small.extend([1, -2, 3]);
        let mut bits = Nulls::default();
        bits.append_non_null();
        bits.append_n_nulls(1);
        let mut large = Values::<i32>::default();
        large.extend(0..2000);
        let large_at = large.as_ptr();
        let mut strings = Strings::default();
        strings.append_value("x").unwrap();

        let room = small.room() + bits.room() + large.room() + strings.room();
        assert_eq!(large.room(), 0);
        let mut slab = Slab::with_room(room);
        small.pack(&mut slab);
        bits.pack(&mut slab);
        large.pack(&mut slab);
        strings.pack(&mut slab);
        assert_eq!(slab.bytes.len(), room, "room() is what pack() takes");
        let slab = slab.finish();
        let range = slab.as_ptr() as usize..slab.as_ptr() as usize + slab.len();

        let small = small.finish(&slab);
        let bits = bits.finish(&slab).expect("a null");
        let large = large.finish(&slab);
        let strings = strings.finish(&slab);
        assert_eq!(&small[..], &[1, -2, 3]);
        assert_eq!((bits.is_valid(0), bits.is_null(1)), (true, true));
        assert_eq!(large.len(), 2000);
        assert_eq!(strings.value(0), "x");
        for at in [
            small.as_ptr() as usize,
            bits.buffer().as_ptr() as usize,
            strings.values().as_ptr() as usize,
            strings.offsets().as_ptr() as usize,
        ] {
            assert!(range.contains(&at), "packed into the slab");
            assert_eq!(at % 8, 0, "aligned");
        }
        assert_eq!(large.as_ptr(), large_at, "handed over, not copied");
    }
}
