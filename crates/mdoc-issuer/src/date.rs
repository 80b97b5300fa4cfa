//! RFC 3339 dates in the one form the circuits compare: `YYYY-MM-DDTHH:MM:SSZ`.
//!
//! The hash circuit compares validFrom, validUntil and `now` as 20-byte
//! strings, which orders them correctly only for this fixed-width UTC form;
//! fractional seconds or offsets would be valid ISO 18013-5 tdates but break
//! the comparison, so this type cannot represent them.

use core::fmt;
use std::time::Duration;

use crate::error::IssuerError;

/// Bytes of a `YYYY-MM-DDTHH:MM:SSZ` string.
pub const TDATE_LEN: usize = 20;

const SECONDS_PER_DAY: i64 = 86_400;

/// A UTC instant with whole seconds, years 0000–9999.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tdate {
    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    unix: i64,
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date, counting years from
/// March so that the leap day falls at the end of each counted year.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let month_from_march = (m + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + d - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// Inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let d = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let m = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let y = year_of_era + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Parses `n` ASCII digits.
fn digits(s: &[u8]) -> Option<i64> {
    s.iter().try_fold(0i64, |acc, &c| {
        c.is_ascii_digit().then(|| acc * 10 + i64::from(c - b'0'))
    })
}

/// Parses `YYYY-MM-DD` into (year, month, day), checking the calendar.
pub(crate) fn parse_full_date(s: &[u8]) -> Option<(i64, i64, i64)> {
    if s.len() != 10 || s[4] != b'-' || s[7] != b'-' {
        return None;
    }
    let (y, m, d) = (digits(&s[..4])?, digits(&s[5..7])?, digits(&s[8..10])?);
    if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    Some((y, m, d))
}

const MIN_UNIX: i64 = -62_167_219_200; // 0000-01-01T00:00:00Z
const MAX_UNIX: i64 = 253_402_300_799; // 9999-12-31T23:59:59Z

impl Tdate {
    /// Parses exactly `YYYY-MM-DDTHH:MM:SSZ` (no fraction, no offset).
    pub fn parse(s: &str) -> Result<Self, IssuerError> {
        let bad = || IssuerError::InvalidDate(s.to_owned());
        let b = s.as_bytes();
        if b.len() != TDATE_LEN || b[10] != b'T' || b[13] != b':' || b[16] != b':' || b[19] != b'Z'
        {
            return Err(bad());
        }
        let (y, m, d) = parse_full_date(&b[..10]).ok_or_else(bad)?;
        let (hh, mm, ss) = (
            digits(&b[11..13]).ok_or_else(bad)?,
            digits(&b[14..16]).ok_or_else(bad)?,
            digits(&b[17..19]).ok_or_else(bad)?,
        );
        if hh > 23 || mm > 59 || ss > 59 {
            return Err(bad());
        }
        Ok(Self {
            unix: days_from_civil(y, m, d) * SECONDS_PER_DAY + hh * 3600 + mm * 60 + ss,
        })
    }

    /// The instant `unix` seconds after 1970-01-01T00:00:00Z.
    pub fn from_unix(unix: i64) -> Result<Self, IssuerError> {
        if (MIN_UNIX..=MAX_UNIX).contains(&unix) {
            Ok(Self { unix })
        } else {
            Err(IssuerError::DateOutOfRange)
        }
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    pub fn unix(&self) -> i64 {
        self.unix
    }

    /// `self + d`, if still within years 0000–9999.
    pub fn checked_add(&self, d: Duration) -> Result<Self, IssuerError> {
        let secs = i64::try_from(d.as_secs()).map_err(|_| IssuerError::DateOutOfRange)?;
        Self::from_unix(
            self.unix
                .checked_add(secs)
                .ok_or(IssuerError::DateOutOfRange)?,
        )
    }

    /// `self − d`, if still within years 0000–9999.
    pub fn checked_sub(&self, d: Duration) -> Result<Self, IssuerError> {
        let secs = i64::try_from(d.as_secs()).map_err(|_| IssuerError::DateOutOfRange)?;
        Self::from_unix(
            self.unix
                .checked_sub(secs)
                .ok_or(IssuerError::DateOutOfRange)?,
        )
    }

    /// The 20 ASCII bytes, as the circuits take `now`.
    pub fn to_bytes(&self) -> [u8; TDATE_LEN] {
        let mut out = [0u8; TDATE_LEN];
        out.copy_from_slice(self.to_string().as_bytes());
        out
    }
}

impl fmt::Display for Tdate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let days = self.unix.div_euclid(SECONDS_PER_DAY);
        let secs = self.unix.rem_euclid(SECONDS_PER_DAY);
        let (y, m, d) = civil_from_days(days);
        write!(
            f,
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        )
    }
}

impl core::str::FromStr for Tdate {
    type Err = IssuerError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_instants() {
        // Values from `date -u -d ... +%s`.
        for (s, unix) in [
            ("1970-01-01T00:00:00Z", 0),
            ("2024-10-01T09:00:00Z", 1_727_773_200),
            ("2000-02-29T23:59:59Z", 951_868_799),
            ("1969-12-31T23:59:59Z", -1),
            ("0000-01-01T00:00:00Z", MIN_UNIX),
            ("9999-12-31T23:59:59Z", MAX_UNIX),
        ] {
            let t = Tdate::parse(s).expect(s);
            assert_eq!(t.unix(), unix, "{s}");
            assert_eq!(t.to_string(), s);
        }
    }

    #[test]
    fn refuses_malformed() {
        for s in [
            "2024-10-01T09:00:00",
            "2024-10-01T09:00:00.5Z",
            "2024-10-01T09:00:00+00:00",
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-04-31T00:00:00Z",
            "2024-10-01T24:00:00Z",
            "2024-10-01T23:60:00Z",
            "2024-10-01 09:00:00Z",
            "+024-10-01T09:00:00Z",
        ] {
            assert!(Tdate::parse(s).is_err(), "{s}");
        }
        assert!(Tdate::from_unix(MAX_UNIX + 1).is_err());
        assert!(Tdate::from_unix(MIN_UNIX - 1).is_err());
    }

    proptest! {
        #[test]
        fn text_roundtrip_and_order(a in MIN_UNIX..=MAX_UNIX, b in MIN_UNIX..=MAX_UNIX) {
            let (ta, tb) = (Tdate::from_unix(a).expect("in range"), Tdate::from_unix(b).expect("in range"));
            let sa = ta.to_string();
            prop_assert_eq!(Tdate::parse(&sa).expect("own output"), ta);
            // Byte order of the strings equals time order: what the circuit relies on.
            prop_assert_eq!(sa.as_bytes().cmp(tb.to_string().as_bytes()), a.cmp(&b));
        }
    }
}
