//! Absorbing prover messages and drawing challenges.

use alloc::vec::Vec;

use longfellow_field::Field;
use sha2::{Digest, Sha256};

use crate::prf::Prf;

const TAG_BYTES: u8 = 0;
const TAG_ELEMENT: u8 = 1;

/// Which tag frames an array of field elements.
///
/// Current reference code tags arrays `02`. The C++ transcript before its
/// version 4 tagged them `01`, the same as a single element; ISRG's
/// one-circuit vectors were produced that way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ArrayTag {
    /// Arrays tagged `02` (every current proof).
    #[default]
    Standard,
    /// Arrays tagged `01`, as single elements are (old C++ transcripts).
    Legacy,
}

impl ArrayTag {
    fn byte(self) -> u8 {
        match self {
            ArrayTag::Standard => 2,
            ArrayTag::Legacy => 1,
        }
    }
}

/// A Fiat–Shamir transcript.
///
/// Writes absorb tagged records; challenge methods read from the stream keyed
/// by the hash of all records so far. Any write discards the stream, so the
/// next challenge starts again at block 0 under the new key.
///
/// `Clone` copies the stream position too: a clone taken between two
/// challenges continues where the original is. (The C++ `clone` instead
/// restarts the stream; the standard flows never clone mid-stream.)
#[derive(Clone, Debug)]
pub struct Transcript {
    hash: Sha256,
    stream: Option<Prf>,
    array_tag: ArrayTag,
}

impl Transcript {
    /// Starts a transcript whose first record is the byte string `init`
    /// (mdoc uses the SessionTranscript; tests use labels).
    pub fn new(init: &[u8]) -> Self {
        Self::with_array_tag(init, ArrayTag::Standard)
    }

    /// Like [`Transcript::new`], but arrays are tagged `01` (see
    /// [`ArrayTag::Legacy`]).
    pub fn new_with_legacy_array_tag(init: &[u8]) -> Self {
        Self::with_array_tag(init, ArrayTag::Legacy)
    }

    /// Starts a transcript with an explicit array tag.
    pub fn with_array_tag(init: &[u8], array_tag: ArrayTag) -> Self {
        let mut t = Self {
            hash: Sha256::new(),
            stream: None,
            array_tag,
        };
        t.write_bytes(init);
        t
    }

    /// The array tag in use.
    pub fn array_tag(&self) -> ArrayTag {
        self.array_tag
    }

    fn absorb(&mut self, data: &[u8]) {
        self.stream = None;
        self.hash.update(data);
    }

    fn absorb_len(&mut self, n: usize) {
        // usize → u64 is lossless on every supported target.
        self.absorb(&(n as u64).to_le_bytes());
    }

    /// Absorbs a byte string: `00 ‖ u64le(len) ‖ data`.
    pub fn write_bytes(&mut self, data: &[u8]) {
        self.absorb(&[TAG_BYTES]);
        self.absorb_len(data.len());
        self.absorb(data);
    }

    /// Absorbs a byte string of `n` zeros, without materialising it.
    pub fn write_zeros(&mut self, n: usize) {
        const ZEROS: [u8; 256] = [0u8; 256];
        self.absorb(&[TAG_BYTES]);
        self.absorb_len(n);
        let mut left = n;
        while left > 0 {
            let take = left.min(ZEROS.len());
            self.absorb(&ZEROS[..take]);
            left -= take;
        }
    }

    /// Absorbs one element: `01 ‖ canonical encoding`.
    pub fn write_element<F: Field>(&mut self, e: &F) {
        self.absorb(&[TAG_ELEMENT]);
        self.absorb(e.to_repr().as_ref());
    }

    /// Absorbs an array: `02 ‖ u64le(count) ‖ encodings` (tag `01` with
    /// [`ArrayTag::Legacy`]).
    pub fn write_elements<F: Field>(&mut self, elements: &[F]) {
        self.absorb(&[self.array_tag.byte()]);
        self.absorb_len(elements.len());
        for e in elements {
            self.absorb(e.to_repr().as_ref());
        }
    }

    /// SHA-256 of everything absorbed so far: the key of the current
    /// challenge stream.
    pub fn digest(&self) -> [u8; 32] {
        self.hash.clone().finalize().into()
    }

    fn stream(&mut self) -> &mut Prf {
        let hash = &self.hash;
        self.stream
            .get_or_insert_with(|| Prf::new(&hash.clone().finalize().into()))
    }

    /// Reads the next `out.len()` challenge bytes.
    pub fn challenge_bytes(&mut self, out: &mut [u8]) {
        rand_core::RngCore::fill_bytes(self.stream(), out);
    }

    /// Draws a challenge element by rejection sampling on
    /// [`Field::SAMPLE_BYTES`]-byte chunks of the stream.
    pub fn challenge_element<F: Field>(&mut self) -> F {
        longfellow_sample::random_element(self.stream())
    }

    /// Draws a subfield challenge element (2-byte chunks in GF(2^128)).
    pub fn challenge_subfield_element<F: Field>(&mut self) -> F {
        longfellow_sample::random_subfield_element(self.stream())
    }

    /// Draws `n` challenge elements in order.
    pub fn challenge_elements<F: Field>(&mut self, n: usize) -> Vec<F> {
        let mut out = alloc::vec![F::ZERO; n];
        self.fill_challenge_elements(&mut out);
        out
    }

    /// Fills `out` with challenge elements in index order.
    pub fn fill_challenge_elements<F: Field>(&mut self, out: &mut [F]) {
        longfellow_sample::fill_elements(self.stream(), out);
    }

    /// Draws a uniform integer in `[0, n)` (see
    /// [`longfellow_sample::random_nat`]).
    ///
    /// # Panics
    /// If `n == 0`.
    pub fn challenge_nat(&mut self, n: u64) -> u64 {
        longfellow_sample::random_nat(self.stream(), n)
    }

    /// Draws `k` distinct indices below `n` by a partial Fisher–Yates shuffle
    /// (see [`longfellow_sample::choose`]); Ligero's opened columns.
    ///
    /// # Panics
    /// If `k > n`; see [`Transcript::try_choose`].
    pub fn choose(&mut self, n: usize, k: usize) -> Vec<usize> {
        longfellow_sample::choose(self.stream(), n, k)
    }

    /// [`Transcript::choose`], or `None` if `k > n`.
    pub fn try_choose(&mut self, n: usize, k: usize) -> Option<Vec<usize>> {
        longfellow_sample::try_choose(self.stream(), n, k)
    }
}
