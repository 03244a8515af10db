//! The one JSON parser (RFC 8259, strict), generic over a [`JsonBuilder`] and over the
//! dialect: with `JSONC`, it also reads JSON with comments (which its lexer skips as
//! whitespace) and a trailing comma in arrays and objects. Each JSONC rule is reached only
//! where strict JSON would fail, and compiled out of the strict parser.
//!
//! It is iterative: open containers live on a heap stack, so no input can overflow the
//! thread's stack whatever the depth limit; the limit itself is checked here, in the core.

use crate::common::{validate_utf8, Limits, Span};

use super::builder::JsonBuilder;
use super::lexer::Lexer;
use super::{Dialect, Error, ErrorKind};

/// A JSON parser over one input, strict or (`JSONC`) JSON with comments. Besides
/// [`Parser::parse_value`], it exposes to [`super::DirectSource`] the steps the direct
/// path reuses (its lexer, scratch buffer, depth accounting and value skipping).
#[derive(Debug)]
pub(super) struct Parser<'a, const JSONC: bool> {
    pub(super) lexer: Lexer<'a, JSONC>,
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

impl<'a, const JSONC: bool> Parser<'a, JSONC> {
    /// Checks the size limit and UTF-8 validity of `input` and skips a leading BOM.
    #[inline]
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

    /// Checks that only whitespace (in JSONC, and comments) is left.
    pub fn finish(&mut self) -> Result<(), Error> {
        match self.lexer.peek() {
            None => Ok(()),
            Some(_) => Err(self.lexer.trailing()),
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

    // member = string name-separator value
    // name-separator  = ws %x3A ws  ; : colon
    /// Reads an object key and the `:` after it; the opening `"` is next. Always inlined:
    /// as a call, its prologue, epilogue and `Result` in memory would be a large share
    /// of a key's cost in the tree door.
    #[inline(always)]
    fn read_key<B: JsonBuilder<'a>>(
        lexer: &mut Lexer<'a, JSONC>,
        scratch: &mut String,
        builder: &mut B,
    ) -> Result<B::Key, Error> {
        let start = lexer.pos();
        let key = lexer.read_string(scratch)?;
        let key = builder.key(key, Span::new(start, lexer.pos()));
        if lexer.peek_in_loop() != Some(b':') {
            return Err(lexer.unexpected("`:`"));
        }
        lexer.bump();
        Ok(key)
    }

    #[inline(always)]
    fn check_depth(&self, lexer: &Lexer<'a, JSONC>, open: usize) -> Result<(), Error> {
        if self.depth + open >= self.limits.max_depth {
            return Err(lexer.error(ErrorKind::DepthLimitReached(self.limits.max_depth)));
        }
        Ok(())
    }

    // value = false / null / true / object / array / number / string
    /// Parses one value (after optional whitespace) into `builder`.
    pub fn parse_value<B: JsonBuilder<'a>>(&mut self, builder: &mut B) -> Result<B::Value, Error> {
        self.parse_with_stack(builder, &mut Vec::new())
    }

