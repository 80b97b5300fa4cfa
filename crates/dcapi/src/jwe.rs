//! JWE compact serialization for encrypted OpenID4VP responses
//! (`response_mode` `dc_api.jwt`, OpenID4VP 1.0 §8.3): key management
//! `ECDH-ES` in direct key agreement mode on P-256 (RFC 7518 §4.6), content
//! encryption `A128GCM` or `A256GCM` (RFC 7518 §5.3), compact form of RFC
//! 7516 §7.1 with an empty JWE Encrypted Key.
//!
//! Only what a relying party needs to read a wallet's answer, and what a
//! wallet needs to write one, is implemented; everything else in a header
//! (compression, `crit`, other algorithms or curves) is refused rather than
//! ignored, since ignoring a `zip` or a critical extension would decrypt to
//! something other than what the sender meant.
//!
//! Every length is checked before anything is decoded or allocated: the
//! whole compact string against the caller's cap, each part against its
//! own limit (the IV and tag have fixed sizes, the header a small cap).

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes128Gcm, Aes256Gcm, Nonce};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use rand_core::{CryptoRng, RngCore};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

/// The one key management algorithm supported.
pub const ALG_ECDH_ES: &str = "ECDH-ES";
/// Longest encoded protected header accepted (an ECDH-ES header with its
/// `epk`, `kid`, `apu` and `apv` is a few hundred bytes).
pub const MAX_PROTECTED_HEADER: usize = 4096;
/// Longest `kid`, `apu` or `apv` (encoded) read from a header.
const MAX_HEADER_PARAM: usize = 512;
/// AES-GCM IV length (RFC 7518 §5.3: 96 bits).
const IV_LEN: usize = 12;
/// AES-GCM tag length (RFC 7518 §5.3: 128 bits).
const TAG_LEN: usize = 16;
/// P-256 coordinate length.
const COORD_LEN: usize = 32;

/// Why a JWE could not be built or read. All but [`JweError::Encrypt`]
/// refuse untrusted input, and none says more about the secret key than
/// "this does not decrypt": the `epk` is validated before any ECDH, so an
/// invalid-curve point never meets the key.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum JweError {
    /// The compact string or one of its parts is longer than allowed.
    #[error("JWE {what}: {found} bytes exceeds the limit of {limit}")]
    TooLarge {
        /// Which part.
        what: &'static str,
        /// The limit.
        limit: usize,
        /// What was found.
        found: usize,
    },
    /// Not five `.`-separated base64url parts, or a part of the wrong size.
    #[error("JWE compact serialization: {0}")]
    Format(String),
    /// The protected header is not the JSON object expected.
    #[error("JWE protected header: {0}")]
    Header(String),
    /// `alg`, `enc`, `zip`, `crit` or the `epk` curve is not supported.
    #[error("JWE: unsupported {0}")]
    Unsupported(String),
    /// The header names a `kid` other than the recipient key's.
    #[error("JWE `kid` `{0}` is not the recipient key's")]
    WrongKid(String),
    /// The `epk` (or a JWK given to encrypt to) is not a P-256 point.
    #[error("JWE: {0} is not a valid P-256 public key")]
    BadKey(&'static str),
    /// AES-GCM authentication failed: altered header, IV, ciphertext or
    /// tag, or a JWE encrypted to another key.
    #[error("JWE decryption failed (header, IV, ciphertext or tag altered, or another key)")]
    Decrypt,
    /// AES-GCM encryption failed (plaintext too long for GCM).
    #[error("JWE encryption failed")]
    Encrypt,
}

/// The content encryption algorithm (`enc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContentEncryption {
    /// AES-128 in GCM mode.
    A128Gcm,
    /// AES-256 in GCM mode.
    A256Gcm,
}

impl ContentEncryption {
    /// Both, in the order a relying party offers them.
    pub const ALL: [Self; 2] = [Self::A128Gcm, Self::A256Gcm];

