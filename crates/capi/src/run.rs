//! The entry points' work on checked Rust values: no pointers here.
//!
//! `ffi` turns the C arguments into these types (refusing nulls, empty
//! buffers and over-long fields); this module resolves the spec, loads the
//! circuit pair, and calls the prover or verifier.

use longfellow_circuit::{load_pair, CircuitPair};
use longfellow_mdoc::public::{parse_coordinate, RequestedAttribute};
use longfellow_mdoc::{MdocRequest, Verifier};
use longfellow_mdoc_prover::Prover;
use longfellow_mdoc_witness::parse_device_response;
use longfellow_random::OsRng;

use crate::abi::{self, ZkSpecStruct};
use crate::error::{ArgError, CapiError};
use crate::specs;

/// Length of the `now` argument: `YYYY-MM-DDTHH:MM:SSZ`.
pub const NOW_LEN: usize = 20;

/// The public statement both sides receive, already checked for nulls.
#[derive(Debug)]
pub struct Statement<'a> {
    /// Circuit file bytes (any published form).
    pub circuit: &'a [u8],
    /// Issuer key x, `0x` hex (with or without leading zeros) or decimal.
    pub pkx: &'a str,
    /// Issuer key y.
    pub pky: &'a str,
    /// SessionTranscript bytes.
    pub transcript: &'a [u8],
    /// The C attribute array.
    pub attrs: &'a [abi::RequestedAttribute],
    /// The 20 bytes of `now`.
    pub now: &'a [u8],
    /// The spec the caller passed.
    pub spec: &'a ZkSpecStruct,
}

/// Copies C attributes into Rust ones, refusing any declared length
/// longer than its field (Google's library truncates silently, which
/// proves or checks a different claim than the caller asked for).
pub fn attributes(attrs: &[abi::RequestedAttribute]) -> Result<Vec<RequestedAttribute>, ArgError> {
    fn field<'b>(
        index: usize,
        field: &'static str,
        bytes: &'b [u8],
        len: usize,
    ) -> Result<&'b [u8], ArgError> {
        bytes.get(..len).ok_or(ArgError::AttributeTooLong {
            index,
            field,
            len,
            capacity: bytes.len(),
        })
    }
    let text = |index: usize, what: &'static str, bytes: &[u8]| {
        String::from_utf8(bytes.to_vec()).map_err(|_| ArgError::Invalid {
            name: "attrs",
            reason: format!("attribute {index}: {what} is not UTF-8"),
        })
    };
    attrs
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let ns = field(i, "namespace_id", &a.namespace_id, a.namespace_len)?;
            let id = field(i, "id", &a.id, a.id_len)?;
            let value = field(i, "cbor_value", &a.cbor_value, a.cbor_value_len)?;
            Ok(RequestedAttribute {
                namespace: text(i, "namespace_id", ns)?,
                id: text(i, "id", id)?,
                value_cbor: value.to_vec(),
            })
        })
        .collect()
}

fn coordinate(name: &'static str, s: &str) -> Result<[u8; 32], ArgError> {
    parse_coordinate(s).ok_or_else(|| ArgError::Invalid {
        name,
        reason: "not a 0x-hex (or decimal) integer below 2^256".into(),
    })
}

fn now(bytes: &[u8]) -> Result<[u8; NOW_LEN], ArgError> {
    let invalid = || ArgError::Invalid {
        name: "now",
        reason: "must be exactly 20 characters, YYYY-MM-DDTHH:MM:SSZ".into(),
    };
    let now: [u8; NOW_LEN] = bytes.try_into().map_err(|_| invalid())?;
    if now[NOW_LEN - 1] != b'Z' || !now.is_ascii() {
        return Err(invalid());
    }
    Ok(now)
}

/// The caller's spec as a table row and its circuit pair, checked to be
/// the same spec.
fn load(s: &Statement<'_>) -> Result<(&'static ZkSpecStruct, CircuitPair), CapiError> {
    let spec = specs::resolve(s.spec).ok_or(ArgError::UnknownSpec)?;
    if s.attrs.len() != spec.num_attributes {
        return Err(ArgError::AttributeCount {
            expected: spec.num_attributes,
            got: s.attrs.len(),
        }
        .into());
    }
    let pair = load_pair(s.circuit)?;
    let circuit = hex(&pair.zkspec_hash);
    let named = specs::hash_str(spec).unwrap_or_default();
    if circuit != named {
        return Err(ArgError::SpecMismatch {
            circuit,
            spec: named,
        }
        .into());
    }
    Ok((spec, pair))
}

