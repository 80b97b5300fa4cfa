//! Checks of the string arguments foreign callers pass, with the C ABI's
//! conventions: coordinates as `0x` hex (leading zeros optional), time as
//! exactly 20 characters `YYYY-MM-DDTHH:MM:SSZ`.

use crate::error::BindingError;

/// Largest SessionTranscript accepted. Real ones are a few hundred bytes to
/// a few KiB (reader certificates included); the bound keeps a hostile
/// caller from making the transcript hash megabytes.
pub const MAX_TRANSCRIPT_BYTES: usize = 1 << 20;

/// A P-256 affine coordinate from `0x`-prefixed hex (the prefix may be
/// omitted; leading zeros may be dropped), as 32 big-endian bytes.
pub fn parse_coordinate(what: &str, hex: &str) -> Result<[u8; 32], BindingError> {
    let digits = hex
        .strip_prefix("0x")
        .or_else(|| hex.strip_prefix("0X"))
        .unwrap_or(hex);
    if digits.is_empty() || digits.len() > 64 {
        return Err(BindingError::invalid(format!(
            "{what}: expected 1 to 64 hex digits, got {}",
            digits.len()
        )));
    }
    let mut out = [0u8; 32];
    // Right-aligned: digit i (from the end) is nibble i of the number.
    for (i, c) in digits.bytes().rev().enumerate() {
        let v = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => {
                return Err(BindingError::invalid(format!(
                    "{what}: `{}` is not a hex digit",
                    char::from(c).escape_default()
                )))
            }
        };
        let byte = &mut out[31 - i / 2];
        *byte |= if i % 2 == 0 { v } else { v << 4 };
    }
    Ok(out)
}

/// The time of the presentation, exactly `YYYY-MM-DDTHH:MM:SSZ`.
pub fn parse_now(now: &str) -> Result<[u8; 20], BindingError> {
    let bytes: [u8; 20] = now.as_bytes().try_into().map_err(|_| {
        BindingError::invalid(format!(
            "now: expected 20 characters YYYY-MM-DDTHH:MM:SSZ, got {}",
            now.len()
        ))
    })?;
    let shape_ok = bytes.iter().enumerate().all(|(i, &c)| match i {
        4 | 7 => c == b'-',
        10 => c == b'T',
        13 | 16 => c == b':',
        19 => c == b'Z',
        _ => c.is_ascii_digit(),
    });
    if !shape_ok {
        return Err(BindingError::invalid(
            "now: expected the form YYYY-MM-DDTHH:MM:SSZ",
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn coordinate_accepts_prefix_and_short_forms() {
        let mut one = [0u8; 32];
        one[31] = 1;
        assert_eq!(parse_coordinate("x", "0x1"), Ok(one));
        assert_eq!(parse_coordinate("x", "1"), Ok(one));
        assert_eq!(
            parse_coordinate("x", &format!("0x{}1", "0".repeat(63))),
            Ok(one)
        );
        let mut v = [0u8; 32];
        v[30] = 0x0a;
        v[31] = 0xbc;
        assert_eq!(parse_coordinate("x", "0XaBc"), Ok(v));
    }

    #[test]
    fn coordinate_refuses_bad_input() {
        for bad in ["", "0x", "0xg1", &"f".repeat(65), "0x 1", "0x-1"] {
            let code = parse_coordinate("pkx", bad).map_err(|e| e.code);
            assert_eq!(code, Err(crate::ErrorCode::InvalidArgument), "{bad}");
        }
    }

    #[test]
    fn now_is_checked() {
        assert!(parse_now("2024-10-01T09:00:00Z").is_ok());
        for bad in [
            "2024-10-01T09:00:00",
            "2024-10-01T09:00:00ZZ",
            "2024-10-01 09:00:00Z",
            "2024-1a-01T09:00:00Z",
            "",
        ] {
            assert!(parse_now(bad).is_err(), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn coordinate_round_trips(bytes in any::<[u8; 32]>()) {
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            prop_assert_eq!(parse_coordinate("x", &format!("0x{hex}")), Ok(bytes));
            let trimmed = hex.trim_start_matches('0');
            let short = if trimmed.is_empty() { "0" } else { trimmed };
            prop_assert_eq!(parse_coordinate("x", short), Ok(bytes));
        }
    }
}
