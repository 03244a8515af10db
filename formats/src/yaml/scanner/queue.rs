//! The token queue, the parser's pulls from it, and implicit ("simple") keys: a token
//! is final once no implicit key that may start at it is pending, and a key known to be
//! one when its `:` is seen gets its `KEY` token inserted before its tokens.

use super::*;

/// The tokens scanned and not yet consumed, in order.
///
/// Slots `head..tail` of a `Vec` that only grows: consuming a token moves `head`, and
/// a token is written into a slot left by an earlier one. So the parser reads a
/// token's fields in place and the scanner writes them in place; moving whole tokens
/// through the stack costs a store-forwarding stall per token.
#[derive(Debug, Default)]
pub(super) struct TokenQueue<'a> {
    items: Vec<Token<'a>>,
    head: usize,
    tail: usize,
}

impl<'a> TokenQueue<'a> {
    /// An empty queue with room for `room` tokens.
    pub(super) fn with_capacity(room: usize) -> Self {
        TokenQueue {
            items: Vec::with_capacity(room),
            head: 0,
            tail: 0,
        }
    }

    #[inline]
    pub(super) fn len(&self) -> usize {
        self.tail - self.head
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.tail == self.head
    }

    #[inline]
    fn front(&self) -> Option<&Token<'a>> {
        if self.is_empty() {
            return None;
        }
        self.items.get(self.head)
    }

    #[inline]
    fn front_mut(&mut self) -> Option<&mut Token<'a>> {
        if self.is_empty() {
            return None;
        }
        self.items.get_mut(self.head)
    }

    #[inline(always)]
    pub(super) fn push_back(&mut self, token: Token<'a>) {
        match self.items.get_mut(self.tail) {
            // Field by field: a token without content is then a one-byte store.
            Some(slot) => {
                slot.start = token.start;
                slot.end = token.end;
                replace_kind(&mut slot.kind, token.kind);
            }
            None => self.items.push(token),
        }
        self.tail += 1;
    }

    /// Queues a plain scalar (`key`: one followed by its `:`) whose text is `text`,
    /// writing its fields into a free slot one by one (a whole token built first and
    /// then copied in would be read back before its stores land).
    #[inline]
    pub(super) fn push_plain(&mut self, key: bool, text: &'a str, start: usize, end: usize) {
        self.push_borrowed(key, text, ScalarStyle::Plain, start, end);
    }

    /// Queues a scalar in `style` (`key`: one followed by its `:`) whose text `text`
    /// is a slice of the input, writing its fields into a free slot one by one.
    #[inline(always)]
    pub(super) fn push_borrowed(
        &mut self,
        key: bool,
        text: &'a str,
        scalar_style: ScalarStyle,
        start: usize,
        end: usize,
    ) {
        let Some(slot) = self.items.get_mut(self.tail) else {
            let kind = if key {
                TokenKind::KeyScalar(Cow::Borrowed(text), scalar_style)
            } else {
                TokenKind::Scalar(Cow::Borrowed(text), scalar_style)
            };
            self.items.push(Token { kind, start, end });
            self.tail += 1;
            return;
        };
        slot.start = start;
        slot.end = end;
        match &mut slot.kind {
            TokenKind::Scalar(value, style) if !key => {
                *value = Cow::Borrowed(text);
                *style = scalar_style;
            }
            TokenKind::KeyScalar(value, style) if key => {
                *value = Cow::Borrowed(text);
                *style = scalar_style;
            }
            kind if key => replace_kind(
                kind,
                TokenKind::KeyScalar(Cow::Borrowed(text), scalar_style),
            ),
            kind => replace_kind(kind, TokenKind::Scalar(Cow::Borrowed(text), scalar_style)),
        }
        self.tail += 1;
    }

    /// Puts `token` at position `n` from the front.
    pub(super) fn insert(&mut self, n: usize, token: Token<'a>) {
        self.push_back(token);
        self.items[self.head + n..self.tail].rotate_right(1);
    }

    #[inline]
    pub(super) fn push_front(&mut self, token: Token<'a>) {
        self.insert(0, token);
    }

    /// Consumes the front token, leaving it in its slot (what the caller needed of it
    /// was read); it is dropped when the slot is written again.
    #[inline]
    fn advance(&mut self) {
        self.head += 1;
        if self.head == self.tail {
            self.head = 0;
            self.tail = 0;
        }
    }

    /// Moves the front token out.
    #[inline]
    fn pop_front(&mut self) -> Option<Token<'a>> {
        let slot = self.front_mut()?;
        let token = std::mem::replace(
            slot,
            Token {
                kind: TokenKind::StreamEnd,
                start: 0,
                end: 0,
            },
        );
        self.advance();
        Some(token)
    }
}

