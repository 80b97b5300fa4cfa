//! The reference proofs' inputs (vectors README, `google/mdoc/proofs`).
#![allow(dead_code)]

use longfellow_circuit::{load_pair, CircuitPair};
use longfellow_mdoc::{MdocRequest, RequestedAttribute};

pub const NAMESPACE: &str = "org.iso.18013.5.1";
pub const ATTRIBUTES: [&str; 4] = ["family_name", "birth_date", "issue_date", "height"];
pub const CASE: &str = "birthdate_1971_09_01-mdoc[3].json";

/// (version, attributes, ZkSpec circuit hash) of every stored proof.
pub const PROOFS: [(u32, usize, &str); 8] = [
    (
        7,
        1,
        "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121",
    ),
    (
        7,
        2,
        "6a5810683e62b6d7766ebd0d7ca72518a2b8325418142adcadb10d51dbbcd5ad",
    ),
    (
        7,
        3,
        "8ee4849ae1293ae6fe5f9082ce3e5e15c4f198f2998c682fa1b727237d6d252f",
    ),
    (
        7,
        4,
        "5aebdaaafe17296a3ef3ca6c80c6e7505e09291897c39700410a365fb278e460",
    ),
    (
        6,
        1,
        "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6",
    ),
    (
        6,
        2,
        "b4bb6f01b7043f4f51d8302a30b36e3d4d2d0efc3c24557ab9212ad524a9764e",
    ),
    (
        6,
        3,
        "b2211223b954b34a1081e3fbf71b8ea2de28efc888b4be510f532d6ba76c2010",
    ),
    (
        6,
        4,
        "c70b5f44a1365c53847eb8948ad5b4fdc224251a2bc02d958c84c862823c49d6",
    ),
];

pub fn hex32(s: &str) -> [u8; 32] {
    let v = hex::decode(s.trim_start_matches("0x")).expect("hex");
    let mut out = [0u8; 32];
    out[32 - v.len()..].copy_from_slice(&v);
    out
}

/// The named case's request (its own time and docType, no attributes) and
/// DeviceResponse.
pub fn case_named(name: &str) -> (MdocRequest, Vec<u8>) {
    let json: serde_json::Value = serde_json::from_str(&longfellow_testvectors::read_to_string(
        "google/mdoc/cases.json",
    ))
    .expect("cases.json");
    let case = json
        .as_array()
        .expect("array")
        .iter()
        .find(|c| c["name"] == name)
        .expect("case");
    let s = |k: &str| case[k].as_str().expect(k);
    let request = MdocRequest {
        issuer_pk: (hex32(s("pkx")), hex32(s("pky"))),
        transcript: hex::decode(s("transcript_hex")).expect("transcript"),
        now: s("now").as_bytes().try_into().expect("20-byte now"),
        doc_type: s("doc_type").into(),
        attributes: Vec::new(),
    };
    (request, hex::decode(s("mdoc_hex")).expect("mdoc"))
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
