//! Seed 001, Fig. 6: the single-block run times fitted by least squares with a gamma and
//! with a normal distribution, as a table (which fits better) and one plot per instance
//! (`fit-INSTANCE.svg`: the empirical distribution and both fitted curves).
use crate::bench::gamma::{CdfFits, MIN_FIT_RUNS};
use crate::bench::ttt::{COLOURS, svg, ttt_points};
use crate::bench::{Table, fmt, fmt_secs};
use anyhow::Result;
use plotters::prelude::*;
use std::path::Path;

/// The table's columns.
pub fn table() -> Table {
    Table::new(&[
        "instance",
        "runs",
        "censored",
        "gamma shape k (LS)",
        "gamma scale θ (LS)",
        "normal mean μ (LS)",
        "normal sd σ (LS)",
        "RSS gamma",
        "RSS normal",
        "better fit",
        "plot",
    ])
}

/// Fits the single-block times `times` (None: censored at the time limit `limit`, in
/// seconds) of `name`, adds its row to `t` and, where there are enough uncensored runs,
/// writes its plot into `out`.
pub fn add(t: &mut Table, name: &str, times: &[Option<f64>], limit: f64, out: &Path) -> Result<()> {
    let (mut ok, failed) = super::reached(times);
    ok.sort_by(f64::total_cmp);
    let censored = failed.to_string();
    let Some(f) = CdfFits::fit(&ok, times.len()) else {
        // No commas in a cell: the CSV does not quote.
        let why = format!("not fitted: {} uncensored runs ({MIN_FIT_RUNS} needed; not all equal)", ok.len());
        let mut row = vec![name.into(), times.len().to_string(), censored];
        row.extend(std::iter::repeat_n("–".to_string(), 6));
        row.extend([why, "–".into()]);
        t.push(row);
        return Ok(());
    };
    let file = format!("fit-{name}.svg");
    let title = format!("{name}: single-block time to target, {} of {} runs reached it", ok.len(), f.runs);
    plot(&out.join(&file), &title, &ok, limit, &f)?;
    let e = |x: f64| format!("{x:.3e}");
    t.push(vec![
        name.into(),
        f.runs.to_string(),
        censored,
        fmt(f.gamma.shape),
        fmt_secs(f.gamma.scale),
        fmt_secs(f.normal.mean),
        fmt_secs(f.normal.sd),
        e(f.gamma_rss),
        e(f.normal_rss),
        f.better().into(),
        file,
    ]);
    Ok(())
}

/// Writes the plot at `path`: the empirical distribution of `times` (sorted) out of
/// `f.runs` as points, the two fitted distribution functions as curves (linear time), and,
/// where runs were censored, the time limit `limit` as a grey line.
pub fn plot(path: &Path, title: &str, times: &[f64], limit: f64, f: &CdfFits) -> Result<()> {
    let last = times.last().copied().unwrap_or(1.0);
    let hi = if f.censored > 0 { last.max(limit) * 1.05 } else { last * 1.15 };
    let curve = |cdf: &dyn Fn(f64) -> f64| (0..=240).map(|i| hi * i as f64 / 240.0).map(|t| (t, cdf(t))).collect();
    let curves: [(String, Vec<(f64, f64)>); 2] = [
        (
            format!("gamma, k = {:.3}, θ = {:.3} (RSS {:.2e})", f.gamma.shape, f.gamma.scale, f.gamma_rss),
            curve(&|t| f.gamma.cdf(t)),
        ),
        (
            format!("normal, μ = {:.3}, σ = {:.3} (RSS {:.2e})", f.normal.mean, f.normal.sd, f.normal_rss),
            curve(&|t| f.normal.cdf(t)),
        ),
    ];
    svg(path, title, 50, |mut builder| {
        let mut chart = builder.build_cartesian_2d(0f64..hi, 0f64..1f64)?;
        chart.configure_mesh().x_desc("time to target (s)").y_desc("cumulative probability").draw()?;
        for (k, (label, pts)) in curves.into_iter().enumerate() {
            let colour = COLOURS[k];
            chart
                .draw_series(LineSeries::new(pts, colour.stroke_width(2)))?
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
        }
        if f.censored > 0 {
            let grey = RGBColor(128, 128, 128);
            chart
                .draw_series(LineSeries::new([(limit, 0.0), (limit, 1.0)], grey.stroke_width(1)))?
                .label(format!("time limit: {} runs censored", f.censored))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], grey.stroke_width(1)));
        }
        chart
            .draw_series(ttt_points(times, f.runs).into_iter().map(|p| Circle::new(p, 3, BLACK.filled())))?
            .label(format!("runs: {} of {} reached the target", times.len(), f.runs))
            .legend(|(x, y)| Circle::new((x + 10, y), 3, BLACK.filled()));
        super::super::ttt::legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}
