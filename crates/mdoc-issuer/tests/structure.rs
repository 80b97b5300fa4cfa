//! The issued CBOR read back with a second, independent CBOR library
//! (ciborium; the issuer writes with minicbor): every field in the shape
//! ISO 18013-5 and the real credentials in `google/mdoc/cases.json` have,
//! and both signatures verified over Sig_structures rebuilt here.

mod common;

use ciborium::value::Value;
use common::{issue, now};
use longfellow_mdoc_issuer::{IssuedMdoc, MdocBuilder};
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use sha2::{Digest, Sha256};

fn decode(bytes: &[u8]) -> Value {
    let v: Value = ciborium::de::from_reader(bytes).expect("decodes");
    // No trailing bytes: re-encoding gives back exactly the input (which
    // also shows every head is in preferred, shortest form).
    assert_eq!(encode(&v), bytes, "not canonical or trailing bytes");
    v
}

fn encode(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::ser::into_writer(v, &mut out).expect("encodes");
    out
}

fn text(s: &str) -> Value {
    Value::Text(s.into())
}

/// The map's entries, asserting its keys are exactly `keys` in this order.
fn entries<'a>(v: &'a Value, keys: &[Value]) -> Vec<&'a Value> {
    let m = v.as_map().expect("map");
    let found: Vec<&Value> = m.iter().map(|(k, _)| k).collect();
    assert_eq!(found, keys.iter().collect::<Vec<_>>());
    m.iter().map(|(_, v)| v).collect()
}

fn text_keys(keys: &[&str]) -> Vec<Value> {
    keys.iter().map(|k| text(k)).collect()
}

fn bytes(v: &Value) -> &[u8] {
    v.as_bytes().expect("bstr")
}

/// `#6.24(bstr)` → the inner bytes.
fn tag24(v: &Value) -> &[u8] {
    match v {
        Value::Tag(24, inner) => bytes(inner),
        other => panic!("expected tag 24, got {other:?}"),
    }
}

fn sig_structure(payload: &[u8]) -> Vec<u8> {
    encode(&Value::Array(vec![
        text("Signature1"),
        Value::Bytes(vec![0xa1, 0x01, 0x26]),
        Value::Bytes(vec![]),
        Value::Bytes(payload.to_vec()),
    ]))
}

fn verifying_key(x: &[u8; 32], y: &[u8; 32]) -> VerifyingKey {
    let mut sec1 = vec![0x04];
    sec1.extend_from_slice(x);
    sec1.extend_from_slice(y);
    VerifyingKey::from_sec1_bytes(&sec1).expect("on curve")
}

fn verify(key: &VerifyingKey, message: &[u8], signature: &[u8]) -> bool {
    let sig = Signature::from_slice(signature).expect("64 bytes");
    key.verify(message, &sig).is_ok()
}

fn check_tdate(v: &Value) -> String {
    match v {
        Value::Tag(0, inner) => {
            let s = inner.as_text().expect("text");
            assert_eq!(s.len(), 20);
            assert!(s.ends_with('Z'));
            s.to_owned()
        }
        other => panic!("expected tag 0, got {other:?}"),
    }
}

/// One DER TLV: (tag, content, rest).
fn der(b: &[u8]) -> (u8, &[u8], &[u8]) {
    let (len, head) = if b[1] < 0x80 {
        (usize::from(b[1]), 2)
    } else {
        let n = usize::from(b[1] & 0x7f);
        let len = b[2..2 + n]
            .iter()
            .fold(0usize, |acc, x| acc * 256 + usize::from(*x));
        (len, 2 + n)
    };
    (b[0], &b[head..head + len], &b[head + len..])
}

/// A DER INTEGER's magnitude as 32 big-endian bytes.
fn be32(content: &[u8]) -> [u8; 32] {
    let trimmed: Vec<u8> = content.iter().copied().skip_while(|b| *b == 0).collect();
    let mut out = [0u8; 32];
    out[32 - trimmed.len()..].copy_from_slice(&trimmed);
    out
}

