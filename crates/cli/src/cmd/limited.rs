//! Reading input files with a size cap.
//!
//! Every command reads whole files; without a cap, `--circuit /dev/zero`
//! (or a huge or endless file) is read until memory runs out. The caps are
//! far above any real input.

use std::io::Read;
use std::path::Path;

/// Circuit files: the largest published one is 0.5 MB compressed; an
/// uncompressed LFC1 pair is at most ~130 MB.
pub const MAX_CIRCUIT_FILE: u64 = 256 << 20;
/// Proofs (~0.4 MB for the mdoc circuits).
pub const MAX_PROOF_FILE: u64 = 16 << 20;
/// Requests, credentials and case files.
pub const MAX_SMALL_FILE: u64 = 4 << 20;

/// Reads `path` (a `what`, for messages), refusing more than `max` bytes.
pub fn read_limited(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path)
        .map_err(|e| format!("cannot read {what} {}: {e}", path.display()))?;
    let mut out = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("cannot read {what} {}: {e}", path.display()))?;
    if out.len() as u64 > max {
        return Err(format!(
            "{what} {} is larger than {max} bytes",
            path.display()
        ));
    }
    Ok(out)
}
