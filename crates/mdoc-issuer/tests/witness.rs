//! Issued mdocs go through the prover's own parser and witness builder
//! (`longfellow-mdoc-witness`), which checks everything the version 6 and 7
//! circuits assert: both ECDSA signatures, the MSO byte patterns, item
//! digests, field order, sizes and the validity period.

mod common;

use common::{issue, now, request, DAY, KEYS};
use longfellow_mdoc_issuer::{
    value, DigestIds, IssuerCertificate, IssuerError, MdocBuilder, Tdate,
};
use longfellow_mdoc_witness::{
    build_witnesses, parse_device_response, MdocError, MdocRequest, ZkSpecInfo,
};

fn spec(version: u32, num_attributes: usize) -> ZkSpecInfo {
    ZkSpecInfo {
        version,
        num_attributes,
    }
}

fn assert_builds(request: &MdocRequest, mdoc: &[u8], what: &str) {
    for version in [6, 7] {
        let spec = spec(version, request.attributes.len());
        let w = build_witnesses(&spec, request, mdoc, &KEYS)
            .unwrap_or_else(|e| panic!("{what} v{version}: {e}"));
        assert_eq!(
            w.hash.len(),
            spec.hash_public_len() + spec.hash_private_len(),
            "{what} v{version}"
        );
        assert_eq!(
            w.sig.len(),
            longfellow_mdoc_witness::spec::SIG_PUBLIC_LEN
                + longfellow_mdoc_witness::spec::SIG_PRIVATE_LEN,
            "{what} v{version}"
        );
    }
}

#[test]
fn age_verification_proves_age_over_18_with_v6_and_v7() {
    let mdoc = issue(MdocBuilder::age_verification(), 1);
    let parsed = parse_device_response(&mdoc.device_response).expect("parses");
    assert_eq!(parsed.doc_type, "eu.europa.ec.av.1");
    assert_eq!(parsed.items.len(), 1);
    assert_eq!(parsed.items[0].namespace, "eu.europa.ec.av.1");
    assert_eq!(parsed.items[0].element_identifier, "age_over_18");
    assert_eq!(parsed.items[0].element_value, [0xf5]);
    assert_eq!(parsed.mso.device_key, (mdoc.device_pkx, mdoc.device_pky));

    let req = request(&mdoc, now(), &["age_over_18"]);
    assert_builds(&req, &mdoc.device_response, "EUAV");
}

#[test]
fn mdl_proves_one_to_four_attributes_with_v6_and_v7() {
    let mdoc = issue(MdocBuilder::mdl(), 2);
    let parsed = parse_device_response(&mdoc.device_response).expect("parses");
    assert_eq!(parsed.doc_type, "org.iso.18013.5.1.mDL");
    assert_eq!(parsed.items.len(), mdoc.attributes.len());

    let all = [
        "family_name",
        "birth_date",
        "issue_date",
        "age_over_18",
        "given_name",
        "expiry_date",
        "issuing_country",
        "issuing_authority",
        "document_number",
        "age_over_21",
        "age_birth_year",
        "un_distinguishing_sign",
        "driving_privileges",
    ];
    assert_eq!(all.len(), mdoc.attributes.len());
    // Every attribute alone, then the first n ≤ 4 together, then a window
    // over the list so each attribute also appears in a later slot.
    for id in all {
        assert_builds(&request(&mdoc, now(), &[id]), &mdoc.device_response, id);
    }
    for n in 2..=4 {
        assert_builds(
            &request(&mdoc, now(), &all[..n]),
            &mdoc.device_response,
            &format!("first {n}"),
        );
    }
    for w in all.windows(4).step_by(3) {
        assert_builds(
            &request(&mdoc, now(), w),
            &mdoc.device_response,
            &w.join(","),
        );
    }
}

