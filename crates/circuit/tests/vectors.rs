//! Decoding Google's and ISRG's published circuits: every stored circuit ID
//! must equal the recomputed one, and every pair must hash to the ZkSpec
//! circuit hash in its file name (Google's naming, independent of this code).

use longfellow_circuit::{
    decode_lfc2, load_circuit, load_pair, load_pair_with, Circuit, LoadOptions, PairFormat,
};
use longfellow_field::{Field, Fp128, Fp256, Gf2_128};
use longfellow_testvectors::read;

const DIR: &str = "google/mdoc/circuits";
const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

const SPECS: [&str; 8] = {
    let p = longfellow_testvectors::google::MDOC_PROOFS;
    [
        p[0].2, p[1].2, p[2].2, p[3].2, p[4].2, p[5].2, p[6].2, p[7].2,
    ]
};

fn check_file(name: &str, use_catalog: bool) {
    let bytes = read(&format!("{DIR}/{name}"));
    let pair = load_pair_with(&bytes, LoadOptions { use_catalog })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let stem = name.split('.').next().unwrap_or_default();
    assert_eq!(hex(&pair.zkspec_hash), stem, "{name}");
    assert_eq!(pair.sig.compute_id(), *pair.sig.id(), "{name} sig");
    assert_eq!(pair.hash.compute_id(), *pair.hash.id(), "{name} hash");
}

#[test]
fn every_lfa2_identifies_fully() {
    longfellow_testvectors::require!();
    for spec in SPECS {
        check_file(&format!("{spec}.lfa2"), false);
    }
}

#[test]
fn v7_one_attribute_lfc1_forms_identify_fully() {
    longfellow_testvectors::require!();
    check_file(V7_1, false);
    check_file(&format!("{V7_1}.lfa1"), false);
}

/// All 24 files, fully identified and via the catalog (~1 min in release).
#[test]
#[ignore = "slow: decodes 16 LFC1 pairs of ~100 MB twice"]
fn all_shared_files_all_modes() {
    longfellow_testvectors::require!();
    for spec in SPECS {
        for suffix in ["", ".lfa1", ".lfa2"] {
            check_file(&format!("{spec}{suffix}"), false);
            check_file(&format!("{spec}{suffix}"), true);
        }
    }
}

/// Facts the map records for v7/1-attr (from Google's C++ ZkSpec notes).
#[test]
fn v7_one_attribute_dimensions() {
    longfellow_testvectors::require!();
    let pair = load_pair(&read(&format!("{DIR}/{V7_1}.lfa2"))).expect("load");
    assert_eq!(pair.source.format, PairFormat::Lfa2);
    let sig = &pair.sig;
    assert_eq!(sig.num_inputs(), 3739);
    assert_eq!(sig.num_public_inputs(), 900);
    assert_eq!(sig.layers().len(), 21);
    assert_eq!(sig.total_terms(), 481_833);
    let h = &pair.hash;
    assert_eq!(h.num_inputs(), 85_118);
    assert_eq!(h.num_public_inputs(), 952);
    assert_eq!(h.subfield_boundary(), 85_112);
    assert_eq!(h.layers().len(), 17);
    assert_eq!(h.total_terms(), 7_757_579);
    // Ligero witness count nw = (ninputs − npub) + Σ(4·logw + 3) from the map.
    let nw = |c_inputs: usize, npub: usize, logws: Vec<u32>| {
        c_inputs - npub + logws.iter().map(|&l| 4 * l as usize + 3).sum::<usize>()
    };
    let sig_logw: Vec<u32> = sig.layers().iter().map(|l| l.logw()).collect();
    let hash_logw: Vec<u32> = h.layers().iter().map(|l| l.logw()).collect();
    assert_eq!(nw(3739, 900, sig_logw), 3986);
    assert_eq!(nw(85_118, 952, hash_logw), 85_349);
}

/// The LFC1 and LFA2 forms decode to the same terms.
#[test]
fn lfc1_and_lfc2_forms_agree_term_by_term() {
    longfellow_testvectors::require!();
    let a = load_pair(&read(&format!("{DIR}/{V7_1}"))).expect("lfc1");
    let b = load_pair(&read(&format!("{DIR}/{V7_1}.lfa2"))).expect("lfa2");
    fn same<F: Field>(x: &Circuit<F>, y: &Circuit<F>) {
        assert_eq!(x.layers().len(), y.layers().len());
        let (mut ex, mut ey) = (Vec::new(), Vec::new());
        for (lx, ly) in x.layers().iter().zip(y.layers()) {
            assert_eq!((lx.logw(), lx.nw()), (ly.logw(), ly.nw()));
            lx.expand_terms(&mut ex);
            ly.expand_terms(&mut ey);
            assert!(ex == ey);
            assert!(lx.terms().eq(ey.iter().copied()));
            let mut n = 0;
            lx.for_each_term(|t| {
                assert_eq!(Some(&t), ey.get(n));
                n += 1;
            });
            assert_eq!(n, ly.num_terms());
        }
    }
    same(&a.sig, &b.sig);
    same(&a.hash, &b.hash);
}

#[test]
fn spec_lfc2_circuits_verify_their_ids() {
    longfellow_testvectors::require!();
    let sha = decode_lfc2::<Gf2_128>(&read("google/spec/sha256_circuit.lfc2")).expect("sha256");
    assert!(sha.total_terms() > 0);
    let ecdsa = decode_lfc2::<Fp256>(&read("google/spec/ecdsa2_circuit.lfc2")).expect("ecdsa2");
    assert!(ecdsa.total_terms() > 0);
    // load_circuit sniffs the same bytes.
    let again = load_circuit::<Fp256>(&read("google/spec/ecdsa2_circuit.lfc2")).expect("sniff");
    assert_eq!(again.id(), ecdsa.id());
    // The wrong field is a typed error.
    assert!(decode_lfc2::<Gf2_128>(&read("google/spec/ecdsa2_circuit.lfc2")).is_err());
}

#[test]
fn isrg_compressed_lfc1_circuits_verify_their_ids() {
    longfellow_testvectors::require!();
    let mac = load_circuit::<Gf2_128>(&read(
        "isrg/one-circuit/longfellow-mac-circuit-66aeaf09a9cc98e36873e868307ac07279d5f7e0-1.circuit.zst",
    ))
    .expect("mac");
    assert!(mac.total_terms() > 0);
    let rfc = load_circuit::<Fp128>(&read(
        "isrg/one-circuit/longfellow-rfc-1-87474f308020535e57a778a82394a14106f8be5b.circuit.zst",
    ))
    .expect("rfc-1");
    assert!(rfc.total_terms() > 0);
}

#[test]
fn a_truncated_lfa2_says_truncated_not_a_decoder_dump() {
    longfellow_testvectors::require!();
    let bytes = read(&format!("{DIR}/{V7_1}.lfa2"));
    for cut in [bytes.len() / 2, bytes.len() - 100] {
        let err = load_pair(&bytes[..cut]).expect_err("truncated").to_string();
        assert!(err.contains("truncated"), "cut at {cut}: {err}");
        assert!(
            !err.contains("Error {") && !err.contains("kind:"),
            "cut at {cut}: {err}"
        );
    }
}

#[test]
fn a_single_lfc2_circuit_is_named_as_such_where_a_pair_is_expected() {
    longfellow_testvectors::require!();
    let bytes = read("google/spec/sha256_circuit.lfc2");
    let err = load_pair(&bytes).expect_err("single circuit").to_string();
    assert!(
        err.contains("single LFC2 circuit, not a circuit pair"),
        "{err}"
    );
}
