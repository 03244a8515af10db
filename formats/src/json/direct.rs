//! JSON's direct path: [`DirectSource`], the [`PullSource`] derived and std types read a
//! JSON document from, one step of the parser at a time.

use quarry_raw_value::{
    Decode, Fallback, GuessedKey, Num, PlainKey, Position, PullSource, RawValue, TextRef, ValueKind,
};

use crate::common::{plain_integer, same_bytes, Limits, LineCursor};

use super::lexer::{Number, NumberToken};
use super::parser::Parser;
use super::raw::{raw_number, RawValueBuilder};
use super::Error;

/// The direct path over a JSON document: a [`PullSource`] that derived types decode from
/// without a [`RawValue`] in between. It drives the one parser: its lexer for scalars and
/// punctuation, its loop (with the `()` builder) to skip a value, and the same loop with
/// the RawValue builder for [`PullSource::read_raw`]. Every failure is a [`Fallback`];
/// the caller decodes through `RawValue` again to learn the error.
///
/// `JSONC` is the dialect: `false` (the default, made by [`DirectSource::new`]) reads
/// strict JSON, `true` (made by [`DirectSource::jsonc`]) reads JSON with comments and
/// trailing commas.
#[derive(Debug)]
pub struct DirectSource<'a, const JSONC: bool = false> {
    parser: Parser<'a, JSONC>,
    /// Where lines start, counted as far as a value was placed.
    lines: LineCursor,
}

impl<'a> DirectSource<'a> {
    /// A source over strict JSON `input`: checks the size limit and UTF-8, skips a byte
    /// order mark.
    #[inline]
    pub fn new(input: &'a [u8], limits: Limits) -> Result<Self, Error> {
        Ok(DirectSource {
            parser: Parser::new(input, limits)?,
            lines: LineCursor::default(),
        })
    }
}

impl<'a> DirectSource<'a, true> {
    /// A source over JSONC `input` (comments and trailing commas allowed), checked as
    /// [`DirectSource::new`] checks JSON.
    pub fn jsonc(input: &'a [u8], limits: Limits) -> Result<Self, Error> {
        Ok(DirectSource {
            parser: Parser::new(input, limits)?,
            lines: LineCursor::default(),
        })
    }
}

impl<'a, const JSONC: bool> DirectSource<'a, JSONC> {
    /// The number at the next value, scanned integer first, or float first (`FLOAT`) for
    /// a reader that expects one; anything but a well-formed number falls back.
    #[inline(always)]
    fn number_token<const FLOAT: bool>(&mut self) -> Result<NumberToken<'a>, Fallback> {
        match self.parser.lexer.peek_in_loop() {
            Some(b'-' | b'0'..=b'9') => self
                .parser
                .lexer
                .scan_number_expecting::<FLOAT>()
                .map_err(|_| Fallback),
            _ => Err(Fallback),
        }
    }

    /// [`PullSource::read_i64`] past its fast path: `next` is the byte peeked.
    #[inline(never)]
    fn scan_i64(&mut self, next: Option<u8>) -> Result<i64, Fallback> {
        match next {
            Some(b'-' | b'0'..=b'9') => match self.parser.lexer.scan_number() {
                Ok(token) => token.as_i64().ok_or(Fallback),
                Err(_) => Err(Fallback),
            },
            _ => Err(Fallback),
        }
    }

    /// [`PullSource::read_u64`] past its fast path: `next` is the byte peeked.
    #[inline(never)]
    fn scan_u64(&mut self, next: Option<u8>) -> Result<u64, Fallback> {
        match next {
            Some(b'0'..=b'9') => match self.parser.lexer.scan_number() {
                Ok(token) => token.as_u64().ok_or(Fallback),
                Err(_) => Err(Fallback),
            },
            _ => Err(Fallback),
        }
    }

    /// Skips whitespace; whether the input ends there. A reader of a stream of values
    /// (JSON Lines) asks it between values, where [`PullSource::finish`] would end the
    /// source.
    #[inline]
    pub fn at_end(&mut self) -> bool {
        self.parser.lexer.peek_in_loop().is_none()
    }

    /// Reads the `,` or `}` before a key (`first`: right after `{`, no comma): whether a
    /// key follows, its opening quote at the current position.
    #[inline(always)]
    fn open_key(&mut self, first: bool) -> Result<bool, Fallback> {
        match self.parser.lexer.peek_in_loop() {
            Some(b'}') => {
                self.parser.lexer.bump();
                self.parser.leave();
                Ok(false)
            }
            Some(b',') if !first => {
                self.parser.lexer.bump();
                match self.parser.lexer.peek_in_loop() {
                    Some(b'"') => Ok(true),
                    // JSONC: a trailing comma ends the object.
                    Some(b'}') if JSONC => {
                        self.parser.lexer.bump();
                        self.parser.leave();
                        Ok(false)
                    }
                    _ => Err(Fallback),
                }
            }
            Some(b'"') if first => Ok(true),
            _ => Err(Fallback),
        }
    }

    /// The key whose opening quote is at the current position, and its `:`.
    #[inline(always)]
    fn read_key(&mut self) -> Result<TextRef<'a, '_>, Fallback> {
        // The common key, with no escape, is read into registers and returned.
        if let Some(key) = self.parser.lexer.read_unescaped_string() {
            if self.parser.lexer.peek_in_loop() != Some(b':') {
                return Err(Fallback);
            }
            self.parser.lexer.bump();
            return Ok(TextRef::Borrowed(key));
        }
        self.escaped_key()
    }

    /// [`PullSource::next_key_guessed`] past a wrong guess: another key, or the guess
    /// written with an escape.
    #[inline(never)]
    fn other_key(&mut self, guess: PlainKey<'_>) -> Result<GuessedKey<'a, '_>, Fallback> {
        let key = self.read_key()?;
        Ok(GuessedKey::compare(Some(key), guess))
    }

    /// [`PullSource::next_key`] for a key with an escape (or a malformed one).
    #[inline(never)]
    fn escaped_key(&mut self) -> Result<TextRef<'a, '_>, Fallback> {
        let key = self
            .parser
            .lexer
            .read_escaped_string(&mut self.parser.scratch)
            .map_err(|_| Fallback)?;
        if self.parser.lexer.peek_in_loop() != Some(b':') {
            return Err(Fallback);
        }
        self.parser.lexer.bump();
        Ok(key)
    }
}

