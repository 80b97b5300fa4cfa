//! ECDSA signatures on certificates and COSE structures (P-256, P-384 and
//! P-521 keys; SHA-256/384/512 digests): IACA roots use all three curves,
//! the DS key the circuits check is always P-256.

use ecdsa::signature::hazmat::PrehashVerifier;
use sha2::{Digest, Sha256, Sha384, Sha512};
use x509_cert::der::asn1::ObjectIdentifier;
use x509_cert::spki::SubjectPublicKeyInfoOwned;

use crate::error::TrustError;

const EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const P256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");
const P384: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.34");
const P521: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.132.0.35");
const ECDSA_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.2");
const ECDSA_SHA384: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.3");
const ECDSA_SHA512: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.4");

/// A certificate's public key.
#[derive(Clone)]
pub enum PublicKey {
    /// P-256.
    P256(p256::ecdsa::VerifyingKey),
    /// P-384.
    P384(p384::ecdsa::VerifyingKey),
    /// P-521.
    P521(p521::ecdsa::VerifyingKey),
}

/// Digest algorithms of the signatures verified here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DigestAlg {
    /// SHA-256 (ES256, ecdsa-with-SHA256).
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
}

impl DigestAlg {
    fn of_oid(oid: &ObjectIdentifier) -> Result<Self, TrustError> {
        match *oid {
            ECDSA_SHA256 => Ok(Self::Sha256),
            ECDSA_SHA384 => Ok(Self::Sha384),
            ECDSA_SHA512 => Ok(Self::Sha512),
            _ => Err(TrustError::UnsupportedAlgorithm(format!("signature {oid}"))),
        }
    }

    fn digest(self, message: &[u8]) -> Vec<u8> {
        match self {
            Self::Sha256 => Sha256::digest(message).to_vec(),
            Self::Sha384 => Sha384::digest(message).to_vec(),
            Self::Sha512 => Sha512::digest(message).to_vec(),
        }
    }
}

impl std::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.describe())
    }
}

impl PublicKey {
    /// The key of an id-ecPublicKey SPKI on a supported curve.
    pub fn from_spki(spki: &SubjectPublicKeyInfoOwned) -> Result<Self, TrustError> {
        if spki.algorithm.oid != EC_PUBLIC_KEY {
            return Err(TrustError::UnsupportedAlgorithm(format!(
                "key {}",
                spki.algorithm.oid
            )));
        }
        let curve: ObjectIdentifier = spki
            .algorithm
            .parameters
            .as_ref()
            .and_then(|p| p.decode_as().ok())
            .ok_or_else(|| TrustError::UnsupportedAlgorithm("EC key without named curve".into()))?;
        let point = spki
            .subject_public_key
            .as_bytes()
            .ok_or_else(|| TrustError::UnsupportedAlgorithm("key with unused bits".into()))?;
        let bad = || TrustError::UnsupportedAlgorithm(format!("invalid point on {curve}"));
        match curve {
            P256 => p256::ecdsa::VerifyingKey::from_sec1_bytes(point)
                .map(Self::P256)
                .map_err(|_| bad()),
            P384 => p384::ecdsa::VerifyingKey::from_sec1_bytes(point)
                .map(Self::P384)
                .map_err(|_| bad()),
            P521 => p521::ecdsa::VerifyingKey::from_sec1_bytes(point)
                .map(Self::P521)
                .map_err(|_| bad()),
            other => Err(TrustError::UnsupportedAlgorithm(format!("curve {other}"))),
        }
    }

    /// A name for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Self::P256(_) => "ECDSA P-256",
            Self::P384(_) => "ECDSA P-384",
            Self::P521(_) => "ECDSA P-521",
        }
    }

    /// Verifies a DER ECDSA-Sig-Value under signature algorithm `alg`.
    pub fn verify_der(
        &self,
        alg: &ObjectIdentifier,
        message: &[u8],
        sig: &[u8],
    ) -> Result<bool, TrustError> {
        let digest = DigestAlg::of_oid(alg)?.digest(message);
        Ok(match self {
            Self::P256(k) => p256::ecdsa::Signature::from_der(sig)
                .is_ok_and(|s| k.verify_prehash(&digest, &s).is_ok()),
            Self::P384(k) => p384::ecdsa::Signature::from_der(sig)
                .is_ok_and(|s| k.verify_prehash(&digest, &s).is_ok()),
            Self::P521(k) => p521::ecdsa::Signature::from_der(sig)
                .is_ok_and(|s| k.verify_prehash(&digest, &s).is_ok()),
        })
    }

    /// Verifies a COSE (fixed-width r ‖ s) signature with `digest`.
    pub fn verify_raw(&self, digest: DigestAlg, message: &[u8], sig: &[u8]) -> bool {
        let h = digest.digest(message);
        match self {
            Self::P256(k) => p256::ecdsa::Signature::from_slice(sig)
                .is_ok_and(|s| k.verify_prehash(&h, &s).is_ok()),
            Self::P384(k) => p384::ecdsa::Signature::from_slice(sig)
                .is_ok_and(|s| k.verify_prehash(&h, &s).is_ok()),
            Self::P521(k) => p521::ecdsa::Signature::from_slice(sig)
                .is_ok_and(|s| k.verify_prehash(&h, &s).is_ok()),
        }
    }
}
