//! One parsed certificate and the facts the path checks need.

use x509_cert::der::asn1::ObjectIdentifier;
use x509_cert::der::{Decode, Encode, Reader, SliceReader};
use x509_cert::ext::pkix::{BasicConstraints, ExtendedKeyUsage, KeyUsage};
use x509_cert::Certificate;

use crate::error::TrustError;
use crate::signature::PublicKey;

const KEY_USAGE: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.15");
const BASIC_CONSTRAINTS: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.19");
const EXT_KEY_USAGE: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.37");

/// Largest certificate accepted (real IACA and DS certificates are 0.5–2 KB).
pub const MAX_CERTIFICATE_BYTES: usize = 16 << 10;

/// A certificate with its checked encoding and decoded extensions.
#[derive(Clone, Debug)]
pub struct ParsedCertificate {
    /// The DER bytes (re-encoding gives the same bytes).
    pub der: Vec<u8>,
    /// The decoded certificate.
    pub cert: Certificate,
    /// Subject, RFC 4514 text.
    pub subject: String,
    /// notBefore and notAfter, Unix seconds.
    pub validity: (i64, i64),
    /// keyUsage, when present.
    pub key_usage: Option<KeyUsage>,
    /// extendedKeyUsage purposes, when present.
    pub ext_key_usage: Option<Vec<ObjectIdentifier>>,
    /// basicConstraints cA, when present.
    pub is_ca: Option<bool>,
    /// Critical extensions other than the three above.
    pub unhandled_critical: Vec<String>,
}

impl ParsedCertificate {
    /// Parses `der` strictly: one certificate, DER, nothing after it.
    pub fn parse(der: &[u8], what: &str) -> Result<Self, TrustError> {
        let bad = |detail: String| TrustError::BadCertificate {
            what: what.to_owned(),
            detail,
        };
        if der.len() > MAX_CERTIFICATE_BYTES {
            return Err(bad(format!(
                "{} bytes, more than {MAX_CERTIFICATE_BYTES}",
                der.len()
            )));
        }
        let cert = Certificate::from_der(der).map_err(|e| bad(e.to_string()))?;
        // Signatures are checked over the re-encoded TBSCertificate, so the
        // input must be exactly its DER encoding.
        if cert.to_der().map_err(|e| bad(e.to_string()))? != der {
            return Err(bad("not in DER (re-encoding differs)".into()));
        }
        let tbs = &cert.tbs_certificate;
        let secs = |t: x509_cert::time::Time| {
            i64::try_from(t.to_unix_duration().as_secs()).unwrap_or(i64::MAX)
        };
        let validity = (secs(tbs.validity.not_before), secs(tbs.validity.not_after));
        let mut key_usage = None;
        let mut ext_key_usage = None;
        let mut is_ca = None;
        let mut unhandled_critical = Vec::new();
        for ext in tbs.extensions.iter().flatten() {
            let value = ext.extn_value.as_bytes();
            let ext_err = |e: x509_cert::der::Error| bad(format!("extension {}: {e}", ext.extn_id));
            if ext.extn_id == KEY_USAGE {
                key_usage = Some(KeyUsage::from_der(value).map_err(ext_err)?);
            } else if ext.extn_id == EXT_KEY_USAGE {
                ext_key_usage = Some(ExtendedKeyUsage::from_der(value).map_err(ext_err)?.0);
            } else if ext.extn_id == BASIC_CONSTRAINTS {
                is_ca = Some(BasicConstraints::from_der(value).map_err(ext_err)?.ca);
            } else if ext.critical {
                unhandled_critical.push(ext.extn_id.to_string());
            }
        }
        Ok(Self {
            der: der.to_vec(),
            subject: tbs.subject.to_string(),
            cert,
            validity,
            key_usage,
            ext_key_usage,
            is_ca,
            unhandled_critical,
        })
    }

    /// Issuer name, RFC 4514 text.
    pub fn issuer(&self) -> String {
        self.cert.tbs_certificate.issuer.to_string()
    }

    /// Whether `issuer`'s subject is this certificate's issuer name.
    pub fn named_issuer_is(&self, issuer: &ParsedCertificate) -> bool {
        self.cert.tbs_certificate.issuer == issuer.cert.tbs_certificate.subject
    }

