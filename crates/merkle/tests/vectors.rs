//! Google's Merkle vectors (`google/runtime/merkle_test_vector.bin`,
//! `commitment_test_vector.bin`; layouts in the map §4) and the 5-leaf vector
//! of the draft's `testvectors.md`.

use longfellow_merkle::{
    hash_leaf_with_nonce, verify, verify_commitment, Commitment, Digest, MerkleError, MerkleTree,
    Nonce,
};
use longfellow_random::CounterRng;
use sha2::{Digest as _, Sha256};

/// Reads the vector files' little-endian fields, panicking on truncation.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0 }
    }
    fn take(&mut self, n: usize) -> &'a [u8] {
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        s
    }
    fn u64(&mut self) -> usize {
        let v = u64::from_le_bytes(self.take(8).try_into().expect("8 bytes"));
        usize::try_from(v).expect("fits usize")
    }
    fn digest(&mut self) -> Digest {
        self.take(32).try_into().expect("32 bytes")
    }
    fn digests(&mut self, n: usize) -> Vec<Digest> {
        (0..n).map(|_| self.digest()).collect()
    }
    fn finish(&self) {
        assert_eq!(self.pos, self.data.len(), "trailing bytes in vector");
    }
}

struct TreeVector {
    leaves: Vec<Digest>,
    indices: Vec<usize>,
    root: Digest,
    proof: Vec<Digest>,
}

fn tree_vector() -> TreeVector {
    let bytes = longfellow_testvectors::read("google/runtime/merkle_test_vector.bin");
    let mut r = Reader::new(&bytes);
    let n = r.u64();
    let leaves = r.digests(n);
    let q = r.u64();
    let indices = (0..q).map(|_| r.u64()).collect();
    let root = r.digest();
    let len = r.u64();
    let proof = r.digests(len);
    r.finish();
    TreeVector {
        leaves,
        indices,
        root,
        proof,
    }
}

#[test]
fn google_tree_root_and_opening() {
    longfellow_testvectors::require!();
    let v = tree_vector();
    assert_eq!(v.leaves.len(), 256);
    let tree = MerkleTree::new(v.leaves.clone());
    assert_eq!(tree.root(), v.root);
    assert_eq!(tree.open(&v.indices), v.proof);
    let opened: Vec<Digest> = v.indices.iter().map(|&i| v.leaves[i]).collect();
    assert_eq!(verify(&v.root, 256, &v.indices, &opened, &v.proof), Ok(()));
}

#[test]
fn google_tree_opening_rejects_tampering() {
    longfellow_testvectors::require!();
    let v = tree_vector();
    let n = v.leaves.len();
    let opened: Vec<Digest> = v.indices.iter().map(|&i| v.leaves[i]).collect();
    // Each rejection below means something only if the untouched opening passes.
    assert_eq!(verify(&v.root, n, &v.indices, &opened, &v.proof), Ok(()));

    for k in 0..v.proof.len() {
        let mut proof = v.proof.clone();
        proof[k][k % 32] ^= 0x01;
        assert_eq!(
            verify(&v.root, n, &v.indices, &opened, &proof),
            Err(MerkleError::RootMismatch),
            "tampered digest {k}"
        );
    }

    let mut leaves = opened.clone();
    leaves[0][31] ^= 0x80;
    assert_eq!(
        verify(&v.root, n, &v.indices, &leaves, &v.proof),
        Err(MerkleError::RootMismatch)
    );

    // Move one opened leaf to an unopened position.
    let mut indices = v.indices.clone();
    let unused = (0..n).find(|i| !v.indices.contains(i)).expect("free slot");
    indices[0] = unused;
    assert!(verify(&v.root, n, &indices, &opened, &v.proof).is_err());

    // Swap two opened digests.
    let mut swapped = opened.clone();
    swapped.swap(0, 1);
    assert_eq!(
        verify(&v.root, n, &v.indices, &swapped, &v.proof),
        Err(MerkleError::RootMismatch)
    );

    let short = &v.proof[..v.proof.len() - 1];
    assert_eq!(
        verify(&v.root, n, &v.indices, &opened, short),
        Err(MerkleError::ProofLength {
            expected: v.proof.len(),
            found: v.proof.len() - 1
        })
    );
    let mut long = v.proof.clone();
    long.push(v.proof[0]);
    assert_eq!(
        verify(&v.root, n, &v.indices, &opened, &long),
        Err(MerkleError::ProofLength {
            expected: v.proof.len(),
            found: v.proof.len() + 1
        })
    );
    assert_eq!(
        verify(&v.root, n, &v.indices, &opened, &[]),
        Err(MerkleError::ProofLength {
            expected: v.proof.len(),
            found: 0
        })
    );

    let mut dup = v.indices.clone();
    dup[1] = dup[0];
    assert_eq!(
        verify(&v.root, n, &dup, &opened, &v.proof),
        Err(MerkleError::DuplicateIndex { index: dup[0] })
    );
    let mut out = v.indices.clone();
    out[2] = n;
    assert_eq!(
        verify(&v.root, n, &out, &opened, &v.proof),
        Err(MerkleError::IndexOutOfRange {
            index: n,
            n_leaves: n
        })
    );
    assert_eq!(
        verify(&v.root, n, &v.indices, &opened[1..], &v.proof),
        Err(MerkleError::LengthMismatch {
            indices: v.indices.len(),
            values: v.indices.len() - 1
        })
    );
    assert_eq!(
        verify(&v.root, n, &[], &[], &v.proof),
        Err(MerkleError::NoIndices)
    );
    assert_eq!(
        verify(&v.root, 0, &v.indices, &opened, &v.proof),
        Err(MerkleError::EmptyTree)
    );
    // A different tree size moves every leaf.
    assert!(verify(&v.root, n + 1, &v.indices, &opened, &v.proof).is_err());
}

