//! Every credential of `cases.json` against every circuit present: prove
//! with the mdoc's own attributes (first n, in encoding order) and verify,
//! or, where a refusal rule of the reference applies to the credential's
//! bytes and the request ([`super::refusal`]: element order for versions
//! ≤ 6, each version's MSO block limit, …), expect a refusal before
//! proving. The rule, not the case name, decides, so that the sweep judges
//! credentials it has never seen as the reference would.

use std::path::PathBuf;
use std::sync::Arc;

use super::mdoc::{circuits_present, load_cases, own_attributes, Case, CASES, NOT_LINKED};
use super::refusal::reference_refusal;
use crate::backend::{BackendError, MdocBackend};
use crate::error::CheckError;
use crate::registry::{Check, Family, Outcome};
use crate::zkspec::SpecParams;
use crate::Options;

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
    let rule = reference_refusal(&combo.case.mdoc, &request.attributes, combo.spec.version)
        .map_err(CheckError::component)?;
    let proof = match (
        prover.prove(&combo.circuit, &request, &combo.case.mdoc, seed),
        &rule,
    ) {
        (Ok(p), None) => p,
        (Err(BackendError::Unavailable(m)), _) => return Ok(Outcome::Skip(m)),
        (Err(BackendError::Refused(m)), Some(rule)) => {
            return Ok(Outcome::Pass(format!(
                "refused as the reference does ({rule}): {m}"
            )))
        }
        (Err(e), Some(rule)) => {
            return Ok(Outcome::Fail(format!(
                "{}: {e} (expected a refusal: {rule})",
                prover.name()
            )))
        }
        (Err(e), None) => {
            return Ok(Outcome::Fail(format!(
                "{}: {e} (expected a proof: no refusal rule of the reference applies)",
                prover.name()
            )))
        }
        (Ok(p), Some(rule)) => {
            return Ok(Outcome::Fail(format!(
                "{} proved ({} B) where the reference refuses: {rule}",
                prover.name(),
                p.len()
            )))
        }
    };
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
    use std::path::{Path, PathBuf};

    use super::{circuits_present, sweep, Combo};
    use crate::backend::{BackendError, MdocBackend, MdocRequest};
    use crate::checks::issued::samples;
    use crate::linked::Linked;
    use crate::registry::Outcome;
    use crate::zkspec::params;

    /// A backend with one canned answer: `Canned(true)` proves everything
    /// (and accepts its own proofs), `Canned(false)` refuses everything.
    struct Canned(bool);
    const PROVES: Canned = Canned(true);
    const REFUSES: Canned = Canned(false);

    impl MdocBackend for Canned {
        fn name(&self) -> String {
            if self.0 {
                "always-proves"
            } else {
                "always-refuses"
            }
            .into()
        }
        fn prove(
            &self,
            _: &Path,
            _: &MdocRequest,
            _: &[u8],
            _: Option<u64>,
        ) -> Result<Vec<u8>, BackendError> {
            if self.0 {
                Ok(vec![0x5a; 3])
            } else {
                Err(BackendError::Refused("no".into()))
            }
        }
        fn verify(&self, _: &Path, _: &MdocRequest, proof: &[u8]) -> Result<(), BackendError> {
            if self.0 && proof == [0x5a; 3] {
                Ok(())
            } else {
                Err(BackendError::Rejected("not ours".into()))
            }
        }
    }

    /// The sweep of issued credentials, each named to mislead (a refused
    /// case's name on a credential that keeps every rule, harmless names on
    /// ones that break one): a prover that refuses passes exactly where the
    /// reference refuses, naming the rule, and one that proves passes
    /// exactly elsewhere.
    #[test]
    fn the_sweep_expects_a_refusal_exactly_where_a_rule_applies_whatever_the_name() {
        let (mut refusals, mut proofs) = (0, 0);
        for s in samples() {
            for (version, want) in [(5, s.v6), (6, s.v6), (7, s.v7)] {
                let combo = Combo {
                    case: s.case.clone(),
                    spec: params(version, 1).expect("ZkSpec"),
                    circuit: PathBuf::from("not read by these backends"),
                };
                let label = combo.label();
                let refused = sweep(&REFUSES, None, &combo, None).expect("sweep");
                let proved = sweep(&PROVES, None, &combo, None).expect("sweep");
                match want {
                    Some(rule) => {
                        refusals += 1;
                        assert!(
                            matches!(&refused, Outcome::Pass(m) if m.contains(rule)),
                            "{label}: a refusal expected ({rule}): {refused:?}"
                        );
                        assert!(
                            matches!(&proved, Outcome::Fail(m) if m.contains(rule)),
                            "{label}: a proof must fail ({rule}): {proved:?}"
                        );
                    }
                    None => {
                        proofs += 1;
                        assert!(
                            matches!(&proved, Outcome::Pass(_)),
                            "{label}: a proof expected: {proved:?}"
                        );
                        assert!(
                            matches!(&refused, Outcome::Fail(m) if m.contains("expected a proof")),
                            "{label}: a refusal must fail: {refused:?}"
                        );
                    }
                }
            }
        }
        assert!(refusals > 0 && proofs > 0, "{refusals} {proofs}");
    }

    /// The same samples through our real prover and verifier with the
    /// one-attribute circuits of versions 6 and 7: every expected proof is
    /// made and accepted (the adjacent pair placed first proves with
    /// version 6, an MSO of exactly 40 blocks with version 7), every
    /// expected refusal is one.
    #[test]
    fn our_prover_proves_or_refuses_the_issued_credentials_as_the_rules_say() {
        longfellow_testvectors::require!();
        let opts = crate::Options::new(longfellow_testvectors::vectors_dir());
        let circuits: Vec<_> = circuits_present(&opts)
            .into_iter()
            .filter(|(_, spec, _)| spec.attributes == 1 && [6, 7].contains(&spec.version))
            .collect();
        assert_eq!(circuits.len(), 2, "the v6/1 and v7/1 circuits");
        let linked = Linked::new();
        let all = samples();
        for (_, spec, circuit) in circuits {
            for s in &all {
                let want = if spec.version == 7 { s.v7 } else { s.v6 };
                let combo = Combo {
                    case: s.case.clone(),
                    spec,
                    circuit: circuit.clone(),
                };
                let got = sweep(&linked, None, &combo, Some(1)).expect("sweep");
                assert!(
                    matches!(&got, Outcome::Pass(m) if want.is_none_or(|rule| m.contains(rule))),
                    "{}: expected {want:?}: {got:?}",
                    combo.label()
                );
            }
        }
    }

    /// Fewer attributes in the credential than the circuit discloses is a
    /// skip, as before, whatever the rules say.
    #[test]
    fn a_circuit_disclosing_more_than_the_credential_holds_is_skipped() {
        let s = samples().remove(1);
        let combo = Combo {
            case: s.case,
            spec: params(6, 2).expect("ZkSpec"),
            circuit: PathBuf::from("unused"),
        };
        for backend in [&PROVES as &dyn MdocBackend, &REFUSES] {
            let got = sweep(backend, None, &combo, None).expect("sweep");
            assert!(
                matches!(&got, Outcome::Skip(m) if m.contains("holds 1 attribute")),
                "{got:?}"
            );
        }
    }
}
