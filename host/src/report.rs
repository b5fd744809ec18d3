//! The final report of a solve: re-checked on the host in 64 bits, as text or JSON.
use crate::instance::Instance;
use crate::runner::{Outcome, gap_percent};
use anyhow::{Result, ensure};
use serde::Serialize;

#[derive(Serialize, Debug, Clone)]
pub struct Report {
    pub instance: String,
    pub n: usize,
    pub algorithm: String,
    pub engine: String,
    pub device: String,
    pub seed: u64,
    pub cost: i64,
    /// 1-based, QAPLIB order: permutation[i] is the location of facility i + 1.
    pub permutation: Vec<u32>,
    pub target: Option<i64>,
    pub best_known: Option<i64>,
    pub gap_percent: Option<f64>,
    pub time_to_target_s: Option<f64>,
    pub elapsed_s: f64,
    pub generations: u64,
    pub restarts: u64,
    pub blocks: u32,
    pub subpopulation: u32,
    pub element_width: String,
    pub interrupted: bool,
    /// What `generations` counts ("generations" for the GAs, "cAS iterations" for ACO).
    pub unit: String,
    /// How blocks and threads are used, in words.
    pub layout: String,
}

impl Report {
    /// Builds the report after recomputing the cost of the returned permutation on the host.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        inst: &Instance,
        out: &Outcome,
        algorithm: &str,
        engine: &str,
        device: String,
        seed: u64,
        target: Option<i64>,
        best_known: Option<i64>,
        blocks: u32,
        subpop: u32,
    ) -> Result<Report> {
        ensure!(qapgpu_common::ops::is_permutation(&out.perm) && out.perm.len() == inst.n, "the engine returned an invalid permutation");
        let cost = inst.cost(&out.perm);
        ensure!(cost == out.cost, "cost mismatch: the engine reported {} but the permutation costs {cost}", out.cost);
        Ok(Report {
            instance: inst.name.clone(),
            n: inst.n,
            algorithm: algorithm.into(),
            engine: engine.into(),
            device,
            seed,
            cost,
            permutation: out.perm.iter().map(|&g| g as u32 + 1).collect(),
            target,
            best_known,
            gap_percent: gap_percent(cost, best_known),
            time_to_target_s: out.time_to_target_s,
            elapsed_s: out.elapsed_s,
            generations: out.generations,
            restarts: out.restarts,
            blocks,
            subpopulation: subpop,
            element_width: inst.width.name().into(),
            interrupted: out.interrupted,
            unit: out.unit.into(),
            layout: format!("{blocks} subpopulations × {subpop}"),
        })
    }

    pub fn text(&self) -> String {
        let mut s = String::new();
        let line = |s: &mut String, k: &str, v: String| s.push_str(&format!("{k:<16} {v}\n"));
        line(&mut s, "instance", format!("{} (n = {}, {} elements)", self.instance, self.n, self.element_width));
        line(&mut s, "algorithm", format!("{} on {} — {}", self.algorithm, self.engine, self.device));
        line(&mut s, "population", self.layout.clone());
        line(&mut s, "seed", self.seed.to_string());
        let gap = self.gap_percent.map_or(String::new(), |g| format!("  (gap {g:.4}% to best known {})", self.best_known.unwrap()));
        line(&mut s, "cost", format!("{}{gap}  [re-checked on the host in 64-bit]", self.cost));
        if let Some(t) = self.target {
            let reached = self.time_to_target_s.map_or("not reached".to_string(), |t| format!("reached in {t:.3} s"));
            line(&mut s, "target", format!("{t}: {reached}"));
        }
        let counted = if self.unit == crate::runner::GENERATIONS {
            format!("{} generations, {} restarts", self.generations, self.restarts)
        } else {
            format!("{} {}", self.generations, self.unit)
        };
        line(&mut s, "elapsed", format!("{:.3} s, {counted}", self.elapsed_s));
        if self.interrupted {
            line(&mut s, "stopped", "interrupted (Ctrl-C): best solution so far".into());
        }
        let perm: Vec<String> = self.permutation.iter().map(u32::to_string).collect();
        line(&mut s, "permutation", perm.join(" "));
        s
    }
}