struct CommitmentVector {
    n: usize,
    indices: Vec<usize>,
    root: Digest,
    nonces: Vec<Nonce>,
    proof: Vec<Digest>,
}

fn commitment_vector() -> CommitmentVector {
    let bytes = longfellow_testvectors::read("google/runtime/commitment_test_vector.bin");
    let mut r = Reader::new(&bytes);
    let n = r.u64();
    let q = r.u64();
    let indices = (0..q).map(|_| r.u64()).collect();
    let root = r.digest();
    let nonces = r.digests(q);
    let len = r.u64();
    let proof = r.digests(len);
    r.finish();
    CommitmentVector {
        n,
        indices,
        root,
        nonces,
        proof,
    }
}

/// Leaf data of the commitment vector: bytes 3i, 5i, 7i, 11i (mod 256).
fn column(i: usize) -> [u8; 4] {
    [(3 * i) as u8, (5 * i) as u8, (7 * i) as u8, (11 * i) as u8]
}

#[test]
fn google_commitment_root_nonces_and_opening() {
    longfellow_testvectors::require!();
    let v = commitment_vector();
    assert_eq!((v.n, v.indices.len(), v.proof.len()), (193, 25, 73));
    let mut rng = CounterRng::new(42);
    let c = Commitment::commit(v.n, &mut rng, |i, h| h.update(column(i))).expect("commit");
    assert_eq!(c.root(), v.root);
    let opening = c.open(&v.indices).expect("open");
    assert_eq!(opening.nonces, v.nonces);
    assert_eq!(opening.digests, v.proof);

    // The leaf helper agrees with the streaming hasher.
    let leaf0 = hash_leaf_with_nonce(&c.nonces()[0], &column(0));
    assert_eq!(leaf0, c.tree().leaves()[0]);

    let ok = verify_commitment(&v.root, v.n, &v.indices, &v.nonces, &v.proof, |_, i, h| {
        h.update(column(i))
    });
    assert_eq!(ok, Ok(()));
}

#[test]
fn google_commitment_rejects_tampering() {
    longfellow_testvectors::require!();
    let v = commitment_vector();
    let check = |nonces: &[Nonce], proof: &[Digest], data: &dyn Fn(usize) -> [u8; 4]| {
        verify_commitment(&v.root, v.n, &v.indices, nonces, proof, |_, i, h| {
            h.update(data(i))
        })
    };
    assert_eq!(check(&v.nonces, &v.proof, &column), Ok(()));
    let mut nonces = v.nonces.clone();
    nonces[3][0] ^= 1;
    assert_eq!(
        check(&nonces, &v.proof, &column),
        Err(MerkleError::RootMismatch)
    );
    let mut proof = v.proof.clone();
    proof[72][5] ^= 1;
    assert_eq!(
        check(&v.nonces, &proof, &column),
        Err(MerkleError::RootMismatch)
    );
    let other = |i: usize| {
        let mut c = column(i);
        if i == v.indices[7] {
            c[2] ^= 1;
        }
        c
    };
    assert_eq!(
        check(&v.nonces, &v.proof, &other),
        Err(MerkleError::RootMismatch)
    );
    assert_eq!(
        check(&v.nonces[1..], &v.proof, &column),
        Err(MerkleError::LengthMismatch {
            indices: 25,
            values: 24
        })
    );
    assert!(matches!(
        check(&v.nonces, &v.proof[..72], &column),
        Err(MerkleError::ProofLength { .. })
    ));
}

fn h(hex_str: &str) -> Digest {
    hex::decode(hex_str)
        .expect("hex")
        .try_into()
        .expect("32 bytes")
}

#[test]
fn draft_five_leaf_vector() {
    let leaves = [
        "4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a",
        "dbc1b4c900ffe48d575b5da5c638040125f65db0fe3e24494b76ea986457d986",
        "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5",
        "e52d9c508c502347344d8c07ad91cbd6068afc75ff6292f062a09ca381c89e71",
        "e77b9a9ae9e30b0dbdb6f510a264ef9de781501d7b6b92ae89eb059c5ab743db",
    ]
    .map(h);
    // The draft's leaves are SHA-256 of the single bytes 1..=5.
    for (i, leaf) in leaves.iter().enumerate() {
        let want: Digest = Sha256::digest([i as u8 + 1]).into();
        assert_eq!(*leaf, want);
    }
    let root = h("f22f4501ffd3bdffcecc9e4cd6828a4479aeedd6aa484eb7c1f808ccf71c6e76");
    let tree = MerkleTree::new(leaves.to_vec());
    assert_eq!(tree.root(), root);

    let p01 = [
        "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5",
        "f03808f5b8088c61286d505e8e93aa378991d9889ae2d874433ca06acabcd493",
    ]
    .map(h);
    let p13 = [
        "e77b9a9ae9e30b0dbdb6f510a264ef9de781501d7b6b92ae89eb059c5ab743db",
        "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5",
        "4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a",
    ]
    .map(h);
    assert_eq!(tree.open(&[0, 1]), p01);
    assert_eq!(tree.open(&[1, 3]), p13);
    assert_eq!(verify(&root, 5, &[0, 1], &leaves[0..2], &p01), Ok(()));
    assert_eq!(
        verify(&root, 5, &[1, 3], &[leaves[1], leaves[3]], &p13),
        Ok(())
    );
    // Order of the request does not matter for the proof.
    assert_eq!(
        verify(&root, 5, &[3, 1], &[leaves[3], leaves[1]], &p13),
        Ok(())
    );
}
