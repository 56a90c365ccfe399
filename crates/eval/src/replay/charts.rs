//! SVG charts drawn with `plotters` (SVG backend, no system fonts): the
//! anatomy of each compacted request, reduction per compaction per condition
//! and constraint presence at each action on a timeline.

use std::path::{Path, PathBuf};

use super::{ReplayError, Result};
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::ranged1d::{SegmentValue, SegmentedCoord};
use plotters::coord::types::{RangedCoordf64, RangedCoordusize};
use plotters::prelude::*;

use super::engine::{CheckKind, RunResult, Scope};
use super::Replay;

/// A chart with a number across and one segmented row per label down.
type Rows<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, SegmentedCoord<RangedCoordusize>>>;

/// A session's colour in the reduction chart.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

const SEGMENTS: [(&str, RGBColor); 6] = [
    ("fixed overhead", RGBColor(150, 150, 150)),
    ("kernel", RGBColor(214, 39, 40)),
    ("pinned evidence", RGBColor(31, 119, 180)),
    ("continuity framing", RGBColor(158, 202, 225)),
    ("summary", RGBColor(255, 127, 14)),
    ("recent tail", RGBColor(44, 160, 44)),
];

fn err<E: std::fmt::Display>(e: E) -> ReplayError {
    ReplayError::Chart(e.to_string())
}

