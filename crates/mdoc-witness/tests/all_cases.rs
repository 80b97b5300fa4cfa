//! Every credential of `google/mdoc/cases.json`, proven the way Google's Rust
//! test suite proves them: the mdoc's own attributes in encoding order, n = 1
//! and the largest n ≤ 4. Version 7 must accept all of them; version 6 must
//! refuse exactly the EUAV 16–19 credentials, whose IssuerSignedItems do not
//! put elementValue directly after elementIdentifier.

mod common;

use longfellow_mdoc_witness::{
    build_witnesses, parse_device_response, MacInputs, MdocError, RequestedAttribute, ZkSpecInfo,
};

const KEYS: MacInputs = MacInputs {
    prover_keys: [[3, 5], [7, 11], [13, 17]],
    verifier_key: 19,
};

fn own_attributes(mdoc: &[u8]) -> Vec<RequestedAttribute> {
    let r = parse_device_response(mdoc).expect("parse");
    let ns = r.items.first().expect("items").namespace.clone();
    r.items
        .iter()
        .filter(|i| i.namespace == ns)
        .map(|i| RequestedAttribute {
            namespace: i.namespace.clone(),
            id: i.element_identifier.clone(),
            value_cbor: i.element_value.clone(),
        })
        .collect()
}

fn v6_refuses(name: &str) -> bool {
    ["[16]", "[17]", "[18]", "[19]"]
        .iter()
        .any(|k| name.starts_with("EUAV") && name.contains(k))
}

