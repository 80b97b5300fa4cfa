//! PNG bar chart of the phase medians (plotters' pure-Rust bitmap backend).
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

/// Draws one bar per `(phase, wall median ms)` into `path`.
pub fn bar_chart(path: &std::path::Path, title: &str, bars: &[(&str, f64)]) -> Result<(), String> {
    let labelled = register_system_font();
    let top = bars.iter().map(|b| b.1).fold(1.0, f64::max) * 1.1;
    let root = BitMapBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut builder = ChartBuilder::on(&root);
    builder.margin(20);
    if labelled {
        builder
            .caption(title, ("sans-serif", 22))
            .x_label_area_size(40)
            .y_label_area_size(60);
    }
    let n = bars.len() as u32;
    let mut chart = builder
        .build_cartesian_2d((0u32..n).into_segmented(), 0f64..top)
        .map_err(|e| e.to_string())?;
    if labelled {
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_desc("median wall ms")
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => bars
                    .get(*i as usize)
                    .map(|b| b.0.to_string())
                    .unwrap_or_default(),
                _ => String::new(),
            })
            .draw()
            .map_err(|e| e.to_string())?;
    }
    chart
        .draw_series(bars.iter().enumerate().map(|(i, (_, ms))| {
            let i = i as u32;
            let color = Palette99::pick(i as usize).filled();
            Rectangle::new(
                [
                    (SegmentValue::Exact(i), 0.0),
                    (SegmentValue::Exact(i + 1), *ms),
                ],
                color,
            )
        }))
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}
