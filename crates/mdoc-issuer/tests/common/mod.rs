//! Shared by the integration tests: seeded issuing and the request path
//! through `REQ.json`, as the command-line prover reads it.
#![allow(dead_code)]

use std::time::Duration;

use longfellow_mdoc_issuer::{
    dc_api_session_transcript, DeviceKey, IssuedMdoc, IssuerKey, MdocBuilder, Tdate,
};
use longfellow_mdoc_witness::{MacInputs, MdocRequest};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// Arbitrary MAC keys: witness building needs some, the values do not matter.
pub const KEYS: MacInputs = MacInputs {
    prover_keys: [[3, 5], [7, 11], [13, 17]],
    verifier_key: 19,
};

pub const DAY: Duration = Duration::from_secs(86_400);

pub fn rng(seed: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(seed)
}

pub fn now() -> Tdate {
    Tdate::parse("2026-01-15T09:00:00Z").expect("valid date")
}

pub fn keys(seed: u64) -> (IssuerKey, DeviceKey, ChaCha20Rng) {
    let mut r = rng(seed);
    let issuer = IssuerKey::random(&mut r);
    let device = DeviceKey::random(&mut r);
    (issuer, device, r)
}

pub fn transcript() -> Vec<u8> {
    dc_api_session_transcript("https://verifier.example", "n-0S6_WzA2Mj").expect("encodes")
}

/// Issues `builder` valid from 30 days before [`now`] to a year after.
pub fn issue(builder: MdocBuilder, seed: u64) -> IssuedMdoc {
    let (issuer, device, mut r) = keys(seed);
    builder
        .valid_around(now(), 30 * DAY, 365 * DAY)
        .expect("in range")
        .build(&issuer, &device, &transcript(), &mut r)
        .expect("issues")
}

/// The request for `ids` at `now`, through its JSON form.
pub fn request(mdoc: &IssuedMdoc, now: Tdate, ids: &[&str]) -> MdocRequest {
    mdoc.request(now, ids)
        .expect("request")
        .to_mdoc_request()
        .expect("the library reads the request back")
}

/// Reads `REQ.json` as `docs/cli-contract.md` describes it, through the
/// library's reader.
pub fn request_from_json(json: &str) -> MdocRequest {
    MdocRequest::from_json(json.as_bytes()).expect("request JSON")
}
