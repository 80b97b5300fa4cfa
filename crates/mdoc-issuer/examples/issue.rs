//! Writes a test credential and a matching proof request, ready for
//! `longfellow mdoc prove --mdoc OUT/mdoc.cbor --request OUT/request.json`:
//!
//! ```text
//! cargo run -p longfellow-mdoc-issuer --example issue -- OUT [mdl|av] [SEED] [NOW] [ID,ID,…]
//! ```
//!
//! Also writes the issuer certificate (`issuer.der`). Defaults: `av`, seed
//! 1, now 2026-01-15T09:00:00Z, `age_over_18`.

use std::error::Error;
use std::time::Duration;

use longfellow_mdoc_issuer::{dc_api_session_transcript, DeviceKey, IssuerKey, MdocBuilder, Tdate};
use rand_chacha::rand_core::SeedableRng;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    let out = std::path::PathBuf::from(arg(0, "."));
    let builder = match arg(1, "av").as_str() {
        "mdl" => MdocBuilder::mdl(),
        "av" => MdocBuilder::age_verification(),
        other => return Err(format!("unknown profile `{other}` (mdl or av)").into()),
    };
    let seed: u64 = arg(2, "1").parse()?;
    let now = Tdate::parse(&arg(3, "2026-01-15T09:00:00Z"))?;
    let ids = arg(4, "age_over_18");
    let ids: Vec<&str> = ids.split(',').collect();

    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    let issuer = IssuerKey::random(&mut rng);
    let device = DeviceKey::random(&mut rng);
    let day = Duration::from_secs(86_400);
    let transcript =
        dc_api_session_transcript("https://verifier.example", &format!("nonce-{seed}"))?;
    let mdoc = builder.valid_around(now, 30 * day, 365 * day)?.build(
        &issuer,
        &device,
        &transcript,
        &mut rng,
    )?;

    std::fs::create_dir_all(&out)?;
    std::fs::write(out.join("mdoc.cbor"), &mdoc.device_response)?;
    std::fs::write(
        out.join("request.json"),
        mdoc.request(now, &ids)?.to_json()?,
    )?;
    if let Some(cert) = &mdoc.certificate {
        std::fs::write(out.join("issuer.der"), cert)?;
    }
    println!(
        "wrote {} ({} bytes), request.json, issuer.der",
        out.join("mdoc.cbor").display(),
        mdoc.device_response.len()
    );
    Ok(())
}
