//! What a relying party asks for, and what both sides must agree on.
//!
//! [`MdocRequest::from_json`] is the one reader of the request JSON
//! (`docs/cli-contract.md`): unknown fields, duplicate keys and wrong types
//! are refused with a typed [`RequestError`], and the result is
//! [validated](MdocRequest::validate). The verifier and the prover validate
//! every request again, however it was built.

use longfellow_field::{Field, Fp256};

use crate::json::{self, Json, JsonError};
use crate::public::{parse_coordinate, RequestedAttribute};
use crate::time::{check_time, TimeError};

/// Longest SessionTranscript accepted. Real ones (ISO 18013-5 proximity or
/// OpenID4VP handovers) are a few hundred bytes to a few kilobytes; the
/// bound keeps a library caller from hashing and absorbing gigabytes.
pub const MAX_TRANSCRIPT_BYTES: usize = 1 << 16;
/// Longest docType accepted (ISO 18013-5 docTypes are ~20–40 bytes).
pub const MAX_DOC_TYPE_BYTES: usize = 256;
/// Most attributes a request may name (the circuits take at most 4).
pub const MAX_ATTRIBUTES: usize = 16;

/// A presentation request: the statement the proof is about. The prover
/// additionally holds the credential; the verifier has only this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdocRequest {
    /// Issuer public key (x, y), big-endian affine coordinates: canonical
    /// (below p) and on P-256 ([`MdocRequest::validate`]).
    pub issuer_pk: ([u8; 32], [u8; 32]),
    /// The SessionTranscript bytes (CBOR); also the Fiat–Shamir init. At
    /// most [`MAX_TRANSCRIPT_BYTES`].
    pub transcript: Vec<u8>,
    /// Current time, `YYYY-MM-DDTHH:MM:SSZ`, a real UTC time
    /// ([`crate::check_time`]).
    pub now: [u8; 20],
    /// The docType the device signed over, e.g. `org.iso.18013.5.1.mDL`.
    pub doc_type: String,
    /// The attributes to disclose, in circuit order.
    pub attributes: Vec<RequestedAttribute>,
}

/// Which issuer key coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coordinate {
    /// `pkx`.
    X,
    /// `pky`.
    Y,
}

impl std::fmt::Display for Coordinate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Coordinate::X => "pkx",
            Coordinate::Y => "pky",
        })
    }
}

