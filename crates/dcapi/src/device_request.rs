//! The ISO 18013-5 DeviceRequest of a ZK presentation.
//!
//! ```text
//! DeviceRequest = { "version": "1.1", "docRequests": [ DocRequest ] }
//! DocRequest    = { "itemsRequest": #6.24(bstr .cbor ItemsRequest) }
//! ItemsRequest  = { "docType": tstr, "nameSpaces": { ns => { id => intentToRetain } },
//!                   "requestInfo": { "zkRequest": { "systemSpecs": [+ ZkSystemSpec],
//!                                                   "zkRequired": bool } } }
//! ZkSystemSpec  = { "zkSystemId": tstr, "system": tstr,
//!                   "params": { "version", "circuit_hash", "num_attributes",
//!                               "block_enc_hash", "block_enc_sig" } }
//! ```
//!
//! The second edition of ISO 18013-5 (10.2.4 DocRequestInfo, 10.2.7
//! ZkSystemSpec) puts the ZK ask in `requestInfo`; Multipaz (the wallet
//! library behind the EUDI and Google-interoperable wallets) reads it from
//! `requestInfo` inside the tag-24 ItemsRequest, which is where it is
//! written here. Version "1.1" marks a request using second-edition
//! features. Older Multipaz builds named the spec id `id` instead of
//! `zkSystemId`; the decoder accepts both.

use longfellow_mdoc::ZkSpec;
use longfellow_mdoc_response::ZkSystemId;
use minicbor::data::Tag;
use minicbor::Encoder;

use crate::cbor::{ok, once, Reader};
use crate::error::DcApiError;

const TAG_ENCODED_CBOR: u64 = 24;
const MAX_ELEMENTS: usize = 64;
const MAX_SPECS: usize = 64;
const MAX_KEYS: usize = 32;

/// One ZK system the relying party accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZkSystemSpec {
    /// The id the wallet echoes in `zkSystemId` (here the spec id
    /// `longfellow-libzk-v1_<version>_<nattr>_<beh>_<bes>_<hash>`).
    pub zk_system_id: String,
    /// `longfellow-libzk-v1`.
    pub system: String,
    /// ZkSpec version.
    pub version: u64,
    /// Circuit hash, lower-case hex.
    pub circuit_hash: String,
    /// Attributes the circuit proves.
    pub num_attributes: u64,
    /// Ligero block size of the hash circuit.
    pub block_enc_hash: u64,
    /// Ligero block size of the signature circuit.
    pub block_enc_sig: u64,
}

impl ZkSystemSpec {
    /// The spec of a supported circuit.
    pub fn from_spec(spec: &ZkSpec) -> Self {
        Self {
            zk_system_id: ZkSystemId::spec_id_of(spec).as_str().to_owned(),
            system: longfellow_mdoc::spec::SYSTEM.to_owned(),
            version: u64::from(spec.info.version),
            circuit_hash: spec.circuit_hash_hex(),
            num_attributes: spec.info.num_attributes as u64,
            block_enc_hash: spec.block_enc_hash as u64,
            block_enc_sig: spec.block_enc_sig as u64,
        }
    }

    fn encode(&self, e: &mut Encoder<Vec<u8>>) {
        ok(e.map(3));
        ok(e.str("zkSystemId").and_then(|e| e.str(&self.zk_system_id)));
        ok(e.str("system").and_then(|e| e.str(&self.system)));
        ok(e.str("params").and_then(|e| e.map(5)));
        ok(e.str("version").and_then(|e| e.u64(self.version)));
        ok(e.str("circuit_hash")
            .and_then(|e| e.str(&self.circuit_hash)));
        ok(e.str("num_attributes")
            .and_then(|e| e.u64(self.num_attributes)));
        ok(e.str("block_enc_hash")
            .and_then(|e| e.u64(self.block_enc_hash)));
        ok(e.str("block_enc_sig")
            .and_then(|e| e.u64(self.block_enc_sig)));
    }

