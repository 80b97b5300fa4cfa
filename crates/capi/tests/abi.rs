//! The exported functions called as C would call them (raw pointers), on
//! Google's stored proofs and a fresh proof of the same statement.
#![allow(unsafe_code)]

use std::ffi::{c_char, CStr, CString};
use std::ptr;

use mdoc_zk::abi::{
    CircuitGenerationErrorCode as G, MdocProverErrorCode as P, MdocVerifierErrorCode as V,
    RequestedAttribute, ZkSpecStruct,
};
use mdoc_zk::specs::kZkSpecs;

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
const NAMESPACE: &str = "org.iso.18013.5.1";

struct Case {
    pkx: CString,
    pky: CString,
    now: CString,
    doc_type: CString,
    transcript: Vec<u8>,
    mdoc: Vec<u8>,
}

fn case() -> Case {
    let c =
        longfellow_testvectors::google::mdoc_case(longfellow_testvectors::google::REFERENCE_CASE);
    let coordinate = |xy: [u8; 32]| CString::new(format!("0x{}", hex::encode(xy))).expect("no NUL");
    Case {
        pkx: coordinate(c.pkx),
        pky: coordinate(c.pky),
        now: CString::new("2024-10-01T09:00:00Z").expect("no NUL"),
        doc_type: CString::new(c.doc_type).expect("no NUL"),
        transcript: c.transcript,
        mdoc: c.mdoc,
    }
}

fn attr(id: &str, value: &[u8]) -> RequestedAttribute {
    let mut a = RequestedAttribute {
        namespace_id: [0; 64],
        id: [0; 32],
        cbor_value: [0; 64],
        namespace_len: NAMESPACE.len(),
        id_len: id.len(),
        cbor_value_len: value.len(),
    };
    a.namespace_id[..NAMESPACE.len()].copy_from_slice(NAMESPACE.as_bytes());
    a.id[..id.len()].copy_from_slice(id.as_bytes());
    a.cbor_value[..value.len()].copy_from_slice(value);
    a
}

fn attributes(n: usize) -> Vec<RequestedAttribute> {
    let date = |s: &str| [&[0xd9, 0x03, 0xec, 0x6a][..], s.as_bytes()].concat();
    let all = [
        attr("family_name", b"\x6aMustermann"),
        attr("birth_date", &date("1971-09-01")),
        attr("issue_date", &date("2024-03-15")),
        attr("height", &[0x18, 0xaf]),
    ];
    all[..n].to_vec()
}

fn spec_of(hash: &str) -> &'static ZkSpecStruct {
    let sys = CString::new("longfellow-libzk-v1").expect("no NUL");
    let h = CString::new(hash).expect("no NUL");
    // SAFETY: both are NUL-terminated strings.
    let p = unsafe { mdoc_zk::find_zk_spec(sys.as_ptr(), h.as_ptr()) };
    // SAFETY: non-null results point into the 'static table.
    unsafe { p.as_ref() }.expect("spec in the table")
}

