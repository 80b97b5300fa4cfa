//! Encoding, in the key order of Google Wallet's responses (so a decoded
//! Google response re-encodes to the same bytes).

use minicbor::data::Tag;
use minicbor::Encoder;

use crate::error::EncodeError;
use crate::model::{Namespace, X5Chain, ZkDeviceResponse, ZkDocumentData};

const TAG_TDATE: u64 = 0;
const TAG_ENCODED_CBOR: u64 = 24;

type Enc = Encoder<Vec<u8>>;

/// Writes to a `Vec`, which cannot fail; the error type is uninhabited.
fn ok<T>(r: Result<T, minicbor::encode::Error<std::convert::Infallible>>) {
    // Infallible: writing into a Vec never fails.
    let _ = r;
}

/// Encodes a ZK DeviceResponse.
pub fn encode(response: &ZkDeviceResponse) -> Result<Vec<u8>, EncodeError> {
    let mut e = Encoder::new(Vec::new());
    ok(e.map(3));
    ok(e.str("status").and_then(|e| e.u64(response.status)));
    ok(e.str("version").and_then(|e| e.str(&response.version)));
    ok(e.str("zkDocuments")
        .and_then(|e| e.array(response.documents.len() as u64)));
    for doc in &response.documents {
        let data = encode_document_data(&doc.data)?;
        ok(e.map(2));
        ok(e.str("proof").and_then(|e| e.bytes(&doc.proof)));
        ok(e.str("documentData")
            .and_then(|e| e.tag(Tag::new(TAG_ENCODED_CBOR)))
            .and_then(|e| e.bytes(&data)));
    }
    Ok(e.into_writer())
}

/// Encodes the ZkDocumentData that goes inside `documentData`'s tag 24.
pub fn encode_document_data(data: &ZkDocumentData) -> Result<Vec<u8>, EncodeError> {
    let mut e = Encoder::new(Vec::new());
    ok(e.map(5 + u64::from(data.device_signed.is_some())));
    ok(e.str("docType").and_then(|e| e.str(&data.doc_type)));
    ok(e.str("timestamp")
        .and_then(|e| e.tag(Tag::new(TAG_TDATE)))
        .and_then(|e| e.str(data.timestamp.as_str())));
    ok(e.str("msoX5chain"));
    match &data.mso_x5chain {
        X5Chain::Single(c) => ok(e.bytes(c)),
        X5Chain::Array(cs) => {
            if cs.is_empty() {
                return Err(EncodeError::EmptyChain);
            }
            ok(e.array(cs.len() as u64));
            for c in cs {
                ok(e.bytes(c));
            }
        }
    }
    ok(e.str("zkSystemId")
        .and_then(|e| e.str(data.zk_system_id.as_str())));
    ok(e.str("issuerSigned"));
    namespaces(&mut e, &data.issuer_signed)?;
    if let Some(device) = &data.device_signed {
        ok(e.str("deviceSigned"));
        namespaces(&mut e, device)?;
    }
    Ok(e.into_writer())
}

fn namespaces(e: &mut Enc, namespaces: &[Namespace]) -> Result<(), EncodeError> {
    ok(e.map(namespaces.len() as u64));
    for ns in namespaces {
        if ns.elements.is_empty() {
            return Err(EncodeError::EmptyNamespace(ns.name.clone()));
        }
        ok(e.str(&ns.name)
            .and_then(|e| e.array(ns.elements.len() as u64)));
        for el in &ns.elements {
            if !is_one_item(&el.value_cbor) {
                return Err(EncodeError::InvalidValue(el.id.clone()));
            }
            ok(e.map(2));
            ok(e.str("elementValue"));
            e.writer_mut().extend_from_slice(&el.value_cbor);
            ok(e.str("elementIdentifier").and_then(|e| e.str(&el.id)));
        }
    }
    Ok(())
}

fn is_one_item(bytes: &[u8]) -> bool {
    let mut d = minicbor::Decoder::new(bytes);
    d.skip().is_ok() && d.position() == bytes.len()
}
