//! The per-circuit budget of decoded table bytes ([`MAX_TABLE_BYTES`]).
//!
//! Count caps alone bound each table, not their sum: a hostile file can fill
//! every table of every layer to its cap from a few kilobytes of zstd.
//! Every decoder charges the bytes it is about to allocate here first, so
//! decoding memory stays within a small multiple of a real circuit's.

use crate::error::CircuitError;
use crate::limits::MAX_TABLE_BYTES;

/// Bytes charged so far for one circuit.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    used: u64,
}

impl Budget {
    /// Charges `count` items of `size` bytes, or fails if that exceeds the cap.
    #[inline]
    pub(crate) fn charge(&mut self, count: u64, size: usize) -> Result<(), CircuitError> {
        let bytes = count.saturating_mul(size as u64);
        self.used = self.used.saturating_add(bytes);
        if self.used > MAX_TABLE_BYTES {
            return Err(CircuitError::TooLarge {
                what: "decoded circuit table bytes",
                value: self.used,
                limit: MAX_TABLE_BYTES,
            });
        }
        Ok(())
    }

    /// Returns bytes of a temporary structure that has been freed.
    pub(crate) fn refund(&mut self, bytes: u64) {
        self.used = self.used.saturating_sub(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_up_to_the_cap() {
        let mut b = Budget::default();
        assert!(b.charge(MAX_TABLE_BYTES / 4, 4).is_ok());
        assert!(b.charge(1, 1).is_err());
        b.refund(MAX_TABLE_BYTES);
        assert!(b.charge(u64::MAX, 16).is_err());
    }
}
