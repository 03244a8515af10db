//! Indentation and collections: the stack of block indentations that opens and closes
//! block collections, the flow levels, and the indicators that open, separate and close
//! collections (`-`, `?`, `:`, `[`, `]`, `{`, `}`, `,`).

use super::plain::starts_plain_at_once;
use super::*;

impl<'a> Scanner<'a> {
    fn increase_flow_level(&mut self, mapping: bool) -> Result<()> {
        self.simple_keys.push(SimpleKey::default());
        self.flow_kinds.push(mapping);
        self.flow_level += 1;
        if self.flow_level > self.max_depth {
            return Err(self.error(ErrorKind::DepthLimitReached(self.max_depth), self.pos));
        }
        Ok(())
    }

    fn decrease_flow_level(&mut self) {
        if self.flow_level > 0 {
            self.flow_level -= 1;
            self.simple_keys.pop();
            self.flow_kinds.pop();
        }
    }

    /// Opens a block collection at `column` if it is deeper than the current one,
    /// inserting `kind` before token `number` (or at the end).
    #[inline(always)]
    pub(super) fn roll_indent(
        &mut self,
        column: usize,
        number: Option<usize>,
        kind: TokenKind<'a>,
        at: usize,
    ) -> Result<()> {
        // The usual case, a key or entry of the open collection, inline.
        if self.flow_level > 0 || self.indent >= column as isize {
            return Ok(());
        }
        self.open_block(column, number, kind, at)
    }

    /// [`Scanner::roll_indent`] when it opens a collection.
    fn open_block(
        &mut self,
        column: usize,
        number: Option<usize>,
        kind: TokenKind<'a>,
        at: usize,
    ) -> Result<()> {
        self.indents.push(self.indent);
        if self.indents.len() > self.max_depth {
            return Err(self.error(ErrorKind::DepthLimitReached(self.max_depth), at));
        }
        self.indent = column as isize;
        let token = Token {
            kind,
            start: at,
            end: at,
        };
        match number {
            Some(n) if n == self.tokens_parsed => self.tokens.push_front(token),
            Some(n) => self.tokens.insert(n - self.tokens_parsed, token),
            None => self.tokens.push_back(token),
        }
        Ok(())
    }

    #[inline(always)]
    pub(super) fn unroll_indent(&mut self, column: isize) {
        if self.flow_level > 0 || self.indent <= column {
            return;
        }
        self.close_blocks(column);
    }

    /// [`Scanner::unroll_indent`] when it closes collections.
    fn close_blocks(&mut self, column: isize) {
        while self.indent > column {
            self.push(TokenKind::BlockEnd, self.pos, self.pos);
            self.indent = self.indents.pop().unwrap_or(-1);
        }
    }

    // [137] c-flow-sequence(n,c) ::= c-sequence-start s-separate(n,c)? in-flow(n,c)?
    //                               c-sequence-end
    // [140] c-flow-mapping(n,c) ::= c-mapping-start s-separate(n,c)?
    //                              ns-s-flow-map-entries(n,in-flow(c))? c-mapping-end
    pub(super) fn fetch_flow_collection_start(&mut self, kind: TokenKind<'a>) -> Result<()> {
        self.save_simple_key()?;
        self.increase_flow_level(kind == TokenKind::FlowMappingStart)?;
        self.simple_key_allowed = true;
        let start = self.pos;
        self.pos += 1;
        self.push(kind, start, self.pos);
        Ok(())
    }

    // [9] c-sequence-end ::= ']'
    // [11] c-mapping-end ::= '}'
    pub(super) fn fetch_flow_collection_end(&mut self, kind: TokenKind<'a>) -> Result<()> {
        self.remove_simple_key()?;
        self.decrease_flow_level();
        self.simple_key_allowed = false;
        let start = self.pos;
        self.pos += 1;
        self.push(kind, start, self.pos);
        self.json_token_number = self.tokens_parsed + self.tokens.len();
        self.check_after_flow_node()
    }

    /// In block context, a flow collection or quoted scalar that ends a line's content
    /// may only be followed by a comment, `:` or the end of the line.
    pub(super) fn check_after_flow_node(&mut self) -> Result<()> {
        if self.flow_level > 0 {
            return Ok(());
        }
        self.end_of_flow_node(self.pos)
            .map_err(|p| self.unexpected("a comment or a line break", p))
    }

    /// In block context, whether only blanks, then a line break, a comment, a `:` or
    /// the end, follow a flow node that ends at `p`; `Err` with where a `,` or further
    /// content stands instead.
    #[inline]
    pub(super) fn end_of_flow_node(&self, mut p: usize) -> std::result::Result<(), usize> {
        while p < self.b.len() && is_blank(self.b[p]) {
            p += 1;
        }
        match self.b.get(p) {
            None | Some(b'\n' | b'\r' | b'#' | b':') => Ok(()),
            Some(_) => Err(p),
        }
    }

