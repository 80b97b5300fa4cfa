//! Credentials from the test issuer for the refusal-rule tests: each keeps
//! or breaks one rule of the reference, and carries a case name that says
//! nothing (or the opposite), so that only a rule over the bytes can judge
//! it right.

use std::time::Duration;

use longfellow_mdoc_issuer::{value, DeviceKey, IssuerKey, ItemField, MdocBuilder, Tdate};
use longfellow_random::MdocLcg;

use super::mdoc::Case;
use crate::backend::MdocRequest;

/// The `now` of every request.
pub(crate) const NOW: &str = "2026-01-15T09:00:00Z";

/// A credential and the refusal the reference gives it with the one-attribute
/// circuits of versions 6 and 7 (a rule name, or `None` for a proof). The
/// expectations are written from the reference's rules by hand.
#[derive(Debug)]
pub(crate) struct Sample {
    pub case: Case,
    pub v6: Option<&'static str>,
    pub v7: Option<&'static str>,
}

/// Issues `builder` (valid around [`NOW`]) under `name`.
pub(crate) fn case(name: &str, builder: MdocBuilder, seed: u64) -> Case {
    let mut rng = MdocLcg::new(seed);
    let issuer = IssuerKey::random(&mut rng);
    let device = DeviceKey::random(&mut rng);
    let now = Tdate::parse(NOW).expect("date");
    let day = Duration::from_secs(86_400);
    let transcript = [0x83, 0xf6, 0xf6, 0x60];
    let mdoc = builder
        .valid_around(now, 30 * day, 365 * day)
        .expect("validity")
        .build(&issuer, &device, &transcript, &mut rng)
        .expect("issues");
    Case {
        name: name.to_owned(),
        request: MdocRequest {
            pkx: format!("0x{}", hex::encode(mdoc.issuer_pkx)),
            pky: format!("0x{}", hex::encode(mdoc.issuer_pky)),
            transcript: transcript.to_vec(),
            now: NOW.to_owned(),
            doc_type: mdoc.doc_type.clone(),
            attributes: Vec::new(),
        },
        mdoc: mdoc.device_response,
    }
}

/// The tagged MSO's length, read with the prover's parser (not the code
/// under test), to show a sample has the size it is meant to have.
pub(crate) fn tagged_mso_len(mdoc: &[u8]) -> usize {
    longfellow_mdoc_witness::parse_device_response(mdoc)
        .expect("parses")
        .mso
        .tagged
        .len()
}

/// docType of the large mDLs: a text of 24 to 255 bytes, so that each
/// character added to it adds exactly one byte to the MSO.
const LARGE_DOC_TYPE: &str = "org.iso.18013.5.1.mDL.synthetic";

/// An mDL whose tagged MSO is exactly `len` bytes: extra attributes add a
/// digest each, then the docType is padded for the last few bytes.
pub(crate) fn mdl_with_mso(name: &str, len: usize, seed: u64) -> Case {
    let build = |extra: u64, pad: usize| {
        let doc_type = format!("{LARGE_DOC_TYPE}{}", "x".repeat(pad));
        let mut b = MdocBuilder::new(&doc_type, longfellow_mdoc_issuer::builder::MDL_NAMESPACE)
            .without_circuit_limits()
            .attribute("family_name", value::text("Mustermann"))
            .attribute("age_over_18", value::boolean(true));
        for i in 0..extra {
            b = b.attribute(&format!("extra_{i}"), value::uint(i));
        }
        case(name, b, seed)
    };
    let mut extra = 0;
    while tagged_mso_len(&build(extra + 1, 0).mdoc) <= len {
        extra += 1;
    }
    let short = tagged_mso_len(&build(extra, 0).mdoc);
    let c = build(extra, len.checked_sub(short).expect("a smaller MSO to pad"));
    assert_eq!(tagged_mso_len(&c.mdoc), len, "{name}");
    c
}

/// An identifier of exactly `len` bytes.
fn id_of(len: usize) -> String {
    let mut id = "attribute_".to_owned();
    while id.len() < len {
        id.push('x');
    }
    id.truncate(len);
    id
}

