//! The session structures against bytes assembled by hand from the
//! published structure (ISO/IEC TS 18013-7 Annex C, OpenID4VP 1.0
//! B.2.6.2), not produced by the code under test; and HPKE round trips
//! with every way a response can be altered.

use longfellow_dcapi::{
    seal, DcApiError, DeviceRequest, EncryptedResponse, EncryptionInfo, Handover, RecipientKey,
    RequestedElement, ZkSystemSpec,
};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};

fn h(s: &str) -> Vec<u8> {
    hex::decode(s.replace([' ', '\n'], "")).expect("hex literal")
}

/// A CBOR text string with its head, for lengths below 24 or up to 255.
fn text(s: &str) -> Vec<u8> {
    let mut v = if s.len() < 24 {
        vec![0x60 + s.len() as u8]
    } else {
        vec![0x78, s.len() as u8]
    };
    v.extend_from_slice(s.as_bytes());
    v
}

#[test]
fn dcapi_transcript_matches_hand_assembled_bytes() {
    let handover = Handover::DcApi {
        encryption_info_b64: "gmVkY2FwaQ".into(),
        origin: "https://rp.example".into(),
    };
    // [ "gmVkY2FwaQ", "https://rp.example" ]: text heads 0x6a (10) and 0x72 (18).
    let expected_info = h("82 6a 676d566b5932467761 51 72 68747470733a2f2f72702e6578616d706c65");
    assert_eq!(handover.info_cbor(), expected_info);

    let digest = Sha256::digest(&expected_info);
    // [null, null, ["dcapi", bstr(32)]]
    let mut expected = h("83 f6 f6 82 65 6463617069 58 20");
    expected.extend_from_slice(&digest);
    assert_eq!(handover.session_transcript(), expected);
}

#[test]
fn openid4vp_transcript_matches_hand_assembled_bytes() {
    let without = Handover::OpenId4Vp {
        origin: "https://rp.example".into(),
        nonce: "n-1".into(),
        jwk_thumbprint: None,
    };
    // [ "https://rp.example", "n-1", null ]
    let info = h("83 72 68747470733a2f2f72702e6578616d706c65 63 6e2d31 f6");
    assert_eq!(without.info_cbor(), info);
    // ["OpenID4VPDCAPIHandover", bstr(32)]: the name is 22 characters (0x76).
    let mut expected = h("83 f6 f6 82 76");
    expected.extend_from_slice(b"OpenID4VPDCAPIHandover");
    expected.extend(h("58 20"));
    expected.extend_from_slice(&Sha256::digest(&info));
    assert_eq!(without.session_transcript(), expected);
    assert_eq!(
        without.session_transcript().len(),
        61,
        "the size of Google's example transcripts"
    );

    // The test issuer builds the same transcript independently.
    assert_eq!(
        without.session_transcript(),
        longfellow_mdoc_issuer::dc_api_session_transcript("https://rp.example", "n-1")
            .expect("issuer transcript")
    );

    let with = Handover::OpenId4Vp {
        origin: "https://rp.example".into(),
        nonce: "n-1".into(),
        jwk_thumbprint: Some([0xab; 32]),
    };
    let mut info = h("83 72 68747470733a2f2f72702e6578616d706c65 63 6e2d31 58 20");
    info.extend_from_slice(&[0xab; 32]);
    assert_eq!(with.info_cbor(), info);
}

