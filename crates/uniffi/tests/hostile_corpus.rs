//! The hostile corpus (`test-vectors/hostile/`) thrown at the UniFFI API
//! (and through it at `longfellow-bindings-core`, which it wraps): each
//! file as circuit bytes, as a proof, as a DeviceResponse, as the issuer
//! key strings, `now` and an attribute's value, the rest valid (the
//! synthetic mDL's request, the v7 one-attribute circuit). Every call must
//! return the typed error of its kind with a message — never `Internal`,
//! never a panic.
//!
//! The wasm API (`crates/wasm`) is the same core behind `JsValue`
//! conversions, which only run on a wasm32 target; it is not exercised
//! from the host.

use std::sync::Arc;

use longfellow_testvectors::hostile;
use longfellow_uniffi::{Attribute, Circuit, LongfellowError, Statement};

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

fn synthetic() -> serde_json::Value {
    serde_json::from_slice(
        &std::fs::read(
            longfellow_testvectors::workspace_root().join("test-vectors/synthetic/mdl-valid.json"),
        )
        .expect("synthetic vector"),
    )
    .expect("JSON")
}

/// The synthetic mDL's request, first attribute only.
fn statement() -> Statement {
    let case = synthetic();
    let r = &case["request"];
    let s = |k: &str| r[k].as_str().expect(k).to_owned();
    let a = &r["attributes"][0];
    Statement {
        issuer_pkx: s("pkx"),
        issuer_pky: s("pky"),
        transcript: hex::decode(s("transcript_hex")).expect("hex"),
        attributes: vec![Attribute {
            namespace: a["namespace"].as_str().expect("ns").to_owned(),
            identifier: a["id"].as_str().expect("id").to_owned(),
            value_cbor: hex::decode(a["value_cbor_hex"].as_str().expect("v")).expect("hex"),
        }],
        now: s("now"),
        doc_type: s("doc_type"),
    }
}

/// The error's kind name, after checking it carries a message and is not
/// `Internal`.
fn kind(what: &str, e: &LongfellowError) -> &'static str {
    let (kind, detail) = match e {
        LongfellowError::InvalidArgument { detail } => ("InvalidArgument", detail),
        LongfellowError::Circuit { detail } => ("Circuit", detail),
        LongfellowError::ProverRefused { detail } => ("ProverRefused", detail),
        LongfellowError::MalformedProof { detail } => ("MalformedProof", detail),
        LongfellowError::ProofRejected { detail } => ("ProofRejected", detail),
        LongfellowError::Internal { detail } => panic!("{what}: Internal: {detail}"),
    };
    assert!(!detail.is_empty(), "{what}: {kind} without a message");
    kind
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn circuit_load_refuses_every_file() {
    for (name, bytes) in hostile::files() {
        match Circuit::load(bytes) {
            Err(e) => assert_eq!(kind(&format!("load {name}"), &e), "Circuit", "{name}"),
            Ok(_) => panic!("load {name}: accepted"),
        }
    }
}

#[test]
fn every_file_as_proof_credential_key_time_or_value() {
    longfellow_testvectors::require!();
    let circuit: Arc<Circuit> = Circuit::load(longfellow_testvectors::read(&format!(
        "google/mdoc/circuits/{V7_1}.lfa2"
    )))
    .expect("the v7 circuit loads");
    let mdoc = hex::decode(synthetic()["mdoc_hex"].as_str().expect("mdoc")).expect("hex");
    for (name, bytes) in hostile::files() {
        let e = circuit
            .verify(statement(), bytes.clone())
            .expect_err("a hostile proof is refused");
        let k = kind(&format!("verify proof = {name}"), &e);
        assert!(
            matches!(k, "MalformedProof" | "ProofRejected"),
            "proof {name}: {e}"
        );

        let e = circuit
            .prove(bytes.clone(), statement())
            .expect_err("a hostile DeviceResponse is refused");
        assert_eq!(
            kind(&format!("prove mdoc = {name}"), &e),
            "ProverRefused",
            "{e}"
        );

        for role in ["pkx", "pky", "now"] {
            let mut st = statement();
            match role {
                "pkx" => st.issuer_pkx = text(&bytes),
                "pky" => st.issuer_pky = text(&bytes),
                _ => st.now = text(&bytes),
            }
            let e = circuit
                .verify(st.clone(), vec![0; 64])
                .expect_err("refused");
            assert_eq!(
                kind(&format!("verify {role} = {name}"), &e),
                "InvalidArgument",
                "{e}"
            );
            let e = circuit.prove(mdoc.clone(), st).expect_err("refused");
            assert_eq!(
                kind(&format!("prove {role} = {name}"), &e),
                "InvalidArgument",
                "{e}"
            );
        }

        let mut st = statement();
        st.attributes[0].value_cbor = bytes.clone();
        let e = circuit
            .prove(mdoc.clone(), st)
            .expect_err("a value the credential does not hold is refused");
        let k = kind(&format!("prove value = {name}"), &e);
        assert!(
            matches!(k, "ProverRefused" | "InvalidArgument"),
            "value {name}: {e}"
        );
    }
}