/// Why a request is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RequestError {
    /// The bytes are not strict JSON (syntax, duplicate key, depth, size).
    #[error("request: {0}")]
    Json(#[from] JsonError),
    /// A field the request format does not have.
    #[error("request: unknown field `{0}`")]
    UnknownField(String),
    /// A required field is absent.
    #[error("request: missing field `{0}`")]
    MissingField(String),
    /// A field has the wrong JSON type.
    #[error("request: `{field}` must be {expected}, found {found}")]
    WrongType {
        /// Path of the field, e.g. `attributes[0].id`.
        field: String,
        /// The type the format requires.
        expected: &'static str,
        /// The type found.
        found: &'static str,
    },
    /// A `…_hex` field is not an even number of hex digits.
    #[error("request: `{0}` is not hex")]
    BadHex(String),
    /// A key coordinate is not a 0x-hex or decimal integer below 2^256.
    #[error("request: `{0}` is not a 256-bit 0x-hex or decimal integer")]
    BadCoordinate(Coordinate),
    /// A key coordinate is p or more (not a canonical field element).
    #[error("issuer key: `{0}` is not below the P-256 field modulus")]
    NonCanonicalCoordinate(Coordinate),
    /// The issuer key is not a point of P-256.
    #[error("issuer key: (pkx, pky) is not a point on P-256")]
    NotOnCurve,
    /// `now` is not a real UTC time.
    #[error("request: {0}")]
    Time(#[from] TimeError),
    /// A field is longer than its bound.
    #[error("request: `{what}` has {len} bytes, more than the limit {limit}")]
    TooLarge {
        /// Which field.
        what: &'static str,
        /// Its length.
        len: usize,
        /// The bound.
        limit: usize,
    },
}

const P256_B: [u8; 32] = [
    0x5a, 0xc6, 0x35, 0xd8, 0xaa, 0x3a, 0x93, 0xe7, 0xb3, 0xeb, 0xbd, 0x55, 0x76, 0x98, 0x86, 0xbc,
    0x65, 0x1d, 0x06, 0xb0, 0xcc, 0x53, 0xb0, 0xf6, 0x3b, 0xce, 0x3c, 0x3e, 0x27, 0xd2, 0x60, 0x4b,
];

/// A big-endian 32-byte integer as an Fp256 element, if below p.
fn fp256_be(be: &[u8; 32]) -> Option<Fp256> {
    let mut le = *be;
    le.reverse();
    Fp256::from_bytes(&le)
}

/// Checks that (x, y) are canonical coordinates of a point on P-256
/// (y² = x³ − 3x + b). The circuits would otherwise reduce coordinates
/// mod p, and an off-curve key can never verify: both cases mean the
/// relying party holds a wrong key, which it should learn as such rather
/// than as "proof rejected".
pub fn check_issuer_key(x: &[u8; 32], y: &[u8; 32]) -> Result<(), RequestError> {
    let fx = fp256_be(x).ok_or(RequestError::NonCanonicalCoordinate(Coordinate::X))?;
    let fy = fp256_be(y).ok_or(RequestError::NonCanonicalCoordinate(Coordinate::Y))?;
    let b = fp256_be(&P256_B).ok_or(RequestError::NotOnCurve)?;
    let three = Fp256::from_u64(3);
    let rhs = fx.square() * fx - three * fx + b;
    if fy.square() != rhs {
        return Err(RequestError::NotOnCurve);
    }
    Ok(())
}

impl MdocRequest {
    /// Checks what both sides rely on: the issuer key is a canonical P-256
    /// point, `now` is a real time, and the transcript, docType and
    /// attribute list are within their bounds. (Whether the attributes fit
    /// a given circuit is checked against that circuit's ZkSpec.)
    pub fn validate(&self) -> Result<(), RequestError> {
        check_issuer_key(&self.issuer_pk.0, &self.issuer_pk.1)?;
        check_time(&self.now)?;
        let bounds = [
            ("transcript", self.transcript.len(), MAX_TRANSCRIPT_BYTES),
            ("doc_type", self.doc_type.len(), MAX_DOC_TYPE_BYTES),
            ("attributes", self.attributes.len(), MAX_ATTRIBUTES),
        ];
        for (what, len, limit) in bounds {
            if len > limit {
                return Err(RequestError::TooLarge { what, len, limit });
            }
        }
        Ok(())
    }

    /// Reads the request JSON of the command-line contract:
    ///
    /// ```json
    /// {"pkx": "0x…", "pky": "0x…", "transcript_hex": "…",
    ///  "now": "YYYY-MM-DDTHH:MM:SSZ", "doc_type": "org.iso.18013.5.1.mDL",
    ///  "attributes": [{"namespace": "…", "id": "…", "value_cbor_hex": "…"}]}
    /// ```
    ///
    /// Every field is required, no other field is allowed, no key may
    /// repeat; the result is [validated](Self::validate).
    pub fn from_json(bytes: &[u8]) -> Result<Self, RequestError> {
        Self::from_json_value(&json::parse(bytes)?, &[])
    }

    /// Reads the request fields of an already parsed JSON object. Keys in
    /// `ignored` are allowed and skipped (an entry of Google's
    /// `cases.json` holds a request's fields beside `name` and
    /// `mdoc_hex`); when `attributes` is among them and absent, the request
    /// names no attribute.
    pub fn from_json_value(v: &Json, ignored: &[&str]) -> Result<Self, RequestError> {
        let obj = Obj::new(v, "request", REQUEST_FIELDS, ignored)?;
        let coordinate = |key: &str, which| {
            parse_coordinate(obj.str(key)?).ok_or(RequestError::BadCoordinate(which))
        };
        let issuer_pk = (
            coordinate("pkx", Coordinate::X)?,
            coordinate("pky", Coordinate::Y)?,
        );
        let now_text = obj.str("now")?;
        let now: [u8; 20] = now_text
            .as_bytes()
            .try_into()
            .map_err(|_| TimeError::Shape(now_text.into()))?;
        let attributes = match obj.get("attributes") {
            None if ignored.contains(&"attributes") => &[][..],
            _ => obj.array("attributes")?,
        };
        if attributes.len() > MAX_ATTRIBUTES {
            return Err(RequestError::TooLarge {
                what: "attributes",
                len: attributes.len(),
                limit: MAX_ATTRIBUTES,
            });
        }
        let attributes = attributes
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let path = format!("attributes[{i}]");
                let a = Obj::new(a, &path, ATTRIBUTE_FIELDS, &[])?;
                Ok(RequestedAttribute {
                    namespace: a.str("namespace")?.into(),
                    id: a.str("id")?.into(),
                    value_cbor: a.hex("value_cbor_hex")?,
                })
            })
            .collect::<Result<Vec<_>, RequestError>>()?;
        let request = MdocRequest {
            issuer_pk,
            transcript: obj.hex("transcript_hex")?,
            now,
            doc_type: obj.str("doc_type")?.into(),
            attributes,
        };
        request.validate()?;
        Ok(request)
    }

    /// The request JSON [`Self::from_json`] reads (coordinates as 0x-hex).
    pub fn to_json(&self) -> String {
        let mut out = String::from("{");
        let field = |out: &mut String, key: &str, value: &str| {
            if out.len() > 1 {
                out.push_str(", ");
            }
            json::write_string(out, key);
            out.push_str(": ");
            json::write_string(out, value);
        };
        field(&mut out, "pkx", &format!("0x{}", hex(&self.issuer_pk.0)));
        field(&mut out, "pky", &format!("0x{}", hex(&self.issuer_pk.1)));
        field(&mut out, "transcript_hex", &hex(&self.transcript));
        field(&mut out, "now", &String::from_utf8_lossy(&self.now));
        field(&mut out, "doc_type", &self.doc_type);
        out.push_str(", \"attributes\": [");
        for (i, a) in self.attributes.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let mut o = String::from("{");
            field(&mut o, "namespace", &a.namespace);
            field(&mut o, "id", &a.id);
            field(&mut o, "value_cbor_hex", &hex(&a.value_cbor));
            o.push('}');
            out.push_str(&o);
        }
        out.push_str("]}");
        out
    }
}

