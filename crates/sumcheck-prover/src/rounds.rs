//! How one layer's round polynomials are computed: the strategy seam
//! between the protocol loop ([`crate::prover`], which owns rounds, hands,
//! pad and transcript) and the arithmetic.
//!
//! The loop asks [`LayerRounds`] for each half-round's two coefficients
//! `(a0, a2)` (the value at 0 and the leading coefficient of
//! `t ↦ Σ Q·W0·W1` with the half-round's variable set to `t`), tells it the
//! challenge `r`, and finally takes the fully bound `(Q, W0, W1)`. Which
//! arithmetic answers is a [`RoundStrategy`]:
//!
//! * **dense** — contract the bound form against the other hand's wires
//!   into a buffer `qw` of this hand's length, then one dot-product pass
//!   over `qw` and the wires (`round_coefficients`); binding a hand also
//!   re-contracts for the next half-round in the same pass
//!   (`bind_h_and_contract`). Fastest while the wires are short enough
//!   that `qw` is cheap.
//! * **direct** — no buffer: sum the coefficients straight off the sparse
//!   form's entries (`HQuad::round_coefficients`), reading the wires
//!   through their table coding when they are coded. Binding the form is a
//!   separate pass (`HQuad::bind_h`).
//! * **fused** — direct, but binding one hand's bit sums the next
//!   half-round's coefficients in the same pass over the form
//!   (`bind_h_and_coefficients`), which streams tens of MB early on.
//! * **auto** (what proofs use) — per half-round: fused while a `qw`
//!   buffer would take at least `Tuning::direct_min_bytes`, dense below.
//!
//! All strategies produce the same field elements (the parametrised test
//! `tests/strategies.rs` checks each against a textbook prover at 1, 2 and
//! 3 threads), so the choice changes time and memory, never a proof byte.

use longfellow_field::Field;
use longfellow_par::{self as par, Scatter};
use longfellow_sumcheck::SumcheckError;

use crate::dense::{bind_in_place, bind_into, round_coefficients};
use crate::linear::LinearPart;
use crate::quad::HQuad;
use crate::wires::{with_wires, Pairing, Tuning, WireArray};

/// Which arithmetic computes a layer's round polynomials (see the module
/// documentation). Proofs are identical under every strategy.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RoundStrategy {
    /// Fused above `Tuning::direct_min_bytes` of wires, dense below.
    #[default]
    Auto,
    /// Always contract into a buffer.
    Dense,
    /// Always read the form; binding is its own pass.
    Direct,
    /// Always read the form; binding also sums the next coefficients.
    Fused,
}

impl RoundStrategy {
    /// Every strategy, for tests.
    pub const ALL: [RoundStrategy; 4] = [Self::Auto, Self::Dense, Self::Direct, Self::Fused];

    /// Whether a half-round whose hand holds `len` wires reads the form
    /// directly (else it contracts into a buffer).
    fn direct<F>(self, len: usize, tuning: &Tuning) -> bool {
        match self {
            Self::Auto => len * size_of::<F>() >= tuning.direct_min_bytes,
            Self::Dense => false,
            Self::Direct | Self::Fused => true,
        }
    }

    /// Whether binding a hand also sums the next (direct) half-round.
    fn fuses(self) -> bool {
        matches!(self, Self::Auto | Self::Fused)
    }
}

/// One layer's state through its rounds: the bound form, each hand's
/// current wires and the strategy's buffers. Buffers are sized to the
/// layer and freed with it ([`LayerRounds::release`]), so one layer's round
/// buffers never coexist with the next layer's eq table and bound form.
pub(crate) struct LayerRounds<F> {
    strategy: RoundStrategy,
    tuning: Tuning,
    logw: usize,
    /// The layer's form, bound at the output point, then at each challenge;
    /// from [`LayerRounds::begin`] on without its entries on hand 0's wire 0.
    pub(crate) quad: HQuad<F>,
    /// The form's entries on hand 0's wire 0 (see [`LinearPart`]).
    linear: Option<LinearPart<F>>,
    /// Each hand's current (partially bound) wires.
    w: [WireArray<F>; 2],
    /// Dense strategy: the form contracted against the other hand's wires.
    qw: Vec<F>,
    /// Target of the out-of-place binding used when several threads share
    /// it; empty on one thread, where binding in place saves the buffer.
    tmp: Vec<F>,
    scatter: Scatter<F>,
    /// Coefficients of the next half-round, when the binding pass of the
    /// previous one already computed them (fused).
    pending: Option<(F, F)>,
    /// How this round's binding of hand 0's coded wires numbered their
    /// pairs: hand 1's coded wires share that index (see [`Pairing`]).
    pairing: Option<Pairing>,
}

impl<F: Field> LayerRounds<F> {
    pub(crate) fn new(strategy: RoundStrategy, tuning: &Tuning) -> Self {
        Self {
            strategy,
            tuning: *tuning,
            logw: 0,
            quad: HQuad::new(),
            linear: None,
            w: [WireArray::Dense(Vec::new()), WireArray::Dense(Vec::new())],
            qw: Vec::new(),
            tmp: Vec::new(),
            scatter: Scatter::new(),
            pending: None,
            pairing: None,
        }
    }

