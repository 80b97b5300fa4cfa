//! `zkSystemId`: which circuit pair (ZkSpec) a proof was made with.
//!
//! Two forms are in use. Google Wallet and Google's examples send the bare
//! circuit hash (64 hex digits); Multipaz and the EUDI libraries send a spec
//! id, `longfellow-libzk-v1_<version>_<nattr>_<block_enc_hash>_<block_enc_sig>_<hash>`,
//! which repeats the ZkSpec's parameters. Both resolve to a row of the
//! ZkSpec table; a spec id whose parameters disagree with the row of its
//! hash is refused rather than trusted for either half.

use longfellow_mdoc::spec::SYSTEM;
use longfellow_mdoc::ZkSpec;

/// The `zkSystemId` text as sent (kept verbatim so it re-encodes exactly).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZkSystemId(String);

/// The parsed parts of a `zkSystemId`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SystemIdForm {
    /// The bare circuit hash.
    CircuitHash([u8; 32]),
    /// A spec id and the parameters it names.
    SpecId {
        /// ZkSpec version.
        version: u32,
        /// Attribute count.
        num_attributes: usize,
        /// Hash circuit's block_enc.
        block_enc_hash: usize,
        /// Signature circuit's block_enc.
        block_enc_sig: usize,
        /// The circuit hash.
        circuit_hash: [u8; 32],
    },
}

impl SystemIdForm {
    /// The circuit hash either form names.
    pub fn circuit_hash(&self) -> [u8; 32] {
        match self {
            Self::CircuitHash(h)
            | Self::SpecId {
                circuit_hash: h, ..
            } => *h,
        }
    }
}

/// Why a `zkSystemId` names no supported ZkSpec.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SystemIdError {
    /// Neither a 64-hex hash nor a `longfellow-libzk-v1_…` spec id.
    #[error("zkSystemId `{0}` is neither a circuit hash nor a longfellow-libzk-v1 spec id")]
    Unrecognised(String),
    /// Well formed, but its hash is not in the ZkSpec table.
    #[error("zkSystemId `{0}` names no known ZkSpec")]
    UnknownSpec(String),
    /// A spec id whose parameters differ from its hash's ZkSpec.
    #[error("zkSystemId `{id}`: {what} is {found}, the ZkSpec of its hash has {expected}")]
    Mismatch {
        /// The id.
        id: String,
        /// Which parameter.
        what: &'static str,
        /// The ZkSpec table's value.
        expected: usize,
        /// The id's value.
        found: usize,
    },
}

fn parse_hex32(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 || !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(s.as_bytes().chunks(2)) {
        let text = std::str::from_utf8(pair).ok()?;
        *o = u8::from_str_radix(text, 16).ok()?;
    }
    Some(out)
}

/// A decimal number without sign or leading zeros, at most 9 digits.
fn parse_small(s: &str) -> Option<usize> {
    let canonical = !s.is_empty() && s.len() <= 9 && s.bytes().all(|c| c.is_ascii_digit());
    if !canonical || (s.len() > 1 && s.starts_with('0')) {
        return None;
    }
    s.parse().ok()
}

impl ZkSystemId {
    /// The id as sent.
    pub fn new(text: impl Into<String>) -> Self {
        Self(text.into())
    }

    /// The bare-hash form of `spec` (what Google Wallet sends).
    pub fn circuit_hash_of(spec: &ZkSpec) -> Self {
        Self(spec.circuit_hash_hex())
    }

