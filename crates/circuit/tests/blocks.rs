//! `Blocks` hands every pushed item over once, in order, in blocks of the
//! requested size (never more than the expected count), the last one
//! possibly shorter, and nothing when nothing was pushed.

use longfellow_circuit::Blocks;
use proptest::prelude::*;

fn blocks_of(items: &[u32], block: usize, expected: usize) -> Vec<Vec<u32>> {
    let mut seen = Vec::new();
    let mut blocks = Blocks::new(block, expected, |b: &[u32]| seen.push(b.to_vec()));
    for &x in items {
        blocks.push(x);
    }
    blocks.finish();
    seen
}

#[test]
fn nothing_pushed_hands_nothing_over() {
    assert!(blocks_of(&[], 4, 0).is_empty());
    assert!(blocks_of(&[], 4, 10).is_empty());
}

#[test]
fn exact_multiple_has_no_short_block() {
    let items: Vec<u32> = (1..=8).collect();
    assert_eq!(
        blocks_of(&items, 4, 8),
        vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]
    );
}

#[test]
fn remainder_comes_last() {
    let items: Vec<u32> = (1..=5).collect();
    assert_eq!(
        blocks_of(&items, 2, 5),
        vec![vec![1, 2], vec![3, 4], vec![5]]
    );
}

proptest! {
    #[test]
    fn every_item_once_in_order(
        items in proptest::collection::vec(any::<u32>(), 0..600),
        block in 0usize..70,
        slack in 0usize..3,
    ) {
        // The callers pass the exact count; a larger one must not matter.
        let expected = items.len() + slack;
        let seen = blocks_of(&items, block, expected);
        let size = block.max(1).min(expected.max(1));
        prop_assert_eq!(seen.concat(), items.clone());
        if let Some((last, full)) = seen.split_last() {
            prop_assert!(full.iter().all(|b| b.len() == size));
            prop_assert!(!last.is_empty() && last.len() <= size);
        }
    }
}
