//! The hostile corpus (`test-vectors/hostile/`) thrown at the C ABI's
//! entry points, called as C calls them: each file as the circuit
//! (`circuit_id`, `run_mdoc_verifier`, `run_mdoc_prover`), the proof, the
//! DeviceResponse, the issuer key strings, `now`, and `find_zk_spec`'s two
//! strings, the other arguments valid (the synthetic mDL's request, the v7
//! one-attribute circuit). Every call must fail with an error code — not
//! success, not a caught panic — and leave a message in
//! `longfellow_last_error()`. Pointers are never null and lengths always
//! those of the buffers (the caller's side of the contract).
#![allow(unsafe_code)]

use std::ffi::{CStr, CString};
use std::ptr;

use longfellow_testvectors::hostile;
use mdoc_zk::abi::{MdocVerifierErrorCode as V, RequestedAttribute, ZkSpecStruct};
use mdoc_zk::specs::kZkSpecs;

const V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

struct Args {
    circuit: Vec<u8>,
    pkx: CString,
    pky: CString,
    transcript: Vec<u8>,
    attrs: Vec<RequestedAttribute>,
    now: CString,
    doc_type: CString,
    mdoc: Vec<u8>,
    spec: &'static ZkSpecStruct,
}

fn text(bytes: &[u8]) -> CString {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    CString::new(&bytes[..end]).expect("no NUL before end")
}

/// The synthetic mDL's request (first attribute) for the v7 one-attribute
/// circuit.
fn valid() -> Args {
    let case: serde_json::Value = serde_json::from_slice(
        &std::fs::read(
            longfellow_testvectors::workspace_root().join("test-vectors/synthetic/mdl-valid.json"),
        )
        .expect("synthetic vector"),
    )
    .expect("JSON");
    let r = &case["request"];
    let s = |v: &serde_json::Value| text(v.as_str().expect("string").as_bytes());
    let a = &r["attributes"][0];
    let mut attr = RequestedAttribute {
        namespace_id: [0; 64],
        id: [0; 32],
        cbor_value: [0; 64],
        namespace_len: 0,
        id_len: 0,
        cbor_value_len: 0,
    };
    let ns = a["namespace"].as_str().expect("ns").as_bytes();
    let id = a["id"].as_str().expect("id").as_bytes();
    let value = hex::decode(a["value_cbor_hex"].as_str().expect("value")).expect("hex");
    attr.namespace_id[..ns.len()].copy_from_slice(ns);
    attr.id[..id.len()].copy_from_slice(id);
    attr.cbor_value[..value.len()].copy_from_slice(&value);
    (attr.namespace_len, attr.id_len, attr.cbor_value_len) = (ns.len(), id.len(), value.len());
    assert_eq!(kZkSpecs[0].version, 7);
    assert_eq!(kZkSpecs[0].num_attributes, 1);
    Args {
        circuit: longfellow_testvectors::read(&format!("google/mdoc/circuits/{V7_1}.lfa2")),
        pkx: s(&r["pkx"]),
        pky: s(&r["pky"]),
        transcript: hex::decode(r["transcript_hex"].as_str().expect("hex")).expect("hex"),
        attrs: vec![attr],
        now: s(&r["now"]),
        doc_type: s(&r["doc_type"]),
        mdoc: hex::decode(case["mdoc_hex"].as_str().expect("mdoc")).expect("hex"),
        spec: &kZkSpecs[0],
    }
}