    /// The `enc` header value (also the Concat KDF AlgorithmID in direct
    /// key agreement mode).
    pub fn name(self) -> &'static str {
        match self {
            Self::A128Gcm => "A128GCM",
            Self::A256Gcm => "A256GCM",
        }
    }

    /// The `enc` value, if supported.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Content encryption key length in bytes.
    pub fn key_len(self) -> usize {
        match self {
            Self::A128Gcm => 16,
            Self::A256Gcm => 32,
        }
    }

    /// AES-GCM under `key` (the CEK, `key_len` bytes): seals `msg` when
    /// `seal`, else opens it (ciphertext followed by the tag). `None` for a
    /// key of the wrong length or a tag that does not verify.
    fn aead(
        self,
        key: &[u8],
        iv: &[u8; IV_LEN],
        aad: &[u8],
        msg: &[u8],
        seal: bool,
    ) -> Option<Vec<u8>> {
        fn run<C: KeyInit + Aead>(
            key: &[u8],
            nonce: &Nonce<C::NonceSize>,
            payload: Payload<'_, '_>,
            seal: bool,
        ) -> Option<Vec<u8>> {
            let c = C::new_from_slice(key).ok()?;
            if seal {
                c.encrypt(nonce, payload).ok()
            } else {
                c.decrypt(nonce, payload).ok()
            }
        }
        let payload = Payload { msg, aad };
        let nonce = Nonce::from_slice(iv);
        match self {
            Self::A128Gcm => run::<Aes128Gcm>(key, nonce, payload, seal),
            Self::A256Gcm => run::<Aes256Gcm>(key, nonce, payload, seal),
        }
    }
}

/// The Concat KDF of NIST SP 800-56A §5.8.1 as RFC 7518 §4.6.2 profiles
/// it, with SHA-256: `OtherInfo = AlgorithmID || PartyUInfo || PartyVInfo
/// || SuppPubInfo`, the first three each a 32-bit big-endian length and
/// the data, SuppPubInfo the key length in bits (32-bit big-endian),
/// SuppPrivInfo empty. Fills `out` (its length is the key length).
pub fn concat_kdf(z: &[u8], algorithm_id: &[u8], apu: &[u8], apv: &[u8], out: &mut [u8]) {
    let prefixed = |h: &mut Sha256, data: &[u8]| {
        // Header parameters are capped far below 2^32 bytes.
        h.update((data.len() as u32).to_be_bytes());
        h.update(data);
    };
    let keydatalen_bits = (out.len() as u32).saturating_mul(8);
    for (i, chunk) in out.chunks_mut(32).enumerate() {
        let mut h = Sha256::new();
        h.update((i as u32 + 1).to_be_bytes());
        h.update(z);
        prefixed(&mut h, algorithm_id);
        prefixed(&mut h, apu);
        prefixed(&mut h, apv);
        h.update(keydatalen_bits.to_be_bytes());
        let d = h.finalize();
        chunk.copy_from_slice(&d[..chunk.len()]);
    }
}

/// A P-256 public key as a JWK (RFC 7518 §6.2.1): what a wallet encrypts
/// to, taken from the relying party's `client_metadata.jwks`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JwePublicKey {
    key: PublicKey,
    /// The JWK's `kid`, echoed in the JWE header so the relying party can
    /// tell which of its keys was used.
    pub kid: Option<String>,
}

impl JwePublicKey {
    /// Reads `{"kty": "EC", "crv": "P-256", "x", "y", ?"kid"}`; other
    /// members (`use`, `alg`) are the caller's to check.
    pub fn from_jwk(jwk: &Value) -> Result<Self, JweError> {
        let key = ec_public_key(jwk, "JWK")?;
        let kid = match jwk.get("kid") {
            None => None,
            Some(Value::String(s)) if s.len() <= MAX_HEADER_PARAM => Some(s.clone()),
            Some(_) => return Err(JweError::Header("JWK `kid` must be a short string".into())),
        };
        Ok(Self { key, kid })
    }

    /// `(x, y)`, big-endian.
    fn coordinates(&self) -> ([u8; COORD_LEN], [u8; COORD_LEN]) {
        coordinates(&self.key)
    }

    /// The RFC 7638 SHA-256 thumbprint.
    pub fn thumbprint(&self) -> [u8; 32] {
        let (x, y) = self.coordinates();
        jwk_thumbprint(&x, &y)
    }
}

fn coordinates(key: &PublicKey) -> ([u8; COORD_LEN], [u8; COORD_LEN]) {
    let p = key.to_encoded_point(false);
    let bytes = p.as_bytes();
    let mut x = [0u8; COORD_LEN];
    let mut y = [0u8; COORD_LEN];
    // An uncompressed SEC1 point of a valid public key (never identity):
    // 0x04 || x || y.
    if bytes.len() == 1 + 2 * COORD_LEN {
        x.copy_from_slice(&bytes[1..1 + COORD_LEN]);
        y.copy_from_slice(&bytes[1 + COORD_LEN..]);
    }
    (x, y)
}

