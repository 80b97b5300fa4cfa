//! ISRG's one-circuit vectors (every random draw `02 00 …`, transcript
//! "test" with the legacy array tag): commitment root, sumcheck bytes and
//! Ligero bytes reproduced, and the proof verified; and ISRG's dense bind
//! vectors (dense 1-D, sparse 2-D hand binding, sparse 3-D output binding).

use longfellow_circuit::{load_circuit, Circuit};
use longfellow_field::{Field, Fp128, Fp256, Gf2_128};
use longfellow_random::ConstantDrawRng;
use longfellow_reed_solomon::RsField;
use longfellow_sumcheck::{eq2_table, log2_ceil, Term};
use longfellow_sumcheck_prover::reference::PreparedLayer;
use longfellow_sumcheck_prover::{bind_into, HQuad};
use longfellow_transcript::Transcript;
use longfellow_zk::{ZkParams, ZkVerifier};
use longfellow_zk_prover::ZkProver;
use serde_json::Value;

use super::{file_name, list_dir};
use crate::diff::{diff_ligero, diff_sumcheck, ZkShape};
use crate::error::{read, CheckError};
use crate::registry::{Check, Family, Outcome};
use crate::Options;

const ONE_CIRCUIT: &str = "isrg/one-circuit";
const BIND: &str = "isrg/bind";

pub(crate) fn discover_one_circuit(opts: &Options) -> Vec<Check<'static>> {
    let files = match list_dir(opts, Family::IsrgOneCircuit, ONE_CIRCUIT) {
        Ok(f) => f,
        Err(skip) => return vec![skip],
    };
    let mut out = Vec::new();
    for json in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
    {
        let name = file_name(json).trim_end_matches(".json").to_string();
        let sibling = |ext: &str| json.with_file_name(format!("{name}.{ext}"));
        let paths = ["circuit.zst", "sumcheck-proof", "ligero-proof"].map(sibling);
        if let Some(missing) = paths.iter().find(|p| !p.is_file()) {
            out.push(Check::skip(
                Family::IsrgOneCircuit,
                name,
                format!("missing {}", missing.display()),
            ));
            continue;
        }
        let json = json.clone();
        out.push(Check::new(Family::IsrgOneCircuit, name, move |_| {
            let meta: Value = serde_json::from_slice(&read(&json)?)
                .map_err(|e| CheckError::malformed("one-circuit json", e.to_string()))?;
            let files = [read(&paths[0])?, read(&paths[1])?, read(&paths[2])?];
            match meta["field"].as_u64() {
                Some(6) => one_circuit::<Fp128>(&meta, &files),
                Some(4) => one_circuit::<Gf2_128>(&meta, &files),
                Some(1) => one_circuit::<Fp256>(&meta, &files),
                other => Ok(Outcome::Skip(format!("unsupported field id {other:?}"))),
            }
        }));
    }
    out
}

fn usize_of(v: &Value, what: &str) -> Result<usize, CheckError> {
    v.as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| CheckError::malformed("one-circuit json", format!("{what} missing")))
}

fn elt<F: Field>(v: &Value) -> Result<F, CheckError> {
    v.as_str()
        .and_then(|s| hex::decode(s).ok())
        .and_then(|b| F::from_bytes(&b))
        .ok_or_else(|| CheckError::malformed("isrg json", format!("bad element {v}")))
}