    /// The parse loop, with the stack of open containers supplied by the caller.
    ///
    /// The loop runs on the lexer moved into this function's frame, and puts it back
    /// when it ends. Reached through `self`, the lexer's position would go through memory
    /// at every step (stored, then loaded again for the next byte); as a local that no
    /// call is handed (see [`Lexer::detached`]), it stays in a register.
    ///
    /// Always inlined, so that a builder made by the caller (the tree's) is a local of
    /// the loop's frame too, not reached through a pointer; the loop is too large for
    /// the optimizer to inline on its own.
    #[inline(always)]
    fn parse_with_stack<B: JsonBuilder<'a>>(
        &mut self,
        builder: &mut B,
        stack: &mut Vec<Frame<B::Array, B::Object, B::Key>>,
    ) -> Result<B::Value, Error> {
        let mut lexer = std::mem::replace(&mut self.lexer, Lexer::new(""));
        let result = self.parse_loop(&mut lexer, builder, stack);
        self.lexer = lexer;
        result
    }

    // value = false / null / true / object / array / number / string
    // object = begin-object [ member *( value-separator member ) ] end-object
    // array = begin-array [ value *( value-separator value ) ] end-array
    // begin-array     = ws %x5B ws  ; [ left square bracket
    // begin-object    = ws %x7B ws  ; { left curly bracket
    // end-array       = ws %x5D ws  ; ] right square bracket
    // end-object      = ws %x7D ws  ; } right curly bracket
    // value-separator = ws %x2C ws  ; , comma
    // (JSONC also allows one trailing `value-separator`, and comments wherever `ws` may be)
    /// [`Parser::parse_with_stack`]'s loop, always inlined into it.
    #[inline(always)]
    fn parse_loop<B: JsonBuilder<'a>>(
        &mut self,
        lexer: &mut Lexer<'a, JSONC>,
        builder: &mut B,
        stack: &mut Vec<Frame<B::Array, B::Object, B::Key>>,
    ) -> Result<B::Value, Error> {
        // The first byte of the next value, peeked where the step before it ended.
        let mut next = lexer.peek_in_loop();
        'value: loop {
            let start = lexer.pos();
            let mut value = match next {
                Some(b'"') => {
                    let s = lexer.read_string(&mut self.scratch)?;
                    builder.string(s, Span::new(start, lexer.pos()))
                }
                Some(b'-' | b'0'..=b'9') => {
                    let n = lexer.scan_number()?;
                    builder.number(n, Span::new(start, lexer.pos()))
                }
                Some(b'[') => {
                    self.check_depth(lexer, stack.len())?;
                    lexer.bump();
                    let array = builder.begin_array(start);
                    next = lexer.peek_in_loop();
                    if next == Some(b']') {
                        lexer.bump();
                        builder.end_array(array, Span::new(start, lexer.pos()))
                    } else {
                        stack.push(Frame::Array(array, start));
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    self.check_depth(lexer, stack.len())?;
                    lexer.bump();
                    let object = builder.begin_object(start);
                    match lexer.peek_in_loop() {
                        Some(b'}') => {
                            lexer.bump();
                            builder.end_object(object, Span::new(start, lexer.pos()))
                        }
                        Some(b'"') => {
                            let key = Self::read_key(lexer, &mut self.scratch, builder)?;
                            stack.push(Frame::Object(object, Some(key), start));
                            next = lexer.peek_in_loop();
                            continue 'value;
                        }
                        _ => return Err(lexer.unexpected("a string key or `}`")),
                    }
                }
                Some(b't') => {
                    lexer.read_literal("true")?;
                    builder.bool(true, Span::new(start, lexer.pos()))
                }
                Some(b'f') => {
                    lexer.read_literal("false")?;
                    builder.bool(false, Span::new(start, lexer.pos()))
                }
                Some(b'n') => {
                    lexer.read_literal("null")?;
                    builder.null(Span::new(start, lexer.pos()))
                }
                // JSONC: a trailing comma, `[1,]`. (After `[` itself, `]` was taken above,
                // so an array open here has just read a `,`.)
                Some(b']') if JSONC && matches!(stack.last(), Some(Frame::Array(..))) => {
                    lexer.bump();
                    match stack.pop() {
                        Some(Frame::Array(array, start)) => {
                            builder.end_array(array, Span::new(start, lexer.pos()))
                        }
                        _ => unreachable!("an array is open"),
                    }
                }
                _ => return Err(lexer.unexpected("a JSON value")),
            };
            // Hand the value to its container; close every container that ends here.
            // The open container stays in place while items follow (`,`): only a closing
            // bracket pops it.
            loop {
                match stack.last_mut() {
                    None => return Ok(value),
                    Some(Frame::Array(array, _)) => {
                        builder.array_item(array, value);
                        // A run of numbers (coordinates, samples, ids) is read here, without
                        // going round the frame check and the dispatch on the next byte.
                        loop {
                            match lexer.peek_in_loop() {
                                Some(b',') => {
                                    lexer.bump();
                                    next = lexer.peek_in_loop();
                                    if !matches!(next, Some(b'-' | b'0'..=b'9')) {
                                        continue 'value;
                                    }
                                    let start = lexer.pos();
                                    let n = lexer.scan_number()?;
                                    let item = builder.number(n, Span::new(start, lexer.pos()));
                                    builder.array_item(array, item);
                                }
                                Some(b']') => {
                                    lexer.bump();
                                    break;
                                }
                                _ => return Err(lexer.unexpected("`,` or `]`")),
                            }
                        }
                    }
                    Some(Frame::Object(object, pending_key, _)) => {
                        // The key was stored when the member's value began.
                        if let Some(key) = pending_key.take() {
                            builder.object_member(object, key, value);
                        }
                        match lexer.peek_in_loop() {
                            Some(b',') => {
                                lexer.bump();
                                match lexer.peek_in_loop() {
                                    Some(b'"') => {
                                        *pending_key = Some(Self::read_key(
                                            lexer,
                                            &mut self.scratch,
                                            builder,
                                        )?);
                                        next = lexer.peek_in_loop();
                                        continue 'value;
                                    }
                                    // JSONC: a trailing comma, `{"a": 1,}`.
                                    Some(b'}') if JSONC => lexer.bump(),
                                    _ if JSONC => {
                                        return Err(lexer.unexpected("a string key or `}`"))
                                    }
                                    _ => return Err(lexer.unexpected("a string key")),
                                }
                            }
                            Some(b'}') => lexer.bump(),
                            _ => return Err(lexer.unexpected("`,` or `}`")),
                        }
                    }
                }
                let end = lexer.pos();
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

/// Parses a whole strict JSON document into `builder`: one value, surrounded only by
/// whitespace.
pub fn parse_with<'a, B: JsonBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<B::Value, Error> {
    parse_document::<B, false>(input, builder, limits).map(|(value, _)| value)
}

/// Parses a stream of strict JSON values separated by whitespace (JSON Lines, NDJSON,
/// concatenated JSON) into `builder` with one parser: each value is handed to `each`
/// with its span as soon as it ends, and `each` returns false to stop reading. Errors
/// are placed in the whole input.
pub fn parse_stream_with<'a, B: JsonBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
    mut each: impl FnMut(&mut B, B::Value, Span) -> bool,
) -> Result<(), Error> {
    let mut parser = Parser::<false>::new(input, limits)?;
    let mut stack = Vec::new();
    while parser.lexer.peek().is_some() {
        let start = parser.lexer.pos();
        let value = parser.parse_with_stack(builder, &mut stack)?;
        if !each(builder, value, Span::new(start, parser.lexer.pos())) {
            break;
        }
    }
    Ok(())
}

/// Parses a whole document of `dialect` into `builder`. In [`Dialect::Jsonc`], a builder
/// that [wants comments](JsonBuilder::WANTS_COMMENTS) is handed every comment, in source
/// order, once the document has ended.
pub(crate) fn parse_with_dialect<'a, B: JsonBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
    dialect: Dialect,
) -> Result<B::Value, Error> {
    parse_source(input, builder, limits, dialect).map(|(value, _)| value)
}

