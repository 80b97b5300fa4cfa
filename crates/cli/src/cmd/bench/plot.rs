//! PNG bar chart of the phase medians (plotters' pure-Rust bitmap backend):
//! per phase a wall-time bar and a CPU-time bar side by side, gaps between
//! them and between phases, each bar labelled with its value, and the
//! circuit and thread count in the title — so a chart read on its own says
//! what was measured.
//!
//! Labels need a TrueType font; plotters' `ab_glyph` path is pure Rust but
//! ships no font, so one is read from the usual system locations (or
//! `$LONGFELLOW_PLOT_FONT`). Without one the bars are drawn unlabelled.

use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

const FONT_PATHS: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
];

/// One phase's medians.
#[derive(Clone, Copy, Debug)]
pub struct Bar<'a> {
    pub phase: &'a str,
    pub wall_ms: f64,
    /// NaN where the CPU clock is unavailable (no bar is drawn).
    pub cpu_ms: f64,
}

/// Width of one bar in phase units; each phase spans one unit.
const BAR_WIDTH: f64 = 0.36;

/// The x extent of phase `i`'s wall bar (`cpu` false) or CPU bar: the pair
/// is centred in its unit with a gap between the two bars and gaps of
/// `1 − 2·BAR_WIDTH − gap` between neighbouring phases.
pub fn bar_extent(i: usize, cpu: bool) -> (f64, f64) {
    let gap = 0.06;
    let first = i as f64 + (1.0 - 2.0 * BAR_WIDTH - gap) / 2.0;
    let start = if cpu { first + BAR_WIDTH + gap } else { first };
    (start, start + BAR_WIDTH)
}

/// A bar's value label: whole milliseconds from 100 ms up, else one decimal.
pub fn value_label(ms: f64) -> String {
    if ms >= 100.0 {
        format!("{ms:.0}")
    } else {
        format!("{ms:.1}")
    }
}

/// Registers a system font as "sans-serif"; false if none was found.
fn register_system_font() -> bool {
    let env = std::env::var("LONGFELLOW_PLOT_FONT").ok();
    let candidates = env.iter().map(String::as_str).chain(FONT_PATHS);
    for path in candidates {
        if let Ok(bytes) = std::fs::read(path) {
            // plotters keeps fonts for the life of the process.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return true;
            }
        }
    }
    false
}

const WALL: RGBColor = RGBColor(0x3b, 0x6e, 0xa8);
const CPU: RGBColor = RGBColor(0xe0, 0x8a, 0x2c);

/// Draws the chart into `path`.
pub fn bar_chart(path: &std::path::Path, title: &str, bars: &[Bar<'_>]) -> Result<(), String> {
    let e = |e: &dyn std::fmt::Display| e.to_string();
    let labelled = register_system_font();
    let top = bars
        .iter()
        .flat_map(|b| [b.wall_ms, b.cpu_ms])
        .filter(|v| v.is_finite())
        .fold(1.0, f64::max)
        * 1.15;
    // Room below zero for the phase names, inside the plotting area.
    let bottom = if labelled { -0.07 * top } else { 0.0 };
    let root = BitMapBackend::new(path, (1000, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let mut builder = ChartBuilder::on(&root);
    builder.margin(20);
    if labelled {
        builder
            .caption(title, ("sans-serif", 20))
            .y_label_area_size(60);
    }
    let n = bars.len() as f64;
    let mut chart = builder
        .build_cartesian_2d(0f64..n, bottom..top)
        .map_err(|x| e(&x))?;
    if labelled {
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_desc("median ms")
            .draw()
            .map_err(|x| e(&x))?;
    }
    for (cpu, color, name) in [
        (false, WALL, "wall time"),
        (true, CPU, "CPU time (all threads)"),
    ] {
        let rects = bars.iter().enumerate().filter_map(move |(i, b)| {
            let ms = if cpu { b.cpu_ms } else { b.wall_ms };
            let (x0, x1) = bar_extent(i, cpu);
            ms.is_finite()
                .then(|| Rectangle::new([(x0, 0.0), (x1, ms)], color.filled()))
        });
        let series = chart.draw_series(rects).map_err(|x| e(&x))?;
        if labelled {
            series.label(name).legend(move |(x, y)| {
                Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled())
            });
        }
    }
    if labelled {
        let values = bars.iter().enumerate().flat_map(|(i, b)| {
            [(false, b.wall_ms), (true, b.cpu_ms)]
                .into_iter()
                .filter(|(_, ms)| ms.is_finite())
                .map(move |(cpu, ms)| {
                    let (x0, _) = bar_extent(i, cpu);
                    Text::new(value_label(ms), (x0, ms + 0.035 * top), ("sans-serif", 12))
                })
        });
        chart.draw_series(values).map_err(|x| e(&x))?;
        let names = bars.iter().enumerate().map(|(i, b)| {
            let (x0, _) = bar_extent(i, false);
            Text::new(b.phase.to_string(), (x0, 0.3 * bottom), ("sans-serif", 14))
        });
        chart.draw_series(names).map_err(|x| e(&x))?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|x| e(&x))?;
    }
    root.present().map_err(|x| e(&x))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_leave_gaps_between_each_other_and_between_phases() {
        for i in 0..8 {
            let wall = bar_extent(i, false);
            let cpu = bar_extent(i, true);
            let next = bar_extent(i + 1, false);
            assert!(wall.0 > i as f64 && wall.1 < cpu.0, "{wall:?} {cpu:?}");
            assert!(cpu.1 < (i + 1) as f64 && cpu.1 < next.0, "{cpu:?} {next:?}");
        }
    }

    #[test]
    fn value_labels_round_by_size() {
        assert_eq!(value_label(1234.56), "1235");
        assert_eq!(value_label(12.34), "12.3");
    }
}