    fn direct(&self, len: usize) -> bool {
        self.strategy.direct::<F>(len, &self.tuning)
    }

    /// Starts a layer with `logw` rounds per hand: `self.quad` already
    /// holds the form bound at the output point; `wires` are the layer's
    /// stored (possibly table-coded) inputs. The form's entries on hand 0's
    /// wire 0 move to a [`LinearPart`] if `linear_storage` holds their
    /// values (see [`LinearPart::extract`]).
    pub(crate) fn begin(&mut self, logw: usize, wires: WireArray<F>, linear_storage: Vec<F>) {
        self.logw = logw;
        self.pending = None;
        self.pairing = None;
        // Both hands start from the stored wires: hand 1 owns them and
        // hand 0 reads them until its first binding writes hand 0's own,
        // half-size array.
        self.w = [WireArray::Dense(Vec::new()), wires];
        self.linear = None;
        if logw > 0 {
            let (quad, storage) = (&mut self.quad, linear_storage);
            self.linear = with_wires!(&self.w[1], |w1| LinearPart::extract(quad, w1, storage));
        }
        if logw == 0 {
            // No round binds either hand: both keep the (single) wire.
            self.w[0] = self.w[1].clone();
        } else if !self.direct(self.w[1].len()) {
            self.make_dense(1);
            if let WireArray::Dense(w) = &self.w[1] {
                // Sized exactly (contract zeroes it before adding).
                self.qw.clear();
                self.qw.reserve_exact(w.len());
                par::refill(&mut self.qw, w.len(), F::ZERO);
                self.quad.contract(0, w, &mut self.qw, &mut self.scatter);
            }
        }
    }

    /// The coefficients `(a0, a2)` of half-round `(round, hand)`.
    pub(crate) fn coefficients(
        &mut self,
        layer: usize,
        round: usize,
        hand: usize,
    ) -> Result<(F, F), SumcheckError> {
        let (a0, a2) = self.form_coefficients(layer, round, hand)?;
        let Some(linear) = &self.linear else {
            return Ok((a0, a2));
        };
        // Hand 0's wires: in round 0 hand 0 still reads the stored ones.
        let w0 = if round == 0 && hand == 0 {
            &self.w[1]
        } else {
            &self.w[0]
        };
        let (b0, b2) = with_wires!(w0, |w| linear.coefficients(hand, w));
        Ok((a0 + b0, a2 + b2))
    }

    /// [`Self::coefficients`] of the form without its linear part.
    fn form_coefficients(
        &mut self,
        layer: usize,
        round: usize,
        hand: usize,
    ) -> Result<(F, F), SumcheckError> {
        // In round 0 hand 0 reads the wires hand 1 holds.
        let (mine, theirs) = if round == 0 && hand == 0 {
            (1, 1)
        } else {
            (hand, 1 - hand)
        };
        if let Some(c) = self.pending.take() {
            return Ok(c);
        }
        if self.direct(self.w[mine].len()) {
            let quad = &self.quad;
            return Ok(with_wires!(&self.w[mine], |wh| {
                with_wires!(&self.w[theirs], |wo| quad.round_coefficients(hand, wh, wo))
            }));
        }
        // Invariant: `qw` holds the contraction of the form against the
        // other hand's wires, for this hand.
        self.make_dense(mine);
        match &self.w[mine] {
            WireArray::Dense(w) => Ok(round_coefficients(&self.qw, w)),
            _ => Err(SumcheckError::Inconsistent { layer }),
        }
    }

    /// Binds half-round `(round, hand)`'s variable to `r`, in the wires
    /// and the form, and prepares the next half-round.
    pub(crate) fn bind(&mut self, round: usize, hand: usize, r: F) {
        let other = 1 - hand;
        if round == 0 && hand == 0 {
            let (bound, pairing) = self.w[1].bound_recording(r, &self.tuning);
            self.w[0] = bound;
            self.pairing = pairing;
        } else {
            self.bind_hand(hand, r);
        }
        if let Some(linear) = &mut self.linear {
            with_wires!(&self.w[1], |w1| linear.bind(hand, r, w1));
        }
        // The next half-round binds the other hand: the length of its
        // wires decides whether it contracts or reads the form.
        let next_len = self.w[other].len();
        if round + 1 == self.logw && hand == 1 {
            self.quad.bind_h(hand, r);
        } else if self.direct(next_len) {
            if self.strategy.fuses() {
                let quad = &mut self.quad;
                let coefficients = with_wires!(&self.w[other], |wn| {
                    with_wires!(&self.w[hand], |wb| {
                        quad.bind_h_and_coefficients(hand, r, wn, wb)
                    })
                });
                self.pending = Some(coefficients);
            } else {
                self.quad.bind_h(hand, r);
            }
        } else {
            self.make_dense(hand);
            // Only the length matters: the contraction zeroes the buffer
            // itself.
            self.qw.resize(next_len, F::ZERO);
            if let WireArray::Dense(w) = &self.w[hand] {
                self.quad
                    .bind_h_and_contract(hand, r, w, &mut self.qw, &mut self.scatter);
            }
        }
    }

