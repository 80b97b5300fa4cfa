//! The exported C functions: the only code here that touches raw pointers.
//!
//! Each entry point (1) runs inside `catch_unwind`, so no panic unwinds into
//! the caller; (2) refuses null pointers and empty buffers with the ABI's
//! code before reading anything; (3) hands checked slices and strings to
//! [`crate::run`]; (4) records the full message of any failure for
//! `longfellow_last_error()` on the calling thread. No entry point keeps
//! state between calls, so all are safe to call from several threads.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::abi::{
    CircuitGenerationErrorCode, MdocProverErrorCode, MdocVerifierErrorCode, RequestedAttribute,
    ZkSpecStruct,
};
use crate::error::{clear_last_error, last_error_ptr, set_last_error, ArgError, CapiError};
use crate::run::{self, Statement, NOW_LEN};
use crate::specs;

extern "C" {
    fn malloc(size: usize) -> *mut c_void;
    fn free(ptr: *mut c_void);
}

/// Runs `f`, turning a panic into `CapiError::Panic`, and records the
/// outcome as the thread's last error.
fn guarded<T>(f: impl FnOnce() -> Result<T, CapiError>) -> Result<T, CapiError> {
    let result = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(CapiError::Panic(msg))
    });
    match &result {
        Ok(_) => clear_last_error(),
        Err(e) => set_last_error(&e.to_string()),
    }
    result
}

/// A caller's buffer as a slice; null and empty are refused.
///
/// # Safety
/// If `ptr` is not null it must point to `len` readable bytes that stay
/// unchanged for the call.
unsafe fn bytes<'a>(ptr: *const u8, len: usize, name: &'static str) -> Result<&'a [u8], ArgError> {
    if ptr.is_null() {
        return Err(ArgError::Null(name));
    }
    if len == 0 {
        return Err(ArgError::Empty(name));
    }
    // SAFETY: non-null, and the caller guarantees `len` readable bytes.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// A caller's NUL-terminated UTF-8 string.
///
/// # Safety
/// If `ptr` is not null it must point to a NUL-terminated string.
unsafe fn text<'a>(ptr: *const c_char, name: &'static str) -> Result<&'a str, ArgError> {
    if ptr.is_null() {
        return Err(ArgError::Null(name));
    }
    // SAFETY: non-null and NUL-terminated per the caller's contract.
    let s = unsafe { CStr::from_ptr(ptr) };
    s.to_str().map_err(|_| ArgError::Invalid {
        name,
        reason: "not UTF-8".into(),
    })
}

/// The `now` argument: up to 20 bytes, stopping at a NUL, so that neither
/// a short string nor an unterminated 20-byte buffer is read past its end.
///
/// # Safety
/// If `ptr` is not null it must point to a NUL-terminated string or to at
/// least 20 readable bytes.
unsafe fn now_bytes<'a>(ptr: *const c_char) -> Result<&'a [u8], ArgError> {
    if ptr.is_null() {
        return Err(ArgError::Null("now"));
    }
    let mut len = 0;
    // SAFETY: each byte read is at most the 20th, or precedes a NUL already
    // seen not to be there: within the string or the 20-byte buffer.
    while len < NOW_LEN && unsafe { *ptr.add(len) } != 0 {
        len += 1;
    }
    // SAFETY: the `len` bytes just read are readable.
    Ok(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

/// The caller's attribute array; null is refused, zero length allowed here
/// (the attribute count is checked against the spec).
///
/// # Safety
/// If `ptr` is not null it must point to `len` initialised structs.
unsafe fn attrs<'a>(
    ptr: *const RequestedAttribute,
    len: usize,
) -> Result<&'a [RequestedAttribute], ArgError> {
    if ptr.is_null() {
        return Err(ArgError::Null("attrs"));
    }
    // SAFETY: non-null, `len` structs per the caller's contract; every bit
    // pattern is a valid RequestedAttribute (byte arrays and integers).
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// # Safety
/// If `ptr` is not null it must point to a ZkSpecStruct.
unsafe fn spec<'a>(ptr: *const ZkSpecStruct) -> Result<&'a ZkSpecStruct, ArgError> {
    // SAFETY: `as_ref` checks null; otherwise valid per the caller. Only the
    // inline fields are read, never the `system` pointer.
    unsafe { ptr.as_ref() }.ok_or(ArgError::Null("zk_spec"))
}

/// Arguments shared by prover and verifier.
///
/// # Safety
/// Each pointer, if not null, must satisfy the contract of its helper.
#[allow(clippy::too_many_arguments)]
unsafe fn statement<'a>(
    bcp: *const u8,
    bcsz: usize,
    pkx: *const c_char,
    pky: *const c_char,
    transcript: *const u8,
    tr_len: usize,
    attributes: *const RequestedAttribute,
    attrs_len: usize,
    now: *const c_char,
    zk_spec: *const ZkSpecStruct,
) -> Result<Statement<'a>, ArgError> {
    // SAFETY: each helper's contract is the caller's, forwarded.
    unsafe {
        Ok(Statement {
            circuit: bytes(bcp, bcsz, "bcp")?,
            pkx: text(pkx, "pkx")?,
            pky: text(pky, "pky")?,
            transcript: bytes(transcript, tr_len, "transcript")?,
            attrs: attrs(attributes, attrs_len)?,
            now: now_bytes(now)?,
            spec: spec(zk_spec)?,
        })
    }
}

