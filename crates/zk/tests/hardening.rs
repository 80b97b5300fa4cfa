//! Hostile proof bytes against Google's two specification proofs
//! (`google/spec/{sha256,ecdsa2}_proof.bin`): every single-byte flip,
//! truncation and extension must be rejected with a typed error, never a
//! panic and never an acceptance.
//!
//! The proof is cut into its wire sections (root, sumcheck, the Ligero
//! responses, nonces, column runs, digest count, digests) from the format
//! alone, so every section is mutated, and the rejecting error variant is
//! tallied per section (printed with `--nocapture`).
//!
//! Each mutation is decoded and verified against one prepared
//! [`ZkVerifier`]; the cases are spread over all cores. The default run
//! does ≥ 2,000 flips and ≥ 200 truncations per proof; the exhaustive
//! sweep (every byte, every truncation) is `#[ignore]`d.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use longfellow_circuit::{load_circuit, Circuit};
use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_ligero::{LigeroError, LigeroParams, QuadraticConstraint};
use longfellow_reed_solomon::RsField;
use longfellow_sumcheck::{constraints, quadratic_constraints, write_statement, Constraints};
use longfellow_transcript::Transcript;
use longfellow_zk::{ZkError, ZkParams, ZkProof, ZkVerifier};

/// Decimal string → field element through its little-endian integer.
fn from_decimal<F: Field>(s: &str) -> F {
    let mut le = vec![0u8; F::BYTES];
    for digit in s.bytes() {
        assert!(digit.is_ascii_digit(), "not a decimal number: {s}");
        let mut carry = u32::from(digit - b'0');
        for byte in le.iter_mut() {
            let v = u32::from(*byte) * 10 + carry;
            *byte = (v & 0xff) as u8;
            carry = v >> 8;
        }
        assert_eq!(carry, 0, "does not fit the field encoding: {s}");
    }
    F::from_bytes(&le).expect("canonical input")
}

/// One specification proof with everything needed to verify it.
struct Spec<F> {
    name: &'static str,
    circuit: Circuit<F>,
    params: ZkParams,
    public: Vec<F>,
    label: &'static [u8],
    proof: Vec<u8>,
}

fn load<F: Field>(name: &'static str, params: ZkParams, label: &'static [u8]) -> Spec<F> {
    let read = |ext: &str| longfellow_testvectors::read(&format!("google/spec/{name}_{ext}"));
    let circuit: Circuit<F> = load_circuit(&read("circuit.lfc2")).unwrap();
    let json: Vec<String> = serde_json::from_slice(&read("inputs.json")).unwrap();
    let npub = circuit.num_public_inputs();
    let public = json[..npub].iter().map(|s| from_decimal(s)).collect();
    Spec {
        name,
        circuit,
        params,
        public,
        label,
        proof: read("proof.bin"),
    }
}

fn sha256() -> Spec<Gf2_128> {
    let params = ZkParams {
        rateinv: 3,
        nreq: 16,
        block_enc: 256,
    };
    load("sha256", params, b"sha256_spec_test")
}

fn ecdsa2() -> Spec<Fp256> {
    let params = ZkParams {
        rateinv: 4,
        nreq: 16,
        block_enc: 256,
    };
    load("ecdsa2", params, b"ecdsa2_spec_test")
}

/// Decodes and verifies mutated proofs against one prepared verifier.
///
/// Replaying the sumcheck dominates verification. A mutation that leaves
/// the root and the sumcheck part unchanged reaches Ligero with the same
/// transcript state and constraints as the untouched proof, so those are
/// computed once and Ligero is verified directly from them (`shortcut`);
/// a spread subset of such cases also runs the full verifier, and both
/// must reject the same way.
struct Checker<'a, F> {
    v: ZkVerifier<'a, F>,
    public: &'a [F],
    label: &'a [u8],
    original: ZkProof<F>,
    /// Transcript right after the sumcheck of the untouched proof.
    after_sumcheck: Transcript,
    constraints: Constraints<F>,
    quad: Vec<QuadraticConstraint>,
}

impl<'a, F: RsField> Checker<'a, F> {
    fn new(spec: &'a Spec<F>) -> Self {
        let v = ZkVerifier::new(&spec.circuit, spec.params).unwrap();
        let original = v.read_proof(&spec.proof).unwrap();
        let mut t = Transcript::new(spec.label);
        original.commitment.absorb(&mut t);
        write_statement(&mut t, &spec.circuit, &spec.public);
        let constraints =
            constraints(&spec.circuit, &spec.public, &original.sumcheck, &mut t).unwrap();
        Self {
            v,
            public: &spec.public,
            label: spec.label,
            original,
            after_sumcheck: t,
            constraints,
            quad: quadratic_constraints(&spec.circuit),
        }
    }