/// The steps a derived decoder takes for every member (keys, brackets, integers, strings,
/// booleans, null) are forced inline: as calls, each would store the lexer's position
/// for the next to load again, and LLVM leaves most of them out of line. The number
/// scans that may read a float are left to LLVM (`#[inline]`): they are long, and
/// forcing them inline too grows every decoder for no gain.
impl<'a, const JSONC: bool> PullSource<'a> for DirectSource<'a, JSONC> {
    const GUESSES_IN_PLACE: bool = true;
    const TYPED_STRINGS: bool = true;

    #[inline(always)]
    fn peek_token(&mut self) -> Result<ValueKind, Fallback> {
        match self.parser.lexer.peek_in_loop() {
            Some(b'"') => Ok(ValueKind::String),
            Some(b'-' | b'0'..=b'9') => Ok(ValueKind::Number),
            Some(b'{') => Ok(ValueKind::Object),
            Some(b'[') => Ok(ValueKind::Array),
            Some(b't' | b'f') => Ok(ValueKind::Bool),
            Some(b'n') => Ok(ValueKind::Null),
            _ => Err(Fallback),
        }
    }

    #[inline(always)]
    fn read_null(&mut self) -> Result<(), Fallback> {
        match self.parser.lexer.peek_in_loop() {
            Some(b'n') => self.parser.lexer.read_literal("null").map_err(|_| Fallback),
            _ => Err(Fallback),
        }
    }

    #[inline(always)]
    fn read_bool(&mut self) -> Result<bool, Fallback> {
        match self.parser.lexer.peek_in_loop() {
            Some(b't') => self
                .parser
                .lexer
                .read_literal("true")
                .map(|()| true)
                .map_err(|_| Fallback),
            Some(b'f') => self
                .parser
                .lexer
                .read_literal("false")
                .map(|()| false)
                .map_err(|_| Fallback),
            _ => Err(Fallback),
        }
    }

    #[inline]
    fn read_number(&mut self) -> Result<RawValue<'a>, Fallback> {
        Ok(raw_number(self.number_token::<false>()?.value()))
    }

    /// As the default, without a [`RawValue`] in between.
    #[inline]
    fn read_num(&mut self) -> Result<Num, Fallback> {
        Ok(self.number_token::<false>()?.num())
    }

    /// As [`PullSource::read_num`], scanned as [`PullSource::read_f64`] scans.
    #[inline]
    fn read_num_expecting_float(&mut self) -> Result<Num, Fallback> {
        Ok(self.number_token::<true>()?.num())
    }

    /// A plain integer of up to 15 digits at once (`common::plain_integer`); anything else
    /// through the lexer's number scan. The lexer tries the same step first, but taken
    /// here, before the general scan's code, an integer never pays for that code's setup.
    #[inline(always)]
    fn read_i64(&mut self) -> Result<i64, Fallback> {
        let next = self.parser.lexer.peek_in_loop();
        let lexer = &mut self.parser.lexer;
        if let Some((value, len)) = plain_integer(lexer.src().as_bytes(), lexer.pos()) {
            lexer.advance(len);
            return Ok(value);
        }
        self.scan_i64(next)
    }

    /// As [`PullSource::read_i64`].
    #[inline(always)]
    fn read_u64(&mut self) -> Result<u64, Fallback> {
        let next = self.parser.lexer.peek_in_loop();
        let lexer = &mut self.parser.lexer;
        if let Some((value, len)) = plain_integer(lexer.src().as_bytes(), lexer.pos()) {
            lexer.advance(len);
            return u64::try_from(value).map_err(|_| Fallback);
        }
        self.scan_u64(next)
    }

    /// As the default, without a [`RawValue`] in between (its drop is a call per number).
    #[inline]
    fn read_f64(&mut self) -> Result<f64, Fallback> {
        match self.number_token::<true>()?.value() {
            Number::Float(f) => Ok(f),
            Number::Int(i) => Ok(i as f64),
            Number::UInt(u) => Ok(u as f64),
            big @ Number::Big(_) => <f64 as Decode>::decode(raw_number(big)).map_err(|_| Fallback),
        }
    }

    #[inline(always)]
    fn read_str(&mut self) -> Result<TextRef<'a, '_>, Fallback> {
        if self.parser.lexer.peek_in_loop() != Some(b'"') {
            return Err(Fallback);
        }
        match self.parser.lexer.read_unescaped_string() {
            Some(s) => Ok(TextRef::Borrowed(s)),
            None => self
                .parser
                .lexer
                .read_escaped_string(&mut self.parser.scratch)
                .map_err(|_| Fallback),
        }
    }

    #[inline(always)]
    fn read_str_onto(&mut self, out: &mut String) -> Result<(), Fallback> {
        if self.parser.lexer.peek_in_loop() != Some(b'"') {
            return Err(Fallback);
        }
        self.parser
            .lexer
            .read_string_onto(out)
            .map_err(|_| Fallback)
    }

    #[inline(always)]
    fn begin_array(&mut self) -> Result<(), Fallback> {
        if self.parser.lexer.peek_in_loop() != Some(b'[') {
            return Err(Fallback);
        }
        self.parser.lexer.bump();
        self.parser.enter().map_err(|_| Fallback)
    }

    #[inline(always)]
    fn next_item(&mut self, first: bool) -> Result<bool, Fallback> {
        match self.parser.lexer.peek_in_loop() {
            Some(b']') => {
                self.parser.lexer.bump();
                self.parser.leave();
                Ok(false)
            }
            Some(b',') if !first => {
                self.parser.lexer.bump();
                // JSONC: a trailing comma ends the array.
                if JSONC && self.parser.lexer.peek_in_loop() == Some(b']') {
                    self.parser.lexer.bump();
                    self.parser.leave();
                    return Ok(false);
                }
                Ok(true)
            }
            Some(_) if first => Ok(true),
            _ => Err(Fallback),
        }
    }

    #[inline(always)]
    fn begin_object(&mut self) -> Result<(), Fallback> {
        if self.parser.lexer.peek_in_loop() != Some(b'{') {
            return Err(Fallback);
        }
        self.parser.lexer.bump();
        self.parser.enter().map_err(|_| Fallback)
    }

    #[inline(always)]
    fn next_key(&mut self, first: bool) -> Result<Option<TextRef<'a, '_>>, Fallback> {
        if !self.open_key(first)? {
            return Ok(None);
        }
        self.read_key().map(Some)
    }

    /// Compares `guess` with the input's bytes where the key stands: a plain key is
    /// guessed right exactly when its bytes are followed by the closing quote. Inlined
    /// into the decoder (as a call it would save and restore six registers a key);
    /// another key is read out of line.
    #[inline(always)]
    fn next_key_guessed(
        &mut self,
        first: bool,
        guess: PlainKey<'_>,
    ) -> Result<GuessedKey<'a, '_>, Fallback> {
        let guess_bytes = guess.as_bytes();
        let lexer = &mut self.parser.lexer;
        let (bytes, pos) = (lexer.src().as_bytes(), lexer.pos());
        if !first && bytes.get(pos) == Some(&b',') {
            if bytes.get(pos + 1) == Some(&b'"') {
                // Compact JSON: the comma, the quoted key and the colon stand right
                // after one another, and are compared as they stand.
                let (start, end) = (pos + 2, pos + 2 + guess_bytes.len());
                if bytes.get(end..end + 2) == Some(b"\":")
                    && same_bytes(&bytes[start..end], guess_bytes)
                {
                    lexer.advance(end + 2 - pos);
                    return Ok(GuessedKey::Guessed);
                }
                lexer.bump();
            } else {
                // White space (or a comment) after the comma.
                lexer.bump();
                match lexer.peek_in_loop() {
                    Some(b'"') => {}
                    // JSONC: a trailing comma ends the object.
                    Some(b'}') if JSONC => {
                        lexer.bump();
                        self.parser.leave();
                        return Ok(GuessedKey::End);
                    }
                    _ => return Err(Fallback),
                }
            }
        } else if !self.open_key(first)? {
            return Ok(GuessedKey::End);
        }
        let lexer = &mut self.parser.lexer;
        if lexer.read_plain_string(guess_bytes) {
            // The colon right after the key, as JSON is usually written; else a peek.
            if !lexer.eat(b':') {
                if lexer.peek_in_loop() != Some(b':') {
                    return Err(Fallback);
                }
                lexer.bump();
            }
            return Ok(GuessedKey::Guessed);
        }
        self.other_key(guess)
    }

    #[inline]
    fn skip_value(&mut self) -> Result<(), Fallback> {
        self.parser.skip_value().map_err(|_| Fallback)
    }

    #[inline]
    fn read_raw(&mut self) -> Result<RawValue<'a>, Fallback> {
        self.parser
            .parse_value(&mut RawValueBuilder::default())
            .map_err(|_| Fallback)
    }

    fn value_start(&mut self) -> Result<(usize, Option<Position>), Fallback> {
        self.parser.lexer.peek_in_loop().ok_or(Fallback)?;
        let (src, pos) = (self.parser.lexer.src(), self.parser.lexer.pos());
        Ok((pos, Some(self.lines.position(src.as_bytes(), pos))))
    }

    fn value_end(&mut self) -> Result<usize, Fallback> {
        Ok(self.parser.lexer.pos())
    }

    fn finish(&mut self) -> Result<(), Fallback> {
        self.parser.finish().map_err(|_| Fallback)
    }
}