/// The certificate is self-signed by the issuer key, names that key and
/// spans the MSO's validity period.
fn check_certificate(cert: &[u8], mdoc: &IssuedMdoc, issuer: &VerifyingKey) {
    let (tag, body, rest) = der(cert);
    assert_eq!((tag, rest.len()), (0x30, 0));
    let (tag, tbs_content, after_tbs) = der(body);
    assert_eq!(tag, 0x30);
    let tbs = &body[..body.len() - after_tbs.len()];
    let (_, algorithm, after_alg) = der(after_tbs);
    // ecdsa-with-SHA256
    assert_eq!(
        algorithm,
        [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]
    );
    let (tag, bits, end) = der(after_alg);
    assert_eq!((tag, bits[0], end.len()), (0x03, 0, 0));
    let (_, sig_value, _) = der(&bits[1..]);
    let (_, r, rest) = der(sig_value);
    let (_, s, _) = der(rest);
    let rs = [be32(r), be32(s)].concat();
    assert!(verify(issuer, tbs, &rs), "certificate signature");

    let mut point = vec![0x04];
    point.extend_from_slice(&mdoc.issuer_pkx);
    point.extend_from_slice(&mdoc.issuer_pky);
    assert!(tbs_content.windows(65).any(|w| w == point.as_slice()));
    let utc = |t: &longfellow_mdoc_issuer::Tdate| {
        let digits: String = t.to_string().chars().filter(char::is_ascii_digit).collect();
        format!("{}Z", &digits[2..]).into_bytes()
    };
    let validity = [utc(&mdoc.valid_from), utc(&mdoc.valid_until)].concat();
    let mut expected = vec![0x30, 0x1e, 0x17, 0x0d];
    expected.extend_from_slice(&validity[..13]);
    expected.extend_from_slice(&[0x17, 0x0d]);
    expected.extend_from_slice(&validity[13..]);
    assert!(tbs_content
        .windows(expected.len())
        .any(|w| w == expected.as_slice()));
}

/// The default IssuerSignedItem field order.
const DEFAULT_ORDER: [&str; 4] = ["digestID", "random", "elementIdentifier", "elementValue"];

/// Checks the whole structure of `mdoc.device_response`.
fn check(mdoc: &IssuedMdoc) {
    check_in_order(mdoc, DEFAULT_ORDER);
}

