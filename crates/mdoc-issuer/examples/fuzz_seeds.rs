//! Writes a varied corpus of DeviceResponses for a DeviceResponse parser
//! fuzz target:
//!
//! ```text
//! cargo run -p longfellow-mdoc-issuer --example fuzz_seeds -- DIR [COUNT]
//! ```
//!
//! Seed i picks its profile, digest IDs, salt length, certificate,
//! presented subset and (every fifth) a portrait and long identifier from i,
//! so the corpus is reproducible. Default COUNT: 32.

use std::error::Error;
use std::time::Duration;

use longfellow_mdoc_issuer::{
    dc_api_session_transcript, value, DeviceKey, DigestIds, IssuerCertificate, IssuerKey,
    MdocBuilder, Tdate,
};
use rand_chacha::rand_core::SeedableRng;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = std::path::PathBuf::from(args.first().ok_or("usage: fuzz_seeds DIR [COUNT]")?);
    let count: u64 = args.get(1).map(|s| s.parse()).transpose()?.unwrap_or(32);
    std::fs::create_dir_all(&dir)?;
    let now = Tdate::parse("2026-01-15T09:00:00Z")?;
    let day = Duration::from_secs(86_400);
    for i in 0..count {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(i);
        let issuer = IssuerKey::random(&mut rng);
        let device = DeviceKey::random(&mut rng);
        // Parser seeds: every shape is welcome, provable or not (a 24-byte
        // salt already pushes driving_privileges past two SHA-256 blocks).
        let mut b = if i % 2 == 0 {
            MdocBuilder::mdl()
        } else {
            MdocBuilder::age_verification().attribute("age_over_21", value::boolean(i % 4 == 1))
        }
        .without_circuit_limits();
        if i % 3 == 0 {
            b = b.digest_ids(DigestIds::Random);
        }
        b = b.salt_len(16 + (i as usize % 3) * 8);
        if i % 7 == 3 {
            b = b.certificate(IssuerCertificate::Omit);
        }
        if i % 5 == 4 {
            b = b
                .attribute("portrait", value::bytes(&vec![0xff; 200 + i as usize * 37]))
                .attribute("given_name_national_character", value::text("Эрика"));
        }
        let transcript = dc_api_session_transcript("https://verifier.example", &format!("n{i}"))?;
        let mdoc = b.valid_around(now, 30 * day, 365 * day)?.build(
            &issuer,
            &device,
            &transcript,
            &mut rng,
        )?;
        let bytes = if i % 2 == 0 {
            mdoc.presentation(&["age_over_18", "birth_date", "family_name"])?
        } else {
            mdoc.device_response.clone()
        };
        std::fs::write(dir.join(format!("issued-{i:03}.cbor")), bytes)?;
    }
    println!("wrote {count} DeviceResponses to {}", dir.display());
    Ok(())
}