/// The RFC 7638 JWK thumbprint of a P-256 key: SHA-256 of the UTF-8 JSON
/// `{"crv":"P-256","kty":"EC","x":"…","y":"…"}` (required members only,
/// lexicographic order, no whitespace, unpadded base64url coordinates).
pub fn jwk_thumbprint(x: &[u8; 32], y: &[u8; 32]) -> [u8; 32] {
    let canonical = format!(
        r#"{{"crv":"P-256","kty":"EC","x":"{}","y":"{}"}}"#,
        URL_SAFE_NO_PAD.encode(x),
        URL_SAFE_NO_PAD.encode(y)
    );
    Sha256::digest(canonical.as_bytes()).into()
}

fn public_jwk_members(key: &PublicKey) -> Map<String, Value> {
    let (x, y) = coordinates(key);
    let mut m = Map::new();
    m.insert("kty".into(), json!("EC"));
    m.insert("crv".into(), json!("P-256"));
    m.insert("x".into(), json!(URL_SAFE_NO_PAD.encode(x)));
    m.insert("y".into(), json!(URL_SAFE_NO_PAD.encode(y)));
    m
}

/// An EC P-256 public JWK's point, validated (on the curve, not the
/// identity).
fn ec_public_key(jwk: &Value, what: &'static str) -> Result<PublicKey, JweError> {
    let m = jwk
        .as_object()
        .ok_or_else(|| JweError::Header(format!("{what} must be a JSON object")))?;
    let text = |k: &str| m.get(k).and_then(Value::as_str);
    if text("kty") != Some("EC") {
        return Err(JweError::Unsupported(format!("{what} `kty` (expected EC)")));
    }
    if text("crv") != Some("P-256") {
        return Err(JweError::Unsupported(format!(
            "{what} `crv` (expected P-256)"
        )));
    }
    if m.contains_key("d") {
        return Err(JweError::Header(format!("{what} carries a private key")));
    }
    let coord = |k: &str| -> Result<[u8; COORD_LEN], JweError> {
        let s = text(k).ok_or_else(|| JweError::Header(format!("{what} lacks `{k}`")))?;
        // 32 bytes are 43 base64url characters; check before decoding.
        if s.len() != 43 {
            return Err(JweError::BadKey(what));
        }
        let b = URL_SAFE_NO_PAD
            .decode(s)
            .map_err(|_| JweError::BadKey(what))?;
        b.try_into().map_err(|_| JweError::BadKey(what))
    };
    let (x, y) = (coord("x")?, coord("y")?);
    let mut sec1 = [0u8; 1 + 2 * COORD_LEN];
    sec1[0] = 4;
    sec1[1..1 + COORD_LEN].copy_from_slice(&x);
    sec1[1 + COORD_LEN..].copy_from_slice(&y);
    PublicKey::from_sec1_bytes(&sec1).map_err(|_| JweError::BadKey(what))
}

/// The relying party's key for one encrypted response. [`Self::decrypt`]
/// consumes it; the secret scalar is zeroized when dropped (the curve
/// crate's `SecretKey` does so), so a session's key serves one decryption.
pub struct JweRecipientKey {
    secret: SecretKey,
    kid: String,
}

impl std::fmt::Debug for JweRecipientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "JweRecipientKey(kid {}, <secret>)", self.kid)
    }
}

impl JweRecipientKey {
    /// A fresh key named `kid`.
    pub fn generate(kid: String, rng: &mut (impl CryptoRng + RngCore)) -> Self {
        Self {
            secret: SecretKey::random(rng),
            kid,
        }
    }

    /// The key's `kid`.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    /// The public key as a wallet reads it.
    pub fn public_key(&self) -> JwePublicKey {
        JwePublicKey {
            key: self.secret.public_key(),
            kid: Some(self.kid.clone()),
        }
    }

    /// The public JWK for `client_metadata.jwks`: `kty`, `crv`, `x`, `y`,
    /// `kid`, `use: enc`, `alg: ECDH-ES`.
    pub fn public_jwk(&self) -> Value {
        let mut m = public_jwk_members(&self.secret.public_key());
        m.insert("kid".into(), json!(self.kid));
        m.insert("use".into(), json!("enc"));
        m.insert("alg".into(), json!(ALG_ECDH_ES));
        Value::Object(m)
    }

    /// The RFC 7638 thumbprint of the public key (the OpenID4VP DC API
    /// handover binds it).
    pub fn thumbprint(&self) -> [u8; 32] {
        self.public_key().thumbprint()
    }