/// [`check`], with IssuerSignedItem fields expected in `order`.
fn check_in_order(mdoc: &IssuedMdoc, order: [&str; 4]) {
    let root = decode(&mdoc.device_response);
    let top = entries(&root, &text_keys(&["version", "documents", "status"]));
    assert_eq!(top[0], &text("1.0"));
    assert_eq!(top[2], &Value::Integer(0.into()));
    let docs = top[1].as_array().expect("documents");
    assert_eq!(docs.len(), 1);
    let doc = entries(
        &docs[0],
        &text_keys(&["docType", "issuerSigned", "deviceSigned"]),
    );
    assert_eq!(doc[0], &text(&mdoc.doc_type));

    // issuerSigned.nameSpaces: every attribute, as tag-24 items.
    let issuer_signed = entries(doc[1], &text_keys(&["nameSpaces", "issuerAuth"]));
    let mut items = Vec::new();
    for (ns, list) in issuer_signed[0].as_map().expect("nameSpaces") {
        let ns = ns.as_text().expect("namespace");
        for tagged in list.as_array().expect("items") {
            let inner = tag24(tagged);
            let item = decode(inner);
            let fields = entries(&item, &text_keys(&order));
            let f: Vec<&Value> = DEFAULT_ORDER
                .iter()
                .map(|k| fields[order.iter().position(|o| o == k).expect("a field")])
                .collect();
            let digest_id = u64::try_from(f[0].as_integer().expect("uint")).expect("u64");
            assert_eq!(bytes(f[1]).len(), 16, "salt length");
            let id = f[2].as_text().expect("id").to_owned();
            let value = encode(f[3]);
            let full = encode(tagged);
            items.push((ns.to_owned(), digest_id, id, value, full));
        }
    }
    let expected: Vec<(String, String, Vec<u8>)> = mdoc
        .attributes
        .iter()
        .map(|a| (a.namespace.clone(), a.id.clone(), a.value_cbor.clone()))
        .collect();
    let got: Vec<(String, String, Vec<u8>)> = items
        .iter()
        .map(|(ns, _, id, v, _)| (ns.clone(), id.clone(), v.clone()))
        .collect();
    assert_eq!(got, expected);

    // issuerAuth = [h'A10126', {}, MSO bytes, r‖s].
    let auth = issuer_signed[1].as_array().expect("COSE_Sign1");
    assert_eq!(auth.len(), 4);
    assert_eq!(bytes(&auth[0]), [0xa1, 0x01, 0x26]);
    let issuer = verifying_key(&mdoc.issuer_pkx, &mdoc.issuer_pky);
    match &mdoc.certificate {
        None => assert_eq!(auth[1], Value::Map(vec![])),
        Some(cert) => {
            let header = entries(&auth[1], &[Value::Integer(33.into())]);
            assert_eq!(bytes(header[0]), cert.as_slice());
            check_certificate(cert, mdoc, &issuer);
        }
    }
    let payload = bytes(&auth[2]);
    assert!(verify(&issuer, &sig_structure(payload), bytes(&auth[3])));
    let mut wrong = payload.to_vec();
    let last = wrong.len() - 1;
    wrong[last] ^= 1;
    assert!(!verify(&issuer, &sig_structure(&wrong), bytes(&auth[3])));

    // The MSO, tag 24 with a two-byte length as the circuits require.
    assert_eq!(payload[..3], [0xd8, 0x18, 0x59]);
    let mso = decode(tag24(&decode(payload)));
    let m = entries(
        &mso,
        &text_keys(&[
            "version",
            "digestAlgorithm",
            "docType",
            "valueDigests",
            "deviceKeyInfo",
            "validityInfo",
        ]),
    );
    assert_eq!(m[0], &text("1.0"));
    assert_eq!(m[1], &text("SHA-256"));
    assert_eq!(m[2], &text(&mdoc.doc_type));
    let digests = m[3].as_map().expect("valueDigests");
    let mut n = 0;
    for (ns, ids) in digests {
        for (id, digest) in ids.as_map().expect("DigestIDs") {
            let id = u64::try_from(id.as_integer().expect("uint")).expect("u64");
            let item = items
                .iter()
                .find(|i| Value::Text(i.0.clone()) == *ns && i.1 == id)
                .expect("digest of a present item");
            let sha: [u8; 32] = Sha256::digest(&item.4).into();
            assert_eq!(bytes(digest), sha);
            n += 1;
        }
    }
    assert_eq!(n, items.len());
    let dki = entries(m[4], &text_keys(&["deviceKey"]));
    let key = entries(
        dki[0],
        &[1, -1, -2, -3].map(|k: i64| Value::Integer(k.into())),
    );
    assert_eq!(key[0], &Value::Integer(2.into())); // kty EC2
    assert_eq!(key[1], &Value::Integer(1.into())); // crv P-256
    assert_eq!(bytes(key[2]), mdoc.device_pkx);
    assert_eq!(bytes(key[3]), mdoc.device_pky);
    let validity = entries(m[5], &text_keys(&["signed", "validFrom", "validUntil"]));
    let dates: Vec<String> = validity.iter().map(|v| check_tdate(v)).collect();
    assert_eq!(dates[1], mdoc.valid_from.to_string());
    assert_eq!(dates[2], mdoc.valid_until.to_string());

    // deviceSigned = {nameSpaces: 24(h'A0'), deviceAuth: {deviceSignature}}.
    let device_signed = entries(doc[2], &text_keys(&["nameSpaces", "deviceAuth"]));
    assert_eq!(tag24(device_signed[0]), [0xa0]);
    let device_auth = entries(device_signed[1], &text_keys(&["deviceSignature"]));
    let sig1 = device_auth[0].as_array().expect("COSE_Sign1");
    assert_eq!(sig1.len(), 4);
    assert_eq!(bytes(&sig1[0]), [0xa1, 0x01, 0x26]);
    assert_eq!(sig1[1], Value::Map(vec![]));
    assert_eq!(sig1[2], Value::Null, "detached payload");

    // DeviceAuthenticationBytes rebuilt from the ISO 18013-5 definition.
    let transcript: Value = decode(&mdoc.session_transcript);
    let da = encode(&Value::Array(vec![
        text("DeviceAuthentication"),
        transcript,
        text(&mdoc.doc_type),
        Value::Tag(24, Box::new(Value::Bytes(vec![0xa0]))),
    ]));
    let da_bytes = encode(&Value::Tag(24, Box::new(Value::Bytes(da))));
    let device = verifying_key(&mdoc.device_pkx, &mdoc.device_pky);
    assert!(verify(&device, &sig_structure(&da_bytes), bytes(&sig1[3])));
    // The hash the signature circuit takes as a public input.
    let expected = longfellow_mdoc_witness::public::device_authentication_hash(
        &mdoc.session_transcript,
        &mdoc.doc_type,
    );
    assert_eq!(
        <[u8; 32]>::from(Sha256::digest(sig_structure(&da_bytes))),
        expected
    );
}