fn one_circuit<F: RsField>(meta: &Value, files: &[Vec<u8>; 3]) -> Result<Outcome, CheckError> {
    let circuit: Circuit<F> = load_circuit(&files[0]).map_err(CheckError::component)?;
    let lp = &meta["ligero_parameters"];
    let params = ZkParams {
        rateinv: usize_of(&lp["rate"], "rate")?,
        nreq: usize_of(&lp["nreq"], "nreq")?,
        block_enc: usize_of(&lp["num_columns"], "num_columns")?,
    };
    let mut inputs = vec![F::ONE];
    for v in meta["valid_inputs"].as_array().into_iter().flatten() {
        inputs.push(elt(v)?);
    }
    let npub = circuit.num_public_inputs().min(inputs.len());
    let shape = ZkShape::of(&circuit, params).map_err(CheckError::component)?;

    let prover = ZkProver::new(&circuit, params).map_err(CheckError::component)?;
    let commit = prover
        .commit(&inputs, &mut ConstantDrawRng::isrg())
        .map_err(CheckError::component)?;
    let want_root = meta["ligero_commitment"].as_str().unwrap_or_default();
    if hex::encode(commit.commitment.root) != want_root {
        return Ok(Outcome::Fail("first divergence: commitment root".into()));
    }
    let mut t = Transcript::new_with_legacy_array_tag(b"test");
    commit.commitment.absorb(&mut t);
    let proof = prover
        .prove(commit, &inputs, &mut t)
        .map_err(CheckError::component)?;
    let mut sc = Vec::new();
    proof.sumcheck.write(&mut sc);
    if let Some(d) = diff_sumcheck::<F>(&shape, &files[1], &sc) {
        return Ok(Outcome::Fail(format!("first divergence: {d}")));
    }
    if let Some(d) = diff_ligero::<F>(&shape, &files[2], &proof.ligero.to_bytes()) {
        return Ok(Outcome::Fail(format!("first divergence: {d}")));
    }
    let verifier = ZkVerifier::new(&circuit, params).map_err(CheckError::component)?;
    let mut t = Transcript::new_with_legacy_array_tag(b"test");
    proof.commitment.absorb(&mut t);
    if let Err(e) = verifier.verify(&proof, &inputs[..npub], &mut t) {
        return Ok(Outcome::Fail(format!("reproduced proof rejected: {e}")));
    }
    Ok(Outcome::Pass(format!(
        "root, {} sumcheck bytes and {} Ligero bytes reproduced; proof verifies",
        files[1].len(),
        files[2].len()
    )))
}

pub(crate) fn discover_bind(opts: &Options) -> Vec<Check<'static>> {
    let files = match list_dir(opts, Family::IsrgBind, BIND) {
        Ok(f) => f,
        Err(skip) => return vec![skip],
    };
    let mut out = Vec::new();
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
    {
        let name = file_name(path).trim_end_matches(".json").to_string();
        let kind = name.split('_').next().unwrap_or_default().to_string()
            + name.split('_').nth(1).unwrap_or_default();
        let path = path.clone();
        let field = name.rsplit('_').next().unwrap_or_default().to_string();
        out.push(Check::new(Family::IsrgBind, name, move |_| {
            let v: Value = serde_json::from_slice(&read(&path)?)
                .map_err(|e| CheckError::malformed("bind json", e.to_string()))?;
            match field.as_str() {
                "FieldP256" => bind::<Fp256>(&kind, &v),
                "FieldP128" => bind::<Fp128>(&kind, &v),
                "128" => bind::<Gf2_128>(&kind, &v),
                f => Ok(Outcome::Skip(format!("unknown field {f}"))),
            }
        }));
    }
    out
}

fn elts<F: Field>(v: &Value) -> Result<Vec<F>, CheckError> {
    v.as_array()
        .ok_or_else(|| CheckError::malformed("bind json", "array expected"))?
        .iter()
        .map(elt)
        .collect()
}

fn bind<F: Field>(kind: &str, v: &Value) -> Result<Outcome, CheckError> {
    match kind {
        "dense1d" => dense::<F>(v),
        "sparse2d" => sparse_2d::<F>(v),
        "sparse3d" => sparse_3d::<F>(v),
        k => Ok(Outcome::Skip(format!("unknown bind vector kind {k}"))),
    }
}

/// `([h0, h1], k)` entries of a sparse array (gate index `g` returned too).
fn sparse<F: Field>(v: &Value) -> Result<Vec<(u32, [u32; 2], F)>, CheckError> {
    let bad = || CheckError::malformed("bind json", "bad sparse entry");
    let mut out = v["contents"]
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|c| {
            let w = |k: &str| {
                c[k].as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(bad)
            };
            Ok((
                w("gate_index")?,
                [w("left_wire_index")?, w("right_wire_index")?],
                elt(&c["coefficient"])?,
            ))
        })
        .collect::<Result<Vec<_>, CheckError>>()?;
    out.sort_by_key(|(g, h, _)| (*g, *h));
    Ok(out)
}

/// Hand variables needed for the largest wire index.
fn hand_logw<F>(entries: &[(u32, [u32; 2], F)]) -> usize {
    let max = entries.iter().flat_map(|(_, h, _)| *h).max().unwrap_or(0);
    log2_ceil(max as usize + 1).max(1)
}

