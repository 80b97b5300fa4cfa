//! EncryptionInfo, EncryptedResponse and the HPKE around them
//! (ISO/IEC TS 18013-7 Annex C): base mode, DHKEM(P-256, HKDF-SHA256),
//! HKDF-SHA256, AES-128-GCM, `info` = the CBOR SessionTranscript, empty
//! `aad`. Binding the transcript as `info` means a response sealed for
//! another origin or another session's key cannot be opened here.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hpke::aead::AesGcm128;
use hpke::kdf::HkdfSha256;
use hpke::kem::DhP256HkdfSha256;
use hpke::{Deserializable, Kem as _, OpModeR, OpModeS, Serializable};
use minicbor::Encoder;
use rand_core::{CryptoRng, RngCore};

use crate::cbor::{ok, once, Reader};
use crate::error::DcApiError;
use crate::transcript::DCAPI_HANDOVER;

type Kem = DhP256HkdfSha256;
type PublicKey = <Kem as hpke::Kem>::PublicKey;
type PrivateKey = <Kem as hpke::Kem>::PrivateKey;
type EncappedKey = <Kem as hpke::Kem>::EncappedKey;

/// Length of an uncompressed SEC1 P-256 point (`enc`, public keys).
const POINT_LEN: usize = 65;
/// Shortest EncryptionInfo nonce accepted (Annex C asks for at least 16
/// bytes of entropy).
pub const MIN_NONCE_LEN: usize = 16;

/// COSE_Key labels and values (RFC 9052/9053).
const KTY: i64 = 1;
const KTY_EC2: i64 = 2;
const CRV: i64 = -1;
const CRV_P256: i64 = 1;
const X: i64 = -2;
const Y: i64 = -3;

/// `["dcapi", {"nonce": bstr, "recipientPublicKey": COSE_Key}]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncryptionInfo {
    /// The relying party's nonce (at least 16 random bytes).
    pub nonce: Vec<u8>,
    /// x coordinate of the recipient key.
    pub recipient_x: [u8; 32],
    /// y coordinate of the recipient key.
    pub recipient_y: [u8; 32],
}

impl EncryptionInfo {
    /// The CBOR, map keys in the order above, COSE_Key labels 1, -1, -2, -3.
    pub fn encode(&self) -> Vec<u8> {
        let mut e = Encoder::new(Vec::new());
        ok(e.array(2));
        ok(e.str(DCAPI_HANDOVER));
        ok(e.map(2));
        ok(e.str("nonce"));
        ok(e.bytes(&self.nonce));
        ok(e.str("recipientPublicKey"));
        ok(e.map(4));
        ok(e.i64(KTY).and_then(|e| e.i64(KTY_EC2)));
        ok(e.i64(CRV).and_then(|e| e.i64(CRV_P256)));
        ok(e.i64(X).and_then(|e| e.bytes(&self.recipient_x)));
        ok(e.i64(Y).and_then(|e| e.bytes(&self.recipient_y)));
        e.into_writer()
    }

