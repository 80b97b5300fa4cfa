//! Hard limits applied while decoding untrusted circuit files.
//!
//! Every count read from a file is compared with one of these before it
//! influences an allocation or a loop bound. They are generous for every
//! circuit Google publishes (largest: the v7 four-attribute hash circuit)
//! yet keep a hostile file from requesting gigabytes.

/// Maximum wires on any side of a layer, circuit inputs and outputs
/// (the mdoc hash circuit has 85,118 inputs).
pub const MAX_WIRES: u64 = 1 << 22;
/// Maximum number of layers (the C++ reader's limit).
pub const MAX_LAYERS: u64 = 10_000;
/// Maximum number of distinct constants in one circuit.
pub const MAX_CONSTANTS: u64 = 1 << 20;
/// Maximum terms in one layer.
pub const MAX_TERMS_PER_LAYER: u64 = 1 << 25;
/// Maximum terms in a whole circuit (v7/1-attr hash circuit: 7,757,579).
pub const MAX_TOTAL_TERMS: u64 = 1 << 25;
/// Maximum entries of a layer's delta table, segment table or token list.
pub const MAX_TABLE: u64 = 1 << 24;
/// Maximum `logw` of a layer (the sumcheck binds at most 40 variables per hand).
pub const MAX_LOGW: u64 = 40;
/// Hard cap on the unpacked size of a compressed file that is not in the
/// catalog (the largest known, v7/4-attr LFC1, unpacks to 114,608,684 bytes).
/// Catalogued files must unpack to their exact recorded size instead.
pub const MAX_UNPACKED: u64 = 1 << 27;
/// Largest zstd window accepted (Google's files use 4 MiB); bounds the
/// decompressor's own buffer.
pub const MAX_ZSTD_WINDOW: u64 = 1 << 24;
/// Maximum length of a metadata string in an LFA2 header.
pub const MAX_LFA2_STRING: u64 = 1 << 16;
/// Maximum number of entries in an LFA2 archive.
pub const MAX_LFA2_ENTRIES: u64 = 64;
/// Maximum distinct term deltas in one layer. Google's circuits have at
/// most 45,497 (v7 four-attribute hash circuit); a layer of distinct terms
/// is a hostile file's way to grow the delta table and its index.
pub const MAX_DISTINCT_DELTAS: u64 = 1 << 18;
/// Maximum bytes of decoded tables per circuit: constants, delta tables,
/// segment tables and token lists, plus — while an LFC1 layer is being
/// compacted — an estimate of that layer's hash indices. Google's largest
/// circuit needs 4.8 MB (v7 four-attribute hash circuit, LFC1); the cap is
/// about 3.3 times that, so a file of a few kilobytes cannot make a phone
/// allocate hundreds of megabytes before its circuit ID is checked.
pub const MAX_TABLE_BYTES: u64 = 16 << 20;
