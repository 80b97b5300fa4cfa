//! Size limits of a decoded ZK DeviceResponse.

/// Upper bounds checked while decoding, before any byte is copied.
///
/// The defaults are generous for every published circuit (a proof is about
/// 0.4 MB, documentData about 1 KB, at most four attributes) and small
/// enough that a hostile response cannot make a relying party allocate more
/// than a few times its own size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The whole encoded response.
    pub max_response_bytes: usize,
    /// zkDocuments entries.
    pub max_documents: usize,
    /// One proof.
    pub max_proof_bytes: usize,
    /// One encoded ZkDocumentData.
    pub max_document_data_bytes: usize,
    /// Certificates in msoX5chain.
    pub max_certificates: usize,
    /// One certificate.
    pub max_certificate_bytes: usize,
    /// Namespaces in issuerSigned or deviceSigned.
    pub max_namespaces: usize,
    /// Elements across all namespaces of issuerSigned or deviceSigned.
    pub max_elements: usize,
    /// docType, zkSystemId, namespace and elementIdentifier strings.
    pub max_text_bytes: usize,
    /// One encoded elementValue.
    pub max_value_bytes: usize,
    /// Entries of any map (unknown keys included).
    pub max_map_entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_response_bytes: 4 << 20,
            max_documents: 16,
            max_proof_bytes: 2 << 20,
            max_document_data_bytes: 256 << 10,
            max_certificates: 8,
            max_certificate_bytes: 16 << 10,
            max_namespaces: 8,
            max_elements: 64,
            max_text_bytes: 256,
            max_value_bytes: 16 << 10,
            max_map_entries: 32,
        }
    }
}