    /// The whole verifier: decode, fresh transcript, verify.
    fn full(&self, bytes: &[u8]) -> Result<(), ZkError> {
        let proof = self.v.read_proof(bytes)?;
        let mut t = Transcript::new(self.label);
        proof.commitment.absorb(&mut t);
        self.v.verify(&proof, self.public, &mut t)
    }

    /// Decodes `bytes`; when only the Ligero part differs from the
    /// untouched proof, verifies it from the cached state. Returns whether
    /// the shortcut was taken.
    fn shortcut(&self, bytes: &[u8]) -> (Result<(), ZkError>, bool) {
        let proof = match self.v.read_proof(bytes) {
            Ok(p) => p,
            Err(e) => return (Err(e), false),
        };
        if proof.commitment != self.original.commitment || proof.sumcheck != self.original.sumcheck
        {
            let mut t = Transcript::new(self.label);
            proof.commitment.absorb(&mut t);
            return (self.v.verify(&proof, self.public, &mut t), false);
        }
        let r = longfellow_ligero::verify(
            self.v.ligero_params(),
            &proof.commitment,
            &proof.ligero,
            &mut self.after_sumcheck.clone(),
            &self.constraints.linear,
            &self.constraints.b,
            &self.quad,
        );
        (r.map_err(ZkError::from), true)
    }
}

/// The proof's wire sections, derived from the format: sizes from the
/// circuit and the Ligero parameters, run and digest counts from the bytes.
fn sections<F: Field>(
    circuit: &Circuit<F>,
    p: &LigeroParams,
    proof: &[u8],
) -> Vec<(&'static str, Range<usize>)> {
    let fb = F::BYTES;
    // Per layer: four elements per round, then two claims.
    let sumcheck_len: usize = circuit
        .layers()
        .iter()
        .map(|l| (4 * l.logw() as usize + 2) * fb)
        .sum();
    let mut out = Vec::new();
    let mut at = 0;
    let mut push = |name, len: usize, at: &mut usize| {
        out.push((name, *at..*at + len));
        *at += len;
    };
    push("root", 32, &mut at);
    push("sumcheck", sumcheck_len, &mut at);
    push("y_ldt", p.block * fb, &mut at);
    push("y_dot", p.dblock * fb, &mut at);
    push("y_quad", (p.r + p.dblock - p.block) * fb, &mut at);
    push("nonces", 32 * p.nreq, &mut at);
    // Opened columns: alternating full-field / subfield runs, each behind a
    // u32le length.
    let u32_at = |i: usize| u32::from_le_bytes(proof[i..i + 4].try_into().unwrap()) as usize;
    let mut seen = 0;
    let mut subfield = false;
    while seen < p.nrow * p.nreq {
        let run = u32_at(at);
        push("column run length", 4, &mut at);
        let size = if subfield { F::SUBFIELD_BYTES } else { fb };
        if run > 0 {
            push("column values", run * size, &mut at);
        }
        seen += run;
        subfield = !subfield;
    }
    let count = u32_at(at);
    push("digest count", 4, &mut at);
    push("digests", 32 * count, &mut at);
    assert_eq!(at, proof.len(), "section walk must end at the proof's end");
    out
}

