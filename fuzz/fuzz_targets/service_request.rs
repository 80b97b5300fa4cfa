//! The verifier service's `/zkverify` handler on any request body, called
//! in-process (`longfellow_service::check_body`, the function the HTTP
//! handler runs; no socket, no runtime): JSON, the two base64 fields, the
//! ZK DeviceResponse CBOR, the issuer chain against Google's 19 roots at a
//! fixed clock, the policy (Google-compatible, so inputs get as far as
//! possible) and the circuit lookup.
//!
//! No circuit is loaded: a circuit pair costs seconds to load under the
//! sanitizer, and the proof check behind the lookup is fuzzed on its own
//! (`mdoc_proof_verify`). Every answer must be a 200 verdict or a 400 with
//! an `error` message — never a 5xx from a body.
#![cfg_attr(feature = "libfuzzer", no_main)]

use std::sync::OnceLock;

use longfellow_service::{check_body, AppState, Circuits, Limits, Policy};
use longfellow_trust::TrustStore;

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("service_request", run);
}

/// 2025-12-02T00:00:00Z: Google's example requests' chains are valid then.
const VERIFY_TIME: i64 = 1_764_633_600;

fn state() -> &'static AppState {
    static S: OnceLock<AppState> = OnceLock::new();
    S.get_or_init(|| {
        let pem = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../test-vectors/google-examples/certs.pem"
        ))
        .expect("certs.pem");
        let mut trust = TrustStore::new();
        trust.add_pem_bundle(&pem).expect("pem bundle");
        AppState::new(
            Circuits::default(),
            trust,
            Policy::google_compatible(),
            Some(VERIFY_TIME),
            Limits::default(),
        )
    })
}

fn run(data: &[u8]) {
    let verdict = check_body(state(), data);
    match verdict.status {
        200 => assert!(verdict.body.get("Status").is_some(), "{verdict:?}"),
        400 => assert!(
            verdict
                .body
                .get("error")
                .and_then(|e| e.as_str())
                .is_some_and(|m| !m.is_empty()),
            "{verdict:?}"
        ),
        _ => panic!("a request body produced {verdict:?}"),
    }
}