    fn decode(r: &mut Reader<'_>) -> Result<Self, DcApiError> {
        let n = r.map(MAX_KEYS)?;
        let mut s = Self {
            zk_system_id: String::new(),
            system: String::new(),
            version: 0,
            circuit_hash: String::new(),
            num_attributes: 0,
            block_enc_hash: 0,
            block_enc_sig: 0,
        };
        let mut seen = Vec::new();
        for _ in 0..n {
            let k = r.str()?;
            once(&mut seen, r, k)?;
            match k {
                "zkSystemId" => s.zk_system_id = r.str()?.to_owned(),
                "id" if s.zk_system_id.is_empty() => s.zk_system_id = r.str()?.to_owned(),
                "system" => s.system = r.str()?.to_owned(),
                "params" => {
                    let m = r.map(MAX_KEYS)?;
                    let mut seen = Vec::new();
                    for _ in 0..m {
                        let k = r.str()?;
                        once(&mut seen, r, k)?;
                        match k {
                            "version" => s.version = r.u64()?,
                            "circuit_hash" => s.circuit_hash = r.str()?.to_owned(),
                            "num_attributes" => s.num_attributes = r.u64()?,
                            "block_enc_hash" => s.block_enc_hash = r.u64()?,
                            "block_enc_sig" => s.block_enc_sig = r.u64()?,
                            _ => r.skip()?,
                        }
                    }
                }
                _ => r.skip()?,
            }
        }
        if s.zk_system_id.is_empty() || s.system.is_empty() {
            return Err(r.shape("ZkSystemSpec without zkSystemId or system"));
        }
        Ok(s)
    }
}

/// One requested data element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestedElement {
    /// Namespace.
    pub namespace: String,
    /// Element identifier.
    pub id: String,
    /// Whether the relying party intends to keep the value.
    pub intent_to_retain: bool,
}

/// A DeviceRequest for one document with a ZK request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceRequest {
    /// Requested docType.
    pub doc_type: String,
    /// Requested elements, in request order.
    pub elements: Vec<RequestedElement>,
    /// Accepted ZK systems, preferred first.
    pub zk_system_specs: Vec<ZkSystemSpec>,
    /// Whether only a ZK presentation is acceptable.
    pub zk_required: bool,
}

impl DeviceRequest {
    /// The CBOR.
    pub fn encode(&self) -> Vec<u8> {
        let mut namespaces: Vec<(&str, Vec<&RequestedElement>)> = Vec::new();
        for el in &self.elements {
            match namespaces.iter_mut().find(|(n, _)| *n == el.namespace) {
                Some((_, v)) => v.push(el),
                None => namespaces.push((&el.namespace, vec![el])),
            }
        }
        let mut items = Encoder::new(Vec::new());
        ok(items.map(3));
        ok(items.str("docType").and_then(|e| e.str(&self.doc_type)));
        ok(items
            .str("nameSpaces")
            .and_then(|e| e.map(namespaces.len() as u64)));
        for (ns, els) in &namespaces {
            ok(items.str(ns).and_then(|e| e.map(els.len() as u64)));
            for el in els {
                ok(items.str(&el.id).and_then(|e| e.bool(el.intent_to_retain)));
            }
        }
        ok(items.str("requestInfo").and_then(|e| e.map(1)));
        ok(items.str("zkRequest").and_then(|e| e.map(2)));
        ok(items
            .str("systemSpecs")
            .and_then(|e| e.array(self.zk_system_specs.len() as u64)));
        for s in &self.zk_system_specs {
            s.encode(&mut items);
        }
        ok(items
            .str("zkRequired")
            .and_then(|e| e.bool(self.zk_required)));
        let items = items.into_writer();

        let mut e = Encoder::new(Vec::new());
        ok(e.map(2));
        ok(e.str("version").and_then(|e| e.str("1.1")));
        ok(e.str("docRequests").and_then(|e| e.array(1)));
        ok(e.map(1));
        ok(e.str("itemsRequest")
            .and_then(|e| e.tag(Tag::new(TAG_ENCODED_CBOR)))
            .and_then(|e| e.bytes(&items)));
        e.into_writer()
    }

