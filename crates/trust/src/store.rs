//! Trust anchors and the document signer path check.

use crate::certificate::{split_der_certificates, ParsedCertificate};
use crate::error::TrustError;
use crate::pem::pem_certificates;
use crate::vical::Vical;

/// Longest path accepted (DS, intermediates, anchor).
pub const MAX_PATH: usize = 8;

/// Where a trust anchor came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnchorSource {
    /// A PEM bundle given to the relying party.
    Pem,
    /// A verified VICAL from this provider.
    Vical {
        /// `vicalProvider`.
        provider: String,
    },
}

/// An issuer whose DS certificate chained to a trust anchor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustedIssuer {
    /// The DS key's affine coordinates, big-endian: the issuer key of the
    /// proof check.
    pub public_key: ([u8; 32], [u8; 32]),
    /// DS subject.
    pub subject: String,
    /// The anchor's subject.
    pub anchor: String,
    /// Where the anchor came from.
    pub source: AnchorSource,
}

/// The IACA roots (and any directly trusted certificates) a relying party
/// accepts.
#[derive(Clone, Debug, Default)]
pub struct TrustStore {
    anchors: Vec<(ParsedCertificate, AnchorSource)>,
}

impl TrustStore {
    /// An empty store (trusts nothing).
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of anchors.
    pub fn len(&self) -> usize {
        self.anchors.len()
    }

    /// Whether no anchor is configured.
    pub fn is_empty(&self) -> bool {
        self.anchors.is_empty()
    }

    /// Adds one DER certificate as an anchor.
    pub fn add_der(&mut self, der: &[u8], source: AnchorSource) -> Result<(), TrustError> {
        let what = format!("trust anchor {}", self.anchors.len() + 1);
        let cert = ParsedCertificate::parse(der, &what)?;
        if !self.anchors.iter().any(|(a, _)| a.der == cert.der) {
            self.anchors.push((cert, source));
        }
        Ok(())
    }

    /// Adds every certificate of a PEM bundle; returns how many it held.
    pub fn add_pem_bundle(&mut self, pem: &str) -> Result<usize, TrustError> {
        let certs = pem_certificates(pem)?;
        for der in &certs {
            self.add_der(der, AnchorSource::Pem)?;
        }
        Ok(certs.len())
    }

    /// Adds the certificates of a VICAL already verified with
    /// [`Vical::verify`]; returns how many.
    pub fn add_vical(&mut self, vical: &Vical) -> Result<usize, TrustError> {
        for entry in &vical.entries {
            self.add_der(
                &entry.certificate,
                AnchorSource::Vical {
                    provider: vical.provider.clone(),
                },
            )?;
        }
        Ok(vical.entries.len())
    }

    /// Checks a document signer chain (`msoX5chain` items: the DS
    /// certificate first; any item may hold several concatenated DER
    /// certificates) at time `at` (Unix seconds) and returns the DS key.
    pub fn verify_document_signer(
        &self,
        chain: &[&[u8]],
        at: i64,
    ) -> Result<TrustedIssuer, TrustError> {
        let mut ders = Vec::new();
        for item in chain {
            ders.extend(split_der_certificates(item)?);
            if ders.len() > MAX_PATH {
                return Err(TrustError::ChainTooLong(MAX_PATH));
            }
        }
        let (leaf_der, rest) = ders.split_first().ok_or(TrustError::EmptyChain)?;
        let leaf = ParsedCertificate::parse(leaf_der, "document signer certificate")?;
        let public_key = leaf.p256_coordinates()?;
        leaf.check_time(at)?;
        leaf.check_criticals()?;
        let usage = |reason| TrustError::KeyUsage {
            subject: leaf.subject.clone(),
            reason,
        };
        match &leaf.key_usage {
            Some(ku) if ku.digital_signature() => {}
            Some(_) => return Err(usage("keyUsage lacks digitalSignature")),
            None => {
                return Err(usage(
                    "no keyUsage extension (a DS certificate needs digitalSignature)",
                ))
            }
        }
        if let Some(ekus) = &leaf.ext_key_usage {
            if !ekus.iter().any(|o| o.to_string() == crate::MDL_DS_EKU) {
                return Err(usage(
                    "extendedKeyUsage lacks the mdoc document signer purpose (1.0.18013.5.1.2)",
                ));
            }
        }
        let intermediates = rest
            .iter()
            .enumerate()
            .map(|(i, d)| ParsedCertificate::parse(d, &format!("intermediate {}", i + 1)))
            .collect::<Result<Vec<_>, _>>()?;
        let anchors: Vec<&ParsedCertificate> = self.anchors.iter().map(|(a, _)| a).collect();
        let anchor = build_path(&leaf, &intermediates, &anchors, at)?;
        let source = self
            .anchors
            .iter()
            .find(|(a, _)| a.der == anchor.der)
            .map(|(_, s)| s.clone())
            .unwrap_or(AnchorSource::Pem);
        Ok(TrustedIssuer {
            public_key,
            subject: leaf.subject.clone(),
            anchor: anchor.subject.clone(),
            source,
        })
    }
}

/// Walks from `leaf` through `intermediates` to one of `anchors`; returns
/// the anchor reached. Every certificate above the leaf must be a CA valid
/// at `at`; an anchor equal to the leaf is trusted directly.
pub(crate) fn build_path<'a>(
    leaf: &ParsedCertificate,
    intermediates: &[ParsedCertificate],
    anchors: &[&'a ParsedCertificate],
    at: i64,
) -> Result<&'a ParsedCertificate, TrustError> {
    if let Some(a) = anchors.iter().find(|a| a.der == leaf.der) {
        return Ok(a);
    }
    let mut current = leaf;
    let mut used = vec![false; intermediates.len()];
    let mut bad_signature = None;
    for _ in 0..MAX_PATH {
        for anchor in anchors.iter().filter(|a| current.named_issuer_is(a)) {
            match anchor.verify_child(current) {
                Ok(()) => {
                    anchor.check_time(at)?;
                    anchor.check_ca()?;
                    return Ok(anchor);
                }
                Err(e @ TrustError::BadSignature { .. }) => bad_signature = Some(e),
                Err(e) => return Err(e),
            }
        }
        let next = intermediates.iter().enumerate().find(|(i, c)| {
            !used[*i] && current.named_issuer_is(c) && c.verify_child(current).is_ok()
        });
        match next {
            Some((i, c)) => {
                used[i] = true;
                c.check_time(at)?;
                c.check_ca()?;
                c.check_criticals()?;
                current = c;
            }
            None => {
                return Err(bad_signature.unwrap_or_else(|| TrustError::UnknownIssuer {
                    subject: current.subject.clone(),
                    issuer: current.issuer(),
                }))
            }
        }
    }
    Err(TrustError::ChainTooLong(MAX_PATH))
}
