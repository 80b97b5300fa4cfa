//! Request errors say what is wrong in numbers, without any credential.

use longfellow_mdoc_witness::{
    build_witnesses, MacInputs, MdocError, MdocRequest, RequestedAttribute, ZkSpecInfo,
};

#[test]
fn an_attribute_count_mismatch_gives_both_counts() {
    let attribute = |id: &str| RequestedAttribute {
        namespace: "org.iso.18013.5.1".into(),
        id: id.into(),
        value_cbor: vec![0xf5],
    };
    let request = MdocRequest {
        issuer_pk: ([0; 32], [0; 32]),
        transcript: vec![0x80],
        now: *b"2026-06-01T12:00:00Z",
        doc_type: "org.iso.18013.5.1.mDL".into(),
        attributes: vec![attribute("age_over_18"), attribute("age_over_21")],
    };
    let spec = ZkSpecInfo {
        version: 7,
        num_attributes: 1,
    };
    let keys = MacInputs {
        prover_keys: [[1, 2], [3, 4], [5, 6]],
        verifier_key: 7,
    };
    let err = build_witnesses(&spec, &request, b"", &keys).expect_err("mismatch");
    assert_eq!(
        err,
        MdocError::AttributeCount {
            requested: 2,
            circuit: 1
        }
    );
    let text = err.to_string();
    assert!(
        text.contains("names 2 attribute(s)") && text.contains("exactly 1"),
        "{text}"
    );
}
