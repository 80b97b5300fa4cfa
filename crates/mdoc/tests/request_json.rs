//! The one request reader: strict JSON, typed errors, validated contents.
//! Needs no vectors (the issuer key is the P-256 generator).

use longfellow_mdoc::json::JsonError;
use longfellow_mdoc::{
    check_issuer_key, Coordinate, MdocRequest, RequestError, RequestedAttribute, TimeError,
    MAX_TRANSCRIPT_BYTES,
};
use proptest::prelude::*;

const GX: &str = "0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296";
const GY: &str = "0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";
/// p, the P-256 field modulus.
const P: &str = "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff";

fn json(pkx: &str, pky: &str, now: &str, extra: &str, attr_extra: &str) -> String {
    format!(
        r#"{{"pkx": "{pkx}", "pky": "{pky}", "transcript_hex": "a0", "now": "{now}",
            "doc_type": "org.iso.18013.5.1.mDL"{extra},
            "attributes": [{{"namespace": "org.iso.18013.5.1", "id": "age_over_18",
                             "value_cbor_hex": "f5"{attr_extra}}}]}}"#
    )
}

fn parse(s: &str) -> Result<MdocRequest, RequestError> {
    MdocRequest::from_json(s.as_bytes())
}

fn good() -> String {
    json(GX, GY, "2024-10-01T09:00:00Z", "", "")
}

#[test]
fn reads_the_contract_request() {
    let r = parse(&good()).expect("valid request");
    assert_eq!(r.issuer_pk.0[0], 0x6b);
    assert_eq!(r.issuer_pk.1[31], 0xf5);
    assert_eq!(r.transcript, [0xa0]);
    assert_eq!(&r.now, b"2024-10-01T09:00:00Z");
    assert_eq!(r.doc_type, "org.iso.18013.5.1.mDL");
    assert_eq!(
        r.attributes,
        [RequestedAttribute {
            namespace: "org.iso.18013.5.1".into(),
            id: "age_over_18".into(),
            value_cbor: vec![0xf5],
        }]
    );
}

#[test]
fn refuses_duplicate_keys() {
    let top = json(
        GX,
        GY,
        "2024-10-01T09:00:00Z",
        r#", "now": "2030-01-01T00:00:00Z""#,
        "",
    );
    assert!(matches!(
        parse(&top),
        Err(RequestError::Json(JsonError::DuplicateKey { key, .. })) if key == "now"
    ));
    let inner = json(
        GX,
        GY,
        "2024-10-01T09:00:00Z",
        "",
        r#", "id": "age_over_21""#,
    );
    assert!(matches!(
        parse(&inner),
        Err(RequestError::Json(JsonError::DuplicateKey { key, .. })) if key == "id"
    ));
}