#[test]
fn every_case_builds_with_v7_and_v6_refuses_only_reordered_items() {
    longfellow_testvectors::require!();
    let mut checked = 0;
    for case in common::all_cases() {
        let attrs = own_attributes(&case.mdoc);
        for n in [1, attrs.len().min(4)] {
            let mut request = case.request.clone();
            request.attributes = attrs[..n].to_vec();
            for version in [6, 7] {
                let spec = ZkSpecInfo {
                    version,
                    num_attributes: n,
                };
                let got = build_witnesses(&spec, &request, &case.mdoc, &KEYS);
                if version == 6 && v6_refuses(&case.name) {
                    assert!(
                        matches!(got, Err(MdocError::AttributeOrderUnsupported { .. })),
                        "{} v6/{n}: {:?}",
                        case.name,
                        got.err()
                    );
                } else {
                    let w = got.unwrap_or_else(|e| panic!("{} v{version}/{n}: {e}", case.name));
                    assert_eq!(
                        w.hash.len(),
                        spec.hash_public_len() + spec.hash_private_len()
                    );
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 22 * 2 * 2);
}

#[test]
fn wrong_transcript_fails_the_device_signature() {
    longfellow_testvectors::require!();
    let mut case = common::case("birthdate_1971_09_01-mdoc[3].json");
    case.request.attributes = own_attributes(&case.mdoc)[..1].to_vec();
    case.request.transcript.push(0);
    let spec = ZkSpecInfo {
        version: 7,
        num_attributes: 1,
    };
    assert_eq!(
        build_witnesses(&spec, &case.request, &case.mdoc, &KEYS).err(),
        Some(MdocError::SignatureFailure("device"))
    );
}

#[test]
fn wrong_issuer_key_fails_the_issuer_signature() {
    longfellow_testvectors::require!();
    let mut case = common::case("birthdate_1971_09_01-mdoc[3].json");
    case.request.attributes = own_attributes(&case.mdoc)[..1].to_vec();
    // Another valid point: the device key of a different credential.
    let other = parse_device_response(&common::case("+18-mdoc[0].json").mdoc).expect("parse");
    case.request.issuer_pk = other.mso.device_key;
    let spec = ZkSpecInfo {
        version: 7,
        num_attributes: 1,
    };
    assert_eq!(
        build_witnesses(&spec, &case.request, &case.mdoc, &KEYS).err(),
        Some(MdocError::SignatureFailure("issuer"))
    );
}

#[test]
fn request_mismatches_are_specific_errors() {
    longfellow_testvectors::require!();
    let mut case = common::case("birthdate_1971_09_01-mdoc[3].json");
    let attrs = own_attributes(&case.mdoc);
    let spec = ZkSpecInfo {
        version: 7,
        num_attributes: 1,
    };
    let mut wrong_value = attrs[0].clone();
    wrong_value.value_cbor.push(0);
    case.request.attributes = vec![wrong_value];
    assert!(matches!(
        build_witnesses(&spec, &case.request, &case.mdoc, &KEYS),
        Err(MdocError::AttributeValueMismatch(_))
    ));
    let mut missing = attrs[0].clone();
    missing.id = "no_such_element".into();
    case.request.attributes = vec![missing];
    assert!(matches!(
        build_witnesses(&spec, &case.request, &case.mdoc, &KEYS),
        Err(MdocError::AttributeNotFound(_))
    ));
    case.request.attributes = attrs[..2].to_vec();
    assert!(matches!(
        build_witnesses(&spec, &case.request, &case.mdoc, &KEYS),
        Err(MdocError::AttributeCount {
            requested: 2,
            circuit: 1
        })
    ));
    let bad = ZkSpecInfo {
        version: 8,
        num_attributes: 2,
    };
    assert!(matches!(
        build_witnesses(&bad, &case.request, &case.mdoc, &KEYS),
        Err(MdocError::UnsupportedSpec { .. })
    ));
}

#[test]
fn every_truncation_of_a_device_response_is_an_error() {
    longfellow_testvectors::require!();
    let case = common::case("+18-mdoc[0].json");
    for len in 0..case.mdoc.len() {
        assert!(
            parse_device_response(&case.mdoc[..len]).is_err(),
            "prefix {len}"
        );
    }
}

const REFERENCE: &str = "birthdate_1971_09_01-mdoc[3].json";

fn spec(version: u32) -> ZkSpecInfo {
    ZkSpecInfo {
        version,
        num_attributes: 1,
    }
}

/// The reference mdoc with `extra` bytes of padding added to the MSO map (as
/// a new top-level entry "pad"), re-encoding only the enclosing byte-string
/// heads. The issuer signature no longer matches.
fn with_padded_mso(mdoc: &[u8], extra: usize) -> Vec<u8> {
    let r = parse_device_response(mdoc).expect("parse");
    let tagged = &r.mso.tagged;
    let map = &tagged[5..];
    assert!((0xa1..0xb7).contains(&map[0]), "small map head");
    let mut new_map = vec![map[0] + 1];
    new_map.extend_from_slice(&map[1..]);
    new_map.extend_from_slice(&[0x63, b'p', b'a', b'd', 0x59]);
    new_map.extend_from_slice(&(extra as u16).to_be_bytes());
    new_map.extend(std::iter::repeat_n(0u8, extra));
    let mut new_tagged = vec![0xd8, 0x18, 0x59];
    new_tagged.extend_from_slice(&(new_map.len() as u16).to_be_bytes());
    new_tagged.extend_from_slice(&new_map);
    let mut old = vec![0x59];
    old.extend_from_slice(&(tagged.len() as u16).to_be_bytes());
    old.extend_from_slice(tagged);
    let mut new = vec![0x59];
    new.extend_from_slice(&(new_tagged.len() as u16).to_be_bytes());
    new.extend_from_slice(&new_tagged);
    common::splice(mdoc, &old, &new)
}

#[test]
fn an_mso_too_large_for_the_circuit_is_a_specific_error() {
    longfellow_testvectors::require!();
    let mut case = common::case(REFERENCE);
    case.request.attributes = own_attributes(&case.mdoc)[..1].to_vec();
    let original = parse_device_response(&case.mdoc)
        .expect("parse")
        .mso
        .tagged
        .len();
    // Sig_structure = 20 + tagged bytes; v6 holds 35 blocks, v7 40.
    let target = 35 * 64 - 20 - 8; // needs 36 blocks
    let mdoc = with_padded_mso(&case.mdoc, target - original - 7);
    let parsed = parse_device_response(&mdoc).expect("still parses");
    assert_eq!(parsed.mso.tagged.len(), target);
    assert!(matches!(
        build_witnesses(&spec(6), &case.request, &mdoc, &KEYS),
        Err(MdocError::MsoTooLarge {
            max_blocks: 35,
            blocks: 36,
            ..
        })
    ));
    // Version 7 holds it, and gets as far as the (now wrong) issuer signature.
    assert_eq!(
        build_witnesses(&spec(7), &case.request, &mdoc, &KEYS).err(),
        Some(MdocError::SignatureFailure("issuer"))
    );
}

#[test]
fn an_item_too_long_for_two_sha_blocks_is_a_specific_error() {
    longfellow_testvectors::require!();
    let mut case = common::case(REFERENCE);
    let r = parse_device_response(&case.mdoc).expect("parse");
    let item = &r.items[0];
    let (_, random) = item.slot(longfellow_mdoc_witness::parse::ItemField::Random);
    // Replace the random value (after the 7-byte key) with 80 bytes.
    let key_end = random.offset + 7;
    let mut new_map = item.bytes[4..key_end].to_vec();
    new_map.extend_from_slice(&[0x58, 80]);
    new_map.extend(std::iter::repeat_n(0x42u8, 80));
    new_map.extend_from_slice(&item.bytes[random.offset + random.len..]);
    let mut new_item = vec![0xd8, 0x18, 0x58, new_map.len() as u8];
    new_item.extend_from_slice(&new_map);
    let mdoc = common::splice(&case.mdoc, &item.bytes, &new_item);
    case.request.attributes = own_attributes(&mdoc)[..1].to_vec();
    assert!(matches!(
        build_witnesses(&spec(7), &case.request, &mdoc, &KEYS),
        Err(MdocError::AttributeTooLong { len, .. }) if len == new_item.len()
    ));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    #[test]
    fn corrupted_device_responses_never_panic(
        edits in proptest::collection::vec((0usize..3173, proptest::prelude::any::<u8>()), 1..8)
    ) {
    longfellow_testvectors::require!(Ok(()));
        let case = common::case(REFERENCE);
        let mut mdoc = case.mdoc.clone();
        for (at, b) in edits {
            let at = at % mdoc.len();
            mdoc[at] = b;
        }
        let mut request = case.request.clone();
        request.attributes = vec![RequestedAttribute {
            namespace: "org.iso.18013.5.1".into(),
            id: "height".into(),
            value_cbor: vec![0x18, 0xaf],
        }];
        let _ = build_witnesses(&spec(7), &request, &mdoc, &KEYS);
        let _ = build_witnesses(&spec(6), &request, &mdoc, &KEYS);
    }
}

#[test]
fn a_doc_type_mismatch_is_a_specific_error() {
    longfellow_testvectors::require!();
    let mut case = common::case(REFERENCE);
    case.request.attributes = own_attributes(&case.mdoc)[..1].to_vec();
    case.request.doc_type = "eu.europa.ec.av.1".into();
    assert!(matches!(
        build_witnesses(&spec(7), &case.request, &case.mdoc, &KEYS),
        Err(MdocError::DocTypeMismatch { .. })
    ));
}

#[test]
fn a_time_outside_the_validity_period_is_a_specific_error() {
    longfellow_testvectors::require!();
    let mut case = common::case(REFERENCE);
    case.request.attributes = own_attributes(&case.mdoc)[..1].to_vec();
    for now in ["1999-01-01T00:00:00Z", "2999-01-01T00:00:00Z"] {
        case.request.now = now.as_bytes().try_into().expect("20 bytes");
        assert!(matches!(
            build_witnesses(&spec(7), &case.request, &case.mdoc, &KEYS),
            Err(MdocError::NotValidAt { .. })
        ));
    }
}

#[test]
fn a_digest_that_does_not_match_its_item_is_a_specific_error() {
    longfellow_testvectors::require!();
    let mut case = common::case(REFERENCE);
    let r = parse_device_response(&case.mdoc).expect("parse");
    let item = &r.items[0];
    // Flip one byte of the item's random value: same length, new digest.
    let (_, random) = item.slot(longfellow_mdoc_witness::parse::ItemField::Random);
    let mut changed = item.bytes.clone();
    changed[random.offset + random.len - 1] ^= 1;
    let mdoc = common::splice(&case.mdoc, &item.bytes, &changed);
    case.request.attributes = own_attributes(&mdoc)[..1].to_vec();
    assert_eq!(
        build_witnesses(&spec(7), &case.request, &mdoc, &KEYS).err(),
        Some(MdocError::DigestMismatch(item.element_identifier.clone()))
    );
}
