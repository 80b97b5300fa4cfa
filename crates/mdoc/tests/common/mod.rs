//! The reference proofs' inputs (vectors README, `google/mdoc/proofs`).
#![allow(dead_code)]

use longfellow_circuit::{load_pair, CircuitPair};
use longfellow_mdoc::{MdocRequest, RequestedAttribute};

pub const NAMESPACE: &str = "org.iso.18013.5.1";
pub const ATTRIBUTES: [&str; 4] = ["family_name", "birth_date", "issue_date", "height"];
pub const CASE: &str = "birthdate_1971_09_01-mdoc[3].json";

/// (version, attributes, ZkSpec circuit hash) of every stored proof.
pub const PROOFS: [(u32, usize, &str); 8] = longfellow_testvectors::google::MDOC_PROOFS;

pub fn hex32(s: &str) -> [u8; 32] {
    let v = hex::decode(s.trim_start_matches("0x")).expect("hex");
    let mut out = [0u8; 32];
    out[32 - v.len()..].copy_from_slice(&v);
    out
}

/// The named case's request (its own time and docType, no attributes) and
/// DeviceResponse.
pub fn case_named(name: &str) -> (MdocRequest, Vec<u8>) {
    let case = longfellow_testvectors::google::mdoc_case(name);
    let request = MdocRequest {
        issuer_pk: (case.pkx, case.pky),
        transcript: case.transcript,
        now: case.now.as_bytes().try_into().expect("20-byte now"),
        doc_type: case.doc_type,
        attributes: Vec::new(),
    };
    (request, case.mdoc)
}

/// The reference proofs' case, with the time and docType of the vectors
/// README.
pub fn case() -> (MdocRequest, Vec<u8>) {
    let (mut request, mdoc) = case_named(CASE);
    request.now = *b"2024-10-01T09:00:00Z";
    request.doc_type = "org.iso.18013.5.1.mDL".into();
    (request, mdoc)
}

/// Finds `id`'s CBOR elementValue in the DeviceResponse as the encoded
/// map entry `text("elementValue") value` right after `text(id)` (the
/// case's items are laid out that way), independently of the parser.
fn element_value(mdoc: &[u8], id: &str) -> Vec<u8> {
    let mut key = vec![0x60 | id.len() as u8];
    key.extend_from_slice(id.as_bytes());
    key.extend_from_slice(b"\x6celementValue");
    let at = mdoc
        .windows(key.len())
        .position(|w| w == key)
        .expect("identifier followed by elementValue")
        + key.len();
    let rest = &mdoc[at..];
    // One CBOR data item: tag 1004 dates, text, or small unsigned ints.
    let len = match rest[0] {
        0xd9 => 3 + 1 + (rest[3] & 0x1f) as usize,
        0x60..=0x77 => 1 + (rest[0] & 0x1f) as usize,
        0x78 => 2 + rest[1] as usize,
        0x00..=0x17 => 1,
        0x18 => 2,
        0x19 => 3,
        b => panic!("unexpected value head {b:#x}"),
    };
    rest[..len].to_vec()
}

/// The request for the first `n` attributes.
pub fn request(n: usize) -> (MdocRequest, Vec<u8>) {
    let (mut request, mdoc) = case();
    request.attributes = ATTRIBUTES[..n]
        .iter()
        .map(|id| RequestedAttribute {
            namespace: NAMESPACE.into(),
            id: (*id).into(),
            value_cbor: element_value(&mdoc, id),
        })
        .collect();
    (request, mdoc)
}

pub fn load(hash: &str) -> CircuitPair {
    let bytes = longfellow_testvectors::read(&format!("google/mdoc/circuits/{hash}.lfa2"));
    load_pair(&bytes).expect("circuit pair")
}

pub fn stored_proof(hash: &str) -> Vec<u8> {
    longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}.bin"))
}