#[test]
fn encryption_info_matches_hand_assembled_bytes() {
    let info = EncryptionInfo {
        nonce: (0u8..16).collect(),
        recipient_x: [0x11; 32],
        recipient_y: [0x22; 32],
    };
    // ["dcapi", {"nonce": h'00..0f', "recipientPublicKey": {1: 2, -1: 1, -2: x, -3: y}}]
    let mut expected = h("82 65 6463617069 a2 65 6e6f6e6365 50 000102030405060708090a0b0c0d0e0f");
    expected.extend(text("recipientPublicKey"));
    expected.extend(h("a4 01 02 20 01 21 58 20"));
    expected.extend_from_slice(&[0x11; 32]);
    expected.extend(h("22 58 20"));
    expected.extend_from_slice(&[0x22; 32]);
    assert_eq!(info.encode(), expected);
    assert_eq!(EncryptionInfo::decode(&expected).expect("decode"), info);
    // Labels in another order and an extra `kid` are still read.
    let mut reordered = h("82 65 6463617069 a2");
    reordered.extend(text("recipientPublicKey"));
    reordered.extend(h("a5 22 58 20"));
    reordered.extend_from_slice(&[0x22; 32]);
    reordered.extend(h("02 41 07 21 58 20"));
    reordered.extend_from_slice(&[0x11; 32]);
    reordered.extend(h(
        "20 01 01 02 65 6e6f6e6365 50 000102030405060708090a0b0c0d0e0f",
    ));
    assert_eq!(EncryptionInfo::decode(&reordered).expect("decode"), info);
    // A short nonce and a P-384 key are refused.
    let short = h("82 65 6463617069 a1 65 6e6f6e6365 44 00010203");
    assert!(matches!(
        EncryptionInfo::decode(&short),
        Err(DcApiError::Shape { .. })
    ));
    let mut p384 = expected.clone();
    let at = p384
        .windows(4)
        .position(|w| w == [0x01, 0x02, 0x20, 0x01])
        .expect("crv");
    p384[at + 3] = 0x02;
    assert!(EncryptionInfo::decode(&p384).is_err());
}

#[test]
fn encrypted_response_matches_hand_assembled_bytes() {
    let r = EncryptedResponse {
        enc: vec![0x04; 65],
        cipher_text: vec![0xcc; 17],
    };
    let mut expected = h("82 65 6463617069 a2 63 656e63 58 41");
    expected.extend_from_slice(&[0x04; 65]);
    expected.extend(h("6a 63697068657254657874 51"));
    expected.extend_from_slice(&[0xcc; 17]);
    assert_eq!(r.encode(), expected);
    assert_eq!(
        EncryptedResponse::decode(&expected, 1 << 20).expect("decode"),
        r
    );
    assert!(matches!(
        EncryptedResponse::decode(&expected, 16),
        Err(DcApiError::TooLarge { .. })
    ));
    let mut trailing = expected.clone();
    trailing.push(0);
    assert!(matches!(
        EncryptedResponse::decode(&trailing, 1 << 20),
        Err(DcApiError::TrailingBytes { .. })
    ));
    for cut in 0..expected.len() {
        assert!(EncryptedResponse::decode(&expected[..cut], 1 << 20).is_err());
    }
}

#[test]
fn device_request_matches_hand_assembled_bytes() {
    let spec = longfellow_mdoc::ZkSpec::for_version(7, 1).expect("v7/1");
    let request = DeviceRequest {
        doc_type: "eu.europa.ec.av.1".into(),
        elements: vec![RequestedElement {
            namespace: "eu.europa.ec.av.1".into(),
            id: "age_over_18".into(),
            intent_to_retain: false,
        }],
        zk_system_specs: vec![ZkSystemSpec::from_spec(&spec)],
        zk_required: true,
    };
    let hash = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
    let id = format!(
        "longfellow-libzk-v1_7_1_{}_{}_{hash}",
        spec.block_enc_hash, spec.block_enc_sig
    );
    let uint = |n: usize| -> Vec<u8> {
        match n {
            0..=23 => vec![n as u8],
            24..=255 => vec![0x18, n as u8],
            _ => vec![0x19, (n >> 8) as u8, n as u8],
        }
    };
    let mut items = vec![0xa3];
    items.extend(text("docType"));
    items.extend(text("eu.europa.ec.av.1"));
    items.extend(text("nameSpaces"));
    items.push(0xa1);
    items.extend(text("eu.europa.ec.av.1"));
    items.push(0xa1);
    items.extend(text("age_over_18"));
    items.push(0xf4);
    items.extend(text("requestInfo"));
    items.push(0xa1);
    items.extend(text("zkRequest"));
    items.push(0xa2);
    items.extend(text("systemSpecs"));
    items.extend([0x81, 0xa3]);
    items.extend(text("zkSystemId"));
    items.extend(text(&id));
    items.extend(text("system"));
    items.extend(text("longfellow-libzk-v1"));
    items.extend(text("params"));
    items.push(0xa5);
    items.extend(text("version"));
    items.push(0x07);
    items.extend(text("circuit_hash"));
    items.extend(text(hash));
    items.extend(text("num_attributes"));
    items.push(0x01);
    items.extend(text("block_enc_hash"));
    items.extend(uint(spec.block_enc_hash));
    items.extend(text("block_enc_sig"));
    items.extend(uint(spec.block_enc_sig));
    items.extend(text("zkRequired"));
    items.push(0xf5);

    let mut expected = vec![0xa2];
    expected.extend(text("version"));
    expected.extend(text("1.1"));
    expected.extend(text("docRequests"));
    expected.extend([0x81, 0xa1]);
    expected.extend(text("itemsRequest"));
    expected.extend([0xd8, 0x18]);
    assert!(items.len() < 65536);
    expected.extend([0x59, (items.len() >> 8) as u8, items.len() as u8]);
    expected.extend(&items);
    let got = request.encode();
    assert_eq!(hex::encode(&got), hex::encode(&expected));
    assert_eq!(DeviceRequest::decode(&got).expect("decode"), request);
}

