//! The in-place reads: where nothing is queued and no implicit key is pending, the
//! parser takes the common tokens (a plain `key:`, a `- ` entry, a one-line value, a
//! collection's start and end) straight from the input, past the token queue; the direct
//! path reads its keys and values this way. Each read leaves the scanner where queueing
//! the tokens and consuming them would have, or changes nothing.

use crate::common::same_bytes;

use super::plain::{in_plain_run, starts_plain_at_once};
use super::*;

/// Where the scanner stands on its line: what an in-place read puts back when it
/// leaves a token to the queue after all.
#[derive(Clone, Copy)]
struct LineState {
    pos: usize,
    line: usize,
    line_start: usize,
    simple_key_allowed: bool,
    tab_in_indentation: bool,
}

/// A block mapping's key read in place (see [`Scanner::block_key_in_place`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyInPlace {
    /// The key's span.
    pub start: usize,
    pub end: usize,
    /// Where its `:` is.
    pub colon: usize,
    /// The key is the one the reader guessed (it was not scanned).
    pub guessed: bool,
}

/// What the parser's in-place reads found (see [`Scanner::value_in_place`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InPlace {
    /// A scalar: its span (quotes included) and style.
    Scalar(usize, usize, ScalarStyle),
    /// A block mapping starts at this offset; its first key is read next.
    Mapping(usize),
    /// A block sequence starts at this offset, at its first `-`.
    Sequence(usize),
}

impl<'a> Scanner<'a> {
    /// Whether the parser may take a token straight from the input, past the queue: in
    /// block context, nothing queued, and no implicit key pending (so no token could be
    /// inserted before the next one).
    #[inline(always)]
    fn queue_bypassable(&self) -> bool {
        #[cfg(test)]
        if !self.in_place {
            return false;
        }
        self.tokens.is_empty()
            && self.flow_level == 0
            && self.simple_keys.len() == 1
            && !self.simple_keys[0].possible
    }

    /// The scanner's position and line state, for an in-place read to put back when it
    /// leaves the token to the queue.
    #[inline(always)]
    fn line_state(&self) -> LineState {
        LineState {
            pos: self.pos,
            line: self.line,
            line_start: self.line_start,
            simple_key_allowed: self.simple_key_allowed,
            tab_in_indentation: self.tab_in_indentation,
        }
    }

    #[inline(always)]
    fn restore(&mut self, state: LineState) {
        self.pos = state.pos;
        self.line = state.line;
        self.line_start = state.line_start;
        self.simple_key_allowed = state.simple_key_allowed;
        self.tab_in_indentation = state.tab_in_indentation;
    }

    /// For an in-place read: what `scan_to_next_token` does when only a line break and
    /// the next line's spaces come before the next token (anything more, and the queue
    /// does it), or, at the start of a line already, what it does there first.
    #[inline(always)]
    fn skip_to_line_content_in_place(&mut self) {
        if is_break(self.ch()) {
            self.skip_break();
            self.pos = skip_spaces(self.b, self.pos);
            self.simple_key_allowed = true;
            self.tab_in_indentation = false;
        } else if self.col() == 0 {
            self.tab_in_indentation = false;
        }
    }

    /// For an in-place read of a token that starts a line at the indentation of the
    /// open block collection: [`Scanner::skip_to_line_content_in_place`], then whether the
    /// scanner is at such a token: a plain scalar may start here, the line is no `---`
    /// line, and no tab came before it.
    #[inline(always)]
    fn at_line_token_in_place(&mut self) -> bool {
        self.skip_to_line_content_in_place();
        self.simple_key_allowed
            && !self.tab_in_indentation
            && self.col() as isize == self.indent
            && self.line != self.document_start_line
    }

    // [192] ns-l-block-map-implicit-entry(n) ::= ( ns-s-block-map-implicit-key | e-node )
    //                                           c-l-block-map-implicit-value(n)
    /// The next key of the open block mapping when it is the common one-line plain
    /// `key:` at the mapping's indentation, read straight from the input: the key's
    /// span and where its `:` is. It may follow the line break that ended the last
    /// value. The scanner ends where queueing the key's token and consuming it would
    /// have left it. `None` (leaving the scanner as it was) for anything else, which
    /// the token queue then reads.
    ///
    /// A reader that expects a certain key passes it as `guess` (or an empty one): when
    /// the line starts with it and its `:`, the key is taken without scanning it, and the
    /// answer's last field says so.
    #[inline]
    pub(crate) fn block_key_in_place(&mut self, guess: &[u8]) -> Option<KeyInPlace> {
        if !self.queue_bypassable() {
            return None;
        }
        let before = self.line_state();
        let scanned =
            if self.at_line_token_in_place() && starts_plain_at_once(self.ch(), self.peek(1)) {
                if self.guessed_key_here(guess) {
                    let start = self.pos;
                    self.pos += guess.len();
                    Some((start, self.pos, true, true))
                } else {
                    self.scan_plain_on_line()
                        .map(|(start, end, key)| (start, end, key, false))
                }
            } else {
                None
            };
        match scanned {
            Some((start, end, true, guessed)) => {
                let colon = self.pos;
                self.tab_before = false;
                self.after_key_colon();
                self.tokens_parsed += 1;
                Some(KeyInPlace {
                    start,
                    end,
                    colon,
                    guessed,
                })
            }
            _ => {
                self.restore(before);
                None
            }
        }
    }

