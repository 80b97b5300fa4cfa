//! Names of the pieces a proof is made of, in the words a person debugging a
//! byte mismatch wants to read ("sumcheck layer 3, round 5, hand 1").

use std::fmt;

/// One wire-level piece of a Longfellow proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Component {
    /// One of the six 16-byte MAC tags at the front of an mdoc proof.
    Mac(usize),
    /// The Ligero commitment root.
    Root,
    /// A padded round polynomial value (`point` 0 or 2) of a sumcheck hand.
    SumcheckPoly {
        /// Layer, output layer first.
        layer: usize,
        /// Round within the layer.
        round: usize,
        /// Hand 0 or 1.
        hand: usize,
        /// Evaluation point: 0 or 2 (P2).
        point: u8,
    },
    /// A padded claim on a layer's inputs at the end of the layer.
    SumcheckClaim {
        /// Layer.
        layer: usize,
        /// Hand 0 or 1.
        hand: usize,
    },
    /// Ligero low-degree response value.
    YLdt(usize),
    /// Ligero linear response value.
    YDot(usize),
    /// Ligero quadratic response, first part.
    YQuad0(usize),
    /// Ligero quadratic response, last part.
    YQuad2(usize),
    /// Nonce of the `j`-th opened column.
    Nonce(usize),
    /// Length prefix of the `k`-th run of opened values.
    RunLength(usize),
    /// Opened value: tableau row `row` of the `col`-th opened column.
    Column {
        /// Tableau row.
        row: usize,
        /// Opened column, in challenge order.
        col: usize,
    },
    /// Number of Merkle digests.
    DigestCount,
    /// A Merkle digest of the batch opening.
    Digest(usize),
    /// A transcript round (transcript vector).
    TranscriptRound(usize),
    /// An input wire of a witness file.
    Input {
        /// Index of the input.
        index: usize,
        /// Whether it is a public input.
        public: bool,
    },
    /// Part of a section the walker could not split further (the expected
    /// bytes do not parse there).
    Section(&'static str),
    /// Bytes past the end of the expected proof.
    Trailing,
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Mac(k) => write!(f, "MAC tag {k}"),
            Self::Root => write!(f, "commitment root"),
            Self::SumcheckPoly {
                layer,
                round,
                hand,
                point,
            } => write!(
                f,
                "sumcheck layer {layer}, round {round}, hand {hand} (p{point})"
            ),
            Self::SumcheckClaim { layer, hand } => {
                write!(f, "sumcheck layer {layer}, claim of hand {hand}")
            }
            Self::YLdt(i) => write!(f, "Ligero y_ldt[{i}]"),
            Self::YDot(i) => write!(f, "Ligero y_dot[{i}]"),
            Self::YQuad0(i) => write!(f, "Ligero y_quad_0[{i}]"),
            Self::YQuad2(i) => write!(f, "Ligero y_quad_2[{i}]"),
            Self::Nonce(j) => write!(f, "Ligero nonce of opened column {j}"),
            Self::RunLength(k) => write!(f, "Ligero opened values: length of run {k}"),
            Self::Column { row, col } => {
                write!(f, "Ligero opened column {col}, row {row}")
            }
            Self::DigestCount => write!(f, "Merkle digest count"),
            Self::Digest(i) => write!(f, "Merkle digest {i}"),
            Self::TranscriptRound(i) => write!(f, "transcript round {i}: challenge bytes"),
            Self::Input { index, public } => write!(
                f,
                "input {index} ({})",
                if *public { "public" } else { "private" }
            ),
            Self::Section(s) => write!(f, "{s} (not parsed further)"),
            Self::Trailing => write!(f, "bytes after the end of the expected proof"),
        }
    }
}

/// Where the first difference lies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Which proof of several, e.g. "hash circuit"; `None` for a single part.
    pub part: Option<&'static str>,
    /// The first component whose bytes differ.
    pub component: Component,
    /// First differing byte offset in the expected bytes (or the shorter
    /// length when one is a prefix of the other).
    pub offset: usize,
    /// Lengths (expected, actual).
    pub lengths: (usize, usize),
    /// Whether the expected bytes parsed as a proof; when they did not, the
    /// component is located from the geometry alone.
    pub parsed: bool,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.part {
            write!(f, "{p}: ")?;
        }
        write!(f, "{} (byte {}", self.component, self.offset)?;
        if self.lengths.0 != self.lengths.1 {
            write!(
                f,
                "; lengths {} expected, {} actual",
                self.lengths.0, self.lengths.1
            )?;
        }
        if !self.parsed {
            write!(f, "; expected bytes do not parse, located by geometry")?;
        }
        write!(f, ")")
    }
}

/// First differing byte offset, or the shorter length when one input is a
/// prefix of the other; `None` when equal.
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => Some(i),
        None if a.len() == b.len() => None,
        None => Some(a.len().min(b.len())),
    }
}
