//! The decoded ZK DeviceResponse.

use crate::system_id::ZkSystemId;

/// A whole ZK DeviceResponse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZkDeviceResponse {
    /// `version`, `"1.0"` today.
    pub version: String,
    /// `status`, 0 for OK (ISO 18013-5 §8.3.2.1.2.3).
    pub status: u64,
    /// `zkDocuments`, in order.
    pub documents: Vec<ZkDocument>,
}

/// One proven document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZkDocument {
    /// The Longfellow mdoc proof (MAC tags, hash proof, signature proof).
    pub proof: Vec<u8>,
    /// The statement the proof is about.
    pub data: ZkDocumentData,
}

/// `ZkDocumentData`: what the proof claims, in the clear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZkDocumentData {
    /// `docType`, e.g. `org.iso.18013.5.1.mDL`.
    pub doc_type: String,
    /// `timestamp`: the time at which the credential was valid (the proof's
    /// "now").
    pub timestamp: Timestamp,
    /// `msoX5chain`: the document signer certificate, then intermediates.
    pub mso_x5chain: X5Chain,
    /// `zkSystemId`: which circuit pair made the proof.
    pub zk_system_id: ZkSystemId,
    /// `issuerSigned`: the disclosed attributes, by namespace, in order.
    pub issuer_signed: Vec<Namespace>,
    /// `deviceSigned`, when present.
    pub device_signed: Option<Vec<Namespace>>,
}

/// The elements of one namespace, in the order sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Namespace {
    /// The namespace, e.g. `org.iso.18013.5.1`.
    pub name: String,
    /// Its elements (at least one).
    pub elements: Vec<Element>,
}

/// One disclosed element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    /// `elementIdentifier`.
    pub id: String,
    /// `elementValue` as the exact CBOR bytes received (the circuit hashes
    /// these bytes, so they are never re-encoded).
    pub value_cbor: Vec<u8>,
}

/// `msoX5chain` (COSE_X509): one certificate as a bstr, or an array.
///
/// The form is kept so that a response re-encodes to the same bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum X5Chain {
    /// One bstr (usually the document signer certificate alone).
    Single(Vec<u8>),
    /// `[+ bstr]`: the document signer certificate, then intermediates.
    Array(Vec<Vec<u8>>),
}

impl X5Chain {
    /// The DER items in order (the document signer's first).
    pub fn certificates(&self) -> Vec<&[u8]> {
        match self {
            Self::Single(c) => vec![c.as_slice()],
            Self::Array(cs) => cs.iter().map(Vec::as_slice).collect(),
        }
    }

    /// The chain as sent: one bstr for one certificate, else an array.
    pub fn from_certificates(mut certs: Vec<Vec<u8>>) -> Self {
        if certs.len() == 1 {
            Self::Single(certs.remove(0))
        } else {
            Self::Array(certs)
        }
    }
}

/// A `tdate` of the form `YYYY-MM-DDTHH:MM:SSZ` (whole seconds, UTC): the
/// form the circuits compare byte by byte with the MSO's validity dates.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp([u8; 20]);

impl std::fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Timestamp({})", self.as_str())
    }
}

impl std::fmt::Display for Timestamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Timestamp {
    /// Parses `YYYY-MM-DDTHH:MM:SSZ` with calendar ranges checked
    /// (month 1–12, day valid for the month, 23:59:59 at most).
    pub fn parse(s: &str) -> Option<Self> {
        let bytes: [u8; 20] = s.as_bytes().try_into().ok()?;
        const SHAPE: &[u8; 20] = b"dddd-dd-ddTdd:dd:ddZ";
        let shaped = bytes.iter().zip(SHAPE).all(|(c, want)| {
            if *want == b'd' {
                c.is_ascii_digit()
            } else {
                c == want
            }
        });
        if !shaped {
            return None;
        }
        let t = Self(bytes);
        let (y, mo, d, h, mi, se) = t.fields();
        let ok = (1..=12).contains(&mo)
            && d >= 1
            && d <= days_in_month(y, mo)
            && h < 24
            && mi < 60
            && se < 60;
        ok.then_some(t)
    }

    /// The time `secs` seconds after 1970-01-01T00:00:00Z (years 0–9999).
    pub fn from_unix(secs: i64) -> Option<Self> {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        if !(0..=9999).contains(&y) {
            return None;
        }
        let s = format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
            rem / 3600,
            rem / 60 % 60,
            rem % 60
        );
        Self::parse(&s)
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    pub fn unix(&self) -> i64 {
        let (y, mo, d, h, mi, s) = self.fields();
        days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s
    }

    /// The 20 ASCII bytes.
    pub fn as_bytes(&self) -> &[u8; 20] {
        &self.0
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Only ASCII digits and separators are ever stored.
        std::str::from_utf8(&self.0).unwrap_or("")
    }

    fn fields(&self) -> (i64, i64, i64, i64, i64, i64) {
        let n = |a: usize, b: usize| {
            self.0[a..b]
                .iter()
                .fold(0i64, |acc, c| acc * 10 + i64::from(c - b'0'))
        };
        (n(0, 4), n(5, 7), n(8, 10), n(11, 13), n(14, 16), n(17, 19))
    }
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

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
/// algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        let t = Timestamp::parse("2025-12-01T23:59:59Z").expect("valid");
        assert_eq!(t.unix(), 1_764_633_599);
        assert_eq!(Timestamp::from_unix(1_764_633_599), Some(t));
        assert_eq!(
            Timestamp::from_unix(0).map(|t| t.to_string()).as_deref(),
            Some("1970-01-01T00:00:00Z")
        );
        assert!(Timestamp::parse("2024-02-29T00:00:00Z").is_some());
        for bad in [
            "2025-02-29T00:00:00Z",
            "2025-13-01T00:00:00Z",
            "2025-12-01T24:00:00Z",
            "2025-12-01T23:59:59.5Z",
            "2025-12-01 23:59:59Z",
            "2025-12-01T23:59:59+",
        ] {
            assert_eq!(Timestamp::parse(bad), None, "{bad}");
        }
    }
}
