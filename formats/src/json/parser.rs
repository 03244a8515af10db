//! The one JSON parser (RFC 8259, strict), generic over a [`JsonBuilder`].
//!
//! It is iterative: open containers live on a heap stack, so no input can overflow the
//! thread's stack whatever the depth limit; the limit itself is checked here, in the core.

use quarry_raw_value::{Fallback, PullSource, RawValue, Text, ValueKind};

use crate::common::{validate_utf8, Limits, Span};

use super::builder::JsonBuilder;
use super::lexer::Lexer;
use super::raw::{raw_number, RawValueBuilder};
use super::{Error, ErrorKind};

/// A JSON parser over one input. Besides [`Parser::parse_value`], it exposes the steps
/// the derive's direct decoder uses to read bytes straight into a struct.
#[derive(Debug)]
pub struct Parser<'a> {
    lexer: Lexer<'a>,
    limits: Limits,
    scratch: String,
    depth: usize,
    /// The container stack of [`Parser::skip_value`], kept so skipping allocates once.
    skip_stack: Vec<Frame<(), (), ()>>,
}

/// An open container: its builder state and where it starts; an object also holds the
/// key of the member whose value is being parsed.
#[derive(Debug)]
enum Frame<A, O, K> {
    Array(A, usize),
    Object(O, Option<K>, usize),
}

impl<'a> Parser<'a> {
    /// Checks the size limit and UTF-8 validity of `input` and skips a leading BOM.
    pub fn new(input: &'a [u8], limits: Limits) -> Result<Self, Error> {
        if input.len() > limits.max_document_size {
            return Err(Error::new(
                ErrorKind::DocumentSizeLimitReached(limits.max_document_size),
                input,
                0,
            ));
        }
        let src = match validate_utf8(input) {
            Ok(src) => src,
            Err(at) => return Err(Error::new(ErrorKind::InvalidUtf8, input, at)),
        };
        let mut lexer = Lexer::new(src);
        if src.starts_with('\u{feff}') {
            for _ in 0..3 {
                lexer.bump();
            }
        }
        Ok(Parser {
            lexer,
            limits,
            scratch: String::new(),
            depth: 0,
            skip_stack: Vec::new(),
        })
    }

