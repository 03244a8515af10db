//! Writers build their output in a byte buffer; `to_writer` gives them a sink, and the
//! buffer is handed to it in chunks as it fills, so encoding a large value into a file
//! or a pipe never holds the whole output in memory.

use std::io::Write;

use quarry_raw_value::EncodeError;

/// How full the buffer may get before a writer with a sink hands it over.
pub(crate) const CHUNK: usize = 64 << 10;

/// Where a writer's full buffer goes: nowhere (`to_vec`), or a sink. An I/O error is
/// kept and reported by [`Sink::finish`], so the writer's hot paths stay infallible.
pub(crate) struct Sink<'w> {
    to: Option<&'w mut dyn Write>,
    error: Option<std::io::Error>,
}

impl std::fmt::Debug for Sink<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sink")
            .field("to", &self.to.is_some())
            .finish_non_exhaustive()
    }
}

impl<'w> Sink<'w> {
    /// No sink: the buffer keeps everything.
    pub(crate) fn none() -> Self {
        Sink {
            to: None,
            error: None,
        }
    }

    /// Hands full buffers to `to`.
    pub(crate) fn to(to: &'w mut dyn Write) -> Self {
        Sink {
            to: Some(to),
            error: None,
        }
    }

    /// True when there is a sink (`to_writer`), false for `to_vec`.
    pub(crate) fn is_active(&self) -> bool {
        self.to.is_some()
    }

    /// True when `out` is full and there is a sink to empty it into.
    #[inline]
    pub(crate) fn wants(&self, out: &[u8]) -> bool {
        out.len() >= CHUNK && self.to.is_some()
    }

    /// Writes `out` to the sink and empties it (after an error, nothing more is written).
    #[cold]
    pub(crate) fn spill(&mut self, out: &mut Vec<u8>) {
        if let (Some(to), None) = (&mut self.to, &self.error) {
            if let Err(e) = to.write_all(out) {
                self.error = Some(e);
            }
        }
        out.clear();
    }

    /// [`Sink::spill`] for a writer that builds text.
    #[cold]
    pub(crate) fn spill_text(&mut self, out: &mut String) {
        if let (Some(to), None) = (&mut self.to, &self.error) {
            if let Err(e) = to.write_all(out.as_bytes()) {
                self.error = Some(e);
            }
        }
        out.clear();
    }

    /// Writes what is left in `out`; the first I/O error, if any.
    pub(crate) fn finish(mut self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        self.spill(out);
        match self.error {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink that fails after taking `left` bytes.
    struct Failing {
        left: usize,
        taken: Vec<u8>,
    }

    impl Write for Failing {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.left == 0 {
                return Err(std::io::Error::other("disk full"));
            }
            let n = buf.len().min(self.left);
            self.left -= n;
            self.taken.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_first_io_error_is_reported_at_the_end() {
        let mut failing = Failing {
            left: 3,
            taken: Vec::new(),
        };
        let mut sink = Sink::to(&mut failing);
        let mut out = b"abcdef".to_vec();
        sink.spill(&mut out);
        assert!(out.is_empty());
        out.extend_from_slice(b"gh");
        let err = sink.finish(&mut out).unwrap_err();
        assert_eq!(
            err.io_error().map(ToString::to_string).as_deref(),
            Some("disk full")
        );
        assert_eq!(failing.taken, b"abc");
    }
}
