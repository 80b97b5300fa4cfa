//! The request reader (`MdocRequest::from_json`, and the strict JSON
//! parser under it): any bytes; an accepted request re-encodes to JSON that
//! reads back as the same request.
#![cfg_attr(feature = "libfuzzer", no_main)]

use longfellow_mdoc::MdocRequest;

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

#[cfg(not(feature = "libfuzzer"))]
fn main() {
    longfellow_fuzz::harness::main("request_json", run);
}

fn run(data: &[u8]) {
    let _ = longfellow_mdoc::json::parse(data);
    if let Ok(request) = MdocRequest::from_json(data) {
        let again = MdocRequest::from_json(request.to_json().as_bytes());
        assert_eq!(again.as_ref(), Ok(&request), "to_json does not read back");
    }
}
