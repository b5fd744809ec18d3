//! `bench ttt`: time to target of several algorithms over instances, R runs each, as a
//! table and as time-to-target plots (the empirical distribution of the time to target,
//! Aiex, Resende & Ribeiro 2002: the i-th fastest of R runs is plotted at probability
//! (i − ½)/R), one SVG per instance; with `--cpu-baseline`, the multi-start tabu search on
//! every CPU core beside them, the user's alternative without a GPU. Each instance also
//! gets a convergence plot: every run's best cost (as % above the best known) against time.
use super::{RunLog, RunRecord, Table, engine_label, fmt_secs, load, mean_sd, median, runs_traced, within};
use crate::algo::{Backend, Options};
use anyhow::{Context, Result};
use plotters::prelude::*;
use std::path::Path;
use std::time::Duration;

/// One series of a plot: its label and the sorted times of the runs that reached the
/// target, out of `runs`.
pub struct Series {
    /// The series' name in the legend.
    pub label: String,
    /// Seconds to the target of the runs that reached it, sorted.
    pub times: Vec<f64>,
    /// Runs in all.
    pub runs: usize,
}

/// The (time, probability) points of a TTT plot for `times` (sorted) out of `runs`.
pub fn ttt_points(times: &[f64], runs: usize) -> Vec<(f64, f64)> {
    times.iter().enumerate().map(|(i, &t)| (t, (i as f64 + 0.5) / runs as f64)).collect()
}

/// The plots' series colours, in order.
pub(super) const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

/// A log-scale time axis that holds `times`: from at most 1 ms, a decade wide at least.
fn time_axis(times: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let lo = times.clone().filter(|&t| t > 0.0).fold(f64::INFINITY, f64::min).min(1e-3) / 2.0;
    (lo, times.fold(0.0, f64::max).max(lo * 10.0) * 2.0)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// Draws one 720×440 SVG plot at `path` with `draw`, on a white page, under `title`, with
/// `y_labels` pixels for the y axis's labels (the chart's axes and series are `draw`'s).
pub(super) fn svg(
    path: &Path,
    title: &str,
    y_labels: u32,
    draw: impl FnOnce(ChartBuilder<'_, '_, SVGBackend<'_>>) -> DrawResult,
) -> Result<()> {
    let root: Area = SVGBackend::new(path, (720, 440)).into_drawing_area();
    let page = || -> DrawResult {
        root.fill(&WHITE)?;
        let mut builder = ChartBuilder::on(&root);
        builder.caption(title, ("sans-serif", 18)).margin(12).x_label_area_size(40).y_label_area_size(y_labels);
        draw(builder)?;
        root.present()?;
        Ok(())
    };
    page().map_err(|e| anyhow::anyhow!("{}: cannot draw the plot: {e}", path.display()))
}

/// Draws `chart`'s legend at `at`, boxed on white, as every plot of the bench's has it.
pub(super) fn legend<'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, CT>,
    at: SeriesLabelPosition,
) -> DrawResult {
    chart.configure_series_labels().position(at).background_style(WHITE).border_style(BLACK).draw()?;
    Ok(())
}

/// Writes the TTT plot of `series` as an SVG file (time on a log scale).
pub fn plot(path: &Path, title: &str, series: &[Series]) -> Result<()> {
    let (lo, hi) = time_axis(series.iter().flat_map(|s| s.times.iter().copied()));
    svg(path, title, 50, |mut builder| {
        let mut chart = builder.build_cartesian_2d((lo..hi).log_scale(), 0f64..1f64)?;
        chart.configure_mesh().x_desc("time to target (s)").y_desc("cumulative probability").draw()?;
        for (k, s) in series.iter().enumerate() {
            let colour = COLOURS[k % COLOURS.len()];
            let pts: Vec<(f64, f64)> = ttt_points(&s.times, s.runs).into_iter().map(|(t, p)| (t.max(lo), p)).collect();
            let label = format!("{} ({}/{} reached)", s.label, s.times.len(), s.runs);
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))?
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
            chart.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, colour.filled())))?;
        }
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}

/// One algorithm's convergence curves: its label and, per run, (seconds, best cost) at
/// every improvement.
pub struct Curves {
    /// The algorithm's name in the legend.
    pub label: String,
    /// Per run, (seconds, best cost) at every improvement.
    pub runs: Vec<Vec<(f64, i64)>>,
}

/// Gap of `cost` above `known`, in %, floored at `floor` so that a log scale can show it.
fn gap_at(cost: i64, known: i64, floor: f64) -> f64 {
    (100.0 * (cost - known) as f64 / (known as f64).abs().max(1.0)).max(floor)
}

