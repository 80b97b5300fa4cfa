//! `longfellow mdoc present`: the wallet's side of a ZK presentation. Proves
//! the requested attributes of a real mdoc and writes the ISO 18013-5 ZK
//! DeviceResponse a relying party receives.
//!
//! The issuer key is never given by hand: it is the key of the document
//! signer certificate, taken from the mdoc's IssuerAuth x5chain (or from
//! `--chain`), exactly the certificate the relying party will check.

use std::path::{Path, PathBuf};

use clap::Args;
use longfellow_circuit::load_pair;
use longfellow_mdoc::{MdocRequest, RequestedAttribute};
use longfellow_mdoc_prover::Prover;
use longfellow_mdoc_response::{
    encode, Element, Namespace, Timestamp, X5Chain, ZkDeviceResponse, ZkDocument, ZkDocumentData,
    ZkSystemId,
};
use longfellow_mdoc_witness::parse_device_response;
use longfellow_random::SeededOrOs;
use minicbor::data::Type;
use minicbor::Decoder;

/// Arguments of `mdoc present`.
#[derive(Debug, Args)]
pub struct PresentArgs {
    /// Circuit pair: `<hash>`, `<hash>.lfa1` or `<hash>.lfa2`.
    #[arg(long)]
    circuit: PathBuf,
    /// The credential: an ISO 18013-5 DeviceResponse (CBOR).
    #[arg(long)]
    mdoc: PathBuf,
    /// The SessionTranscript (CBOR) of this presentation.
    #[arg(long, required_unless_present = "session_request")]
    transcript: Option<PathBuf>,
    /// A Digital Credentials API session request (what `POST /sessions`
    /// returned, or its `request` member): the transcript is built from it
    /// and `--origin`, and `--out` receives the JSON the browser hands back
    /// (`{"response"}` HPKE-sealed to the session key, or `{"vp_token"}`).
    #[arg(long, conflicts_with = "transcript", requires = "origin")]
    session_request: Option<PathBuf>,
    /// The website's origin, as the browser reports it to the wallet.
    #[arg(long)]
    origin: Option<String>,
    /// An attribute to disclose, `NAMESPACE/IDENTIFIER` (repeat; circuit
    /// order; default with --session-request: the requested ones).
    #[arg(long = "attribute", required_unless_present = "session_request")]
    attributes: Vec<String>,
    /// The proof's time, `YYYY-MM-DDTHH:MM:SSZ` (default: now).
    #[arg(long)]
    now: Option<String>,
    /// DER certificates for msoX5chain, document signer first (default: the
    /// mdoc's IssuerAuth x5chain).
    #[arg(long = "chain")]
    chain: Vec<PathBuf>,
    /// Write zkSystemId as the `longfellow-libzk-v1_…` spec id instead of
    /// the bare circuit hash.
    #[arg(long)]
    spec_id: bool,
    /// Deterministic randomness (tests only).
    #[arg(long)]
    seed: Option<u64>,
    /// Where to write the ZK DeviceResponse.
    #[arg(long)]
    out: PathBuf,
}

/// A failure: exit code 1 when the prover refuses, 2 for bad input.
#[derive(Debug)]
pub struct PresentError {
    /// Exit code.
    pub code: u8,
    /// One-line message.
    pub message: String,
}

pub(crate) fn usage(m: impl std::fmt::Display) -> PresentError {
    PresentError {
        code: 2,
        message: m.to_string(),
    }
}

const MAX_CIRCUIT_FILE: u64 = 256 << 20;
const MAX_SMALL_FILE: u64 = 4 << 20;

fn read(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, PresentError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| usage(format!("cannot read {what} {}: {e}", path.display())))?;
    if meta.len() > max {
        return Err(usage(format!(
            "{what} {} is larger than {max} bytes",
            path.display()
        )));
    }
    std::fs::read(path).map_err(|e| usage(format!("cannot read {what} {}: {e}", path.display())))
}

