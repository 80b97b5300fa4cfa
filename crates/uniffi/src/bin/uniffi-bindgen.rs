//! The UniFFI binding generator, built at the same UniFFI version as the
//! library: `cargo run -p longfellow-uniffi --features bindgen --bin
//! uniffi-bindgen -- generate --library <path to liblongfellow_uniffi> ...`.

fn main() {
    uniffi::uniffi_bindgen_main()
}