/// [`parse_with_dialect`], also giving the input as the text it was validated to be.
/// Strict JSON's loop is inlined into the caller (see [`Parser::parse_with_stack`]);
/// JSONC's is a call.
#[inline(always)]
pub(super) fn parse_source<'a, B: JsonBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
    dialect: Dialect,
) -> Result<(B::Value, &'a str), Error> {
    match dialect {
        Dialect::Json => parse_document::<B, false>(input, builder, limits),
        Dialect::Jsonc => parse_jsonc_document(input, builder, limits),
    }
}

/// [`parse_document`] for JSONC, as a call of its own.
#[inline(never)]
fn parse_jsonc_document<'a, B: JsonBuilder<'a>>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<(B::Value, &'a str), Error> {
    parse_document::<B, true>(input, builder, limits)
}

// JSON-text = ws value ws
/// [`parse_source`], the dialect settled at compile time.
#[inline(always)]
fn parse_document<'a, B: JsonBuilder<'a>, const JSONC: bool>(
    input: &'a [u8],
    builder: &mut B,
    limits: Limits,
) -> Result<(B::Value, &'a str), Error> {
    let mut parser = Parser::<JSONC>::new(input, limits)?;
    let comments = JSONC && B::WANTS_COMMENTS;
    if comments {
        parser.lexer.keep_comments();
    }
    let value = parser.parse_with_stack(builder, &mut Vec::new())?;
    parser.finish()?;
    let src = parser.lexer.src();
    if comments {
        for span in parser.lexer.take_comments() {
            builder.comment(comment_text(src, span), span);
        }
    }
    Ok((value, src))
}

