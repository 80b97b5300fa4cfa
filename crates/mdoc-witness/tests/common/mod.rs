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

pub fn all_cases() -> Vec<Case> {
    longfellow_testvectors::google::mdoc_cases()
        .into_iter()
        .map(|c| Case {
            name: c.name,
            mdoc: c.mdoc,
            request: MdocRequest {
                issuer_pk: (c.pkx, c.pky),
                transcript: c.transcript,
                now: c.now.as_bytes().try_into().expect("20-byte now"),
                doc_type: c.doc_type,
                attributes: Vec::new(),
            },
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
