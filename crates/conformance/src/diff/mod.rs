//! "First diverging component" of two proofs that should be byte-identical.
//!
//! Both sides are parsed with the structure-aware readers
//! ([`SumcheckProof::read`], [`LigeroProof::read`]; a ZK proof is
//! `root ‖ sumcheck ‖ Ligero`; an mdoc proof is six 16-byte MAC tags ‖ hash
//! circuit proof ‖ signature circuit proof) and walked in wire order, value
//! by value; the first value that differs is named. Comparing values rather
//! than bytes matters for the opened columns, whose run-length prefixes
//! shift when one value moves between the subfield and the full field: the
//! value is the cause, the prefix only its echo.
//!
//! When the actual side does not parse, the first differing byte is located
//! in the parsed expected side; when the expected side does not parse
//! either, the offset is placed by the geometry and the length prefixes alone.

mod component;
mod locate;
mod shape;

pub use component::{first_difference, Component, Divergence};
pub use shape::ZkShape;

use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_ligero::LigeroProof;
use longfellow_sumcheck::SumcheckProof;

use locate::{Hit, Locator};

/// A parsed value in wire order: (part, component, canonical bytes).
type Item = (Option<&'static str>, Component, Vec<u8>);

/// Number of MAC tags at the front of an mdoc proof.
pub const MDOC_MACS: usize = 6;
/// Bytes of one MAC tag.
pub const MAC_BYTES: usize = 16;

/// Name of the hash-circuit part of an mdoc proof in reports.
pub const HASH_PART: &str = "hash circuit";
/// Name of the signature-circuit part of an mdoc proof in reports.
pub const SIG_PART: &str = "sig circuit";

fn repr<F: Field>(e: &F) -> Vec<u8> {
    e.to_repr().as_ref().to_vec()
}

fn sumcheck_items<F: Field>(p: &SumcheckProof<F>, part: Option<&'static str>, out: &mut Vec<Item>) {
    for (layer, lp) in p.layers.iter().enumerate() {
        for (round, [h0, h1]) in lp.rounds.iter().enumerate() {
            let poly = |hand, point| Component::SumcheckPoly {
                layer,
                round,
                hand,
                point,
            };
            out.push((part, poly(0, 0), repr(&h0.p0)));
            out.push((part, poly(1, 0), repr(&h1.p0)));
            out.push((part, poly(0, 2), repr(&h0.p2)));
            out.push((part, poly(1, 2), repr(&h1.p2)));
        }
        for (hand, c) in lp.claims.iter().enumerate() {
            out.push((part, Component::SumcheckClaim { layer, hand }, repr(c)));
        }
    }
}

fn ligero_items<F: Field>(
    p: &LigeroProof<F>,
    nreq: usize,
    part: Option<&'static str>,
    out: &mut Vec<Item>,
) {
    type Named<'a, F> = (&'a [F], fn(usize) -> Component);
    let vecs: [Named<'_, F>; 4] = [
        (&p.y_ldt, Component::YLdt),
        (&p.y_dot, Component::YDot),
        (&p.y_quad_0, Component::YQuad0),
        (&p.y_quad_2, Component::YQuad2),
    ];
    for (v, name) in vecs {
        out.extend(v.iter().enumerate().map(|(i, e)| (part, name(i), repr(e))));
    }
    for (j, n) in p.nonces.iter().enumerate() {
        out.push((part, Component::Nonce(j), n.to_vec()));
    }
    let nreq = nreq.max(1);
    for (i, e) in p.columns.iter().enumerate() {
        let c = Component::Column {
            row: i / nreq,
            col: i % nreq,
        };
        out.push((part, c, repr(e)));
    }
    let count = (p.merkle_path.len() as u32).to_le_bytes().to_vec();
    out.push((part, Component::DigestCount, count));
    for (i, d) in p.merkle_path.iter().enumerate() {
        out.push((part, Component::Digest(i), d.to_vec()));
    }
}

/// Parses `root ‖ sumcheck ‖ Ligero` from the front of `bytes`.
fn zk_items<F: Field>(
    shape: &ZkShape,
    bytes: &mut &[u8],
    part: Option<&'static str>,
    out: &mut Vec<Item>,
) -> Option<()> {
    let root = bytes.get(..32)?;
    out.push((part, Component::Root, root.to_vec()));
    *bytes = &bytes[32..];
    let sc = SumcheckProof::<F>::read(&shape.layers(), bytes).ok()?;
    sumcheck_items(&sc, part, out);
    let lp = LigeroProof::<F>::read(&shape.ligero, bytes).ok()?;
    ligero_items(&lp, shape.ligero.nreq, part, out);
    Some(())
}

/// Compares value lists; `None` if they agree item for item.
fn first_item_difference(a: &[Item], b: &[Item]) -> Option<(Option<&'static str>, Component)> {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return Some((x.0, x.1.clone()));
        }
    }
    None
}