    /// The lexer, for reading primitives directly.
    #[inline]
    pub fn lexer(&mut self) -> &mut Lexer<'a> {
        &mut self.lexer
    }

    /// The lexer and the scratch buffer together, for [`Lexer::read_string`].
    #[inline]
    pub fn lexer_and_scratch(&mut self) -> (&mut Lexer<'a>, &mut String) {
        (&mut self.lexer, &mut self.scratch)
    }

    /// Enters a container opened by a direct decoder, checking the depth limit.
    #[inline]
    pub fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            return Err(self
                .lexer
                .error(ErrorKind::DepthLimitReached(self.limits.max_depth)));
        }
        Ok(())
    }

    /// Leaves a container entered with [`Parser::enter`].
    #[inline]
    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Checks that only whitespace is left.
    pub fn finish(&mut self) -> Result<(), Error> {
        match self.lexer.peek() {
            None => Ok(()),
            Some(_) => Err(self.lexer.error(ErrorKind::TrailingCharacters)),
        }
    }

    /// Skips one value, validating it and building nothing (and, after the first
    /// container, allocating nothing).
    pub fn skip_value(&mut self) -> Result<(), Error> {
        let mut stack = std::mem::take(&mut self.skip_stack);
        let result = self.parse_with_stack(&mut (), &mut stack);
        stack.clear();
        self.skip_stack = stack;
        result
    }

    /// Reads an object key and the `:` after it; the opening `"` is next.
    #[inline]
    fn read_key<B: JsonBuilder<'a>>(&mut self, builder: &mut B) -> Result<B::Key, Error> {
        let start = self.lexer.pos();
        let key = self.lexer.read_string(&mut self.scratch)?;
        let key = builder.key(key, Span::new(start, self.lexer.pos()));
        if self.lexer.peek() != Some(b':') {
            return Err(self.lexer.unexpected("`:`"));
        }
        self.lexer.bump();
        Ok(key)
    }

    #[inline]
    fn check_depth(&self, open: usize) -> Result<(), Error> {
        if self.depth + open >= self.limits.max_depth {
            return Err(self
                .lexer
                .error(ErrorKind::DepthLimitReached(self.limits.max_depth)));
        }
        Ok(())
    }

    /// Parses one value (after optional whitespace) into `builder`.
    pub fn parse_value<B: JsonBuilder<'a>>(&mut self, builder: &mut B) -> Result<B::Value, Error> {
        self.parse_with_stack(builder, &mut Vec::new())
    }

    /// The parse loop, with the stack of open containers supplied by the caller.
    fn parse_with_stack<B: JsonBuilder<'a>>(
        &mut self,
        builder: &mut B,
        stack: &mut Vec<Frame<B::Array, B::Object, B::Key>>,
    ) -> Result<B::Value, Error> {
        'value: loop {
            let next = self.lexer.peek();
            let start = self.lexer.pos();
            let mut value = match next {
                Some(b'"') => {
                    let s = self.lexer.read_string(&mut self.scratch)?;
                    builder.string(s, Span::new(start, self.lexer.pos()))
                }
                Some(b'-' | b'0'..=b'9') => {
                    let n = self.lexer.scan_number()?;
                    builder.number(n, Span::new(start, self.lexer.pos()))
                }
                Some(b'[') => {
                    self.check_depth(stack.len())?;
                    self.lexer.bump();
                    let array = builder.begin_array(start);
                    if self.lexer.peek() == Some(b']') {
                        self.lexer.bump();
                        builder.end_array(array, Span::new(start, self.lexer.pos()))
                    } else {
                        stack.push(Frame::Array(array, start));
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    self.check_depth(stack.len())?;
                    self.lexer.bump();
                    let object = builder.begin_object(start);
                    match self.lexer.peek() {
                        Some(b'}') => {
                            self.lexer.bump();
                            builder.end_object(object, Span::new(start, self.lexer.pos()))
                        }
                        Some(b'"') => {
                            let key = self.read_key(builder)?;
                            stack.push(Frame::Object(object, Some(key), start));
                            continue 'value;
                        }
                        _ => return Err(self.lexer.unexpected("a string key or `}`")),
                    }
                }
                Some(b't') => {
                    self.lexer.read_literal("true")?;
                    builder.bool(true, Span::new(start, self.lexer.pos()))
                }
                Some(b'f') => {
                    self.lexer.read_literal("false")?;
                    builder.bool(false, Span::new(start, self.lexer.pos()))
                }
                Some(b'n') => {
                    self.lexer.read_literal("null")?;
                    builder.null(Span::new(start, self.lexer.pos()))
                }
                _ => return Err(self.lexer.unexpected("a JSON value")),
            };
            // Hand the value to its container; close every container that ends here.
            // The open container stays in place while items follow (`,`): only a closing
            // bracket pops it.
            loop {
                match stack.last_mut() {
                    None => return Ok(value),
                    Some(Frame::Array(array, _)) => {
                        builder.array_item(array, value);
                        match self.lexer.peek() {
                            Some(b',') => {
                                self.lexer.bump();
                                continue 'value;
                            }
                            Some(b']') => self.lexer.bump(),
                            _ => return Err(self.lexer.unexpected("`,` or `]`")),
                        }
                    }
                    Some(Frame::Object(object, pending_key, _)) => {
                        // The key was stored when the member's value began.
                        if let Some(key) = pending_key.take() {
                            builder.object_member(object, key, value);
                        }
                        match self.lexer.peek() {
                            Some(b',') => {
                                self.lexer.bump();
                                if self.lexer.peek() != Some(b'"') {
                                    return Err(self.lexer.unexpected("a string key"));
                                }
                                *pending_key = Some(self.read_key(builder)?);
                                continue 'value;
                            }
                            Some(b'}') => self.lexer.bump(),
                            _ => return Err(self.lexer.unexpected("`,` or `}`")),
                        }
                    }
                }
                let end = self.lexer.pos();
                value = match stack.pop() {
                    Some(Frame::Array(array, start)) => {
                        builder.end_array(array, Span::new(start, end))
                    }
                    Some(Frame::Object(object, _, start)) => {
                        builder.end_object(object, Span::new(start, end))
                    }
                    None => unreachable!("the container just closed is on the stack"),
                };
            }
        }
    }
}

/// Parses a whole document: one value, surrounded only by whitespace.
pub fn parse_with<'a, B: JsonBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<B::Value, Error> {
    let mut parser = Parser::new(input, limits)?;
    let value = parser.parse_value(builder)?;
    parser.finish()?;
    Ok(value)
}

impl<'a> Parser<'a> {
    /// [`PullSource::next_key`] for a key with an escape (or a malformed one).
    #[inline(never)]
    fn escaped_key(&mut self) -> Result<Option<Text<'a, '_>>, Fallback> {
        let key = self
            .lexer
            .read_escaped_string(&mut self.scratch)
            .map_err(|_| Fallback)?;
        if self.lexer.peek() != Some(b':') {
            return Err(Fallback);
        }
        self.lexer.bump();
        Ok(Some(key))
    }
}

