//! Which circuit set a witness is for: the layout lives in `longfellow-mdoc`
//! (the verifier needs it too); this adds the prover's refusal.

use crate::error::MdocError;

pub use longfellow_mdoc::spec::{
    ZkSpecInfo, ECDSA_WITNESS_LEN, INDEX_BITS, SIG_PRIVATE_LEN, SIG_PUBLIC_LEN,
};

// The layout constant and this crate's ECDSA witness writer must agree.
const _: () = assert!(ECDSA_WITNESS_LEN == crate::ecdsa::ECDSA_WITNESS_LEN);

/// Refuses circuit sets without a known input layout.
pub fn check(spec: &ZkSpecInfo) -> Result<(), MdocError> {
    if spec.is_supported() {
        Ok(())
    } else {
        Err(MdocError::UnsupportedSpec {
            version: spec.version,
            num_attributes: spec.num_attributes,
        })
    }
}
