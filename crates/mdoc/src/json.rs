//! A strict JSON reader for requests.
//!
//! A request is a statement a proof is about, so it must mean one thing:
//! general-purpose readers keep the last of two equal keys, which lets two
//! programs read different requests from the same bytes. This reader
//! refuses duplicate keys, bounds nesting and size, and reports the byte
//! offset of the first error. It keeps numbers as their text (requests
//! carry none; callers that meet one report a type error).

/// A parsed JSON value. Objects keep their members in file order; keys are
/// unique (the parser refuses a repeat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, exactly as written (grammar checked).
    Number(String),
    /// A string, unescaped.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object: `(key, value)` in file order, keys unique.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The JSON type's name, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string value, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }
}

/// Why bytes are not (strict) JSON.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JsonError {
    /// Malformed JSON.
    #[error("invalid JSON at byte {offset}: {why}")]
    Syntax {
        /// Offset of the offending byte.
        offset: usize,
        /// What was expected.
        why: &'static str,
    },
    /// An object names the same key twice.
    #[error("duplicate key `{key}` at byte {offset}")]
    DuplicateKey {
        /// The repeated key.
        key: String,
        /// Offset of the second occurrence.
        offset: usize,
    },
    /// Arrays and objects nested deeper than [`MAX_DEPTH`].
    #[error("JSON nested deeper than {MAX_DEPTH} levels")]
    TooDeep,
    /// The input is longer than [`MAX_JSON_BYTES`].
    #[error("JSON of {len} bytes exceeds the limit of {MAX_JSON_BYTES}")]
    TooLarge {
        /// Input length.
        len: usize,
    },
}

/// Deepest nesting accepted (a request needs 3).
pub const MAX_DEPTH: usize = 16;
/// Largest input accepted: a request holds a SessionTranscript of at most
/// [`crate::MAX_TRANSCRIPT_BYTES`] as hex, and a few short strings.
pub const MAX_JSON_BYTES: usize = 1 << 20;

/// Parses one JSON value (surrounded by optional white space) from `bytes`.
pub fn parse(bytes: &[u8]) -> Result<Json, JsonError> {
    if bytes.len() > MAX_JSON_BYTES {
        return Err(JsonError::TooLarge { len: bytes.len() });
    }
    let mut p = Parser { b: bytes, i: 0 };
    // A UTF-8 byte-order mark is not JSON (RFC 8259 §8.1 lets parsers
    // refuse it); refusing keeps one reading of the bytes.
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i != bytes.len() {
        return Err(p.err("trailing characters after the value"));
    }
    Ok(v)
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, why: &'static str) -> JsonError {
        JsonError::Syntax {
            offset: self.i,
            why,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn expect(&mut self, c: u8, why: &'static str) -> Result<(), JsonError> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.err(why))
        }
    }

    fn literal(&mut self, word: &'static [u8], v: Json) -> Result<Json, JsonError> {
        if self.b[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.err("unknown literal"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        match self.peek() {
            None => Err(self.err("unexpected end of input")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b't') => self.literal(b"true", Json::Bool(true)),
            Some(b'f') => self.literal(b"false", Json::Bool(false)),
            Some(b'n') => self.literal(b"null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("expected a value")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(JsonError::TooDeep);
        }
        self.i += 1;
        let mut members: Vec<(String, Json)> = Vec::new();
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a string key"));
            }
            let at = self.i;
            let key = self.string()?;
            if members.iter().any(|(k, _)| *k == key) {
                return Err(JsonError::DuplicateKey { key, offset: at });
            }
            self.ws();
            self.expect(b':', "expected `:` after a key")?;
            self.ws();
            let v = self.value(depth)?;
            members.push((key, v));
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.err("expected `,` or `}`")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(JsonError::TooDeep);
        }
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.ws();
            items.push(self.value(depth)?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.err("expected `,` or `]`")),
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.err("expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return Err(self.err("expected a digit after `.`"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(self.err("expected a digit in the exponent"));
            }
        }
        // Only ASCII was consumed.
        let text = String::from_utf8_lossy(&self.b[start..self.i]).into_owned();
        Ok(Json::Number(text))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = self
                .peek()
                .and_then(|c| (c as char).to_digit(16))
                .ok_or_else(|| self.err("expected four hex digits after `\\u`"))?;
            v = v << 4 | d;
            self.i += 1;
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.i += 1; // opening quote
        let mut out = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err("unterminated string"));
            };
            match c {
                b'"' => {
                    self.i += 1;
                    break;
                }
                b'\\' => {
                    self.i += 1;
                    let e = self.peek().ok_or_else(|| self.err("unterminated escape"))?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => {
                            self.i -= 1;
                            return Err(self.err("unknown escape"));
                        }
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                0x00..=0x1f => return Err(self.err("control character in a string")),
                _ => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
        String::from_utf8(out).map_err(|_| self.err("string is not UTF-8"))
    }

    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let hi = self.hex4()?;
        let code = match hi {
            0xd800..=0xdbff => {
                if !self.b[self.i..].starts_with(b"\\u") {
                    return Err(self.err("lone high surrogate"));
                }
                self.i += 2;
                let lo = self.hex4()?;
                if !(0xdc00..=0xdfff).contains(&lo) {
                    return Err(self.err("high surrogate not followed by a low one"));
                }
                0x1_0000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
            }
            0xdc00..=0xdfff => return Err(self.err("lone low surrogate")),
            c => c,
        };
        char::from_u32(code).ok_or_else(|| self.err("invalid code point"))
    }
}