/// Shared driver: parse both sides with `parse`, compare values; else
/// locate the first differing byte with `walk` on the expected side.
fn diff_with(
    expected: &[u8],
    actual: &[u8],
    parse: impl Fn(&[u8]) -> Option<Vec<Item>>,
    walk: impl Fn(&mut Locator<'_>) -> Result<(), Hit>,
) -> Option<Divergence> {
    let offset = first_difference(expected, actual)?;
    let lengths = (expected.len(), actual.len());
    let exp_items = parse(expected);
    if let (Some(e), Some(a)) = (&exp_items, parse(actual)) {
        if let Some((part, component)) = first_item_difference(e, &a) {
            return Some(Divergence {
                part,
                component,
                offset,
                lengths,
                parsed: true,
            });
        }
    }
    let mut loc = Locator::new(expected, offset);
    let (part, component, walk_parsed) = match walk(&mut loc) {
        Err(hit) => hit,
        Ok(()) => loc.trailing(),
    };
    Some(Divergence {
        part,
        component,
        offset,
        lengths,
        parsed: exp_items.is_some() && walk_parsed,
    })
}

/// First diverging component of two one-circuit ZK proofs
/// (`root ‖ sumcheck ‖ Ligero`) over field `F`; `None` when identical.
pub fn diff_zk<F: Field>(shape: &ZkShape, expected: &[u8], actual: &[u8]) -> Option<Divergence> {
    diff_with(
        expected,
        actual,
        |b| {
            let mut rest = b;
            let mut out = Vec::new();
            zk_items::<F>(shape, &mut rest, None, &mut out)?;
            rest.is_empty().then_some(out)
        },
        |loc| loc.zk(shape),
    )
}

/// First diverging component of two sumcheck parts alone.
pub fn diff_sumcheck<F: Field>(
    shape: &ZkShape,
    expected: &[u8],
    actual: &[u8],
) -> Option<Divergence> {
    diff_with(
        expected,
        actual,
        |b| {
            let mut rest = b;
            let p = SumcheckProof::<F>::read(&shape.layers(), &mut rest).ok()?;
            let mut out = Vec::new();
            sumcheck_items(&p, None, &mut out);
            rest.is_empty().then_some(out)
        },
        |loc| loc.sumcheck(shape),
    )
}

/// First diverging component of two Ligero parts alone (no root).
pub fn diff_ligero<F: Field>(
    shape: &ZkShape,
    expected: &[u8],
    actual: &[u8],
) -> Option<Divergence> {
    diff_with(
        expected,
        actual,
        |b| {
            let p = LigeroProof::<F>::from_bytes(&shape.ligero, b).ok()?;
            let mut out = Vec::new();
            ligero_items(&p, shape.ligero.nreq, None, &mut out);
            Some(out)
        },
        |loc| loc.ligero(shape),
    )
}

/// Shapes of the two circuits of an mdoc proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MdocShape {
    /// Hash circuit (GF(2^128)).
    pub hash: ZkShape,
    /// Signature circuit (P-256 base field).
    pub sig: ZkShape,
}

fn mdoc_items(shape: &MdocShape, bytes: &[u8]) -> Option<Vec<Item>> {
    let macs = bytes.get(..MDOC_MACS * MAC_BYTES)?;
    let mut out: Vec<Item> = macs
        .chunks_exact(MAC_BYTES)
        .enumerate()
        .map(|(k, m)| (None, Component::Mac(k), m.to_vec()))
        .collect();
    let mut rest = &bytes[MDOC_MACS * MAC_BYTES..];
    zk_items::<Gf2_128>(&shape.hash, &mut rest, Some(HASH_PART), &mut out)?;
    zk_items::<Fp256>(&shape.sig, &mut rest, Some(SIG_PART), &mut out)?;
    rest.is_empty().then_some(out)
}

/// First diverging component of two mdoc proofs
/// (MACs ‖ hash-circuit proof ‖ signature-circuit proof).
pub fn diff_mdoc(shape: &MdocShape, expected: &[u8], actual: &[u8]) -> Option<Divergence> {
    diff_with(
        expected,
        actual,
        |b| mdoc_items(shape, b),
        |loc| {
            loc.macs(MDOC_MACS)?;
            loc.set_part(Some(HASH_PART));
            loc.zk(&shape.hash)?;
            loc.set_part(Some(SIG_PART));
            loc.zk(&shape.sig)
        },
    )
}

/// Offsets where the hash-circuit and signature-circuit proofs start in an
/// mdoc proof, found by parsing the hash part; `None` if it does not parse.
pub fn mdoc_part_offsets(shape: &MdocShape, bytes: &[u8]) -> Option<(usize, usize)> {
    let start = MDOC_MACS * MAC_BYTES;
    let mut rest = bytes.get(start..)?;
    let before = rest.len();
    let mut scratch = Vec::new();
    zk_items::<Gf2_128>(&shape.hash, &mut rest, None, &mut scratch)?;
    Some((start, start + before - rest.len()))
}