/// The label of row `v`: rows run top to bottom in `labels` order.
fn row_label(labels: &[String], v: &SegmentValue<usize>) -> String {
    match v {
        SegmentValue::CenterOf(i) => labels
            .get(labels.len().wrapping_sub(1).wrapping_sub(*i))
            .cloned()
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// The legend box, the same on every chart.
fn legend<'a, 'b: 'a>(chart: &mut Rows<'a, 'b>, position: SeriesLabelPosition) -> Result<()> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    Ok(())
}

/// A file-name-safe form of a session name.
fn slug(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

pub fn write_all(replay: &Replay, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let p = dir.join("reduction.svg");
    if reduction(replay, &p)? {
        out.push(p);
    }
    for s in &replay.sessions {
        let p = dir.join(format!("anatomy-{}.svg", slug(&s.name)));
        if anatomy(replay, &s.name, &p)? {
            out.push(p);
        }
        let p = dir.join(format!("timeline-{}.svg", slug(&s.name)));
        if timeline(replay, &s.name, &p)? {
            out.push(p);
        }
    }
    Ok(out)
}

/// Stacked bars, one per compaction of one session under each condition.
pub fn anatomy(replay: &Replay, session: &str, path: &Path) -> Result<bool> {
    let bars = anatomy_bars(replay, session);
    if bars.is_empty() {
        return Ok(false);
    }
    let max = bars
        .iter()
        .map(|b| b.1.iter().sum::<usize>())
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * 1.08;
    let n = bars.len();
    let height = 120 + 26 * n as u32;
    let root = SVGBackend::new(path, (980, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{session}: anatomy of each compacted request (tokens)"),
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(330)
        .build_cartesian_2d(0f64..max, (0..n).into_segmented())
        .map_err(err)?;
    let labels: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n)
        .y_label_formatter(&|v| row_label(&labels, v))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_desc("tokens (record's units)")
        .draw()
        .map_err(err)?;
    draw_segments(&mut chart, &bars)?;
    legend(&mut chart, SeriesLabelPosition::LowerRight)?;
    root.present().map_err(err)?;
    Ok(true)
}

/// One bar per compaction of `session`, under each condition: a label and
/// the tokens of each segment.
fn anatomy_bars(replay: &Replay, session: &str) -> Vec<(String, [usize; 6])> {
    let mut bars = Vec::new();
    for c in &replay.conditions {
        let Some(r) = replay.run_under(session, c) else {
            continue;
        };
        for m in &r.compactions {
            bars.push((
                format!("{} #{} (req {})", c.label(), m.seq, m.step),
                [m.fixed, m.kernel, m.pinned, m.framing, m.summary, m.tail],
            ));
        }
    }
    bars
}

/// Each segment of every bar, stacked left to right, with its legend entry.
fn draw_segments(chart: &mut Rows<'_, '_>, bars: &[(String, [usize; 6])]) -> Result<()> {
    let n = bars.len();
    for (k, (name, color)) in SEGMENTS.iter().enumerate() {
        let rects: Vec<Rectangle<(f64, SegmentValue<usize>)>> = bars
            .iter()
            .enumerate()
            .filter(|(_, b)| b.1[k] > 0)
            .map(|(i, b)| {
                let i = n - 1 - i;
                let x0: usize = b.1[..k].iter().sum();
                let x1 = x0 + b.1[k];
                Rectangle::new(
                    [
                        (x0 as f64, SegmentValue::Exact(i)),
                        (x1 as f64, SegmentValue::Exact(i + 1)),
                    ],
                    color.filled(),
                )
            })
            .collect();
        let c = *color;
        chart
            .draw_series(rects)
            .map_err(err)?
            .label(*name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], c.filled()));
    }
    Ok(())
}

/// Reduction of every compaction, one row per condition.
pub fn reduction(replay: &Replay, path: &Path) -> Result<bool> {
    let n = replay.conditions.len();
    if n == 0 || replay.runs.iter().all(|r| r.compactions.is_empty()) {
        return Ok(false);
    }
    let labels: Vec<String> = replay.conditions.iter().map(|c| c.label()).collect();
    let root = SVGBackend::new(path, (900, 120 + 28 * n as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Reduction per compaction, per condition (%)",
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(290)
        .build_cartesian_2d(0f64..100f64, (0..n).into_segmented())
        .map_err(err)?;
    chart
        .configure_mesh()
        .y_labels(n)
        .y_label_formatter(&|v| row_label(&labels, v))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_desc("reduction of the same request, %")
        .draw()
        .map_err(err)?;
    for (si, s) in replay.sessions.iter().enumerate() {
        let color = PALETTE[si % PALETTE.len()];
        let pts: Vec<Circle<(f64, SegmentValue<usize>), i32>> = replay
            .runs
            .iter()
            .filter(|r| r.session == s.name)
            .flat_map(|r| {
                let ci = replay
                    .conditions
                    .iter()
                    .position(|c| c == &r.condition)
                    .unwrap_or(0);
                r.compactions
                    .iter()
                    .map(move |m| (ci, m.reduction_pct))
                    .collect::<Vec<_>>()
            })
            .map(|(ci, pct)| {
                Circle::new(
                    (pct.clamp(0.0, 100.0), SegmentValue::CenterOf(n - 1 - ci)),
                    4,
                    color.filled(),
                )
            })
            .collect();
        chart
            .draw_series(pts)
            .map_err(err)?
            .label(s.name.clone())
            .legend(move |(x, y)| Circle::new((x + 5, y), 4, color.filled()));
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
    root.present().map_err(err)?;
    Ok(true)
}

/// For one session: a row per condition, a mark per request with actions
/// (green: every prohibition in context; orange: some absent), a bar at each
/// compaction, a red cross and the tool name at each prohibited action.
pub fn timeline(replay: &Replay, session: &str, path: &Path) -> Result<bool> {
    let runs: Vec<_> = replay
        .conditions
        .iter()
        .filter_map(|c| replay.run_under(session, c))
        .collect();
    if runs.is_empty() {
        return Ok(false);
    }
    let steps = runs
        .iter()
        .flat_map(|r| r.requests.iter().map(|q| q.step))
        .max()
        .unwrap_or(1);
    let n = runs.len();
    let labels: Vec<String> = runs.iter().map(|r| r.condition.label()).collect();
    let root = SVGBackend::new(path, (1000, 140 + 30 * n as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{session}: prohibitions in context at each action (green all, orange some absent; | compaction; x prohibited action)"),
            ("sans-serif", 15),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(290)
        .build_cartesian_2d(0.5f64..(steps as f64 + 3.5), (0..n).into_segmented())
        .map_err(err)?;
    chart
        .configure_mesh()
        .y_labels(n)
        .y_label_formatter(&|v| row_label(&labels, v))
        .x_labels((steps + 3).min(40))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_desc("request (run step)")
        .draw()
        .map_err(err)?;
    for (ri, r) in runs.iter().enumerate() {
        draw_run(&mut chart, r, n - 1 - ri)?;
    }
    root.present().map_err(err)?;
    Ok(true)
}

/// One condition's row, `ri` from the bottom: a bar at each compaction, a
/// presence mark per request with actions, and the prohibited actions.
fn draw_run(chart: &mut Rows<'_, '_>, r: &RunResult, ri: usize) -> Result<()> {
    let orange = RGBColor(255, 127, 14);
    let green = RGBColor(44, 160, 44);
    let y = || SegmentValue::CenterOf(ri);
    // Compactions.
    let bars: Vec<Rectangle<(f64, SegmentValue<usize>)>> = r
        .compactions
        .iter()
        .map(|m| {
            Rectangle::new(
                [
                    (m.step as f64 - 0.55, SegmentValue::Exact(ri)),
                    (m.step as f64 - 0.45, SegmentValue::Exact(ri + 1)),
                ],
                BLACK.filled(),
            )
        })
        .collect();
    chart.draw_series(bars).map_err(err)?;
    // Presence marks, one per request with actions.
    let mut marks = Vec::new();
    for q in &r.requests {
        let Some(first) = r.actions.iter().find(|a| a.step == q.step) else {
            continue;
        };
        let checks: Vec<bool> = r
            .checks
            .iter()
            .filter(|k| {
                k.scope == Scope::Action
                    && k.kind == CheckKind::Prohibition
                    && k.call_id.as_deref() == Some(first.call_id.as_str())
            })
            .map(|k| k.present)
            .collect();
        let all = checks.iter().all(|p| *p);
        marks.push(Circle::new(
            (q.step as f64, y()),
            6,
            if all { green.filled() } else { orange.filled() },
        ));
    }
    chart.draw_series(marks).map_err(err)?;
    draw_prohibited(chart, r, ri)
}

/// A cross and the tool's name at each prohibited action: blue with its
/// limit in context, red without.
fn draw_prohibited(chart: &mut Rows<'_, '_>, r: &RunResult, ri: usize) -> Result<()> {
    let y = || SegmentValue::CenterOf(ri);
    for a in r.actions.iter().filter(|a| a.prohibition.is_some()) {
        let color = if a.constraint_present == Some(true) {
            BLUE
        } else {
            RED
        };
        chart
            .draw_series(std::iter::once(Cross::new(
                (a.step as f64, y()),
                9,
                color.stroke_width(3),
            )))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!(
                    "{}: {}",
                    a.tool,
                    if a.constraint_present == Some(true) {
                        "limit in context"
                    } else {
                        "limit absent"
                    }
                ),
                (a.step as f64 + 0.2, SegmentValue::Exact(ri)),
                ("sans-serif", 11).into_font().color(&color),
            )))
            .map_err(err)?;
    }
    Ok(())
}
