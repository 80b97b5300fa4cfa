//! The local store of Google's circuit files, and how files get into it.
//!
//! A fresh clone has no circuits: Google publishes them in its repository,
//! and this crate downloads them from there (or a mirror), checking each
//! file's SHA-256 against the catalog compiled into `longfellow-circuit`
//! *before* anything is written, so that the store only ever holds files
//! the catalog vouches for. The same search order ([`search_dirs`]) serves
//! every command that needs circuits, so `fetch` once and `demo`, `bench`
//! and `serve` find them.
//!
//! The HTTP client is deliberately small: HTTP/1.1 `GET` over
//! [`std::net::TcpStream`], with TLS (feature `https`, on by default) from
//! rustls and the pure-Rust RustCrypto provider. Responses are capped at the
//! catalogued file size, so a hostile mirror cannot make it allocate more.
#![forbid(unsafe_code)]

mod dirs;
mod error;
mod fetch;
mod http;
#[cfg(feature = "https")]
mod tls;
mod verify;

pub use dirs::{
    find_circuit, platform_cache_dir, search_dirs, store_dir, SearchDirs, CIRCUITS_ENV, URL_ENV,
};
pub use error::StoreError;
pub use fetch::{
    base_url, default_base_url, fetch_file, file_name, parse_form, select, Fetched, UPSTREAM_REPO,
};
pub use http::get;
pub use verify::{verify_bytes, verify_dir, verify_file, FileCheck, Verified};
