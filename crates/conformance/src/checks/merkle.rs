//! Google's Merkle tree and commitment vectors (layouts: map §4).

use longfellow_merkle::{verify, verify_commitment, Commitment, MerkleTree};
use longfellow_random::CounterRng;
use sha2::Digest as _;

use super::require;
use crate::bytes::Cursor;
use crate::diff::Component;
use crate::error::{read, CheckError};
use crate::registry::{Check, Family, Outcome};
use crate::Options;

const TREE: &str = "google/runtime/merkle_test_vector.bin";
const COMMITMENT: &str = "google/runtime/commitment_test_vector.bin";
/// Generous bound on leaves/queries in these small vectors.
const MAX_COUNT: usize = 1 << 20;

pub(crate) fn discover_tree(opts: &Options) -> Vec<Check<'static>> {
    let name = "merkle_test_vector.bin";
    match require(opts, Family::Merkle, name, TREE) {
        Err(skip) => vec![skip],
        Ok(path) => vec![Check::new(Family::Merkle, name, move |_| {
            check_tree(&read(&path)?)
        })],
    }
}

pub(crate) fn discover_commitment(opts: &Options) -> Vec<Check<'static>> {
    let name = "commitment_test_vector.bin";
    match require(opts, Family::Commitment, name, COMMITMENT) {
        Err(skip) => vec![skip],
        Ok(path) => vec![Check::new(Family::Commitment, name, move |_| {
            check_commitment(&read(&path)?)
        })],
    }
}

/// Index of the first differing digest, or a length difference.
fn first_digest_difference(want: &[[u8; 32]], got: &[[u8; 32]]) -> Option<String> {
    if let Some(i) = want.iter().zip(got).position(|(a, b)| a != b) {
        return Some(Component::Digest(i).to_string());
    }
    (want.len() != got.len()).then(|| {
        format!(
            "{} ({} digests expected, {} produced)",
            Component::DigestCount,
            want.len(),
            got.len()
        )
    })
}

pub(crate) fn check_tree(bytes: &[u8]) -> Result<Outcome, CheckError> {
    let mut c = Cursor::new(TREE, bytes);
    let n = c.count(MAX_COUNT)?;
    let leaves = c.arrays32(n)?;
    let q = c.count(MAX_COUNT)?;
    let indices = (0..q)
        .map(|_| c.count(n.saturating_sub(1)))
        .collect::<Result<Vec<_>, _>>()?;
    let root = c.array32()?;
    let len = c.count(MAX_COUNT)?;
    let proof = c.arrays32(len)?;
    c.finish()?;

    let tree = MerkleTree::try_new(leaves.clone()).map_err(CheckError::component)?;
    if tree.root() != root {
        return Ok(Outcome::Fail("first divergence: Merkle root".into()));
    }
    let opening = tree.try_open(&indices).map_err(CheckError::component)?;
    if let Some(d) = first_digest_difference(&proof, &opening) {
        return Ok(Outcome::Fail(format!("first divergence: {d}")));
    }
    let opened: Vec<[u8; 32]> = indices.iter().map(|&i| leaves[i]).collect();
    if let Err(e) = verify(&root, n, &indices, &opened, &proof) {
        return Ok(Outcome::Fail(format!("stored opening rejected: {e}")));
    }
    Ok(Outcome::Pass(format!(
        "{n} leaves: root and {len}-digest opening of {q} leaves identical; opening verifies"
    )))
}

/// Leaf data of the commitment vector: bytes 3i, 5i, 7i, 11i (mod 256).
fn column(i: usize) -> [u8; 4] {
    [(3 * i) as u8, (5 * i) as u8, (7 * i) as u8, (11 * i) as u8]
}

pub(crate) fn check_commitment(bytes: &[u8]) -> Result<Outcome, CheckError> {
    let mut c = Cursor::new(COMMITMENT, bytes);
    let n = c.count(MAX_COUNT)?;
    let q = c.count(n)?;
    let indices = (0..q)
        .map(|_| c.count(n.saturating_sub(1)))
        .collect::<Result<Vec<_>, _>>()?;
    let root = c.array32()?;
    let nonces = c.arrays32(q)?;
    let len = c.count(MAX_COUNT)?;
    let proof = c.arrays32(len)?;
    c.finish()?;

    let mut rng = CounterRng::new(42);
    let com = Commitment::commit(n, &mut rng, |i, h| h.update(column(i)))
        .map_err(CheckError::component)?;
    if com.root() != root {
        return Ok(Outcome::Fail("first divergence: commitment root".into()));
    }
    let opening = com.open(&indices).map_err(CheckError::component)?;
    if let Some(j) = nonces.iter().zip(&opening.nonces).position(|(a, b)| a != b) {
        return Ok(Outcome::Fail(format!(
            "first divergence: nonce of opened leaf {j}"
        )));
    }
    if let Some(d) = first_digest_difference(&proof, &opening.digests) {
        return Ok(Outcome::Fail(format!("first divergence: {d}")));
    }
    let ok = verify_commitment(&root, n, &indices, &nonces, &proof, |_, i, h| {
        h.update(column(i))
    });
    if let Err(e) = ok {
        return Ok(Outcome::Fail(format!("stored opening rejected: {e}")));
    }
    Ok(Outcome::Pass(format!(
        "{n} leaves: root, {q} nonces and {len} digests identical; opening verifies"
    )))
}
