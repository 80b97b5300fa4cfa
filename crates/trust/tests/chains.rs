//! Document signer chains and VICALs: generated IACA root → DS chains for
//! every kind of refusal, and Google's and AAMVA's published files.

use longfellow_mdoc_issuer::pki::{document_signer, iaca_root, vical, CertificateProfile};
use longfellow_mdoc_issuer::{IssuerKey, Tdate};
use longfellow_trust::{pem_certificates, AnchorSource, TrustError, TrustStore, Vical};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

fn t(s: &str) -> Tdate {
    Tdate::parse(s).expect("date")
}

fn unix(s: &str) -> i64 {
    // Days from 1970 by counting, to keep the test independent of the
    // crates under test.
    let d = |a: usize, b: usize| s[a..b].parse::<i64>().expect("digits");
    let (y, m, day) = (d(0, 4), d(5, 7), d(8, 10));
    let mut days = 0;
    for yy in 1970..y {
        days += if (yy % 4 == 0 && yy % 100 != 0) || yy % 400 == 0 {
            366
        } else {
            365
        };
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let month_days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    days += month_days[..(m - 1) as usize].iter().sum::<i64>() + day - 1;
    days * 86_400 + d(11, 13) * 3600 + d(14, 16) * 60 + d(17, 19)
}

fn profile(cn: &str, from: &str, until: &str) -> CertificateProfile {
    CertificateProfile {
        common_name: cn.into(),
        not_before: t(from),
        not_after: t(until),
    }
}

struct Pki {
    root_key: IssuerKey,
    root: Vec<u8>,
    ds_key: IssuerKey,
    ds: Vec<u8>,
}

fn pki(seed: u64) -> Pki {
    pki_named(seed, "Test IACA")
}

fn pki_named(seed: u64, root_cn: &str) -> Pki {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let root_key = IssuerKey::random(&mut rng);
    let root = iaca_root(
        &root_key,
        &profile(root_cn, "2025-01-01T00:00:00Z", "2035-01-01T00:00:00Z"),
        &mut rng,
    );
    let ds_key = IssuerKey::random(&mut rng);
    let ds = document_signer(
        &ds_key,
        &profile("Test DS", "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"),
        &root_key,
        root_cn,
        &mut rng,
    );
    Pki {
        root_key,
        root,
        ds_key,
        ds,
    }
}

const NOW: &str = "2026-06-01T12:00:00Z";

fn store_with(der: &[u8]) -> TrustStore {
    let mut s = TrustStore::new();
    s.add_der(der, AnchorSource::Pem).expect("anchor");
    s
}

#[test]
fn generated_chain_is_trusted_and_yields_the_ds_key() {
    let p = pki(1);
    let issuer = store_with(&p.root)
        .verify_document_signer(&[&p.ds], unix(NOW))
        .expect("trusted");
    assert_eq!(issuer.public_key, p.ds_key.public_xy());
    assert!(issuer.subject.contains("Test DS"));
    assert!(issuer.anchor.contains("Test IACA"));
    // The same DS and root as one concatenated bstr, and as an array.
    let mut both = p.ds.clone();
    both.extend_from_slice(&p.root);
    let s = store_with(&p.root);
    assert!(s.verify_document_signer(&[&both], unix(NOW)).is_ok());
    assert!(s
        .verify_document_signer(&[&p.ds, &p.root], unix(NOW))
        .is_ok());
}

#[test]
fn refusals_are_specific() {
    let p = pki(2);
    let other = pki_named(3, "Other IACA");
    let s = store_with(&p.root);
    // Same name, other key: the signature check fails.
    let e = store_with(&pki(6).root).verify_document_signer(&[&p.ds], unix(NOW));
    assert!(matches!(e, Err(TrustError::BadSignature { .. })), "{e:?}");
    // Unknown root.
    let e = store_with(&other.root).verify_document_signer(&[&p.ds], unix(NOW));
    assert!(matches!(e, Err(TrustError::UnknownIssuer { .. })), "{e:?}");
    assert!(matches!(
        TrustStore::new().verify_document_signer(&[&p.ds], unix(NOW)),
        Err(TrustError::UnknownIssuer { .. })
    ));
    // Expired and not yet valid DS.
    for at in ["2027-01-01T00:00:01Z", "2025-12-31T23:59:59Z"] {
        let e = s.verify_document_signer(&[&p.ds], unix(at));
        assert!(
            matches!(e, Err(TrustError::Expired { ref subject, .. }) if subject.contains("Test DS")),
            "{at}: {e:?}"
        );
    }
    // Expired root.
    let e = s.verify_document_signer(&[&p.ds], unix("2035-06-01T00:00:00Z"));
    assert!(matches!(e, Err(TrustError::Expired { .. })), "{e:?}");
    // A DS naming the root but signed by another key.
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let forged = document_signer(
        &p.ds_key,
        &profile("Test DS", "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"),
        &other.root_key,
        "Test IACA",
        &mut rng,
    );
    let e = s.verify_document_signer(&[&forged], unix(NOW));
    assert!(matches!(e, Err(TrustError::BadSignature { .. })), "{e:?}");
    // A tampered DS (one byte of its key changed) fails too.
    let mut tampered = p.ds.clone();
    let n = tampered.len();
    tampered[n - 80] ^= 1;
    assert!(s.verify_document_signer(&[&tampered], unix(NOW)).is_err());
    // The root is not a DS: no digitalSignature.
    let e = s.verify_document_signer(&[&p.root], unix(NOW));
    assert!(matches!(e, Err(TrustError::KeyUsage { .. })), "{e:?}");
    // Garbage and an empty chain.
    assert!(matches!(
        s.verify_document_signer(&[b"\x30\x03abc"], unix(NOW)),
        Err(TrustError::BadCertificate { .. })
    ));
    assert_eq!(
        s.verify_document_signer(&[], unix(NOW)),
        Err(TrustError::EmptyChain)
    );
    // A DS used as its own issuer's issuer (DS as intermediate) is not a CA.
    let mut rng = ChaCha20Rng::seed_from_u64(10);
    let grandchild_key = IssuerKey::random(&mut rng);
    let grandchild = document_signer(
        &grandchild_key,
        &profile("Grandchild", "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"),
        &p.ds_key,
        "Test DS",
        &mut rng,
    );
    let e = s.verify_document_signer(&[&grandchild, &p.ds], unix(NOW));
    assert!(matches!(e, Err(TrustError::KeyUsage { .. })), "{e:?}");
}

#[test]
fn vical_is_used_only_after_its_signature_verifies() {
    let p = pki(4);
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let signer_key = IssuerKey::random(&mut rng);
    let signer = iaca_root(
        &signer_key,
        &profile(
            "Test VICAL signer",
            "2025-01-01T00:00:00Z",
            "2030-01-01T00:00:00Z",
        ),
        &mut rng,
    );
    let list = vical(
        &signer_key,
        &signer,
        "Test provider",
        &t("2026-05-01T00:00:00Z"),
        std::slice::from_ref(&p.root),
    )
    .expect("vical");
    let v = Vical::verify(&list, std::slice::from_ref(&signer), unix(NOW)).expect("verifies");
    assert_eq!((v.provider.as_str(), v.entries.len()), ("Test provider", 1));
    let mut s = TrustStore::new();
    assert_eq!(s.add_vical(&v), Ok(1));
    let issuer = s
        .verify_document_signer(&[&p.ds], unix(NOW))
        .expect("trusted via VICAL");
    assert_eq!(
        issuer.source,
        AnchorSource::Vical {
            provider: "Test provider".into()
        }
    );

    // A bad signature.
    let mut bad = list.clone();
    let n = bad.len();
    bad[n - 1] ^= 1;
    assert!(matches!(
        Vical::verify(&bad, std::slice::from_ref(&signer), unix(NOW)),
        Err(TrustError::VicalSignature(_))
    ));
    // A changed payload byte (the provider name).
    let at = list
        .windows(13)
        .position(|w| w == b"Test provider")
        .expect("provider");
    let mut changed = list.clone();
    changed[at] = b'X';
    assert!(matches!(
        Vical::verify(&changed, std::slice::from_ref(&signer), unix(NOW)),
        Err(TrustError::VicalSignature(_))
    ));
    // Another signer configured.
    let e = Vical::verify(&list, std::slice::from_ref(&p.root), unix(NOW));
    assert!(matches!(e, Err(TrustError::VicalSignature(_))), "{e:?}");
    assert!(matches!(
        Vical::verify(&list, &[], unix(NOW)),
        Err(TrustError::VicalSignature(_))
    ));
    // Signer expired.
    assert!(Vical::verify(&list, &[signer], unix("2031-01-01T00:00:00Z")).is_err());
    // Not a VICAL.
    assert!(matches!(
        Vical::verify(b"\x80", &[p.root], unix(NOW)),
        Err(TrustError::MalformedVical(_))
    ));
}

fn google_file(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../../test-vectors/google-examples/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example file")
}

/// The DS certificate of Google's post1.json (718 bytes; the msoX5chain bstr
/// starts at the `msoX5chain` key + 3 header bytes `59 02 ce`).
fn google_ds() -> Vec<u8> {
    use base64::Engine;
    let json: serde_json::Value = serde_json::from_slice(&google_file("post1.json")).expect("json");
    let cbor = base64::engine::general_purpose::STANDARD
        .decode(json["ZKDeviceResponseCBOR"].as_str().expect("str"))
        .expect("b64");
    let at = cbor
        .windows(10)
        .position(|w| w == b"msoX5chain")
        .expect("key")
        + 10;
    assert_eq!(&cbor[at..at + 3], &[0x59, 0x02, 0xce]);
    cbor[at + 3..at + 3 + 718].to_vec()
}

#[test]
fn google_certs_pem_and_payground_ds() {
    let pem = String::from_utf8(google_file("certs.pem")).expect("utf8");
    let certs = pem_certificates(&pem).expect("pem");
    assert_eq!(certs.len(), 19);
    let mut all = TrustStore::new();
    assert_eq!(all.add_pem_bundle(&pem), Ok(19));
    let ds = google_ds();
    let at = unix("2025-12-02T00:00:00Z");
    let issuer = all.verify_document_signer(&[&ds], at).expect("trusted");
    assert!(issuer.subject.contains("Payground Document Signer"));
    // Only the (P-521, SHA-512-signing) Payground Root as anchor: the path
    // is checked for real.
    let root = certs
        .iter()
        .find(|c| c.windows(14).any(|w| w == b"Payground Root"))
        .expect("root");
    let issuer2 = store_with(root)
        .verify_document_signer(&[&ds], at)
        .expect("chains to root");
    assert_eq!(issuer2.public_key, issuer.public_key);
    assert!(issuer2.anchor.contains("Payground Root"));
    // Expired on 2026-05-07.
    let e = all.verify_document_signer(&[&ds], unix("2026-05-08T00:00:00Z"));
    assert!(matches!(e, Err(TrustError::Expired { .. })), "{e:?}");
    // A P-384 IACA root is not a usable DS.
    let p384 = certs
        .iter()
        .find(|c| c.windows(29).any(|w| w == b"Identity Credential Root IACA"))
        .expect("p384 root");
    let e = all.verify_document_signer(&[p384], at);
    assert!(matches!(e, Err(TrustError::NotP256 { .. })), "{e:?}");
}

#[test]
fn aamva_vical_verifies_under_its_root() {
    let bytes = google_file("vical.cbor");
    // The AAMVA DTS Root CA is the last certificate of the VICAL's x5chain;
    // a relying party configures it from AAMVA's published root.
    let pem_root = {
        let mut d = minicbor::Decoder::new(&bytes);
        d.array().expect("array");
        d.bytes().expect("protected");
        d.map().expect("unprotected");
        d.i64().expect("33");
        let n = d.array().expect("x5chain").expect("definite");
        let mut last = Vec::new();
        for _ in 0..n {
            last = d.bytes().expect("cert").to_vec();
        }
        last
    };
    let at = unix("2026-01-02T14:00:00Z");
    let v =
        Vical::verify(&bytes, std::slice::from_ref(&pem_root), at).expect("AAMVA VICAL verifies");
    assert_eq!(
        (v.provider.as_str(), v.entries.len(), v.issue_id),
        ("AAMVA", 14, Some(532_354))
    );
    assert!(v.signer.contains("Vical-Signer-01"));
    let mut s = TrustStore::new();
    assert_eq!(s.add_vical(&v), Ok(14));
    // One flipped signature byte.
    let mut bad = bytes.clone();
    let n = bad.len();
    bad[n - 5] ^= 0x40;
    assert!(matches!(
        Vical::verify(&bad, std::slice::from_ref(&pem_root), at),
        Err(TrustError::VicalSignature(_))
    ));
    // After the signer certificate expired (2026-04-18).
    assert!(Vical::verify(&bytes, &[pem_root], unix("2026-05-01T00:00:00Z")).is_err());
}