fn last_error() -> String {
    // SAFETY: never null, NUL-terminated, valid until the next call.
    unsafe { CStr::from_ptr(mdoc_zk::longfellow_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn verify(
    circuit: &[u8],
    c: &Case,
    attrs: &[RequestedAttribute],
    proof: &[u8],
    spec: *const ZkSpecStruct,
) -> V {
    // SAFETY: every pointer is valid for its length or NUL-terminated.
    unsafe {
        mdoc_zk::run_mdoc_verifier(
            circuit.as_ptr(),
            circuit.len(),
            c.pkx.as_ptr(),
            c.pky.as_ptr(),
            c.transcript.as_ptr(),
            c.transcript.len(),
            attrs.as_ptr(),
            attrs.len(),
            c.now.as_ptr(),
            proof.as_ptr(),
            proof.len(),
            c.doc_type.as_ptr(),
            spec,
        )
    }
}

fn prove(
    circuit: &[u8],
    c: &Case,
    attrs: &[RequestedAttribute],
    spec: *const ZkSpecStruct,
) -> Result<Vec<u8>, P> {
    let mut prf: *mut u8 = ptr::null_mut();
    let mut len = 0usize;
    // SAFETY: every pointer is valid for its length or NUL-terminated;
    // outputs are writable.
    let code = unsafe {
        mdoc_zk::run_mdoc_prover(
            circuit.as_ptr(),
            circuit.len(),
            c.mdoc.as_ptr(),
            c.mdoc.len(),
            c.pkx.as_ptr(),
            c.pky.as_ptr(),
            c.transcript.as_ptr(),
            c.transcript.len(),
            attrs.as_ptr(),
            attrs.len(),
            c.now.as_ptr(),
            &mut prf,
            &mut len,
            #[cfg(feature = "multipaz")]
            c.doc_type.as_ptr(),
            spec,
        )
    };
    if code != P::Success {
        assert!(prf.is_null());
        return Err(code);
    }
    // SAFETY: on success `prf` holds `len` malloc'ed bytes, released below.
    let proof = unsafe { std::slice::from_raw_parts(prf, len) }.to_vec();
    // SAFETY: `prf` came from the library's malloc.
    unsafe { mdoc_zk::free_mdoc_proof(prf, len) };
    Ok(proof)
}

fn circuit(hash: &str) -> Vec<u8> {
    longfellow_testvectors::read(&format!("google/mdoc/circuits/{hash}"))
}

#[test]
fn stored_v7_proof_verifies_and_errors_get_their_codes() {
    longfellow_testvectors::require!();
    let c = case();
    let bcp = circuit(V7_1);
    let proof = longfellow_testvectors::read(&format!("google/mdoc/proofs/{V7_1}.bin"));
    let spec = spec_of(V7_1);
    let attrs = attributes(1);
    assert_eq!(
        verify(&bcp, &c, &attrs, &proof, spec),
        V::Success,
        "{}",
        last_error()
    );
    assert_eq!(last_error(), "");

    let mut bad = proof.clone();
    bad[0] ^= 1;
    assert_eq!(verify(&bcp, &c, &attrs, &bad, spec), V::GeneralFailure);
    assert!(last_error().contains("rejected"), "{}", last_error());
    assert_eq!(
        verify(&bcp, &c, &attrs, &proof[..50], spec),
        V::ProofTooSmall
    );
    assert_eq!(
        verify(&bcp[..1000], &c, &attrs, &proof, spec),
        V::CircuitParsingFailure
    );
    assert_eq!(verify(&bcp, &c, &attrs, &proof, ptr::null()), V::NullInput);
    assert_eq!(
        verify(&bcp, &c, &attributes(2), &proof, spec),
        V::AttributeNumberMismatch
    );
    // A v6 spec with the v7 circuit.
    assert_eq!(
        verify(&bcp, &c, &attrs, &proof, &kZkSpecs[4]),
        V::InvalidZkSpecVersion
    );
    let mut long = attrs.clone();
    long[0].cbor_value_len = 65;
    assert_eq!(verify(&bcp, &c, &long, &proof, spec), V::InvalidInput);
    assert!(
        last_error().contains("exceeds its 64-byte field"),
        "{}",
        last_error()
    );
    // A spec named by version and attribute count only (Multipaz style).
    let mut by_version = *spec;
    by_version.circuit_hash = [0; 65];
    assert_eq!(verify(&bcp, &c, &attrs, &proof, &by_version), V::Success);
}

#[test]
fn fresh_proof_verifies_and_prover_errors_get_their_codes() {
    longfellow_testvectors::require!();
    let c = case();
    let bcp = circuit(V7_1);
    let spec = spec_of(V7_1);
    let attrs = attributes(1);
    let proof = prove(&bcp, &c, &attrs, spec).unwrap_or_else(|e| panic!("{e:?}: {}", last_error()));
    assert_eq!(verify(&bcp, &c, &attrs, &proof, spec), V::Success);

    let missing = [attr("age_over_99", &[0xf5])];
    assert_eq!(prove(&bcp, &c, &missing, spec), Err(P::AttributeNotFound));
    let mut long = attrs.clone();
    long[0].id_len = 40;
    assert_eq!(prove(&bcp, &c, &long, spec), Err(P::AttributeTooLong));
    assert_eq!(
        prove(&bcp[..1000], &c, &attrs, spec),
        Err(P::CircuitParsingFailure)
    );
    assert_eq!(prove(&bcp, &c, &attrs, ptr::null()), Err(P::NullInput));
    let mut short_now = case();
    short_now.now = CString::new("2024-10-01").expect("no NUL");
    assert_eq!(prove(&bcp, &short_now, &attrs, spec), Err(P::InvalidInput));
}

#[test]
fn credential_structure_failures_get_googles_specific_codes() {
    longfellow_testvectors::require!();
    let bcp = circuit(V7_1);
    let spec = spec_of(V7_1);
    let attrs = attributes(1);
    let mut c = case();
    let mut documents = vec![0xa1, 0x69];
    documents.extend_from_slice(b"documents");
    for (mdoc, code) in [
        (vec![0xff], P::RootDecodingFailure),
        (vec![0xa0], P::DocumentsMissing),
        ([&documents[..], &[0x80]].concat(), P::Document0Missing),
        ([&documents[..], &[0x81, 0xa0]].concat(), P::DoctypeMissing),
    ] {
        c.mdoc = mdoc;
        assert_eq!(prove(&bcp, &c, &attrs, spec), Err(code), "{}", last_error());
    }
}

#[test]
fn circuit_id_names_every_circuit_file_and_needs_no_spec() {
    longfellow_testvectors::require!();
    for s in kZkSpecs.iter().filter(|s| s.version >= 6) {
        let hash = mdoc_zk::specs::hash_str(s).expect("ascii");
        for suffix in ["", ".lfa1", ".lfa2"] {
            let bytes =
                longfellow_testvectors::read(&format!("google/mdoc/circuits/{hash}{suffix}"));
            let mut id = [0u8; 32];
            // SAFETY: `id` is 32 writable bytes, `bytes` readable.
            let ok = unsafe {
                mdoc_zk::circuit_id(id.as_mut_ptr(), bytes.as_ptr(), bytes.len(), ptr::null())
            };
            assert_eq!(ok, 1, "{hash}{suffix}: {}", last_error());
            assert_eq!(hex::encode(id), hash);
        }
    }
    let mut id = [0u8; 32];
    // SAFETY: null circuit pointer is refused before any read.
    assert_eq!(
        unsafe { mdoc_zk::circuit_id(id.as_mut_ptr(), ptr::null(), 5, ptr::null()) },
        0
    );
}

#[test]
fn generate_circuit_is_refused_clearly() {
    let mut cb: *mut u8 = ptr::null_mut();
    let mut len = 7usize;
    // SAFETY: outputs writable, spec from the table.
    let code = unsafe { mdoc_zk::generate_circuit(&kZkSpecs[0], &mut cb, &mut len) };
    assert_eq!(code, G::GeneralFailure);
    assert!(cb.is_null() && len == 0);
    assert!(last_error().contains("not supported"));
    // SAFETY: null spec is refused before any read.
    assert_eq!(
        unsafe { mdoc_zk::generate_circuit(ptr::null(), &mut cb, &mut len) },
        G::NullInput
    );
}

#[test]
fn find_zk_spec_by_attributes_picks_the_newest_or_the_named_version() {
    let mut out = kZkSpecs[11];
    // SAFETY: `out` is writable.
    assert_eq!(
        unsafe { mdoc_zk::find_zk_spec_by_attributes(3, 0, &mut out) },
        0
    );
    assert_eq!(
        (out.version, out.num_attributes, out.block_enc_hash),
        (7, 3, 4307)
    );
    // SAFETY: as above.
    assert_eq!(
        unsafe { mdoc_zk::find_zk_spec_by_attributes(2, 5, &mut out) },
        0
    );
    assert_eq!((out.version, out.num_attributes), (5, 2));
    // SAFETY: as above.
    assert_eq!(
        unsafe { mdoc_zk::find_zk_spec_by_attributes(5, 0, &mut out) },
        -1
    );
    // SAFETY: a null output is refused before any write.
    assert_eq!(
        unsafe { mdoc_zk::find_zk_spec_by_attributes(1, 0, ptr::null_mut()) },
        -1
    );
    let sys = CString::new("other-system").expect("no NUL");
    let h = CString::new(V7_1).expect("no NUL");
    // SAFETY: NUL-terminated strings.
    assert!(unsafe { mdoc_zk::find_zk_spec(sys.as_ptr(), h.as_ptr()) }.is_null());
    let _: *const c_char = mdoc_zk::longfellow_last_error();
}

#[test]
fn errors_are_per_thread_and_calls_run_concurrently() {
    longfellow_testvectors::require!();
    let c = case();
    let bcp = circuit(V7_1);
    let proof = longfellow_testvectors::read(&format!("google/mdoc/proofs/{V7_1}.bin"));
    let spec = spec_of(V7_1);
    std::thread::scope(|s| {
        let good = s.spawn(|| (verify(&bcp, &c, &attributes(1), &proof, spec), last_error()));
        let bad = s.spawn(|| {
            (
                verify(&bcp, &c, &attributes(1), &proof[..10], spec),
                last_error(),
            )
        });
        let (g, gm) = good.join().expect("thread");
        let (b, bm) = bad.join().expect("thread");
        assert_eq!((g, gm.as_str()), (V::Success, ""));
        assert_eq!(b, V::ProofTooSmall);
        assert!(bm.contains("shorter"), "{bm}");
    });
}
