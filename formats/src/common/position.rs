use quarry_raw_value::Position;

/// A byte range `start..end` in the source document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    #[inline]
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The source text the span covers (empty if it does not fall on char boundaries).
    pub fn slice(self, src: &str) -> &str {
        src.get(self.start..self.end).unwrap_or("")
    }
}

/// The line and column of byte `offset` in `src`. Lines break at `\n`, `\r\n` and a
/// lone `\r`; columns count characters from 1. Offsets past the end clamp to the end.
///
/// This is the only place positions are computed, and only when an error is reported:
/// parsers carry byte offsets.
#[cold]
pub fn position_at(src: &[u8], offset: usize) -> Position {
    let offset = offset.min(src.len());
    let before = &src[..offset];
    let mut line = 1;
    let mut line_start = 0;
    for i in memchr::memchr2_iter(b'\n', b'\r', before) {
        if before[i] == b'\r' && src.get(i + 1) == Some(&b'\n') {
            continue; // the `\n` of this `\r\n` ends the line
        }
        line += 1;
        line_start = i + 1;
    }
    let column = 1 + src[line_start..offset]
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count();
    Position {
        offset,
        line,
        column,
    }
}

/// Lines counted up to the last offset asked for, carried forward: offsets asked for in
/// document order (the direct paths placing `Spanned` values) each cost the bytes since
/// the one before, not the whole document before them. Agrees with [`position_at`].
#[derive(Debug, Clone, Copy)]
pub struct LineCursor {
    offset: usize,
    line: usize,
    line_start: usize,
}

impl Default for LineCursor {
    fn default() -> Self {
        LineCursor {
            offset: 0,
            line: 1,
            line_start: 0,
        }
    }
}

impl LineCursor {
    /// The line and column of byte `offset` in `src`, as [`position_at`] gives them; an
    /// offset before the last one asked for counts again from the start.
    pub fn position(&mut self, src: &[u8], offset: usize) -> Position {
        let offset = offset.min(src.len());
        if offset < self.offset {
            *self = LineCursor::default();
        }
        let from = self.offset;
        for i in memchr::memchr2_iter(b'\n', b'\r', &src[from..offset]) {
            let i = from + i;
            if src[i] == b'\r' && src.get(i + 1) == Some(&b'\n') {
                continue; // the `\n` of this `\r\n` ends the line
            }
            self.line += 1;
            self.line_start = i + 1;
        }
        self.offset = offset;
        let column = 1 + src[self.line_start..offset]
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count();
        Position {
            offset,
            line: self.line,
            column,
        }
    }
}

/// Line start offsets of a document, for turning many offsets into line numbers
/// (the CLI's `tree` prints one per node).
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the line starts of `src`, with the same line breaks as [`position_at`].
    pub fn new(src: &[u8]) -> Self {
        let mut starts = vec![0];
        for i in memchr::memchr2_iter(b'\n', b'\r', src) {
            if src[i] == b'\r' && src.get(i + 1) == Some(&b'\n') {
                continue;
            }
            starts.push(i + 1);
        }
        LineIndex { starts }
    }

    /// The 1-based line holding byte `offset`.
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let src = "ab\ncé\r\nx\ry";
        let at = |o| {
            let p = position_at(src.as_bytes(), o);
            (p.line, p.column)
        };
        assert_eq!(at(0), (1, 1));
        assert_eq!(at(2), (1, 3));
        assert_eq!(at(3), (2, 1));
        assert_eq!(at(6), (2, 3)); // after the two-byte é
        assert_eq!(at(8), (3, 1)); // \r\n is one break
        assert_eq!(at(10), (4, 1)); // lone \r breaks too
        assert_eq!(at(999), (4, 2));
        let mut cursor = LineCursor::default();
        for offset in (0..=src.len()).chain([4, 999, 0, 7, 8]) {
            assert_eq!(
                cursor.position(src.as_bytes(), offset),
                position_at(src.as_bytes(), offset),
                "offset {offset}"
            );
        }
        let index = LineIndex::new(src.as_bytes());
        for offset in 0..src.len() {
            assert_eq!(
                index.line(offset),
                position_at(src.as_bytes(), offset).line,
                "offset {offset}"
            );
        }
    }
}
