//! Would `ts` reach a target sooner if, every few moves, the walks with the worst current
//! cost took a copy of a better walk's solution ("go with the winners")? The CPU twin of the
//! walks answers: W walks from random starts (the `ts` tenure portfolio, as the GPU runs
//! them), all advanced in step; every CLONE_EVERY moves (0: never) the walks are ranked by
//! their current cost and each walk outside the best KEEP fraction restarts, its tabu memory
//! cleared, from the solution of an elite walk (round robin). Prints, per trial, the move at
//! which the first walk reached TARGET, then the mean and median over the trials.
//!
//! `cargo run --release -p host --example go_with_winners -- INSTANCE TARGET WALKS MAX
//! CLONE_EVERY KEEP TRIALS [STARTS [ROUNDS]]` (STARTS: each walk starts from the best of that
//! many random permutations; 1, the default, as `ts` does. ROUNDS: regroupings in all, as
//! `ts --regroup-rounds`; 0, the default, all along). `PERTURB=K` in the environment: each
//! regrouped walk also takes K random swaps of its copy (docs/benchmarks-record.md, "A fast path for the
//! sums walks": no sooner hits).
use qapgpu::io::qaplib;
use qapgpu_common::ls::{Scratch, TABU_FREE, Tenure, TenureLaw, WalkState, tabu_walk};
use qapgpu_common::matrix::Dense;
use qapgpu_common::ops::random_permutation;
use qapgpu_common::rng::Xoshiro128;
use rayon::prelude::*;

struct Walk {
    p: Vec<u8>,
    best: Vec<u8>,
    cost: i64,
    best_cost: i64,
    done: u32,
    tabu: Vec<i32>,
    delta: Vec<i64>,
    rng: Xoshiro128,
    tenure: Tenure,
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    anyhow::ensure!(
        (7..=9).contains(&args.len()),
        "usage: go_with_winners INSTANCE TARGET WALKS MAX CLONE_EVERY KEEP TRIALS [STARTS [ROUNDS]]"
    );
    let inst = qaplib::read_dat(&qaplib::resolve(&args[0]))?;
    let target: i64 = args[1].parse()?;
    let walks: usize = args[2].parse()?;
    let max: u32 = args[3].parse()?;
    let every: u32 = args[4].parse()?;
    let keep: f64 = args[5].parse()?;
    let trials: u64 = args[6].parse()?;
    let starts: u32 = args.get(7).map_or(Ok(1), |a| a.parse())?;
    let rounds: u32 = match args.get(8).map_or(Ok(0), |a| a.parse())? {
        0 => u32::MAX,
        r => r,
    };
    let n = inst.n;
    let perturb: u32 = std::env::var("PERTURB").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    let to_i32 = |m: &[i64]| m.iter().map(|&x| i32::try_from(x)).collect::<Result<Vec<i32>, _>>();
    let (a, b) = (to_i32(&inst.a)?, to_i32(&inst.b)?);
    let (a, b) = (Dense::new(&a, n), Dense::new(&b, n));
    // The `ts` defaults: T = 8n, the mixed law, one draw per entry, aspiration after 5n².
    let tenure = Tenure { list_size: 8 * n as u32, per_move: false, law: TenureLaw::Mixed };
    let aspiration = 5 * (n * n) as i32;
    // Moves between two looks at the walks: CLONE_EVERY, or a chunk without cloning.
    let step = if every == 0 { 16 } else { every };
    let mut hits = Vec::new();
    for trial in 0..trials {
        let mut ws: Vec<Walk> = (0..walks)
            .map(|w| {
                let mut rng = Xoshiro128::from_stream(1000 + trial, w as u64);
                // The best of `starts` random permutations (1: a plain random start).
                let (mut p, mut q) = (vec![0u8; n], vec![0u8; n]);
                random_permutation(&mut rng, &mut p);
                let mut cost = inst.cost(&p);
                for _ in 1..starts {
                    random_permutation(&mut rng, &mut q);
                    let c = inst.cost(&q);
                    if c < cost {
                        (cost, p) = (c, q.clone());
                    }
                }
                Walk {
                    best: p.clone(),
                    p,
                    cost,
                    best_cost: cost,
                    done: 0,
                    tabu: vec![TABU_FREE; n * n],
                    delta: vec![0; n * n],
                    rng,
                    tenure: tenure.of_unit(w),
                }
            })
            .collect();
        let mut hit = None;
        let mut done = 0;
        while done < max && hit.is_none() {
            let firsts: Vec<Option<u32>> = ws
                .par_iter_mut()
                .map(|w| {
                    let walk = WalkState {
                        p: &mut w.p,
                        cost: w.cost,
                        done: w.done,
                        best: &mut w.best,
                        best_cost: w.best_cost,
                    };
                    let scratch = Scratch { delta: &mut w.delta, tabu: &mut w.tabu, null_swaps: &[] };
                    let (cur, r) =
                        tabu_walk(&a, &b, walk, target, step, w.tenure, aspiration, &mut w.rng, scratch, || false);
                    (w.cost, w.best_cost, w.done) = (cur, r.cost, w.done + r.iterations);
                    (r.cost <= target).then_some(r.iterations)
                })
                .collect();
            hit = firsts.iter().flatten().min().map(|&i| done + i);
            done += step;
            if every > 0 && hit.is_none() && done / step <= rounds {
                let mut order: Vec<usize> = (0..walks).collect();
                order.sort_by_key(|&k| ws[k].cost);
                let elite = ((keep * walks as f64).ceil() as usize).clamp(1, walks);
                for (j, &k) in order[elite..].iter().enumerate() {
                    let from = order[j % elite];
                    let (p, cost) = (ws[from].p.clone(), ws[from].cost);
                    let w = &mut ws[k];
                    w.p.copy_from_slice(&p);
                    w.cost = cost;
                    w.tabu.fill(TABU_FREE);
                    for _ in 0..perturb {
                        let x = w.rng.below(n as u32) as usize;
                        let y = (x + 1 + w.rng.below(n as u32 - 1) as usize) % n;
                        w.p.swap(x, y);
                    }
                    if perturb > 0 {
                        w.cost = inst.cost(&w.p);
                    }
                }
            }
        }
        println!("trial {trial}: {}", hit.map_or("no hit".to_string(), |h| format!("first hit after {h} moves")));
        hits.push(hit.unwrap_or(max));
    }
    hits.sort_unstable();
    let mean = hits.iter().map(|&h| h as f64).sum::<f64>() / hits.len() as f64;
    println!(
        "{}: {walks} walks, clone every {every} keeping {keep}: mean {mean:.0} moves, median {}",
        inst.name,
        hits[hits.len() / 2]
    );
    Ok(())
}
