//! Position-aware views of CBOR data, on top of `minicbor`'s decoder.
//!
//! The hash circuit proves facts about raw bytes (where a key sits inside the
//! MSO, where an IssuerSignedItem's fields start), so parsing must keep byte
//! offsets into the original encoding, not just decoded values. `minicbor`
//! does the decoding and skipping (bounded, non-recursive, no allocation from
//! untrusted counts); this module only records where things are.

use minicbor::data::Type;
use minicbor::Decoder;

use crate::error::MdocError;

/// A byte range `[start, end)` in some buffer holding exactly one CBOR item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: usize,
    pub end: usize,
}

/// A map key, as far as mdoc structures use them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Key<'a> {
    Text(&'a str),
    Int(i64),
    Other,
}

/// One map entry: its key, where the key's header starts, and the value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<'a> {
    pub key: Key<'a>,
    pub key_start: usize,
    pub value: Span,
}

fn err(d: &Decoder<'_>, reason: &'static str) -> MdocError {
    MdocError::cbor(d.position(), reason)
}

fn at(buf: &[u8], pos: usize) -> Decoder<'_> {
    let mut d = Decoder::new(buf);
    d.set_position(pos);
    d
}

/// The span of the single item starting at `start`.
pub(crate) fn item(buf: &[u8], start: usize) -> Result<Span, MdocError> {
    let mut d = at(buf, start);
    d.skip().map_err(|_| err(&d, "truncated or invalid item"))?;
    Ok(Span {
        start,
        end: d.position(),
    })
}

/// The span of `buf` as one complete item, refusing trailing bytes.
pub(crate) fn whole(buf: &[u8]) -> Result<Span, MdocError> {
    let span = item(buf, 0)?;
    if span.end != buf.len() {
        return Err(MdocError::cbor(span.end, "trailing bytes after item"));
    }
    Ok(span)
}

fn key_at<'a>(d: &mut Decoder<'a>) -> Result<Key<'a>, MdocError> {
    match d.datatype().map_err(|_| err(d, "invalid map key"))? {
        Type::String => d
            .str()
            .map(Key::Text)
            .map_err(|_| err(d, "invalid text key")),
        Type::U8
        | Type::U16
        | Type::U32
        | Type::U64
        | Type::I8
        | Type::I16
        | Type::I32
        | Type::I64
        | Type::Int => {
            let n = d.int().map_err(|_| err(d, "invalid integer key"))?;
            Ok(i64::try_from(n).map(Key::Int).unwrap_or(Key::Other))
        }
        _ => {
            d.skip().map_err(|_| err(d, "invalid map key"))?;
            Ok(Key::Other)
        }
    }
}

/// The entries of the definite-length map spanning `span`.
pub(crate) fn map_entries<'a>(buf: &'a [u8], span: Span) -> Result<Vec<Entry<'a>>, MdocError> {
    let mut d = at(buf, span.start);
    let n = match d.map() {
        Ok(Some(n)) => n,
        Ok(None) => return Err(err(&d, "indefinite-length map")),
        Err(_) => return Err(MdocError::cbor(span.start, "expected a map")),
    };
    // Every entry takes at least two bytes, so a count larger than that is
    // malformed; checking first keeps the loop (and the Vec) bounded.
    let remaining = span.end.saturating_sub(d.position());
    if n > (remaining / 2) as u64 {
        return Err(err(&d, "map count exceeds the data"));
    }
    let mut entries = Vec::new();
    for _ in 0..n {
        let key_start = d.position();
        let key = key_at(&mut d)?;
        let value = item(buf, d.position())?;
        d.set_position(value.end);
        entries.push(Entry {
            key,
            key_start,
            value,
        });
    }
    if d.position() != span.end {
        return Err(err(&d, "map does not fill its span"));
    }
    Ok(entries)
}

/// The items of the definite-length array spanning `span`.
pub(crate) fn array_items(buf: &[u8], span: Span) -> Result<Vec<Span>, MdocError> {
    let mut d = at(buf, span.start);
    let n = match d.array() {
        Ok(Some(n)) => n,
        Ok(None) => return Err(err(&d, "indefinite-length array")),
        Err(_) => return Err(MdocError::cbor(span.start, "expected an array")),
    };
    let remaining = span.end.saturating_sub(d.position());
    if n > remaining as u64 {
        return Err(err(&d, "array count exceeds the data"));
    }
    let mut items = Vec::new();
    for _ in 0..n {
        let it = item(buf, d.position())?;
        d.set_position(it.end);
        items.push(it);
    }
    if d.position() != span.end {
        return Err(err(&d, "array does not fill its span"));
    }
    Ok(items)
}

