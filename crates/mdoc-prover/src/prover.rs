//! The two-circuit prover.

use longfellow_circuit::CircuitPair;
use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_mdoc::{
    draw_verifier_key, CircuitKind, MdocProof, MdocRequest, VerifyError, ZkSpec,
};
use longfellow_mdoc_witness::mac::{prover_keys_from_bytes, MacInputs, PROVER_KEY_BYTES};
use longfellow_mdoc_witness::{MdocError, PrivateWitness, Witnesses};
use longfellow_transcript::Transcript;
use longfellow_zk::ZkError;
use longfellow_zk_prover::{LayerStep, ProvePhase as ZkPhase, ZkProver};
use rand_core::{CryptoRng, CryptoRngCore, RngCore};

/// Why no proof was produced.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProveError {
    /// The circuit pair is unusable (unknown ZkSpec, wrong shape).
    #[error("circuit pair: {0}")]
    Circuit(VerifyError),
    /// The credential or request cannot be proven with these circuits.
    #[error("{0}")]
    Refused(#[from] MdocError),
    /// The zk layer failed. With a witness this crate accepted, this means
    /// the credential hit a case the circuit does not satisfy (a bug here
    /// or in the witness generator, never bad input alone).
    #[error("{circuit}: {source}")]
    Zk {
        /// Which circuit.
        circuit: CircuitKind,
        /// The zk layer's error.
        source: ZkError,
    },
    /// A witness value is not a field element (a witness generator bug).
    #[error("{0} witness holds a value outside the field")]
    Witness(CircuitKind),
}

fn zk(circuit: CircuitKind) -> impl Fn(ZkError) -> ProveError {
    move |source| ProveError::Zk { circuit, source }
}

/// A step of [`Prover::prove_observed`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Phase {
    /// Parsing the credential and building the witnesses (and, after the
    /// commitments, the MAC part of the witness).
    Witness,
    /// Drawing the pads and committing to both circuits' witnesses.
    Commit,
    /// Circuit evaluation and the padded sumcheck.
    Sumcheck,
    /// Constraint derivation and the Ligero proof.
    Ligero,
    /// Within [`Phase::Sumcheck`]: a step on one of `circuit`'s layers (see
    /// [`LayerStep`]), for timing the layers.
    Layer {
        /// The circuit being proven.
        circuit: CircuitKind,
        /// What begins.
        step: LayerStep,
    },
}

/// Forwards the zk layer's phases of `circuit`'s proof as this crate's.
fn zk_phase(
    on_phase: &mut (dyn FnMut(Phase) + Send),
    circuit: CircuitKind,
) -> impl FnMut(ZkPhase) + Send + '_ {
    move |p| {
        on_phase(match p {
            ZkPhase::Sumcheck => Phase::Sumcheck,
            ZkPhase::Layer(step) => Phase::Layer { circuit, step },
            _ => Phase::Ligero,
        })
    }
}

/// A circuit pair prepared for proving; reuse it for many proofs.
#[derive(Debug)]
pub struct Prover<'a> {
    pair: &'a CircuitPair,
    spec: ZkSpec,
    hash: ZkProver<'a, Gf2_128>,
    sig: ZkProver<'a, Fp256>,
}

/// A full input vector with zeros where the public inputs will go: the
/// commitment covers only the private part, which is known before a_v.
fn with_public_slots<T: Copy>(zero: T, npub: usize, private: &[T]) -> Vec<T> {
    let mut v = vec![zero; npub];
    v.extend_from_slice(private);
    v
}

/// The signature inputs as field elements, allocated at their exact size
/// (collecting through `Option` would double the buffer as it grows).
fn sig_elements(w: &Witnesses) -> Result<Vec<Fp256>, ProveError> {
    let mut out = Vec::with_capacity(w.sig.len());
    for b in &w.sig {
        out.push(Fp256::from_bytes(b).ok_or(ProveError::Witness(CircuitKind::Signature))?);
    }
    Ok(out)
}

/// The hash inputs as field elements, at their exact size (every `u128` is
/// one, in the wire encoding's bit order).
fn hash_elements(w: &Witnesses) -> Vec<Gf2_128> {
    w.hash.iter().map(|&v| Gf2_128::from_u128(v)).collect()
}

impl<'a> Prover<'a> {
    /// Finds the pair's ZkSpec (by its circuit hash), checks the circuits'
    /// shape against it and prepares both circuits.
    pub fn new(pair: &'a CircuitPair) -> Result<Self, ProveError> {
        // The verifier's checks are exactly the prover's preconditions.
        let spec = ZkSpec::checked_for_pair(pair).map_err(ProveError::Circuit)?;
        let hash = ZkProver::new(&pair.hash, spec.hash_params()).map_err(zk(CircuitKind::Hash))?;
        let sig =
            ZkProver::new(&pair.sig, spec.sig_params()).map_err(zk(CircuitKind::Signature))?;
        Ok(Self {
            pair,
            spec,
            hash,
            sig,
        })
    }

    /// The pair's ZkSpec.
    pub fn spec(&self) -> &ZkSpec {
        &self.spec
    }

