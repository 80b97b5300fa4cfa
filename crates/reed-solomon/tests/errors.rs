//! Size validation and misuse.

use longfellow_field::{FieldKind, Fp128, Fp256, Gf2_128};
use longfellow_reed_solomon::{
    AdditiveFftEncoder, LagrangeEncoder, PrimeFftEncoder, RsEncoder, RsError, RsField,
    MAX_BINARY_N, MAX_PRIME_N,
};

#[test]
fn empty_message_is_rejected() {
    assert_eq!(Fp256::rs_encoder(0, 10).err(), Some(RsError::EmptyMessage));
    assert_eq!(
        Gf2_128::rs_encoder(0, 10).err(),
        Some(RsError::EmptyMessage)
    );
    assert_eq!(Fp128::rs_encoder(0, 0).err(), Some(RsError::EmptyMessage));
    assert_eq!(
        LagrangeEncoder::<Fp256>::new(0, 1).err(),
        Some(RsError::EmptyMessage)
    );
}

#[test]
fn message_longer_than_codeword_is_rejected() {
    let e = RsError::MessageLongerThanCodeword { k: 11, n: 10 };
    assert_eq!(Fp256::rs_encoder(11, 10).err(), Some(e.clone()));
    assert_eq!(Gf2_128::rs_encoder(11, 10).err(), Some(e.clone()));
    assert_eq!(Fp128::rs_encoder(11, 10).err(), Some(e.clone()));
    assert_eq!(LagrangeEncoder::<Gf2_128>::new(11, 10).err(), Some(e));
}

#[test]
fn binary_codeword_limited_to_16_bit_points() {
    assert!(Gf2_128::rs_encoder(1, MAX_BINARY_N).is_ok());
    let e = RsError::CodewordTooLong {
        n: 1 << 16,
        max: MAX_BINARY_N,
    };
    assert_eq!(Gf2_128::rs_encoder(1, 1 << 16).err(), Some(e.clone()));
    assert_eq!(LagrangeEncoder::<Gf2_128>::new(1, 1 << 16).err(), Some(e));
}

#[test]
fn prime_codeword_bounded() {
    let e = RsError::CodewordTooLong {
        n: MAX_PRIME_N + 1,
        max: MAX_PRIME_N,
    };
    assert_eq!(Fp256::rs_encoder(1, MAX_PRIME_N + 1).err(), Some(e));
}

#[test]
fn encoders_refuse_the_wrong_field_kind() {
    assert_eq!(
        AdditiveFftEncoder::<Fp256>::new(2, 4).err(),
        Some(RsError::UnsupportedField(FieldKind::Prime))
    );
    assert_eq!(
        PrimeFftEncoder::<Gf2_128>::new(2, 4).err(),
        Some(RsError::UnsupportedField(FieldKind::Binary))
    );
}

#[test]
#[should_panic(expected = "row length")]
fn wrong_row_length_panics() {
    let enc = Fp256::rs_encoder(2, 4).expect("test setup");
    let mut row = vec![Fp256::default(); 5];
    enc.extend(&mut row);
}

#[test]
fn accessors_report_sizes() {
    let enc = Gf2_128::rs_encoder(461, 4151).expect("test setup");
    assert_eq!((enc.k(), enc.n()), (461, 4151));
    let enc = Fp256::rs_encoder(455, 4096).expect("test setup");
    assert_eq!((enc.k(), enc.n()), (455, 4096));
}

#[test]
fn encoders_are_shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<PrimeFftEncoder<Fp256>>();
    assert_send_sync::<PrimeFftEncoder<Fp128>>();
    assert_send_sync::<AdditiveFftEncoder<Gf2_128>>();
    assert_send_sync::<LagrangeEncoder<Gf2_128>>();

    // One encoder, rows extended concurrently, same results as serially.
    let enc = Gf2_128::rs_encoder(5, 40).expect("test setup");
    let rows: Vec<Vec<Gf2_128>> = (0..4u64)
        .map(|i| {
            let mut row = vec![Gf2_128::default(); 40];
            for (j, x) in row[..5].iter_mut().enumerate() {
                *x = longfellow_field::Field::from_index(i * 7 + j as u64);
            }
            row
        })
        .collect();
    let serial: Vec<_> = rows
        .iter()
        .map(|r| {
            let mut r = r.clone();
            enc.extend(&mut r);
            r
        })
        .collect();
    let parallel: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = rows
            .iter()
            .map(|r| {
                let enc = &enc;
                s.spawn(move || {
                    let mut r = r.clone();
                    enc.extend(&mut r);
                    r
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread"))
            .collect()
    });
    assert!(serial == parallel);
}