    // [138] ns-s-flow-seq-entries(n,c) ::= ns-flow-seq-entry(n,c) s-separate(n,c)?
    //           ( c-collect-entry s-separate(n,c)? ns-s-flow-seq-entries(n,c)? )?
    pub(super) fn fetch_flow_entry(&mut self) -> Result<()> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let start = self.pos;
        self.pos += 1;
        self.push(TokenKind::FlowEntry, start, self.pos);
        Ok(())
    }

    // [183] l+block-sequence(n) ::= ( s-indent(n+1+m) c-l-block-seq-entry(n+1+m) )+
    // [184] c-l-block-seq-entry(n) ::= c-sequence-entry [ lookahead ≠ ns-char ]
    //                                 s-l+block-indented(n,BLOCK-IN)
    pub(super) fn fetch_block_entry(&mut self) -> Result<()> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                return Err(self.error(ErrorKind::BlockSequenceEntriesNotAllowed, self.pos));
            }
            if self.line == self.document_start_line {
                return Err(self.error(ErrorKind::BlockSequenceEntriesNotAllowed, self.pos));
            }
            self.roll_indent(self.col(), None, TokenKind::BlockSequenceStart, self.pos)?;
        } else {
            return Err(self.error(ErrorKind::BlockSequenceEntriesNotAllowed, self.pos));
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let start = self.pos;
        self.pos += 1;
        self.push(TokenKind::BlockEntry, start, self.pos);
        // `- value`: the entry's plain scalar is fetched at once (the steps of the next
        // fetch before it are no-ops after one space).
        if self.ch() == b' ' && starts_plain_at_once(self.peek(1), self.peek(2)) {
            self.pos += 1;
            self.tab_before = false;
            return self.fetch_plain_scalar();
        }
        Ok(())
    }

    // [190] c-l-block-map-explicit-key(n) ::= c-mapping-key s-l+block-indented(n,BLOCK-OUT)
    // [142] ns-flow-map-entry(n,c) ::= ( c-mapping-key s-separate(n,c)
    //                                    ns-flow-map-explicit-entry(n,c) )
    //                                | ns-flow-map-implicit-entry(n,c)
    pub(super) fn fetch_key(&mut self) -> Result<()> {
        if self.flow_level == 0 {
            if !self.simple_key_allowed || self.line == self.document_start_line {
                return Err(self.error(ErrorKind::MappingKeysNotAllowed, self.pos));
            }
            self.roll_indent(self.col(), None, TokenKind::BlockMappingStart, self.pos)?;
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = self.flow_level == 0;
        let start = self.pos;
        self.pos += 1;
        self.push(TokenKind::Key, start, self.pos);
        Ok(())
    }

    // [194] c-l-block-map-implicit-value(n) ::= c-mapping-value
    //           ( s-l+block-node(n,BLOCK-OUT) | ( e-node s-l-comments ) )
    // [147] c-ns-flow-map-separate-value(n,c) ::= c-mapping-value
    //           [ lookahead ≠ ns-plain-safe(c) ] ( ( s-separate(n,c) ns-flow-node(n,c) ) | e-node )
    // [149] c-ns-flow-map-adjacent-value(n,c) ::= c-mapping-value
    //           ( ( s-separate(n,c)? ns-flow-node(n,c) ) | e-node )
    pub(super) fn fetch_value(&mut self) -> Result<()> {
        let key = *self.simple_keys.last().expect("one key per level");
        if key.possible {
            if self.flow_level == 0 && key.line == self.document_start_line {
                return Err(self.error(ErrorKind::MappingValuesNotAllowed, self.pos));
            }
            if self.flow_level == 0 && key.tab_before && self.indent < key.col as isize {
                // A tab cannot indent the first key of a block mapping.
                return Err(self.error(ErrorKind::TabIndentation, key.pos));
            }
            let token = Token {
                kind: TokenKind::Key,
                start: key.pos,
                end: key.pos,
            };
            if key.token_number == self.tokens_parsed {
                self.tokens.push_front(token);
            } else {
                self.tokens
                    .insert(key.token_number - self.tokens_parsed, token);
            }
            self.roll_indent(
                key.col,
                Some(key.token_number),
                TokenKind::BlockMappingStart,
                key.pos,
            )?;
            self.simple_keys
                .last_mut()
                .expect("one key per level")
                .possible = false;
            self.simple_key_allowed = false;
        } else {
            if self.flow_level == 0 {
                if !self.simple_key_allowed {
                    return Err(self.error(ErrorKind::MappingValuesNotAllowed, self.pos));
                }
                if self.line == self.document_start_line {
                    return Err(self.error(ErrorKind::MappingValuesNotAllowed, self.pos));
                }
                self.roll_indent(self.col(), None, TokenKind::BlockMappingStart, self.pos)?;
            }
            self.simple_key_allowed = self.flow_level == 0;
        }
        let start = self.pos;
        self.pos += 1;
        self.push(TokenKind::Value, start, self.pos);
        Ok(())
    }
}