    /// Proves `request` with the DeviceResponse `mdoc`, drawing randomness
    /// from `rng`; returns the proof bytes. The generator must be a
    /// cryptographic one (e.g. `OsRng`): the proof's zero knowledge rests
    /// on it, and a predictable one reveals the witness. The deterministic
    /// generators that reproduce published proofs qualify only with
    /// `longfellow-random`'s `test-vectors` feature.
    pub fn prove<R: CryptoRngCore + ?Sized>(
        &self,
        request: &MdocRequest,
        mdoc: &[u8],
        rng: &mut R,
    ) -> Result<Vec<u8>, ProveError> {
        self.prove_observed(request, mdoc, rng, &mut |_| {})
    }

    /// [`prove`](Self::prove), calling `on_phase` each time the work
    /// switches to another [`Phase`] (phases recur: the witness is finished
    /// after both commitments, and each circuit runs sumcheck then Ligero),
    /// so a caller can time them. The proof is the same bytes.
    pub fn prove_observed<R: CryptoRngCore + ?Sized>(
        &self,
        request: &MdocRequest,
        mdoc: &[u8],
        rng: &mut R,
        on_phase: &mut (dyn FnMut(Phase) + Send),
    ) -> Result<Vec<u8>, ProveError> {
        longfellow_par::with_workers_polling(|| {
            self.prove_lent(request, mdoc, &mut Lent(rng), on_phase)
        })
    }

    /// The prover itself, generic over nothing: the generic entry points
    /// above are shims over it, so the two circuits' provers are compiled
    /// once, here, instead of once per crate (and per test binary) that
    /// names a generator type. Each of those copies took about 20 s of an
    /// optimised build. The indirect call per random element drawn is
    /// small beside the generator's own work for it.
    fn prove_lent(
        &self,
        request: &MdocRequest,
        mdoc: &[u8],
        rng: &mut dyn CryptoRngCore,
        on_phase: &mut (dyn FnMut(Phase) + Send),
    ) -> Result<Vec<u8>, ProveError> {
        on_phase(Phase::Witness);
        let mut ap_bytes = [0u8; PROVER_KEY_BYTES];
        rng.fill_bytes(&mut ap_bytes);
        let prover_keys = prover_keys_from_bytes(&ap_bytes);
        // Parses and checks everything the circuits assert, so a credential
        // the circuits cannot prove is refused here, before any proving.
        let private = PrivateWitness::new(&self.spec.info, request, mdoc, &prover_keys)?;

        let hash_npub = self.pair.hash.num_public_inputs();
        let sig_npub = self.pair.sig.num_public_inputs();
        let hash_private: Vec<Gf2_128> = private
            .hash
            .iter()
            .map(|v| Gf2_128::from_bytes(&v.to_le_bytes()))
            .collect::<Option<_>>()
            .ok_or(ProveError::Witness(CircuitKind::Hash))?;
        let sig_private: Vec<Fp256> = private
            .sig
            .iter()
            .map(|b| Fp256::from_bytes(b))
            .collect::<Option<_>>()
            .ok_or(ProveError::Witness(CircuitKind::Signature))?;

        on_phase(Phase::Commit);
        let mut t = Transcript::new(&request.transcript);
        let hash_commit = self
            .hash
            .commit(
                &with_public_slots(Gf2_128::ZERO, hash_npub, &hash_private),
                rng,
            )
            .map_err(zk(CircuitKind::Hash))?;
        hash_commit.commitment.absorb(&mut t);
        drop(hash_private);
        let sig_commit = self
            .sig
            .commit(&with_public_slots(Fp256::ZERO, sig_npub, &sig_private), rng)
            .map_err(zk(CircuitKind::Signature))?;
        sig_commit.commitment.absorb(&mut t);
        drop(sig_private);

        on_phase(Phase::Witness);
        let keys = MacInputs {
            prover_keys,
            verifier_key: draw_verifier_key(&mut t),
        };
        let witnesses = private.finish(&keys)?;
        drop(private);
        // Both input vectors are built now so that the witness bytes are
        // gone before the hash circuit's sumcheck, the prover's peak; each
        // vector is then handed over whole and freed by its proof.
        let hash_inputs = hash_elements(&witnesses);
        let sig_inputs = sig_elements(&witnesses)?;
        let macs = witnesses.macs;
        drop(witnesses);

        let hash = self
            .hash
            .prove_owned_observed(
                hash_commit,
                hash_inputs,
                &mut t,
                &mut zk_phase(on_phase, CircuitKind::Hash),
            )
            .map_err(zk(CircuitKind::Hash))?;
        let sig = self
            .sig
            .prove_owned_observed(
                sig_commit,
                sig_inputs,
                &mut t,
                &mut zk_phase(on_phase, CircuitKind::Signature),
            )
            .map_err(zk(CircuitKind::Signature))?;
        Ok(MdocProof { macs, hash, sig }.to_bytes())
    }
}

/// A caller's generator behind a sized handle, so that it can be lent as
/// `&mut dyn CryptoRngCore` even when its own type is unsized.
struct Lent<'r, R: ?Sized>(&'r mut R);

impl<R: CryptoRngCore + ?Sized> RngCore for Lent<'_, R> {
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.fill_bytes(dest)
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.0.try_fill_bytes(dest)
    }
}

impl<R: CryptoRngCore + ?Sized> CryptoRng for Lent<'_, R> {}