/// The text of the comment at `span`: after `//`, or between `/*` and `*/`.
pub(super) fn comment_text(src: &str, span: Span) -> &str {
    let text = &src[span.start + 2..span.end];
    match src.as_bytes()[span.start + 1] {
        b'*' => &text[..text.len() - 2],
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use crate::json::{self, ErrorKind};

    /// The tokens of a document that uses every construct: between any two of them (and
    /// before the first and after the last) whitespace may stand, so a comment may too.
    const TOKENS: &[&str] = &[
        "{", "\"a\"", ":", "[", "1", ",", "-2.5e3", ",", "true", ",", "null", "]", ",", "\"b\"",
        ":", "{", "\"c\"", ":", "\"d\\n\"", "}", ",", "\"e\"", ":", "[", "]", ",", "\"f\"", ":",
        "{", "}", "}",
    ];

    fn document_with(gap: usize, filler: &str) -> String {
        let mut doc = String::new();
        for (i, token) in TOKENS.iter().enumerate() {
            if i == gap {
                doc.push_str(filler);
            }
            doc.push_str(token);
        }
        if gap == TOKENS.len() {
            doc.push_str(filler);
        }
        doc
    }

    fn kind_and_place(result: Result<impl Sized, json::Error>) -> (ErrorKind, usize, usize) {
        let e = result.err().expect("an error");
        (e.kind().clone(), e.position().line, e.position().column)
    }

    #[test]
    fn comments_stand_wherever_whitespace_may() {
        let plain = TOKENS.concat();
        let expected = json::parse(plain.as_bytes()).unwrap();
        let fillers = [
            "/* block */",
            "/**/",
            "/* multi\n line * / */",
            "// line\n",
            "//\r\n",
            " \n\t// a\n  /* b */ // c\r /*d*/ ",
            "/*a*//*b*/",
            "/*\u{e9}*/",
        ];
        for gap in 0..=TOKENS.len() {
            for filler in fillers {
                let doc = document_with(gap, filler);
                let ours = json::parse_jsonc(doc.as_bytes());
                assert_eq!(ours.as_ref().ok(), Some(&expected), "{doc:?}: {ours:?}");
                let tree = json::parse_tree_jsonc(doc.as_bytes()).unwrap();
                assert_eq!(tree.to_raw_value(), expected, "{doc:?}");
                assert!(json::check_jsonc(doc.as_bytes()).is_ok(), "{doc:?}");
                // Strict JSON still refuses every one of them.
                let strict = json::parse(doc.as_bytes());
                assert!(strict.is_err(), "{doc:?}");
                assert!(json::check(doc.as_bytes()).is_err(), "{doc:?}");
                assert!(json::parse_tree(doc.as_bytes()).is_err(), "{doc:?}");
            }
        }
    }

    #[test]
    fn a_line_comment_may_end_the_document() {
        assert_eq!(
            json::parse_jsonc(b"1 // done").unwrap(),
            json::parse(b"1").unwrap()
        );
        assert_eq!(
            json::parse_jsonc(b"\xEF\xBB\xBF// after a BOM\n[]").unwrap(),
            json::parse(b"[]").unwrap()
        );
        // A comment inside a string is text.
        let value = json::parse_jsonc(br#"["// no", "/* no */"]"#).unwrap();
        assert_eq!(value, json::parse(br#"["// no", "/* no */"]"#).unwrap());
        // A comment ends a number or a literal.
        assert_eq!(
            json::parse_jsonc(b"[1/*x*/,true//y\n]").unwrap(),
            json::parse(b"[1,true]").unwrap()
        );
    }

    #[test]
    fn one_trailing_comma_closes_arrays_and_objects() {
        for (jsonc, json) in [
            ("[1,]", "[1]"),
            ("[1, 2 ,\n]", "[1,2]"),
            ("[[],]", "[[]]"),
            ("[[1,],[2,],]", "[[1],[2]]"),
            (r#"{"a":1,}"#, r#"{"a":1}"#),
            (r#"{"a":{"b":[1,],},}"#, r#"{"a":{"b":[1]}}"#),
            ("[1, /* last */ ]", "[1]"),
            ("{\"a\": 1, // last\n}", r#"{"a":1}"#),
            (r#"[{"a":1,},]"#, r#"[{"a":1}]"#),
        ] {
            let expected = json::parse(json.as_bytes()).unwrap();
            assert_eq!(
                json::parse_jsonc(jsonc.as_bytes()).unwrap(),
                expected,
                "{jsonc}"
            );
            let tree = json::parse_tree_jsonc(jsonc.as_bytes()).unwrap();
            assert_eq!(tree.to_raw_value(), expected, "{jsonc}");
            assert!(json::check_jsonc(jsonc.as_bytes()).is_ok(), "{jsonc}");
            assert!(json::parse(jsonc.as_bytes()).is_err(), "{jsonc}");
        }
    }

    #[test]
    fn a_run_of_numbers_in_an_array_reads_as_any_values_do() {
        use crate::RawValue;
        let int = RawValue::Int;
        for (doc, expected) in [
            ("[1,2,3]", vec![int(1), int(2), int(3)]),
            ("[ 1 , -2 ,\n\t3 ]", vec![int(1), int(-2), int(3)]),
            (
                "[0.5,-0.25,1e2]",
                vec![
                    RawValue::Float(0.5),
                    RawValue::Float(-0.25),
                    RawValue::Float(100.0),
                ],
            ),
            (r#"[1,"a",2,[3,4],5,{"b":6},7,true,8]"#, {
                let inner = RawValue::Seq(vec![int(3), int(4)]);
                let object = json::parse(br#"{"b":6}"#).unwrap();
                vec![
                    int(1),
                    RawValue::String("a".into()),
                    int(2),
                    inner,
                    int(5),
                    object,
                    int(7),
                    RawValue::Bool(true),
                    int(8),
                ]
            }),
            (
                "[[1,2],[3,4]]",
                vec![
                    RawValue::Seq(vec![int(1), int(2)]),
                    RawValue::Seq(vec![int(3), int(4)]),
                ],
            ),
        ] {
            let expected = RawValue::Seq(expected);
            assert_eq!(json::parse(doc.as_bytes()).unwrap(), expected, "{doc}");
            let tree = json::parse_tree(doc.as_bytes()).unwrap();
            assert_eq!(tree.to_raw_value(), expected, "{doc}");
            assert!(json::check(doc.as_bytes()).is_ok(), "{doc}");
        }
        // Errors inside a run are placed as anywhere else.
        let unexpected = |expected, found| ErrorKind::UnexpectedCharacter { expected, found };
        for (doc, kind, column) in [
            ("[1,2,x]", unexpected("a JSON value", 'x'), 6),
            ("[1,2 3]", unexpected("`,` or `]`", '3'), 6),
            ("[1,2,]", unexpected("a JSON value", ']'), 6),
            ("[1,2}", unexpected("`,` or `]`", '}'), 5),
            ("[1,-]", ErrorKind::InvalidNumber, 5),
            ("[1,02]", ErrorKind::InvalidNumber, 5),
        ] {
            assert_eq!(
                kind_and_place(json::parse(doc.as_bytes())),
                (kind.clone(), 1, column),
                "{doc}"
            );
            assert_eq!(
                kind_and_place(json::parse_tree(doc.as_bytes())),
                (kind, 1, column),
                "{doc}"
            );
        }
        assert!(json::parse(b"[1,2").is_err());
        // JSONC's trailing comma after a run.
        assert_eq!(
            json::parse_jsonc(b"[1,2,]").unwrap(),
            RawValue::Seq(vec![int(1), int(2)])
        );
    }

    #[test]
    fn strict_json_rejects_trailing_commas_as_before() {
        assert_eq!(
            kind_and_place(json::parse(b"[1,]")),
            (
                ErrorKind::UnexpectedCharacter {
                    expected: "a JSON value",
                    found: ']'
                },
                1,
                4
            )
        );
        assert_eq!(
            kind_and_place(json::parse(b"{\"a\":1,}")),
            (
                ErrorKind::UnexpectedCharacter {
                    expected: "a string key",
                    found: '}'
                },
                1,
                8
            )
        );
        assert_eq!(
            kind_and_place(json::parse(b"[1 // no\n]")),
            (
                ErrorKind::UnexpectedCharacter {
                    expected: "`,` or `]`",
                    found: '/'
                },
                1,
                4
            )
        );
        assert_eq!(
            kind_and_place(json::parse(b"1 /* no */")),
            (ErrorKind::TrailingCharacters, 1, 3)
        );
    }

    #[test]
    fn what_jsonc_still_refuses_is_placed() {
        let unexpected = |expected, found| ErrorKind::UnexpectedCharacter { expected, found };
        for (doc, kind, line, column) in [
            ("[,]", unexpected("a JSON value", ','), 1, 2),
            ("[1,,2]", unexpected("a JSON value", ','), 1, 4),
            ("[\n  1,\n  ,\n]", unexpected("a JSON value", ','), 3, 3),
            ("{,}", unexpected("a string key or `}`", ','), 1, 2),
            ("{\"a\":1,,}", unexpected("a string key or `}`", ','), 1, 8),
            ("{\"a\":,}", unexpected("a JSON value", ','), 1, 6),
            ("{\"a\":1 ,]", unexpected("a string key or `}`", ']'), 1, 9),
            ("[1,}", unexpected("a JSON value", '}'), 1, 4),
            (",", unexpected("a JSON value", ','), 1, 1),
            ("]", unexpected("a JSON value", ']'), 1, 1),
            ("1,", ErrorKind::TrailingCharacters, 1, 2),
            ("[1]]", ErrorKind::TrailingCharacters, 1, 4),
            // Comments that do not close, or are not comments.
            ("[1,\n  /* open", ErrorKind::UnterminatedComment, 2, 3),
            ("/* open", ErrorKind::UnterminatedComment, 1, 1),
            ("1 /* open", ErrorKind::UnterminatedComment, 1, 3),
            ("{\"a\"/*", ErrorKind::UnterminatedComment, 1, 5),
            ("/* a */ /* b", ErrorKind::UnterminatedComment, 1, 9),
            ("[1 /x]", unexpected("`/` or `*` (a comment)", 'x'), 1, 5),
            ("[1 /", ErrorKind::UnexpectedEnd, 1, 5),
            ("1 /", ErrorKind::UnexpectedEnd, 1, 4),
            ("/", ErrorKind::UnexpectedEnd, 1, 2),
            ("", ErrorKind::UnexpectedEnd, 1, 1),
            ("// only a comment", ErrorKind::UnexpectedEnd, 1, 18),
            ("/* only */", ErrorKind::UnexpectedEnd, 1, 11),
            ("[1 */]", unexpected("`,` or `]`", '*'), 1, 4),
            ("[1 /*/]", ErrorKind::UnterminatedComment, 1, 4),
            // Not a comment but a broken literal (the comment after it is fine).
            ("tru/**/e", unexpected("`true`", '/'), 1, 4),
        ] {
            let place = kind_and_place(json::parse_jsonc(doc.as_bytes()));
            assert_eq!(place, (kind.clone(), line, column), "{doc:?}");
            // Every door agrees.
            assert_eq!(
                kind_and_place(json::parse_tree_jsonc(doc.as_bytes())),
                place,
                "{doc:?}"
            );
            assert_eq!(kind_and_place(json::check_jsonc(doc.as_bytes())), place);
        }
        let e = json::parse_jsonc(b"{\n  \"a\": 1, /* open\n}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unterminated block comment at line 2, column 11"
        );
    }

    #[test]
    fn limits_hold_in_jsonc() {
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(matches!(
            json::parse_jsonc(deep.as_bytes()).unwrap_err().kind(),
            ErrorKind::DepthLimitReached(128)
        ));
        let deep = "[/**/".repeat(200) + &",]".repeat(200);
        assert!(matches!(
            json::check_jsonc(deep.as_bytes()).unwrap_err().kind(),
            ErrorKind::DepthLimitReached(128)
        ));
    }
}
