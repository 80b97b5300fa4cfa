//! Google's mdoc vectors: the eight circuits with stored proofs and the
//! credentials of `google/mdoc/cases.json`, read the one way every test and
//! bench needs them (they were parsed by hand in six places before).

use serde_json::Value;

/// Directory of the circuit files, relative to the vectors directory.
pub const CIRCUITS_DIR: &str = "google/mdoc/circuits";

/// The credential Google's stored proofs were made from.
pub const REFERENCE_CASE: &str = "birthdate_1971_09_01-mdoc[3].json";

/// The time the stored proofs were made at.
pub const REFERENCE_NOW: &[u8; 20] = b"2024-10-01T09:00:00Z";

/// The docType the stored proofs were made for.
pub const REFERENCE_DOC_TYPE: &str = "org.iso.18013.5.1.mDL";

/// The namespace of the stored proofs' attributes.
pub const REFERENCE_NAMESPACE: &str = "org.iso.18013.5.1";

/// The stored proofs disclose the first n of these.
pub const REFERENCE_ATTRIBUTES: [&str; 4] = ["family_name", "birth_date", "issue_date", "height"];

/// (ZkSpec version, attribute count, circuit hash) of every circuit with a
/// stored proof and witness under `google/mdoc/proofs`.
pub const MDOC_PROOFS: [(u32, usize, &str); 8] = [
    (7, 1, V7_1),
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

/// The version-7 one-attribute circuit hash.
pub const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

/// One credential of `cases.json`, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdocCase {
    /// Its name.
    pub name: String,
    /// Issuer public key x, big-endian, left-padded to 32 bytes.
    pub pkx: [u8; 32],
    /// Issuer public key y.
    pub pky: [u8; 32],
    /// The case's own time (20 ASCII bytes in every case).
    pub now: String,
    /// The case's docType.
    pub doc_type: String,
    /// The SessionTranscript.
    pub transcript: Vec<u8>,
    /// The DeviceResponse.
    pub mdoc: Vec<u8>,
}

fn hex_bytes(field: &str, s: &str) -> Vec<u8> {
    hex::decode(s.trim_start_matches("0x"))
        .unwrap_or_else(|e| panic!("cases.json: `{field}` is not hex: {e}"))
}

fn key32(field: &str, s: &str) -> [u8; 32] {
    let v = hex_bytes(field, s);
    assert!(v.len() <= 32, "cases.json: `{field}` longer than 32 bytes");
    let mut out = [0u8; 32];
    out[32 - v.len()..].copy_from_slice(&v);
    out
}

fn decode(case: &Value) -> MdocCase {
    let s = |k: &str| {
        case[k]
            .as_str()
            .unwrap_or_else(|| panic!("cases.json: a case has no string `{k}`"))
    };
    MdocCase {
        name: s("name").into(),
        pkx: key32("pkx", s("pkx")),
        pky: key32("pky", s("pky")),
        now: s("now").into(),
        doc_type: s("doc_type").into(),
        transcript: hex_bytes("transcript_hex", s("transcript_hex")),
        mdoc: hex_bytes("mdoc_hex", s("mdoc_hex")),
    }
}

/// Every case of `google/mdoc/cases.json`, in file order.
pub fn mdoc_cases() -> Vec<MdocCase> {
    let text = crate::read_to_string("google/mdoc/cases.json");
    let json: Value = serde_json::from_str(&text).expect("cases.json is JSON");
    json.as_array()
        .expect("cases.json is an array")
        .iter()
        .map(decode)
        .collect()
}

/// The named case of `google/mdoc/cases.json`.
pub fn mdoc_case(name: &str) -> MdocCase {
    mdoc_cases()
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("cases.json has no case `{name}`"))
}

/// Bytes of a circuit file `<hash><suffix>` (suffix "", ".lfa1" or ".lfa2").
pub fn circuit_file(hash: &str, suffix: &str) -> Vec<u8> {
    crate::read(&format!("{CIRCUITS_DIR}/{hash}{suffix}"))
}

/// Google's stored proof for a circuit hash.
pub fn stored_proof(hash: &str) -> Vec<u8> {
    crate::read(&format!("google/mdoc/proofs/{hash}.bin"))
}