const VALUE_FIRST: [ItemField; 4] = [
    ItemField::ElementValue,
    ItemField::Random,
    ItemField::DigestId,
    ItemField::ElementIdentifier,
];
const VALUE_LATER: [ItemField; 4] = [
    ItemField::ElementIdentifier,
    ItemField::Random,
    ItemField::DigestId,
    ItemField::ElementValue,
];
const PAIR_FIRST: [ItemField; 4] = [
    ItemField::ElementIdentifier,
    ItemField::ElementValue,
    ItemField::DigestId,
    ItemField::Random,
];

/// One credential per rule (and ones that keep every rule), the first
/// attribute being the one that matters.
pub(crate) fn samples() -> Vec<Sample> {
    let av = MdocBuilder::age_verification;
    let s = |name: &str, b, seed, v6, v7| Sample {
        case: case(name, b, seed),
        v6,
        v7,
    };
    let order = "element order";
    let mso = "MSO block limit";
    let item = "item length";
    vec![
        // Keeps every rule, under a name the old list refused with v6.
        s("EUAV_Age_Over_18-mdoc[16].json", av(), 1, None, None),
        // elementValue first (as EUAV 19), under a name nothing refused.
        s(
            "age_over_18-website-mdoc[5].json",
            av().without_circuit_limits().item_order(VALUE_FIRST),
            2,
            Some(order),
            None,
        ),
        // elementValue after elementIdentifier, but not directly (EUAV 16).
        s(
            "issuer: identifier, random, digestID, value",
            av().without_circuit_limits().item_order(VALUE_LATER),
            3,
            Some(order),
            None,
        ),
        // The pair adjacent but first: the version 6 window still finds it.
        s(
            "issuer: identifier, value, digestID, random",
            av().item_order(PAIR_FIRST),
            4,
            None,
            None,
        ),
        // The MSO block limits, at their edges: the Sig_structure is
        // 20 + len bytes, plus 9 of padding, in 64-byte blocks.
        Sample {
            case: mdl_with_mso("issuer: MSO of 35 blocks", 35 * 64 - 29, 5),
            v6: None,
            v7: None,
        },
        Sample {
            case: mdl_with_mso("issuer: MSO one byte over 35 blocks", 35 * 64 - 28, 5),
            v6: Some(mso),
            v7: None,
        },
        Sample {
            case: mdl_with_mso("issuer: MSO of 40 blocks", 40 * 64 - 29, 5),
            v6: Some(mso),
            v7: None,
        },
        Sample {
            case: mdl_with_mso("issuer: MSO one byte over 40 blocks", 40 * 64 - 28, 5),
            v6: Some(mso),
            v7: Some(mso),
        },
        // A 64-byte salt: the item needs three SHA-256 blocks.
        s(
            "issuer: 64-byte salt",
            av().without_circuit_limits().salt_len(64),
            7,
            Some(item),
            Some(item),
        ),
        // A 23-byte identifier and a 64-byte value: over version 6's 96
        // bytes (which the reference checks first), and the item over two
        // blocks for version 7.
        s(
            "issuer: long identifier and value",
            av().without("age_over_18")
                .without_circuit_limits()
                .attribute(&id_of(23), value::bytes(&[7; 62])),
            8,
            Some("version ≤ 6 attribute length"),
            Some(item),
        ),
        // A 24-byte identifier: fine for version 6, not for version 7.
        s(
            "issuer: 24-byte identifier",
            av().without("age_over_18")
                .without_circuit_limits()
                .attribute(&id_of(24), value::boolean(true)),
            9,
            None,
            Some("version 7 identifier length"),
        ),
        // A 33-byte identifier: over the request limit of every version.
        s(
            "issuer: 33-byte identifier",
            av().without("age_over_18")
                .without_circuit_limits()
                .attribute(&id_of(33), value::boolean(true)),
            10,
            Some("request limits"),
            Some("request limits"),
        ),
    ]
}