/// Writes the convergence plot of `curves` as an SVG file: each run's best cost, as a gap
/// above `known` in % (log scale; the best known itself at the bottom edge), against time
/// (log scale), one colour per algorithm.
pub fn plot_convergence(path: &Path, title: &str, known: i64, curves: &[Curves]) -> Result<()> {
    let points = || curves.iter().flat_map(|c| c.runs.iter().flatten());
    let (t_lo, t_hi) = time_axis(points().map(|p| p.0));
    let g_hi = points().map(|p| gap_at(p.1, known, 0.0)).fold(0.0, f64::max).max(0.1) * 2.0;
    let g_lo = points().map(|p| gap_at(p.1, known, 0.0)).filter(|&g| g > 0.0).fold(g_hi / 10.0, f64::min) / 2.0;
    svg(path, title, 60, |mut builder| {
        let mut chart = builder.build_cartesian_2d((t_lo..t_hi).log_scale(), (g_lo..g_hi).log_scale())?;
        chart.configure_mesh().x_desc("time (s)").y_desc("best, % above the best known").draw()?;
        for (k, c) in curves.iter().enumerate() {
            let colour = COLOURS[k % COLOURS.len()];
            for (r, run) in c.runs.iter().enumerate() {
                // A step function: each best holds until the next improvement.
                let mut pts = Vec::with_capacity(2 * run.len());
                for (i, &(t, cost)) in run.iter().enumerate() {
                    if i > 0 {
                        pts.push((t.max(t_lo), gap_at(run[i - 1].1, known, g_lo)));
                    }
                    pts.push((t.max(t_lo), gap_at(cost, known, g_lo)));
                }
                let series = chart.draw_series(LineSeries::new(pts, colour.mix(0.7).stroke_width(1)))?;
                if r == 0 {
                    series
                        .label(c.label.clone())
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
                }
            }
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}

/// The bench: `algos` on `backend`, and `ts` on `cpu` when given, R runs per instance, the
/// target `gap` % above the best known. Returns the table; writes two SVGs per instance
/// into `out`: the TTT plot and the convergence plot.
#[allow(clippy::too_many_arguments)]
pub fn protocol(
    backends: &[Backend],
    cpu: Option<&Backend>,
    base: &Options,
    names: &[String],
    algos: &[String],
    n_runs: usize,
    limit: Duration,
    gap: f64,
    out: &Path,
) -> Result<Table> {
    for a in algos {
        crate::algo::check_name(a)?;
    }
    std::fs::create_dir_all(out).with_context(|| format!("{}: cannot create", out.display()))?;
    let engine = engine_label(backends);
    let mut log = RunLog::default();
    let mut t =
        Table::new(&["instance", "target", "algorithm", "engine", "#reached", "mean (s)", "σ", "median (s)", "plot"]);
    for name in names {
        let (inst, known) = load(name)?;
        let target = within(known, gap);
        let mut plan: Vec<(String, &[Backend], &str)> =
            algos.iter().map(|a| (a.clone(), backends, engine.as_str())).collect();
        if let Some(c) = cpu {
            plan.push(("ts".into(), std::slice::from_ref(c), "CPU"));
        }
        let svg = format!("ttt-{name}.svg");
        let (mut series, mut curves) = (Vec::new(), Vec::new());
        for (algo, b, eng) in plan {
            let opts = Options { algorithm: Some(algo.clone()), target: Some(target), ..base.clone() };
            let recs = runs_traced(b, &inst, &opts, n_runs, limit, true)?;
            log.add(name, target, &algo, eng, base.seed, &recs);
            let mut ok = RunRecord::successes(&recs);
            ok.sort_by(f64::total_cmp);
            let (m, s) = mean_sd(&ok);
            t.push(vec![
                name.clone(),
                target.to_string(),
                algo.clone(),
                eng.into(),
                format!("{}/{}", ok.len(), recs.len()),
                fmt_secs(m),
                fmt_secs(s),
                fmt_secs(median(&ok)),
                svg.clone(),
            ]);
            series.push(Series { label: format!("{algo} ({eng})"), times: ok, runs: recs.len() });
            curves.push(Curves { label: format!("{algo} ({eng})"), runs: recs.into_iter().map(|r| r.trace).collect() });
        }
        let what = if gap > 0.0 { format!("{gap} % above the best known") } else { "the best known".into() };
        plot(&out.join(&svg), &format!("{name}: time to {what}, {} runs", n_runs), &series)?;
        plot_convergence(
            &out.join(format!("conv-{name}.svg")),
            &format!("{name}: best so far, {} runs each", n_runs),
            known,
            &curves,
        )?;
    }
    log.write(out, "ttt")?;
    Ok(t)
}
