//! The byte patterns the hash circuit asserts inside the MSO.
//!
//! The circuit does not parse the MSO; at each offset the prover supplies it
//! compares fixed CBOR fragments. A well-formed MSO encoded differently (a
//! date without tag 0, a deviceKeyInfo with keyAuthorizations, a COSE_Key with
//! other fields) is valid ISO 18013-5 but cannot be proven, so these checks
//! turn a proof that would fail into a specific error before proving.

use sha2::{Digest, Sha256};

use crate::error::MdocError;
use crate::parse::{IssuerSignedItem, Mso, MSO_TAG_HEADER_LEN};

/// Bytes of an RFC 3339 `YYYY-MM-DDTHH:MM:SSZ` date.
pub const DATE_LEN: usize = 20;

fn text(s: &str) -> Vec<u8> {
    // All keys here are shorter than 24 bytes: one-byte head.
    let mut out = vec![0x60 | s.len() as u8];
    out.extend_from_slice(s.as_bytes());
    out
}

/// `key: 0("YYYY-MM-DDTHH:MM:SSZ")` — text key, tag 0, text(20).
fn date_pattern(key: &str) -> Vec<u8> {
    let mut p = text(key);
    p.extend_from_slice(&[0xc0, 0x60 | DATE_LEN as u8]);
    p
}

/// `"deviceKeyInfo": {"deviceKey": {1: 2, -1: 1, -2: h'<32>'` up to x.
fn device_key_prefix() -> Vec<u8> {
    let mut p = text("deviceKeyInfo");
    p.push(0xa1);
    p.extend(text("deviceKey"));
    // map(4) {1: 2 (EC2), -1: 1 (P-256), -2: bstr(32)
    p.extend_from_slice(&[0xa4, 0x01, 0x02, 0x20, 0x01, 0x21, 0x58, 0x20]);
    p
}

fn mso_map(mso: &Mso) -> &[u8] {
    mso.tagged.get(MSO_TAG_HEADER_LEN..).unwrap_or_default()
}

fn date_at<'a>(map: &'a [u8], offset: usize, key: &str) -> Option<&'a [u8]> {
    let pattern = date_pattern(key);
    let end = offset.checked_add(pattern.len())?;
    if map.get(offset..end)? != pattern.as_slice() {
        return None;
    }
    map.get(end..end + DATE_LEN)
}

/// Checks the MSO fragments the circuit asserts and that `now` lies in
/// [validFrom, validUntil] (byte-wise, as the circuit compares).
pub fn check_mso(mso: &Mso, now: &[u8; DATE_LEN]) -> Result<(), MdocError> {
    let map = mso_map(mso);
    let from = date_at(map, mso.valid_from, "validFrom").ok_or(MdocError::MsoLayoutUnsupported(
        "validFrom is not 0(\"YYYY-MM-DDTHH:MM:SSZ\")",
    ))?;
    let until = date_at(map, mso.valid_until, "validUntil").ok_or(
        MdocError::MsoLayoutUnsupported("validUntil is not 0(\"YYYY-MM-DDTHH:MM:SSZ\")"),
    )?;
    if !(from <= &now[..] && &now[..] <= until) {
        return Err(MdocError::NotValidAt {
            now: String::from_utf8_lossy(now).into_owned(),
            valid_from: String::from_utf8_lossy(from).into_owned(),
            valid_until: String::from_utf8_lossy(until).into_owned(),
        });
    }

    let prefix = device_key_prefix();
    let mut expected = prefix.clone();
    expected.extend_from_slice(&mso.device_key.0);
    expected.extend_from_slice(&[0x22, 0x58, 0x20]);
    expected.extend_from_slice(&mso.device_key.1);
    let at = mso.device_key_info;
    let found = at
        .checked_add(expected.len())
        .and_then(|end| map.get(at..end));
    if found != Some(expected.as_slice()) {
        return Err(MdocError::MsoLayoutUnsupported(
            "deviceKeyInfo is not {\"deviceKey\": {1: 2, -1: 1, -2: x, -3: y}}",
        ));
    }
    Ok(())
}

/// Checks that the MSO holds `bstr(32)` = SHA-256(IssuerSignedItemBytes) at
/// the item's digest offset, as the circuit asserts.
pub fn check_digest(mso: &Mso, item: &IssuerSignedItem) -> Result<(), MdocError> {
    let map = mso_map(mso);
    let digest: [u8; 32] = Sha256::digest(&item.bytes).into();
    let mut expected = vec![0x58, 0x20];
    expected.extend_from_slice(&digest);
    let found = item
        .digest_offset
        .and_then(|at| map.get(at..at.checked_add(expected.len())?));
    if found != Some(expected.as_slice()) {
        return Err(MdocError::DigestMismatch(item.element_identifier.clone()));
    }
    Ok(())
}