    /// The subject public key.
    pub fn public_key(&self) -> Result<PublicKey, TrustError> {
        PublicKey::from_spki(&self.cert.tbs_certificate.subject_public_key_info)
    }

    /// The subject key's affine coordinates (big-endian) when it is ECDSA
    /// P-256, the only issuer key the mdoc circuits verify.
    pub fn p256_coordinates(&self) -> Result<([u8; 32], [u8; 32]), TrustError> {
        match self.public_key()? {
            PublicKey::P256(k) => {
                let point = k.to_encoded_point(false);
                let mut x = [0u8; 32];
                let mut y = [0u8; 32];
                if let (Some(px), Some(py)) = (point.x(), point.y()) {
                    x.copy_from_slice(px);
                    y.copy_from_slice(py);
                }
                Ok((x, y))
            }
            other => Err(TrustError::NotP256 {
                subject: self.subject.clone(),
                found: other.describe().into(),
            }),
        }
    }

    /// Checks the validity period at `at` (Unix seconds).
    pub fn check_time(&self, at: i64) -> Result<(), TrustError> {
        let (not_before, not_after) = self.validity;
        if at < not_before || at > not_after {
            return Err(TrustError::Expired {
                subject: self.subject.clone(),
                at,
                not_before,
                not_after,
            });
        }
        Ok(())
    }

    /// Refuses critical extensions that no check here evaluates.
    pub fn check_criticals(&self) -> Result<(), TrustError> {
        match self.unhandled_critical.first() {
            Some(oid) => Err(TrustError::UnhandledCritical {
                subject: self.subject.clone(),
                oid: oid.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Checks that this certificate may sign certificates: cA true and,
    /// when keyUsage is present, keyCertSign.
    pub fn check_ca(&self) -> Result<(), TrustError> {
        let usage = |reason| TrustError::KeyUsage {
            subject: self.subject.clone(),
            reason,
        };
        if self.is_ca != Some(true) {
            return Err(usage(
                "not a CA certificate (basicConstraints cA is not true)",
            ));
        }
        if let Some(ku) = &self.key_usage {
            if !ku.key_cert_sign() {
                return Err(usage("keyUsage lacks keyCertSign"));
            }
        }
        Ok(())
    }

    /// Whether `self` signed `child` (signature algorithm and key checked).
    pub fn verify_child(&self, child: &ParsedCertificate) -> Result<(), TrustError> {
        let key = self.public_key()?;
        let tbs = child
            .cert
            .tbs_certificate
            .to_der()
            .map_err(|e| TrustError::BadCertificate {
                what: child.subject.clone(),
                detail: e.to_string(),
            })?;
        let sig =
            child.cert.signature.as_bytes().ok_or_else(|| {
                TrustError::UnsupportedAlgorithm("signature with unused bits".into())
            })?;
        if key.verify_der(&child.cert.signature_algorithm.oid, &tbs, sig)? {
            Ok(())
        } else {
            Err(TrustError::BadSignature {
                subject: child.subject.clone(),
                issuer: self.subject.clone(),
            })
        }
    }
}

/// Splits one byte string into the DER certificates concatenated in it
/// (Google's service accepts a bstr holding a DS certificate followed by
/// intermediates; an msoX5chain array holds one per element).
pub fn split_der_certificates(bytes: &[u8]) -> Result<Vec<&[u8]>, TrustError> {
    let mut out = Vec::new();
    let mut offset = 0;
    while offset < bytes.len() {
        let rest = &bytes[offset..];
        let reader = SliceReader::new(rest).map_err(|e| TrustError::BadCertificate {
            what: "msoX5chain".into(),
            detail: e.to_string(),
        })?;
        let len = reader
            .peek_header()
            .and_then(|h| h.encoded_len().and_then(|hl| hl + h.length))
            .map_err(|e| TrustError::BadCertificate {
                what: "msoX5chain".into(),
                detail: e.to_string(),
            })?;
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        let item = rest.get(..len).ok_or_else(|| TrustError::BadCertificate {
            what: "msoX5chain".into(),
            detail: "truncated certificate".into(),
        })?;
        out.push(item);
        offset += len;
    }
    Ok(out)
}