    /// Decrypts a compact JWE of at most `max_len` bytes whose `enc` is in
    /// `accepted`; the key is gone afterwards whatever the outcome.
    pub fn decrypt(
        self,
        compact: &str,
        max_len: usize,
        accepted: &[ContentEncryption],
    ) -> Result<Vec<u8>, JweError> {
        if compact.len() > max_len {
            return Err(JweError::TooLarge {
                what: "compact serialization",
                limit: max_len,
                found: compact.len(),
            });
        }
        let parts: Vec<&str> = compact.splitn(6, '.').collect();
        let [header_b64, encrypted_key, iv_b64, ct_b64, tag_b64] = parts.as_slice() else {
            return Err(JweError::Format(format!(
                "{} parts, expected 5",
                parts.len()
            )));
        };
        if !encrypted_key.is_empty() {
            return Err(JweError::Format(
                "ECDH-ES direct key agreement has an empty JWE Encrypted Key".into(),
            ));
        }
        if header_b64.len() > MAX_PROTECTED_HEADER {
            return Err(JweError::TooLarge {
                what: "protected header",
                limit: MAX_PROTECTED_HEADER,
                found: header_b64.len(),
            });
        }
        // 12 and 16 bytes are 16 and 22 base64url characters.
        let iv = fixed_part::<IV_LEN>("IV", iv_b64, 16)?;
        let tag = fixed_part::<TAG_LEN>("authentication tag", tag_b64, 22)?;
        let header = decode_part("protected header", header_b64)?;
        let header: Value = serde_json::from_slice(&header)
            .map_err(|e| JweError::Header(format!("not JSON: {e}")))?;
        let h = Header::read(&header)?;
        if !accepted.contains(&h.enc) {
            return Err(JweError::Unsupported(format!("`enc` {}", h.enc.name())));
        }
        if let Some(kid) = &h.kid {
            if *kid != self.kid {
                return Err(JweError::WrongKid(kid.clone()));
            }
        }
        // The ciphertext is bounded by `max_len` (checked above).
        let mut ct = decode_part("ciphertext", ct_b64)?;
        ct.extend_from_slice(&tag);
        let shared = p256::ecdh::diffie_hellman(self.secret.to_nonzero_scalar(), h.epk.as_affine());
        let mut cek = vec![0u8; h.enc.key_len()];
        concat_kdf(
            shared.raw_secret_bytes(),
            h.enc.name().as_bytes(),
            &h.apu,
            &h.apv,
            &mut cek,
        );
        // RFC 7516 §5.2 step 14: AAD = ASCII(BASE64URL(protected header)),
        // as received (never re-encoded).
        let plain = h.enc.aead(&cek, &iv, header_b64.as_bytes(), &ct, false);
        cek.fill(0);
        plain.ok_or(JweError::Decrypt)
    }
}

/// The protected header fields used.
struct Header {
    enc: ContentEncryption,
    epk: PublicKey,
    kid: Option<String>,
    apu: Vec<u8>,
    apv: Vec<u8>,
}

impl Header {
    fn read(v: &Value) -> Result<Self, JweError> {
        let m = v
            .as_object()
            .ok_or_else(|| JweError::Header("not a JSON object".into()))?;
        let text = |k: &str| -> Result<Option<&str>, JweError> {
            match m.get(k) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s)),
                Some(_) => Err(JweError::Header(format!("`{k}` must be a string"))),
            }
        };
        match text("alg")? {
            Some(ALG_ECDH_ES) => {}
            Some(other) => return Err(JweError::Unsupported(format!("`alg` {other}"))),
            None => return Err(JweError::Header("missing `alg`".into())),
        }
        let enc = match text("enc")? {
            Some(name) => ContentEncryption::from_name(name)
                .ok_or_else(|| JweError::Unsupported(format!("`enc` {name}")))?,
            None => return Err(JweError::Header("missing `enc`".into())),
        };
        // Compression would change what the tag authenticates into what
        // the sender meant; critical extensions must be understood.
        if m.contains_key("zip") {
            return Err(JweError::Unsupported("`zip` (compression)".into()));
        }
        if m.contains_key("crit") {
            return Err(JweError::Unsupported("`crit` extensions".into()));
        }
        let epk = ec_public_key(
            m.get("epk")
                .ok_or_else(|| JweError::Header("missing `epk`".into()))?,
            "`epk`",
        )?;
        let kid = text("kid")?
            .map(|s| {
                if s.len() > MAX_HEADER_PARAM {
                    Err(JweError::TooLarge {
                        what: "`kid`",
                        limit: MAX_HEADER_PARAM,
                        found: s.len(),
                    })
                } else {
                    Ok(s.to_owned())
                }
            })
            .transpose()?;
        let party = |k: &'static str| -> Result<Vec<u8>, JweError> {
            match text(k)? {
                None => Ok(Vec::new()),
                Some(s) if s.len() > MAX_HEADER_PARAM => Err(JweError::TooLarge {
                    what: k,
                    limit: MAX_HEADER_PARAM,
                    found: s.len(),
                }),
                Some(s) => decode_part(k, s),
            }
        };
        Ok(Self {
            enc,
            epk,
            kid,
            apu: party("apu")?,
            apv: party("apv")?,
        })
    }
}

