//! The C ABI's entry points (`run_mdoc_verifier`, `run_mdoc_prover`,
//! `circuit_id`, `find_zk_spec`) called as C would, with every buffer built
//! from the input: pointers are never null and every length is the length
//! of the buffer passed (null pointers and lengths past a buffer are the
//! caller's contract, not input); everything else — circuit bytes, issuer
//! key strings, transcript, `now`, docType, proof, DeviceResponse, the
//! attribute array and its declared lengths, the spec struct — is
//! arbitrary. Every failure must be an error code with a non-empty
//! `longfellow_last_error()`, and never a caught panic.
//!
//! Input layout (`Input`): a selector byte (entry point), a spec byte
//! (a `kZkSpecs` row, or a row with its version and attribute count taken
//! from the input), an attribute count, then length-prefixed fields.
//! Circuits come from the input, so they are small and uncatalogued and
//! each execution is fast; the seeds (`.ci/fuzz.sh`) carry a real request.
#![cfg_attr(feature = "libfuzzer", no_main)]
#![allow(unsafe_code)]

use std::ffi::{CStr, CString};

use mdoc_zk::abi::{MdocProverErrorCode, MdocVerifierErrorCode, RequestedAttribute, ZkSpecStruct};
use mdoc_zk::specs::{kZkSpecs, NUM_ZK_SPECS};

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("capi", run);
}

/// Splits the input into fields: a byte, or a 2-byte little-endian length
/// and that many bytes (fewer at the end of the input).
struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }
    fn field(&mut self) -> &'a [u8] {
        let n = usize::from(u16::from_le_bytes([self.byte(), self.byte()])).min(self.0.len());
        let (f, rest) = self.0.split_at(n);
        self.0 = rest;
        f
    }
    /// A C string: the field up to its first NUL.
    fn text(&mut self) -> CString {
        let f = self.field();
        let end = f.iter().position(|&b| b == 0).unwrap_or(f.len());
        CString::new(&f[..end]).unwrap_or_default()
    }
    /// An attribute whose declared lengths are input bytes (possibly past
    /// the fixed fields, which the library must refuse).
    fn attribute(&mut self) -> RequestedAttribute {
        let mut a = RequestedAttribute {
            namespace_id: [0; 64],
            id: [0; 32],
            cbor_value: [0; 64],
            namespace_len: 0,
            id_len: 0,
            cbor_value_len: 0,
        };
        for (buf, len) in [
            (&mut a.namespace_id[..], &mut a.namespace_len),
            (&mut a.id[..], &mut a.id_len),
            (&mut a.cbor_value[..], &mut a.cbor_value_len),
        ] {
            // The fixed fields are always fully readable, so any declared
            // length is within the caller's contract.
            let f = self.field();
            let n = f.len().min(buf.len());
            buf[..n].copy_from_slice(&f[..n]);
            *len = usize::from(self.byte());
        }
        a
    }
}