/// Writes `s` as a JSON string literal.
pub fn write_string(out: &mut String, s: &str) {
    use core::fmt::Write;
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Json {
        Json::String(v.into())
    }

    #[test]
    fn parses_values() {
        assert_eq!(
            parse(br#" {"a": [1, -2.5e+3, true, false, null, "x\u00e9\ud83d\ude00\n"]} "#),
            Ok(Json::Object(vec![(
                "a".into(),
                Json::Array(vec![
                    Json::Number("1".into()),
                    Json::Number("-2.5e+3".into()),
                    Json::Bool(true),
                    Json::Bool(false),
                    Json::Null,
                    s("x\u{e9}\u{1f600}\n"),
                ])
            )]))
        );
        assert_eq!(parse(b"{}"), Ok(Json::Object(vec![])));
        assert_eq!(parse(b"[]"), Ok(Json::Array(vec![])));
    }

    #[test]
    fn refuses_duplicate_keys() {
        assert_eq!(
            parse(br#"{"now": "a", "now": "b"}"#),
            Err(JsonError::DuplicateKey {
                key: "now".into(),
                offset: 13
            })
        );
        // The same key after unescaping is the same key.
        assert!(matches!(
            parse(br#"{"now": 1, "n\u006fw": 2}"#),
            Err(JsonError::DuplicateKey { .. })
        ));
        // Equal keys in different objects are fine.
        assert!(parse(br#"[{"a": 1}, {"a": 2}]"#).is_ok());
    }

    #[test]
    fn refuses_malformed_input() {
        for bad in [
            &b""[..],
            b"{",
            b"{\"a\" 1}",
            b"{\"a\": 1,}",
            b"[1,]",
            b"01",
            b"1.",
            b"-",
            b"1e",
            b"\"\\x\"",
            b"\"\\ud800\"",
            b"\"\\udc00\"",
            b"\"a\x01\"",
            b"\"\xff\"",
            b"tru",
            b"{} {}",
            b"\xef\xbb\xbf{}",
            b"{'a': 1}",
        ] {
            assert!(
                matches!(parse(bad), Err(JsonError::Syntax { .. })),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn bounds_depth_and_size() {
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(parse(deep.as_bytes()), Err(JsonError::TooDeep));
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(ok.as_bytes()).is_ok());
        let big = vec![b' '; MAX_JSON_BYTES + 1];
        assert!(matches!(parse(&big), Err(JsonError::TooLarge { .. })));
    }

    #[test]
    fn strings_round_trip() {
        for v in ["", "plain", "q\"b\\s/\n\r\t\u{1}\u{1f}é😀"] {
            let mut out = String::new();
            write_string(&mut out, v);
            assert_eq!(parse(out.as_bytes()), Ok(s(v)), "{out}");
        }
    }
}
