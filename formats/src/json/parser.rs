//! The one JSON parser (RFC 8259, strict), generic over a [`JsonBuilder`].
//!
//! It is iterative: open containers live on a heap stack, so no input can overflow the
//! thread's stack whatever the depth limit; the limit itself is checked here, in the core.

use crate::common::{validate_utf8, Limits, Span};

use super::builder::JsonBuilder;
use super::lexer::Lexer;
use super::{Error, ErrorKind};

/// A JSON parser over one input. Besides [`Parser::parse_value`], it exposes to
/// [`super::DirectSource`] the steps the direct path reuses (its lexer, scratch buffer,
/// depth accounting and value skipping).
#[derive(Debug)]
pub(super) struct Parser<'a> {
    pub(super) lexer: Lexer<'a>,
    limits: Limits,
    pub(super) scratch: String,
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

    /// Enters a container opened by a direct decoder, checking the depth limit.
    #[inline]
    pub(super) fn enter(&mut self) -> Result<(), Error> {
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
    pub(super) fn leave(&mut self) {
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