/// The x5chain (COSE label 33) of `documents[0].issuerSigned.issuerAuth`.
fn issuer_auth_x5chain(mdoc: &[u8]) -> Result<Vec<Vec<u8>>, PresentError> {
    let bad = |m: &str| usage(format!("mdoc: {m}"));
    let cb = |_e: minicbor::decode::Error| bad("malformed CBOR");
    let mut d = Decoder::new(mdoc);
    let find_key = |d: &mut Decoder<'_>, key: &str| -> Result<bool, PresentError> {
        let n = d.map().map_err(cb)?.ok_or_else(|| bad("indefinite map"))?;
        for _ in 0..n {
            if d.datatype().map_err(cb)? == Type::String {
                if d.str().map_err(cb)? == key {
                    return Ok(true);
                }
            } else {
                d.skip().map_err(cb)?;
            }
            d.skip().map_err(cb)?;
        }
        Ok(false)
    };
    // Each lookup leaves the decoder at the value of the key sought.
    if !find_key(&mut d, "documents")? {
        return Err(bad("no documents"));
    }
    if d.array().map_err(cb)?.unwrap_or(0) == 0 {
        return Err(bad("no documents"));
    }
    if !find_key(&mut d, "issuerSigned")? || !find_key(&mut d, "issuerAuth")? {
        return Err(bad("no issuerSigned.issuerAuth"));
    }
    if d.array().map_err(cb)? != Some(4) {
        return Err(bad("issuerAuth is not a COSE_Sign1"));
    }
    d.skip().map_err(cb)?; // protected
    let n = d.map().map_err(cb)?.unwrap_or(0);
    for _ in 0..n {
        let label = match d.datatype().map_err(cb)? {
            Type::U8 | Type::U16 | Type::U32 | Type::U64 => Some(d.u64().map_err(cb)?),
            _ => {
                d.skip().map_err(cb)?;
                None
            }
        };
        if label == Some(33) {
            return match d.datatype().map_err(cb)? {
                Type::Bytes => Ok(vec![d.bytes().map_err(cb)?.to_vec()]),
                Type::Array => {
                    let m = d.array().map_err(cb)?.unwrap_or(0).min(16);
                    (0..m)
                        .map(|_| d.bytes().map(<[u8]>::to_vec).map_err(cb))
                        .collect()
                }
                _ => Err(bad("x5chain is neither bstr nor array")),
            };
        }
        d.skip().map_err(cb)?;
    }
    Err(bad("issuerAuth carries no x5chain; pass --chain DS.der"))
}

fn now_or(now: Option<&str>) -> Result<Timestamp, PresentError> {
    match now {
        Some(s) => Timestamp::parse(s).ok_or_else(|| usage("--now must be YYYY-MM-DDTHH:MM:SSZ")),
        None => {
            let secs = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_err(|e| usage(format!("clock: {e}")))?
                .as_secs();
            Timestamp::from_unix(i64::try_from(secs).unwrap_or(i64::MAX))
                .ok_or_else(|| usage("clock out of range"))
        }
    }
}

