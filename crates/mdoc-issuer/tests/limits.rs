//! The issuer refuses what the circuits could not prove, and everything it
//! does issue is accepted by the witness builder for versions 6 and 7.

mod common;

use common::{keys, now, request, transcript, KEYS};
use longfellow_mdoc_issuer::{value, DigestIds, IssuerError, MdocBuilder, Tdate};
use longfellow_mdoc_witness::{build_witnesses, ZkSpecInfo};
use proptest::prelude::*;

fn build(builder: MdocBuilder) -> Result<longfellow_mdoc_issuer::IssuedMdoc, IssuerError> {
    let (issuer, device, mut rng) = keys(21);
    builder
        .valid_around(now(), common::DAY, common::DAY)?
        .build(&issuer, &device, &transcript(), &mut rng)
}

fn not_provable(r: Result<longfellow_mdoc_issuer::IssuedMdoc, IssuerError>) -> bool {
    matches!(r, Err(IssuerError::AttributeNotProvable { .. }))
}

#[test]
fn oversized_attributes_are_refused() {
    let av = MdocBuilder::age_verification;
    // Identifier: 23 bytes fit, 24 do not.
    assert!(build(av().attribute(&"a".repeat(23), value::boolean(true))).is_ok());
    assert!(not_provable(build(
        av().attribute(&"a".repeat(24), value::boolean(true))
    )));
    assert!(not_provable(build(
        av().attribute("", value::boolean(true))
    )));
    // Value above 64 bytes.
    assert!(not_provable(build(
        av().attribute("v", value::bytes(&[0; 63]))
    )));
    // Version 6: text(id) ‖ text("elementValue") ‖ value above 96 bytes.
    assert!(not_provable(build(
        av().attribute(&"i".repeat(23), value::bytes(&[0; 58]))
    )));
    // IssuerSignedItemBytes above 119 bytes (two SHA-256 blocks).
    assert!(not_provable(build(
        av().attribute("document_x", value::text(&"x".repeat(48)))
    )));
    assert!(not_provable(build(av().salt_len(64))));
}

#[test]
fn malformed_input_is_refused() {
    let av = MdocBuilder::age_verification;
    assert!(matches!(
        build(av().attribute("x", vec![0x82, 0x01])),
        Err(IssuerError::InvalidValue(_))
    ));
    assert!(matches!(
        build(av().attribute("x", vec![0x9f, 0xff])),
        Err(IssuerError::InvalidValue(_))
    ));
    assert!(matches!(
        build(av().attribute_in(&"n".repeat(65), "x", value::boolean(true))),
        Err(IssuerError::InvalidNamespace(_))
    ));
    assert!(matches!(
        build(av().without("age_over_18")),
        Err(IssuerError::NoAttributes)
    ));
    let (issuer, device, mut rng) = keys(22);
    assert!(matches!(
        av().build(&issuer, &device, &transcript(), &mut rng),
        Err(IssuerError::MissingValidity)
    ));
    let later = now().checked_add(common::DAY).expect("date");
    assert!(matches!(
        av().valid(later, now())
            .build(&issuer, &device, &transcript(), &mut rng),
        Err(IssuerError::EmptyValidity { .. })
    ));
    assert!(matches!(
        av().valid(now(), later)
            .build(&issuer, &device, &[0x82, 0xf6], &mut rng),
        Err(IssuerError::InvalidSessionTranscript)
    ));
    assert!(matches!(
        Tdate::parse("9999-12-31T23:59:59Z")
            .expect("date")
            .checked_add(std::time::Duration::from_secs(1)),
        Err(IssuerError::DateOutOfRange)
    ));
}

#[test]
fn mso_beyond_the_v6_circuit_is_refused() {
    // Each digest adds about 36 bytes to the MSO; 2,211 bytes is the limit.
    let many = (0..60).fold(MdocBuilder::mdl(), |b, i| {
        b.attribute(&format!("extra_{i}"), value::uint(i))
    });
    assert!(matches!(
        build(many),
        Err(IssuerError::MsoSize { max: 2211, .. })
    ));
    let fits = (0..40).fold(MdocBuilder::mdl(), |b, i| {
        b.attribute(&format!("extra_{i}"), value::uint(i))
    });
    let mdoc = build(fits).expect("fits");
    let req = request(&mdoc, now(), &["extra_39", "age_over_18"]);
    for version in [6, 7] {
        let spec = ZkSpecInfo {
            version,
            num_attributes: 2,
        };
        assert!(build_witnesses(&spec, &req, &mdoc.device_response, &KEYS).is_ok());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Whatever the issuer accepts, both circuit versions accept: the
    /// limits are no looser than the witness builder's.
    #[test]
    fn issued_attributes_always_prove(
        id_len in 1usize..=23,
        text_len in 0usize..=64,
        salt in 16usize..=24,
    ) {
        let id = "k".repeat(id_len);
        let builder = MdocBuilder::age_verification()
            .salt_len(salt)
            .attribute(&id, value::text(&"v".repeat(text_len)));
        match build(builder) {
            Err(IssuerError::AttributeNotProvable { .. }) => {}
            Err(e) => prop_assert!(false, "unexpected {e}"),
            Ok(mdoc) => {
                let req = request(&mdoc, now(), &[&id]);
                for version in [6, 7] {
                    let spec = ZkSpecInfo { version, num_attributes: 1 };
                    let got = build_witnesses(&spec, &req, &mdoc.device_response, &KEYS);
                    prop_assert!(got.is_ok(), "v{}: {:?}", version, got.err());
                }
            }
        }
    }
}

#[test]
fn without_circuit_limits_issues_valid_but_unprovable_credentials() {
    let portrait = value::bytes(&[0xab; 2000]);
    let big = (0..300).fold(
        MdocBuilder::mdl()
            .without_circuit_limits()
            // 313 random digest IDs: the parser refuses duplicates.
            .digest_ids(DigestIds::Random)
            .attribute("portrait", portrait.clone())
            .attribute("family_name_national_character", value::text("Mustermann")),
        |b, i| b.attribute(&format!("extra_{i}"), value::uint(i)),
    );
    let mdoc = build(big).expect("issues");
    let parsed =
        longfellow_mdoc_witness::parse_device_response(&mdoc.device_response).expect("parses");
    assert_eq!(parsed.items.len(), mdoc.attributes.len());
    let item = parsed
        .items
        .iter()
        .find(|i| i.element_identifier == "portrait")
        .expect("portrait");
    assert_eq!(item.element_value, portrait);

    // The prover refuses, each for its reason: the MSO needs more SHA-256
    // blocks than either circuit holds.
    let req = request(&mdoc, now(), &["age_over_18"]);
    for version in [6, 7] {
        let spec = ZkSpecInfo {
            version,
            num_attributes: 1,
        };
        assert!(matches!(
            build_witnesses(&spec, &req, &mdoc.device_response, &KEYS),
            Err(longfellow_mdoc_witness::MdocError::MsoTooLarge { .. })
        ));
    }
    // Well-formedness is still checked.
    assert!(matches!(
        build(
            MdocBuilder::age_verification()
                .without_circuit_limits()
                .attribute("x", vec![0x82])
        ),
        Err(IssuerError::InvalidValue(_))
    ));
}
