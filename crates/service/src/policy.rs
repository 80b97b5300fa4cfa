//! The checks Google's service leaves to the relying party.

/// What a relying party accepts beyond a valid proof from a trusted
/// issuer. [`Policy::default`] is strict; [`Policy::google_compatible`]
/// turns every extra check off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Whether the extra checks run at all.
    pub strict: bool,
    /// Largest distance between the document's `timestamp` (the proof's
    /// "now") and the server clock, in seconds. A back-dated timestamp would
    /// hide a credential that has expired since.
    pub timestamp_window_secs: i64,
    /// Accepted docTypes.
    pub doc_types: Vec<String>,
    /// Accepted namespaces.
    pub namespaces: Vec<String>,
    /// Accepted elementIdentifiers; a trailing `*` matches a prefix.
    pub attributes: Vec<String>,
    /// Oldest accepted ZkSpec version.
    pub min_circuit_version: u32,
    /// When set, only these circuit hashes (lower-case hex) are accepted.
    pub accepted_circuits: Option<Vec<String>>,
}

impl Default for Policy {
    fn default() -> Self {
        Self {
            strict: true,
            timestamp_window_secs: 300,
            doc_types: vec!["org.iso.18013.5.1.mDL".into(), "eu.europa.ec.av.1".into()],
            namespaces: vec!["org.iso.18013.5.1".into(), "eu.europa.ec.av.1".into()],
            attributes: vec!["age_over_*".into()],
            min_circuit_version: 6,
            accepted_circuits: None,
        }
    }
}

/// A policy check that failed: a reason code (metrics, logs) and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Short stable code, e.g. `stale_timestamp`.
    pub code: &'static str,
    /// What failed, for the response's `Message`.
    pub message: String,
}

fn violation(code: &'static str, message: String) -> Violation {
    Violation { code, message }
}

impl Policy {
    /// Google's behaviour: no check beyond proof and issuer chain.
    pub fn google_compatible() -> Self {
        Self {
            strict: false,
            ..Self::default()
        }
    }

    fn attribute_allowed(&self, id: &str) -> bool {
        self.attributes.iter().any(|p| match p.strip_suffix('*') {
            Some(prefix) => id.starts_with(prefix),
            None => p == id,
        })
    }

    /// Checks the document's claims against the policy.
    pub fn check_document(
        &self,
        doc_type: &str,
        timestamp_unix: i64,
        now_unix: i64,
        attributes: &[(String, String)],
    ) -> Result<(), Violation> {
        if !self.strict {
            return Ok(());
        }
        let skew = (timestamp_unix - now_unix).abs();
        if skew > self.timestamp_window_secs {
            return Err(violation(
                "stale_timestamp",
                format!(
                    "policy: document timestamp is {skew} s from the server clock, more than the {} s window (--timestamp-window)",
                    self.timestamp_window_secs
                ),
            ));
        }
        self.check_names(doc_type, attributes)
    }

    /// Checks a docType and its (namespace, identifier) pairs against the
    /// allow-lists (also what a session may request).
    pub fn check_names(
        &self,
        doc_type: &str,
        attributes: &[(String, String)],
    ) -> Result<(), Violation> {
        if !self.strict {
            return Ok(());
        }
        if !self.doc_types.iter().any(|d| d == doc_type) {
            return Err(violation(
                "doctype_not_allowed",
                format!("policy: docType `{doc_type}` is not accepted (--allow-doctype)"),
            ));
        }
        for (ns, id) in attributes {
            if !self.namespaces.iter().any(|n| n == ns) {
                return Err(violation(
                    "namespace_not_allowed",
                    format!("policy: namespace `{ns}` is not accepted (--allow-namespace)"),
                ));
            }
            if !self.attribute_allowed(id) {
                return Err(violation(
                    "attribute_not_allowed",
                    format!("policy: attribute `{id}` is not accepted (--allow-attribute)"),
                ));
            }
        }
        Ok(())
    }

    /// Checks the response envelope (`version`, `status`).
    pub fn check_envelope(&self, version: &str, status: u64) -> Result<(), Violation> {
        if !self.strict {
            return Ok(());
        }
        if version != "1.0" || status != 0 {
            return Err(violation(
                "bad_envelope",
                format!("policy: response version `{version}` status {status}, expected version 1.0 status 0"),
            ));
        }
        Ok(())
    }

    /// Checks that the circuit is accepted.
    pub fn check_circuit(&self, version: u32, hash_hex: &str) -> Result<(), Violation> {
        if !self.strict {
            return Ok(());
        }
        if version < self.min_circuit_version {
            return Err(violation(
                "circuit_not_accepted",
                format!(
                    "policy: circuit {hash_hex} is version {version}, older than {} (--min-circuit-version)",
                    self.min_circuit_version
                ),
            ));
        }
        if let Some(list) = &self.accepted_circuits {
            if !list.iter().any(|h| h.eq_ignore_ascii_case(hash_hex)) {
                return Err(violation(
                    "circuit_not_accepted",
                    format!("policy: circuit {hash_hex} is not accepted (--accept-circuit)"),
                ));
            }
        }
        Ok(())
    }
}
