//! Decoding, strict in structure and bounded in size.
//!
//! Every byte and text string is borrowed from the input and its length
//! compared with [`Limits`] before it is copied; counts of arrays and maps
//! are compared before any entry is read, and no buffer is sized from a
//! declared count. Unknown map keys are skipped (forward compatibility);
//! duplicate keys are refused (two readers could otherwise see two values).

use minicbor::data::Type;
use minicbor::Decoder;

use crate::error::DecodeError;
use crate::limits::Limits;
use crate::model::{
    Element, Namespace, Timestamp, X5Chain, ZkDeviceResponse, ZkDocument, ZkDocumentData,
};
use crate::system_id::ZkSystemId;

/// CBOR tag 0: standard date/time string.
const TAG_TDATE: u64 = 0;
/// CBOR tag 24: encoded CBOR data item.
const TAG_ENCODED_CBOR: u64 = 24;

/// Decodes a ZK DeviceResponse under the default [`Limits`].
pub fn decode(bytes: &[u8]) -> Result<ZkDeviceResponse, DecodeError> {
    decode_with(bytes, &Limits::default())
}

/// Decodes a ZK DeviceResponse under `limits`.
pub fn decode_with(bytes: &[u8], limits: &Limits) -> Result<ZkDeviceResponse, DecodeError> {
    check_size("ZK DeviceResponse", bytes.len(), limits.max_response_bytes)?;
    let mut r = Reader::new(bytes, limits);
    let response = r.response()?;
    r.finish("ZK DeviceResponse")?;
    Ok(response)
}

/// Decodes the bytes inside `documentData`'s tag 24.
pub fn decode_document_data(bytes: &[u8], limits: &Limits) -> Result<ZkDocumentData, DecodeError> {
    check_size("documentData", bytes.len(), limits.max_document_data_bytes)?;
    let mut r = Reader::new(bytes, limits);
    let data = r.document_data()?;
    r.finish("documentData")?;
    Ok(data)
}

fn check_size(what: &'static str, found: usize, limit: usize) -> Result<(), DecodeError> {
    if found > limit {
        return Err(DecodeError::TooLarge {
            what,
            limit,
            found: found as u64,
        });
    }
    Ok(())
}

struct Reader<'b, 'l> {
    d: Decoder<'b>,
    limits: &'l Limits,
}

fn cbor(what: &'static str) -> impl Fn(minicbor::decode::Error) -> DecodeError {
    move |e| DecodeError::Cbor {
        what,
        detail: e.to_string(),
    }
}

/// Records which keys of a map were seen, to refuse duplicates.
struct Seen<'b>(Vec<&'b str>);

impl<'b> Seen<'b> {
    fn insert(&mut self, what: &'static str, key: &'b str) -> Result<(), DecodeError> {
        if self.0.contains(&key) {
            return Err(DecodeError::Duplicate {
                what,
                key: key.to_owned(),
            });
        }
        self.0.push(key);
        Ok(())
    }
}

impl<'b, 'l> Reader<'b, 'l> {
    fn new(bytes: &'b [u8], limits: &'l Limits) -> Self {
        Self {
            d: Decoder::new(bytes),
            limits,
        }
    }

    fn finish(&self, what: &'static str) -> Result<(), DecodeError> {
        let rest = self.d.input().len().saturating_sub(self.d.position());
        if rest != 0 {
            return Err(DecodeError::TrailingBytes { what, count: rest });
        }
        Ok(())
    }

    fn datatype(&self, what: &'static str) -> Result<Type, DecodeError> {
        self.d.datatype().map_err(cbor(what))
    }

    fn map_len(&mut self, what: &'static str, limit: usize) -> Result<usize, DecodeError> {
        match self.datatype(what)? {
            Type::Map => {}
            Type::MapIndef => return Err(DecodeError::Indefinite(what)),
            _ => {
                return Err(DecodeError::WrongType {
                    what,
                    expected: "a map",
                })
            }
        }
        let n = self.d.map().map_err(cbor(what))?.unwrap_or(0);
        count(what, n, limit)
    }

    fn array_len(&mut self, what: &'static str, limit: usize) -> Result<usize, DecodeError> {
        match self.datatype(what)? {
            Type::Array => {}
            Type::ArrayIndef => return Err(DecodeError::Indefinite(what)),
            _ => {
                return Err(DecodeError::WrongType {
                    what,
                    expected: "an array",
                })
            }
        }
        let n = self.d.array().map_err(cbor(what))?.unwrap_or(0);
        count(what, n, limit)
    }

