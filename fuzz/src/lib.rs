//! Shared fixtures of the fuzz targets: the reference vectors, read at run
//! time from `$LONGFELLOW_VECTORS` or `../shared/vectors` beside the
//! repository (never embedded, never committed), each loaded once.
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use longfellow_circuit::{load_circuit, load_pair, Circuit, CircuitPair};
use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_mdoc::json::{self, Json};
use longfellow_mdoc::{MdocRequest, RequestedAttribute, Verifier};
use longfellow_zk::{ZkParams, ZkVerifier};

pub mod harness;
pub mod structured;

/// The Ligero parameters of Google's `sha256` specification proof.
pub const SHA256_PARAMS: ZkParams = ZkParams {
    rateinv: 3,
    nreq: 16,
    block_enc: 256,
};
/// The Ligero parameters of Google's `ecdsa2` specification proof.
pub const ECDSA2_PARAMS: ZkParams = ZkParams {
    rateinv: 4,
    nreq: 16,
    block_enc: 256,
};
/// Transcript label of the `sha256` specification proof.
pub const SHA256_LABEL: &[u8] = b"sha256_spec_test";
/// ZkSpec circuit hash of the version-7, one-attribute mdoc circuits.
pub const MDOC_V7_1: &str = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

fn read(relative: &str) -> Vec<u8> {
    longfellow_testvectors::read(relative)
}

/// Decimal string → field element through its little-endian integer.
fn from_decimal<F: Field>(s: &str) -> F {
    let mut le = vec![0u8; F::BYTES];
    for digit in s.bytes() {
        assert!(digit.is_ascii_digit(), "not decimal: {s}");
        let mut carry = u32::from(digit - b'0');
        for byte in le.iter_mut() {
            let v = u32::from(*byte) * 10 + carry;
            *byte = (v & 0xff) as u8;
            carry = v >> 8;
        }
        assert_eq!(carry, 0, "too large: {s}");
    }
    F::from_bytes(&le).expect("canonical input")
}

/// The circuit of spec proof `name` (`sha256` or `ecdsa2`).
fn spec_circuit<F: Field>(name: &str) -> Circuit<F> {
    load_circuit(&read(&format!("google/spec/{name}_circuit.lfc2"))).expect("spec circuit")
}

/// The public inputs of spec proof `name`.
fn spec_public<F: Field>(name: &str, circuit: &Circuit<F>) -> Vec<F> {
    let json: Vec<String> =
        serde_json::from_slice(&read(&format!("google/spec/{name}_inputs.json")))
            .expect("inputs.json");
    json[..circuit.num_public_inputs()]
        .iter()
        .map(|s| from_decimal(s))
        .collect()
}

/// The `sha256` specification circuit (GF(2^128)).
pub fn sha256_circuit() -> &'static Circuit<Gf2_128> {
    static C: OnceLock<Circuit<Gf2_128>> = OnceLock::new();
    C.get_or_init(|| spec_circuit("sha256"))
}

/// The `ecdsa2` specification circuit (P-256 base field).
pub fn ecdsa2_circuit() -> &'static Circuit<Fp256> {
    static C: OnceLock<Circuit<Fp256>> = OnceLock::new();
    C.get_or_init(|| spec_circuit("ecdsa2"))
}

/// A verifier for the `sha256` specification circuit and its public inputs.
pub fn sha256_verifier() -> &'static (ZkVerifier<'static, Gf2_128>, Vec<Gf2_128>) {
    static V: OnceLock<(ZkVerifier<'static, Gf2_128>, Vec<Gf2_128>)> = OnceLock::new();
    V.get_or_init(|| {
        let c = sha256_circuit();
        let v = ZkVerifier::new(c, SHA256_PARAMS).expect("sha256 verifier");
        (v, spec_public("sha256", c))
    })
}

/// The version-7 one-attribute mdoc circuit pair.
pub fn mdoc_pair() -> &'static CircuitPair {
    static PAIR: OnceLock<CircuitPair> = OnceLock::new();
    PAIR.get_or_init(|| {
        load_pair(&read(&format!("google/mdoc/circuits/{MDOC_V7_1}.lfa2")))
            .expect("mdoc circuit pair")
    })
}

/// The version-7 one-attribute mdoc circuit pair's verifier.
pub fn mdoc_verifier() -> &'static Verifier<'static> {
    static V: OnceLock<Verifier<'static>> = OnceLock::new();
    V.get_or_init(|| Verifier::new(mdoc_pair()).expect("mdoc verifier"))
}

/// The case of Google's stored mdoc proofs.
pub const REFERENCE_CASE: &str = "birthdate_1971_09_01-mdoc[3].json";

/// The entry of [`REFERENCE_CASE`] in `cases.json`, read by the library's
/// strict JSON reader.
fn reference_case() -> &'static Json {
    static C: OnceLock<Json> = OnceLock::new();
    C.get_or_init(|| {
        let Json::Array(cases) = json::parse(&read("google/mdoc/cases.json")).expect("cases.json")
        else {
            panic!("cases.json is not an array");
        };
        cases
            .into_iter()
            .find(|c| c.get("name").and_then(Json::as_str) == Some(REFERENCE_CASE))
            .expect("reference case")
    })
}

/// The DeviceResponse of [`REFERENCE_CASE`].
pub fn reference_mdoc() -> &'static [u8] {
    static M: OnceLock<Vec<u8>> = OnceLock::new();
    M.get_or_init(|| {
        let case = reference_case();
        let hex = case
            .get("mdoc_hex")
            .and_then(|h| h.as_str())
            .expect("mdoc_hex");
        (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
            .collect()
    })
}

/// The request Google's stored mdoc proofs answer: the case
/// `birthdate_1971_09_01-mdoc[3].json`, now = 2024-10-01T09:00:00Z, mDL,
/// disclosing `family_name` = "Mustermann".
pub fn mdoc_request() -> &'static MdocRequest {
    static R: OnceLock<MdocRequest> = OnceLock::new();
    R.get_or_init(|| {
        let case = reference_case();
        let mut r = MdocRequest::from_json_value(case, &["name", "mdoc_hex", "attributes"])
            .expect("reference request");
        let mut value_cbor = vec![0x6a];
        value_cbor.extend_from_slice(b"Mustermann");
        r.now = *b"2024-10-01T09:00:00Z";
        r.doc_type = "org.iso.18013.5.1.mDL".into();
        r.attributes = vec![RequestedAttribute {
            namespace: "org.iso.18013.5.1".into(),
            id: "family_name".into(),
            value_cbor,
        }];
        r
    })
}