/// Copies `data` into a `malloc`ed buffer the caller releases with `free`.
///
/// # Safety
/// `out` and `out_len` must be valid for writes.
unsafe fn give(data: &[u8], out: *mut *mut u8, out_len: *mut usize) -> Result<(), CapiError> {
    // SAFETY: malloc may be called with any size; null is handled.
    let dest = unsafe { malloc(data.len().max(1)) }.cast::<u8>();
    if dest.is_null() {
        return Err(CapiError::OutOfMemory(data.len()));
    }
    // SAFETY: `dest` holds at least `data.len()` fresh bytes, disjoint from
    // `data`; `out`/`out_len` are writable per the caller.
    unsafe {
        std::ptr::copy_nonoverlapping(data.as_ptr(), dest, data.len());
        *out = dest;
        *out_len = data.len();
    }
    Ok(())
}

/// Nulls the outputs first, so a failed call never leaves stale values.
///
/// # Safety
/// Each pointer, if not null, must be valid for writes.
unsafe fn reset_outputs(out: *mut *mut u8, out_len: *mut usize) -> Result<(), ArgError> {
    if out.is_null() {
        return Err(ArgError::Null("prf"));
    }
    if out_len.is_null() {
        return Err(ArgError::Null("proof_len"));
    }
    // SAFETY: both non-null and writable per the caller.
    unsafe {
        *out = std::ptr::null_mut();
        *out_len = 0;
    }
    Ok(())
}

/// # Safety
/// See [`run_mdoc_prover`].
#[allow(clippy::too_many_arguments)]
unsafe fn prover_entry(
    bcp: *const u8,
    bcsz: usize,
    mdoc: *const u8,
    mdoc_len: usize,
    pkx: *const c_char,
    pky: *const c_char,
    transcript: *const u8,
    tr_len: usize,
    attributes: *const RequestedAttribute,
    attrs_len: usize,
    now: *const c_char,
    prf: *mut *mut u8,
    proof_len: *mut usize,
    doc_type: Option<*const c_char>,
    zk_spec: *const ZkSpecStruct,
) -> MdocProverErrorCode {
    let result = guarded(|| {
        // SAFETY: every pointer's contract is the caller's (see the header).
        unsafe {
            reset_outputs(prf, proof_len)?;
            let s = statement(
                bcp, bcsz, pkx, pky, transcript, tr_len, attributes, attrs_len, now, zk_spec,
            )?;
            let mdoc = bytes(mdoc, mdoc_len, "mdoc")?;
            let doc_type = match doc_type {
                Some(d) => Some(text(d, "docType")?),
                None => None,
            };
            let proof = run::prove(&s, mdoc, doc_type)?;
            give(&proof, prf, proof_len)
        }
    });
    match result {
        Ok(()) => MdocProverErrorCode::Success,
        Err(e) => e.prover_code(),
    }
}

/// Proves the claims `attrs` about the DeviceResponse `mdoc` (Google's
/// signature: the docType is the document's own). On success `*prf` is a
/// `malloc`ed proof of `*proof_len` bytes; release it with `free`.
///
/// # Safety
/// Pointers are null or valid: buffers for their lengths, strings
/// NUL-terminated, `now` 20 bytes or NUL-terminated, `prf`/`proof_len`
/// writable, `zk_spec` a ZkSpecStruct.
#[cfg(not(feature = "multipaz"))]
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn run_mdoc_prover(
    bcp: *const u8,
    bcsz: usize,
    mdoc: *const u8,
    mdoc_len: usize,
    pkx: *const c_char,
    pky: *const c_char,
    transcript: *const u8,
    tr_len: usize,
    attrs: *const RequestedAttribute,
    attrs_len: usize,
    now: *const c_char,
    prf: *mut *mut u8,
    proof_len: *mut usize,
    zk_spec: *const ZkSpecStruct,
) -> MdocProverErrorCode {
    // SAFETY: the caller's contract, forwarded unchanged.
    unsafe {
        prover_entry(
            bcp, bcsz, mdoc, mdoc_len, pkx, pky, transcript, tr_len, attrs, attrs_len, now, prf,
            proof_len, None, zk_spec,
        )
    }
}

