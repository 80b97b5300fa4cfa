//! Helpers shared by the integration tests: reading `google/mdoc/cases.json`.
#![allow(dead_code)]

use longfellow_mdoc_witness::MdocRequest;

/// One mdoc test credential from `cases.json`.
pub struct Case {
    pub name: String,
    pub mdoc: Vec<u8>,
    /// Request with no attributes yet.
    pub request: MdocRequest,
}

pub fn hex32(s: &str) -> [u8; 32] {
    let v = hex::decode(s.trim_start_matches("0x")).expect("hex");
    let mut out = [0u8; 32];
    out[32 - v.len()..].copy_from_slice(&v);
    out
}

pub fn all_cases() -> Vec<Case> {
    let json: serde_json::Value = serde_json::from_str(&longfellow_testvectors::read_to_string(
        "google/mdoc/cases.json",
    ))
    .expect("cases.json");
    json.as_array()
        .expect("array")
        .iter()
        .map(|case| {
            let s = |k: &str| case[k].as_str().expect(k);
            Case {
                name: s("name").into(),
                mdoc: hex::decode(s("mdoc_hex")).expect("mdoc hex"),
                request: MdocRequest {
                    issuer_pk: (hex32(s("pkx")), hex32(s("pky"))),
                    transcript: hex::decode(s("transcript_hex")).expect("transcript hex"),
                    now: s("now").as_bytes().try_into().expect("20-byte now"),
                    doc_type: s("doc_type").into(),
                    attributes: Vec::new(),
                },
            }
        })
        .collect()
}

/// The case whose name is exactly `name`.
pub fn case(name: &str) -> Case {
    all_cases()
        .into_iter()
        .find(|c| c.name == name)
        .expect("case present")
}

/// Replaces the first occurrence of `old` in `haystack` with `new`.
pub fn splice(haystack: &[u8], old: &[u8], new: &[u8]) -> Vec<u8> {
    let at = haystack
        .windows(old.len())
        .position(|w| w == old)
        .expect("needle present");
    [&haystack[..at], new, &haystack[at + old.len()..]].concat()
}