#[test]
fn refuses_unknown_fields() {
    let top = json(GX, GY, "2024-10-01T09:00:00Z", r#", "nonce": "00""#, "");
    assert_eq!(parse(&top), Err(RequestError::UnknownField("nonce".into())));
    let inner = json(
        GX,
        GY,
        "2024-10-01T09:00:00Z",
        "",
        r#", "intent_to_retain": false"#,
    );
    assert_eq!(
        parse(&inner),
        Err(RequestError::UnknownField(
            "attributes[0].intent_to_retain".into()
        ))
    );
}

#[test]
fn wrong_types_are_not_missing_fields() {
    let s = good().replace(r#""doc_type": "org.iso.18013.5.1.mDL""#, r#""doc_type": 7"#);
    assert_eq!(
        parse(&s),
        Err(RequestError::WrongType {
            field: "doc_type".into(),
            expected: "a string",
            found: "a number",
        })
    );
    let s = good().replace(r#""value_cbor_hex": "f5""#, r#""value_cbor_hex": ["f5"]"#);
    assert!(matches!(
        parse(&s),
        Err(RequestError::WrongType { field, .. }) if field == "attributes[0].value_cbor_hex"
    ));
    let s = good().replace(r#""transcript_hex": "a0", "#, "");
    assert_eq!(
        parse(&s),
        Err(RequestError::MissingField("transcript_hex".into()))
    );
    let s = good().replace(r#""transcript_hex": "a0""#, r#""transcript_hex": "a"#);
    assert!(matches!(parse(&s), Err(RequestError::Json(_))));
    let s = good().replace(r#""transcript_hex": "a0""#, r#""transcript_hex": "a0b""#);
    assert_eq!(
        parse(&s),
        Err(RequestError::BadHex("transcript_hex".into()))
    );
}

#[test]
fn now_must_be_a_real_time() {
    for (now, what) in [
        ("2026-13-45T99:99:99Z", "month"),
        ("2024-10-01T25:61:61Z", "hour"),
        ("2023-02-29T00:00:00Z", "day"),
    ] {
        assert!(
            matches!(
                parse(&json(GX, GY, now, "", "")),
                Err(RequestError::Time(TimeError::OutOfRange { what: w, .. })) if w == what
            ),
            "{now}"
        );
    }
    assert!(matches!(
        parse(&json(GX, GY, "2024-10-01T09:00:00", "", "")),
        Err(RequestError::Time(TimeError::Shape(_)))
    ));
    assert!(parse(&json(GX, GY, "2024-02-29T23:59:59Z", "", "")).is_ok());
}

#[test]
fn issuer_key_must_be_a_canonical_curve_point() {
    // x + p has the same residue as x but is not canonical.
    let x_plus_p = "0x16b17d1f1e12c4248f8bce6e563a440f277037d822deb33a0f4a13945d898c295";
    assert_eq!(
        parse(&json(x_plus_p, GY, "2024-10-01T09:00:00Z", "", "")),
        Err(RequestError::BadCoordinate(Coordinate::X))
    );
    assert_eq!(
        parse(&json(GX, P, "2024-10-01T09:00:00Z", "", "")),
        Err(RequestError::NonCanonicalCoordinate(Coordinate::Y))
    );
    assert_eq!(
        parse(&json(P, GY, "2024-10-01T09:00:00Z", "", "")),
        Err(RequestError::NonCanonicalCoordinate(Coordinate::X))
    );
    let off = GY.replace("51f5", "51f6");
    assert_eq!(
        parse(&json(GX, &off, "2024-10-01T09:00:00Z", "", "")),
        Err(RequestError::NotOnCurve)
    );
    // 65 hex digits with a leading zero (and decimal with leading zeros).
    let padded = GX.replace("0x", "0x0");
    assert!(parse(&json(&padded, GY, "2024-10-01T09:00:00Z", "", "")).is_ok());
    let gx_dec = "48439561293906451759052585252797914202762949526041747995844080717082404635286";
    assert!(parse(&json(
        &format!("000{gx_dec}"),
        GY,
        "2024-10-01T09:00:00Z",
        "",
        ""
    ))
    .is_ok());
    // -G = (x, p - y) is on the curve too.
    let neg_gy = "0xb01cbd1c01e58065711814b583f061e9d431cca994cea1313449bf97c840ae0a";
    assert!(parse(&json(GX, neg_gy, "2024-10-01T09:00:00Z", "", "")).is_ok());
}

#[test]
fn validate_checks_requests_built_in_code() {
    let mut r = parse(&good()).expect("valid");
    assert_eq!(r.validate(), Ok(()));
    r.now = *b"2026-13-45T99:99:99Z";
    assert!(matches!(r.validate(), Err(RequestError::Time(_))));
    r.now = *b"2024-10-01T09:00:00Z";
    r.transcript = vec![0; MAX_TRANSCRIPT_BYTES + 1];
    assert!(matches!(
        r.validate(),
        Err(RequestError::TooLarge {
            what: "transcript",
            ..
        })
    ));
    r.transcript.clear();
    r.issuer_pk.1[31] ^= 1;
    assert_eq!(r.validate(), Err(RequestError::NotOnCurve));
    assert_eq!(
        check_issuer_key(&[0xff; 32], &[0; 32]),
        Err(RequestError::NonCanonicalCoordinate(Coordinate::X))
    );
}

proptest! {
    #[test]
    fn to_json_round_trips(
        transcript in proptest::collection::vec(any::<u8>(), 0..64),
        doc_type in "\\PC{0,40}",
        attrs in proptest::collection::vec(("\\PC{0,20}", "\\PC{0,20}", proptest::collection::vec(any::<u8>(), 0..8)), 0..4),
        y in 0u32..10000, mo in 1u32..13, d in 1u32..29, h in 0u32..24, mi in 0u32..60, s in 0u32..60,
    ) {
        let mut r = parse(&good()).expect("valid");
        r.transcript = transcript;
        r.doc_type = doc_type;
        r.now = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z").into_bytes().try_into().expect("20");
        r.attributes = attrs.into_iter().map(|(namespace, id, value_cbor)| RequestedAttribute { namespace, id, value_cbor }).collect();
        prop_assert_eq!(MdocRequest::from_json(r.to_json().as_bytes()), Ok(r));
    }
}