fn last_error() -> String {
    // SAFETY: never null, NUL-terminated, valid until the next call.
    unsafe { CStr::from_ptr(mdoc_zk::longfellow_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// A failed call left a message, and it is not a caught panic.
fn check_failure(what: &str) {
    let msg = last_error();
    assert!(!msg.is_empty(), "{what}: an error code without a message");
    assert!(!msg.contains("caught panic"), "{what}: {msg}");
}

fn run(data: &[u8]) {
    let mut input = Input(data);
    let entry = input.byte() % 4;
    let spec_byte = input.byte();
    let mut spec: ZkSpecStruct = kZkSpecs[usize::from(spec_byte) % NUM_ZK_SPECS];
    if usize::from(spec_byte) >= 2 * NUM_ZK_SPECS {
        spec.version = usize::from(input.byte());
        spec.num_attributes = usize::from(input.byte());
    }
    let n_attrs = usize::from(input.byte() % 5);
    match entry {
        0 | 1 => {
            let circuit = input.field().to_vec();
            let pkx = input.text();
            let pky = input.text();
            let transcript = input.field().to_vec();
            let now = input.text();
            let doc_type = input.text();
            let attrs: Vec<RequestedAttribute> = (0..n_attrs).map(|_| input.attribute()).collect();
            // Proof (verifier) or DeviceResponse (prover): the rest.
            let blob = input.0.to_vec();
            let ptr = |v: &Vec<u8>| v.as_ptr();
            if entry == 0 {
                // SAFETY: every pointer is a live buffer of the length
                // passed, or a NUL-terminated string; `spec` is a struct
                // whose `system` points at a 'static string.
                let code = unsafe {
                    mdoc_zk::run_mdoc_verifier(
                        ptr(&circuit),
                        circuit.len(),
                        pkx.as_ptr(),
                        pky.as_ptr(),
                        ptr(&transcript),
                        transcript.len(),
                        attrs.as_ptr(),
                        attrs.len(),
                        now.as_ptr(),
                        ptr(&blob),
                        blob.len(),
                        doc_type.as_ptr(),
                        &spec,
                    )
                };
                if code != MdocVerifierErrorCode::Success {
                    check_failure("run_mdoc_verifier");
                }
            } else {
                let mut proof: *mut u8 = std::ptr::null_mut();
                let mut proof_len = 0usize;
                // SAFETY: as above; `proof`/`proof_len` are writable.
                let code = unsafe {
                    prove(
                        &circuit,
                        &blob,
                        &pkx,
                        &pky,
                        &transcript,
                        &attrs,
                        &now,
                        &mut proof,
                        &mut proof_len,
                        &spec,
                    )
                };
                if code == MdocProverErrorCode::Success {
                    assert!(!proof.is_null() && proof_len > 0);
                    // SAFETY: the library malloc'ed it for us.
                    unsafe { libc_free(proof) };
                } else {
                    assert!(proof.is_null() && proof_len == 0, "stale outputs");
                    check_failure("run_mdoc_prover");
                }
            }
        }
        2 => {
            let circuit = input.0.to_vec();
            let mut id = [0u8; 32];
            // SAFETY: `id` is 32 writable bytes, `circuit` its length.
            let ok = unsafe {
                mdoc_zk::circuit_id(id.as_mut_ptr(), circuit.as_ptr(), circuit.len(), &spec)
            };
            if ok != 1 {
                assert_eq!(ok, 0);
                check_failure("circuit_id");
            }
        }
        _ => {
            let system = input.text();
            let hash = input.text();
            // SAFETY: both NUL-terminated.
            let found = unsafe { mdoc_zk::find_zk_spec(system.as_ptr(), hash.as_ptr()) };
            if found.is_null() {
                check_failure("find_zk_spec");
            } else {
                // The row found is one of the table's.
                let i = kZkSpecs.as_ptr_range();
                assert!(
                    i.contains(&found),
                    "find_zk_spec returned a pointer outside kZkSpecs"
                );
            }
        }
    }
}

extern "C" {
    #[link_name = "free"]
    fn libc_free(ptr: *mut u8);
}

/// Google's prover signature, with slices.
///
/// # Safety
/// As `run_mdoc_prover`.
#[allow(clippy::too_many_arguments)]
unsafe fn prove(
    circuit: &[u8],
    mdoc: &[u8],
    pkx: &CStr,
    pky: &CStr,
    transcript: &[u8],
    attrs: &[RequestedAttribute],
    now: &CStr,
    proof: &mut *mut u8,
    proof_len: &mut usize,
    spec: &ZkSpecStruct,
) -> MdocProverErrorCode {
    // SAFETY: the caller's contract.
    unsafe {
        mdoc_zk::run_mdoc_prover(
            circuit.as_ptr(),
            circuit.len(),
            mdoc.as_ptr(),
            mdoc.len(),
            pkx.as_ptr(),
            pky.as_ptr(),
            transcript.as_ptr(),
            transcript.len(),
            attrs.as_ptr(),
            attrs.len(),
            now.as_ptr(),
            proof,
            proof_len,
            spec,
        )
    }
}