/// Writes `kind` over a used slot's kind. The old kind is dropped only when it owns
/// something (a rewritten text, a tag); most are borrowed, and skipping the drop glue
/// (an outlined call) for them pays on every token.
#[inline(always)]
fn replace_kind<'a>(place: &mut TokenKind<'a>, kind: TokenKind<'a>) {
    if matches!(
        place,
        TokenKind::Scalar(Cow::Owned(_), _)
            | TokenKind::KeyScalar(Cow::Owned(_), _)
            | TokenKind::Tag(_)
            | TokenKind::TagDirective(_)
    ) {
        // Frees what it owns (rare).
        *place = TokenKind::StreamEnd;
    }
    // Nothing in `place` owns memory now: overwrite it without the drop glue.
    std::mem::forget(std::mem::replace(place, kind));
}

impl<'a> Scanner<'a> {
    /// The next token, without consuming it.
    #[inline]
    pub(crate) fn peek_token(&mut self) -> Result<&Token<'a>> {
        if !self.token_available {
            if self.need_more_tokens() {
                self.fetch_more_tokens()?;
            }
            self.token_available = true;
        }
        match self.tokens.front() {
            Some(t) => Ok(t),
            None => Err(self.error(ErrorKind::UnexpectedEnd("of the stream"), self.b.len())),
        }
    }

    /// Consumes the next token.
    #[inline]
    pub(crate) fn next_token(&mut self) -> Result<Token<'a>> {
        self.peek_token()?;
        self.token_available = false;
        self.tokens_parsed += 1;
        Ok(self.tokens.pop_front().expect("peeked"))
    }

    /// Takes the text, style and span of the next token, a peeked scalar or key, and
    /// consumes it. The fields are read in place: moving whole tokens between the
    /// queue and the stack stalls on store forwarding.
    #[inline(always)]
    pub(crate) fn take_scalar(&mut self) -> (Cow<'a, str>, ScalarStyle, usize, usize) {
        let token = self.tokens.front_mut().expect("peeked");
        let (value, style) = match &mut token.kind {
            TokenKind::Scalar(value, style) | TokenKind::KeyScalar(value, style) => {
                (std::mem::take(value), *style)
            }
            _ => unreachable!("a scalar was peeked"),
        };
        let (start, end) = (token.start, token.end);
        self.token_available = false;
        self.tokens_parsed += 1;
        self.tokens.advance();
        (value, style, start, end)
    }

    /// Consumes the next token without moving it out; returns where it ended.
    #[inline]
    pub(crate) fn skip_token(&mut self) -> Result<usize> {
        let end = self.peek_token()?.end;
        self.token_available = false;
        self.tokens_parsed += 1;
        self.tokens.advance();
        Ok(end)
    }

    #[inline]
    fn need_more_tokens(&self) -> bool {
        if self.tokens.is_empty() {
            return !self.stream_end_produced;
        }
        self.simple_keys
            .iter()
            .any(|k| k.possible && k.token_number == self.tokens_parsed)
    }

    fn fetch_more_tokens(&mut self) -> Result<()> {
        loop {
            if !self.tokens.is_empty() {
                if !self.simple_keys.iter().any(|k| k.possible) {
                    return Ok(());
                }
                self.stale_simple_keys()?;
                if !self
                    .simple_keys
                    .iter()
                    .any(|k| k.possible && k.token_number == self.tokens_parsed)
                {
                    return Ok(());
                }
            } else if self.stream_end_produced {
                return Ok(());
            }
            self.fetch_next_token()?;
        }
    }

    #[inline(always)]
    pub(super) fn push(&mut self, kind: TokenKind<'a>, start: usize, end: usize) {
        self.tokens.push_back(Token { kind, start, end });
    }

    // [154] ns-s-implicit-yaml-key(c) ::= ns-flow-yaml-node(0,c) s-separate-in-line?
    //                                   /* At most 1024 characters altogether */
    pub(super) fn stale_simple_keys(&mut self) -> Result<()> {
        if self.simple_keys.len() == 1 && !self.simple_keys[0].possible {
            return Ok(());
        }
        for i in 0..self.simple_keys.len() {
            let key = self.simple_keys[i];
            // Keys in flow mappings may span lines; implicit keys elsewhere may not.
            let multiline = i > 0 && self.flow_kinds[i - 1];
            if key.possible && !multiline && (key.line < self.line || key.pos + 1024 < self.pos) {
                if key.required {
                    return Err(self.error(ErrorKind::SimpleKeyWithoutValue, key.pos));
                }
                self.simple_keys[i].possible = false;
            }
        }
        Ok(())
    }

    pub(super) fn save_simple_key(&mut self) -> Result<()> {
        self.save_simple_key_at((self.pos, self.line, self.col(), self.tab_before))
    }

    /// Records a possible implicit key starting at `(pos, line, col, tab_before)`.
    fn save_simple_key_at(
        &mut self,
        (pos, line, col, tab_before): (usize, usize, usize, bool),
    ) -> Result<()> {
        let required = self.flow_level == 0 && self.indent == col as isize;
        if self.simple_key_allowed {
            self.remove_simple_key()?;
            let key = SimpleKey {
                possible: true,
                required,
                token_number: self.tokens_parsed + self.tokens.len(),
                pos,
                line,
                col,
                tab_before,
            };
            *self.simple_keys.last_mut().expect("one key per level") = key;
        }
        Ok(())
    }

    pub(super) fn remove_simple_key(&mut self) -> Result<()> {
        let key = self.simple_keys.last_mut().expect("one key per level");
        if key.possible && key.required {
            let pos = key.pos;
            return Err(self.error(ErrorKind::SimpleKeyWithoutValue, pos));
        }
        key.possible = false;
        Ok(())
    }

    /// In block context, a scalar whose `:` does not follow on its line is no implicit
    /// key; at the indentation of a block mapping it had to be one.
    pub(super) fn not_a_key(
        &mut self,
        (pos, _, col, _): (usize, usize, usize, bool),
    ) -> Result<()> {
        self.remove_simple_key()?;
        if self.indent == col as isize {
            return Err(self.error(ErrorKind::SimpleKeyWithoutValue, pos));
        }
        Ok(())
    }

    /// A block mapping key known to be one (its `:` follows on its line): pushes
    /// `KEY`, the key's token and `VALUE` in order, opening a mapping if needed.
    pub(super) fn fetch_key_and_value(
        &mut self,
        token: Token<'a>,
        at: (usize, usize, usize, bool),
    ) -> Result<()> {
        self.key_checks(at)?;
        let kind = match token.kind {
            TokenKind::Scalar(value, style) => TokenKind::KeyScalar(value, style),
            other => other,
        };
        self.push(kind, token.start, token.end);
        self.after_key_colon();
        Ok(())
    }

    /// The rules for an implicit block key that starts at `(pos, line, col, tab_before)`
    /// and whose `:` is next; opens a block mapping if the key is the first.
    #[inline(always)]
    pub(super) fn key_checks(
        &mut self,
        (pos, line, col, tab_before): (usize, usize, usize, bool),
    ) -> Result<()> {
        self.remove_simple_key()?;
        if line == self.document_start_line {
            return Err(self.error(ErrorKind::MappingValuesNotAllowed, self.pos));
        }
        if self.pos - pos > 1024 {
            // Implicit keys are limited to 1024 characters.
            return Err(self.error(ErrorKind::SimpleKeyWithoutValue, pos));
        }
        if tab_before && self.indent < col as isize {
            return Err(self.error(ErrorKind::TabIndentation, pos));
        }
        self.roll_indent(col, None, TokenKind::BlockMappingStart, pos)
    }

    /// Consumes a block key's `:` (and the usual single space after it).
    #[inline(always)]
    pub(super) fn after_key_colon(&mut self) {
        self.pos += 1;
        self.simple_key_allowed = false;
        if self.ch() == b' ' && self.peek(1) > b' ' && self.peek(1) != b'#' {
            self.pos += 1;
        }
    }
}
