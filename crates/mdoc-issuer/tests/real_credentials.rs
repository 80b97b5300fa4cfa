//! Byte-for-byte comparison with real credentials from
//! `google/mdoc/cases.json`: wherever the content is the same (same docType,
//! identifiers, values), issued bytes equal the real ones except for salts,
//! keys, dates, lengths and signatures, which are masked.

mod common;

use common::issue;
use longfellow_mdoc_issuer::{value, MdocBuilder};
use longfellow_mdoc_witness::parse_device_response;

fn real(name: &str) -> Vec<u8> {
    longfellow_testvectors::google::mdoc_case(name).mdoc
}

fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("present")
}

/// Zeroes `len` bytes after every occurrence of `marker`.
fn mask_after(data: &[u8], marker: &[u8], len: usize) -> Vec<u8> {
    let mut out = data.to_vec();
    let mut i = 0;
    while i + marker.len() <= out.len() {
        if out[i..i + marker.len()] == *marker {
            let start = i + marker.len();
            let end = (start + len).min(out.len());
            out[start..end].fill(0);
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// Item bytes with the 16-byte salt (after `66 "random" 50`) zeroed.
fn without_salt(item: &[u8]) -> Vec<u8> {
    mask_after(item, b"\x66random\x50", 16)
}

#[test]
fn euav_envelope_items_and_device_signed_match_a_real_attestation() {
    longfellow_testvectors::require!();
    let real = real("+18-mdoc[9].json");
    // The real attestation discloses age_over_18 and nym, digest IDs 0, 1.
    let ours = issue(
        MdocBuilder::age_verification().attribute("nym", value::text("123123231281244")),
        31,
    )
    .device_response;

    // Envelope up to the first IssuerSignedItemBytes.
    let first_item = [0xd8, 0x18, 0x58, 0x4f];
    let at = find(&real, &first_item);
    assert_eq!(ours[..at], real[..at]);
    assert_eq!(ours[at..at + 4], first_item);

    let (r, o) = (
        parse_device_response(&real).expect("real parses"),
        parse_device_response(&ours).expect("ours parses"),
    );
    assert_eq!(r.items.len(), o.items.len());
    for (ri, oi) in r.items.iter().zip(&o.items) {
        assert_eq!(without_salt(&oi.bytes), without_salt(&ri.bytes));
        assert_eq!(oi.slots, ri.slots);
    }

    // deviceSigned through the end, signature masked.
    let tail = |b: &[u8]| {
        let start = find(b, b"\x6cdeviceSigned");
        mask_after(&b[start..], &[0x58, 0x40], 64)
    };
    assert_eq!(tail(&ours), tail(&real));
}

/// The MSO map bytes (after `D8 18 59 hi lo`).
fn mso_map(response: &[u8]) -> Vec<u8> {
    let parsed = parse_device_response(response).expect("parses");
    parsed.mso.tagged[5..].to_vec()
}

#[test]
fn mdl_mso_matches_a_real_licence_where_content_agrees() {
    longfellow_testvectors::require!();
    let real = real("birthdate_1971_09_01-mdoc[3].json");
    let ours = issue(MdocBuilder::mdl(), 32).device_response;
    let (rm, om) = (mso_map(&real), mso_map(&ours));

    // version, digestAlgorithm, docType, then the valueDigests key.
    let head_end = find(&rm, b"\x6cvalueDigests") + 13;
    assert_eq!(om[..head_end], rm[..head_end]);

    // deviceKeyInfo with the coordinates masked.
    let dki = |m: &[u8]| {
        let start = find(m, b"\x6ddeviceKeyInfo");
        let fragment = &m[start..start + 14 + 1 + 10 + 1 + 4 + 3 + 32 + 3 + 32];
        mask_after(fragment, &[0x58, 0x20], 32)
    };
    assert_eq!(dki(&om), dki(&rm));

    // validityInfo (the last entry in both), dates masked.
    let validity = |m: &[u8]| {
        let start = find(m, b"\x6cvalidityInfo");
        mask_after(&m[start..], &[0xc0, 0x74], 20)
    };
    assert_eq!(validity(&om), validity(&rm));

    // issuerAuth = [h'A10126', {33: x5chain}, bstr(#6.24(bstr MSO)), …]: the
    // real licence carries a 643-byte certificate; give ours one as long.
    let with_cert = issue(MdocBuilder::mdl().x5chain(vec![0x30; 643]), 32).device_response;
    let auth = |b: &[u8]| {
        let start = find(b, b"\x6aissuerAuth") + 11;
        b[start..start + 11].to_vec()
    };
    assert_eq!(auth(&with_cert), auth(&real));
    // Items with the same content.
    let (r, o) = (
        parse_device_response(&real).expect("real parses"),
        parse_device_response(&ours).expect("ours parses"),
    );
    for id in ["family_name", "birth_date", "issue_date", "age_over_18"] {
        let pick = |items: &[longfellow_mdoc_witness::IssuerSignedItem]| {
            let item = items
                .iter()
                .find(|i| i.element_identifier == id)
                .expect("item")
                .clone();
            // Digest IDs (and so the bstr length) differ in size: compare
            // the head `D8 18 58 _ A4 68 "digestID"`, then from `random` on.
            let b = without_salt(&item.bytes);
            let random = find(&b, b"\x66random");
            let mut head = b[..14].to_vec();
            head[3] = 0;
            (head, b[random..].to_vec())
        };
        assert_eq!(pick(&o.items), pick(&r.items), "{id}");
    }
}
