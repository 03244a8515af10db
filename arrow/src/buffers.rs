//! Plain vectors that a column's validity bits and strings are kept in, each handed to
//! Arrow whole as one buffer when the batch is taken.
//!
//! Arrow's own builders keep their bits in 64-byte-aligned buffers (an aligned
//! allocation for every column that sees a null) and build each string array through a
//! generic `ArrayData`, with a vector of buffers and a fresh offsets buffer for the next
//! batch: on a wide schema with few rows a batch (GitHub's event log: about 200 columns,
//! 30 rows), that is most of the cost of finishing a batch.

use arrow_array::StringArray;
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use quarry_raw_value::Fallback;

/// A column's validity bits: none until its first null (a column without nulls hands
/// over none), then one bit a value, set for a value and clear for a null.
#[derive(Debug, Default)]
pub(crate) struct Nulls {
    len: usize,
    bits: Option<Vec<u64>>,
}

impl Nulls {
    /// Bits for `len` values that are all valid (the values before the first null).
    #[cold]
    fn valid(len: usize) -> Vec<u64> {
        let mut bits = vec![u64::MAX; len / 64];
        match len % 64 {
            0 => {}
            rest => bits.push((1 << rest) - 1),
        }
        bits
    }

    /// One value that is not null.
    #[inline]
    pub(crate) fn append_non_null(&mut self) {
        if let Some(bits) = &mut self.bits {
            let (word, bit) = (self.len / 64, self.len % 64);
            if word == bits.len() {
                bits.push(0);
            }
            bits[word] |= 1 << bit;
        }
        self.len += 1;
    }

    /// `n` nulls.
    pub(crate) fn append_n_nulls(&mut self, n: usize) {
        let len = self.len;
        let bits = self.bits.get_or_insert_with(|| Self::valid(len));
        self.len += n;
        bits.resize(self.len.div_ceil(64), 0);
    }

    /// The bits so far, if there was a null; starts empty again.
    pub(crate) fn finish(&mut self) -> Option<NullBuffer> {
        let len = std::mem::take(&mut self.len);
        let bits = self.bits.take()?;
        Some(NullBuffer::new(BooleanBuffer::new(
            Buffer::from_vec(bits),
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
    offsets: Vec<i32>,
    bytes: String,
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
        self.offsets.resize(self.offsets.len() + n, end);
        self.nulls.append_n_nulls(n);
    }

    /// The values so far as an array; starts empty again.
    pub(crate) fn finish(&mut self) -> StringArray {
        let mut offsets = std::mem::take(&mut self.offsets);
        if offsets.is_empty() {
            offsets.push(0);
        }
        let bytes = std::mem::take(&mut self.bytes);
        let nulls = self.nulls.finish();
        // `offsets` start at 0 and never fall (each is the length of `bytes` after a
        // value), which `OffsetBuffer::new` checks again in one pass.
        if let Some(nulls) = &nulls {
            debug_assert_eq!(nulls.len() + 1, offsets.len());
        }
        let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
        let values = Buffer::from_vec(bytes.into_bytes());
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

    #[test]
    fn nulls_are_kept_only_from_the_first_null() {
        let mut nulls = Nulls::default();
        nulls.append_non_null();
        nulls.append_non_null();
        assert!(nulls.bits.is_none());
        assert!(nulls.finish().is_none());

        for n in [0, 1, 63, 64, 65, 130] {
            let mut nulls = Nulls::default();
            for _ in 0..n {
                nulls.append_non_null();
            }
            nulls.append_n_nulls(3);
            for _ in 0..70 {
                nulls.append_non_null();
            }
            let buffer = nulls.finish().expect("a null was appended");
            assert_eq!(buffer.len(), n + 73);
            assert_eq!(buffer.null_count(), 3);
            for i in 0..n + 73 {
                assert_eq!(
                    buffer.is_null(i),
                    (n..n + 3).contains(&i),
                    "value {i} of {n}"
                );
            }
            assert!(nulls.finish().is_none(), "finish starts empty again");
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
        let array = strings.finish();
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
        let mut strings = Strings::default();
        for value in values {
            match value {
                Some(v) => strings.append_value(v).unwrap(),
                None => strings.append_nulls(1),
            }
        }
        let array = strings.finish();
        array.to_data().validate_full().unwrap();
        assert_eq!(array, StringArray::from(values.to_vec()));
        let again = strings.finish();
        assert_eq!(again.len(), 0);
        again.to_data().validate_full().unwrap();
    }
}
