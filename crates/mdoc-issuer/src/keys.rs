//! Throwaway P-256 keys for the issuer and the holder's device.
//!
//! Two distinct types so an issuer key cannot be passed where the device key
//! is meant: swapping them would still produce well-formed CBOR, just an mdoc
//! whose signatures verify against the wrong public keys.

use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use rand_core::CryptoRngCore;

use crate::error::IssuerError;

/// Public key coordinates, big-endian.
fn coordinates(key: &VerifyingKey) -> ([u8; 32], [u8; 32]) {
    let point = key.to_encoded_point(false);
    let mut x = [0u8; 32];
    let mut y = [0u8; 32];
    // An uncompressed non-identity point always has both coordinates.
    if let (Some(px), Some(py)) = (point.x(), point.y()) {
        x.copy_from_slice(px);
        y.copy_from_slice(py);
    }
    (x, y)
}

fn from_secret(secret: &[u8; 32]) -> Result<SigningKey, IssuerError> {
    SigningKey::from_slice(secret).map_err(|_| IssuerError::InvalidKey)
}

/// ES256 over `message` (SHA-256, then ECDSA with an RFC 6979 nonce, so
/// issuing is reproducible), as r ‖ s.
fn sign(key: &SigningKey, message: &[u8]) -> [u8; 64] {
    let sig: Signature = key.sign(message);
    sig.to_bytes().into()
}

macro_rules! key_type {
    ($name:ident, $what:literal) => {
        #[doc = concat!("The ", $what, "'s P-256 signing key.")]
        #[derive(Clone, Debug)]
        pub struct $name(SigningKey);

        impl $name {
            /// A fresh key drawn from `rng`.
            pub fn random(rng: &mut impl CryptoRngCore) -> Self {
                Self(SigningKey::random(rng))
            }

            /// The key with secret scalar `secret` (big-endian, in 1..n).
            pub fn from_secret(secret: &[u8; 32]) -> Result<Self, IssuerError> {
                from_secret(secret).map(Self)
            }

            /// The secret scalar, big-endian.
            pub fn secret(&self) -> [u8; 32] {
                self.0.to_bytes().into()
            }

            /// The public key.
            pub fn verifying_key(&self) -> VerifyingKey {
                *self.0.verifying_key()
            }

            /// Public key coordinates (x, y), big-endian.
            pub fn public_xy(&self) -> ([u8; 32], [u8; 32]) {
                coordinates(self.0.verifying_key())
            }

            /// ES256 signature r ‖ s over `message`.
            pub fn sign(&self, message: &[u8]) -> [u8; 64] {
                sign(&self.0, message)
            }
        }
    };
}

key_type!(IssuerKey, "issuer");
key_type!(DeviceKey, "holder device");

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::signature::Verifier;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn keys_are_reproducible_and_sign() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        let a = IssuerKey::random(&mut rng);
        let b = IssuerKey::from_secret(&a.secret()).expect("valid");
        assert_eq!(a.public_xy(), b.public_xy());
        let sig = a.sign(b"hello");
        let sig = Signature::from_slice(&sig).expect("64 bytes");
        assert!(a.verifying_key().verify(b"hello", &sig).is_ok());
        assert!(a.verifying_key().verify(b"hellp", &sig).is_err());
        // The coordinates are those of the SEC1 uncompressed encoding.
        let sec1 = a.verifying_key().to_encoded_point(false);
        let (x, y) = a.public_xy();
        assert_eq!(&sec1.as_bytes()[1..33], &x);
        assert_eq!(&sec1.as_bytes()[33..], &y);
        assert!(DeviceKey::from_secret(&[0; 32]).is_err());
    }
}
