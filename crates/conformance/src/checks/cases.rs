//! Every credential of `cases.json` against every circuit present: prove
//! with the mdoc's own attributes (first n, in encoding order) and verify,
//! or, where the reference refuses (version ≤ 6 with the EUAV 16–19
//! credentials, whose elementValue does not directly follow
//! elementIdentifier), expect a refusal before proving.

use std::path::PathBuf;
use std::sync::Arc;

use super::mdoc::{circuits_present, load_cases, own_attributes, Case, CASES, NOT_LINKED};
use crate::backend::{BackendError, MdocBackend};
use crate::error::CheckError;
use crate::registry::{Check, Family, Outcome};
use crate::zkspec::SpecParams;
use crate::Options;

/// Whether the reference prover refuses this case with this ZkSpec version.
pub(crate) fn reference_refuses(case: &str, version: u32) -> bool {
    version <= 6
        && case.starts_with("EUAV")
        && ["[16]", "[17]", "[18]", "[19]"]
            .iter()
            .any(|k| case.contains(k))
}

/// One (case, circuit) pair to sweep.
#[derive(Clone, Debug)]
pub(crate) struct Combo {
    pub case: Case,
    pub spec: SpecParams,
    pub circuit: PathBuf,
}

impl Combo {
    pub(crate) fn label(&self) -> String {
        format!(
            "{} × v{}/{}",
            self.case.name, self.spec.version, self.spec.attributes
        )
    }
}

/// All combinations, or a skip explaining what is missing.
pub(crate) fn combos(opts: &Options, family: Family) -> Result<Vec<Combo>, Check<'static>> {
    let path = opts.path(CASES);
    if !path.is_file() {
        return Err(Check::skip(
            family,
            "cases.json",
            format!("missing {CASES}"),
        ));
    }
    let circuits = circuits_present(opts);
    if circuits.is_empty() {
        return Err(Check::skip(
            family,
            "cases.json",
            "no known mdoc circuit present",
        ));
    }
    let cases = load_cases(&path).map_err(|e| {
        let reason = e.to_string();
        Check::new(family, "cases.json", move |_| Ok(Outcome::Fail(reason)))
    })?;
    // Circuit-major, so that a backend caching the last decoded pair
    // decodes each pair once.
    let mut out = Vec::new();
    for (_, spec, circuit) in &circuits {
        for case in &cases {
            out.push(Combo {
                case: case.clone(),
                spec: *spec,
                circuit: circuit.clone(),
            });
        }
    }
    Ok(out)
}

pub(crate) fn discover(opts: &Options) -> Vec<Check<'static>> {
    let combos = match combos(opts, Family::Cases) {
        Ok(c) => c,
        Err(skip) => return vec![skip],
    };
    let Some(backend) = opts.backend.clone().filter(|b| b.can_prove()) else {
        return vec![Check::skip(
            Family::Cases,
            format!("{} case × circuit combinations", combos.len()),
            NOT_LINKED,
        )];
    };
    combos
        .into_iter()
        .map(|c| {
            let b = Arc::clone(&backend);
            Check::new(Family::Cases, c.label(), move |opts| {
                sweep(b.as_ref(), None, &c, opts.seed)
            })
        })
        .collect()
}

/// Proves `combo` with `prover`, then verifies with `verifier` (when
/// given, else with the prover itself), or expects the refusal.
pub(crate) fn sweep(
    prover: &dyn MdocBackend,
    verifier: Option<&dyn MdocBackend>,
    combo: &Combo,
    seed: Option<u64>,
) -> Result<Outcome, CheckError> {
    let n = combo.spec.attributes as usize;
    let own = own_attributes(&combo.case.mdoc)?;
    if own.len() < n {
        return Ok(Outcome::Skip(format!(
            "the mdoc holds {} attribute(s) in its namespace, the circuit discloses {n}",
            own.len()
        )));
    }
    let mut request = combo.case.request.clone();
    request.attributes = own[..n].to_vec();
    let refuse = reference_refuses(&combo.case.name, combo.spec.version);
    let proof = match prover.prove(&combo.circuit, &request, &combo.case.mdoc, seed) {
        Ok(p) => p,
        Err(BackendError::Unavailable(m)) => return Ok(Outcome::Skip(m)),
        Err(BackendError::Refused(m)) if refuse => {
            return Ok(Outcome::Pass(format!("refused as the reference does: {m}")))
        }
        Err(e) => {
            let want = if refuse { "a refusal" } else { "a proof" };
            return Ok(Outcome::Fail(format!(
                "{}: {e} (expected {want})",
                prover.name()
            )));
        }
    };
    if refuse {
        return Ok(Outcome::Fail(format!(
            "{} proved ({} B) where the reference refuses (elementValue not directly after elementIdentifier)",
            prover.name(),
            proof.len()
        )));
    }
    let verifier = verifier.unwrap_or(prover);
    Ok(match verifier.verify(&combo.circuit, &request, &proof) {
        Ok(()) => Outcome::Pass(format!(
            "proof of {} B accepted by {}",
            proof.len(),
            verifier.name()
        )),
        Err(e) => Outcome::Fail(format!(
            "proof of {} B by {} not accepted by {}: {e}",
            proof.len(),
            prover.name(),
            verifier.name()
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::reference_refuses;

    #[test]
    fn only_version_6_and_below_refuse_the_euav_16_to_19_credentials() {
        for k in 15..=19 {
            let name = format!("EUAV_Age_Over_18-mdoc[{k}].json");
            assert_eq!(reference_refuses(&name, 6), k >= 16, "{name}");
            assert_eq!(reference_refuses(&name, 5), k >= 16, "{name}");
            assert!(!reference_refuses(&name, 7), "{name}");
        }
        assert!(!reference_refuses("birthdate_1971_09_01-mdoc[3].json", 6));
    }
}
