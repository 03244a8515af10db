//! Directives (`%YAML`, `%TAG`, reserved ones), the document markers `---` and `...`,
//! and the node properties: tags, anchors, and the aliases that name them.

use super::*;

#[inline]
// [38] ns-word-char ::= ns-dec-digit | ns-ascii-letter | '-'
fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'-'
}

#[inline]
// [39] ns-uri-char ::= ( '%' ns-hex-digit{2} ) | ns-word-char | '#' | ';' | '/' | '?' | ':'
//                    | '@' | '&' | '=' | '+' | '$' | ',' | '_' | '.' | '!' | '~' | '*'
//                    | "'" | '(' | ')' | '[' | ']'
// (a byte at a time: `%` alone, its digits checked by `decode_uri`; non-ASCII bytes too)
fn is_uri_char(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'-' | b'#'
                | b';'
                | b'/'
                | b'?'
                | b':'
                | b'@'
                | b'&'
                | b'='
                | b'+'
                | b'$'
                | b','
                | b'_'
                | b'.'
                | b'!'
                | b'~'
                | b'*'
                | b'\''
                | b'('
                | b')'
                | b'['
                | b']'
                | b'%'
        )
        || c >= 0x80
}

impl<'a> Scanner<'a> {
    // [203] c-directives-end ::= "---"
    // [204] c-document-end ::= "..."    # (not followed by non-ws char)
    // [205] l-document-suffix ::= c-document-end s-l-comments
    pub(super) fn fetch_document_indicator(&mut self, kind: TokenKind<'a>) -> Result<()> {
        if self.flow_level > 0 {
            return Err(self.error(ErrorKind::UnexpectedDocumentMarker, self.pos));
        }
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.pos;
        self.pos += 3;
        if kind == TokenKind::DocumentStart {
            self.document_start_line = self.line;
        } else {
            // Only a comment may follow `...` on its line.
            let save = self.pos;
            while is_blank(self.ch()) {
                self.pos += 1;
            }
            if !(self.at_end() || is_break(self.ch()) || (self.ch() == b'#' && self.pos > save)) {
                return Err(self.unexpected("a comment or a line break after `...`", self.pos));
            }
            self.pos = save;
        }
        self.push(kind, start, self.pos);
        Ok(())
    }

