//! `bench --layers`: the wall time of each layer's evaluation, output
//! binding and rounds, per circuit, from the prover's layer steps.
//!
//! Only the wall clock is read per step: the CPU clock reads a file per
//! thread (tens of microseconds), which a hundred steps a proof would add
//! to the very phases being timed.

use std::collections::BTreeMap;
use std::time::Instant;

use longfellow_mdoc::CircuitKind;
use longfellow_mdoc_prover::{LayerStep, Phase};

use super::report::summarize;

/// What a step's time is charged to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    Evaluate,
    Bind,
    Rounds,
}

/// `(circuit: 0 hash, 1 signature; layer; part)`.
type Key = (u8, usize, Part);

/// One proof's layer times, in milliseconds.
pub type LayerTimes = BTreeMap<Key, f64>;

/// Charges the time between steps to the step that was running.
#[derive(Debug, Default)]
pub struct LayerClock {
    open: Option<(Key, Instant)>,
    times: LayerTimes,
}

fn key(circuit: CircuitKind, step: LayerStep) -> Option<Key> {
    let c = match circuit {
        CircuitKind::Hash => 0,
        CircuitKind::Signature => 1,
    };
    match step {
        LayerStep::Evaluate(l) => Some((c, l, Part::Evaluate)),
        LayerStep::BindOutputs(l) => Some((c, l, Part::Bind)),
        LayerStep::Rounds(l) => Some((c, l, Part::Rounds)),
        // The end of the evaluation, and steps a later prover may add.
        _ => None,
    }
}

impl LayerClock {
    /// Takes note of `p`, which any phase change or layer step ends the
    /// running step at.
    pub fn on(&mut self, p: Phase) {
        let now = Instant::now();
        if let Some((k, since)) = self.open.take() {
            *self.times.entry(k).or_default() += now.duration_since(since).as_secs_f64() * 1e3;
        }
        if let Phase::Layer { circuit, step } = p {
            self.open = key(circuit, step).map(|k| (k, now));
        }
    }

    /// The times so far (a proof ends with a phase change, which closed
    /// its last step).
    pub fn finish(self) -> LayerTimes {
        self.times
    }
}

/// The table of medians over `runs`: per circuit one line per layer.
pub fn table(runs: &[LayerTimes]) -> String {
    let mut keys: Vec<Key> = runs.iter().flat_map(|r| r.keys().copied()).collect();
    keys.sort();
    keys.dedup();
    let med = |k: &Key| {
        let v = runs.iter().map(|r| r.get(k).copied().unwrap_or(0.0));
        summarize(v).map_or(0.0, |s| s.median)
    };
    let mut out = String::from(
        "layer steps (wall ms, medians; evaluation from the inputs down, the sumcheck from layer 0 up)\n",
    );
    for (c, name) in [(0u8, "hash"), (1, "sig")] {
        let layers: Vec<usize> = {
            let mut l: Vec<usize> = keys.iter().filter(|k| k.0 == c).map(|k| k.1).collect();
            l.dedup();
            l
        };
        if layers.is_empty() {
            continue;
        }
        out += &format!(
            "{:<7} {:>5} {:>10} {:>10} {:>10} {:>10}\n",
            "circuit", "layer", "evaluate", "bind", "rounds", "total"
        );
        let mut sums = [0.0f64; 3];
        for l in layers {
            let parts = [Part::Evaluate, Part::Bind, Part::Rounds].map(|p| med(&(c, l, p)));
            for (s, p) in sums.iter_mut().zip(parts) {
                *s += p;
            }
            out += &format!(
                "{name:<7} {l:>5} {:>10.2} {:>10.2} {:>10.2} {:>10.2}\n",
                parts[0],
                parts[1],
                parts[2],
                parts.iter().sum::<f64>()
            );
        }
        out += &format!(
            "{name:<7} {:>5} {:>10.2} {:>10.2} {:>10.2} {:>10.2}\n",
            "all",
            sums[0],
            sums[1],
            sums[2],
            sums.iter().sum::<f64>()
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(circuit: CircuitKind, step: LayerStep) -> Phase {
        Phase::Layer { circuit, step }
    }

    /// Each step is charged until the next step or phase change, and the
    /// end of the evaluation charges nothing until the next step.
    #[test]
    fn steps_are_charged_until_the_next() {
        let mut clock = LayerClock::default();
        let wait = |ms| std::thread::sleep(std::time::Duration::from_millis(ms));
        clock.on(Phase::Sumcheck);
        clock.on(step(CircuitKind::Hash, LayerStep::Evaluate(1)));
        wait(20);
        clock.on(step(CircuitKind::Hash, LayerStep::Evaluated));
        wait(200);
        clock.on(step(CircuitKind::Hash, LayerStep::Rounds(0)));
        wait(20);
        clock.on(Phase::Ligero);
        wait(200);
        let t = clock.finish();
        assert_eq!(t.len(), 2, "{t:?}");
        let eval = t[&(0, 1, Part::Evaluate)];
        let rounds = t[&(0, 0, Part::Rounds)];
        // Sleeps last at least as long as asked; 220 ms or more would mean
        // the 200 ms gap after the step was charged to it (the margin is
        // for a loaded machine oversleeping).
        assert!((20.0..200.0).contains(&eval), "{eval}");
        assert!((20.0..200.0).contains(&rounds), "{rounds}");
    }

    #[test]
    fn table_has_a_line_per_layer_and_the_sums() {
        let mut a = LayerTimes::new();
        a.insert((0, 0, Part::Bind), 1.0);
        a.insert((0, 0, Part::Rounds), 2.0);
        a.insert((0, 1, Part::Evaluate), 4.0);
        let mut b = a.clone();
        b.insert((0, 1, Part::Evaluate), 6.0);
        let text = table(&[a.clone(), b, a]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        let cells = |i: usize| lines[i].split_whitespace().collect::<Vec<_>>();
        assert_eq!(cells(2), ["hash", "0", "0.00", "1.00", "2.00", "3.00"]);
        assert_eq!(cells(3), ["hash", "1", "4.00", "0.00", "0.00", "4.00"]);
        assert_eq!(cells(4), ["hash", "all", "4.00", "1.00", "2.00", "7.00"]);
    }
}
