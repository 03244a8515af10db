//! Plain scalars: the byte tables and word-at-a-time runs that find where one may end,
//! the one-line fast path, and the general path that folds continuation lines.

use super::scalars::fold;
use super::*;

/// Bytes that end a run of plain scalar characters in block context.
const PLAIN_STOP_BLOCK: [bool; 256] = plain_stop(false);
/// Bytes that end a run of plain scalar characters in flow context.
const PLAIN_STOP_FLOW: [bool; 256] = plain_stop(true);

// [130] ns-plain-char(c) ::= ( ns-plain-safe(c) - c-mapping-value - c-comment )
//                        | ( [ lookbehind = ns-char ] c-comment )
//                        | ( c-mapping-value [ lookahead = ns-plain-safe(c) ] )
// [128] ns-plain-safe-out ::= ns-char
// [129] ns-plain-safe-in ::= ns-char - c-flow-indicator
const fn plain_stop(flow: bool) -> [bool; 256] {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t[b':' as usize] = true;
    t[0] = true;
    if flow {
        t[b',' as usize] = true;
        t[b'[' as usize] = true;
        t[b']' as usize] = true;
        t[b'{' as usize] = true;
        t[b'}' as usize] = true;
    }
    t
}

// [126] ns-plain-first(c) ::= ( ns-char - c-indicator )
//                         | ( ( c-mapping-key | c-mapping-value | c-sequence-entry )
//                             [ lookahead = ns-plain-safe(c) ] )
/// Whether a plain scalar starting `c`, `next` can be fetched right after the indicator
/// before it (`- ` or a key's `: `): no indicator, comment, quote, tag, anchor, white
/// space or non-ASCII byte, so the next fetch would go straight to the plain scalar.
#[inline(always)]
pub(super) fn starts_plain_at_once(c: u8, next: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'_' | b'.' | b'/' | b'(' | b'$' | b'~' | b'+' | b'=' | b';' | b'^'
        )
        || (c == b'-' && next.is_ascii_digit())
}

/// The end of the run of plain scalar characters at `p` (the first byte `table` stops
/// at, or the end).
#[inline]
fn skip_plain_run(b: &[u8], mut p: usize, table: &[bool; 256]) -> usize {
    while p < b.len() && !table[b[p] as usize] {
        p += 1;
    }
    p
}

