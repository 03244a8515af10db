//! Quoted and block scalars: single- and double-quoted (escapes, folding), literal and
//! folded (block headers, chomping, indentation). Plain scalars are in `plain.rs`.

use super::*;

/// Bytes of double-quoted text that need attention.
const DOUBLE_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'\n' as usize] = true;
    t[b'\r' as usize] = true;
    t
};

impl<'a> Scanner<'a> {
    pub(super) fn fetch_block_scalar(&mut self, literal: bool) -> Result<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let token = self.scan_block_scalar(literal)?;
        self.tokens.push_back(token);
        Ok(())
    }

    // [170] c-l+literal(n) ::= c-literal c-b-block-header(t) l-literal-content(n+m,t)
    // [174] c-l+folded(n) ::= c-folded c-b-block-header(t) l-folded-content(n+m,t)
    // [162] c-b-block-header(t) ::= ( ( c-indentation-indicator c-chomping-indicator(t) )
    //                               | ( c-chomping-indicator(t) c-indentation-indicator ) )
    //                               s-b-comment
    // [163] c-indentation-indicator ::= [x31-x39]    # 1-9
    // [164] c-chomping-indicator(STRIP) ::= '-'
    //       c-chomping-indicator(KEEP)  ::= '+'
    //       c-chomping-indicator(CLIP)  ::= ""
    fn scan_block_scalar(&mut self, literal: bool) -> Result<Token<'a>> {
        let start = self.pos;
        self.pos += 1;
        let mut chomp = 0i8; // -1 strip, 0 clip, 1 keep
        let mut increment = 0usize;
        for _ in 0..2 {
            match self.ch() {
                b'+' | b'-' if chomp == 0 => {
                    chomp = if self.ch() == b'+' { 1 } else { -1 };
                    self.pos += 1;
                }
                b'1'..=b'9' if increment == 0 => {
                    increment = usize::from(self.ch() - b'0');
                    self.pos += 1;
                }
                b'0' => return Err(self.error(ErrorKind::InvalidBlockScalarHeader, self.pos)),
                _ => break,
            }
        }
        if !self.blankz_at(0) {
            return Err(self.error(ErrorKind::InvalidBlockScalarHeader, self.pos));
        }
        self.check_line_end()?;
        if !self.at_end() {
            self.skip_break();
        }
        let parent = self.indent;
        let min_indent = (parent + 1).max(0) as usize;
        let indent = if increment > 0 {
            if parent >= 0 {
                parent as usize + increment
            } else {
                increment
            }
        } else {
            // Auto-detect: the indentation of the first non-empty line.
            let mut p = self.pos;
            let mut max_empty = 0;
            let mut max_empty_at = p;
            loop {
                let line = p;
                while p < self.b.len() && self.b[p] == b' ' {
                    p += 1;
                }
                let spaces = p - line;
                match self.b.get(p) {
                    None if spaces > 0 => break max_empty.max(spaces).max(min_indent),
                    Some(b'\n' | b'\r') => {
                        if spaces > max_empty {
                            max_empty = spaces;
                            max_empty_at = line;
                        }
                        p += if self.b[p] == b'\r' && self.b.get(p + 1) == Some(&b'\n') {
                            2
                        } else {
                            1
                        };
                    }
                    None => break max_empty.max(min_indent),
                    Some(_) => {
                        let at_marker = spaces == 0
                            && self.b.len() >= line + 3
                            && (&self.b[line..line + 3] == b"---"
                                || &self.b[line..line + 3] == b"...")
                            && !matches!(self.b.get(line + 3), Some(&c) if !is_blank(c) && !is_break(c));
                        if spaces < min_indent || at_marker {
                            break max_empty.max(min_indent);
                        }
                        if max_empty > spaces {
                            return Err(
                                self.error(ErrorKind::InvalidBlockScalarIndentation, max_empty_at)
                            );
                        }
                        break spaces;
                    }
                }
            }
        };
        let mut out = String::new();
        let mut breaks = 0usize;
        let mut trailing_break = false;
        let mut have_content = false;
        let mut prev_more_indented = false;
        let mut end = self.pos;
        loop {
            let line_begin = self.pos;
            while self.col() < indent && self.ch() == b' ' {
                self.pos += 1;
            }
            if self.at_end() {
                if self.pos > line_begin {
                    // A last line of spaces only, without a line break.
                    breaks += 1;
                }
                break;
            }
            if is_break(self.ch()) {
                breaks += 1;
                self.skip_break();
                continue;
            }
            if self.col() < indent {
                // Less indented: the scalar is over; a tab here would be indentation.
                if self.ch() == b'\t' {
                    let mut p = self.pos;
                    while p < self.b.len() && is_blank(self.b[p]) {
                        p += 1;
                    }
                    if p >= self.b.len() || is_break(self.b[p]) {
                        return Err(self.error(ErrorKind::TabIndentation, self.pos));
                    }
                }
                self.pos = line_begin;
                break;
            }
            if self.at_document_marker() {
                self.pos = line_begin;
                break;
            }
            let text_start = self.pos;
            let text_end = memchr::memchr2(b'\n', b'\r', &self.b[self.pos..])
                .map_or(self.b.len(), |i| self.pos + i);
            let text = &self.src[text_start..text_end];
            let more_indented = text.starts_with([' ', '\t']);
            if have_content {
                if !literal && !prev_more_indented && !more_indented {
                    if breaks == 0 {
                        out.push(' ');
                    }
                } else {
                    out.push('\n');
                }
                for _ in 0..breaks {
                    out.push('\n');
                }
            } else {
                for _ in 0..breaks {
                    out.push('\n');
                }
            }
            out.push_str(text);
            have_content = true;
            prev_more_indented = more_indented;
            breaks = 0;
            self.pos = text_end;
            end = text_end;
            // The end of the input ends the last line too.
            trailing_break = true;
            if !self.at_end() {
                self.skip_break();
            }
        }
        match chomp {
            -1 => {}
            0 => {
                if trailing_break {
                    out.push('\n');
                }
            }
            _ => {
                if trailing_break {
                    out.push('\n');
                }
                for _ in 0..breaks {
                    out.push('\n');
                }
            }
        }
        let style = if literal {
            ScalarStyle::Literal
        } else {
            ScalarStyle::Folded
        };
        Ok(Token {
            kind: TokenKind::Scalar(Cow::Owned(out), style),
            start,
            end: end.max(start + 1),
        })
    }

    pub(super) fn fetch_flow_scalar(&mut self, double: bool) -> Result<()> {
        let at = (self.pos, self.line, self.col(), self.tab_before);
        let eager = self.flow_level == 0 && self.simple_key_allowed;
        if !eager {
            self.save_simple_key()?;
        }
        self.simple_key_allowed = false;
        if double && !eager {
            if let Some(end) = self.double_quoted_on_line() {
                // The usual value `"text"`: no escape, one line; its token is written
                // into the queue in place.
                let start = self.pos;
                self.tokens.push_borrowed(
                    false,
                    &self.src[start + 1..end],
                    ScalarStyle::DoubleQuoted,
                    start,
                    end + 1,
                );
                self.pos = end + 1;
                self.json_token_number = self.tokens_parsed + self.tokens.len();
                return self.check_after_flow_node();
            }
        }
        let token = if double {
            self.scan_double_quoted()?
        } else {
            self.scan_single_quoted()?
        };
        if eager {
            let mut p = self.pos;
            while p < self.b.len() && is_blank(self.b[p]) {
                p += 1;
            }
            if self.line == at.1
                && self.b.get(p) == Some(&b':')
                && !matches!(self.b.get(p + 1), Some(&c) if !is_blank(c) && !is_break(c))
            {
                self.pos = p;
                return self.fetch_key_and_value(token, at);
            }
            self.not_a_key(at)?;
        }
        self.tokens.push_back(token);
        self.json_token_number = self.tokens_parsed + self.tokens.len();
        self.check_after_flow_node()
    }

    /// The offset of the closing quote of the double-quoted scalar at `pos` when it has
    /// no escape and no line break, which is then its text as it stands.
    #[inline]
    pub(super) fn double_quoted_on_line(&self) -> Option<usize> {
        let mut p = self.pos + 1;
        while p < self.b.len() && !DOUBLE_SPECIAL[self.b[p] as usize] {
            p += 1;
        }
        (self.b.get(p) == Some(&b'"')).then_some(p)
    }

    // [74] s-flow-folded(n) ::= s-separate-in-line? b-l-folded(n,FLOW-IN) s-flow-line-prefix(n)
    /// After a line break inside a quoted scalar: skips the following empty lines and
    /// the next line's indentation, returning how many line breaks there were in all
    /// (the first included).
    fn skip_quoted_breaks(&mut self, start: usize) -> Result<usize> {
        let mut breaks = 0;
        loop {
            self.skip_break();
            breaks += 1;
            let line = self.pos;
            while self.ch() == b' ' {
                self.pos += 1;
            }
            let spaces = self.pos - line;
            while is_blank(self.ch()) {
                self.pos += 1;
            }
            if self.at_end() {
                return Err(self.error(ErrorKind::UnexpectedEnd("in a quoted scalar"), start));
            }
            if is_break(self.ch()) {
                continue;
            }
            if spaces == 0 && self.at_document_marker_from(line) {
                return Err(self.error(ErrorKind::UnexpectedDocumentMarker, line));
            }
            if self.flow_level == 0 && (spaces as isize) <= self.indent {
                return Err(self.error(ErrorKind::InvalidIndentation, self.pos));
            }
            return Ok(breaks);
        }
    }

    fn at_document_marker_from(&self, line: usize) -> bool {
        self.b.len() >= line + 3
            && (&self.b[line..line + 3] == b"---" || &self.b[line..line + 3] == b"...")
            && !matches!(self.b.get(line + 3), Some(&c) if !is_blank(c) && !is_break(c))
    }

    // [120] c-single-quoted(n,c) ::= c-single-quote nb-single-text(n,c) c-single-quote
    // [118] nb-single-char ::= c-quoted-quote | ( nb-json - c-single-quote )
    // [117] c-quoted-quote ::= "''"
    fn scan_single_quoted(&mut self) -> Result<Token<'a>> {
        let start = self.pos;
        self.pos += 1;
        let content = self.pos;
        let mut owned: Option<String> = None;
        let mut seg = self.pos;
        loop {
            let Some(i) = memchr::memchr3(b'\'', b'\n', b'\r', &self.b[self.pos..]) else {
                return Err(self.error(ErrorKind::UnexpectedEnd("in a quoted scalar"), start));
            };
            self.pos += i;
            match self.ch() {
                b'\'' => {
                    if self.peek(1) == b'\'' {
                        let buf = owned.get_or_insert_with(String::new);
                        buf.push_str(&self.src[seg..self.pos]);
                        buf.push('\'');
                        self.pos += 2;
                        seg = self.pos;
                        continue;
                    }
                    let value = match owned {
                        None => Cow::Borrowed(&self.src[content..self.pos]),
                        Some(mut buf) => {
                            buf.push_str(&self.src[seg..self.pos]);
                            Cow::Owned(buf)
                        }
                    };
                    self.pos += 1;
                    return Ok(Token {
                        kind: TokenKind::Scalar(value, ScalarStyle::SingleQuoted),
                        start,
                        end: self.pos,
                    });
                }
                _ => {
                    let buf = owned.get_or_insert_with(String::new);
                    buf.push_str(self.src[seg..self.pos].trim_end_matches([' ', '\t']));
                    let breaks = self.skip_quoted_breaks(start)?;
                    fold(buf, breaks);
                    seg = self.pos;
                }
            }
        }
    }

    // [109] c-double-quoted(n,c) ::= c-double-quote nb-double-text(n,c) c-double-quote
    // [107] nb-double-char ::= c-ns-esc-char | ( nb-json - c-escape - c-double-quote )
    // [62] c-ns-esc-char ::= c-escape ( ns-esc-null | ns-esc-bell | ns-esc-backspace
    //        | ns-esc-horizontal-tab | ns-esc-line-feed | ns-esc-vertical-tab | ns-esc-form-feed
    //        | ns-esc-carriage-return | ns-esc-escape | ns-esc-space | ns-esc-double-quote
    //        | ns-esc-slash | ns-esc-backslash | ns-esc-next-line | ns-esc-non-breaking-space
    //        | ns-esc-line-separator | ns-esc-paragraph-separator | ns-esc-8-bit
    //        | ns-esc-16-bit | ns-esc-32-bit )
    // [112] s-double-escaped(n) ::= s-white* c-escape b-non-content l-empty(n,FLOW-IN)*
    //                              s-flow-line-prefix(n)
    fn scan_double_quoted(&mut self) -> Result<Token<'a>> {
        let start = self.pos;
        self.pos += 1;
        let content = self.pos;
        let mut owned: Option<String> = None;
        let mut seg = self.pos;
        loop {
            while self.pos < self.b.len() && !DOUBLE_SPECIAL[self.b[self.pos] as usize] {
                self.pos += 1;
            }
            if self.at_end() {
                return Err(self.error(ErrorKind::UnexpectedEnd("in a quoted scalar"), start));
            }
            match self.ch() {
                b'"' => {
                    let value = match owned {
                        None => Cow::Borrowed(&self.src[content..self.pos]),
                        Some(mut buf) => {
                            buf.push_str(&self.src[seg..self.pos]);
                            Cow::Owned(buf)
                        }
                    };
                    self.pos += 1;
                    return Ok(Token {
                        kind: TokenKind::Scalar(value, ScalarStyle::DoubleQuoted),
                        start,
                        end: self.pos,
                    });
                }
                b'\\' => {
                    let buf = owned.get_or_insert_with(String::new);
                    buf.push_str(&self.src[seg..self.pos]);
                    let esc = self.pos;
                    self.pos += 1;
                    let c = self.ch();
                    if is_break(c) {
                        // An escaped line break: no folding, leading blanks skipped.
                        let breaks = self.skip_quoted_breaks(start)?;
                        for _ in 1..breaks {
                            buf.push('\n');
                        }
                        seg = self.pos;
                        continue;
                    }
                    let simple = match c {
                        b'0' => Some('\0'),
                        b'a' => Some('\x07'),
                        b'b' => Some('\x08'),
                        b't' | b'\t' => Some('\t'),
                        b'n' => Some('\n'),
                        b'v' => Some('\x0b'),
                        b'f' => Some('\x0c'),
                        b'r' => Some('\r'),
                        b'e' => Some('\x1b'),
                        b' ' => Some(' '),
                        b'"' => Some('"'),
                        b'/' => Some('/'),
                        b'\\' => Some('\\'),
                        b'N' => Some('\u{85}'),
                        b'_' => Some('\u{a0}'),
                        b'L' => Some('\u{2028}'),
                        b'P' => Some('\u{2029}'),
                        _ => None,
                    };
                    if let Some(ch) = simple {
                        buf.push(ch);
                        self.pos += 1;
                    } else {
                        let len = match c {
                            b'x' => 2,
                            b'u' => 4,
                            b'U' => 8,
                            _ => return Err(self.error(ErrorKind::InvalidEscape, esc)),
                        };
                        let hex = self
                            .src
                            .get(self.pos + 1..self.pos + 1 + len)
                            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                            .ok_or_else(|| self.error(ErrorKind::InvalidEscape, esc))?;
                        let code = u32::from_str_radix(hex, 16)
                            .map_err(|_| self.error(ErrorKind::InvalidEscape, esc))?;
                        let ch = char::from_u32(code)
                            .ok_or_else(|| self.error(ErrorKind::InvalidEscape, esc))?;
                        buf.push(ch);
                        self.pos += 1 + len;
                    }
                    seg = self.pos;
                }
                _ => {
                    let buf = owned.get_or_insert_with(String::new);
                    buf.push_str(self.src[seg..self.pos].trim_end_matches([' ', '\t']));
                    let breaks = self.skip_quoted_breaks(start)?;
                    fold(buf, breaks);
                    seg = self.pos;
                }
            }
        }
    }
}

// [73] b-l-folded(n,c) ::= b-l-trimmed(n,c) | b-as-space
// [71] b-l-trimmed(n,c) ::= b-non-content l-empty(n,c)+
/// Appends the folding of `breaks` line breaks: one is a space, more are newlines.
pub(super) fn fold(buf: &mut String, breaks: usize) {
    if breaks == 1 {
        buf.push(' ');
    } else {
        for _ in 1..breaks {
            buf.push('\n');
        }
    }
}