#[cfg(test)]
mod tests {
    use quarry_raw_value::{Fallback, GuessedKey, Num, PlainKey, PullSource, RawValue, TextRef};

    use super::DirectSource;
    use crate::common::Limits;

    /// A guessed key is read in place when it is the key, and otherwise read as
    /// `next_key` reads it: another key, one the guess only begins, one that begins the
    /// guess, and the guess spelled with an escape (guessed right after all).
    #[test]
    fn keys_are_guessed_in_place_or_read() {
        let text = r#"{"id":1, "abc":2, "ab":3, "a\u0062":4, "x":5}"#;
        let mut src = DirectSource::new(text.as_bytes(), Limits::default()).unwrap();
        let guess = |key| PlainKey::new(key).unwrap();
        let mut keys = Vec::new();
        src.begin_object().unwrap();
        for (i, g) in ["id", "ab", "abcd", "ab", "y", "x"].into_iter().enumerate() {
            keys.push(match src.next_key_guessed(i == 0, guess(g)).unwrap() {
                GuessedKey::End => "}".to_owned(),
                GuessedKey::Guessed => format!("={g}"),
                GuessedKey::Other(key) => key.to_string(),
            });
            if i < 5 {
                src.skip_value().unwrap();
            }
        }
        assert_eq!(keys, ["=id", "abc", "ab", "=ab", "x", "}"]);
        src.finish().unwrap();
    }