const REQUEST_FIELDS: &[&str] = &[
    "pkx",
    "pky",
    "transcript_hex",
    "now",
    "doc_type",
    "attributes",
];
const ATTRIBUTE_FIELDS: &[&str] = &["namespace", "id", "value_cbor_hex"];

fn hex(bytes: &[u8]) -> String {
    use core::fmt::Write;
    let mut s = String::with_capacity(2 * bytes.len());
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(2) {
        return None;
    }
    b.chunks_exact(2)
        .map(|p| {
            let d = |c: u8| (c as char).to_digit(16);
            Some((d(p[0])? << 4 | d(p[1])?) as u8)
        })
        .collect()
}

/// An object whose keys were checked against the format's fields.
struct Obj<'a> {
    members: &'a [(String, Json)],
    path: String,
}

impl<'a> Obj<'a> {
    fn new(
        v: &'a Json,
        path: &str,
        fields: &[&str],
        ignored: &[&str],
    ) -> Result<Self, RequestError> {
        let Json::Object(members) = v else {
            return Err(RequestError::WrongType {
                field: path.into(),
                expected: "an object",
                found: v.type_name(),
            });
        };
        let sub = |k: &str| {
            if path == "request" {
                k.to_owned()
            } else {
                format!("{path}.{k}")
            }
        };
        if let Some((k, _)) = members
            .iter()
            .find(|(k, _)| !fields.contains(&k.as_str()) && !ignored.contains(&k.as_str()))
        {
            return Err(RequestError::UnknownField(sub(k)));
        }
        Ok(Self {
            members,
            path: if path == "request" {
                String::new()
            } else {
                format!("{path}.")
            },
        })
    }

    fn get(&self, key: &str) -> Option<&'a Json> {
        self.members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn name(&self, key: &str) -> String {
        format!("{}{key}", self.path)
    }

    fn required(&self, key: &str) -> Result<&'a Json, RequestError> {
        self.get(key)
            .ok_or_else(|| RequestError::MissingField(self.name(key)))
    }

    fn str(&self, key: &str) -> Result<&'a str, RequestError> {
        match self.required(key)? {
            Json::String(s) => Ok(s),
            other => Err(RequestError::WrongType {
                field: self.name(key),
                expected: "a string",
                found: other.type_name(),
            }),
        }
    }

    fn array(&self, key: &str) -> Result<&'a [Json], RequestError> {
        match self.required(key)? {
            Json::Array(a) => Ok(a),
            other => Err(RequestError::WrongType {
                field: self.name(key),
                expected: "an array",
                found: other.type_name(),
            }),
        }
    }

    fn hex(&self, key: &str) -> Result<Vec<u8>, RequestError> {
        let s = self.str(key)?;
        if key == "transcript_hex" && s.len() > 2 * MAX_TRANSCRIPT_BYTES {
            return Err(RequestError::TooLarge {
                what: "transcript",
                len: s.len() / 2,
                limit: MAX_TRANSCRIPT_BYTES,
            });
        }
        unhex(s).ok_or_else(|| RequestError::BadHex(self.name(key)))
    }
}