/// The direct path: derived and std types read themselves from the parser. Every
/// failure is a [`Fallback`]; the caller re-decodes through `RawValue` for the error.
impl<'a> PullSource<'a> for Parser<'a> {
    #[inline]
    fn peek_token(&mut self) -> Result<ValueKind, Fallback> {
        match self.lexer.peek() {
            Some(b'"') => Ok(ValueKind::String),
            Some(b'-' | b'0'..=b'9') => Ok(ValueKind::Number),
            Some(b'{') => Ok(ValueKind::Object),
            Some(b'[') => Ok(ValueKind::Array),
            Some(b't' | b'f') => Ok(ValueKind::Bool),
            Some(b'n') => Ok(ValueKind::Null),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_null(&mut self) -> Result<(), Fallback> {
        match self.lexer.peek() {
            Some(b'n') => self.lexer.read_literal("null").map_err(|_| Fallback),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_bool(&mut self) -> Result<bool, Fallback> {
        match self.lexer.peek() {
            Some(b't') => self
                .lexer
                .read_literal("true")
                .map(|()| true)
                .map_err(|_| Fallback),
            Some(b'f') => self
                .lexer
                .read_literal("false")
                .map(|()| false)
                .map_err(|_| Fallback),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_number(&mut self) -> Result<RawValue<'a>, Fallback> {
        match self.lexer.peek() {
            Some(b'-' | b'0'..=b'9') => match self.lexer.scan_number() {
                Ok(token) => Ok(raw_number(token.value())),
                Err(_) => Err(Fallback),
            },
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_i64(&mut self) -> Result<i64, Fallback> {
        match self.lexer.peek() {
            Some(b'-' | b'0'..=b'9') => match self.lexer.scan_number() {
                Ok(token) => token.as_i64().ok_or(Fallback),
                Err(_) => Err(Fallback),
            },
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_u64(&mut self) -> Result<u64, Fallback> {
        match self.lexer.peek() {
            Some(b'0'..=b'9') => match self.lexer.scan_number() {
                Ok(token) => token.as_u64().ok_or(Fallback),
                Err(_) => Err(Fallback),
            },
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_str(&mut self) -> Result<Text<'a, '_>, Fallback> {
        if self.lexer.peek() != Some(b'"') {
            return Err(Fallback);
        }
        match self.lexer.read_unescaped_string() {
            Some(s) => Ok(Text::Borrowed(s)),
            None => self
                .lexer
                .read_escaped_string(&mut self.scratch)
                .map_err(|_| Fallback),
        }
    }

    #[inline]
    fn begin_array(&mut self) -> Result<(), Fallback> {
        if self.lexer.peek() != Some(b'[') {
            return Err(Fallback);
        }
        self.lexer.bump();
        self.enter().map_err(|_| Fallback)
    }

    #[inline]
    fn next_item(&mut self, first: bool) -> Result<bool, Fallback> {
        match self.lexer.peek() {
            Some(b']') => {
                self.lexer.bump();
                self.leave();
                Ok(false)
            }
            Some(b',') if !first => {
                self.lexer.bump();
                Ok(true)
            }
            Some(_) if first => Ok(true),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn begin_object(&mut self) -> Result<(), Fallback> {
        if self.lexer.peek() != Some(b'{') {
            return Err(Fallback);
        }
        self.lexer.bump();
        self.enter().map_err(|_| Fallback)
    }

    #[inline]
    fn next_key(&mut self, first: bool) -> Result<Option<Text<'a, '_>>, Fallback> {
        match self.lexer.peek() {
            Some(b'}') => {
                self.lexer.bump();
                self.leave();
                return Ok(None);
            }
            Some(b',') if !first => {
                self.lexer.bump();
                if self.lexer.peek() != Some(b'"') {
                    return Err(Fallback);
                }
            }
            Some(b'"') if first => {}
            _ => return Err(Fallback),
        }
        // The common key, with no escape, is read into registers and returned.
        if let Some(key) = self.lexer.read_unescaped_string() {
            if self.lexer.peek() != Some(b':') {
                return Err(Fallback);
            }
            self.lexer.bump();
            return Ok(Some(Text::Borrowed(key)));
        }
        self.escaped_key()
    }

    #[inline]
    fn skip_value(&mut self) -> Result<(), Fallback> {
        Parser::skip_value(self).map_err(|_| Fallback)
    }

    #[inline]
    fn read_raw(&mut self) -> Result<RawValue<'a>, Fallback> {
        self.parse_value(&mut RawValueBuilder::default())
            .map_err(|_| Fallback)
    }
}