/// Multipaz's prover: as Google's, with the docType the device signed
/// passed before the spec.
///
/// # Safety
/// As Google's variant; `doc_type` is null or NUL-terminated.
#[cfg(feature = "multipaz")]
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn run_mdoc_prover(
    bcp: *const u8,
    bcsz: usize,
    mdoc: *const u8,
    mdoc_len: usize,
    pkx: *const c_char,
    pky: *const c_char,
    transcript: *const u8,
    tr_len: usize,
    attrs: *const RequestedAttribute,
    attrs_len: usize,
    now: *const c_char,
    prf: *mut *mut u8,
    proof_len: *mut usize,
    doc_type: *const c_char,
    zk_spec: *const ZkSpecStruct,
) -> MdocProverErrorCode {
    // SAFETY: the caller's contract, forwarded unchanged.
    unsafe {
        prover_entry(
            bcp,
            bcsz,
            mdoc,
            mdoc_len,
            pkx,
            pky,
            transcript,
            tr_len,
            attrs,
            attrs_len,
            now,
            prf,
            proof_len,
            Some(doc_type),
            zk_spec,
        )
    }
}

/// Checks `zkproof` for the claims `attrs`, the issuer key, transcript,
/// time and docType.
///
/// # Safety
/// Pointers are null or valid: buffers for their lengths, strings
/// NUL-terminated, `now` 20 bytes or NUL-terminated, `zk_spec` a
/// ZkSpecStruct.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn run_mdoc_verifier(
    bcp: *const u8,
    bcsz: usize,
    pkx: *const c_char,
    pky: *const c_char,
    transcript: *const u8,
    tr_len: usize,
    attributes: *const RequestedAttribute,
    attrs_len: usize,
    now: *const c_char,
    zkproof: *const u8,
    proof_len: usize,
    doc_type: *const c_char,
    zk_spec: *const ZkSpecStruct,
) -> MdocVerifierErrorCode {
    let result = guarded(|| {
        // SAFETY: every pointer's contract is the caller's (see the header).
        unsafe {
            let s = statement(
                bcp, bcsz, pkx, pky, transcript, tr_len, attributes, attrs_len, now, zk_spec,
            )?;
            let proof = bytes(zkproof, proof_len, "zkproof")?;
            let doc_type = text(doc_type, "docType")?;
            run::verify(&s, proof, doc_type)
        }
    });
    match result {
        Ok(()) => MdocVerifierErrorCode::Success,
        Err(e) => e.verifier_code(),
    }
}

/// Always fails: this library has no circuit compiler. Unknown specs get
/// `CIRCUIT_GENERATION_INVALID_ZK_SPEC_VERSION`, known ones
/// `CIRCUIT_GENERATION_GENERAL_FAILURE` with the reason in
/// `longfellow_last_error()`.
///
/// # Safety
/// Pointers are null or valid; `cb`/`clen` writable.
#[no_mangle]
pub unsafe extern "C" fn generate_circuit(
    zk_spec: *const ZkSpecStruct,
    cb: *mut *mut u8,
    clen: *mut usize,
) -> CircuitGenerationErrorCode {
    let result: Result<(), CapiError> = guarded(|| {
        // SAFETY: the caller's contract.
        unsafe {
            reset_outputs(cb, clen).map_err(|_| ArgError::Null("cb/clen"))?;
            let spec = spec(zk_spec)?;
            specs::resolve(spec).ok_or(ArgError::UnknownSpec)?;
        }
        Err(CapiError::GenerationUnsupported)
    });
    match result {
        Ok(()) => CircuitGenerationErrorCode::Success,
        Err(e) => e.generation_code(),
    }
}

