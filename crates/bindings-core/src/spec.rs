//! The ZkSpec table as plain values, and the choice of a spec for a request.

use longfellow_mdoc::{spec::SYSTEM, ZkSpec};

/// One ZkSpec (a published circuit pair and its proof parameters), as the
/// bindings expose it; the fields are those of the C ABI's `ZkSpecStruct`
/// and of the DCQL `zk_system_type` entries wallets exchange.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpecInfo {
    /// Proof system name, `longfellow-libzk-v1`.
    pub system: String,
    /// Lower-case hex SHA-256(signature circuit ID ‖ hash circuit ID): the
    /// name of the published circuit file.
    pub circuit_hash: String,
    /// ZkSpec version (5, 6 or 7).
    pub version: u32,
    /// Number of attributes a proof discloses.
    pub num_attributes: u32,
    /// Encoded row length of the hash circuit's Ligero tableau.
    pub block_enc_hash: u32,
    /// Encoded row length of the signature circuit's Ligero tableau.
    pub block_enc_sig: u32,
}

impl SpecInfo {
    pub(crate) fn of(spec: &ZkSpec) -> Self {
        // Table values are at most 4 attributes and ~4.5k columns.
        let small = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        Self {
            system: SYSTEM.to_owned(),
            circuit_hash: spec.circuit_hash_hex(),
            version: spec.info.version,
            num_attributes: small(spec.info.num_attributes),
            block_enc_hash: small(spec.block_enc_hash),
            block_enc_sig: small(spec.block_enc_sig),
        }
    }
}

/// Every ZkSpec this library proves and verifies, newest version first
/// (the C ABI's `kZkSpecs` order).
pub fn zk_specs() -> Vec<SpecInfo> {
    let mut all: Vec<SpecInfo> = ZkSpec::all().map(|s| SpecInfo::of(&s)).collect();
    // Stable sort: within a version the table's attribute order is kept.
    all.sort_by_key(|s| std::cmp::Reverse(s.version));
    all
}

/// The spec to use for a request disclosing `num_attributes` attributes:
/// among `offered` (for example the specs a relying party accepts, or
/// [`zk_specs`]), the one of the newest version this library knows with
/// exactly that attribute count. Specs of another system or with a circuit
/// hash this library does not know are skipped.
pub fn match_spec(offered: &[SpecInfo], num_attributes: u32) -> Option<SpecInfo> {
    let known = zk_specs();
    offered
        .iter()
        .filter(|s| s.num_attributes == num_attributes && s.system == SYSTEM)
        .filter(|s| {
            known.iter().any(|k| {
                k.circuit_hash.eq_ignore_ascii_case(&s.circuit_hash) && k.version == s.version
            })
        })
        .max_by_key(|s| s.version)
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_lists_versions_5_to_7_with_1_to_4_attributes() {
        let all = zk_specs();
        for v in 5..=7 {
            for n in 1..=4 {
                assert!(
                    all.iter().any(|s| s.version == v && s.num_attributes == n),
                    "v{v}/{n}"
                );
            }
        }
        assert!(all.windows(2).all(|w| w[0].version >= w[1].version));
        assert_eq!(
            all[0].circuit_hash,
            "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121"
        );
    }

    #[test]
    fn matching_prefers_the_newest_known_version() {
        let all = zk_specs();
        let m = match_spec(&all, 2).expect("a 2-attribute spec");
        assert_eq!((m.version, m.num_attributes), (7, 2));

        let v6_only: Vec<SpecInfo> = all.iter().filter(|s| s.version == 6).cloned().collect();
        let m = match_spec(&v6_only, 3).expect("a v6 3-attribute spec");
        assert_eq!((m.version, m.num_attributes), (6, 3));

        assert_eq!(match_spec(&all, 5), None);
        assert_eq!(match_spec(&all, 0), None);

        let mut forged = all[0].clone();
        forged.circuit_hash = "00".repeat(32);
        assert_eq!(match_spec(&[forged], 1), None);
    }
}
