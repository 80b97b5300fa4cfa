//! An issued mdoc, its presentations and the proof requests that match it.

use minicbor::Encoder;
use serde::Serialize;

use crate::builder::namespaces_in_order;
use crate::date::Tdate;
use crate::error::IssuerError;
use longfellow_mdoc::MdocRequest;

/// One data element: namespace, elementIdentifier and the CBOR encoding of
/// its elementValue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    pub namespace: String,
    pub id: String,
    pub value_cbor: Vec<u8>,
}

/// One signed IssuerSignedItemBytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ItemBytes {
    pub namespace: String,
    pub digest_id: u64,
    pub bytes: Vec<u8>,
}

/// A signed mdoc and everything a test needs to prove and verify with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IssuedMdoc {
    /// The DeviceResponse disclosing every attribute.
    pub device_response: Vec<u8>,
    /// Issuer public key, big-endian affine coordinates.
    pub issuer_pkx: [u8; 32],
    pub issuer_pky: [u8; 32],
    /// Device public key (as bound in the MSO), big-endian.
    pub device_pkx: [u8; 32],
    pub device_pky: [u8; 32],
    pub doc_type: String,
    /// The profile's namespace (attributes may also sit in others).
    pub namespace: String,
    /// The SessionTranscript the device signed.
    pub session_transcript: Vec<u8>,
    /// Every attribute, in issuance order.
    pub attributes: Vec<Attribute>,
    pub valid_from: Tdate,
    pub valid_until: Tdate,
    /// The DER certificate in issuerAuth's x5chain header, if any.
    pub certificate: Option<Vec<u8>>,
    pub(crate) items: Vec<ItemBytes>,
    /// Encoded issuerAuth COSE_Sign1.
    pub(crate) issuer_auth: Vec<u8>,
    /// Encoded deviceSigned map.
    pub(crate) device_signed: Vec<u8>,
}

/// The proof request in the shape of `docs/cli-contract.md` (`REQ.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProofRequest {
    /// Issuer public key coordinates, `0x` + 64 hex digits, big-endian.
    pub pkx: String,
    pub pky: String,
    pub transcript_hex: String,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub now: String,
    pub doc_type: String,
    pub attributes: Vec<RequestAttribute>,
}

/// One requested attribute of a [`ProofRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RequestAttribute {
    pub namespace: String,
    pub id: String,
    pub value_cbor_hex: String,
}

impl ProofRequest {
    /// Pretty-printed `REQ.json`.
    pub fn to_json(&self) -> Result<String, IssuerError> {
        serde_json::to_string_pretty(self).map_err(|e| IssuerError::Encode(e.to_string()))
    }

    /// The request as the prover and verifier take it, read back from
    /// [`Self::to_json`] through the library's one strict reader
    /// ([`MdocRequest::from_json`]), so what a tool or test proves is
    /// exactly what a relying party's `REQ.json` would say.
    pub fn to_mdoc_request(&self) -> Result<MdocRequest, IssuerError> {
        MdocRequest::from_json(self.to_json()?.as_bytes())
            .map_err(|e| IssuerError::Request(e.to_string()))
    }
}

impl IssuedMdoc {
    /// Fills `device_response` from the signed parts.
    pub(crate) fn assemble(mut self) -> Result<Self, IssuerError> {
        let all: Vec<&ItemBytes> = self.items.iter().collect();
        self.device_response = self.encode_response(&all)?;
        Ok(self)
    }

    /// A DeviceResponse disclosing only the attributes named `ids` (in any
    /// namespace), in issuance order. No re-signing is needed: the issuer
    /// signed digests of each item, and the device signed the session, not
    /// the items.
    pub fn presentation(&self, ids: &[&str]) -> Result<Vec<u8>, IssuerError> {
        for id in ids {
            if !self.attributes.iter().any(|a| a.id == *id) {
                return Err(IssuerError::UnknownAttribute((*id).to_owned()));
            }
        }
        let chosen: Vec<&ItemBytes> = self
            .items
            .iter()
            .zip(&self.attributes)
            .filter(|(_, a)| ids.contains(&a.id.as_str()))
            .map(|(i, _)| i)
            .collect();
        self.encode_response(&chosen)
    }

    fn encode_response(&self, items: &[&ItemBytes]) -> Result<Vec<u8>, IssuerError> {
        let mut out = Vec::with_capacity(
            self.issuer_auth.len()
                + self.device_signed.len()
                + items.iter().map(|i| i.bytes.len()).sum::<usize>()
                + 128,
        );
        let mut e = Encoder::new(&mut out);
        e.map(3)?
            .str("version")?
            .str("1.0")?
            .str("documents")?
            .array(1)?
            .map(3)?
            .str("docType")?
            .str(&self.doc_type)?
            .str("issuerSigned")?
            .map(2)?
            .str("nameSpaces")?;
        let namespaces = namespaces_in_order(items.iter().map(|i| i.namespace.as_str()));
        e.map(namespaces.len() as u64)?;
        for ns in &namespaces {
            let in_ns: Vec<&&ItemBytes> = items.iter().filter(|i| i.namespace == *ns).collect();
            e.str(ns)?.array(in_ns.len() as u64)?;
            for item in in_ns {
                e.writer_mut().extend_from_slice(&item.bytes);
            }
        }
        e.str("issuerAuth")?;
        e.writer_mut().extend_from_slice(&self.issuer_auth);
        e.str("deviceSigned")?;
        e.writer_mut().extend_from_slice(&self.device_signed);
        e.str("status")?.u64(0)?;
        Ok(out)
    }

    /// The attribute `id`, searched in the profile's namespace first.
    pub fn attribute(&self, id: &str) -> Option<&Attribute> {
        self.attributes
            .iter()
            .find(|a| a.id == id && a.namespace == self.namespace)
            .or_else(|| self.attributes.iter().find(|a| a.id == id))
    }

    /// A proof request for disclosing `ids` (in this order) at `now`, which
    /// must lie in the validity period. All must share one namespace, as
    /// the circuits require.
    pub fn request(&self, now: Tdate, ids: &[&str]) -> Result<ProofRequest, IssuerError> {
        if now < self.valid_from || now > self.valid_until {
            return Err(IssuerError::NotValidAt {
                now: now.to_string(),
                from: self.valid_from.to_string(),
                until: self.valid_until.to_string(),
            });
        }
        let mut attributes = Vec::with_capacity(ids.len());
        for id in ids {
            let a = self
                .attribute(id)
                .ok_or_else(|| IssuerError::UnknownAttribute((*id).to_owned()))?;
            attributes.push(RequestAttribute {
                namespace: a.namespace.clone(),
                id: a.id.clone(),
                value_cbor_hex: hex::encode(&a.value_cbor),
            });
        }
        if attributes
            .windows(2)
            .any(|w| w[0].namespace != w[1].namespace)
        {
            return Err(IssuerError::MixedNamespaces);
        }
        Ok(ProofRequest {
            pkx: format!("0x{}", hex::encode(self.issuer_pkx)),
            pky: format!("0x{}", hex::encode(self.issuer_pky)),
            transcript_hex: hex::encode(&self.session_transcript),
            now: now.to_string(),
            doc_type: self.doc_type.clone(),
            attributes,
        })
    }
}
