//! Properties of the challenge stream that need no reference data.

use aes::cipher::{generic_array::GenericArray, BlockEncrypt, KeyInit};
use longfellow_transcript::Transcript;
use proptest::prelude::*;

/// AES-256 counter stream written out from the definition: block i =
/// AES(key, i as 16-byte little-endian).
fn definition_stream(key: [u8; 32], len: usize) -> Vec<u8> {
    let cipher = aes::Aes256::new(GenericArray::from_slice(&key));
    let mut out = Vec::new();
    let mut i: u128 = 0;
    while out.len() < len {
        let mut block = GenericArray::clone_from_slice(&i.to_le_bytes());
        cipher.encrypt_block(&mut block);
        out.extend_from_slice(&block);
        i += 1;
    }
    out.truncate(len);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn stream_is_aes_ctr_under_the_digest_whatever_the_read_sizes(
        init in proptest::collection::vec(any::<u8>(), 0..80),
        reads in proptest::collection::vec(0usize..300, 1..12),
    ) {
        let mut t = Transcript::new(&init);
        let key = t.digest();
        let total: usize = reads.iter().sum();
        let mut got = Vec::with_capacity(total);
        for r in reads {
            let mut buf = vec![0u8; r];
            t.challenge_bytes(&mut buf);
            got.extend_from_slice(&buf);
        }
        prop_assert_eq!(got, definition_stream(key, total));
    }

    #[test]
    fn clone_continues_the_stream(skip in 0usize..100, len in 1usize..100) {
        let mut a = Transcript::new(b"clone");
        a.challenge_bytes(&mut vec![0u8; skip]);
        let mut b = a.clone();
        let (mut x, mut y) = (vec![0u8; len], vec![0u8; len]);
        a.challenge_bytes(&mut x);
        b.challenge_bytes(&mut y);
        prop_assert_eq!(x, y);
    }
}