fn request(s: &Statement<'_>, doc_type: String) -> Result<MdocRequest, ArgError> {
    Ok(MdocRequest {
        issuer_pk: (coordinate("pkx", s.pkx)?, coordinate("pky", s.pky)?),
        transcript: s.transcript.to_vec(),
        now: now(s.now)?,
        doc_type,
        attributes: attributes(s.attrs)?,
    })
}

/// Proves `s` with the DeviceResponse `mdoc`, with OS randomness. Without
/// `doc_type` (Google's ABI) the document's own docType is used: it is what
/// the device signed.
pub fn prove(s: &Statement<'_>, mdoc: &[u8], doc_type: Option<&str>) -> Result<Vec<u8>, CapiError> {
    let doc_type = match doc_type {
        Some(d) => d.to_owned(),
        None => parse_device_response(mdoc)?.doc_type,
    };
    let request = request(s, doc_type)?;
    let (_, pair) = load(s)?;
    let prover = Prover::new(&pair)?;
    Ok(prover.prove(&request, mdoc, &mut OsRng)?)
}

/// Checks `proof` for `s` and `doc_type`.
pub fn verify(s: &Statement<'_>, proof: &[u8], doc_type: &str) -> Result<(), CapiError> {
    let request = request(s, doc_type.to_owned())?;
    let (_, pair) = load(s)?;
    let verifier = Verifier::new(&pair)?;
    Ok(verifier.verify(&request, proof)?)
}

/// SHA-256(signature circuit ID ‖ hash circuit ID) of a circuit file.
pub fn circuit_id(circuit: &[u8]) -> Result<[u8; 32], CapiError> {
    Ok(load_pair(circuit)?.zkspec_hash)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attr(ns: &str, id: &str, v: &[u8]) -> abi::RequestedAttribute {
        let mut a = abi::RequestedAttribute {
            namespace_id: [0; 64],
            id: [0; 32],
            cbor_value: [0; 64],
            namespace_len: ns.len(),
            id_len: id.len(),
            cbor_value_len: v.len(),
        };
        a.namespace_id[..ns.len()].copy_from_slice(ns.as_bytes());
        a.id[..id.len()].copy_from_slice(id.as_bytes());
        a.cbor_value[..v.len()].copy_from_slice(v);
        a
    }

    #[test]
    fn attributes_are_copied_and_overlong_lengths_refused() {
        let a = attr("org.iso.18013.5.1", "age_over_18", &[0xf5]);
        let got = attributes(&[a]).expect("fits");
        assert_eq!(got[0].namespace, "org.iso.18013.5.1");
        assert_eq!(got[0].id, "age_over_18");
        assert_eq!(got[0].value_cbor, vec![0xf5]);
        for (field, bump) in [("namespace_id", 0), ("id", 1), ("cbor_value", 2)] {
            let mut long = a;
            match bump {
                0 => long.namespace_len = 65,
                1 => long.id_len = 33,
                _ => long.cbor_value_len = 65,
            }
            match attributes(&[a, long]) {
                Err(ArgError::AttributeTooLong {
                    index: 1, field: f, ..
                }) => assert_eq!(f, field),
                other => panic!("{field}: {other:?}"),
            }
        }
        let mut bad = a;
        bad.id[0] = 0xff;
        assert!(matches!(attributes(&[bad]), Err(ArgError::Invalid { .. })));
    }

    #[test]
    fn now_must_be_twenty_characters() {
        assert!(now(b"2024-10-01T09:00:00Z").is_ok());
        assert!(now(b"2024-10-01T09:00:00").is_err());
        assert!(now(b"2024-10-01T09:00:00Z ").is_err());
        assert!(now(b"2024-10-01T09:00:00+").is_err());
    }

    #[test]
    fn coordinates_with_and_without_leading_zeros_agree() {
        let short = coordinate("pkx", "0x1234").expect("short hex");
        let long = coordinate("pkx", &format!("0x{}1234", "0".repeat(60))).expect("padded");
        assert_eq!(short, long);
        assert!(coordinate("pkx", "0x").is_err());
        assert!(coordinate("pkx", &format!("0x1{}", "0".repeat(64))).is_err());
    }
}