/// Writes the 32-byte circuit ID of a circuit file (SHA-256 of the two
/// circuits' IDs) to `id`; returns 1 on success, 0 on failure. The spec is
/// not read and may be null.
///
/// # Safety
/// `id` is null or writable for 32 bytes; `bcp` null or `bcsz` readable.
#[no_mangle]
pub unsafe extern "C" fn circuit_id(
    id: *mut u8,
    bcp: *const u8,
    bcsz: usize,
    _zk_spec: *const ZkSpecStruct,
) -> c_int {
    let result = guarded(|| {
        if id.is_null() {
            return Err(ArgError::Null("id").into());
        }
        // SAFETY: the caller's contract for `bcp`/`bcsz`.
        let circuit = unsafe { bytes(bcp, bcsz, "bcp")? };
        let digest = run::circuit_id(circuit)?;
        // SAFETY: `id` is non-null and writable for 32 bytes per the caller.
        unsafe { std::ptr::copy_nonoverlapping(digest.as_ptr(), id, digest.len()) };
        Ok(())
    });
    c_int::from(result.is_ok())
}

/// The `kZkSpecs` row with this system name and circuit hash (hex, any
/// case), or null.
///
/// # Safety
/// Both pointers are null or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn find_zk_spec(
    system_name: *const c_char,
    circuit_hash: *const c_char,
) -> *const ZkSpecStruct {
    let result = guarded(|| {
        // SAFETY: the caller's contract.
        let (system, hash) = unsafe {
            (
                text(system_name, "system_name")?,
                text(circuit_hash, "circuit_hash")?,
            )
        };
        if system.as_bytes() != specs::SYSTEM.to_bytes() {
            return Err(ArgError::Invalid {
                name: "system_name",
                reason: format!("unknown proof system `{system}`"),
            }
            .into());
        }
        specs::by_hash(hash).ok_or_else(|| ArgError::UnknownSpec.into())
    });
    result.map_or(std::ptr::null(), |s| s as *const ZkSpecStruct)
}

/// Multipaz's lookup: copies the `kZkSpecs` row with `num_attributes` and
/// `version` (0: the newest) to `*out`; returns 0, or -1 if there is none.
///
/// # Safety
/// `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn find_zk_spec_by_attributes(
    num_attributes: usize,
    version: usize,
    out: *mut ZkSpecStruct,
) -> c_int {
    let result = guarded(|| {
        if out.is_null() {
            return Err(ArgError::Null("out").into());
        }
        let found = specs::by_version(version, num_attributes).ok_or(ArgError::UnknownSpec)?;
        // SAFETY: `out` is non-null and writable per the caller.
        unsafe { out.write(*found) };
        Ok(())
    });
    if result.is_ok() {
        0
    } else {
        -1
    }
}

/// Releases a proof from `run_mdoc_prover` (same as `free`).
///
/// # Safety
/// `prf` is null or a pointer this library returned and not yet freed.
#[no_mangle]
pub unsafe extern "C" fn free_mdoc_proof(prf: *mut u8, _len: usize) {
    // SAFETY: per the caller, `prf` came from this library's malloc.
    unsafe { free(prf.cast()) }
}

/// Releases circuit bytes from `generate_circuit` (same as `free`).
///
/// # Safety
/// `cb` is null or a pointer this library returned and not yet freed.
#[no_mangle]
pub unsafe extern "C" fn free_circuit_bytes(cb: *mut u8, _len: usize) {
    // SAFETY: per the caller, `cb` came from this library's malloc.
    unsafe { free(cb.cast()) }
}

/// The full message of the calling thread's last failed call (empty after
/// a success). Valid until the next call into this library on this thread;
/// never null.
#[no_mangle]
pub extern "C" fn longfellow_last_error() -> *const c_char {
    last_error_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_with_its_message() {
        let r: Result<(), CapiError> = guarded(|| panic!("boom at the boundary"));
        assert!(matches!(r, Err(CapiError::Panic(ref m)) if m.contains("boom")));
        // SAFETY: the last-error pointer is never null and NUL-terminated.
        let msg = unsafe { CStr::from_ptr(longfellow_last_error()) };
        assert!(msg.to_string_lossy().contains("boom at the boundary"));
        assert_eq!(
            CapiError::Panic(String::new()).prover_code(),
            MdocProverErrorCode::GeneralFailure
        );
        assert_eq!(
            CapiError::Panic(String::new()).verifier_code(),
            MdocVerifierErrorCode::GeneralFailure
        );
        let ok: Result<(), CapiError> = guarded(|| Ok(()));
        assert!(ok.is_ok());
        // SAFETY: as above.
        assert!(unsafe { CStr::from_ptr(longfellow_last_error()) }.is_empty());
    }
}