    /// Decodes a DeviceRequest with exactly one DocRequest (wallet side).
    pub fn decode(bytes: &[u8]) -> Result<Self, DcApiError> {
        let mut r = Reader::new(bytes, "DeviceRequest");
        let n = r.map(MAX_KEYS)?;
        let mut items = None;
        let mut seen = Vec::new();
        for _ in 0..n {
            let k = r.str()?;
            once(&mut seen, &r, k)?;
            match k {
                "version" => {
                    let v = r.str()?;
                    if !v.starts_with("1.") {
                        return Err(r.shape(format!("unsupported version `{v}`")));
                    }
                }
                "docRequests" => {
                    if r.array(1)? != 1 {
                        return Err(r.shape("expected exactly one DocRequest"));
                    }
                    let m = r.map(MAX_KEYS)?;
                    let mut seen = Vec::new();
                    for _ in 0..m {
                        let k = r.str()?;
                        once(&mut seen, &r, k)?;
                        if k == "itemsRequest" {
                            if r.tag()? != TAG_ENCODED_CBOR {
                                return Err(r.shape("itemsRequest is not tag 24"));
                            }
                            items = Some(r.bytes()?);
                        } else {
                            r.skip()?;
                        }
                    }
                }
                _ => r.skip()?,
            }
        }
        r.finish()?;
        let items = items.ok_or_else(|| r.shape("no itemsRequest"))?;
        Self::decode_items(items)
    }

    fn decode_items(bytes: &[u8]) -> Result<Self, DcApiError> {
        let mut r = Reader::new(bytes, "ItemsRequest");
        let n = r.map(MAX_KEYS)?;
        let mut out = Self {
            doc_type: String::new(),
            elements: Vec::new(),
            zk_system_specs: Vec::new(),
            zk_required: false,
        };
        let mut seen = Vec::new();
        for _ in 0..n {
            let k = r.str()?;
            once(&mut seen, &r, k)?;
            match k {
                "docType" => out.doc_type = r.str()?.to_owned(),
                "nameSpaces" => {
                    let nns = r.map(MAX_ELEMENTS)?;
                    for _ in 0..nns {
                        let ns = r.str()?;
                        let nel = r.map(MAX_ELEMENTS)?;
                        for _ in 0..nel {
                            let id = r.str()?;
                            let intent_to_retain = r.bool()?;
                            if out.elements.len() >= MAX_ELEMENTS {
                                return Err(DcApiError::TooLarge {
                                    what: "requested elements",
                                    limit: MAX_ELEMENTS,
                                    found: out.elements.len() as u64 + 1,
                                });
                            }
                            out.elements.push(RequestedElement {
                                namespace: ns.to_owned(),
                                id: id.to_owned(),
                                intent_to_retain,
                            });
                        }
                    }
                }
                "requestInfo" => {
                    let m = r.map(MAX_KEYS)?;
                    for _ in 0..m {
                        if r.str()? != "zkRequest" {
                            r.skip()?;
                            continue;
                        }
                        let z = r.map(MAX_KEYS)?;
                        for _ in 0..z {
                            match r.str()? {
                                "systemSpecs" => {
                                    let s = r.array(MAX_SPECS)?;
                                    for _ in 0..s {
                                        out.zk_system_specs.push(ZkSystemSpec::decode(&mut r)?);
                                    }
                                }
                                "zkRequired" => out.zk_required = r.bool()?,
                                _ => r.skip()?,
                            }
                        }
                    }
                }
                _ => r.skip()?,
            }
        }
        r.finish()?;
        if out.doc_type.is_empty() {
            return Err(r.shape("no docType"));
        }
        Ok(out)
    }
}