    /// The guesses `a`, `bb`, `c`, `d` in turn, each answered as `=guess`, the other key
    /// read, or `}`, with the value after a key skipped; `None` where the source fails.
    fn guesses<const JSONC: bool>(mut src: DirectSource<'_, JSONC>) -> Option<Vec<String>> {
        let mut answers = Vec::new();
        src.begin_object().ok()?;
        for (i, g) in ["a", "bb", "c", "d"].into_iter().enumerate() {
            let answer = match src.next_key_guessed(i == 0, PlainKey::new(g)?).ok()? {
                GuessedKey::End => "}".to_owned(),
                GuessedKey::Guessed => format!("={g}"),
                GuessedKey::Other(key) => key.to_string(),
            };
            let end = answer == "}";
            answers.push(answer);
            if end {
                src.finish().ok()?;
                return Some(answers);
            }
            src.skip_value().ok()?;
        }
        None
    }

    /// A guess is read alike however the comma, the key and the colon stand: right after
    /// one another (compact JSON, compared in one step), with white space or a JSONC
    /// comment after the comma or before the colon, or before the comma; and guessed
    /// wrong in each of those ways, by a longer key, a shorter one and another one.
    #[test]
    fn guesses_read_alike_however_the_comma_key_and_colon_stand() {
        let json = [
            (r#"{"a":1,"bb":2,"c":3}"#, Some("=a =bb =c }")),
            (r#"{"a":1,"x":2,"c":3}"#, Some("=a x =c }")),
            (r#"{"a":1,"bbb":2,"c":3}"#, Some("=a bbb =c }")),
            (r#"{"a":1,"b":2}"#, Some("=a b }")),
            (r#"{"a":1,"bb" :2,"c":3}"#, Some("=a =bb =c }")),
            ("{\"a\":1,\n  \"bb\": 2 ,\"c\" : 3 }", Some("=a =bb =c }")),
            ("{\"a\":1,\n  \"x\": 2,\t\"c\":3}", Some("=a x =c }")),
            (r#"{"a":1,"bb":2,}"#, None),
            (r#"{"a":1, }"#, None),
            (r#"{"a":1,"bb"2}"#, None),
        ];
        for (text, want) in json {
            let src = DirectSource::new(text.as_bytes(), Limits::default()).unwrap();
            let got = guesses(src).map(|answers| answers.join(" "));
            assert_eq!(got.as_deref(), want, "{text}");
        }
        let jsonc = [
            (r#"{"a":1, /* c */ "bb":2,}"#, Some("=a =bb }")),
            (r#"{"a":1,}"#, Some("=a }")),
            (r#"{"a":1,"bb" /* c */ :2}"#, Some("=a =bb }")),
            (
                r#"{"a":1,// c
"x":2}"#,
                Some("=a x }"),
            ),
            (r#"{"a":1,,}"#, None),
        ];
        for (text, want) in jsonc {
            let src = DirectSource::jsonc(text.as_bytes(), Limits::default()).unwrap();
            let got = guesses(src).map(|answers| answers.join(" "));
            assert_eq!(got.as_deref(), want, "{text}");
        }
    }

    /// A source that reads numbers as the trait's defaults do, through `read_number`.
    struct Default<'a>(DirectSource<'a>);
    impl<'a> PullSource<'a> for Default<'a> {
        fn peek_token(&mut self) -> Result<quarry_raw_value::ValueKind, Fallback> {
            self.0.peek_token()
        }
        fn read_null(&mut self) -> Result<(), Fallback> {
            self.0.read_null()
        }
        fn read_bool(&mut self) -> Result<bool, Fallback> {
            self.0.read_bool()
        }
        fn read_number(&mut self) -> Result<RawValue<'a>, Fallback> {
            self.0.read_number()
        }
        fn read_str(&mut self) -> Result<TextRef<'a, '_>, Fallback> {
            self.0.read_str()
        }
        fn begin_array(&mut self) -> Result<(), Fallback> {
            self.0.begin_array()
        }
        fn next_item(&mut self, first: bool) -> Result<bool, Fallback> {
            self.0.next_item(first)
        }
        fn begin_object(&mut self) -> Result<(), Fallback> {
            self.0.begin_object()
        }
        fn next_key(&mut self, first: bool) -> Result<Option<TextRef<'a, '_>>, Fallback> {
            self.0.next_key(first)
        }
        fn skip_value(&mut self) -> Result<(), Fallback> {
            self.0.skip_value()
        }
        fn read_raw(&mut self) -> Result<RawValue<'a>, Fallback> {
            self.0.read_raw()
        }
        fn finish(&mut self) -> Result<(), Fallback> {
            self.0.finish()
        }
    }

    /// `read_f64`, `read_num` and `read_num_expecting_float` give what the defaults
    /// (through `read_number`) give, for every kind of number, and fall back where they do.
    #[test]
    fn number_reads_read_as_the_defaults_do() {
        let numbers = [
            "0",
            "-0",
            "1",
            "-1",
            "1.5",
            "-2.25e-3",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775809",
            "18446744073709551615",
            "18446744073709551616",
            "123456789012345678901234567890",
            "1e308",
            "1e400",
            "-1e400",
            "4.9e-324",
            "1e-400",
            "0.1000000000000000055511151231257827",
            "\"text\"",
            "true",
            "null",
            "[1]",
        ];
        for text in numbers {
            let new = || DirectSource::new(text.as_bytes(), Limits::default()).unwrap();
            let fast = new().read_f64().map(f64::to_bits);
            let default = Default(new()).read_f64().map(f64::to_bits);
            assert_eq!(fast, default, "{text}");
            let bits = |num: Num| match num {
                Num::F64(v) => (2, v.to_bits()),
                Num::I64(v) => (0, v as u64),
                Num::U64(v) => (1, v),
            };
            let fast = new().read_num().map(bits);
            let default = Default(new()).read_num().map(bits);
            assert_eq!(fast, default, "{text}");
            let float_first = new().read_num_expecting_float().map(bits);
            assert_eq!(float_first, default, "{text}");
        }
    }

    /// JSON's integer at the start of `text` (after spaces), read the long way: its value
    /// and where it ends, or `None` where `read_i64` and `read_u64` fall back for any
    /// type (not a number, an invalid one, a float, `-0`).
    fn naive_integer(text: &str) -> Option<(i128, usize)> {
        let number = text.trim_start_matches(' ');
        let lead = text.len() - number.len();
        let bytes = number.as_bytes();
        let sign = usize::from(bytes.first() == Some(&b'-'));
        let digits = bytes[sign..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let end = sign + digits;
        let leading_zero = digits > 1 && bytes[sign] == b'0';
        let float = matches!(bytes.get(end), Some(b'.' | b'e' | b'E'));
        if digits == 0 || leading_zero || float || &number[..end] == "-0" {
            return None;
        }
        Some((number[..end].parse().ok()?, lead + end))
    }

    /// `read_i64` and `read_u64` on `text`, and the defaults' reads: each must read what
    /// [`naive_integer`] reads, and stop where it ends.
    fn integer_reads_agree(text: &str) -> Result<(), String> {
        let new = || DirectSource::new(text.as_bytes(), Limits::default()).unwrap();
        let (mut fast, mut default) = (new(), Default(new()));
        let reads = [fast.read_i64(), default.read_i64()];
        let ends = [fast.parser.lexer.pos(), default.0.parser.lexer.pos()];
        agree(text, reads, ends)?;
        let (mut fast, mut default) = (new(), Default(new()));
        let reads = [fast.read_u64(), default.read_u64()];
        let ends = [fast.parser.lexer.pos(), default.0.parser.lexer.pos()];
        agree(text, reads, ends)
    }

    /// Whether both `reads` of `text`, ending at `ends`, are [`naive_integer`]'s.
    fn agree<T: PartialEq + std::fmt::Debug + TryFrom<i128>>(
        text: &str,
        reads: [Result<T, Fallback>; 2],
        ends: [usize; 2],
    ) -> Result<(), String> {
        let expected = naive_integer(text).and_then(|(v, end)| Some((T::try_from(v).ok()?, end)));
        for (read, end) in reads.into_iter().zip(ends) {
            let read = read.ok().map(|v| (v, end));
            if read != expected {
                return Err(format!("{text:?}: read {read:?}, expected {expected:?}"));
            }
        }
        Ok(())
    }

    /// `read_i64` and `read_u64` read what the defaults read and stop where they stop,
    /// on the fast path (sixteen bytes or more left) and off it: every sign, length and
    /// leading zero, before every kind of byte that may follow a number.
    #[test]
    fn integers_read_as_the_defaults_do() {
        let numbers = [
            "0",
            "-0",
            "7",
            "-7",
            "01",
            "-01",
            "00",
            "-",
            "-a",
            "123456789012345",
            "-123456789012345",
            "1234567890123456",
            "-12345678901234",
            "99999999",
            "-99999999",
            "100000000",
            "9223372036854775807",
            "-9223372036854775808",
            "18446744073709551615",
            "12345678",
            "123456789",
            "x",
        ];
        let tails = [
            ",", "]", "}", " ,", "\n", ".5", "e3", "E-2", "a", "", "/", "-",
        ];
        for number in numbers {
            for tail in tails {
                for pad in [0, 16] {
                    let text = format!("{number}{tail}{}", " ".repeat(pad));
                    integer_reads_agree(&text).unwrap();
                }
            }
        }
    }

    use proptest::strategy::Strategy;

    proptest::proptest! {
        /// Any integer text in any surroundings: the fast path agrees with the defaults.
        #[test]
        fn any_integer_reads_as_the_defaults_do(
            number in proptest::prop_oneof![
                proptest::num::i64::ANY.prop_map(|n| n.to_string()),
                (-99_999_999_999i64..99_999_999_999).prop_map(|n| n.to_string()),
                "-?[0-9]{0,18}",
            ],
            tail in "[ ,\\]}.eE0-9a-z-]{0,20}",
            lead in " {0,3}",
        ) {
            let text = format!("{lead}{number}{tail}");
            integer_reads_agree(&text).map_err(proptest::test_runner::TestCaseError::fail)?;
        }
    }

    /// Reads `{"a": [ints], "b": "text"}` through the pull steps, as derived code does.
    fn pull<'a, S: PullSource<'a>>(mut source: S) -> Option<(Vec<i64>, String)> {
        let mut ints = Vec::new();
        let mut text = String::new();
        source.begin_object().ok()?;
        let mut first = true;
        while let Some(key) = source.next_key(first).ok()? {
            first = false;
            let key = key.to_string();
            match key.as_str() {
                "a" => {
                    source.begin_array().ok()?;
                    let mut first = true;
                    while source.next_item(first).ok()? {
                        first = false;
                        ints.push(source.read_i64().ok()?);
                    }
                }
                "b" => match source.read_str().ok()? {
                    TextRef::Borrowed(s) => text = s.to_owned(),
                    TextRef::Decoded(s) => text = s.to_owned(),
                },
                _ => source.skip_value().ok()?,
            }
        }
        source.finish().ok()?;
        Some((ints, text))
    }

    #[test]
    fn the_jsonc_source_reads_comments_and_trailing_commas() {
        let src = b"// config\n{\"a\": [1, /* two */ 2,], \"skip\": [{\"x\": 1,},], \"b\": \"t\",} // end";
        let expected = Some((vec![1, 2], "t".to_owned()));
        assert_eq!(
            pull(DirectSource::jsonc(src, Limits::default()).unwrap()),
            expected
        );
        // The strict source gives up on the same bytes (the caller falls back and the
        // RawValue path reports the error).
        assert_eq!(
            pull(DirectSource::new(src, Limits::default()).unwrap()),
            None
        );
        // Comments after runs of whitespace (an indented file), read by the source itself.
        let pretty =
            b"{\n  // the list\n  \"a\": [\n    1,  /* one */\n    2\n  ],\n  \"b\":  \"t\"\t // last\n}\n";
        assert_eq!(
            pull(DirectSource::jsonc(pretty, Limits::default()).unwrap()),
            expected
        );
        let strict = br#"{"a": [1, 2], "b": "t"}"#;
        assert_eq!(
            pull(DirectSource::new(strict, Limits::default()).unwrap()),
            expected
        );
        assert_eq!(
            pull(DirectSource::jsonc(strict, Limits::default()).unwrap()),
            expected
        );
        // What JSONC refuses, the source refuses.
        for bad in [
            &b"{\"a\": [1,,2], \"b\": \"t\"}"[..],
            b"{\"a\": [,], \"b\": \"t\"}",
            b"{,\"a\": [], \"b\": \"t\"}",
            b"{\"a\": [], \"b\": \"t\",,}",
            b"{\"a\": [], \"b\": \"t\"} /* open",
        ] {
            assert_eq!(
                pull(DirectSource::jsonc(bad, Limits::default()).unwrap()),
                None
            );
        }
        let mut source = DirectSource::jsonc(b"[1, {\"a\": 2,},] /**/", Limits::default()).unwrap();
        let raw = source.read_raw().unwrap();
        assert_eq!(
            raw,
            RawValue::Seq(vec![
                RawValue::Int(1),
                RawValue::Map(vec![("a".into(), RawValue::Int(2))])
            ])
        );
        assert!(source.finish().is_ok());
    }
}
