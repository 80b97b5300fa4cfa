//! The whole prover (`Prover::prove`, v7 one-attribute circuits) on an
//! untrusted DeviceResponse, for the request asking for the response's own
//! first attribute (Google's reference request when it does not parse).
//! Whatever it proves must verify.
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_fuzz::{mdoc_pair, mdoc_request, mdoc_verifier};
use longfellow_mdoc::RequestedAttribute;
use longfellow_mdoc_prover::Prover;
use longfellow_mdoc_witness::parse_device_response;
use longfellow_random::MdocLcg;

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("mdoc_prove", run);
}

fn run(data: &[u8]) {
    let prover = match Prover::new(mdoc_pair()) {
        Ok(p) => p,
        Err(e) => panic!("prover for the v7 pair: {e}"),
    };
    // One prove per input (a successful one is slow): the response's own
    // first attribute when it parses, else Google's reference request.
    let mut request = mdoc_request().clone();
    if let Ok(parsed) = parse_device_response(data) {
        if let Some(item) = parsed.items.first() {
            request.attributes = vec![RequestedAttribute {
                namespace: item.namespace.clone(),
                id: item.element_identifier.clone(),
                value_cbor: item.element_value.clone(),
            }];
        }
    }
    if let Ok(proof) = prover.prove(&request, data, &mut MdocLcg::new(42)) {
        if let Err(e) = mdoc_verifier().verify(&request, &proof) {
            panic!("a proof the prover made does not verify: {e}");
        }
    }
}