fn decode_part(what: &str, s: &str) -> Result<Vec<u8>, JweError> {
    URL_SAFE_NO_PAD
        .decode(s)
        .map_err(|e| JweError::Format(format!("{what} is not unpadded base64url: {e}")))
}

fn fixed_part<const N: usize>(
    what: &'static str,
    s: &str,
    encoded_len: usize,
) -> Result<[u8; N], JweError> {
    if s.len() != encoded_len {
        return Err(JweError::Format(format!(
            "{what} of {} characters, expected {encoded_len} ({N} bytes)",
            s.len()
        )));
    }
    decode_part(what, s)?
        .try_into()
        .map_err(|_| JweError::Format(format!("{what} is not {N} bytes")))
}

/// Optional header parameters of [`encrypt`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EncryptParams {
    /// Agreement PartyUInfo (`apu`), raw bytes; omitted when empty.
    pub apu: Vec<u8>,
    /// Agreement PartyVInfo (`apv`), raw bytes; omitted when empty.
    pub apv: Vec<u8>,
}

/// Encrypts `plaintext` to `recipient` (wallet side): a fresh ephemeral
/// key (`epk`), the recipient's `kid` when it has one, a random IV; returns
/// the compact serialization `header..iv.ciphertext.tag`.
pub fn encrypt(
    recipient: &JwePublicKey,
    enc: ContentEncryption,
    params: &EncryptParams,
    plaintext: &[u8],
    rng: &mut (impl CryptoRng + RngCore),
) -> Result<String, JweError> {
    let ephemeral = SecretKey::random(rng);
    let mut header = Map::new();
    header.insert("alg".into(), json!(ALG_ECDH_ES));
    header.insert("enc".into(), json!(enc.name()));
    header.insert(
        "epk".into(),
        Value::Object(public_jwk_members(&ephemeral.public_key())),
    );
    if let Some(kid) = &recipient.kid {
        header.insert("kid".into(), json!(kid));
    }
    if !params.apu.is_empty() {
        header.insert("apu".into(), json!(URL_SAFE_NO_PAD.encode(&params.apu)));
    }
    if !params.apv.is_empty() {
        header.insert("apv".into(), json!(URL_SAFE_NO_PAD.encode(&params.apv)));
    }
    let header_b64 = URL_SAFE_NO_PAD.encode(Value::Object(header).to_string());
    let shared =
        p256::ecdh::diffie_hellman(ephemeral.to_nonzero_scalar(), recipient.key.as_affine());
    let mut cek = vec![0u8; enc.key_len()];
    concat_kdf(
        shared.raw_secret_bytes(),
        enc.name().as_bytes(),
        &params.apu,
        &params.apv,
        &mut cek,
    );
    let mut iv = [0u8; IV_LEN];
    rng.fill_bytes(&mut iv);
    let sealed = enc.aead(&cek, &iv, header_b64.as_bytes(), plaintext, true);
    cek.fill(0);
    let sealed = sealed.ok_or(JweError::Encrypt)?;
    let ct_len = sealed.len().checked_sub(TAG_LEN).ok_or(JweError::Encrypt)?;
    let (ct, tag) = sealed.split_at(ct_len);
    Ok(format!(
        "{header_b64}..{}.{}.{}",
        URL_SAFE_NO_PAD.encode(iv),
        URL_SAFE_NO_PAD.encode(ct),
        URL_SAFE_NO_PAD.encode(tag)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    // RFC 7518 Appendix C ("Example ECDH-ES Key Agreement Computation"):
    // Alice's ephemeral key, Bob's static key, the shared secret Z, and the
    // A128GCM key derived with apu "Alice", apv "Bob".
    const ALICE_X: &str = "gI0GAILBdu7T53akrFmMyGcsF3n5dO7MmwNBHKW5SV0";
    const ALICE_Y: &str = "SLW_xSffzlPWrHEVI30DHM_4egVwt3NQqeUD7nMFpps";
    const BOB_X: &str = "weNJy2HscCSM6AEDTDg04biOvhFhyyWvOHQfeF_PxMQ";
    const BOB_Y: &str = "e8lnCO-AlStT-NJVX-crhB7QRYhiix03illJOVAOyck";
    const BOB_D: &str = "VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw";
    const Z: [u8; 32] = [
        158, 86, 217, 29, 129, 113, 53, 211, 114, 131, 66, 131, 191, 132, 38, 156, 251, 49, 110,
        163, 218, 128, 106, 72, 246, 218, 167, 121, 140, 254, 144, 196,
    ];
    const DERIVED: [u8; 16] = [
        86, 170, 141, 234, 248, 35, 109, 32, 92, 34, 40, 205, 113, 167, 16, 26,
    ];
    /// RFC 7518 Appendix C's protected header (its JSON, spacing removed).
    fn rfc_header() -> String {
        format!(
            r#"{{"alg":"ECDH-ES","enc":"A128GCM","apu":"QWxpY2U","apv":"Qm9i","epk":{{"kty":"EC","crv":"P-256","x":"{ALICE_X}","y":"{ALICE_Y}"}}}}"#
        )
    }

    fn bob(kid: &str) -> JweRecipientKey {
        let d = URL_SAFE_NO_PAD
            .decode(BOB_D)
            .expect("well-formed test input");
        JweRecipientKey {
            secret: SecretKey::from_slice(&d).expect("well-formed test input"),
            kid: kid.into(),
        }
    }

    fn rng(seed: u64) -> ChaCha20Rng {
        ChaCha20Rng::seed_from_u64(seed)
    }

    #[test]
    fn concat_kdf_matches_rfc7518_appendix_c() {
        let mut out = [0u8; 16];
        concat_kdf(&Z, b"A128GCM", b"Alice", b"Bob", &mut out);
        assert_eq!(out, DERIVED);
        assert_eq!(URL_SAFE_NO_PAD.encode(out), "VqqN6vgjbSBcIijNcacQGg");
    }

    #[test]
    fn ecdh_matches_rfc7518_appendix_c() {
        let bob = bob("b");
        assert_eq!(
            bob.public_key(),
            JwePublicKey::from_jwk(
                &json!({"kty": "EC", "crv": "P-256", "x": BOB_X, "y": BOB_Y, "kid": "b"})
            )
            .expect("well-formed test input")
        );
        let alice = ec_public_key(
            &json!({"kty": "EC", "crv": "P-256", "x": ALICE_X, "y": ALICE_Y}),
            "epk",
        )
        .expect("well-formed test input");
        let z = p256::ecdh::diffie_hellman(bob.secret.to_nonzero_scalar(), alice.as_affine());
        assert_eq!(z.raw_secret_bytes().as_slice(), Z);
    }

    /// A JWE with the RFC's header whose content is sealed, by AES-GCM
    /// directly, under the RFC's derived key: decrypting it exercises the
    /// ECDH, the Concat KDF with `apu`/`apv` from the header, and the AAD.
    #[test]
    fn decrypts_under_the_rfc7518_appendix_c_key() {
        let header_b64 = URL_SAFE_NO_PAD.encode(rfc_header());
        let iv = [7u8; 12];
        let sealed = Aes128Gcm::new_from_slice(&DERIVED)
            .expect("well-formed test input")
            .encrypt(
                Nonce::from_slice(&iv),
                Payload {
                    msg: b"{\"vp_token\":\"x\"}",
                    aad: header_b64.as_bytes(),
                },
            )
            .expect("well-formed test input");
        let (ct, tag) = sealed.split_at(sealed.len() - 16);
        let compact = format!(
            "{header_b64}..{}.{}.{}",
            URL_SAFE_NO_PAD.encode(iv),
            URL_SAFE_NO_PAD.encode(ct),
            URL_SAFE_NO_PAD.encode(tag)
        );
        let plain = bob("b")
            .decrypt(&compact, 1 << 16, &ContentEncryption::ALL)
            .expect("well-formed test input");
        assert_eq!(plain, b"{\"vp_token\":\"x\"}");
    }

    /// RFC 9449 (DPoP) §4.1 / §6.1: the example P-256 key and its RFC 7638
    /// thumbprint (`jkt`).
    #[test]
    fn thumbprint_matches_rfc9449_example() {
        let k = JwePublicKey::from_jwk(&json!({
            "kty": "EC",
            "x": "l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs",
            "y": "9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA",
            "crv": "P-256"
        }))
        .expect("well-formed test input");
        assert_eq!(
            URL_SAFE_NO_PAD.encode(k.thumbprint()),
            "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
        );
    }

    #[test]
    fn round_trips_both_encs_with_and_without_apu_apv() {
        for (i, enc) in ContentEncryption::ALL.into_iter().enumerate() {
            for params in [
                EncryptParams::default(),
                EncryptParams {
                    apu: b"wallet".to_vec(),
                    apv: b"nonce".to_vec(),
                },
            ] {
                let key = JweRecipientKey::generate("k1".into(), &mut rng(i as u64));
                let jwk = key.public_jwk();
                assert_eq!(jwk["use"], "enc");
                assert_eq!(jwk["alg"], "ECDH-ES");
                assert_eq!(jwk["kid"], "k1");
                let public = JwePublicKey::from_jwk(&jwk).expect("well-formed test input");
                assert_eq!(public.thumbprint(), key.thumbprint());
                let compact = encrypt(&public, enc, &params, b"hello", &mut rng(9))
                    .expect("well-formed test input");
                let header: Value = serde_json::from_slice(
                    &URL_SAFE_NO_PAD
                        .decode(compact.split('.').next().expect("well-formed test input"))
                        .expect("well-formed test input"),
                )
                .expect("well-formed test input");
                assert_eq!(header["alg"], "ECDH-ES");
                assert_eq!(header["enc"], enc.name());
                assert_eq!(header["kid"], "k1");
                assert_eq!(header["epk"]["crv"], "P-256");
                assert_eq!(header.get("apu").is_some(), !params.apu.is_empty());
                assert_eq!(
                    key.decrypt(&compact, 1 << 16, &ContentEncryption::ALL)
                        .expect("well-formed test input"),
                    b"hello"
                );
            }
        }
    }

    fn sample(seed: u64) -> (JwePublicKey, String) {
        let key = JweRecipientKey::generate("k".into(), &mut rng(seed));
        let public = key.public_key();
        let compact = encrypt(
            &public,
            ContentEncryption::A128Gcm,
            &EncryptParams::default(),
            b"a plaintext of some length",
            &mut rng(seed + 100),
        )
        .expect("well-formed test input");
        (public, compact)
    }

    fn open(seed: u64, compact: &str) -> Result<Vec<u8>, JweError> {
        JweRecipientKey::generate("k".into(), &mut rng(seed)).decrypt(
            compact,
            1 << 16,
            &ContentEncryption::ALL,
        )
    }

    fn parts(compact: &str) -> Vec<String> {
        compact.split('.').map(str::to_owned).collect()
    }

    fn flip(part: &str, byte: usize) -> String {
        let mut b = URL_SAFE_NO_PAD
            .decode(part)
            .expect("well-formed test input");
        b[byte] ^= 0x01;
        URL_SAFE_NO_PAD.encode(b)
    }

    #[test]
    fn every_alteration_is_refused() {
        let (_, compact) = sample(1);
        assert!(open(1, &compact).is_ok());
        // IV, ciphertext and tag: one bit each.
        for i in [2usize, 3, 4] {
            let mut p = parts(&compact);
            p[i] = flip(&p[i], 0);
            assert_eq!(open(1, &p.join(".")), Err(JweError::Decrypt), "part {i}");
        }
        // Header: an extra member (still valid, same epk): the AAD differs.
        let typ = with_header(&compact, |h| h["typ"] = json!("x"));
        assert_eq!(open(1, &typ), Err(JweError::Decrypt));
        // Header: another valid epk (a different shared secret).
        let other = JweRecipientKey::generate("o".into(), &mut rng(77)).public_jwk();
        let moved = with_header(&compact, |h| {
            h["epk"]["x"] = other["x"].clone();
            h["epk"]["y"] = other["y"].clone();
        });
        assert_eq!(open(1, &moved), Err(JweError::Decrypt));
        // An epk off the curve.
        let off_curve = with_header(&compact, |h| {
            h["epk"]["x"] = other["x"].clone();
            h["epk"]["y"] = other["x"].clone();
        });
        assert_eq!(open(1, &off_curve), Err(JweError::BadKey("`epk`")));
        // Another key with the same kid: authentication fails.
        assert_eq!(open(2, &compact), Err(JweError::Decrypt));
        // Another key with another kid: refused by name.
        assert_eq!(
            JweRecipientKey::generate("other".into(), &mut rng(1)).decrypt(
                &compact,
                1 << 16,
                &ContentEncryption::ALL
            ),
            Err(JweError::WrongKid("k".into()))
        );
    }

    fn with_header(compact: &str, edit: impl FnOnce(&mut Value)) -> String {
        let mut p = parts(compact);
        let mut h: Value = serde_json::from_slice(
            &URL_SAFE_NO_PAD
                .decode(&p[0])
                .expect("well-formed test input"),
        )
        .expect("well-formed test input");
        edit(&mut h);
        p[0] = URL_SAFE_NO_PAD.encode(h.to_string());
        p.join(".")
    }

    #[test]
    fn unsupported_headers_and_shapes_are_refused() {
        let (_, compact) = sample(3);
        type Case = (String, fn(&JweError) -> bool);
        let cases: Vec<Case> = vec![
            (
                with_header(&compact, |h| h["alg"] = json!("ECDH-ES+A128KW")),
                |e| matches!(e, JweError::Unsupported(_)),
            ),
            (
                with_header(&compact, |h| h["enc"] = json!("A128CBC-HS256")),
                |e| matches!(e, JweError::Unsupported(_)),
            ),
            (with_header(&compact, |h| h["zip"] = json!("DEF")), |e| {
                matches!(e, JweError::Unsupported(_))
            }),
            (with_header(&compact, |h| h["crit"] = json!(["exp"])), |e| {
                matches!(e, JweError::Unsupported(_))
            }),
            (
                with_header(&compact, |h| h["epk"]["crv"] = json!("P-384")),
                |e| matches!(e, JweError::Unsupported(_)),
            ),
            (
                with_header(&compact, |h| {
                    h.as_object_mut()
                        .expect("well-formed test input")
                        .remove("epk");
                }),
                |e| matches!(e, JweError::Header(_)),
            ),
            (
                with_header(&compact, |h| h["epk"]["d"] = json!(BOB_D)),
                |e| matches!(e, JweError::Header(_)),
            ),
            (format!("{compact}.x"), |e| matches!(e, JweError::Format(_))),
            (compact.replacen("..", ".AAAA.", 1), |e| {
                matches!(e, JweError::Format(_))
            }),
            (
                {
                    let mut p = parts(&compact);
                    p[2] = URL_SAFE_NO_PAD.encode([0u8; 16]);
                    p.join(".")
                },
                |e| matches!(e, JweError::Format(_)),
            ),
            (
                {
                    let mut p = parts(&compact);
                    p[4] = URL_SAFE_NO_PAD.encode([0u8; 12]);
                    p.join(".")
                },
                |e| matches!(e, JweError::Format(_)),
            ),
            (
                {
                    let mut p = parts(&compact);
                    p[3].push('*');
                    p.join(".")
                },
                |e| matches!(e, JweError::Format(_)),
            ),
        ];
        for (c, check) in cases {
            let e = open(3, &c).expect_err("must be refused");
            assert!(check(&e), "{e}");
        }
        // Only the accepted encs.
        assert!(matches!(
            JweRecipientKey::generate("k".into(), &mut rng(3)).decrypt(
                &compact,
                1 << 16,
                &[ContentEncryption::A256Gcm]
            ),
            Err(JweError::Unsupported(_))
        ));
    }

    #[test]
    fn limits_are_checked_before_decoding() {
        let (_, compact) = sample(4);
        assert_eq!(
            JweRecipientKey::generate("k".into(), &mut rng(4)).decrypt(
                &compact,
                compact.len() - 1,
                &ContentEncryption::ALL
            ),
            Err(JweError::TooLarge {
                what: "compact serialization",
                limit: compact.len() - 1,
                found: compact.len()
            })
        );
        let long = format!(
            "{}..AAAAAAAAAAAAAAAA.AA.AAAAAAAAAAAAAAAAAAAAAA",
            "A".repeat(5000)
        );
        assert!(matches!(
            open(4, &long),
            Err(JweError::TooLarge {
                what: "protected header",
                ..
            })
        ));
        let kid = with_header(&compact, |h| h["kid"] = json!("k".repeat(600)));
        assert!(matches!(open(4, &kid), Err(JweError::TooLarge { .. })));
    }
}
