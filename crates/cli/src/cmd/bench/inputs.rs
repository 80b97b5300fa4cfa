//! What is proven: the synthetic credential, a case of a cases.json-shaped
//! file, a request/mdoc pair, or the inputs of Google's reference proofs.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use longfellow_mdoc::json::Json;
use longfellow_mdoc::{MdocRequest, RequestedAttribute};
use longfellow_mdoc_issuer::{dc_api_session_transcript, DeviceKey, IssuerKey, MdocBuilder, Tdate};
use longfellow_mdoc_witness::parse_device_response;
use longfellow_random::OsRng;

use crate::cmd::mdoc::parse_request;
use crate::cmd::CliError;

/// The case of Google's stored proofs (vectors README).
const REFERENCE_CASE: &str = "birthdate_1971_09_01-mdoc[3].json";
/// Attributes of the stored proofs: the first n of these.
const REFERENCE_ATTRIBUTES: [&str; 4] = ["family_name", "birth_date", "issue_date", "height"];

/// A request, the credential, and (for the reference inputs) the proof the
/// seed-42 generator must reproduce.
#[derive(Debug)]
pub struct Inputs {
    pub label: String,
    pub request: MdocRequest,
    pub mdoc: Vec<u8>,
    pub expected_proof: Option<Vec<u8>>,
}

fn err(what: impl std::fmt::Display) -> CliError {
    CliError(what.to_string())
}

fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    crate::cmd::limited::read_limited(path, crate::cmd::limited::MAX_SMALL_FILE, "input")
        .map_err(CliError)
}

/// A synthetic mDL from the test issuer, valid today; the request discloses
/// its first `n` attributes.
pub fn synthetic(n: usize) -> Result<Inputs, CliError> {
    let unix = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_err(err)?
        .as_secs();
    let now = Tdate::from_unix(i64::try_from(unix).map_err(err)?).map_err(err)?;
    let day = Duration::from_secs(86_400);
    let transcript = dc_api_session_transcript("https://verifier.example", "bench").map_err(err)?;
    let mdoc = MdocBuilder::mdl()
        .valid_around(now, day, 365 * day)
        .and_then(|b| {
            b.build(
                &IssuerKey::random(&mut OsRng),
                &DeviceKey::random(&mut OsRng),
                &transcript,
                &mut OsRng,
            )
        })
        .map_err(err)?;
    let ids: Vec<&str> = mdoc
        .attributes
        .iter()
        .take(n)
        .map(|a| a.id.as_str())
        .collect();
    let json = mdoc
        .request(now, &ids)
        .and_then(|r| r.to_json())
        .map_err(err)?;
    let request = parse_request(json.as_bytes()).map_err(err)?;
    Ok(Inputs {
        label: format!("synthetic mDL ({})", ids.join(", ")),
        request,
        mdoc: mdoc.device_response,
        expected_proof: None,
    })
}

/// `--request REQ.json --mdoc MDOC.cbor`.
pub fn files(request: &Path, mdoc: &Path) -> Result<Inputs, CliError> {
    let parsed =
        parse_request(&read(request)?).map_err(|e| err(format!("{}: {e}", request.display())))?;
    Ok(Inputs {
        label: format!("{} + {}", request.display(), mdoc.display()),
        request: parsed,
        mdoc: read(mdoc)?,
        expected_proof: None,
    })
}

/// The named case of a cases.json-shaped file (its own time and docType,
/// no attributes yet) and its DeviceResponse; the request fields are read
/// by the library's strict reader.
fn load_case(file: &Path, name: &str) -> Result<(MdocRequest, Vec<u8>), CliError> {
    let json = longfellow_mdoc::json::parse(&read(file)?)
        .map_err(|e| err(format!("{}: {e}", file.display())))?;
    let Json::Array(cases) = json else {
        return Err(err(format!("{}: not an array of cases", file.display())));
    };
    let case = cases
        .iter()
        .find(|c| c.get("name").and_then(Json::as_str) == Some(name))
        .ok_or_else(|| err(format!("{}: no case named {name}", file.display())))?;
    let request = MdocRequest::from_json_value(case, &["name", "mdoc_hex", "attributes"])
        .map_err(|e| err(format!("case {name}: {e}")))?;
    let mdoc = case
        .get("mdoc_hex")
        .and_then(Json::as_str)
        .ok_or_else(|| err(format!("case {name}: missing string `mdoc_hex`")))?;
    let mdoc = hex::decode(mdoc).map_err(|e| err(format!("case {name} `mdoc_hex`: {e}")))?;
    Ok((request, mdoc))
}

/// The credential's own attributes in its first namespace, encoding order.
fn own_attributes(mdoc: &[u8]) -> Result<Vec<RequestedAttribute>, CliError> {
    let r = parse_device_response(mdoc).map_err(err)?;
    let ns = r
        .items
        .first()
        .map(|i| i.namespace.clone())
        .unwrap_or_default();
    Ok(r.items
        .iter()
        .filter(|i| i.namespace == ns)
        .map(|i| RequestedAttribute {
            namespace: i.namespace.clone(),
            id: i.element_identifier.clone(),
            value_cbor: i.element_value.clone(),
        })
        .collect())
}

/// `--case FILE#NAME`: the case disclosing its first `n` own attributes.
pub fn case(spec: &str, n: usize) -> Result<Inputs, CliError> {
    let (file, name) = spec
        .rsplit_once('#')
        .ok_or_else(|| err("--case wants FILE#NAME"))?;
    let (mut request, mdoc) = load_case(Path::new(file), name)?;
    let own = own_attributes(&mdoc)?;
    if own.len() < n {
        return Err(err(format!(
            "case {name} holds {} attribute(s), the circuit discloses {n}",
            own.len()
        )));
    }
    request.attributes = own[..n].to_vec();
    Ok(Inputs {
        label: format!("case {name}"),
        request,
        mdoc,
        expected_proof: None,
    })
}

/// `--reference`: the inputs of Google's stored proofs, found beside the
/// circuit directory (`../cases.json`, `../proofs/<hash>.bin`).
pub fn reference(circuit: &Path, hash: &str, n: usize) -> Result<Inputs, CliError> {
    let dir: PathBuf = circuit
        .parent()
        .map(|d| d.join(".."))
        .ok_or_else(|| err("circuit path has no directory"))?;
    let (mut request, mdoc) = load_case(&dir.join("cases.json"), REFERENCE_CASE)?;
    request.now = *b"2024-10-01T09:00:00Z";
    request.doc_type = "org.iso.18013.5.1.mDL".into();
    let own = own_attributes(&mdoc)?;
    for id in REFERENCE_ATTRIBUTES.iter().take(n) {
        let a = own
            .iter()
            .find(|a| a.id == *id)
            .ok_or_else(|| err(format!("reference mdoc lacks {id}")))?;
        request.attributes.push(a.clone());
    }
    let proof_path = dir.join("proofs").join(format!("{hash}.bin"));
    Ok(Inputs {
        label: format!("reference case {REFERENCE_CASE}"),
        request,
        mdoc,
        expected_proof: Some(read(&proof_path)?),
    })
}