#[test]
fn presentations_with_fewer_items_still_prove() {
    let mdoc = issue(MdocBuilder::mdl(), 3);
    let shown = ["age_over_18", "birth_date"];
    let presentation = mdoc.presentation(&shown).expect("present");
    let parsed = parse_device_response(&presentation).expect("parses");
    let ids: Vec<&str> = parsed
        .items
        .iter()
        .map(|i| i.element_identifier.as_str())
        .collect();
    // Issuance order, not request order.
    assert_eq!(ids, ["birth_date", "age_over_18"]);
    assert_builds(
        &request(&mdoc, now(), &shown),
        &presentation,
        "presentation",
    );
    // An attribute that is signed but not presented cannot be proven.
    let req = request(&mdoc, now(), &["family_name"]);
    assert!(matches!(
        build_witnesses(&spec(7, 1), &req, &presentation, &KEYS),
        Err(MdocError::AttributeNotFound(_))
    ));
    assert!(matches!(
        mdoc.presentation(&["nope"]),
        Err(IssuerError::UnknownAttribute(_))
    ));
}

#[test]
fn layout_variants_real_issuers_use_still_prove() {
    // Random three-byte digest IDs, 32-byte salts, an x5chain header and a
    // second namespace, as in several of the real credentials.
    let builder = MdocBuilder::mdl()
        .without("driving_privileges") // too long with a 32-byte salt
        .digest_ids(DigestIds::Random)
        .salt_len(32)
        .x5chain(vec![0x30, 0x03, 0x02, 0x01, 0x01])
        .attribute_in(
            "org.iso.18013.5.1.aamva",
            "DHS_compliance",
            value::text("F"),
        )
        .attribute("height", value::uint(175));
    let mdoc = issue(builder, 4);
    let parsed = parse_device_response(&mdoc.device_response).expect("parses");
    assert!(parsed.items.iter().any(|i| i.digest_id > 0xff));
    assert!(parsed
        .items
        .iter()
        .any(|i| i.namespace == "org.iso.18013.5.1.aamva"));
    let req = request(
        &mdoc,
        now(),
        &["height", "age_over_18", "birth_date", "family_name"],
    );
    assert_builds(&req, &mdoc.device_response, "variants");
    let bare = issue(
        MdocBuilder::age_verification().certificate(IssuerCertificate::Omit),
        4,
    );
    assert_eq!(bare.certificate, None);
    assert_builds(
        &request(&bare, now(), &["age_over_18"]),
        &bare.device_response,
        "no certificate",
    );
    let aamva = request(&mdoc, now(), &["DHS_compliance"]);
    assert_builds(&aamva, &mdoc.device_response, "aamva");
    assert!(matches!(
        mdoc.request(now(), &["DHS_compliance", "height"]),
        Err(IssuerError::MixedNamespaces)
    ));
}

#[test]
fn validity_window_is_enforced_at_its_edges() {
    let (from, until) = (
        Tdate::parse("2025-12-01T00:00:00Z").expect("date"),
        Tdate::parse("2026-02-01T00:00:00Z").expect("date"),
    );
    let (issuer, device, mut rng) = common::keys(5);
    let mdoc = MdocBuilder::age_verification()
        .valid(from, until)
        .build(&issuer, &device, &common::transcript(), &mut rng)
        .expect("issues");
    let at = |t: Tdate| {
        let mut req = request(&mdoc, now(), &["age_over_18"]);
        req.now = t.to_bytes();
        build_witnesses(&spec(7, 1), &req, &mdoc.device_response, &KEYS)
    };
    let second = std::time::Duration::from_secs(1);
    assert!(at(from).is_ok());
    assert!(at(until).is_ok());
    let before = from.checked_sub(second).expect("date");
    let after = until.checked_add(second).expect("date");
    assert!(matches!(at(before), Err(MdocError::NotValidAt { .. })));
    assert!(matches!(at(after), Err(MdocError::NotValidAt { .. })));
    assert!(matches!(
        mdoc.request(after, &["age_over_18"]),
        Err(IssuerError::NotValidAt { .. })
    ));
}

/// Index of the first occurrence of `needle` in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("present")
}