    /// Whether the plain scalar at the current position is the block key `guess`: the
    /// input has `guess`, then `:` and a blank, a line break or the end, and the first
    /// run of plain characters (what scanning the scalar reads first) ends at that `:`.
    /// The caller has checked that a plain scalar starts here. Comparing costs less
    /// than scanning, which looks further for what may end a scalar.
    #[inline(always)]
    fn guessed_key_here(&mut self, guess: &[u8]) -> bool {
        let (b, p, n) = (self.b, self.pos, guess.len());
        // A key over 1024 bytes is an error the queue reports.
        let found = n != 0
            && n <= 1024
            && b.get(p + n) == Some(&b':')
            && self.blankz_at(n + 1)
            && same_bytes(&b[p..p + n], guess)
            && in_plain_run(b, p, n)
            && !(p == self.line_start && self.at_document_marker());
        #[cfg(debug_assertions)]
        if found {
            // The scan the guess stands in for finds the same key.
            let before = self.line_state();
            let scanned = self.scan_plain_on_line();
            self.restore(before);
            assert_eq!(
                scanned,
                Some((before.pos, before.pos + n, true)),
                "a guessed key scans differently"
            );
        }
        found
    }

    /// The one-line plain scalar at the current position, scanned for an in-place read:
    /// its span, and whether it is an implicit block key (its `:` and a blank follow on
    /// its line). `None` where the general path scans it, and for a key over 1024 bytes
    /// (an error the queue reports).
    #[inline(always)]
    fn scan_plain_on_line(&mut self) -> Option<(usize, usize, bool)> {
        let line = self.line;
        let (start, end) = self.scan_plain_fast()?;
        let key = self.line == line && self.ch() == b':' && self.blankz_at(1);
        if key && self.pos - start > 1024 {
            return None;
        }
        Some((start, end, key))
    }

    /// Opens a block collection at the current position for an in-place read, as
    /// `open_block` does when a token there starts one (the collection's start token
    /// counted as consumed). `false`, changing nothing, at the depth limit (the queue
    /// then reports it).
    #[inline]
    fn open_block_in_place(&mut self) -> bool {
        if self.indents.len() >= self.max_depth {
            return false;
        }
        self.indents.push(self.indent);
        self.indent = self.col() as isize;
        self.tokens_parsed += 1;
        true
    }

    /// Whether the plain scalar at the current position is a block key (see
    /// [`Scanner::scan_plain_on_line`]). Scans it and puts the position back when it
    /// stayed on its line.
    #[inline]
    fn plain_key_here(&mut self) -> bool {
        let (start, line) = (self.pos, self.line);
        let key = starts_plain_at_once(self.ch(), self.peek(1))
            && matches!(self.scan_plain_on_line(), Some((_, _, true)));
        if self.line == line {
            self.pos = start;
        }
        key
    }

    /// The end of the innermost block collection, read in place when the next line's
    /// content starts left of its indentation after only a line break and spaces (or
    /// with the scanner there already), or the input ends there: where the content
    /// starts (or the input ends), which the queue's
    /// `BlockEnd` token would have spanned. The scanner closes that one collection, as
    /// `unroll_indent` does for each; `None` (leaving the scanner as it was) for
    /// anything else.
    #[inline]
    pub(crate) fn block_end_in_place(&mut self) -> Option<usize> {
        if !self.queue_bypassable() {
            return None;
        }
        let before = self.line_state();
        self.skip_to_line_content_in_place();
        let c = self.ch();
        let closes = if self.at_end() {
            // The end of the input closes every open collection.
            self.indent >= 0
        } else {
            c > b' ' && c < 0x80 && c != b'#' && (self.col() as isize) < self.indent
        };
        if !closes {
            self.restore(before);
            return None;
        }
        self.tab_before = false;
        self.indent = self.indents.pop().unwrap_or(-1);
        self.tokens_parsed += 1;
        Some(self.pos)
    }

    // [184] c-l-block-seq-entry(n) ::= c-sequence-entry [ lookahead ≠ ns-char ]
    //                                 s-l+block-indented(n,BLOCK-IN)
    /// The next entry of the open block sequence, read straight from the input when it
    /// is `- ` and a one-line plain scalar that is no key ([`InPlace::Scalar`]), or
    /// `- ` and a plain `key:` that starts a mapping ([`InPlace::Mapping`], the
    /// scanner then at the key). It may follow the line break that ended the last
    /// entry. The scanner ends where queueing the entry's tokens and consuming them
    /// would have left it; `None` (leaving the scanner as it was) for anything else.
    #[inline]
    pub(crate) fn block_entry_in_place(&mut self) -> Option<InPlace> {
        if !self.queue_bypassable() {
            return None;
        }
        let before = self.line_state();
        if !(self.at_line_token_in_place()
            && self.ch() == b'-'
            && self.peek(1) == b' '
            && starts_plain_at_once(self.peek(2), self.peek(3)))
        {
            self.restore(before);
            return None;
        }
        // `fetch_block_entry`, then `fetch_plain_scalar` after the one space.
        self.pos += 2;
        let at = self.pos;
        self.simple_key_allowed = false;
        let Some((start, end, key)) = self.scan_plain_on_line() else {
            self.restore(before);
            return None;
        };
        if key {
            // A mapping starts here; its key is read again in the next step.
            self.pos = at;
            self.simple_key_allowed = true;
            if !self.open_block_in_place() {
                self.restore(before);
                return None;
            }
            self.tab_before = false;
            self.tokens_parsed += 1;
            return Some(InPlace::Mapping(at));
        }
        self.tab_before = false;
        self.tokens_parsed += 2;
        Some(InPlace::Scalar(start, end, ScalarStyle::Plain))
    }

