//! How many iterations independent Ro-TS walks from random starts need to reach a target:
//! the quantiles of the first-hit iteration over W walks, on all CPU cores. The minimum over
//! the GPU's walks is about the 1/W quantile, which is what bounds `ts`'s time to target
//! from below (docs/benchmarks-record.md, "The sums layout").
//!
//! `cargo run --release -p host --example hit_quantiles -- INSTANCE TARGET WALKS MAX_ITERATIONS
//! [TENURE_FACTOR [LAW [ASPIRATION_FACTOR [START]]]]` (the `ts` defaults: T = 8n with LAW
//! `mixed`, T·r³ in even walks and uniform around T/4 in odd ones; `cubic` and `uniform` for
//! all the walks; one draw per entry; aspiration after 5n² iterations; START `flat`, the
//! GPU's fresh tabu matrix, or `staggered`, Taillard's and the CPU's, `ls::TabuStart`).
//! Also prints how many walks hit within 100, 200 and 400 iterations.
use qapgpu::io::qaplib;
use qapgpu_common::ls::{Scratch, TabuStart, Tenure, TenureLaw, WalkState, tabu_walk};
use qapgpu_common::matrix::Dense;
use qapgpu_common::ops::random_permutation;
use qapgpu_common::rng::Xoshiro128;
use rayon::prelude::*;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    anyhow::ensure!(
        (4..=8).contains(&args.len()),
        "usage: hit_quantiles INSTANCE TARGET WALKS MAX_ITERATIONS [TENURE_FACTOR [LAW [ASPIRATION_FACTOR [START]]]]"
    );
    let inst = qaplib::read_dat(&qaplib::resolve(&args[0]))?;
    let target: i64 = args[1].parse()?;
    let walks: u64 = args[2].parse()?;
    let max_iterations: u32 = args[3].parse()?;
    let n = inst.n;
    let to_i32 = |m: &[i64]| m.iter().map(|&x| i32::try_from(x)).collect::<Result<Vec<i32>, _>>();
    let (a, b) = (to_i32(&inst.a)?, to_i32(&inst.b)?);
    let (a, b) = (Dense::new(&a, n), Dense::new(&b, n));
    let factor: f64 = args.get(4).map_or(Ok(8.0), |a| a.parse())?;
    let law = match args.get(5).map_or("mixed", String::as_str) {
        "cubic" => TenureLaw::Cubic,
        "uniform" => TenureLaw::Uniform,
        "mixed" => TenureLaw::Mixed,
        other => anyhow::bail!("LAW {other}: expected cubic, uniform or mixed"),
    };
    let aspiration: i32 = args.get(6).map_or(Ok(5), |a| a.parse())?;
    let start = match args.get(7).map_or("flat", String::as_str) {
        "flat" => TabuStart::Flat,
        "staggered" => TabuStart::Staggered,
        other => anyhow::bail!("START {other}: expected flat or staggered"),
    };
    let tenure = Tenure { list_size: (factor * n as f64).round() as u32, per_move: false, law };
    let mut hits: Vec<u32> = (0..walks)
        .into_par_iter()
        .map(|w| {
            let mut rng = Xoshiro128::from_stream(7, w);
            let mut p = vec![0u8; n];
            random_permutation(&mut rng, &mut p);
            let cost = inst.cost(&p);
            let mut best = p.clone();
            let (mut delta, mut tabu) = (vec![0i64; n * n], vec![0; n * n]);
            start.fill(&mut tabu);
            let walk = WalkState { p: &mut p, cost, done: 0, best: &mut best, best_cost: cost };
            let scratch = Scratch { delta: &mut delta, tabu: &mut tabu, null_swaps: &[] };
            let (_, r) = tabu_walk(
                &a,
                &b,
                walk,
                target,
                max_iterations,
                tenure.of_unit(w as usize),
                aspiration * (n * n) as i32,
                &mut rng,
                scratch,
                || false,
            );
            if r.cost <= target { r.iterations } else { u32::MAX }
        })
        .collect();
    hits.sort_unstable();
    let reached = hits.iter().filter(|&&h| h != u32::MAX).count();
    println!("{}: {reached} of {walks} walks reached {target} within {max_iterations} iterations", inst.name);
    let within = |k: u32| hits.iter().filter(|&&h| h <= k).count();
    println!(
        "  hits within 100 / 200 / 400 / {max_iterations} iterations: {} / {} / {} / {reached}",
        within(100),
        within(200),
        within(400)
    );
    for q in [0.0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5] {
        let h = hits[((q * walks as f64) as usize).min(hits.len() - 1)];
        println!(
            "  quantile {q:<5}  {}",
            if h == u32::MAX { "not reached".to_string() } else { format!("{h} iterations") }
        );
    }
    Ok(())
}