    /// Unpadded base64url of [`Self::encode`], as the DC API request carries
    /// it and the `dcapi` handover hashes it.
    pub fn to_base64url(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.encode())
    }

    /// Decodes and checks the shape (wallet side).
    pub fn decode(bytes: &[u8]) -> Result<Self, DcApiError> {
        let mut r = Reader::new(bytes, "EncryptionInfo");
        if r.array(2)? != 2 {
            return Err(r.shape("expected [\"dcapi\", parameters]"));
        }
        let name = r.str()?;
        if name != DCAPI_HANDOVER {
            return Err(r.shape(format!("type `{name}`, expected `dcapi`")));
        }
        let n = r.map(8)?;
        let (mut nonce, mut key) = (None, None);
        let mut seen = Vec::new();
        for _ in 0..n {
            let k = r.str()?;
            once(&mut seen, &r, k)?;
            match k {
                "nonce" => nonce = Some(r.bytes()?.to_vec()),
                "recipientPublicKey" => key = Some(cose_key(&mut r)?),
                _ => r.skip()?,
            }
        }
        r.finish()?;
        let nonce = nonce.ok_or_else(|| r.shape("missing `nonce`"))?;
        if nonce.len() < MIN_NONCE_LEN {
            return Err(r.shape(format!(
                "nonce of {} bytes, fewer than {MIN_NONCE_LEN}",
                nonce.len()
            )));
        }
        let (recipient_x, recipient_y) =
            key.ok_or_else(|| r.shape("missing `recipientPublicKey`"))?;
        Ok(Self {
            nonce,
            recipient_x,
            recipient_y,
        })
    }

    fn public_key(&self) -> Result<PublicKey, DcApiError> {
        let mut sec1 = [0u8; POINT_LEN];
        sec1[0] = 4;
        sec1[1..33].copy_from_slice(&self.recipient_x);
        sec1[33..].copy_from_slice(&self.recipient_y);
        PublicKey::from_bytes(&sec1).map_err(|_| DcApiError::BadPublicKey)
    }
}

/// An EC2 P-256 COSE_Key: its x and y.
fn cose_key(r: &mut Reader<'_>) -> Result<([u8; 32], [u8; 32]), DcApiError> {
    let n = r.map(16)?;
    let (mut kty, mut crv, mut x, mut y) = (None, None, None, None);
    for _ in 0..n {
        if r.datatype()? == minicbor::data::Type::String {
            r.str()?;
            r.skip()?;
            continue;
        }
        let label = r.int()?;
        let slot = match label {
            KTY => &mut kty,
            CRV => &mut crv,
            _ => {
                match label {
                    X => x = Some(coordinate(r)?),
                    Y => y = Some(coordinate(r)?),
                    _ => r.skip()?,
                }
                continue;
            }
        };
        if slot.is_some() {
            return Err(r.shape(format!("COSE_Key label {label} twice")));
        }
        *slot = Some(r.int()?);
    }
    if kty != Some(KTY_EC2) || crv != Some(CRV_P256) {
        return Err(r.shape("recipientPublicKey is not an EC2 P-256 COSE_Key"));
    }
    match (x, y) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(r.shape("recipientPublicKey lacks x or y")),
    }
}

fn coordinate(r: &mut Reader<'_>) -> Result<[u8; 32], DcApiError> {
    let b = r.bytes()?;
    b.try_into()
        .map_err(|_| r.shape(format!("coordinate of {} bytes, expected 32", b.len())))
}

/// `["dcapi", {"enc": bstr, "cipherText": bstr}]`: the wallet's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncryptedResponse {
    /// The HPKE encapsulated key (uncompressed P-256 point).
    pub enc: Vec<u8>,
    /// The sealed DeviceResponse (with its 16-byte tag).
    pub cipher_text: Vec<u8>,
}

impl EncryptedResponse {
    /// The CBOR.
    pub fn encode(&self) -> Vec<u8> {
        let mut e = Encoder::new(Vec::new());
        ok(e.array(2));
        ok(e.str(DCAPI_HANDOVER));
        ok(e.map(2));
        ok(e.str("enc").and_then(|e| e.bytes(&self.enc)));
        ok(e.str("cipherText").and_then(|e| e.bytes(&self.cipher_text)));
        e.into_writer()
    }