    /// The spec-id form of `spec` (what Multipaz sends).
    pub fn spec_id_of(spec: &ZkSpec) -> Self {
        Self(format!(
            "{SYSTEM}_{}_{}_{}_{}_{}",
            spec.info.version,
            spec.info.num_attributes,
            spec.block_enc_hash,
            spec.block_enc_sig,
            spec.circuit_hash_hex()
        ))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Splits the id into its form and parameters.
    pub fn parse(&self) -> Result<SystemIdForm, SystemIdError> {
        let unrecognised = || SystemIdError::Unrecognised(self.0.clone());
        if let Some(h) = parse_hex32(&self.0) {
            return Ok(SystemIdForm::CircuitHash(h));
        }
        let rest = self
            .0
            .strip_prefix(SYSTEM)
            .and_then(|r| r.strip_prefix('_'))
            .ok_or_else(unrecognised)?;
        let parts: Vec<&str> = rest.split('_').collect();
        let [version, nattr, beh, bes, hash] = parts[..] else {
            return Err(unrecognised());
        };
        let number = |s| parse_small(s).ok_or_else(unrecognised);
        Ok(SystemIdForm::SpecId {
            version: u32::try_from(number(version)?).map_err(|_| unrecognised())?,
            num_attributes: number(nattr)?,
            block_enc_hash: number(beh)?,
            block_enc_sig: number(bes)?,
            circuit_hash: parse_hex32(hash).ok_or_else(unrecognised)?,
        })
    }

    /// The ZkSpec this id names, with a spec id's parameters checked
    /// against the table.
    pub fn resolve(&self) -> Result<ZkSpec, SystemIdError> {
        let form = self.parse()?;
        let spec = ZkSpec::find(&form.circuit_hash())
            .ok_or_else(|| SystemIdError::UnknownSpec(self.0.clone()))?;
        if let SystemIdForm::SpecId {
            version,
            num_attributes,
            block_enc_hash,
            block_enc_sig,
            ..
        } = form
        {
            let checks = [
                ("version", spec.info.version as usize, version as usize),
                ("num_attributes", spec.info.num_attributes, num_attributes),
                ("block_enc_hash", spec.block_enc_hash, block_enc_hash),
                ("block_enc_sig", spec.block_enc_sig, block_enc_sig),
            ];
            for (what, expected, found) in checks {
                if expected != found {
                    return Err(SystemIdError::Mismatch {
                        id: self.0.clone(),
                        what,
                        expected,
                        found,
                    });
                }
            }
        }
        Ok(spec)
    }
}

impl std::fmt::Display for ZkSystemId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_resolve_to_every_spec() {
        for spec in ZkSpec::all() {
            let bare = ZkSystemId::circuit_hash_of(&spec);
            let long = ZkSystemId::spec_id_of(&spec);
            assert_eq!(bare.resolve(), Ok(spec));
            assert_eq!(long.resolve(), Ok(spec));
            assert_eq!(
                ZkSystemId::new(bare.as_str().to_uppercase()).resolve(),
                Ok(spec)
            );
        }
        let v7 = ZkSpec::for_version(7, 1).expect("v7/1");
        assert_eq!(
            ZkSystemId::spec_id_of(&v7).as_str(),
            "longfellow-libzk-v1_7_1_4151_4096_8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121"
        );
    }

    #[test]
    fn bad_ids_are_refused_with_a_reason() {
        let v7 = ZkSpec::for_version(7, 1).expect("v7/1");
        let h = v7.circuit_hash_hex();
        let mismatch = format!("longfellow-libzk-v1_7_2_4151_4096_{h}");
        assert!(matches!(
            ZkSystemId::new(mismatch).resolve(),
            Err(SystemIdError::Mismatch {
                what: "num_attributes",
                expected: 1,
                found: 2,
                ..
            })
        ));
        for bad in [
            String::new(),
            h[..63].to_owned(),
            format!("{h}0"),
            format!("other-system_7_1_4151_4096_{h}"),
            format!("longfellow-libzk-v1_07_1_4151_4096_{h}"),
            format!("longfellow-libzk-v1_7_1_4151_{h}"),
            format!("longfellow-libzk-v1_7_1_4151_4096_{h}_x"),
        ] {
            assert!(
                matches!(
                    ZkSystemId::new(bad.clone()).resolve(),
                    Err(SystemIdError::Unrecognised(_))
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            ZkSystemId::new("00".repeat(32)).resolve(),
            Err(SystemIdError::UnknownSpec(_))
        ));
    }
}