fn last_error() -> String {
    // SAFETY: never null, NUL-terminated, valid until the next call.
    unsafe { CStr::from_ptr(mdoc_zk::longfellow_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// The call just made failed cleanly: a message, and not a caught panic.
fn clean_failure(what: &str) {
    let msg = last_error();
    assert!(!msg.is_empty(), "{what}: error code without a message");
    assert!(!msg.contains("caught panic"), "{what}: {msg}");
}

fn verify(a: &Args, proof: &[u8]) -> V {
    // SAFETY: every pointer is valid for its length or NUL-terminated.
    unsafe {
        mdoc_zk::run_mdoc_verifier(
            a.circuit.as_ptr(),
            a.circuit.len(),
            a.pkx.as_ptr(),
            a.pky.as_ptr(),
            a.transcript.as_ptr(),
            a.transcript.len(),
            a.attrs.as_ptr(),
            a.attrs.len(),
            a.now.as_ptr(),
            proof.as_ptr(),
            proof.len(),
            a.doc_type.as_ptr(),
            a.spec,
        )
    }
}

#[cfg(not(feature = "multipaz"))]
fn prove(a: &Args) -> mdoc_zk::abi::MdocProverErrorCode {
    let mut prf: *mut u8 = ptr::null_mut();
    let mut len = 0usize;
    // SAFETY: as in `verify`; the outputs are writable.
    let code = unsafe {
        mdoc_zk::run_mdoc_prover(
            a.circuit.as_ptr(),
            a.circuit.len(),
            a.mdoc.as_ptr(),
            a.mdoc.len(),
            a.pkx.as_ptr(),
            a.pky.as_ptr(),
            a.transcript.as_ptr(),
            a.transcript.len(),
            a.attrs.as_ptr(),
            a.attrs.len(),
            a.now.as_ptr(),
            &mut prf,
            &mut len,
            a.spec,
        )
    };
    assert!(prf.is_null() && len == 0, "outputs set on failure");
    code
}

#[test]
fn circuit_id_and_find_zk_spec_refuse_every_file() {
    let system = c"longfellow-libzk-v1";
    let hash = CString::new(V7_1).expect("hex");
    for (name, bytes) in hostile::files() {
        let mut id = [0u8; 32];
        // SAFETY: `id` is 32 writable bytes; the buffer is `bytes`.
        let ok = unsafe {
            mdoc_zk::circuit_id(id.as_mut_ptr(), bytes.as_ptr(), bytes.len(), ptr::null())
        };
        assert_eq!(ok, 0, "circuit_id {name}");
        clean_failure(&format!("circuit_id {name}"));
        let t = text(&bytes);
        for (what, sys, h) in [
            ("system", t.as_c_str(), hash.as_c_str()),
            ("hash", system, t.as_c_str()),
        ] {
            // SAFETY: both NUL-terminated.
            let found = unsafe { mdoc_zk::find_zk_spec(sys.as_ptr(), h.as_ptr()) };
            assert!(found.is_null(), "find_zk_spec {what} = {name}");
            clean_failure(&format!("find_zk_spec {what} = {name}"));
        }
    }
}

#[test]
fn every_file_as_circuit_key_or_time() {
    longfellow_testvectors::require!();
    for (name, bytes) in hostile::files() {
        let t = text(&bytes);
        let mut cases: Vec<(&str, Args)> = Vec::new();
        cases.push((
            "circuit",
            Args {
                circuit: bytes.clone(),
                ..valid()
            },
        ));
        cases.push((
            "pkx",
            Args {
                pkx: t.clone(),
                ..valid()
            },
        ));
        cases.push((
            "pky",
            Args {
                pky: t.clone(),
                ..valid()
            },
        ));
        cases.push((
            "now",
            Args {
                now: t.clone(),
                ..valid()
            },
        ));
        for (role, a) in cases {
            let code = verify(&a, &[0u8; 64]);
            assert_ne!(code, V::Success, "verifier {role} = {name}");
            clean_failure(&format!("verifier {role} = {name}"));
            #[cfg(not(feature = "multipaz"))]
            {
                let code = prove(&a);
                assert_ne!(
                    code,
                    mdoc_zk::abi::MdocProverErrorCode::Success,
                    "prover {role} = {name}"
                );
                clean_failure(&format!("prover {role} = {name}"));
            }
        }
    }
}

#[test]
fn every_file_as_proof_or_credential() {
    longfellow_testvectors::require!();
    let a = valid();
    for (name, bytes) in hostile::files() {
        assert_ne!(verify(&a, &bytes), V::Success, "proof {name}");
        clean_failure(&format!("verifier proof = {name}"));
        #[cfg(not(feature = "multipaz"))]
        {
            let a = Args {
                mdoc: bytes.clone(),
                ..valid()
            };
            assert_ne!(
                prove(&a),
                mdoc_zk::abi::MdocProverErrorCode::Success,
                "mdoc {name}"
            );
            clean_failure(&format!("prover mdoc = {name}"));
        }
    }
}