    fn text(&mut self, what: &'static str, limit: usize) -> Result<&'b str, DecodeError> {
        if self.datatype(what)? != Type::String {
            return Err(DecodeError::WrongType {
                what,
                expected: "a definite-length text string",
            });
        }
        let s = self.d.str().map_err(cbor(what))?;
        check_size(what, s.len(), limit)?;
        Ok(s)
    }

    fn bytes(&mut self, what: &'static str, limit: usize) -> Result<&'b [u8], DecodeError> {
        if self.datatype(what)? != Type::Bytes {
            return Err(DecodeError::WrongType {
                what,
                expected: "a definite-length byte string",
            });
        }
        let b = self.d.bytes().map_err(cbor(what))?;
        check_size(what, b.len(), limit)?;
        Ok(b)
    }

    fn uint(&mut self, what: &'static str) -> Result<u64, DecodeError> {
        match self.datatype(what)? {
            Type::U8 | Type::U16 | Type::U32 | Type::U64 => self.d.u64().map_err(cbor(what)),
            _ => Err(DecodeError::WrongType {
                what,
                expected: "an unsigned integer",
            }),
        }
    }

    /// Skips one item of any type and returns its exact bytes.
    fn raw_item(&mut self, what: &'static str, limit: usize) -> Result<&'b [u8], DecodeError> {
        let start = self.d.position();
        self.d.skip().map_err(cbor(what))?;
        let end = self.d.position();
        let raw = self.d.input().get(start..end).ok_or(DecodeError::Cbor {
            what,
            detail: "item past the end".into(),
        })?;
        check_size(what, raw.len(), limit)?;
        Ok(raw)
    }

    fn skip(&mut self, what: &'static str) -> Result<(), DecodeError> {
        self.d.skip().map_err(cbor(what))
    }

    fn response(&mut self) -> Result<ZkDeviceResponse, DecodeError> {
        const WHAT: &str = "ZkDeviceResponse";
        let n = self.map_len(WHAT, self.limits.max_map_entries)?;
        let mut seen = Seen(Vec::new());
        let (mut version, mut status, mut documents) = (None, None, None);
        for _ in 0..n {
            let key = self.text("ZkDeviceResponse key", self.limits.max_text_bytes)?;
            seen.insert(WHAT, key)?;
            match key {
                "version" => {
                    version = Some(self.text("version", self.limits.max_text_bytes)?.to_owned())
                }
                "status" => status = Some(self.uint("status")?),
                "zkDocuments" => documents = Some(self.documents()?),
                _ => self.skip("unknown ZkDeviceResponse entry")?,
            }
        }
        Ok(ZkDeviceResponse {
            version: version.ok_or(DecodeError::Missing("version"))?,
            status: status.ok_or(DecodeError::Missing("status"))?,
            documents: documents.ok_or(DecodeError::Missing("zkDocuments"))?,
        })
    }

    fn documents(&mut self) -> Result<Vec<ZkDocument>, DecodeError> {
        let n = self.array_len("zkDocuments", self.limits.max_documents)?;
        let mut out = Vec::new();
        for _ in 0..n {
            out.push(self.document()?);
        }
        Ok(out)
    }

    fn document(&mut self) -> Result<ZkDocument, DecodeError> {
        const WHAT: &str = "ZkDocument";
        let n = self.map_len(WHAT, self.limits.max_map_entries)?;
        let mut seen = Seen(Vec::new());
        let (mut proof, mut data) = (None, None);
        for _ in 0..n {
            let key = self.text("ZkDocument key", self.limits.max_text_bytes)?;
            seen.insert(WHAT, key)?;
            match key {
                "proof" => proof = Some(self.bytes("proof", self.limits.max_proof_bytes)?.to_vec()),
                "documentData" => {
                    // #6.24(bstr .cbor ZkDocumentData); an untagged bstr is
                    // accepted too, as Google's service does.
                    if self.datatype("documentData")? == Type::Tag {
                        let tag = self.d.tag().map_err(cbor("documentData"))?.as_u64();
                        if tag != TAG_ENCODED_CBOR {
                            return Err(DecodeError::WrongTag(tag));
                        }
                    }
                    let inner = self.bytes("documentData", self.limits.max_document_data_bytes)?;
                    data = Some(decode_document_data(inner, self.limits)?);
                }
                _ => self.skip("unknown ZkDocument entry")?,
            }
        }
        Ok(ZkDocument {
            proof: proof.ok_or(DecodeError::Missing("proof"))?,
            data: data.ok_or(DecodeError::Missing("documentData"))?,
        })
    }

    fn document_data(&mut self) -> Result<ZkDocumentData, DecodeError> {
        const WHAT: &str = "ZkDocumentData";
        let max_text = self.limits.max_text_bytes;
        let n = self.map_len(WHAT, self.limits.max_map_entries)?;
        let mut seen = Seen(Vec::new());
        let (mut doc_type, mut timestamp, mut chain, mut system, mut issuer, mut device) =
            (None, None, None, None, None, None);
        for _ in 0..n {
            let key = self.text("ZkDocumentData key", max_text)?;
            seen.insert(WHAT, key)?;
            match key {
                "docType" => doc_type = Some(self.text("docType", max_text)?.to_owned()),
                "timestamp" => timestamp = Some(self.timestamp()?),
                "msoX5chain" => chain = Some(self.x5chain()?),
                "zkSystemId" => system = Some(ZkSystemId::new(self.text("zkSystemId", max_text)?)),
                "issuerSigned" => issuer = Some(self.namespaces("issuerSigned")?),
                "deviceSigned" => device = Some(self.namespaces("deviceSigned")?),
                _ => self.skip("unknown ZkDocumentData entry")?,
            }
        }
        Ok(ZkDocumentData {
            doc_type: doc_type.ok_or(DecodeError::Missing("docType"))?,
            timestamp: timestamp.ok_or(DecodeError::Missing("timestamp"))?,
            mso_x5chain: chain.ok_or(DecodeError::Missing("msoX5chain"))?,
            zk_system_id: system.ok_or(DecodeError::Missing("zkSystemId"))?,
            issuer_signed: issuer.ok_or(DecodeError::Missing("issuerSigned"))?,
            device_signed: device,
        })
    }

    fn timestamp(&mut self) -> Result<Timestamp, DecodeError> {
        if self.datatype("timestamp")? == Type::Tag {
            let tag = self.d.tag().map_err(cbor("timestamp"))?.as_u64();
            if tag != TAG_TDATE {
                return Err(DecodeError::WrongType {
                    what: "timestamp",
                    expected: "a tdate (tag 0)",
                });
            }
        }
        let s = self.text("timestamp", 64)?;
        Timestamp::parse(s).ok_or_else(|| DecodeError::Timestamp(s.to_owned()))
    }

    fn x5chain(&mut self) -> Result<X5Chain, DecodeError> {
        let max = self.limits.max_certificate_bytes;
        match self.datatype("msoX5chain")? {
            Type::Bytes => Ok(X5Chain::Single(
                self.bytes("msoX5chain certificate", max)?.to_vec(),
            )),
            Type::Array | Type::ArrayIndef => {
                let n = self.array_len("msoX5chain", self.limits.max_certificates)?;
                if n == 0 {
                    return Err(DecodeError::Empty("msoX5chain"));
                }
                let mut certs = Vec::new();
                for _ in 0..n {
                    certs.push(self.bytes("msoX5chain certificate", max)?.to_vec());
                }
                Ok(X5Chain::Array(certs))
            }
            _ => Err(DecodeError::WrongType {
                what: "msoX5chain",
                expected: "a byte string or an array of byte strings",
            }),
        }
    }

    fn namespaces(&mut self, what: &'static str) -> Result<Vec<Namespace>, DecodeError> {
        let max_text = self.limits.max_text_bytes;
        let n = self.map_len(what, self.limits.max_namespaces)?;
        let mut seen = Seen(Vec::new());
        let mut total = 0usize;
        let mut out = Vec::new();
        for _ in 0..n {
            let name = self.text("namespace", max_text)?;
            seen.insert(what, name)?;
            let m = self.array_len("namespace elements", self.limits.max_elements)?;
            if m == 0 {
                return Err(DecodeError::Empty("namespace elements"));
            }
            total += m;
            if total > self.limits.max_elements {
                return Err(DecodeError::TooMany {
                    what: "elements",
                    limit: self.limits.max_elements,
                    found: total as u64,
                });
            }
            let mut elements = Vec::new();
            for _ in 0..m {
                elements.push(self.element()?);
            }
            out.push(Namespace {
                name: name.to_owned(),
                elements,
            });
        }
        Ok(out)
    }

    fn element(&mut self) -> Result<Element, DecodeError> {
        const WHAT: &str = "element";
        let n = self.map_len(WHAT, self.limits.max_map_entries)?;
        let mut seen = Seen(Vec::new());
        let (mut id, mut value) = (None, None);
        for _ in 0..n {
            let key = self.text("element key", self.limits.max_text_bytes)?;
            seen.insert(WHAT, key)?;
            match key {
                "elementIdentifier" => {
                    id = Some(
                        self.text("elementIdentifier", self.limits.max_text_bytes)?
                            .to_owned(),
                    )
                }
                "elementValue" => {
                    value = Some(
                        self.raw_item("elementValue", self.limits.max_value_bytes)?
                            .to_vec(),
                    )
                }
                _ => self.skip("unknown element entry")?,
            }
        }
        Ok(Element {
            id: id.ok_or(DecodeError::Missing("elementIdentifier"))?,
            value_cbor: value.ok_or(DecodeError::Missing("elementValue"))?,
        })
    }
}

fn count(what: &'static str, n: u64, limit: usize) -> Result<usize, DecodeError> {
    usize::try_from(n)
        .ok()
        .filter(|n| *n <= limit)
        .ok_or(DecodeError::TooMany {
            what,
            limit,
            found: n,
        })
}