    // [101] c-ns-anchor-property ::= c-anchor ns-anchor-name
    // [104] c-ns-alias-node ::= c-alias ns-anchor-name
    // [103] ns-anchor-name ::= ns-anchor-char+
    // [102] ns-anchor-char ::= ns-char - c-flow-indicator
    pub(super) fn fetch_anchor(&mut self, alias: bool) -> Result<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.pos;
        self.pos += 1;
        let name_start = self.pos;
        while !self.blankz_at(0) && !is_flow_indicator(self.ch()) {
            self.pos += 1;
        }
        if self.pos == name_start {
            return Err(self.error(ErrorKind::InvalidAnchor, start));
        }
        let name = &self.src[name_start..self.pos];
        let kind = if alias {
            TokenKind::Alias(name)
        } else {
            TokenKind::Anchor(name)
        };
        self.push(kind, start, self.pos);
        if alias {
            self.json_token_number = self.tokens_parsed + self.tokens.len();
        }
        Ok(())
    }

    // [97] c-ns-tag-property ::= c-verbatim-tag | c-ns-shorthand-tag | c-non-specific-tag
    // [98] c-verbatim-tag ::= "!<" ns-uri-char+ '>'
    // [99] c-ns-shorthand-tag ::= c-tag-handle ns-tag-char+
    // [100] c-non-specific-tag ::= '!'
    // [89] c-tag-handle ::= c-named-tag-handle | c-secondary-tag-handle | c-primary-tag-handle
    pub(super) fn fetch_tag(&mut self) -> Result<()> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.pos;
        let (handle, suffix);
        if self.peek(1) == b'<' {
            self.pos += 2;
            let s = self.pos;
            while is_uri_char(self.ch()) && self.ch() != b'>' {
                self.pos += 1;
            }
            if self.ch() != b'>' || self.pos == s {
                return Err(self.error(ErrorKind::InvalidTag, start));
            }
            suffix = decode_uri(&self.src[s..self.pos])
                .ok_or_else(|| self.error(ErrorKind::InvalidTag, start))?;
            handle = "";
            self.pos += 1;
        } else {
            // `!`, `!!` or `!name!` followed by a suffix, or `!suffix`.
            self.pos += 1;
            while is_word(self.ch()) {
                self.pos += 1;
            }
            if self.ch() == b'!' {
                self.pos += 1;
                handle = &self.src[start..self.pos];
                let s = self.pos;
                self.scan_tag_suffix();
                if self.pos == s {
                    return Err(self.error(ErrorKind::InvalidTag, start));
                }
                suffix = decode_uri(&self.src[s..self.pos])
                    .ok_or_else(|| self.error(ErrorKind::InvalidTag, start))?;
            } else {
                self.scan_tag_suffix();
                if self.pos == start + 1 {
                    handle = "";
                    suffix = Cow::Borrowed("!");
                } else {
                    handle = "!";
                    suffix = decode_uri(&self.src[start + 1..self.pos])
                        .ok_or_else(|| self.error(ErrorKind::InvalidTag, start))?;
                }
            }
        }
        if !(self.blankz_at(0) || (self.flow_level > 0 && is_flow_indicator(self.ch()))) {
            return Err(self.unexpected("white space after a tag", self.pos));
        }
        self.push(TokenKind::Tag(Box::new((handle, suffix))), start, self.pos);
        Ok(())
    }

    // [40] ns-tag-char ::= ns-uri-char - c-tag - c-flow-indicator
    fn scan_tag_suffix(&mut self) {
        while is_uri_char(self.ch()) && self.ch() != b'!' && !is_flow_indicator(self.ch()) {
            self.pos += 1;
        }
    }

    // [82] l-directive ::= c-directive
    //           ( ns-yaml-directive | ns-tag-directive | ns-reserved-directive ) s-l-comments
    // [86] ns-yaml-directive ::= "YAML" s-separate-in-line ns-yaml-version
    // [88] ns-tag-directive ::= "TAG" s-separate-in-line c-tag-handle s-separate-in-line
    //                         ns-tag-prefix
    // [83] ns-reserved-directive ::= ns-directive-name
    //                              ( s-separate-in-line ns-directive-parameter )*
    pub(super) fn fetch_directive(&mut self) -> Result<()> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let start = self.pos;
        self.pos += 1;
        let name_start = self.pos;
        while !self.blankz_at(0) {
            self.pos += 1;
        }
        let name = &self.src[name_start..self.pos];
        let kind = match name {
            "YAML" => {
                self.skip_directive_blanks()?;
                let major = self.scan_version_number()?;
                if self.ch() != b'.' {
                    return Err(self.error(
                        ErrorKind::InvalidDirective("expected `major.minor`"),
                        self.pos,
                    ));
                }
                self.pos += 1;
                let minor = self.scan_version_number()?;
                TokenKind::VersionDirective(major, minor)
            }
            "TAG" => {
                self.skip_directive_blanks()?;
                let h = self.pos;
                if self.ch() != b'!' {
                    return Err(self.error(
                        ErrorKind::InvalidDirective("expected a tag handle"),
                        self.pos,
                    ));
                }
                self.pos += 1;
                while is_word(self.ch()) {
                    self.pos += 1;
                }
                if self.ch() == b'!' {
                    self.pos += 1;
                } else if self.pos != h + 1 {
                    return Err(self.error(ErrorKind::InvalidDirective("bad tag handle"), h));
                }
                let handle = &self.src[h..self.pos];
                self.skip_directive_blanks()?;
                let p = self.pos;
                while is_uri_char(self.ch()) {
                    self.pos += 1;
                }
                if self.pos == p {
                    return Err(self.error(
                        ErrorKind::InvalidDirective("expected a tag prefix"),
                        self.pos,
                    ));
                }
                let prefix = decode_uri(&self.src[p..self.pos])
                    .ok_or_else(|| self.error(ErrorKind::InvalidTag, p))?;
                TokenKind::TagDirective(Box::new((handle, prefix)))
            }
            _ => {
                // A reserved directive: ignored, as the spec allows.
                let end = memchr::memchr2(b'\n', b'\r', &self.b[self.pos..])
                    .map_or(self.b.len(), |i| self.pos + i);
                // Keep a comment on that line a comment.
                let rest = &self.b[self.pos..end];
                let cut = rest
                    .windows(2)
                    .position(|w| is_blank(w[0]) && w[1] == b'#')
                    .map_or(end, |i| self.pos + i);
                self.pos = cut;
                let end = self.pos;
                self.check_line_end()?;
                // Report it as nothing: fetch the next token instead.
                let _ = (start, end);
                return Ok(());
            }
        };
        let end = self.pos;
        self.check_line_end()?;
        self.push(kind, start, end);
        Ok(())
    }

    fn skip_directive_blanks(&mut self) -> Result<()> {
        if !is_blank(self.ch()) {
            return Err(self.unexpected("white space in a directive", self.pos));
        }
        while is_blank(self.ch()) {
            self.pos += 1;
        }
        Ok(())
    }

    // [87] ns-yaml-version ::= ns-dec-digit+ '.' ns-dec-digit+    (here one `ns-dec-digit+`)
    fn scan_version_number(&mut self) -> Result<u32> {
        let s = self.pos;
        while self.ch().is_ascii_digit() {
            self.pos += 1;
        }
        if self.pos == s || self.pos - s > 9 {
            return Err(self.error(ErrorKind::InvalidDirective("bad version number"), s));
        }
        Ok(self.src[s..self.pos].parse().unwrap_or(0))
    }

    // [77] s-b-comment ::= ( s-separate-in-line c-nb-comment-text? )? b-comment
    /// After a directive or block scalar header: blanks, an optional comment, then a
    /// line break or the end.
    pub(super) fn check_line_end(&mut self) -> Result<()> {
        let s = self.pos;
        while is_blank(self.ch()) {
            self.pos += 1;
        }
        if self.ch() == b'#' {
            if self.pos == s {
                return Err(self.error(ErrorKind::CommentWithoutSpace, self.pos));
            }
            let start = self.pos;
            self.pos = memchr::memchr2(b'\n', b'\r', &self.b[self.pos..])
                .map_or(self.b.len(), |i| self.pos + i);
            if self.collect_comments {
                self.comments.push(Span::new(start, self.pos));
            }
        }
        if !self.at_end() && !is_break(self.ch()) {
            return Err(self.unexpected("a comment or a line break", self.pos));
        }
        Ok(())
    }
}

// The `( '%' ns-hex-digit{2} )` of [39] ns-uri-char.
/// Decodes `%XX` escapes of a tag (borrowed when there are none).
fn decode_uri(s: &str) -> Option<Cow<'_, str>> {
    if !s.contains('%') {
        return Some(Cow::Borrowed(s));
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().map(Cow::Owned)
}
