//! The relying party's ZK DeviceResponse decoder (`longfellow-mdoc-response`)
//! on any bytes. Whatever it accepts must encode, and the encoding must
//! decode to the same value (a wallet and a relying party built from this
//! crate cannot disagree on what a response says); the same for a
//! `documentData` payload decoded on its own.
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_mdoc_response::{
    decode, decode_document_data, encode, encode_document_data, Limits,
};

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("zk_device_response", run);
}

fn run(data: &[u8]) {
    if let Ok(response) = decode(data) {
        // Values are kept as their exact CBOR bytes, checked to be one item
        // each, so everything decoded is encodable.
        let bytes = encode(&response).expect("a decoded response encodes");
        let again = decode(&bytes).expect("an encoded response decodes");
        assert_eq!(again, response, "decode(encode(r)) != r");
        assert_eq!(
            encode(&again).as_deref(),
            Ok(&bytes[..]),
            "encoding is not stable"
        );
    }
    if let Ok(data) = decode_document_data(data, &Limits::default()) {
        let bytes = encode_document_data(&data).expect("decoded documentData encodes");
        let again = decode_document_data(&bytes, &Limits::default()).expect("re-decodes");
        assert_eq!(again, data, "documentData round trip");
    }
}