fn entries_of<F: Field>(quad: &HQuad<F>) -> Vec<(u32, [u32; 2], F)> {
    let mut got: Vec<_> = quad.entries().map(|(h, k)| (0, h, k)).collect();
    got.sort_by_key(|(g, h, _)| (*g, *h));
    got
}

fn layer_of<F: Field>(
    entries: &[(u32, [u32; 2], F)],
    nv: usize,
) -> Result<PreparedLayer<F>, CheckError> {
    let logw = hand_logw(entries);
    let mut terms: Vec<Term<F>> = entries
        .iter()
        .map(|&(g, [h0, h1], k)| Term { g, h0, h1, k })
        .collect();
    PreparedLayer::new(0, logw, 1 << logw, nv, &mut terms).map_err(CheckError::component)
}

/// Hand-variable binding of a quadratic form with one output (g = 0),
/// alternating hands, checked after every step.
fn sparse_2d<F: Field>(v: &Value) -> Result<Outcome, CheckError> {
    let cases = v["test_cases"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    for (i, case) in cases.iter().enumerate() {
        let input = sparse::<F>(&case["input"])?;
        let bindings: Vec<F> = elts(&case["bindings"])?;
        let outputs = case["outputs"].as_array().map(Vec::as_slice).unwrap_or(&[]);
        if bindings.len() != outputs.len() {
            return Err(CheckError::malformed(
                "bind json",
                "bindings and outputs differ",
            ));
        }
        let layer = layer_of(&input, 1)?;
        let mut quad = HQuad::new();
        layer.bind_g(&[F::ONE], F::ZERO, &mut quad);
        for (step, (r, want)) in bindings.iter().zip(outputs).enumerate() {
            quad.bind_h(step % 2, *r);
            if entries_of(&quad) != sparse::<F>(want)? {
                return Ok(Outcome::Fail(format!(
                    "case {i} ({}): entries differ after binding step {step}",
                    case["description"]
                )));
            }
        }
    }
    Ok(Outcome::Pass(format!(
        "{} sparse 2-D bind cases",
        cases.len()
    )))
}

/// Output-variable binding: `Σ_g (eq(G0, g) + α·eq(G1, g))·k` per hand pair.
fn sparse_3d<F: Field>(v: &Value) -> Result<Outcome, CheckError> {
    let cases = v["test_cases"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    for (i, case) in cases.iter().enumerate() {
        let input = sparse::<F>(&case["input"])?;
        let g0: Vec<F> = elts(&case["bindings_0"])?;
        let g1: Vec<F> = elts(&case["bindings_1"])?;
        let alpha: F = elt(&case["alpha"])?;
        if g0.len() != g1.len() || g0.len() > 24 {
            return Err(CheckError::malformed("bind json", "binding lengths"));
        }
        let nv = 1usize << g0.len();
        let mut eqg = Vec::new();
        eq2_table(&g0, &g1, alpha, nv, &mut eqg);
        let layer = layer_of(&input, nv)?;
        let mut quad = HQuad::new();
        layer.bind_g(&eqg, F::ZERO, &mut quad);
        if entries_of(&quad) != sparse::<F>(&case["output"])? {
            return Ok(Outcome::Fail(format!(
                "case {i} ({}): bound entries differ",
                case["description"]
            )));
        }
    }
    Ok(Outcome::Pass(format!(
        "{} sparse 3-D bind cases",
        cases.len()
    )))
}

fn dense<F: Field>(v: &Value) -> Result<Outcome, CheckError> {
    let cases = v["test_cases"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    if cases.is_empty() {
        return Err(CheckError::malformed("bind json", "no test cases"));
    }
    for (i, case) in cases.iter().enumerate() {
        let input: Vec<F> = elts(&case["input"])?;
        let r: F = elt(&case["binding"])?;
        let want: Vec<F> = elts(&case["output"])?;
        let mut got = Vec::new();
        bind_into(&input, r, &mut got);
        if got != want {
            let at = got.iter().zip(&want).position(|(a, b)| a != b);
            return Ok(Outcome::Fail(format!(
                "case {i} ({}): output differs at {at:?} (lengths {} / {})",
                case["description"],
                got.len(),
                want.len()
            )));
        }
    }
    Ok(Outcome::Pass(format!("{} dense bind cases", cases.len())))
}