/// [`skip_plain_run`] in block context, eight bytes at a time: a word is searched for
/// bytes up to 0x20 and for `:` at once, and only a candidate is checked in the table
/// (a control character other than white space is no stop).
#[inline]
fn skip_plain_run_block(b: &[u8], mut p: usize) -> usize {
    while let Some(chunk) = b.get(p..p + 8) {
        let found = plain_stop_flags(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        if found == 0 {
            p += 8;
            continue;
        }
        p += (found.trailing_zeros() / 8) as usize;
        if PLAIN_STOP_BLOCK[b[p] as usize] {
            return p;
        }
        p += 1;
    }
    skip_plain_run(b, p, &PLAIN_STOP_BLOCK)
}

/// The high bit of each byte of the little-endian word `x` that may end a plain run in
/// block context: bytes below `!`, and `:`. Only the lowest flag is exact (a borrow may
/// flag a byte above it); a byte below every real flag is never flagged.
#[inline(always)]
fn plain_stop_flags(x: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let low = x.wrapping_sub(ONES * 0x21) & !x & HIGH;
    let y = x ^ (ONES * u64::from(b':'));
    let colon = y.wrapping_sub(ONES) & !y & HIGH;
    low | colon
}

/// Whether the `n` bytes at `p` (at least one) are all inside the run of plain
/// characters that [`skip_plain_run_block`] skips from `p`: one word's flags where the
/// input has eight bytes there and `n` is at most eight. It may say no for a run the
/// skipper would pass (a control character), never yes for one it would stop in.
#[inline(always)]
pub(super) fn in_plain_run(b: &[u8], p: usize, n: usize) -> bool {
    match b.get(p..p + 8) {
        Some(chunk) if n <= 8 => {
            debug_assert!(n >= 1);
            let found =
                plain_stop_flags(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
            let first_n = u64::MAX >> (64 - 8 * n);
            found & first_n == 0
        }
        _ => skip_plain_run_block(b, p) >= p + n,
    }
}

impl<'a> Scanner<'a> {
    // [131] ns-plain(n,FLOW-OUT)  ::= ns-plain-multi-line(n,FLOW-OUT)
    //       ns-plain(n,FLOW-IN)   ::= ns-plain-multi-line(n,FLOW-IN)
    //       ns-plain(n,BLOCK-KEY) ::= ns-plain-one-line(BLOCK-KEY)
    //       ns-plain(n,FLOW-KEY)  ::= ns-plain-one-line(FLOW-KEY)
    // [192] ns-l-block-map-implicit-entry(n) ::= ( ns-s-block-map-implicit-key | e-node )
    //                                           c-l-block-map-implicit-value(n)
    pub(super) fn fetch_plain_scalar(&mut self) -> Result<()> {
        if self.flow_level == 0 && self.simple_key_allowed {
            // The common `key: value` line: when the scalar is followed by `:` on its
            // line, it is a key, and no lookahead through the token queue is needed.
            let at = (self.pos, self.line, self.col(), self.tab_before);
            self.simple_key_allowed = false;
            if let Some((start, end)) = self.scan_plain_fast() {
                // The usual one-line scalar: its token is built in the queue (moving a
                // token built on the stack costs a store-forwarding stall per token).
                if self.line == at.1 && self.ch() == b':' && self.blankz_at(1) {
                    self.key_checks(at)?;
                    self.tokens
                        .push_plain(true, &self.src[start..end], start, end);
                    self.after_key_colon();
                    // `key: value`: the value's plain scalar is fetched at once (the
                    // steps of the next fetch before it are no-ops here).
                    if starts_plain_at_once(self.ch(), self.peek(1)) {
                        self.tab_before = false;
                        return self.fetch_plain_value();
                    }
                    if self.ch() == b'"' {
                        self.tab_before = false;
                        return self.fetch_flow_scalar(true);
                    }
                    return Ok(());
                }
                self.not_a_key(at)?;
                self.push_plain(start, end);
                return Ok(());
            }
            let token = self.scan_plain_general()?;
            if self.line == at.1 && self.ch() == b':' && self.blankz_at(1) {
                return self.fetch_key_and_value(token, at);
            }
            self.not_a_key(at)?;
            self.tokens.push_back(token);
            return Ok(());
        }
        self.fetch_plain_value()
    }

    /// A plain scalar where no implicit key starts (flow context, or after a key's `:`
    /// on its line).
    #[inline(always)]
    fn fetch_plain_value(&mut self) -> Result<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        if let Some((start, end)) = self.scan_plain_fast() {
            self.push_plain(start, end);
            return Ok(());
        }
        let token = self.scan_plain_general()?;
        self.tokens.push_back(token);
        Ok(())
    }

    /// Queues the plain scalar `start..end` (one line, as the input has it).
    #[inline]
    fn push_plain(&mut self, start: usize, end: usize) {
        self.tokens
            .push_plain(false, &self.src[start..end], start, end);
    }

    /// In debug builds (tests, fuzzing), the fast path must agree with the general one.
    #[cfg(debug_assertions)]
    fn check_plain_fast(&mut self, (start, end): (usize, usize)) {
        let token = &self.plain_token(start, end);
        let after = (
            self.pos,
            self.line,
            self.line_start,
            self.simple_key_allowed,
            self.tab_in_indentation,
        );
        self.pos = token.start;
        (
            self.line,
            self.line_start,
            self.simple_key_allowed,
            self.tab_in_indentation,
        ) = self.before_fast;
        let general = self
            .scan_plain_general()
            .expect("the fast path only takes valid scalars");
        assert_eq!(&general, token, "fast and general plain scalars differ");
        let now = (
            self.pos,
            self.line,
            self.line_start,
            self.simple_key_allowed,
            self.tab_in_indentation,
        );
        assert_eq!(
            now, after,
            "fast and general plain scalars end in different places"
        );
    }

    /// The plain scalar of one line (the common case), or `None` to take the general
    /// path: no continuation line, no tab, nothing unusual. Leaves the scanner where the
    /// general path would.
    #[inline]
    pub(super) fn scan_plain_fast(&mut self) -> Option<(usize, usize)> {
        let span = self.scan_plain_one_line()?;
        #[cfg(debug_assertions)]
        self.check_plain_fast(span);
        Some(span)
    }

    // [133] ns-plain-one-line(c) ::= ns-plain-first(c) nb-ns-plain-in-line(c)
    // [132] nb-ns-plain-in-line(c) ::= ( s-white* ns-plain-char(c) )*
    /// [`Scanner::scan_plain_fast`] without the debug check: the scalar's span.
    #[inline]
    fn scan_plain_one_line(&mut self) -> Option<(usize, usize)> {
        let b = self.b;
        let flow = self.flow_level > 0;
        let table = if flow {
            &PLAIN_STOP_FLOW
        } else {
            &PLAIN_STOP_BLOCK
        };
        let start = self.pos;
        if self.pos == self.line_start && self.at_document_marker() {
            return None;
        }
        #[cfg(debug_assertions)]
        {
            self.before_fast = (
                self.line,
                self.line_start,
                self.simple_key_allowed,
                self.tab_in_indentation,
            );
        }
        let mut p = start;
        // The end of the content so far (before any white space).
        let mut last = start;
        loop {
            let run = p;
            p = if flow {
                skip_plain_run(b, p, table)
            } else {
                skip_plain_run_block(b, p)
            };
            let Some(&c) = b.get(p) else {
                // The end of the input.
                let span = (start, if p == run { last } else { p });
                self.pos = p;
                return Some(span);
            };
            if c == b':' {
                let ends = match b.get(p + 1) {
                    None => true,
                    Some(&n) => is_blank(n) || is_break(n) || (flow && is_flow_indicator(n)),
                };
                if !ends {
                    p += 1;
                    last = p;
                    continue;
                }
                let span = (start, if p == run { last } else { p });
                self.pos = p;
                return Some(span);
            }
            if p > run {
                last = p;
            }
            match c {
                b' ' => {
                    let mut q = p + 1;
                    while b.get(q) == Some(&b' ') {
                        q += 1;
                    }
                    match b.get(q) {
                        None | Some(b'#') => {
                            let span = (start, last);
                            self.pos = q;
                            return Some(span);
                        }
                        Some(b'\n' | b'\r') => {
                            p = q;
                            break;
                        }
                        Some(b'\t' | 0) => return None,
                        Some(&n) if flow && is_flow_indicator(n) => {
                            let span = (start, last);
                            self.pos = q;
                            return Some(span);
                        }
                        Some(_) => p = q,
                    }
                }
                b'\n' | b'\r' => break,
                b',' | b'[' | b']' | b'{' | b'}' => {
                    let span = (start, last);
                    self.pos = p;
                    return Some(span);
                }
                _ => return None,
            }
        }
        // At a line break after the content: the scalar ends unless the next line
        // with content continues it (then the general path folds it).
        if flow {
            return None;
        }
        let (mut q, mut line) = (p, self.line);
        let mut line_start;
        loop {
            q += if b[q] == b'\r' && b.get(q + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
            line += 1;
            line_start = q;
            q = skip_spaces(b, q);
            match b.get(q) {
                Some(b'\n' | b'\r') => continue,
                Some(b'\t' | 0) => return None,
                None => break,
                Some(&c) => {
                    let col = (q - line_start) as isize;
                    let marker = col == 0
                        && b.len() >= q + 3
                        && (&b[q..q + 3] == b"---" || &b[q..q + 3] == b"...")
                        && !matches!(b.get(q + 3), Some(&c) if !is_blank(c) && !is_break(c));
                    if col <= self.indent || c == b'#' || marker {
                        break;
                    }
                    return None;
                }
            }
        }
        let span = (start, last);
        self.pos = q;
        self.line = line;
        self.line_start = line_start;
        self.simple_key_allowed = true;
        self.tab_in_indentation = false;
        Some(span)
    }

    #[cfg(debug_assertions)]
    fn plain_token(&self, start: usize, end: usize) -> Token<'a> {
        Token {
            kind: TokenKind::Scalar(Cow::Borrowed(&self.src[start..end]), ScalarStyle::Plain),
            start,
            end,
        }
    }

    // [135] ns-plain-multi-line(n,c) ::= ns-plain-one-line(c) s-ns-plain-next-line(n,c)*
    // [134] s-ns-plain-next-line(n,c) ::= s-flow-folded(n) ns-plain-char(c) nb-ns-plain-in-line(c)
    fn scan_plain_general(&mut self) -> Result<Token<'a>> {
        let start = self.pos;
        let indent = self.indent + 1;
        let table = if self.flow_level > 0 {
            &PLAIN_STOP_FLOW
        } else {
            &PLAIN_STOP_BLOCK
        };
        let mut owned: Option<String> = None;
        let mut end = self.pos;
        let mut pending_breaks = 0usize;
        let mut pending_ws = self.pos;
        let mut tab_on_line = false;
        loop {
            if self.ch() == b'#' || (self.pos == self.line_start && self.at_document_marker()) {
                break;
            }
            let run = self.pos;
            loop {
                let rest = &self.b[self.pos..];
                self.pos += rest
                    .iter()
                    .position(|&c| table[c as usize])
                    .unwrap_or(rest.len());
                let c = self.ch();
                if c == b':' {
                    let n = self.peek(1);
                    let ends = match self.b.get(self.pos + 1) {
                        None => true,
                        Some(_) => {
                            is_blank(n)
                                || is_break(n)
                                || (self.flow_level > 0 && is_flow_indicator(n))
                        }
                    };
                    if !ends {
                        self.pos += 1;
                        continue;
                    }
                }
                if c == 0 && !self.at_end() {
                    return Err(self.error(ErrorKind::ForbiddenCharacter('\0'), self.pos));
                }
                break;
            }
            if self.pos == run {
                break;
            }
            // Join the run to what came before.
            if pending_breaks > 0 {
                let buf = owned.get_or_insert_with(|| self.src[start..end].to_owned());
                fold(buf, pending_breaks);
                buf.push_str(&self.src[run..self.pos]);
            } else if let Some(buf) = owned.as_mut() {
                buf.push_str(&self.src[pending_ws..self.pos]);
            }
            end = self.pos;
            pending_breaks = 0;
            pending_ws = self.pos;
            // White space and line breaks.
            if !is_blank(self.ch()) && !is_break(self.ch()) {
                break;
            }
            loop {
                match self.ch() {
                    b' ' => self.pos += 1,
                    b'\t' => {
                        tab_on_line = true;
                        self.pos += 1;
                    }
                    b'\n' | b'\r' => {
                        self.skip_break();
                        pending_breaks += 1;
                        tab_on_line = false;
                    }
                    _ => break,
                }
            }
            if pending_breaks > 0 {
                if self.flow_level == 0 && (self.col() as isize) < indent {
                    break;
                }
                // Tabs may separate but not indent a continuation line.
                let line = &self.b[self.line_start..self.pos];
                let spaces = line.iter().take_while(|&&c| c == b' ').count();
                if tab_on_line
                    && self.flow_level == 0
                    && (spaces as isize) < indent
                    && !self.at_end()
                    && !is_break(self.ch())
                {
                    return Err(self.error(ErrorKind::TabIndentation, self.line_start + spaces));
                }
                if self.flow_level > 0 && (self.col() as isize) <= self.indents_top_for_flow() {
                    // Flow content must be indented more than the enclosing block.
                    if !self.at_end() {
                        return Err(self.error(ErrorKind::InvalidIndentation, self.pos));
                    }
                }
            }
            if self.at_end() {
                break;
            }
        }
        if pending_breaks > 0 {
            self.simple_key_allowed = true;
            if self.flow_level == 0 {
                // The white space before the next token started on a fresh line.
                self.tab_in_indentation = tab_on_line;
            }
        }
        let value = match owned {
            Some(buf) => Cow::Owned(buf),
            None => Cow::Borrowed(&self.src[start..end]),
        };
        Ok(Token {
            kind: TokenKind::Scalar(value, ScalarStyle::Plain),
            start,
            end,
        })
    }

    /// The indentation of the block collection enclosing the current flow collection.
    fn indents_top_for_flow(&self) -> isize {
        self.indent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time run skipper stops where the byte loop stops: one byte of every
    /// value at every offset of a 19-byte run, and pairs of candidates (a borrow out of
    /// one flagged byte must not hide or fake the first stop).
    #[test]
    fn block_run_skipper_agrees_with_the_byte_loop() {
        let interesting = [
            0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x3A, 0x3B, 0x39, 0x7F, 0x80, 0xFF,
        ];
        for len in [0, 1, 7, 8, 9, 16, 19] {
            for i in 0..len {
                for v in 0..=255u8 {
                    let mut run = vec![b'a'; len];
                    run[i] = v;
                    let expected = skip_plain_run(&run, 0, &PLAIN_STOP_BLOCK);
                    assert_eq!(skip_plain_run_block(&run, 0), expected, "{run:?}");
                }
                for j in i + 1..len {
                    for &v in &interesting {
                        for &w in &interesting {
                            let mut run = vec![b'a'; len];
                            run[i] = v;
                            run[j] = w;
                            for start in 0..=i {
                                let expected = skip_plain_run(&run, start, &PLAIN_STOP_BLOCK);
                                assert_eq!(skip_plain_run_block(&run, start), expected, "{run:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// `in_plain_run` never says yes where the byte loop stops inside the span, and says
    /// yes wherever the span holds only bytes from `!` up, but `:`: one byte of every
    /// value at every offset, every span from every start, inputs shorter and longer
    /// than a word.
    #[test]
    fn in_plain_run_agrees_with_the_byte_loop() {
        for len in [1, 7, 8, 9, 12, 17] {
            for i in 0..len {
                for v in 0..=255u8 {
                    let mut run = vec![b'a'; len];
                    run[i] = v;
                    for p in 0..len {
                        for n in 1..=len - p {
                            let stop = skip_plain_run(&run, p, &PLAIN_STOP_BLOCK);
                            let clean = run[p..p + n].iter().all(|&c| c > b' ' && c != b':');
                            let said = in_plain_run(&run, p, n);
                            assert!(!said || stop >= p + n, "{run:?} {p} {n}");
                            assert!(!clean || said, "{run:?} {p} {n}");
                        }
                    }
                }
            }
        }
    }
}
