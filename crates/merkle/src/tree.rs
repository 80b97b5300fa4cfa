//! The heap-layout tree, batch openings and their verification.

use sha2::{Digest as _, Sha256};

use crate::{Digest, MerkleError};

/// Hard cap on digests in one proof, as in the reference proof reader.
const MAX_DIGESTS: usize = 1 << 25;

/// Levels with fewer nodes than this are hashed serially even with the
/// `parallel` feature: spawning costs more than a few dozen compressions.
const PARALLEL_MIN: usize = 64;

pub(crate) fn hash2(left: &Digest, right: &Digest) -> Digest {
    let mut h = Sha256::new();
    h.update(left);
    h.update(right);
    h.finalize().into()
}

/// A Merkle tree over `n ≥ 1` leaf digests, stored as a heap of `2n` nodes.
#[derive(Clone, Debug)]
pub struct MerkleTree {
    n: usize,
    /// `nodes[0]` is unused; `nodes[1]` is the root; leaves at `n..2n`.
    nodes: Vec<Digest>,
}

impl MerkleTree {
    /// Builds the tree over `leaves`.
    ///
    /// # Panics
    /// If `leaves` is empty; see [`MerkleTree::try_new`].
    pub fn new(leaves: Vec<Digest>) -> Self {
        match Self::try_new(leaves) {
            Ok(t) => t,
            Err(e) => panic!("MerkleTree::new: {e}"),
        }
    }

    /// Builds the tree over `leaves`, which must not be empty.
    pub fn try_new(leaves: Vec<Digest>) -> Result<Self, MerkleError> {
        let n = leaves.len();
        if n == 0 {
            return Err(MerkleError::EmptyTree);
        }
        let mut nodes = Vec::with_capacity(2 * n);
        nodes.resize(n, [0u8; 32]);
        nodes.extend(leaves);
        build_inner_nodes(&mut nodes, n);
        Ok(Self { n, nodes })
    }

    /// Builds the tree over `n` leaves whose digests are SHA-256 of whatever
    /// `leaf` feeds the hasher for leaf `i`. With the `parallel` feature the
    /// leaves are hashed on rayon's pool; the result is the same.
    pub fn from_leaf_fn<G>(n: usize, leaf: G) -> Result<Self, MerkleError>
    where
        G: Fn(usize, &mut Sha256) + Sync,
    {
        let hash_one = |i: usize| -> Digest {
            let mut h = Sha256::new();
            leaf(i, &mut h);
            h.finalize().into()
        };
        let leaves: Vec<Digest> = longfellow_par::map_indices(n, hash_one);
        Self::try_new(leaves)
    }

    /// Number of leaves.
    pub fn n_leaves(&self) -> usize {
        self.n
    }

    /// The root digest.
    pub fn root(&self) -> Digest {
        self.nodes[1]
    }

    /// The leaf digests in order.
    pub fn leaves(&self) -> &[Digest] {
        &self.nodes[self.n..]
    }

    /// Batch opening of the leaves at `indices` (any order, no duplicates):
    /// the sibling digests in reference order.
    ///
    /// # Panics
    /// If `indices` is empty, repeats an index or has one out of range; see
    /// [`MerkleTree::try_open`].
    pub fn open(&self, indices: &[usize]) -> Vec<Digest> {
        match self.try_open(indices) {
            Ok(p) => p,
            Err(e) => panic!("MerkleTree::open: {e}"),
        }
    }

    /// Batch opening of the leaves at `indices`, or why it is not defined.
    pub fn try_open(&self, indices: &[usize]) -> Result<Vec<Digest>, MerkleError> {
        let on_path = mark_paths(self.n, indices)?;
        let mut proof = Vec::new();
        for_each_sibling(self.n, &on_path, |sibling| proof.push(self.nodes[sibling]));
        Ok(proof)
    }
}

/// Computes nodes `n−1 … 1` from the leaves at `n..2n`.
///
/// Works in bands `[lo, hi)` with `lo = ⌈hi/2⌉`: every child `2i, 2i+1` of a
/// band node is ≥ `hi`, so is already known, and the nodes of one band are
/// independent of each other (which is what lets them be hashed in parallel
/// for any `n`, not only powers of two).
fn build_inner_nodes(nodes: &mut [Digest], n: usize) {
    let mut hi = n;
    while hi > 1 {
        let lo = hi.div_ceil(2);
        let (front, done) = nodes.split_at_mut(hi);
        let band = &mut front[lo..];
        let parent = |k: usize| -> Digest {
            let child = 2 * (lo + k) - hi;
            hash2(&done[child], &done[child + 1])
        };
        if band.len() >= PARALLEL_MIN {
            longfellow_par::fill_indexed(band, PARALLEL_MIN / 2, parent);
        } else {
            for (k, slot) in band.iter_mut().enumerate() {
                *slot = parent(k);
            }
        }
        hi = lo;
    }
}