/// The section (by name) holding byte `i`.
fn section_of(sections: &[(&'static str, Range<usize>)], i: usize) -> &'static str {
    sections
        .iter()
        .find(|(_, r)| r.contains(&i))
        .map(|(n, _)| *n)
        .unwrap_or("past the end")
}

/// A short, stable name for an error variant (no positions or counts).
fn variant(e: &ZkError) -> String {
    fn head(debug: String) -> String {
        debug
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    }
    match e {
        ZkError::Sumcheck(s) => format!("Sumcheck::{}", head(format!("{s:?}"))),
        ZkError::Ligero(LigeroError::Malformed { what }) => format!("Ligero::Malformed({what})"),
        ZkError::Ligero(LigeroError::Truncated { what }) => format!("Ligero::Truncated({what})"),
        ZkError::Ligero(LigeroError::Merkle(m)) => {
            format!("Ligero::Merkle::{}", head(format!("{m:?}")))
        }
        ZkError::Ligero(l) => format!("Ligero::{}", head(format!("{l:?}"))),
        other => head(format!("{other:?}")),
    }
}

fn is_truncation(e: &ZkError) -> bool {
    matches!(
        e,
        ZkError::Truncated
            | ZkError::Sumcheck(longfellow_sumcheck::SumcheckError::Truncated { .. })
            | ZkError::Ligero(LigeroError::Truncated { .. })
    )
}

/// A mutation of the proof.
#[derive(Clone, Copy, Debug)]
enum Mutation {
    /// XOR byte `at` with the nonzero mask.
    Flip { at: usize, mask: u8 },
    /// Keep only the first `len` bytes.
    Truncate { len: usize },
    /// Append `n` bytes.
    Append { n: usize },
}

impl Mutation {
    fn apply(self, proof: &[u8]) -> Vec<u8> {
        match self {
            Mutation::Flip { at, mask } => {
                let mut b = proof.to_vec();
                b[at] ^= mask;
                b
            }
            Mutation::Truncate { len } => proof[..len].to_vec(),
            Mutation::Append { n } => {
                let mut b = proof.to_vec();
                b.extend((0..n).map(|i| (i as u8).wrapping_mul(37)));
                b
            }
        }
    }
}

/// Masks cycled through: every single bit, all bits, and two patterns.
const MASKS: [u8; 11] = [
    0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff, 0x5a, 0xa5,
];

/// Flip positions: `target` evenly spread offsets plus, for every section,
/// its first and last 8 bytes (all of it when it is short).
fn flip_positions(
    sections: &[(&'static str, Range<usize>)],
    len: usize,
    target: usize,
) -> Vec<usize> {
    let mut v: Vec<usize> = (0..target).map(|k| k * len / target).collect();
    for (_, r) in sections {
        v.extend(r.start..(r.start + 8).min(r.end));
        v.extend(r.end.saturating_sub(8).max(r.start)..r.end);
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Truncation lengths: `target` evenly spread, 0, len − 1, and every
/// section boundary ±1.
fn truncation_lengths(
    sections: &[(&'static str, Range<usize>)],
    len: usize,
    target: usize,
) -> Vec<usize> {
    let mut v: Vec<usize> = (0..target).map(|k| k * len / target).collect();
    v.push(len - 1);
    for (_, r) in sections {
        for b in [r.start, r.end] {
            v.extend(b.saturating_sub(1)..(b + 2).min(len));
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Outcome tally: (kind, section) → variant → count.
type Tally = BTreeMap<(&'static str, &'static str), BTreeMap<String, usize>>;

/// Runs every mutation on all cores; panics (failing the test) listing the
/// mutations that were accepted, panicked, or were rejected for the wrong
/// reason.
fn sweep<F: RsField>(spec: &Spec<F>, flips: usize, truncations: usize) -> Tally {
    let checker = Checker::new(spec);
    checker.full(&spec.proof).expect("untouched proof verifies");
    assert!(checker.shortcut(&spec.proof).0.is_ok());
    let secs = sections(&spec.circuit, checker.v.ligero_params(), &spec.proof);
    let len = spec.proof.len();

    let mut cases: Vec<Mutation> = flip_positions(&secs, len, flips)
        .into_iter()
        .enumerate()
        .map(|(k, at)| Mutation::Flip {
            at,
            mask: MASKS[k % MASKS.len()],
        })
        .collect();
    let n_flips = cases.len();
    let truncs = truncation_lengths(&secs, len, truncations);
    let n_truncs = truncs.len();
    assert!(truncs.contains(&0) && truncs.contains(&(len - 1)));
    cases.extend(truncs.into_iter().map(|len| Mutation::Truncate { len }));
    cases.extend([1, 2, 1000].map(|n| Mutation::Append { n }));

    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::new());
    let failures = Mutex::new(Vec::<String>::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&m) = cases.get(i) else { break };
                let bytes = m.apply(&spec.proof);
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    let (r, took_shortcut) = checker.shortcut(&bytes);
                    // Every 8th shortcut case is cross-checked in full.
                    if took_shortcut && i.is_multiple_of(8) {
                        let full = checker.full(&bytes);
                        let same = match (&r, &full) {
                            (Err(a), Err(b)) => variant(a) == variant(b),
                            _ => false,
                        };
                        if !same {
                            return (r, Some(format!("full verifier disagrees: {full:?}")));
                        }
                    }
                    (r, None)
                }));
                let (outcome, disagreement) = match outcome {
                    Ok((r, d)) => (Ok(r), d),
                    Err(p) => (Err(p), None),
                };
                let (kind, section) = match m {
                    Mutation::Flip { at, .. } => ("flip", section_of(&secs, at)),
                    Mutation::Truncate { len } => ("truncate", section_of(&secs, len)),
                    Mutation::Append { .. } => ("append", "past the end"),
                };
                let problem = match (&outcome, m) {
                    _ if disagreement.is_some() => disagreement,
                    (Err(_), _) => Some("panicked".to_string()),
                    (Ok(Ok(())), _) => Some("accepted".to_string()),
                    (Ok(Err(e)), Mutation::Truncate { .. }) if !is_truncation(e) => {
                        Some(format!("not a truncation error: {e}"))
                    }
                    (Ok(Err(e)), Mutation::Append { n }) => match e {
                        ZkError::TrailingBytes(k) if *k == n => None,
                        _ => Some(format!("not TrailingBytes({n}): {e}")),
                    },
                    _ => None,
                };
                if let Some(p) = problem {
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("{}: {m:?} in {section}: {p}", spec.name));
                }
                let name = match &outcome {
                    Ok(Err(e)) => variant(e),
                    Ok(Ok(())) => "ACCEPTED".into(),
                    Err(_) => "PANIC".into(),
                };
                *tally
                    .lock()
                    .unwrap()
                    .entry((kind, section))
                    .or_default()
                    .entry(name)
                    .or_default() += 1;
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let tally = tally.into_inner().unwrap();
    println!(
        "{}: {} bytes, {n_flips} flips, {n_truncs} truncations, 3 appends in {:.1?} on {threads} threads",
        spec.name,
        len,
        start.elapsed()
    );
    for (name, r) in &secs {
        if *name != "column values" && *name != "column run length" {
            println!("  section {name}: {r:?}");
        }
    }
    for ((kind, section), variants) in &tally {
        println!("  {kind:8} {section:18} {variants:?}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} mutations not rejected cleanly:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    assert!(n_flips >= flips && n_truncs >= truncations);
    for (name, _) in &secs {
        assert!(
            tally.contains_key(&("flip", name)),
            "no flip landed in section {name}"
        );
    }
    tally
}

#[test]
fn sha256_spec_proof_mutations_rejected() {
    longfellow_testvectors::require!();
    sweep(&sha256(), 2000, 200);
}

#[test]
fn ecdsa2_spec_proof_mutations_rejected() {
    longfellow_testvectors::require!();
    sweep(&ecdsa2(), 2000, 200);
}

/// The format walk itself: section sizes follow from the parameters, and
/// the walk consumes the proof exactly (asserted inside `sections`).
#[test]
fn sections_cover_the_proof() {
    longfellow_testvectors::require!();
    let s = sha256();
    let v = ZkVerifier::new(&s.circuit, s.params).unwrap();
    let secs = sections(&s.circuit, v.ligero_params(), &s.proof);
    let names: Vec<&str> = secs.iter().map(|(n, _)| *n).collect();
    for want in [
        "sumcheck",
        "y_ldt",
        "y_dot",
        "y_quad",
        "nonces",
        "column values",
    ] {
        assert!(names.contains(&want), "missing section {want}");
    }
    // Root first; the digest count's value matches the digests' length.
    assert_eq!(secs[0], ("root", 0..32));
    let (_, count) = secs.iter().find(|(n, _)| *n == "digest count").unwrap();
    let (_, digests) = secs.iter().find(|(n, _)| *n == "digests").unwrap();
    let c = u32::from_le_bytes(s.proof[count.clone()].try_into().unwrap()) as usize;
    assert_eq!(digests.len(), 32 * c);
    let p = v.read_proof(&s.proof).unwrap();
    assert_eq!(p.ligero.merkle_path.len(), c);
    assert_eq!(secs[1].1.len(), p.sumcheck.encoded_len());
}

/// Every byte flipped (masks cycling through [`MASKS`]) and every
/// truncation.
/// About 270 s (sha256) and 400 s (ecdsa2) on two loaded cores.
#[test]
#[ignore = "exhaustive: every byte and every truncation length"]
fn exhaustive_sha256() {
    longfellow_testvectors::require!();
    let s = sha256();
    let n = s.proof.len();
    sweep(&s, n, n);
}

/// As [`exhaustive_sha256`] for the P-256 proof.
#[test]
#[ignore = "exhaustive: every byte and every truncation length"]
fn exhaustive_ecdsa2() {
    longfellow_testvectors::require!();
    let s = ecdsa2();
    let n = s.proof.len();
    sweep(&s, n, n);
}
