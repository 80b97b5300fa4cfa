//! zstd frames around circuit files, decoded as a stream (pure Rust, ruzstd).
//!
//! The frame header is parsed here first so that the declared content size
//! and window size are checked against the catalog or the hard caps before
//! the decompressor allocates anything.

use std::io::Read;

use ruzstd::decoding::StreamingDecoder;

use crate::error::CircuitError;
use crate::input::Input;
use crate::limits::MAX_ZSTD_WINDOW;

/// zstd frame magic number (little-endian 0xFD2FB528).
pub(crate) const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// What a zstd frame header declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FrameInfo {
    /// Declared decompressed size, if the frame records it.
    pub(crate) content_size: Option<u64>,
    /// Window size the decoder must keep.
    pub(crate) window: u64,
}

fn short() -> CircuitError {
    CircuitError::Truncated {
        offset: 0,
        what: "zstd frame header",
    }
}

/// Parses the header of the zstd frame at the start of `bytes`.
pub(crate) fn frame_info(bytes: &[u8]) -> Result<FrameInfo, CircuitError> {
    if bytes.get(..4) != Some(&ZSTD_MAGIC[..]) {
        return Err(CircuitError::BadMagic {
            first: bytes.iter().take(4).copied().collect(),
        });
    }
    let desc = *bytes.get(4).ok_or_else(short)?;
    if desc & 0x08 != 0 {
        return Err(CircuitError::Zstd("reserved frame header bit set".into()));
    }
    if desc & 0x03 != 0 {
        return Err(CircuitError::Zstd("dictionaries are not supported".into()));
    }
    let single_segment = desc & 0x20 != 0;
    let mut pos = 5;
    let mut window = 0u64;
    if !single_segment {
        let wd = *bytes.get(pos).ok_or_else(short)?;
        pos += 1;
        let log = 10 + u32::from(wd >> 3);
        let base = 1u64 << log;
        window = base + (base / 8) * u64::from(wd & 7);
    }
    let fcs_len = match desc >> 6 {
        0 if single_segment => 1,
        0 => 0,
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let field = bytes.get(pos..pos + fcs_len).ok_or_else(short)?;
    let mut content_size = None;
    if fcs_len > 0 {
        let mut v = 0u64;
        for (i, &b) in field.iter().enumerate() {
            v |= u64::from(b) << (8 * i);
        }
        if fcs_len == 2 {
            v += 256;
        }
        content_size = Some(v);
    }
    if single_segment {
        window = content_size.unwrap_or(0);
    }
    if window > MAX_ZSTD_WINDOW {
        return Err(CircuitError::TooLarge {
            what: "zstd window",
            value: window,
            limit: MAX_ZSTD_WINDOW,
        });
    }
    Ok(FrameInfo {
        content_size,
        window,
    })
}

/// Decompresses the single zstd frame `bytes` as a stream into `body`.
///
/// The unpacked data may not exceed `limit` bytes; if `exact` is given (a
/// catalogued file) it must be exactly that long, and a declared content
/// size must agree with it before decoding starts. `body` must consume the
/// whole unpacked stream; nothing may follow the frame.
pub(crate) fn decode_stream<T>(
    bytes: &[u8],
    limit: u64,
    exact: Option<u64>,
    body: impl FnOnce(&mut Input<'_>) -> Result<T, CircuitError>,
) -> Result<(T, u64), CircuitError> {
    let info = frame_info(bytes)?;
    let mut limit = limit;
    if let Some(expected) = exact {
        if let Some(declared) = info.content_size {
            if declared != expected {
                return Err(CircuitError::UnpackedSizeMismatch {
                    expected,
                    found: declared,
                });
            }
        }
        limit = limit.min(expected);
    }
    if let Some(declared) = info.content_size {
        if declared > limit {
            return Err(CircuitError::TooLarge {
                what: "declared unpacked size",
                value: declared,
                limit,
            });
        }
        limit = declared;
    }

    let mut src = bytes;
    let mut dec = StreamingDecoder::new(&mut src).map_err(|e| CircuitError::Zstd(e.to_string()))?;
    let (value, produced) = {
        let reader: &mut dyn Read = &mut dec;
        let mut inp = Input::new(reader, limit);
        let value = body(&mut inp)?;
        let extra = inp.drain()?;
        if extra > 0 {
            return Err(CircuitError::TrailingBytes {
                what: "circuit data",
                count: extra,
            });
        }
        (value, inp.pulled())
    };
    if let Some(from_data) = dec.decoder.get_checksum_from_data() {
        if dec.decoder.get_calculated_checksum() != Some(from_data) {
            return Err(CircuitError::Zstd("content checksum mismatch".into()));
        }
    }
    drop(dec);
    if !src.is_empty() {
        return Err(CircuitError::TrailingBytes {
            what: "zstd frame",
            count: src.len() as u64,
        });
    }
    let expected = exact.or(info.content_size);
    if let Some(expected) = expected {
        if produced != expected {
            return Err(CircuitError::UnpackedSizeMismatch {
                expected,
                found: produced,
            });
        }
    }
    Ok((value, produced))
}

/// Whether `bytes` starts with a zstd frame.
pub(crate) fn is_zstd(bytes: &[u8]) -> bool {
    bytes.starts_with(&ZSTD_MAGIC)
}

#[cfg(test)]
mod tests {
    use super::*;

    const V7_1: &str =
        "google/mdoc/circuits/8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";

    #[test]
    fn frame_header_of_google_pair_declares_the_lfc1_size() {
        longfellow_testvectors::require!();
        // 98,932,952 bytes: the v7/1-attr LFC1 pair size the map records.
        let info = frame_info(&longfellow_testvectors::read(V7_1)).expect("header");
        assert_eq!(info.content_size, Some(98_932_952));
        assert_eq!(info.window, 4 << 20);
        // The .lfa1 and .lfa2 frames declare no size.
        let lfa1 = longfellow_testvectors::read(&format!("{V7_1}.lfa1"));
        assert_eq!(frame_info(&lfa1).expect("header").content_size, None);
    }

    #[test]
    fn expected_size_is_checked_before_decoding() {
        longfellow_testvectors::require!();
        let bytes = longfellow_testvectors::read(V7_1);
        let mut called = false;
        let r = decode_stream(&bytes, u64::MAX, Some(98_932_951), |_| {
            called = true;
            Ok(())
        });
        assert_eq!(
            r.err(),
            Some(CircuitError::UnpackedSizeMismatch {
                expected: 98_932_951,
                found: 98_932_952
            })
        );
        assert!(!called);
        // A declared size above the cap is refused the same way.
        let r = decode_stream(&bytes, 1 << 20, None, |_| Ok(()));
        assert!(matches!(r, Err(CircuitError::TooLarge { .. })));
    }

    #[test]
    fn undeclared_size_is_capped_while_streaming() {
        longfellow_testvectors::require!();
        let bytes = longfellow_testvectors::read(&format!("{V7_1}.lfa1"));
        let r: Result<((), u64), _> = decode_stream(&bytes, 1 << 20, None, |inp| {
            let mut sink = vec![0u8; 1 << 16];
            loop {
                inp.fill(&mut sink, "data")?;
            }
        });
        assert!(matches!(r, Err(CircuitError::TooLarge { value, .. }) if value > 1 << 20));
    }
}