#[test]
fn hpke_round_trip_and_every_alteration_fails() {
    let mut rng = ChaCha20Rng::seed_from_u64(18013);
    let transcript = Handover::OpenId4Vp {
        origin: "https://rp.example".into(),
        nonce: "n".into(),
        jwk_thumbprint: None,
    }
    .session_transcript();
    let other = Handover::OpenId4Vp {
        origin: "https://evil.example".into(),
        nonce: "n".into(),
        jwk_thumbprint: None,
    }
    .session_transcript();
    let message = b"a DeviceResponse".to_vec();

    let fresh = |rng: &mut ChaCha20Rng| {
        let key = RecipientKey::generate(rng);
        let info = key.encryption_info(vec![7; 16]);
        (key, info)
    };

    let (key, info) = fresh(&mut rng);
    let sealed = seal(&info, &transcript, &message, &mut rng).expect("seal");
    assert_eq!(sealed.enc.len(), 65);
    assert_eq!(sealed.cipher_text.len(), message.len() + 16);
    let decoded = EncryptedResponse::decode(&sealed.encode(), 1 << 20).expect("decode");
    assert_eq!(key.open(&decoded, &transcript).expect("open"), message);

    // Another transcript (origin), a flipped ciphertext bit, a flipped tag
    // bit, another encapsulated key, another recipient.
    let (key, info) = fresh(&mut rng);
    let sealed = seal(&info, &transcript, &message, &mut rng).expect("seal");
    assert_eq!(key.open(&sealed, &other), Err(DcApiError::Decrypt));

    let (key, info) = fresh(&mut rng);
    let mut sealed = seal(&info, &transcript, &message, &mut rng).expect("seal");
    sealed.cipher_text[0] ^= 1;
    assert_eq!(key.open(&sealed, &transcript), Err(DcApiError::Decrypt));

    let (key, info) = fresh(&mut rng);
    let mut sealed = seal(&info, &transcript, &message, &mut rng).expect("seal");
    let last = sealed.cipher_text.len() - 1;
    sealed.cipher_text[last] ^= 0x80;
    assert_eq!(key.open(&sealed, &transcript), Err(DcApiError::Decrypt));

    let (key, info) = fresh(&mut rng);
    let mut sealed = seal(&info, &transcript, &message, &mut rng).expect("seal");
    let (_, other_info) = fresh(&mut rng);
    let other_sealed = seal(&other_info, &transcript, &message, &mut rng).expect("seal");
    sealed.enc = other_sealed.enc.clone();
    assert_eq!(key.open(&sealed, &transcript), Err(DcApiError::Decrypt));

    let (key, _) = fresh(&mut rng);
    assert_eq!(
        key.open(&other_sealed, &transcript),
        Err(DcApiError::Decrypt)
    );

    let (key, _) = fresh(&mut rng);
    let mut bad = other_sealed.clone();
    bad.enc[10] ^= 0xff;
    assert!(matches!(
        key.open(&bad, &transcript),
        Err(DcApiError::BadEncappedKey | DcApiError::Decrypt)
    ));
}