#[test]
fn tampered_items_and_digests_are_refused() {
    let mdoc = issue(MdocBuilder::mdl(), 6);
    let req = request(&mdoc, now(), &["age_over_18"]);
    let parsed = parse_device_response(&mdoc.device_response).expect("parses");
    let item = parsed
        .items
        .iter()
        .find(|i| i.element_identifier == "age_over_18")
        .expect("item");

    // A salt byte of the disclosed item: its digest no longer matches.
    let at = find(&mdoc.device_response, &item.bytes);
    let mut salted = mdoc.device_response.clone();
    salted[at + item.slots[1].offset + 8] ^= 1; // inside `random`'s content
    for version in [6, 7] {
        assert!(
            matches!(
                build_witnesses(&spec(version, 1), &req, &salted, &KEYS),
                Err(MdocError::DigestMismatch(ref id)) if id == "age_over_18"
            ),
            "v{version}"
        );
    }

    // The item's digest inside the signed MSO.
    let digest_at =
        find(&mdoc.device_response, &parsed.mso.tagged) + 5 + item.digest_offset.expect("digest");
    let mut redigested = mdoc.device_response.clone();
    redigested[digest_at + 2] ^= 0x80; // past the 58 20 head
    assert!(matches!(
        build_witnesses(&spec(7, 1), &req, &redigested, &KEYS),
        Err(MdocError::DigestMismatch(_))
    ));
    // Another item's digest: the disclosed one checks out, the issuer
    // signature over the MSO does not.
    let other = parsed
        .items
        .iter()
        .find(|i| i.element_identifier == "family_name")
        .expect("item");
    let other_at =
        find(&mdoc.device_response, &parsed.mso.tagged) + 5 + other.digest_offset.expect("digest");
    let mut resigned = mdoc.device_response.clone();
    resigned[other_at + 2] ^= 0x80;
    assert!(build_witnesses(&spec(7, 1), &req, &resigned, &KEYS).is_err());
    // The untouched response is fine.
    assert!(build_witnesses(&spec(7, 1), &req, &mdoc.device_response, &KEYS).is_ok());
}

#[test]
fn wrong_request_fields_are_refused() {
    let mdoc = issue(MdocBuilder::age_verification(), 7);
    let good = request(&mdoc, now(), &["age_over_18"]);
    assert!(build_witnesses(&spec(7, 1), &good, &mdoc.device_response, &KEYS).is_ok());

    let mut value = good.clone();
    value.attributes[0].value_cbor = vec![0xf4];
    assert!(matches!(
        build_witnesses(&spec(7, 1), &value, &mdoc.device_response, &KEYS),
        Err(MdocError::AttributeValueMismatch(_))
    ));
    // Another issuer key, another session: the signatures fail.
    let other = issue(MdocBuilder::age_verification(), 8);
    let mut key = good.clone();
    key.issuer_pk = (other.issuer_pkx, other.issuer_pky);
    assert!(build_witnesses(&spec(7, 1), &key, &mdoc.device_response, &KEYS).is_err());
    let mut session = good.clone();
    session.transcript = longfellow_mdoc_issuer::dc_api_session_transcript(
        "https://verifier.example",
        "another nonce",
    )
    .expect("encodes");
    assert!(build_witnesses(&spec(7, 1), &session, &mdoc.device_response, &KEYS).is_err());
}

#[test]
fn issuing_is_reproducible_from_the_seed() {
    let a = issue(MdocBuilder::mdl(), 9);
    let b = issue(MdocBuilder::mdl(), 9);
    let c = issue(MdocBuilder::mdl(), 10);
    assert_eq!(a, b);
    assert_ne!(a.device_response, c.device_response);
    assert_ne!(a.issuer_pkx, c.issuer_pkx);
    // Validity around `now`, as requested.
    assert_eq!(a.valid_from, now().checked_sub(30 * DAY).expect("date"));
    assert_eq!(a.valid_until, now().checked_add(365 * DAY).expect("date"));
}
