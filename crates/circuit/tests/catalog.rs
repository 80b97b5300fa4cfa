//! The compiled-in catalog agrees with the files it describes.

use longfellow_circuit::catalog::{self, ZKSPECS};
use longfellow_circuit::{load_pair, load_pair_with, LoadOptions};
use longfellow_testvectors::read;
use sha2::{Digest, Sha256};

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn every_known_zkspec_is_listed_once() {
    for spec in ZKSPECS {
        let n = catalog::entries()
            .iter()
            .filter(|e| hex(&e.zkspec_hash) == spec.hash_hex)
            .count();
        assert_eq!(n, 1, "{}", spec.hash_hex);
    }
    // Google publishes files for versions 6 and 7 only.
    for e in catalog::entries() {
        assert_eq!(e.files.is_empty(), e.version == 5, "v{}", e.version);
    }
}

#[test]
fn catalogued_files_match_the_shared_files() {
    longfellow_testvectors::require!();
    for e in catalog::entries() {
        for f in e.files {
            let name = format!(
                "google/mdoc/circuits/{}{}",
                hex(&e.zkspec_hash),
                f.form.suffix()
            );
            let bytes = read(&name);
            assert_eq!(bytes.len() as u64, f.size, "{name}");
            assert_eq!(<[u8; 32]>::from(Sha256::digest(&bytes)), f.sha256, "{name}");
        }
    }
}

#[test]
fn catalogued_file_skips_id_recomputation_and_reports_its_spec() {
    longfellow_testvectors::require!();
    let name = "google/mdoc/circuits/6a5810683e62b6d7766ebd0d7ca72518a2b8325418142adcadb10d51dbbcd5ad.lfa2";
    let bytes = read(name);
    let p = load_pair(&bytes).expect("catalogued");
    assert!(!p.source.ids_recomputed);
    let e = p.catalog.expect("entry");
    assert_eq!((e.version, e.attributes), (7, 2));
    let q = load_pair_with(&bytes, LoadOptions { use_catalog: false }).expect("full");
    assert!(q.source.ids_recomputed);
    // Fully identified, the pair still finds its catalog entry by hash.
    assert_eq!(q.catalog.map(|e| e.version), Some(7));
    assert_eq!(p.zkspec_hash, q.zkspec_hash);
}

#[test]
fn generator_refuses_a_file_named_for_another_circuit() {
    longfellow_testvectors::require!();
    // Removed when the test ends, also when an assertion fails.
    let tmp = tempfile::Builder::new()
        .prefix("longfellow-catalog-")
        .tempdir()
        .expect("tmp");
    let dir = tmp.path();
    let bytes = read(
        "google/mdoc/circuits/137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6.lfa2",
    );
    // v6/1-attr contents under the v7/1-attr name.
    let wrong = dir.join("8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121.lfa2");
    std::fs::write(&wrong, &bytes).expect("write");
    let r = catalog::generate(dir);
    assert!(
        matches!(r, Err(catalog::CatalogGenError::Mismatch { .. })),
        "{r:?}"
    );
    // Under its own name it is accepted and listed.
    std::fs::remove_file(&wrong).expect("rm");
    let right = dir.join("137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6.lfa2");
    std::fs::write(&right, &bytes).expect("write");
    let src = catalog::generate(dir).expect("generate");
    assert!(src.contains("FileForm::Lfa2"));
    assert!(src.contains(&format!("size: {},", bytes.len())));
}
