//! CBOR encodings of attribute values as ISO 18013-5 issuers write them.
//!
//! Values are handed around as their CBOR bytes because that is what the
//! circuits disclose and what a request names (`value_cbor_hex`); these
//! helpers produce the common forms.

use minicbor::data::Tag;
use minicbor::{Decoder, Encoder};

use crate::date::{parse_full_date, Tdate};
use crate::error::IssuerError;

/// Tag 1004: RFC 8943 full-date text (`birth_date`, `issue_date`, …).
pub const TAG_FULL_DATE: u64 = 1004;
/// Tag 0: RFC 3339 date-time text (the MSO's validity dates).
pub const TAG_TDATE: u64 = 0;

fn encode(f: impl FnOnce(&mut Encoder<&mut Vec<u8>>) -> Result<(), IssuerError>) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail, and every input here is encodable.
    let _ = f(&mut Encoder::new(&mut out));
    out
}

/// A text string, e.g. `family_name`.
pub fn text(s: &str) -> Vec<u8> {
    encode(|e| {
        e.str(s)?;
        Ok(())
    })
}

/// A boolean, e.g. `age_over_18`.
pub fn boolean(b: bool) -> Vec<u8> {
    encode(|e| {
        e.bool(b)?;
        Ok(())
    })
}

/// An unsigned integer, e.g. `height` or `age_birth_year`.
pub fn uint(n: u64) -> Vec<u8> {
    encode(|e| {
        e.u64(n)?;
        Ok(())
    })
}

/// A byte string.
pub fn bytes(b: &[u8]) -> Vec<u8> {
    encode(|e| {
        e.bytes(b)?;
        Ok(())
    })
}

/// mDL `driving_privileges`: `[{"vehicle_category_code": c}, …]`, the
/// smallest valid form (no issue or expiry dates, no codes).
pub fn driving_privileges(categories: &[&str]) -> Vec<u8> {
    encode(|e| {
        e.array(categories.len() as u64)?;
        for c in categories {
            e.map(1)?.str("vehicle_category_code")?.str(c)?;
        }
        Ok(())
    })
}

/// `1004("YYYY-MM-DD")`, checked against the calendar.
pub fn full_date(date: &str) -> Result<Vec<u8>, IssuerError> {
    parse_full_date(date.as_bytes()).ok_or_else(|| IssuerError::InvalidDate(date.to_owned()))?;
    Ok(encode(|e| {
        e.tag(Tag::new(TAG_FULL_DATE))?.str(date)?;
        Ok(())
    }))
}

/// `0("YYYY-MM-DDTHH:MM:SSZ")`.
pub fn tdate(t: &Tdate) -> Vec<u8> {
    encode(|e| {
        e.tag(Tag::new(TAG_TDATE))?.str(&t.to_string())?;
        Ok(())
    })
}

/// Whether `data` is exactly one well-formed CBOR item, with definite
/// lengths (the circuits and parsers refuse indefinite ones).
pub fn is_single_item(data: &[u8]) -> bool {
    let mut d = Decoder::new(data);
    d.skip().is_ok() && d.position() == data.len() && !has_indefinite(data)
}

/// Whether any head is indefinite-length or a break (or the data does not
/// decode). Walks every head in order: container and tag heads are read
/// alone so their contents are visited next; other items are skipped whole.
fn has_indefinite(data: &[u8]) -> bool {
    use minicbor::data::Type;
    let mut d = Decoder::new(data);
    while d.position() < data.len() {
        let ok = match d.datatype() {
            Ok(
                Type::ArrayIndef
                | Type::MapIndef
                | Type::BytesIndef
                | Type::StringIndef
                | Type::Break,
            )
            | Err(_) => false,
            Ok(Type::Array) => d.array().is_ok(),
            Ok(Type::Map) => d.map().is_ok(),
            Ok(Type::Tag) => d.tag().is_ok(),
            Ok(_) => d.skip().is_ok(),
        };
        if !ok {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_match_rfc_8949_examples() {
        // Expected bytes from RFC 8949 appendix A and the real credentials in
        // google/mdoc/cases.json (e.g. birth_date = d9 03ec 6a "1971-09-01").
        assert_eq!(boolean(true), [0xf5]);
        assert_eq!(boolean(false), [0xf4]);
        assert_eq!(uint(23), [0x17]);
        assert_eq!(uint(175), [0x18, 0xaf]);
        assert_eq!(uint(1968), [0x19, 0x07, 0xb0]);
        assert_eq!(text("a"), [0x61, b'a']);
        let mut d = vec![0xd9, 0x03, 0xec, 0x6a];
        d.extend_from_slice(b"1971-09-01");
        assert_eq!(full_date("1971-09-01").expect("valid"), d);
        assert!(full_date("1971-02-29").is_err());
        let mut dp = vec![0x81, 0xa1, 0x75];
        dp.extend_from_slice(b"vehicle_category_code");
        dp.extend_from_slice(&[0x61, b'B']);
        assert_eq!(driving_privileges(&["B"]), dp);
        assert!(full_date("1971-9-01").is_err());
    }

    #[test]
    fn single_item_check() {
        assert!(is_single_item(&[0xf5]));
        assert!(is_single_item(&[0x82, 0x01, 0x02]));
        assert!(!is_single_item(&[]));
        assert!(!is_single_item(&[0xf5, 0xf5]));
        assert!(!is_single_item(&[0x82, 0x01]));
        // Indefinite-length array [_ 1].
        assert!(!is_single_item(&[0x9f, 0x01, 0xff]));
    }
}
