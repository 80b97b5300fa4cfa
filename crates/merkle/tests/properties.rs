//! Laws of the tree, checked against a plain serial construction written
//! from the heap definition.

use longfellow_merkle::{check_digest_count, max_path_len, proof_len, verify, Digest, MerkleTree};
use proptest::prelude::*;
use sha2::{Digest as _, Sha256};

/// The heap definition, literally: nodes n−1 … 1 from their two children.
fn reference_root(leaves: &[Digest]) -> Digest {
    let n = leaves.len();
    let mut heap = vec![[0u8; 32]; 2 * n];
    heap[n..].copy_from_slice(leaves);
    for i in (1..n).rev() {
        let mut h = Sha256::new();
        h.update(heap[2 * i]);
        h.update(heap[2 * i + 1]);
        heap[i] = h.finalize().into();
    }
    heap[1]
}

fn leaf(i: usize) -> Digest {
    Sha256::digest((i as u64).to_le_bytes()).into()
}

#[test]
fn parallel_build_matches_definition() {
    // Sizes around the parallel threshold and the Ligero leaf count.
    for n in [1usize, 2, 3, 5, 63, 64, 65, 127, 128, 129, 1000, 3230] {
        let leaves: Vec<Digest> = (0..n).map(leaf).collect();
        let want = reference_root(&leaves);
        assert_eq!(MerkleTree::new(leaves).root(), want, "n = {n}");
        let t = MerkleTree::from_leaf_fn(n, |i, h| h.update((i as u64).to_le_bytes()))
            .expect("non-empty");
        assert_eq!(t.root(), want, "from_leaf_fn, n = {n}");
    }
}

#[test]
fn empty_tree_is_an_error() {
    assert!(MerkleTree::try_new(Vec::new()).is_err());
    assert!(MerkleTree::from_leaf_fn(0, |_, _| {}).is_err());
}

#[test]
fn path_len_matches_reference_formula() {
    // 1 + ⌊log2(2n − 1)⌋.
    let cases = [
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 3),
        (5, 4),
        (256, 9),
        (3230, 13),
        (4096, 13),
    ];
    for (n, want) in cases {
        assert_eq!(max_path_len(n), want, "n = {n}");
    }
}

fn tree_and_subset() -> impl Strategy<Value = (usize, Vec<usize>)> {
    (1usize..300).prop_flat_map(|n| {
        let k = 1..=n.min(40);
        (
            Just(n),
            proptest::sample::subsequence((0..n).collect::<Vec<_>>(), k),
        )
            .prop_flat_map(|(n, s)| (Just(n), Just(s).prop_shuffle()))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn openings_verify_and_are_tight((n, indices) in tree_and_subset(), flip in any::<prop::sample::Index>()) {
        let leaves: Vec<Digest> = (0..n).map(leaf).collect();
        let tree = MerkleTree::new(leaves.clone());
        let root = tree.root();
        let proof = tree.open(&indices);
        prop_assert_eq!(proof_len(n, &indices), Ok(proof.len()));
        prop_assert!(proof.len() <= indices.len() * max_path_len(n));
        let opened: Vec<Digest> = indices.iter().map(|&i| leaves[i]).collect();
        prop_assert_eq!(verify(&root, n, &indices, &opened, &proof), Ok(()));
        if !proof.is_empty() {
            let mut bad = proof.clone();
            let k = flip.index(bad.len());
            bad[k][0] ^= 1;
            prop_assert!(verify(&root, n, &indices, &opened, &bad).is_err());
        }
        let mut bad_leaf = opened.clone();
        let k = flip.index(bad_leaf.len());
        bad_leaf[k][7] ^= 4;
        prop_assert!(verify(&root, n, &indices, &bad_leaf, &proof).is_err());
    }

    #[test]
    fn digest_count_bounds(n in 1usize..5000, nreq in 0usize..200, count in 0usize..5000) {
        let ok = check_digest_count(n, nreq, count).is_ok();
        prop_assert_eq!(ok, count >= nreq && count <= nreq * max_path_len(n));
    }
}
