//! Bounded CBOR reading and infallible writing shared by the structures.

use minicbor::data::Type;
use minicbor::Decoder;

use crate::error::DcApiError;

/// Longest text or byte string this crate reads (a DeviceRequest is a few
/// kilobytes; a ciphertext is bounded by the caller's body cap).
pub(crate) const MAX_STRING: usize = 1 << 24;

/// Writes into a `Vec`, which cannot fail: the error type is uninhabited.
pub(crate) fn ok<T>(r: Result<T, minicbor::encode::Error<std::convert::Infallible>>) {
    let _ = r;
}

/// A decoder that names the structure it reads in every error.
pub(crate) struct Reader<'b> {
    d: Decoder<'b>,
    what: &'static str,
}

impl<'b> Reader<'b> {
    pub(crate) fn new(bytes: &'b [u8], what: &'static str) -> Self {
        Self {
            d: Decoder::new(bytes),
            what,
        }
    }

    pub(crate) fn shape(&self, detail: impl Into<String>) -> DcApiError {
        DcApiError::Shape {
            what: self.what,
            detail: detail.into(),
        }
    }

    fn cbor(&self, e: minicbor::decode::Error) -> DcApiError {
        DcApiError::Cbor {
            what: self.what,
            detail: e.to_string(),
        }
    }

    pub(crate) fn datatype(&self) -> Result<Type, DcApiError> {
        self.d.datatype().map_err(|e| self.cbor(e))
    }

    /// A definite-length array of at most `limit` entries.
    pub(crate) fn array(&mut self, limit: usize) -> Result<usize, DcApiError> {
        if self.datatype()? != Type::Array {
            return Err(self.shape("expected a definite-length array"));
        }
        let n = self.d.array().map_err(|e| self.cbor(e))?.unwrap_or(0);
        self.count(n, limit)
    }

    /// A definite-length map of at most `limit` entries.
    pub(crate) fn map(&mut self, limit: usize) -> Result<usize, DcApiError> {
        if self.datatype()? != Type::Map {
            return Err(self.shape("expected a definite-length map"));
        }
        let n = self.d.map().map_err(|e| self.cbor(e))?.unwrap_or(0);
        self.count(n, limit)
    }

    fn count(&self, n: u64, limit: usize) -> Result<usize, DcApiError> {
        match usize::try_from(n) {
            Ok(n) if n <= limit => Ok(n),
            _ => Err(DcApiError::TooLarge {
                what: self.what,
                limit,
                found: n,
            }),
        }
    }

    /// A definite-length text string (borrowed).
    pub(crate) fn str(&mut self) -> Result<&'b str, DcApiError> {
        if self.datatype()? != Type::String {
            return Err(self.shape("expected a definite-length text string"));
        }
        let s = self.d.str().map_err(|e| self.cbor(e))?;
        self.count(s.len() as u64, MAX_STRING)?;
        Ok(s)
    }

    /// A definite-length byte string (borrowed).
    pub(crate) fn bytes(&mut self) -> Result<&'b [u8], DcApiError> {
        if self.datatype()? != Type::Bytes {
            return Err(self.shape("expected a definite-length byte string"));
        }
        let b = self.d.bytes().map_err(|e| self.cbor(e))?;
        self.count(b.len() as u64, MAX_STRING)?;
        Ok(b)
    }

    pub(crate) fn u64(&mut self) -> Result<u64, DcApiError> {
        match self.datatype()? {
            Type::U8 | Type::U16 | Type::U32 | Type::U64 => self.d.u64().map_err(|e| self.cbor(e)),
            _ => Err(self.shape("expected an unsigned integer")),
        }
    }

    /// An integer map label (COSE_Key).
    pub(crate) fn int(&mut self) -> Result<i64, DcApiError> {
        match self.datatype()? {
            Type::U8
            | Type::U16
            | Type::U32
            | Type::U64
            | Type::I8
            | Type::I16
            | Type::I32
            | Type::I64 => self.d.i64().map_err(|e| self.cbor(e)),
            _ => Err(self.shape("expected an integer label")),
        }
    }

    pub(crate) fn bool(&mut self) -> Result<bool, DcApiError> {
        if self.datatype()? != Type::Bool {
            return Err(self.shape("expected a boolean"));
        }
        self.d.bool().map_err(|e| self.cbor(e))
    }

    pub(crate) fn tag(&mut self) -> Result<u64, DcApiError> {
        if self.datatype()? != Type::Tag {
            return Err(self.shape("expected a tag"));
        }
        Ok(self.d.tag().map_err(|e| self.cbor(e))?.as_u64())
    }

    pub(crate) fn skip(&mut self) -> Result<(), DcApiError> {
        self.d.skip().map_err(|e| self.cbor(e))
    }

    /// No bytes may follow the single item.
    pub(crate) fn finish(&self) -> Result<(), DcApiError> {
        let rest = self.d.input().len().saturating_sub(self.d.position());
        if rest != 0 {
            return Err(DcApiError::TrailingBytes {
                what: self.what,
                count: rest,
            });
        }
        Ok(())
    }
}

/// Refuses a map key seen before (two readers could see two values).
pub(crate) fn once<'b>(
    seen: &mut Vec<&'b str>,
    r: &Reader<'_>,
    key: &'b str,
) -> Result<(), DcApiError> {
    if seen.contains(&key) {
        return Err(r.shape(format!("duplicate key `{key}`")));
    }
    seen.push(key);
    Ok(())
}