    // [194] c-l-block-map-implicit-value(n) ::= c-mapping-value
    //           ( s-l+block-node(n,BLOCK-OUT) | ( e-node s-l-comments ) )
    /// A block mapping's value right after its key's `:`, read straight from the
    /// input: on the same line, a one-line plain scalar or a one-line double-quoted
    /// one without escapes ([`InPlace::Scalar`]); on the next line, further indented,
    /// a plain `key:` or a `- ` that starts a collection ([`InPlace::Mapping`],
    /// [`InPlace::Sequence`], the scanner then at its first token). The scanner ends
    /// where queueing the tokens and consuming them would have left it; `None`
    /// (leaving the scanner as it was) for anything else.
    #[inline]
    pub(crate) fn value_in_place(&mut self) -> Option<InPlace> {
        if !self.queue_bypassable()
            || self.simple_key_allowed
            || self.col() == 0
            || self.col() as isize <= self.indent
        {
            return None;
        }
        let c = self.ch();
        let value = if starts_plain_at_once(c, self.peek(1)) {
            let (start, end) = self.scan_plain_fast()?;
            InPlace::Scalar(start, end, ScalarStyle::Plain)
        } else if c == b'"' {
            let close = self.double_quoted_on_line()?;
            // Content after the scalar is an error the queue reports.
            self.end_of_flow_node(close + 1).ok()?;
            let start = self.pos;
            self.pos = close + 1;
            self.json_token_number = self.tokens_parsed + 1;
            InPlace::Scalar(start, close + 1, ScalarStyle::DoubleQuoted)
        } else if is_break(c) {
            return self.nested_collection_in_place();
        } else {
            return None;
        };
        self.tab_before = false;
        self.tokens_parsed += 1;
        Some(value)
    }

    /// Whether a bare document's root may be read in place here: nothing is queued, no
    /// block is open, and the first line starts at its first column with what opens a
    /// block collection or a plain scalar (no `---`, `...`, directive, comment or
    /// blank line). The next token is then no document marker, directive or stream end.
    #[inline]
    pub(crate) fn bare_root_ahead(&self) -> bool {
        let (c, next) = (self.ch(), self.peek(1));
        self.queue_bypassable()
            && self.indent == -1
            && self.pos == self.line_start
            && self.simple_key_allowed
            && (starts_plain_at_once(c, next) || (c == b'-' && next == b' '))
            && !self.at_document_marker()
    }

    /// A bare document's root block collection, read in place at the start of its
    /// first line: a mapping whose first key is a one-line plain `key:`, or a sequence
    /// at its first `- ` ([`InPlace::Mapping`], [`InPlace::Sequence`], the scanner then
    /// at that first token, as `open_block` leaves it). `None` (leaving the scanner as it
    /// was) for anything else.
    #[inline]
    pub(crate) fn root_collection_in_place(&mut self) -> Option<InPlace> {
        if !self.bare_root_ahead() {
            return None;
        }
        let before = self.line_state();
        self.collection_here_in_place(before)
    }

    /// [`Scanner::value_in_place`] at the line break after a key's `:`: a collection
    /// that starts on the next line, further indented.
    #[inline]
    fn nested_collection_in_place(&mut self) -> Option<InPlace> {
        let before = self.line_state();
        let indent = self.indent;
        self.skip_to_line_content_in_place();
        if self.col() as isize <= indent || self.line == self.document_start_line {
            self.restore(before);
            return None;
        }
        self.collection_here_in_place(before)
    }

    /// A block collection whose first token is here, opened in place: a sequence at
    /// `- `, or a mapping at a one-line plain `key:`. Anything else (or the depth
    /// limit) puts the scanner back to `before`.
    #[inline(always)]
    fn collection_here_in_place(&mut self, before: LineState) -> Option<InPlace> {
        let at = self.pos;
        let start = if self.ch() == b'-' && self.peek(1) == b' ' {
            Some(InPlace::Sequence(at))
        } else if self.plain_key_here() {
            Some(InPlace::Mapping(at))
        } else {
            None
        };
        match start {
            Some(start) if self.open_block_in_place() => {
                self.tab_before = false;
                Some(start)
            }
            _ => {
                self.restore(before);
                None
            }
        }
    }
}
