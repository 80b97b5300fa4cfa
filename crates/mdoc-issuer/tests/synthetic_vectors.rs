//! `test-vectors/synthetic/` is what the generator makes, and every request
//! in it meets its recorded outcome in the witness builder (which checks
//! everything the circuits assert, both signatures included).

mod common;

#[path = "../examples/test_vectors.rs"]
#[allow(dead_code)]
mod generator;

use longfellow_mdoc_witness::{build_witnesses, MdocError, ZkSpecInfo};

fn dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-vectors/synthetic")
}

#[test]
fn the_committed_files_are_the_generators_output() {
    let made = generator::vectors().expect("generate");
    assert_eq!(made.len(), 10);
    for (file, text) in &made {
        let committed = std::fs::read_to_string(dir().join(file)).unwrap_or_else(|e| {
            panic!("test-vectors/synthetic/{file}: {e} (regenerate: test-vectors/README.md)")
        });
        assert!(
            committed == *text,
            "test-vectors/synthetic/{file} differs from the generator's output"
        );
    }
    let on_disk = std::fs::read_dir(dir()).expect("dir").count();
    assert_eq!(
        on_disk,
        made.len(),
        "files in test-vectors/synthetic that the generator does not make"
    );
}

#[test]
fn every_request_meets_its_recorded_outcome() {
    for (file, text) in generator::vectors().expect("generate") {
        let v: serde_json::Value = serde_json::from_str(&text).expect("json");
        let request = common::request_from_json(&v["request"].to_string());
        let mdoc = hex::decode(v["mdoc_hex"].as_str().expect("mdoc_hex")).expect("hex");
        let spec = ZkSpecInfo {
            version: 7,
            num_attributes: request.attributes.len(),
        };
        let got = build_witnesses(&spec, &request, &mdoc, &common::KEYS);
        let name = file.trim_end_matches(".json");
        match name.rsplit_once('-').map(|(_, kind)| kind) {
            Some("valid") => assert!(got.is_ok(), "{name}: {:?}", got.err()),
            Some("wrong_issuer_key") => {
                assert_eq!(
                    got.err(),
                    Some(MdocError::SignatureFailure("issuer")),
                    "{name}"
                )
            }
            Some("wrong_transcript") => {
                assert_eq!(
                    got.err(),
                    Some(MdocError::SignatureFailure("device")),
                    "{name}"
                )
            }
            Some("expired") => assert!(
                matches!(got, Err(MdocError::NotValidAt { .. })),
                "{name}: {:?}",
                got.err()
            ),
            Some("wrong_doc_type") => {
                assert!(
                    matches!(got, Err(MdocError::DocTypeMismatch { .. })),
                    "{name}: {:?}",
                    got.err()
                )
            }
            other => panic!("{name}: unknown kind {other:?}"),
        }
    }
}
