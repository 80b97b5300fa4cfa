//! PEM bundles of certificates.

use base64::Engine;

use crate::error::TrustError;

const BEGIN: &str = "-----BEGIN CERTIFICATE-----";
const END: &str = "-----END CERTIFICATE-----";

/// The DER bytes of every `CERTIFICATE` block of `pem`, in order.
///
/// Tolerant of what real bundles contain: text between blocks, CRLF, and an
/// END line glued to the next BEGIN (as in Google's `certs.pem`).
pub fn pem_certificates(pem: &str) -> Result<Vec<Vec<u8>>, TrustError> {
    let mut out = Vec::new();
    let mut rest = pem;
    while let Some(start) = rest.find(BEGIN) {
        let body_start = start + BEGIN.len();
        let body_len = rest[body_start..]
            .find(END)
            .ok_or_else(|| TrustError::Pem(format!("block {} has no END line", out.len() + 1)))?;
        let body: String = rest[body_start..body_start + body_len]
            .chars()
            .filter(|c| !c.is_ascii_whitespace())
            .collect();
        let der = base64::engine::general_purpose::STANDARD
            .decode(body.as_bytes())
            .map_err(|e| TrustError::Pem(format!("block {}: {e}", out.len() + 1)))?;
        out.push(der);
        rest = &rest[body_start + body_len + END.len()..];
    }
    Ok(out)
}
