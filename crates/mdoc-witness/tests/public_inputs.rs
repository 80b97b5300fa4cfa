//! The verifier's view: public inputs recomputed from the request alone
//! (`public` module, no mdoc), with the six MAC tags taken from the front of
//! Google's stored mdoc proofs (`<hash>.bin` starts with them) and a_v from
//! the stored hash witness, must equal the public prefix of both stored
//! witness files. It also ties the MAC tags this crate computes to the ones
//! in an independent artifact, the proof.

mod common;

use longfellow_mdoc_witness::public::{
    device_authentication_hash, hash_public_inputs, parse_coordinate, sig_public_inputs,
    RequestedAttribute,
};
use longfellow_mdoc_witness::spec::SIG_PUBLIC_LEN;
use longfellow_mdoc_witness::{parse_device_response, ZkSpecInfo};

const CIRCUITS: [(u32, usize, &str); 2] = [
    (
        7,
        4,
        "5aebdaaafe17296a3ef3ca6c80c6e7505e09291897c39700410a365fb278e460",
    ),
    (
        6,
        3,
        "b2211223b954b34a1081e3fbf71b8ea2de28efc888b4be510f532d6ba76c2010",
    ),
];

fn attributes(n: usize) -> Vec<RequestedAttribute> {
    let case = common::case("birthdate_1971_09_01-mdoc[3].json");
    let r = parse_device_response(&case.mdoc).expect("parse");
    ["family_name", "birth_date", "issue_date", "height"][..n]
        .iter()
        .map(|id| {
            let item = r
                .items
                .iter()
                .find(|i| i.element_identifier == *id)
                .expect("item");
            RequestedAttribute {
                namespace: "org.iso.18013.5.1".into(),
                id: (*id).into(),
                value_cbor: item.element_value.clone(),
            }
        })
        .collect()
}

#[test]
fn public_inputs_from_the_request_alone_match_the_reference() {
    longfellow_testvectors::require!();
    let case = common::case("birthdate_1971_09_01-mdoc[3].json");
    for (version, n, hash) in CIRCUITS {
        let spec = ZkSpecInfo {
            version,
            num_attributes: n,
        };
        let proof = longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}.bin"));
        let macs: [u128; 6] = std::array::from_fn(|i| {
            u128::from_le_bytes(proof[16 * i..16 * i + 16].try_into().expect("16 bytes"))
        });
        let hash_ref =
            longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_hash_witness.bin"));
        let sig_ref =
            longfellow_testvectors::read(&format!("google/mdoc/proofs/{hash}_sig_witness.bin"));
        let npub = spec.hash_public_len();
        let av = u128::from_le_bytes(hash_ref[16 * (npub - 1)..16 * npub].try_into().expect("16"));

        let h = hash_public_inputs(&spec, &attributes(n), &case.request.now, &macs, av)
            .expect("encodable");
        let h_bytes: Vec<u8> = h.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(
            h_bytes,
            hash_ref[..16 * npub],
            "v{version}/{n} hash public inputs"
        );

        let pk = (
            parse_coordinate("0xdc1c1f55cff4cd5c76cf4169278f7217667f86ee81d8669b63f2e19bc12a0c9f")
                .expect("x"),
            parse_coordinate("0x12355dd0385fed3bc33bedc9781b9aad47b33e4c24704b8d14288b1b3cb45c28")
                .expect("y"),
        );
        assert_eq!(pk, case.request.issuer_pk);
        let dah = device_authentication_hash(&case.request.transcript, &case.request.doc_type);
        let s = sig_public_inputs((&pk.0, &pk.1), &dah, &macs, av);
        assert_eq!(s.len(), SIG_PUBLIC_LEN);
        assert_eq!(
            s.concat(),
            sig_ref[..32 * SIG_PUBLIC_LEN],
            "v{version}/{n} sig public inputs"
        );
    }
}
