//! The exported ZkSpec table and the lookups over it.
//!
//! The table is Google's (`longfellow-libzk-v1`, versions 7, 6, 5 with 1–4
//! attributes each, newest first) so that an index into `kZkSpecs` means
//! the same spec with either library. Its values are built at compile time
//! from `longfellow-circuit`'s circuit hashes; the block_enc values are
//! written here and checked against `longfellow-mdoc`'s table by a test.

use std::ffi::{c_char, CStr};

use longfellow_circuit::catalog::ZKSPECS;
use longfellow_mdoc::ZkSpec;

use crate::abi::{ZkSpecStruct, CIRCUIT_HASH_HEX_LEN};

/// Number of rows of [`kZkSpecs`] (the header's `kNumZkSpecs`).
pub const NUM_ZK_SPECS: usize = 12;

/// The proof system name every spec carries, NUL-terminated.
pub const SYSTEM: &CStr = c"longfellow-libzk-v1";

/// (version, attributes, block_enc_hash, block_enc_sig), in table order.
const ROWS: [(usize, usize, usize, usize); NUM_ZK_SPECS] = [
    (7, 1, 4151, 4096),
    (7, 2, 4265, 4096),
    (7, 3, 4307, 4096),
    (7, 4, 4415, 4096),
    (6, 1, 4096, 2945),
    (6, 2, 4025, 2945),
    (6, 3, 4121, 2945),
    (6, 4, 4283, 2945),
    (5, 1, 4096, 2945),
    (5, 2, 4025, 2945),
    (5, 3, 4121, 2945),
    (5, 4, 4283, 2945),
];

/// The catalogued hash hex of (version, attributes); fails the build if the
/// catalog lacks one.
const fn hash_of(version: usize, attributes: usize) -> [c_char; CIRCUIT_HASH_HEX_LEN + 1] {
    let mut i = 0;
    while i < ZKSPECS.len() {
        let id = &ZKSPECS[i];
        if id.version as usize == version && id.attributes as usize == attributes {
            let hex = id.hash_hex.as_bytes();
            assert!(hex.len() == CIRCUIT_HASH_HEX_LEN);
            let mut out = [0 as c_char; CIRCUIT_HASH_HEX_LEN + 1];
            let mut j = 0;
            while j < CIRCUIT_HASH_HEX_LEN {
                out[j] = hex[j] as c_char;
                j += 1;
            }
            return out;
        }
        i += 1;
    }
    panic!("ZkSpec missing from the circuit catalog");
}

const fn build_table() -> [ZkSpecStruct; NUM_ZK_SPECS] {
    let empty = ZkSpecStruct {
        system: SYSTEM.as_ptr(),
        circuit_hash: [0; CIRCUIT_HASH_HEX_LEN + 1],
        num_attributes: 0,
        version: 0,
        block_enc_hash: 0,
        block_enc_sig: 0,
    };
    let mut table = [empty; NUM_ZK_SPECS];
    let mut i = 0;
    while i < NUM_ZK_SPECS {
        let (version, attributes, block_enc_hash, block_enc_sig) = ROWS[i];
        table[i] = ZkSpecStruct {
            system: SYSTEM.as_ptr(),
            circuit_hash: hash_of(version, attributes),
            num_attributes: attributes,
            version,
            block_enc_hash,
            block_enc_sig,
        };
        i += 1;
    }
    table
}

/// Every ZkSpec this library proves and verifies (the header's `kZkSpecs`).
#[allow(non_upper_case_globals, unsafe_code)]
#[no_mangle]
pub static kZkSpecs: [ZkSpecStruct; NUM_ZK_SPECS] = build_table();

/// The circuit hash of a spec as a string (up to its NUL, at most 64
/// characters), or `None` if it is not ASCII.
pub fn hash_str(spec: &ZkSpecStruct) -> Option<String> {
    let bytes: Vec<u8> = spec
        .circuit_hash
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8(bytes).ok().filter(|s| s.is_ascii())
}

/// The table row whose circuit hash is `hash` (hex, any case).
pub fn by_hash(hash: &str) -> Option<&'static ZkSpecStruct> {
    kZkSpecs
        .iter()
        .find(|s| hash_str(s).is_some_and(|h| h.eq_ignore_ascii_case(hash)))
}

/// The table row for `version` and `num_attributes`; version 0 means the
/// newest version with that many attributes.
pub fn by_version(version: usize, num_attributes: usize) -> Option<&'static ZkSpecStruct> {
    kZkSpecs
        .iter()
        .filter(|s| s.num_attributes == num_attributes && (version == 0 || s.version == version))
        .max_by_key(|s| s.version)
}

/// The table row a caller's spec names: by circuit hash if it carries one,
/// else by version and attribute count (how Multipaz fills a spec it did
/// not take from the table).
pub fn resolve(spec: &ZkSpecStruct) -> Option<&'static ZkSpecStruct> {
    match hash_str(spec) {
        Some(h) if !h.is_empty() => by_hash(&h),
        _ if spec.version != 0 => by_version(spec.version, spec.num_attributes),
        _ => None,
    }
}

/// This crate's Rust ZkSpec for a table row.
pub fn rust_spec(spec: &ZkSpecStruct) -> Option<ZkSpec> {
    let hash = hash_str(spec)?;
    ZkSpec::all().find(|s| s.circuit_hash_hex() == hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_crates_zkspecs_in_googles_order() {
        let versions: Vec<(usize, usize)> = kZkSpecs
            .iter()
            .map(|s| (s.version, s.num_attributes))
            .collect();
        let mut expected = Vec::new();
        for v in [7, 6, 5] {
            for n in 1..=4 {
                expected.push((v, n));
            }
        }
        assert_eq!(versions, expected);
        for s in &kZkSpecs {
            let rust = rust_spec(s).expect("row known to longfellow-mdoc");
            assert_eq!(rust.info.version as usize, s.version);
            assert_eq!(rust.info.num_attributes, s.num_attributes);
            assert_eq!(rust.block_enc_hash, s.block_enc_hash);
            assert_eq!(rust.block_enc_sig, s.block_enc_sig);
            assert_eq!(s.circuit_hash[64], 0);
            // SAFETY: the table's system pointer is the 'static SYSTEM.
            #[allow(unsafe_code)]
            let system = unsafe { CStr::from_ptr(s.system) };
            assert_eq!(system, SYSTEM);
        }
    }

    #[test]
    fn lookups() {
        let v7 = by_version(0, 2).expect("newest two-attribute spec");
        assert_eq!(v7.version, 7);
        assert_eq!(by_version(6, 3).map(|s| s.block_enc_hash), Some(4121));
        assert!(by_version(4, 1).is_none());
        assert!(by_version(7, 5).is_none());
        let h = hash_str(&kZkSpecs[4]).expect("ascii");
        assert!(std::ptr::eq(
            by_hash(&h.to_uppercase()).expect("any case"),
            &kZkSpecs[4]
        ));
        let mut named = kZkSpecs[0];
        named.circuit_hash = [0; 65];
        assert!(std::ptr::eq(
            resolve(&named).expect("by version"),
            &kZkSpecs[0]
        ));
        named.version = 0;
        assert!(resolve(&named).is_none());
    }
}