    /// After every round: the bound form `Q` and the two hands' single
    /// remaining wires `(c0, c1)`.
    pub(crate) fn finish(&self, layer: usize) -> Result<(F, F, F), SumcheckError> {
        let q = match &self.linear {
            None => self.quad.scalar(),
            Some(linear) => self.quad.scalar().zip(linear.scalar()).map(|(a, b)| a + b),
        };
        let first = |w: &WireArray<F>| (!w.is_empty()).then(|| w.at(0));
        let c = [first(&self.w[0]), first(&self.w[1])];
        match (q, c, self.w[0].len(), self.w[1].len()) {
            (Some(q), [Some(c0), Some(c1)], 1, 1) => Ok((q, c0, c1)),
            _ => Err(SumcheckError::Inconsistent { layer }),
        }
    }

    /// Frees every buffer (see the type's documentation) but the form's
    /// value vector, which it returns for the next layer's weight table
    /// (see `FreedRoom`), with the bytes of the round buffers it freed
    /// (they were alive beside the form, at the layer's peak).
    pub(crate) fn release(&mut self) -> (Vec<F>, usize) {
        let values = core::mem::take(&mut self.quad.v);
        let buffers = (self.qw.capacity() + self.tmp.capacity()) * size_of::<F>();
        *self = Self::new(self.strategy, &self.tuning);
        (values, buffers)
    }

    /// Expands hand `hand`'s wires if they are table-coded.
    fn make_dense(&mut self, hand: usize) {
        if !matches!(self.w[hand], WireArray::Dense(_)) {
            let w = core::mem::replace(&mut self.w[hand], WireArray::Dense(Vec::new()));
            self.w[hand] = WireArray::Dense(w.into_dense());
        }
    }

    /// Binds hand `hand`'s wires to `r`. Dense wires are bound in place on
    /// one thread (no second buffer) and split across threads into `tmp`
    /// otherwise; coded wires stay coded when their pairs allow it.
    ///
    /// Hand 1's coded wires reuse the numbering of hand 0's binding in the
    /// same round: both arrays carry the same index (see [`Pairing`]).
    fn bind_hand(&mut self, hand: usize, r: F) {
        let pairing = self.pairing.take();
        let [w0, w1] = &mut self.w;
        let (mine, w0) = if hand == 0 {
            (w0, None)
        } else {
            (w1, Some(&*w0))
        };
        match (w0, mine) {
            (_, WireArray::Dense(w)) => {
                if par::threads() > 1 && w.len() >= 4 * par::split_len::<F>() {
                    bind_into(w, r, &mut self.tmp);
                    core::mem::swap(w, &mut self.tmp);
                } else {
                    bind_in_place(w, r);
                }
            }
            (None, coded) => {
                let (bound, pairing) = coded.bound_recording(r, &self.tuning);
                *coded = bound;
                self.pairing = pairing;
            }
            (Some(w0), coded) => {
                let reused = pairing.and_then(|p| coded.bound_reusing(r, &p, w0));
                debug_assert!(
                    reused
                        .as_ref()
                        .is_none_or(|b| *b == coded.bound(r, &self.tuning)),
                    "reusing hand 0's numbering must bind as afresh"
                );
                *coded = reused.unwrap_or_else(|| coded.bound(r, &self.tuning));
            }
        }
    }
}

/// Runs one layer's rounds outside any proof, for the strategy test: the
/// form `quad` (bound at the output point), the layer's input `wires`, and
/// the challenges `r[2·round + hand]` in place of the transcript's. Returns
/// each half-round's values at the nodes `[p(0), p(1), p(P2)]` (from the
/// running `claim`, which starts at `Σ Q·W·W`), then `[Q, c0, c1]`.
#[doc(hidden)]
pub fn layer_round_values<F: Field>(
    strategy: RoundStrategy,
    tuning: &Tuning,
    quad: HQuad<F>,
    wires: Vec<F>,
    logw: usize,
    challenges: &[F],
    mut claim: F,
) -> Result<Vec<[F; 3]>, SumcheckError> {
    let lag = longfellow_sumcheck::Lagrange::<F>::new();
    let mut rounds = LayerRounds::new(strategy, tuning);
    rounds.quad = quad;
    let storage = Vec::with_capacity(rounds.quad.len());
    rounds.begin(logw, WireArray::compress_tuned(wires, tuning), storage);
    let mut out = Vec::with_capacity(2 * logw + 1);
    for round in 0..logw {
        for hand in 0..2 {
            let (a0, a2) = rounds.coefficients(0, round, hand)?;
            let [p0, p1, p2] = lag.round_values(a0, a2, claim);
            out.push([p0, p1, p2]);
            let r = challenges[2 * round + hand];
            claim = lag.eval(p0, p1, p2, r);
            rounds.bind(round, hand, r);
        }
    }
    let (q, c0, c1) = rounds.finish(0)?;
    out.push([q, c0, c1]);
    Ok(out)
}