/// Runs `mdoc present`.
pub fn run(a: PresentArgs) -> Result<(), PresentError> {
    let mdoc = read(&a.mdoc, MAX_SMALL_FILE, "mdoc")?;
    let session = match (&a.session_request, &a.origin) {
        (Some(p), Some(origin)) => Some(super::present_session::parse(
            &read(p, MAX_SMALL_FILE, "session request")?,
            origin,
        )?),
        _ => None,
    };
    let transcript = match (&session, &a.transcript) {
        (Some(s), _) => s.handover.session_transcript(),
        (None, Some(p)) => read(p, MAX_SMALL_FILE, "transcript")?,
        (None, None) => return Err(usage("give --transcript or --session-request")),
    };
    let requested: Vec<String> = match &session {
        Some(s) if a.attributes.is_empty() => s
            .elements
            .iter()
            .map(|(ns, id)| format!("{ns}/{id}"))
            .collect(),
        _ => a.attributes.clone(),
    };
    let now = now_or(a.now.as_deref())?;
    let chain = if a.chain.is_empty() {
        issuer_auth_x5chain(&mdoc)?
    } else {
        a.chain
            .iter()
            .map(|p| read(p, 64 << 10, "certificate"))
            .collect::<Result<Vec<_>, _>>()?
    };
    let ds = longfellow_trust::split_der_certificates(&chain[0])
        .ok()
        .and_then(|c| c.first().map(|c| c.to_vec()))
        .ok_or_else(|| usage("x5chain[0] is not a DER certificate"))?;
    let issuer_pk = longfellow_trust::ParsedCertificate::parse(&ds, "document signer certificate")
        .and_then(|c| c.p256_coordinates())
        .map_err(usage)?;

    let parsed = parse_device_response(&mdoc).map_err(|e| usage(format!("mdoc: {e}")))?;
    let mut attributes = Vec::new();
    for spec in &requested {
        let (ns, id) = spec
            .rsplit_once('/')
            .ok_or_else(|| usage(format!("--attribute `{spec}` is not NAMESPACE/IDENTIFIER")))?;
        let item = parsed
            .items
            .iter()
            .find(|i| i.namespace == ns && i.element_identifier == id)
            .ok_or_else(|| usage(format!("the mdoc has no attribute {ns}/{id}")))?;
        attributes.push(RequestedAttribute {
            namespace: ns.to_owned(),
            id: id.to_owned(),
            value_cbor: item.element_value.clone(),
        });
    }
    let request = MdocRequest {
        issuer_pk,
        transcript,
        now: *now.as_bytes(),
        doc_type: parsed.doc_type.clone(),
        attributes: attributes.clone(),
    };

    let circuit = read(&a.circuit, MAX_CIRCUIT_FILE, "circuit file")?;
    let pair = load_pair(&circuit).map_err(|e| usage(format!("circuit file: {e}")))?;
    let prover = Prover::new(&pair).map_err(usage)?;
    let spec = *prover.spec();
    let offered = match &session {
        Some(s) => {
            if s.doc_type != parsed.doc_type {
                return Err(usage(format!(
                    "the session asks for docType {}, the mdoc is {}",
                    s.doc_type, parsed.doc_type
                )));
            }
            let o = s.offered(&spec.circuit_hash_hex()).ok_or_else(|| {
                usage(format!(
                    "the session does not accept circuit {}",
                    spec.circuit_hash_hex()
                ))
            })?;
            Some(ZkSystemId::new(o.zk_system_id.clone()))
        }
        None => None,
    };
    let proof = prover
        .prove(&request, &mdoc, &mut SeededOrOs::new(a.seed))
        .map_err(|e| PresentError {
            code: 1,
            message: format!("prover refused: {e}"),
        })?;

    // One namespace per distinct name, attributes in request order.
    let mut namespaces: Vec<Namespace> = Vec::new();
    for at in attributes {
        let element = Element {
            id: at.id,
            value_cbor: at.value_cbor,
        };
        match namespaces.iter_mut().find(|n| n.name == at.namespace) {
            Some(n) => n.elements.push(element),
            None => namespaces.push(Namespace {
                name: at.namespace,
                elements: vec![element],
            }),
        }
    }
    let response = ZkDeviceResponse {
        version: "1.0".into(),
        status: 0,
        documents: vec![ZkDocument {
            proof,
            data: ZkDocumentData {
                doc_type: parsed.doc_type,
                timestamp: now,
                mso_x5chain: X5Chain::from_certificates(chain),
                zk_system_id: if let Some(id) = offered {
                    // Echo the id the relying party offered.
                    id
                } else if a.spec_id {
                    ZkSystemId::spec_id_of(&spec)
                } else {
                    ZkSystemId::circuit_hash_of(&spec)
                },
                issuer_signed: namespaces,
                device_signed: None,
            },
        }],
    };
    let mut bytes = encode(&response).map_err(usage)?;
    if let Some(s) = &session {
        bytes = s.wrap(&bytes)?.into_bytes();
    }
    std::fs::write(&a.out, bytes)
        .map_err(|e| usage(format!("cannot write {}: {e}", a.out.display())))
}
