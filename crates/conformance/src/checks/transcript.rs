//! Google's transcript vector: 100 rounds of writes over P-256, each followed
//! by 256 challenge bytes (layout: map §4).

use longfellow_field::{Field, Fp256};
use longfellow_transcript::Transcript;

use super::require;
use crate::diff::Component;
use crate::error::{read, CheckError};
use crate::registry::{Check, Family, Outcome};
use crate::Options;

const FILE: &str = "google/runtime/transcript_test_vector.bin";
const ROUNDS: usize = 100;
const DRAW: usize = 256;

pub(crate) fn discover(opts: &Options) -> Vec<Check<'static>> {
    let name = "transcript_test_vector.bin";
    match require(opts, Family::Transcript, name, FILE) {
        Err(skip) => vec![skip],
        Ok(path) => vec![Check::new(Family::Transcript, name, move |_| {
            check(&read(&path)?)
        })],
    }
}

fn element(bytes: [u8; 32]) -> Result<Fp256, CheckError> {
    Fp256::from_bytes(&bytes)
        .ok_or_else(|| CheckError::malformed(FILE, "generated element is not canonical"))
}

/// The challenge bytes of round `i` after the vector's writes.
fn round(t: &mut Transcript, i: usize) -> Result<[u8; DRAW], CheckError> {
    let data: Vec<u8> = (0..64).map(|j| (i * 7 + j * 13) as u8).collect();
    t.write_bytes(&data);
    t.write_zeros(100 + i);
    t.write_element(&element(std::array::from_fn(|j| (i * 17 + j * 19) as u8))?);
    let arr = (0..5)
        .map(|k| element(std::array::from_fn(|j| (i * 23 + k * 29 + j * 31) as u8)))
        .collect::<Result<Vec<_>, _>>()?;
    t.write_elements(&arr);
    let mut draw = [0u8; DRAW];
    t.challenge_bytes(&mut draw);
    Ok(draw)
}

pub(crate) fn check(expected: &[u8]) -> Result<Outcome, CheckError> {
    if expected.len() != ROUNDS * DRAW {
        return Err(CheckError::malformed(
            FILE,
            format!("{} bytes, expected {}", expected.len(), ROUNDS * DRAW),
        ));
    }
    let mut t = Transcript::new(&[1, 2, 3, 4, 5, 6, 7, 8]);
    for (i, want) in expected.chunks_exact(DRAW).enumerate() {
        if round(&mut t, i)?[..] != *want {
            return Ok(Outcome::Fail(format!(
                "first divergence: {}",
                Component::TranscriptRound(i)
            )));
        }
    }
    Ok(Outcome::Pass(format!(
        "{ROUNDS} rounds × {DRAW} challenge bytes identical"
    )))
}
