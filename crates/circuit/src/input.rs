//! A small buffered reader over any byte source, with typed errors.
//!
//! All decoders read through this so that the same code serves an in-memory
//! slice and a zstd stream: an LFC1 pair unpacks to ~100 MB, and reading it
//! straight from the decompressor means that size never exists in memory.

use std::io::Read;

use crate::error::CircuitError;

const BUF_LEN: usize = 1 << 16;

/// Buffered reader that counts its offset and enforces a total-size limit.
pub(crate) struct Input<'a> {
    src: &'a mut dyn Read,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    /// Stream offset of `buf[0]`.
    base: u64,
    /// Total bytes pulled from `src` so far.
    pulled: u64,
    /// Maximum bytes the source may produce.
    limit: u64,
    eof: bool,
}

impl<'a> Input<'a> {
    /// Reads from `src`, failing once it produces more than `limit` bytes.
    pub(crate) fn new(src: &'a mut dyn Read, limit: u64) -> Self {
        Self {
            src,
            buf: vec![0u8; BUF_LEN].into_boxed_slice(),
            pos: 0,
            end: 0,
            base: 0,
            pulled: 0,
            limit,
            eof: false,
        }
    }

    /// Offset of the next unread byte in the stream.
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Total bytes produced by the source so far.
    pub(crate) fn pulled(&self) -> u64 {
        self.pulled
    }

    /// Makes at least `n` (≤ buffer size) bytes available; `false` at end of input.
    fn ensure(&mut self, n: usize) -> Result<bool, CircuitError> {
        debug_assert!(n <= BUF_LEN);
        if self.end - self.pos >= n {
            return Ok(true);
        }
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            self.pos = 0;
        }
        while self.end < n && !self.eof {
            let got = loop {
                match self.src.read(&mut self.buf[self.end..]) {
                    Ok(k) => break k,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(decoder_error(&e)),
                }
            };
            if got == 0 {
                self.eof = true;
            }
            self.pulled += got as u64;
            if self.pulled > self.limit {
                return Err(CircuitError::TooLarge {
                    what: "unpacked size",
                    value: self.pulled,
                    limit: self.limit,
                });
            }
            self.end += got;
        }
        Ok(self.end - self.pos >= n)
    }

    fn truncated(&self, what: &'static str) -> CircuitError {
        CircuitError::Truncated {
            offset: self.offset(),
            what,
        }
    }

    /// The next `N` bytes.
    #[inline]
    pub(crate) fn array<const N: usize>(
        &mut self,
        what: &'static str,
    ) -> Result<[u8; N], CircuitError> {
        if self.end - self.pos < N && !self.ensure(N)? {
            return Err(self.truncated(what));
        }
        let mut out = [0u8; N];
        out.copy_from_slice(&self.buf[self.pos..self.pos + N]);
        self.pos += N;
        Ok(out)
    }

    /// Up to `max` (at least one) whole `N`-byte records, read in place
    /// from the buffer and consumed; refills the buffer first when it holds
    /// less than one record. For decoders of fixed-size records (LFC1's
    /// terms): each record is read where it lies instead of being copied
    /// out one at a time, whose small stores and wider reloads stalled.
    #[inline]
    pub(crate) fn records<const N: usize>(
        &mut self,
        max: usize,
        what: &'static str,
    ) -> Result<&[[u8; N]], CircuitError> {
        const { assert!(N > 0 && N <= BUF_LEN) };
        if self.end - self.pos < N && !self.ensure(N)? {
            return Err(self.truncated(what));
        }
        let whole = ((self.end - self.pos) / N).min(max.max(1));
        let start = self.pos;
        self.pos += whole * N;
        let (records, _) = self.buf[start..start + whole * N].as_chunks::<N>();
        Ok(records)
    }

    /// Fills `out` from the input.
    pub(crate) fn fill(&mut self, out: &mut [u8], what: &'static str) -> Result<(), CircuitError> {
        let mut done = 0;
        while done < out.len() {
            if self.pos == self.end && !self.ensure(1)? {
                return Err(self.truncated(what));
            }
            let k = (self.end - self.pos).min(out.len() - done);
            out[done..done + k].copy_from_slice(&self.buf[self.pos..self.pos + k]);
            self.pos += k;
            done += k;
        }
        Ok(())
    }

    /// The next byte.
    #[inline]
    pub(crate) fn u8(&mut self, what: &'static str) -> Result<u8, CircuitError> {
        Ok(self.array::<1>(what)?[0])
    }

    /// A 3-byte little-endian number (LFC1's size type).
    #[inline]
    pub(crate) fn u24(&mut self, what: &'static str) -> Result<u32, CircuitError> {
        let b = self.array::<3>(what)?;
        Ok(u32::from(b[0]) | (u32::from(b[1]) << 8) | (u32::from(b[2]) << 16))
    }

    /// An unsigned LEB128 number of at most `max_bytes` bytes, minimally
    /// encoded (a multi-byte number may not end in a zero byte).
    pub(crate) fn uleb(&mut self, max_bytes: u32, what: &'static str) -> Result<u64, CircuitError> {
        let start = self.offset();
        let mut value = 0u64;
        for i in 0..max_bytes {
            let b = self.u8(what)?;
            if i == 9 && b > 1 {
                return Err(CircuitError::BadVarint {
                    offset: start,
                    why: "exceeds 64 bits",
                });
            }
            value |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                if b == 0 && i > 0 {
                    return Err(CircuitError::BadVarint {
                        offset: start,
                        why: "not minimally encoded",
                    });
                }
                return Ok(value);
            }
        }
        Err(CircuitError::BadVarint {
            offset: start,
            why: "too many bytes",
        })
    }

    /// LFC2's number type: ULEB128 of at most 4 bytes (28-bit payload).
    #[inline]
    pub(crate) fn uleb28(&mut self, what: &'static str) -> Result<u32, CircuitError> {
        if self.end - self.pos >= 1 {
            let b = self.buf[self.pos];
            if b < 0x80 {
                self.pos += 1;
                return Ok(u32::from(b));
            }
        }
        // Lossless: at most 28 payload bits.
        Ok(self.uleb(4, what)? as u32)
    }

    /// The next `n` (≤ 64 KiB) bytes without consuming them; fewer at the end.
    pub(crate) fn peek(&mut self, n: usize) -> Result<&[u8], CircuitError> {
        self.ensure(n)?;
        let k = (self.end - self.pos).min(n);
        Ok(&self.buf[self.pos..self.pos + k])
    }

    /// Reads to the end of the input and returns how many bytes were left.
    pub(crate) fn drain(&mut self) -> Result<u64, CircuitError> {
        let mut n = 0u64;
        while self.ensure(1)? {
            n += (self.end - self.pos) as u64;
            self.pos = self.end;
        }
        Ok(n)
    }
}

