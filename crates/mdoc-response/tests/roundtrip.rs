//! Property tests: encode then decode gives the same response, and decode
//! never panics on mutated or arbitrary bytes.

use longfellow_mdoc::ZkSpec;
use longfellow_mdoc_response::{
    decode, encode, DecodeError, Element, Namespace, Timestamp, X5Chain, ZkDeviceResponse,
    ZkDocument, ZkDocumentData, ZkSystemId,
};
use proptest::prelude::*;

fn cbor_value() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(vec![0xf5]),
        Just(vec![0xf4]),
        any::<u8>().prop_map(|b| vec![0x18, b]),
        "[a-zA-Z0-9 ]{0,40}".prop_map(|s| {
            let mut v = vec![0x78, s.len() as u8];
            v.extend_from_slice(s.as_bytes());
            v
        }),
        // full-date: tag 1004 + "YYYY-MM-DD"
        (1900u32..2100, 1u32..13, 1u32..29).prop_map(|(y, m, d)| {
            let s = format!("{y:04}-{m:02}-{d:02}");
            let mut v = vec![0xd9, 0x03, 0xec, 0x6a];
            v.extend_from_slice(s.as_bytes());
            v
        }),
    ]
}

fn namespaces() -> impl Strategy<Value = Vec<Namespace>> {
    prop::collection::vec(
        (
            "[a-z.0-9]{1,30}",
            prop::collection::vec(("[a-z_0-9]{1,32}", cbor_value()), 1..5),
        ),
        1..3,
    )
    .prop_map(|v| {
        let mut seen = Vec::new();
        v.into_iter()
            .filter(|(n, _)| {
                let fresh = !seen.contains(n);
                seen.push(n.clone());
                fresh
            })
            .map(|(name, els)| Namespace {
                name,
                elements: els
                    .into_iter()
                    .map(|(id, value_cbor)| Element { id, value_cbor })
                    .collect(),
            })
            .collect()
    })
}

fn system_id() -> impl Strategy<Value = ZkSystemId> {
    let specs: Vec<ZkSpec> = ZkSpec::all().collect();
    (0..specs.len(), any::<bool>(), "[ -~]{0,40}").prop_map(move |(i, long, other)| {
        match (i % 3, long) {
            (0, _) => ZkSystemId::new(other),
            (_, true) => ZkSystemId::spec_id_of(&specs[i]),
            (_, false) => ZkSystemId::circuit_hash_of(&specs[i]),
        }
    })
}

fn response() -> impl Strategy<Value = ZkDeviceResponse> {
    let document = (
        prop::collection::vec(any::<u8>(), 0..300),
        "[a-z.0-9]{1,40}",
        0i64..253_402_300_799,
        prop::collection::vec(prop::collection::vec(any::<u8>(), 1..100), 1..4),
        any::<bool>(),
        system_id(),
        namespaces(),
        prop::option::of(namespaces()),
    )
        .prop_map(
            |(proof, doc_type, t, certs, single, id, issuer, device)| ZkDocument {
                proof,
                data: ZkDocumentData {
                    doc_type,
                    timestamp: Timestamp::from_unix(t).expect("in range"),
                    mso_x5chain: if single {
                        X5Chain::Single(certs[0].clone())
                    } else {
                        X5Chain::Array(certs)
                    },
                    zk_system_id: id,
                    issuer_signed: issuer,
                    device_signed: device,
                },
            },
        );
    (
        "[0-9.]{1,5}",
        0u64..100,
        prop::collection::vec(document, 0..3),
    )
        .prop_map(|(version, status, documents)| ZkDeviceResponse {
            version,
            status,
            documents,
        })
}

proptest! {
    #[test]
    fn encode_then_decode_is_identity(r in response()) {
        let bytes = encode(&r).expect("encodes");
        prop_assert_eq!(decode(&bytes).expect("decodes"), r.clone());
        // And the encoding is a fixed point.
        prop_assert_eq!(encode(&decode(&bytes).expect("decodes")).expect("encodes"), bytes);
    }

    #[test]
    fn mutated_bytes_never_panic(r in response(), at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<prop::sample::Index>()) {
        let mut bytes = encode(&r).expect("encodes");
        let i = at.index(bytes.len());
        bytes[i] = byte;
        let _ = decode(&bytes);
        let n = cut.index(bytes.len());
        let _ = decode(&bytes[..n]);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = decode(&bytes);
    }
}

#[test]
fn declared_sizes_are_checked_before_reading() {
    // {"zkDocuments": array of 2^32 entries} with nothing after it.
    let mut b = vec![0xa1, 0x6b];
    b.extend_from_slice(b"zkDocuments");
    b.extend_from_slice(&[0x9a, 0xff, 0xff, 0xff, 0xff]);
    assert!(matches!(
        decode(&b),
        Err(DecodeError::TooMany {
            what: "zkDocuments",
            ..
        })
    ));
    // {"version": text of 2^63 bytes}.
    let mut b = vec![0xa1, 0x67];
    b.extend_from_slice(b"version");
    b.extend_from_slice(&[0x7b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    assert!(matches!(
        decode(&b),
        Err(DecodeError::Cbor { .. } | DecodeError::TooLarge { .. })
    ));
    // Trailing bytes and an indefinite map.
    let ok = [
        0xa3, 0x66, b's', b't', b'a', b't', b'u', b's', 0x00, 0x67, b'v', b'e', b'r', b's', b'i',
        b'o', b'n', 0x63, b'1', b'.', b'0', 0x6b, b'z', b'k', b'D', b'o', b'c', b'u', b'm', b'e',
        b'n', b't', b's', 0x80,
    ];
    assert!(decode(&ok).is_ok());
    let mut trailing = ok.to_vec();
    trailing.push(0);
    assert_eq!(
        decode(&trailing),
        Err(DecodeError::TrailingBytes {
            what: "ZK DeviceResponse",
            count: 1
        })
    );
    let mut indef = ok.to_vec();
    indef[0] = 0xbf;
    indef.push(0xff);
    assert_eq!(
        decode(&indef),
        Err(DecodeError::Indefinite("ZkDeviceResponse"))
    );
    let mut dup = ok.to_vec();
    dup[2..8].copy_from_slice(b"zzzzzz");
    assert!(decode(&dup).is_err()); // status missing
}
