//! `circuits/manifest.json` is the catalog's source of truth: the
//! compiled-in `catalog_data.rs` must be what the generator renders from it,
//! its block sizes must be the ZkSpec table's, and (with the vectors) the
//! files it pins must be the published ones.

use std::path::PathBuf;
use std::process::Command;

use sha2::{Digest, Sha256};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn manifest() -> serde_json::Value {
    let text = std::fs::read_to_string(root().join("circuits/manifest.json")).expect("manifest");
    serde_json::from_str(&text).expect("manifest is JSON")
}

/// Without white space and trailing commas: rustfmt's layout of the same
/// tokens compares equal.
fn squeeze(s: &str) -> String {
    let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    t.replace(",]", "]").replace(",}", "}").replace(",)", ")")
}

#[test]
fn the_compiled_catalog_is_rendered_from_the_manifest() {
    let out = Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .args(["circuit", "catalog", "--manifest"])
        .arg(root().join("circuits/manifest.json"))
        .output()
        .expect("run");
    assert!(out.status.success(), "{out:?}");
    let rendered = String::from_utf8(out.stdout).expect("utf-8");
    let committed =
        std::fs::read_to_string(root().join("crates/circuit/src/catalog_data.rs")).expect("read");
    // Compared without white space: the committed file is rustfmt's layout.
    assert!(
        squeeze(&rendered) == squeeze(&committed),
        "crates/circuit/src/catalog_data.rs is not generated from circuits/manifest.json; \
         regenerate it (circuits/README.md, \"Changing it\")"
    );
}

#[test]
fn block_sizes_are_the_zkspec_tables() {
    for c in manifest()["circuits"].as_array().expect("circuits") {
        let v = c["version"].as_u64().expect("version") as u32;
        let n = c["attributes"].as_u64().expect("attributes") as usize;
        let spec = longfellow_mdoc::ZkSpec::for_version(v, n).expect("known ZkSpec");
        assert_eq!(
            spec.circuit_hash_hex(),
            c["zkspec_hash"].as_str().expect("hash")
        );
        assert_eq!(
            Some(spec.block_enc_hash as u64),
            c["block_enc_hash"].as_u64()
        );
        assert_eq!(Some(spec.block_enc_sig as u64), c["block_enc_sig"].as_u64());
    }
}

#[test]
fn the_pinned_files_are_the_published_ones() {
    longfellow_testvectors::require!();
    let mut checked = 0;
    for c in manifest()["circuits"].as_array().expect("circuits") {
        for f in c["files"].as_array().expect("files") {
            let name = f["name"].as_str().expect("name");
            let bytes = longfellow_testvectors::read(&format!("google/mdoc/circuits/{name}"));
            assert_eq!(Some(bytes.len() as u64), f["size"].as_u64(), "{name}");
            assert_eq!(
                hex::encode(Sha256::digest(&bytes)),
                f["sha256"].as_str().expect("sha"),
                "{name}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 24);
}
