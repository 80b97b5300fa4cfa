//! A generator chosen at run time: the seeded [`MdocLcg`] for reproducible
//! runs (conformance, byte-for-byte comparison with published proofs) or
//! the operating system's generator for real proofs.

use rand_core::{OsRng, RngCore};

use crate::MdocLcg;

/// [`MdocLcg`] when a seed is given, [`OsRng`] otherwise.
#[derive(Debug)]
pub enum SeededOrOs {
    /// Deterministic: the reference's generator from a seed.
    Seeded(MdocLcg),
    /// The operating system's generator.
    Os(OsRng),
}

impl SeededOrOs {
    /// The seeded generator for `Some(seed)`, the OS generator for `None`.
    pub fn new(seed: Option<u64>) -> Self {
        match seed {
            Some(s) => Self::Seeded(MdocLcg::new(s)),
            None => Self::Os(OsRng),
        }
    }

    fn inner(&mut self) -> &mut dyn RngCore {
        match self {
            Self::Seeded(g) => g,
            Self::Os(g) => g,
        }
    }
}

/// Insecure when seeded; only with `test-vectors`.
#[cfg(feature = "test-vectors")]
impl rand_core::CryptoRng for SeededOrOs {}

impl RngCore for SeededOrOs {
    fn next_u32(&mut self) -> u32 {
        self.inner().next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        self.inner().next_u64()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.inner().fill_bytes(dest)
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.inner().try_fill_bytes(dest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_seeded_sequence() {
        let mut chosen = SeededOrOs::new(Some(42));
        let mut direct = MdocLcg::new(42);
        let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
        chosen.fill_bytes(&mut a);
        direct.fill_bytes(&mut b);
        assert_eq!(a, b);
        assert_eq!(chosen.next_u64(), direct.next_u64());
        assert!(matches!(SeededOrOs::new(None), SeededOrOs::Os(_)));
    }
}
