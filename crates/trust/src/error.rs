//! Typed reasons for refusing an issuer.

/// Why a certificate chain or a VICAL is not trusted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TrustError {
    /// No certificate given.
    #[error("msoX5chain holds no certificate")]
    EmptyChain,
    /// More certificates than a path may hold.
    #[error("certificate chain longer than {0}")]
    ChainTooLong(usize),
    /// Bytes that are not a DER X.509 certificate.
    #[error("{what}: not a DER X.509 certificate: {detail}")]
    BadCertificate {
        /// Which certificate.
        what: String,
        /// The parser's message.
        detail: String,
    },
    /// A PEM bundle that cannot be read.
    #[error("PEM: {0}")]
    Pem(String),
    /// The DS key is not ECDSA on P-256.
    #[error("document signer `{subject}` key is {found}, the circuits need ECDSA P-256")]
    NotP256 {
        /// DS subject.
        subject: String,
        /// What it holds.
        found: String,
    },
    /// A certificate outside its validity period.
    #[error("certificate `{subject}` is not valid at {at} (valid {not_before} to {not_after})")]
    Expired {
        /// Subject.
        subject: String,
        /// Verification time (Unix seconds).
        at: i64,
        /// notBefore (Unix seconds).
        not_before: i64,
        /// notAfter (Unix seconds).
        not_after: i64,
    },
    /// A key usage or extended key usage that does not allow the role.
    #[error("certificate `{subject}`: {reason}")]
    KeyUsage {
        /// Subject.
        subject: String,
        /// What is missing.
        reason: &'static str,
    },
    /// A critical extension this crate does not evaluate.
    #[error("certificate `{subject}` has unhandled critical extension {oid}")]
    UnhandledCritical {
        /// Subject.
        subject: String,
        /// The extension's OID.
        oid: String,
    },
    /// No configured anchor (and no intermediate) issued this certificate.
    #[error(
        "unknown issuer: no trust anchor or intermediate issued `{subject}` (issuer `{issuer}`)"
    )]
    UnknownIssuer {
        /// The last certificate reached.
        subject: String,
        /// Its issuer name.
        issuer: String,
    },
    /// A signature on a certificate does not verify.
    #[error("signature of `{subject}` by `{issuer}` does not verify")]
    BadSignature {
        /// Signed certificate.
        subject: String,
        /// Claimed issuer.
        issuer: String,
    },
    /// A signature or key algorithm this crate does not verify.
    #[error("unsupported algorithm {0}")]
    UnsupportedAlgorithm(String),
    /// A VICAL that is not a COSE_Sign1 VICAL.
    #[error("VICAL: {0}")]
    MalformedVical(String),
    /// The VICAL's own signature does not verify, or its signer is not a
    /// configured VICAL signer.
    #[error("VICAL signature: {0}")]
    VicalSignature(String),
}
