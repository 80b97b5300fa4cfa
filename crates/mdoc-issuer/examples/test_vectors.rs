//! Writes the project's own synthetic mdoc vectors (`test-vectors/synthetic/`):
//! `cargo run -p longfellow-mdoc-issuer --example test_vectors -- test-vectors/synthetic`.
//!
//! Every input is fixed — issuer and device secrets, the time, the origin
//! and nonce of the session transcript, and the seed of the salt generator
//! — so the output is the same on every run and machine. Each file holds
//! the credential, the keys that made it, a request in the CLI's `REQ.json`
//! shape and the outcome a correct prover/verifier must reach; the invalid
//! ones are invalid by construction (a request that does not match what was
//! issued), not by what this code happens to say.

use std::time::Duration;

use longfellow_mdoc_issuer::{dc_api_session_transcript, DeviceKey, IssuerKey, MdocBuilder, Tdate};
use rand_core::{CryptoRng, RngCore};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// SHA-256 in counter mode from a fixed seed: reproducible salts. Marked
/// `CryptoRng` only so the builder accepts it; the seed is published, so
/// nothing made with it is secret — exactly what a test vector wants.
struct SeededSalts {
    seed: [u8; 32],
    counter: u64,
    buf: [u8; 32],
    used: usize,
}

impl SeededSalts {
    fn new(label: &str) -> Self {
        Self {
            seed: Sha256::digest(label.as_bytes()).into(),
            counter: 0,
            buf: [0; 32],
            used: 32,
        }
    }
}

impl RngCore for SeededSalts {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for d in dest {
            if self.used == 32 {
                let mut h = Sha256::new();
                h.update(self.seed);
                h.update(self.counter.to_le_bytes());
                self.buf = h.finalize().into();
                self.counter += 1;
                self.used = 0;
            }
            *d = self.buf[self.used];
            self.used += 1;
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl CryptoRng for SeededSalts {}

fn secret(label: &str) -> [u8; 32] {
    Sha256::digest(label.as_bytes()).into()
}

/// Every vector as (file name, JSON text), in a fixed order.
pub fn vectors() -> Result<Vec<(String, String)>, Box<dyn std::error::Error>> {
    let now = Tdate::parse("2026-06-01T12:00:00Z")?;
    let later = Tdate::parse("2028-06-01T12:00:00Z")?;
    let day = Duration::from_secs(86_400);
    let issuer = IssuerKey::from_secret(&secret("longfellow-rs test issuer"))?;
    let other_issuer = IssuerKey::from_secret(&secret("longfellow-rs other issuer"))?;
    let device = DeviceKey::from_secret(&secret("longfellow-rs test device"))?;
    let transcript = dc_api_session_transcript("https://verifier.example", "test-vector-nonce")?;
    let other_transcript = dc_api_session_transcript("https://other.example", "test-vector-nonce")?;

    let profiles = [
        (
            "eu_av",
            MdocBuilder::age_verification(),
            vec!["age_over_18"],
        ),
        (
            "mdl",
            MdocBuilder::mdl(),
            vec!["age_over_18", "family_name"],
        ),
    ];
    let mut index = Vec::new();
    for (name, builder, ids) in profiles {
        let mdoc = builder.valid_around(now, 30 * day, 365 * day)?.build(
            &issuer,
            &device,
            &transcript,
            &mut SeededSalts::new(name),
        )?;
        let request = mdoc.request(now, &ids)?;
        let base: Value = serde_json::from_str(&request.to_json()?)?;
        let mut variants = vec![("valid", base.clone(), "proves; the proof verifies")];
        let mut v = base.clone();
        let (x, y) = other_issuer.public_xy();
        v["pkx"] = json!(format!("0x{}", hex::encode(x)));
        v["pky"] = json!(format!("0x{}", hex::encode(y)));
        variants.push((
            "wrong_issuer_key",
            v,
            "refused: the issuer signature does not verify under the requested key",
        ));
        let mut v = base.clone();
        v["transcript_hex"] = json!(hex::encode(&other_transcript));
        variants.push((
            "wrong_transcript",
            v,
            "refused: the device signature does not cover the requested session transcript",
        ));
        let mut v = base.clone();
        v["now"] = json!(later.to_string());
        variants.push((
            "expired",
            v,
            "refused: `now` is after the credential's validUntil",
        ));
        let mut v = base.clone();
        v["doc_type"] = json!("org.example.not-issued");
        variants.push((
            "wrong_doc_type",
            v,
            "refused: the credential's docType is not the requested one",
        ));
        for (variant, request, expected) in variants {
            let file = format!("{name}-{variant}.json");
            let doc = json!({
                "name": format!("{name}-{variant}"),
                "made_by": "cargo run -p longfellow-mdoc-issuer --example test_vectors -- test-vectors/synthetic",
                "issuer_secret_hex": hex::encode(issuer.secret()),
                "device_secret_hex": hex::encode(device.secret()),
                "salt_seed_label": name,
                "mdoc_hex": hex::encode(&mdoc.device_response),
                "session_transcript_hex": hex::encode(&mdoc.session_transcript),
                "valid_from": mdoc.valid_from.to_string(),
                "valid_until": mdoc.valid_until.to_string(),
                "request": request,
                "expected": expected,
            });
            index.push((file, serde_json::to_string_pretty(&doc)? + "\n"));
        }
    }
    Ok(index)
}

#[allow(dead_code)] // the test includes this file for `vectors` alone
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .ok_or("usage: test_vectors OUT_DIR")?;
    std::fs::create_dir_all(&out)?;
    let all = vectors()?;
    for (file, text) in &all {
        std::fs::write(format!("{out}/{file}"), text)?;
    }
    println!("wrote {} vectors to {out}", all.len());
    Ok(())
}
