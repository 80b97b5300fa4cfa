//! Google's transcript vector (`google/runtime/transcript_test_vector.bin`):
//! 100 rounds of writes over P-256 elements, each followed by 256 challenge
//! bytes; the file is the concatenation of those 25,600 bytes. The write
//! pattern is that of the Rust test that reads the file in Google's runtime.

use longfellow_field::{Field, Fp256};
use longfellow_transcript::Transcript;

const ROUNDS: usize = 100;
const DRAW: usize = 256;

fn element<F: Field>(bytes: [u8; 32]) -> F {
    match F::from_bytes(&bytes) {
        Some(e) => e,
        None => panic!("vector element is not canonical: {bytes:02x?}"),
    }
}

/// Replays the vector's writes and returns all challenge bytes.
fn replay<F: Field>() -> Vec<u8> {
    let mut t = Transcript::new(&[1, 2, 3, 4, 5, 6, 7, 8]);
    let mut out = Vec::with_capacity(ROUNDS * DRAW);
    for i in 0..ROUNDS {
        let data: Vec<u8> = (0..64).map(|j| (i * 7 + j * 13) as u8).collect();
        t.write_bytes(&data);
        t.write_zeros(100 + i);
        let e: F = element(core::array::from_fn(|j| (i * 17 + j * 19) as u8));
        t.write_element(&e);
        let arr: Vec<F> = (0..5)
            .map(|k| element(core::array::from_fn(|j| (i * 23 + k * 29 + j * 31) as u8)))
            .collect();
        t.write_elements(&arr);
        let mut draw = [0u8; DRAW];
        t.challenge_bytes(&mut draw);
        out.extend_from_slice(&draw);
    }
    out
}

#[test]
fn reproduces_google_transcript_vector() {
    longfellow_testvectors::require!();
    let expected = longfellow_testvectors::read("google/runtime/transcript_test_vector.bin");
    assert_eq!(expected.len(), ROUNDS * DRAW);
    let got = replay::<Fp256>();
    for (i, (g, e)) in got.chunks(DRAW).zip(expected.chunks(DRAW)).enumerate() {
        assert_eq!(g, e, "challenge bytes differ in round {i}");
    }
}

#[test]
fn split_reads_give_the_same_stream() {
    longfellow_testvectors::require!();
    // Reading 256 bytes in odd-sized pieces must not change the stream.
    let expected = longfellow_testvectors::read("google/runtime/transcript_test_vector.bin");
    let mut t = Transcript::new(&[1, 2, 3, 4, 5, 6, 7, 8]);
    let data: Vec<u8> = (0..64).map(|j| (j * 13) as u8).collect();
    t.write_bytes(&data);
    t.write_zeros(100);
    let e: Fp256 = element(core::array::from_fn(|j| (j * 19) as u8));
    t.write_element(&e);
    let arr: Vec<Fp256> = (0..5)
        .map(|k| element(core::array::from_fn(|j| (k * 29 + j * 31) as u8)))
        .collect();
    t.write_elements(&arr);
    let mut got = Vec::new();
    for piece in [1usize, 15, 16, 17, 31, 33, 7, 136] {
        let mut buf = vec![0u8; piece];
        t.challenge_bytes(&mut buf);
        got.extend_from_slice(&buf);
    }
    assert_eq!(got, expected[..DRAW]);
}

#[test]
fn any_write_restarts_the_stream() {
    // After a write, the stream is keyed anew and starts at block 0, so the
    // first bytes differ from the continuation of the old stream.
    let mut a = Transcript::new(b"restart");
    let mut b = a.clone();
    let mut first = [0u8; 32];
    a.challenge_bytes(&mut first);
    let mut cont = [0u8; 32];
    a.challenge_bytes(&mut cont);
    b.challenge_bytes(&mut [0u8; 32]);
    b.write_bytes(&[]);
    let mut after = [0u8; 32];
    b.challenge_bytes(&mut after);
    assert_ne!(after, cont);
    assert_ne!(after, first);
}
