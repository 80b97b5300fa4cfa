//! Untrusted DeviceResponse CBOR: parse it, then build both circuits'
//! witnesses for a fixed request (Google's reference request, and the same
//! request asking for the response's own first attribute) with ZkSpec
//! versions 6 and 7.
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_fuzz::mdoc_request;
use longfellow_mdoc_witness::{
    build_witnesses, parse_device_response, MacInputs, RequestedAttribute, ZkSpecInfo,
};

const KEYS: MacInputs = MacInputs {
    prover_keys: [[3, 5], [7, 11], [13, 17]],
    verifier_key: 19,
};

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("mdoc_device_response", run);
}

fn run(data: &[u8]) {
    let Ok(parsed) = parse_device_response(data) else {
        return;
    };
    let fixed = mdoc_request();
    let mut own = fixed.clone();
    if let Some(item) = parsed.items.first() {
        own.attributes = vec![RequestedAttribute {
            namespace: item.namespace.clone(),
            id: item.element_identifier.clone(),
            value_cbor: item.element_value.clone(),
        }];
    }
    for request in [fixed, &own] {
        for version in [6, 7] {
            let spec = ZkSpecInfo {
                version,
                num_attributes: 1,
            };
            let _ = build_witnesses(&spec, request, data, &KEYS);
        }
    }
}
