//! Commit-sized Merkle work: the v7 hash circuit's tableau has 3,230 leaves;
//! 4 KiB of column data per leaf stands in for the column bytes.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use longfellow_merkle::{Digest, MerkleTree};
use sha2::{Digest as _, Sha256};

const LEAVES: usize = 3_230;
const LEAF_BYTES: usize = 4_096;

fn columns() -> Vec<Vec<u8>> {
    (0..LEAVES)
        .map(|i| (0..LEAF_BYTES).map(|j| (i * 31 + j * 7) as u8).collect())
        .collect()
}

fn bench(c: &mut Criterion) {
    let data = columns();
    let mut g = c.benchmark_group("merkle");
    g.throughput(Throughput::Bytes((LEAVES * LEAF_BYTES) as u64));
    g.bench_function("hash_and_build_3230x4KiB", |b| {
        b.iter(|| {
            let t = MerkleTree::from_leaf_fn(LEAVES, |i, h| h.update(&data[i]));
            std::hint::black_box(t.map(|t| t.root()))
        })
    });
    let leaves: Vec<Digest> = data.iter().map(|d| Sha256::digest(d).into()).collect();
    g.throughput(Throughput::Elements(LEAVES as u64));
    g.bench_function("build_only_3230", |b| {
        b.iter(|| std::hint::black_box(MerkleTree::new(leaves.clone()).root()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