/// A readable message for a decoder failure. The zstd decoder reports a
/// frame that stops early as a nested Debug dump of its internal error
/// (`FailedToReadBlockHeader(ReadError(Error { kind: UnexpectedEof, .. }))`):
/// that is a truncated file, and is said so.
fn decoder_error(e: &std::io::Error) -> CircuitError {
    let text = e.to_string();
    if e.kind() == std::io::ErrorKind::UnexpectedEof
        || text.contains("UnexpectedEof")
        || text.contains("failed to fill whole buffer")
    {
        return CircuitError::Zstd(
            "truncated: the compressed data ends before its frame does (incomplete download or copy?)"
                .into(),
        );
    }
    // Otherwise the outermost name of the error, without the dump.
    let head: String = text
        .split(['(', '{'])
        .next()
        .unwrap_or_default()
        .trim()
        .chars()
        .take(120)
        .collect();
    CircuitError::Zstd(format!("corrupt compressed data ({head})"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Hands out `data` a few bytes per read, as a decompressor may.
    struct Dribble<'a>(&'a [u8]);

    impl Read for Dribble<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let k = out.len().min(self.0.len()).min(5);
            out[..k].copy_from_slice(&self.0[..k]);
            self.0 = &self.0[k..];
            Ok(k)
        }
    }

    #[test]
    fn records_come_whole_in_order_across_refills_and_stop_at_max() {
        // More than two buffers of 12-byte records, and 7 bytes after them.
        let n = 2 * BUF_LEN / 12 + 100;
        let data: Vec<u8> = (0..n * 12 + 7).map(|i| (i % 253) as u8).collect();
        let mut src = Dribble(&data);
        let mut inp = Input::new(&mut src, u64::MAX);
        let mut got = Vec::new();
        let mut left = n;
        while left > 0 {
            let records = inp.records::<12>(left.min(1000), "record").unwrap();
            assert!(!records.is_empty() && records.len() <= left.min(1000));
            left -= records.len();
            got.extend(records.iter().flatten().copied());
        }
        assert_eq!(got, data[..n * 12]);
        assert_eq!(inp.offset(), (n * 12) as u64);
        // The tail is shorter than a record: truncated, where it starts.
        match inp.records::<12>(1, "record") {
            Err(CircuitError::Truncated { offset, what }) => {
                assert_eq!((offset, what), ((n * 12) as u64, "record"));
            }
            other => panic!("{other:?}"),
        }
    }
}