#[test]
fn item_fields_follow_the_chosen_order() {
    use longfellow_mdoc_issuer::{IssuerError, ItemField};
    let value_first = [
        ItemField::ElementValue,
        ItemField::Random,
        ItemField::DigestId,
        ItemField::ElementIdentifier,
    ];
    let mdoc = issue(
        MdocBuilder::mdl()
            .without_circuit_limits()
            .item_order(value_first),
        12,
    );
    check_in_order(
        &mdoc,
        ["elementValue", "random", "digestID", "elementIdentifier"],
    );
    let pair_first = [
        ItemField::ElementIdentifier,
        ItemField::ElementValue,
        ItemField::DigestId,
        ItemField::Random,
    ];
    let mdoc = issue(MdocBuilder::age_verification().item_order(pair_first), 13);
    check_in_order(
        &mdoc,
        ["elementIdentifier", "elementValue", "digestID", "random"],
    );

    let (issuer, device, mut r) = common::keys(14);
    let build = |b: MdocBuilder, r: &mut _| {
        b.valid_around(now(), common::DAY, common::DAY)
            .expect("in range")
            .build(&issuer, &device, &common::transcript(), r)
    };
    // Not provable with version 6 circuits, so not under the circuit limits.
    assert!(matches!(
        build(
            MdocBuilder::age_verification().item_order(value_first),
            &mut r
        ),
        Err(IssuerError::AttributeNotProvable { .. })
    ));
    let twice = [ItemField::DigestId; 4];
    assert_eq!(
        build(
            MdocBuilder::age_verification()
                .without_circuit_limits()
                .item_order(twice),
            &mut r
        ),
        Err(IssuerError::InvalidItemOrder)
    );
}

#[test]
fn age_verification_structure_and_signatures() {
    let mdoc = issue(MdocBuilder::age_verification(), 11);
    assert!(mdoc.certificate.is_some());
    check(&mdoc);
    assert_eq!(mdoc.attributes.len(), 1);
}

#[test]
fn structure_without_certificate() {
    let mdoc = issue(
        MdocBuilder::age_verification()
            .certificate(longfellow_mdoc_issuer::IssuerCertificate::Omit),
        14,
    );
    assert_eq!(mdoc.certificate, None);
    check(&mdoc);
}

#[test]
fn mdl_structure_and_signatures() {
    let mdoc = issue(MdocBuilder::mdl(), 12);
    check(&mdoc);
    // The profile's values in their ISO 18013-5 encodings.
    let value = |id: &str| mdoc.attribute(id).expect(id).value_cbor.clone();
    let mut birth = vec![0xd9, 0x03, 0xec, 0x6a];
    birth.extend_from_slice(b"1971-09-01");
    assert_eq!(value("birth_date"), birth);
    assert_eq!(value("age_over_18"), [0xf5]);
    assert_eq!(value("family_name")[0], 0x6a); // text(10)
}

#[test]
fn session_transcript_has_the_dc_api_shape() {
    let t = decode(&common::transcript());
    let parts = t.as_array().expect("array");
    assert_eq!(parts.len(), 3);
    assert_eq!(parts[0], Value::Null);
    assert_eq!(parts[1], Value::Null);
    let handover = parts[2].as_array().expect("handover");
    assert_eq!(handover[0], text("OpenID4VPDCAPIHandover"));
    let info = encode(&Value::Array(vec![
        text("https://verifier.example"),
        text("n-0S6_WzA2Mj"),
        Value::Null,
    ]));
    assert_eq!(bytes(&handover[1]), Sha256::digest(info).as_slice());
}

#[test]
fn request_json_matches_the_cli_contract() {
    let mdoc = issue(MdocBuilder::mdl(), 13);
    let json = mdoc
        .request(now(), &["age_over_18", "birth_date"])
        .expect("request")
        .to_json()
        .expect("json");
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let obj = v.as_object().expect("object");
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "attributes",
            "doc_type",
            "now",
            "pkx",
            "pky",
            "transcript_hex"
        ]
    );
    assert_eq!(v["pkx"], format!("0x{}", hex::encode(mdoc.issuer_pkx)));
    assert_eq!(v["pky"], format!("0x{}", hex::encode(mdoc.issuer_pky)));
    assert_eq!(v["now"], "2026-01-15T09:00:00Z");
    assert_eq!(v["doc_type"], "org.iso.18013.5.1.mDL");
    assert_eq!(v["transcript_hex"], hex::encode(&mdoc.session_transcript));
    assert_eq!(
        v["attributes"][0],
        serde_json::json!({"namespace": "org.iso.18013.5.1", "id": "age_over_18", "value_cbor_hex": "f5"})
    );
    assert_eq!(
        v["attributes"][1]["value_cbor_hex"],
        "d903ec6a313937312d30392d3031"
    );
}