/// The content range of the definite-length byte string spanning `span`.
pub(crate) fn bytes(buf: &[u8], span: Span) -> Result<Span, MdocError> {
    let mut d = at(buf, span.start);
    let content = d
        .bytes()
        .map_err(|_| MdocError::cbor(span.start, "expected a definite byte string"))?;
    let end = d.position();
    if end != span.end {
        return Err(err(&d, "byte string does not fill its span"));
    }
    Ok(Span {
        start: end - content.len(),
        end,
    })
}

/// The text string spanning `span`.
pub(crate) fn text(buf: &[u8], span: Span) -> Result<&str, MdocError> {
    let mut d = at(buf, span.start);
    let s = d
        .str()
        .map_err(|_| MdocError::cbor(span.start, "expected a definite text string"))?;
    if d.position() != span.end {
        return Err(err(&d, "text string does not fill its span"));
    }
    Ok(s)
}

/// The unsigned integer spanning `span`.
pub(crate) fn uint(buf: &[u8], span: Span) -> Result<u64, MdocError> {
    let mut d = at(buf, span.start);
    let v = d
        .u64()
        .map_err(|_| MdocError::cbor(span.start, "expected an unsigned integer"))?;
    if d.position() != span.end {
        return Err(err(&d, "integer does not fill its span"));
    }
    Ok(v)
}

/// If the item at `span` is tagged, its tag number and the tagged item.
pub(crate) fn tagged(buf: &[u8], span: Span) -> Result<Option<(u64, Span)>, MdocError> {
    let mut d = at(buf, span.start);
    if !matches!(d.datatype(), Ok(Type::Tag)) {
        return Ok(None);
    }
    let tag = d
        .tag()
        .map_err(|_| MdocError::cbor(span.start, "invalid tag"))?;
    Ok(Some((
        tag.as_u64(),
        Span {
            start: d.position(),
            end: span.end,
        },
    )))
}

/// The value of the entry whose text key is `name`; duplicate keys are
/// refused, since they would make what the circuit checks ambiguous.
pub(crate) fn lookup<'e, 'a>(
    entries: &'e [Entry<'a>],
    name: &str,
) -> Result<Option<&'e Entry<'a>>, MdocError> {
    let mut found = entries.iter().filter(|e| e.key == Key::Text(name));
    let first = found.next();
    if let Some(dup) = found.next() {
        return Err(MdocError::cbor(dup.key_start, "duplicate map key"));
    }
    Ok(first)
}

/// Like [`lookup`], for integer keys.
pub(crate) fn lookup_int<'e, 'a>(
    entries: &'e [Entry<'a>],
    key: i64,
) -> Result<Option<&'e Entry<'a>>, MdocError> {
    let mut found = entries.iter().filter(|e| e.key == Key::Int(key));
    let first = found.next();
    if let Some(dup) = found.next() {
        return Err(MdocError::cbor(dup.key_start, "duplicate map key"));
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn records_key_and_value_positions() {
        // {"a": 1, -2: h'0102'}
        let buf = [0xa2, 0x61, b'a', 0x01, 0x21, 0x42, 0x01, 0x02];
        let span = whole(&buf).expect("valid");
        let e = map_entries(&buf, span).expect("map");
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].key, Key::Text("a"));
        assert_eq!((e[0].key_start, e[0].value), (1, Span { start: 3, end: 4 }));
        assert_eq!(e[1].key, Key::Int(-2));
        assert_eq!(e[1].key_start, 4);
        assert_eq!(
            bytes(&buf, e[1].value).expect("bytes"),
            Span { start: 6, end: 8 }
        );
    }

    #[test]
    fn refuses_huge_counts_without_allocating() {
        // Map claiming 2^32 entries with no data.
        let buf = [0xbb, 0, 0, 0, 1, 0, 0, 0, 0];
        assert!(map_entries(
            &buf,
            Span {
                start: 0,
                end: buf.len()
            }
        )
        .is_err());
        let buf = [0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
        assert!(array_items(
            &buf,
            Span {
                start: 0,
                end: buf.len()
            }
        )
        .is_err());
        assert!(whole(&buf).is_err());
    }

    #[test]
    fn refuses_duplicate_keys() {
        let buf = [0xa2, 0x61, b'a', 0x01, 0x61, b'a', 0x02];
        let e = map_entries(&buf, whole(&buf).expect("valid")).expect("map");
        assert!(lookup(&e, "a").is_err());
        assert!(lookup(&e, "b").expect("no dup").is_none());
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(buf in proptest::collection::vec(any::<u8>(), 0..64)) {
            if let Ok(span) = whole(&buf) {
                let _ = map_entries(&buf, span);
                let _ = array_items(&buf, span);
                let _ = bytes(&buf, span);
                let _ = text(&buf, span);
                let _ = tagged(&buf, span);
            }
        }
    }
}
