//! The request's time, `YYYY-MM-DDTHH:MM:SSZ`.
//!
//! The hash circuit compares these 20 bytes with the credential's validity
//! dates digit by digit, so any string of that shape "works" in the
//! circuit, `2026-13-45T99:99:99Z` included: a proof would then state
//! something about a time that does not exist. Both prover and verifier
//! therefore refuse a time that is not a real UTC instant (proleptic
//! Gregorian calendar, no leap seconds — the reference's `tdate` form).

/// Why 20 bytes are not a valid request time.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TimeError {
    /// Not `YYYY-MM-DDTHH:MM:SSZ` (20 bytes, digits and those separators).
    #[error("time `{0}` is not YYYY-MM-DDTHH:MM:SSZ")]
    Shape(String),
    /// The shape is right but the date or time does not exist.
    #[error("time `{text}`: {what} {value} is out of range")]
    OutOfRange {
        /// The time as given.
        text: String,
        /// `month`, `day`, `hour`, `minute` or `second`.
        what: &'static str,
        /// The value found.
        value: u32,
    },
}

/// Days in `month` (1–12) of `year`, Gregorian leap years.
fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Checks that `now` is a real UTC time written `YYYY-MM-DDTHH:MM:SSZ`.
pub fn check_time(now: &[u8; 20]) -> Result<(), TimeError> {
    const SHAPE: &[u8; 20] = b"dddd-dd-ddTdd:dd:ddZ";
    let text = || String::from_utf8_lossy(now).into_owned();
    let shaped = now.iter().zip(SHAPE).all(|(c, want)| match want {
        b'd' => c.is_ascii_digit(),
        _ => c == want,
    });
    if !shaped {
        return Err(TimeError::Shape(text()));
    }
    let num = |at: usize, len: usize| {
        now[at..at + len]
            .iter()
            .fold(0u32, |acc, d| acc * 10 + u32::from(d - b'0'))
    };
    let (year, month) = (num(0, 4), num(5, 2));
    let fields = [
        ("month", month, 1, 12),
        ("hour", num(11, 2), 0, 23),
        ("minute", num(14, 2), 0, 59),
        ("second", num(17, 2), 0, 59),
    ];
    for (what, value, lo, hi) in fields {
        if !(lo..=hi).contains(&value) {
            return Err(TimeError::OutOfRange {
                text: text(),
                what,
                value,
            });
        }
    }
    let day = num(8, 2);
    if !(1..=days_in_month(year, month)).contains(&day) {
        return Err(TimeError::OutOfRange {
            text: text(),
            what: "day",
            value: day,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Result<(), TimeError> {
        let b: [u8; 20] = s.as_bytes().try_into().expect("20 bytes");
        check_time(&b)
    }

    fn range(s: &str) -> Option<&'static str> {
        match t(s) {
            Err(TimeError::OutOfRange { what, .. }) => Some(what),
            _ => None,
        }
    }

    #[test]
    fn accepts_real_times() {
        for ok in [
            "2024-10-01T09:00:00Z",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "2024-02-29T12:00:00Z",
            "2000-02-29T12:00:00Z",
            "2023-04-30T00:00:00Z",
        ] {
            assert_eq!(t(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn refuses_times_that_do_not_exist() {
        assert_eq!(range("2026-13-45T99:99:99Z"), Some("month"));
        assert_eq!(range("2024-10-01T25:61:61Z"), Some("hour"));
        assert_eq!(range("2024-10-01T23:60:00Z"), Some("minute"));
        assert_eq!(range("2024-10-01T23:59:60Z"), Some("second"));
        assert_eq!(range("2024-00-01T00:00:00Z"), Some("month"));
        assert_eq!(range("2024-01-00T00:00:00Z"), Some("day"));
        assert_eq!(range("2024-01-32T00:00:00Z"), Some("day"));
        assert_eq!(range("2023-02-29T00:00:00Z"), Some("day"));
        assert_eq!(range("1900-02-29T00:00:00Z"), Some("day"));
        assert_eq!(range("2024-04-31T00:00:00Z"), Some("day"));
        assert_eq!(range("2024-11-31T00:00:00Z"), Some("day"));
    }

    #[test]
    fn refuses_other_shapes() {
        for bad in [
            "2024-10-01 09:00:00Z",
            "2024-10-01T09:00:00z",
            "2024/10/01T09:00:00Z",
            "2024-10-01T09:00:0AZ",
            "+024-10-01T09:00:00Z",
        ] {
            assert!(matches!(t(bad), Err(TimeError::Shape(_))), "{bad}");
        }
    }
}