    /// Decodes and checks the shape; `max_cipher_text` bounds the copy.
    pub fn decode(bytes: &[u8], max_cipher_text: usize) -> Result<Self, DcApiError> {
        let mut r = Reader::new(bytes, "EncryptedResponse");
        if r.array(2)? != 2 {
            return Err(r.shape("expected [\"dcapi\", {\"enc\", \"cipherText\"}]"));
        }
        let name = r.str()?;
        if name != DCAPI_HANDOVER {
            return Err(r.shape(format!("type `{name}`, expected `dcapi`")));
        }
        let n = r.map(8)?;
        let (mut enc, mut ct) = (None, None);
        let mut seen = Vec::new();
        for _ in 0..n {
            let k = r.str()?;
            once(&mut seen, &r, k)?;
            match k {
                "enc" => {
                    let b = r.bytes()?;
                    if b.len() != POINT_LEN {
                        return Err(
                            r.shape(format!("`enc` of {} bytes, expected {POINT_LEN}", b.len()))
                        );
                    }
                    enc = Some(b.to_vec());
                }
                "cipherText" => {
                    let b = r.bytes()?;
                    if b.len() > max_cipher_text {
                        return Err(DcApiError::TooLarge {
                            what: "cipherText",
                            limit: max_cipher_text,
                            found: b.len() as u64,
                        });
                    }
                    ct = Some(b.to_vec());
                }
                _ => r.skip()?,
            }
        }
        r.finish()?;
        Ok(Self {
            enc: enc.ok_or_else(|| r.shape("missing `enc`"))?,
            cipher_text: ct.ok_or_else(|| r.shape("missing `cipherText`"))?,
        })
    }
}

/// The relying party's ephemeral HPKE key for one session. It opens one
/// response: [`Self::open`] consumes it, and the secret scalar is wiped
/// when it is dropped (the curve crate zeroizes secret keys on drop).
pub struct RecipientKey {
    secret: PrivateKey,
    public: PublicKey,
}

impl std::fmt::Debug for RecipientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RecipientKey(<secret>)")
    }
}

impl RecipientKey {
    /// A fresh key pair.
    pub fn generate(rng: &mut (impl CryptoRng + RngCore)) -> Self {
        let (secret, public) = Kem::gen_keypair(rng);
        Self { secret, public }
    }

    /// The EncryptionInfo announcing this key with `nonce`.
    pub fn encryption_info(&self, nonce: Vec<u8>) -> EncryptionInfo {
        let sec1 = self.public.to_bytes();
        let mut recipient_x = [0u8; 32];
        let mut recipient_y = [0u8; 32];
        recipient_x.copy_from_slice(&sec1[1..33]);
        recipient_y.copy_from_slice(&sec1[33..POINT_LEN]);
        EncryptionInfo {
            nonce,
            recipient_x,
            recipient_y,
        }
    }

    /// Opens `response` sealed to this key under `session_transcript`;
    /// the key is gone afterwards whatever the outcome.
    pub fn open(
        self,
        response: &EncryptedResponse,
        session_transcript: &[u8],
    ) -> Result<Vec<u8>, DcApiError> {
        let enc = EncappedKey::from_bytes(&response.enc).map_err(|_| DcApiError::BadEncappedKey)?;
        hpke::single_shot_open::<AesGcm128, HkdfSha256, Kem>(
            &OpModeR::Base,
            &self.secret,
            &enc,
            session_transcript,
            &response.cipher_text,
            b"",
        )
        .map_err(|_| DcApiError::Decrypt)
    }
}

/// Seals `plaintext` (the DeviceResponse CBOR) to the key of `info` under
/// `session_transcript` (wallet side).
pub fn seal(
    info: &EncryptionInfo,
    session_transcript: &[u8],
    plaintext: &[u8],
    rng: &mut (impl CryptoRng + RngCore),
) -> Result<EncryptedResponse, DcApiError> {
    let pk = info.public_key()?;
    let (enc, cipher_text) = hpke::single_shot_seal::<AesGcm128, HkdfSha256, Kem, _>(
        &OpModeS::Base,
        &pk,
        session_transcript,
        plaintext,
        b"",
        rng,
    )
    .map_err(|_| DcApiError::Encrypt)?;
    Ok(EncryptedResponse {
        enc: enc.to_bytes().to_vec(),
        cipher_text,
    })
}