/// Marks every node on the path from a requested leaf to the root, checking
/// the request: at least one index, all in range, no repeats.
fn mark_paths(n: usize, indices: &[usize]) -> Result<Vec<bool>, MerkleError> {
    if n == 0 {
        return Err(MerkleError::EmptyTree);
    }
    if indices.is_empty() {
        return Err(MerkleError::NoIndices);
    }
    let mut on_path = vec![false; 2 * n];
    for &index in indices {
        if index >= n {
            return Err(MerkleError::IndexOutOfRange { index, n_leaves: n });
        }
        let slot = &mut on_path[n + index];
        if *slot {
            return Err(MerkleError::DuplicateIndex { index });
        }
        *slot = true;
    }
    for i in (1..n).rev() {
        on_path[i] = on_path[2 * i] || on_path[2 * i + 1];
    }
    Ok(on_path)
}

/// Calls `emit` with the position of each proof digest, in proof order: for
/// each marked inner node from `n−1` down to 1, its unmarked child, if any.
fn for_each_sibling(n: usize, on_path: &[bool], mut emit: impl FnMut(usize)) {
    for i in (1..n).rev() {
        if !on_path[i] {
            continue;
        }
        match (on_path[2 * i], on_path[2 * i + 1]) {
            (true, false) => emit(2 * i + 1),
            (false, true) => emit(2 * i),
            _ => {}
        }
    }
}

/// Number of digests in the batch opening of `indices` in a tree of
/// `n_leaves` leaves.
pub fn proof_len(n_leaves: usize, indices: &[usize]) -> Result<usize, MerkleError> {
    let on_path = mark_paths(n_leaves, indices)?;
    let mut count = 0;
    for_each_sibling(n_leaves, &on_path, |_| count += 1);
    Ok(count)
}

/// Number of nodes on a root-to-leaf path (root and leaf included) in a tree
/// of `n_leaves` leaves: `1 + ⌊log2(2n−1)⌋`, the reference's bound on one
/// leaf's share of a proof.
pub fn max_path_len(n_leaves: usize) -> usize {
    let top = n_leaves.max(1).saturating_mul(2) - 1;
    1 + (usize::BITS - 1 - top.leading_zeros()) as usize
}

/// The range check the reference applies to a proof's announced digest count
/// before reading it: `nreq ≤ count ≤ nreq·max_path_len(n)` and
/// `count < 2^25`. A proof parser calls this before allocating; [`verify`]
/// then requires the exact count.
pub fn check_digest_count(n_leaves: usize, nreq: usize, count: usize) -> Result<(), MerkleError> {
    let min = nreq;
    let max = nreq
        .saturating_mul(max_path_len(n_leaves))
        .min(MAX_DIGESTS - 1);
    if count < min || count > max {
        return Err(MerkleError::DigestCount {
            count,
            nreq,
            min,
            max,
        });
    }
    Ok(())
}

/// Checks a batch opening: that the leaves at `indices` have digests
/// `leaf_digests` (same order) in a tree of `n_leaves` leaves with root
/// `root`, given the sibling digests `proof` in reference order.
///
/// Rejects, without panicking, an empty or repeated or out-of-range index
/// list, a leaf count that does not match, a proof with any digest too few or
/// too many, and a wrong root.
pub fn verify(
    root: &Digest,
    n_leaves: usize,
    indices: &[usize],
    leaf_digests: &[Digest],
    proof: &[Digest],
) -> Result<(), MerkleError> {
    if indices.len() != leaf_digests.len() {
        return Err(MerkleError::LengthMismatch {
            indices: indices.len(),
            values: leaf_digests.len(),
        });
    }
    let on_path = mark_paths(n_leaves, indices)?;
    let n = n_leaves;

    let mut known: Vec<Option<Digest>> = vec![None; 2 * n];
    let mut needed = 0usize;
    for_each_sibling(n, &on_path, |sibling| {
        if let Some(d) = proof.get(needed) {
            known[sibling] = Some(*d);
        }
        needed += 1;
    });
    if needed != proof.len() {
        return Err(MerkleError::ProofLength {
            expected: needed,
            found: proof.len(),
        });
    }
    for (&index, digest) in indices.iter().zip(leaf_digests) {
        known[n + index] = Some(*digest);
    }
    for i in (1..n).rev() {
        if let (Some(l), Some(r)) = (&known[2 * i], &known[2 * i + 1]) {
            known[i] = Some(hash2(l, r));
        }
    }
    match known[1] {
        Some(computed) if computed == *root => Ok(()),
        _ => Err(MerkleError::RootMismatch),
    }
}
