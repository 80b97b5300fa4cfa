//! Google's two example requests (reference/verifier-service/server/examples)
//! decode to what their CBOR says, and re-encode to the same bytes.

use base64::Engine;
use longfellow_mdoc::ZkSpec;
use longfellow_mdoc_response::{decode, encode, X5Chain};

fn example(name: &str) -> (Vec<u8>, Vec<u8>) {
    let path = format!(
        "{}/../../test-vectors/google-examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read(&path).expect("example file");
    let json: serde_json::Value = serde_json::from_slice(&text).expect("JSON");
    let b64 = |k: &str| {
        base64::engine::general_purpose::STANDARD
            .decode(json[k].as_str().expect("string"))
            .expect("base64")
    };
    (b64("Transcript"), b64("ZKDeviceResponseCBOR"))
}

#[test]
fn post1_and_post2_decode() {
    for (name, version, timestamp, proof_len) in [
        ("post1.json", 6, "2025-12-01T23:59:59Z", 323_292),
        ("post2.json", 7, "2026-01-12T23:59:59Z", 362_132),
    ] {
        let (transcript, cbor) = example(name);
        assert_eq!(transcript.len(), 61);
        let r = decode(&cbor).expect("decodes");
        assert_eq!(
            (r.version.as_str(), r.status, r.documents.len()),
            ("1.0", 0, 1)
        );
        let doc = &r.documents[0];
        assert_eq!(doc.proof.len(), proof_len);
        let d = &doc.data;
        assert_eq!(d.doc_type, "org.iso.18013.5.1.mDL");
        assert_eq!(d.timestamp.as_str(), timestamp);
        let spec = d.zk_system_id.resolve().expect("known circuit");
        assert_eq!(spec, ZkSpec::for_version(version, 1).expect("spec"));
        match &d.mso_x5chain {
            X5Chain::Single(c) => {
                assert_eq!(c.len(), 718);
                assert_eq!(c[0], 0x30);
            }
            X5Chain::Array(_) => panic!("{name}: expected one bstr"),
        }
        assert_eq!(d.issuer_signed.len(), 1);
        let ns = &d.issuer_signed[0];
        assert_eq!(ns.name, "org.iso.18013.5.1");
        assert_eq!(ns.elements.len(), 1);
        assert_eq!(ns.elements[0].id, "age_over_18");
        assert_eq!(ns.elements[0].value_cbor, [0xf5]);
        assert_eq!(d.device_signed, None);
        assert_eq!(
            encode(&r).expect("encodes"),
            cbor,
            "{name} re-encodes byte for byte"
        );
    }
}
