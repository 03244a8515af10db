//! The results chart: quarry ÷ peer for every arm, drawn as SVG by plotters.
//!
//! One bar per arm and peer at its geometric mean, on a log scale, with a line from the
//! lowest input to the highest, and 1.0 marked: a bar or a line that reaches left of the
//! mark is a loss.

use plotters::prelude::*;

use crate::page::Summary;

/// The chart's SVG text.
pub fn draw(summaries: &[Summary]) -> String {
    let mut svg = String::new();
    let rows = summaries.len().max(1);
    let height = 60 + 18 * rows as u32;
    {
        let root = SVGBackend::with_string(&mut svg, (900, height)).into_drawing_area();
        if let Err(e) = plot(&root, summaries) {
            eprintln!("chart: {e}");
        }
        let _ = root.present();
    }
    svg
}

/// Red for a loss (under 1.0), green for a win.
fn colour(ratio: f64) -> RGBColor {
    if ratio < 1.0 {
        RGBColor(200, 60, 50)
    } else {
        RGBColor(60, 140, 80)
    }
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn plot(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    summaries: &[Summary],
) -> DrawResult {
    root.fill(&WHITE)?;
    let rows = summaries.len();
    // The axis spans every lowest and highest input, with room on both sides.
    let low = summaries
        .iter()
        .map(|s| s.lowest().1)
        .fold(1.0f64, f64::min)
        .max(0.05)
        * 0.8;
    let high = summaries
        .iter()
        .map(Summary::highest)
        .fold(1.0f64, f64::max)
        .min(100.0)
        * 1.25;
    let label = |i: usize| {
        summaries
            .get(i)
            .map(|s| format!("{} {} vs {}", s.format, s.arm, s.peer))
            .unwrap_or_default()
    };
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .caption(
            "quarry ÷ peer (log scale; bar: geometric mean, line: lowest to highest input)",
            ("sans-serif", 16),
        )
        .x_label_area_size(28)
        .y_label_area_size(300)
        .build_cartesian_2d(
            (low..high).log_scale(),
            // A discrete range includes its end: `0..rows - 1` is `rows` segments.
            (0..rows.saturating_sub(1)).into_segmented(),
        )?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(rows)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) if *i < rows => label(rows - 1 - *i),
            _ => String::new(),
        })
        .x_labels(12)
        .x_label_formatter(&|x| format!("{x}x"))
        .label_style(("sans-serif", 12))
        .draw()?;
    // The first summary on top: row i is drawn at segment rows - 1 - i.
    let at = |i: usize| rows - 1 - i;
    chart.draw_series(summaries.iter().enumerate().map(|(i, s)| {
        let mean = s.mean();
        let mut bar = Rectangle::new(
            [
                (1.0, SegmentValue::Exact(at(i))),
                (mean, SegmentValue::Exact(at(i) + 1)),
            ],
            colour(mean).filled(),
        );
        bar.set_margin(3, 3, 0, 0);
        bar
    }))?;
    chart.draw_series(summaries.iter().enumerate().map(|(i, s)| {
        PathElement::new(
            vec![
                (s.lowest().1.max(low), SegmentValue::CenterOf(at(i))),
                (s.highest().min(high), SegmentValue::CenterOf(at(i))),
            ],
            BLACK.stroke_width(1),
        )
    }))?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![
            (1.0, SegmentValue::Exact(0)),
            (1.0, SegmentValue::Exact(rows)),
        ],
        BLACK.stroke_width(2),
    )))?;
    Ok(())
}
