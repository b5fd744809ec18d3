//! Seeds 004 (the PGAGrid thesis, chapter 4) and 002: the cellular GA on an 8×8 grid for
//! 100 generations, 10 runs per cell, four topologies × two local searches, and the
//! sequential CPU variant (random couples, one thread); tables beside the thesis's numbers
//! and Wilcoxon signed-rank tests (Tables 4.14–4.16).
//!
//! For els19, esc64a and had20 a run stops at the optimum and the cell reports the
//! generation that found it (Tables 4.1, 4.2, 4.7); for the others it runs 100 generations
//! and reports the final cost (Tables 4.3–4.6, 4.8, 4.9). A run that misses the optimum
//! counts as generation + 1 (censored) and is flagged. Tables 4.11–4.13 set our best and
//! median costs beside the other methods' results the thesis cites (`literature`).
use super::literature;
use super::wilcoxon::{signed_rank, verdict};
use super::{RunRecord, Table, engine_label, load, mean_sd, median, median_mad, runs};
use crate::algo::cga::{self, Pass, Topology};
use crate::algo::{Backend, Options};
use crate::io::Instance;
use anyhow::Result;
use std::collections::BTreeMap;
use std::time::Duration;

/// (median, MAD) or (mean, sd) pairs, one per topology 4n, 8n, 16n, 20n.
type Row4 = [(f64, f64); 4];

/// (best cost, first generation reaching it).
type BestAt = (i64, u32);

/// Table 4.1: generations to the optimum, 2-opt, median ± MAD.
pub const T41: &[(&str, Row4)] = &[
    ("els19", [(12.0, 2.0), (12.5, 1.5), (11.5, 1.5), (23.0, 11.0)]),
    ("esc64a", [(9.0, 1.0), (9.5, 0.5), (9.0, 0.5), (10.0, 0.0)]),
    ("had20", [(22.0, 6.5), (17.5, 3.5), (31.0, 16.5), (15.0, 4.5)]),
];
/// Table 4.2: the same with greedy 2-opt.
pub const T42: &[(&str, Row4)] = &[
    ("els19", [(5.5, 1.5), (6.0, 2.0), (4.5, 1.5), (5.5, 1.5)]),
    ("esc64a", [(1.0, 0.0), (1.0, 0.0), (1.0, 0.0), (1.0, 0.0)]),
    ("had20", [(4.0, 1.0), (3.0, 1.0), (4.0, 1.0), (3.5, 0.5)]),
];
/// Table 4.3: final cost after 100 generations, 2-opt, mean ± sd.
pub const T43: &[(&str, Row4)] = &[
    ("kra32", [(91246.0, 538.0), (91013.0, 527.0), (91350.0, 973.0), (91454.0, 674.0)]),
    ("nug30", [(6236.0, 37.0), (6203.0, 30.0), (6217.0, 27.0), (6253.0, 25.0)]),
    ("scr20", [(111241.0, 890.0), (111158.0, 1000.0), (111742.0, 1421.0), (111478.0, 917.0)]),
    (
        "tai35b",
        [(286109725.0, 1473358.0), (285418088.0, 1405123.0), (286117941.0, 1851034.0), (285214600.0, 1558527.0)],
    ),
    (
        "tai40b",
        [(654130538.0, 12522178.0), (655960058.0, 10171089.0), (663307321.0, 16281696.0), (661450966.0, 12210870.0)],
    ),
    (
        "tai60b",
        [(627301589.0, 8096733.0), (629065013.0, 7732720.0), (622263727.0, 8885398.0), (625016351.0, 5935946.0)],
    ),
    ("tho40", [(247264.0, 1613.0), (246402.0, 1380.0), (246003.0, 2705.0), (246070.0, 1774.0)]),
];
/// Table 4.4: the same with greedy 2-opt.
pub const T44: &[(&str, Row4)] = &[
    ("kra32", [(88922.0, 470.0), (89006.0, 493.0), (89227.0, 566.0), (89220.0, 557.0)]),
    ("nug30", [(6136.0, 10.0), (6130.0, 6.0), (6132.0, 12.0), (6134.0, 12.0)]),
    ("scr20", [(110065.0, 101.0), (110030.0, 0.0), (110245.0, 347.0), (110097.0, 203.0)]),
    ("tai35b", [(283455144.0, 230811.0), (283455144.0, 230811.0), (283527059.0, 273193.0), (283508047.0, 254633.0)]),
    ("tai40b", [(637250948.0, 0.0), (637262177.0, 23672.0), (637273405.0, 28992.0), (638543295.0, 4047374.0)]),
    ("tai60b", [(608562201.0, 702305.0), (608254081.0, 87568.0), (608301697.0, 89972.0), (608313952.0, 136515.0)]),
    ("tho40", [(241504.0, 512.0), (241212.0, 537.0), (241522.0, 914.0), (241034.0, 294.0)]),
];
/// Table 4.5: final cost, 2-opt, median ± MAD.
pub const T45: &[(&str, Row4)] = &[
    ("kra32", [(91155.0, 455.0), (91105.0, 350.0), (91430.0, 600.0), (91730.0, 410.0)]),
    ("nug30", [(6245.0, 24.0), (6195.0, 22.0), (6214.0, 17.0), (6260.0, 10.0)]),
    ("scr20", [(111174.0, 923.0), (110878.0, 848.0), (112163.0, 1310.0), (111298.0, 681.0)]),
    ("tai35b", [(285624601.0, 981047.0), (285165264.0, 620114.0), (285446919.0, 1246283.0), (285117037.0, 351396.0)]),
    (
        "tai40b",
        [(658136188.0, 9267476.0), (659679797.0, 6701287.0), (661970688.0, 13176897.0), (666262567.0, 7899045.0)],
    ),
    (
        "tai60b",
        [(627874603.0, 5834722.0), (629065013.0, 7732720.0), (621929415.0, 8167650.0), (622898346.0, 3299634.0)],
    ),
    ("tho40", [(247299.0, 879.0), (246359.0, 938.0), (246116.0, 2515.0), (245540.0, 632.0)]),
];
/// Table 4.6: final cost, greedy 2-opt, median ± MAD.
pub const T46: &[(&str, Row4)] = &[
    ("kra32", [(88700.0, 0.0), (88700.0, 0.0), (89100.0, 400.0), (89100.0, 400.0)]),
    ("nug30", [(6132.0, 6.0), (6128.0, 0.0), (6128.0, 0.0), (6128.0, 4.0)]),
    ("scr20", [(110030.0, 0.0), (110030.0, 0.0), (110030.0, 0.0), (110030.0, 0.0)]),
    ("tai35b", [(283315445.0, 0.0), (283315445.0, 0.0), (283315445.0, 0.0), (283315445.0, 0.0)]),
    ("tai40b", [(637250948.0, 0.0), (637250948.0, 0.0), (637250948.0, 0.0), (637250948.0, 0.0)]),
    ("tai60b", [(608228619.0, 13565.0), (608228578.0, 9633.0), (608290526.0, 74005.0), (608231469.0, 16415.0)]),
    ("tho40", [(241524.0, 370.0), (241130.0, 381.0), (241144.0, 439.0), (241019.0, 201.0)]),
];
/// Table 4.7: the CPU variant, generations to the optimum, median ± MAD: 2-opt, greedy.
pub const T47: &[(&str, [(f64, f64); 2])] = &[
    ("els19", [(19.5, 6.5), (7.0, 3.0)]),
    ("esc64a", [(10.5, 0.5), (1.0, 0.0)]),
    ("had20", [(58.0, 29.0), (6.5, 2.5)]),
];
/// Table 4.8: the CPU variant, final cost, mean ± sd: 2-opt, greedy.
pub const T48: &[(&str, [(f64, f64); 2])] = &[
    ("kra32", [(94385.0, 1847.0), (88780.0, 253.0)]),
    ("nug30", [(6260.0, 56.0), (6128.0, 4.0)]),
    ("scr20", [(112106.0, 1312.0), (110033.0, 9.0)]),
    ("tai35b", [(287208985.0, 2458063.0), (283748455.0, 260064.0)]),
    ("tai40b", [(659513550.0, 15585339.0), (637329374.0, 58739.0)]),
    ("tai60b", [(646733519.0, 14432654.0), (608826757.0, 338208.0)]),
    ("tho40", [(249761.0, 2199.0), (241871.0, 670.0)]),
];
/// Table 4.9: the CPU variant, final cost, median ± MAD: 2-opt, greedy.
pub const T49: &[(&str, [(f64, f64); 2])] = &[
    ("kra32", [(95025.0, 1030.0), (88700.0, 0.0)]),
    ("nug30", [(6250.0, 39.0), (6128.0, 2.0)]),
    ("scr20", [(112113.0, 1029.0), (110030.0, 0.0)]),
    ("tai35b", [(286884376.0, 2049354.0), (283725417.0, 167022.0)]),
    ("tai40b", [(660191766.0, 113462272.0), (637307091.0, 11767.0)]),
    ("tai60b", [(640337053.0, 4217663.0), (608823261.0, 124250.0)]),
    ("tho40", [(249642.0, 1318.0), (242038.0, 103.0)]),
];
/// Table 4.10: best found (first generation reaching it): PGAGrid, CPU.
pub const T410: &[(&str, BestAt, BestAt)] = &[
    ("els19", (17212548, 2), (17212548, 2)),
    ("esc64a", (116, 1), (116, 1)),
    ("had20", (6922, 2), (6922, 2)),
    ("kra32", (88700, 5), (88700, 13)),
    ("nug30", (6124, 14), (6124, 27)),
    ("scr20", (110030, 2), (110030, 4)),
    ("tai35b", (283315445, 12), (283315445, 42)),
    ("tai40b", (637250948, 6), (637250948, 15)),
    ("tai60b", (608215054, 42), (608352432, 81)),
    ("tho40", (240542, 76), (240632, 85)),
];

/// Instances whose runs stop at the optimum (generations reported).
pub const TO_OPTIMUM: [&str; 3] = ["els19", "esc64a", "had20"];
/// Instances run for the full budget (final cost reported).
pub const FINAL_COST: [&str; 7] = ["kra32", "nug30", "scr20", "tai35b", "tai40b", "tai60b", "tho40"];
/// The GPU topologies of the thesis's tables.
pub const TOPOLOGIES: [Topology; 4] = [Topology::N4, Topology::N8, Topology::N16, Topology::N20];

/// A topology's name in the tables ("CPU" for random couples, the CPU variant's).
pub fn topology_name(t: Topology) -> &'static str {
    match t {
        Topology::N4 => "4n",
        Topology::N8 => "8n",
        Topology::N16 => "16n",
        Topology::N20 => "20n",
        Topology::Random => "CPU",
    }
}

fn pass_name(p: Pass) -> &'static str {
    match p {
        Pass::TwoOpt => "2-opt",
        Pass::Greedy => "greedy 2-opt",
        Pass::Record => "2-opt (Algorithm 16)",
    }
}

/// What the protocol runs.
pub struct Plan {
    /// The instances to run.
    pub instances: Vec<String>,
    /// The topologies to run.
    pub topologies: Vec<Topology>,
    /// The local searches to run.
    pub passes: Vec<Pass>,
    /// Runs per cell.
    pub runs: usize,
    /// Generations per run.
    pub generations: u64,
    /// Also the sequential CPU variant (random couples, one thread).
    pub cpu_variant: bool,
    /// Time limit per run.
    pub limit: Duration,
}

/// One cell's runs and what each reports.
struct Cell {
    runs: Vec<RunRecord>,
    /// Generations to the optimum (censored at generations + 1) or final cost.
    values: Vec<f64>,
    reached: usize,
}

fn run_cell(
    backend: &Backend,
    base: &Options,
    (inst, known): (&Instance, i64),
    pass: Pass,
    topology: Topology,
    plan: &Plan,
) -> Result<Cell> {
    let name = inst.name.as_str();
    let to_optimum = TO_OPTIMUM.contains(&name);
    let mut opts =
        Options { algorithm: Some(cga::CGA.name.into()), target: to_optimum.then_some(known), ..base.clone() };
    opts.cga.pass = pass;
    opts.cga.topology = topology;
    opts.cga.max_generations = Some(plan.generations);
    let recs = runs(backend, inst, &opts, plan.runs, plan.limit)?;
    let reached = recs.iter().filter(|r| r.cost == known).count();
    let values = recs
        .iter()
        .map(|r| {
            if to_optimum {
                if r.cost == known { r.best_at.unwrap_or(0) as f64 } else { (plan.generations + 1) as f64 }
            } else {
                r.cost as f64
            }
        })
        .collect();
    Ok(Cell { runs: recs, values, reached })
}

/// Our cell of a table: `stat` of its values; for generations to the optimum, how many
/// runs reached it when some did not (a miss counts as generations + 1), and "–" when none
/// did (a median of censored values is no generation count).
fn ours_cell(c: &Cell, stat: fn(&[f64]) -> (f64, f64), big: bool) -> String {
    if big || c.reached == c.values.len() {
        pm(stat(&c.values), big)
    } else if c.reached == 0 {
        format!("– (0/{} reached)", c.values.len())
    } else {
        format!("{} ({}/{} reached)", pm(stat(&c.values), big), c.reached, c.values.len())
    }
}

fn pm(x: (f64, f64), big: bool) -> String {
    if x.0.is_nan() {
        "–".into()
    } else if big {
        format!("{:.0} ± {:.0}", x.0, x.1)
    } else {
        format!("{:.1} ± {:.1}", x.0, x.1)
    }
}

/// Runs the plan and builds the thesis's tables (and 002's subsets), keyed for CSV files.
/// The topology cells run on `engine` (the thesis's GPU; the CPU engine where there is
/// none), the CPU variant on one CPU thread; column names say which.
pub fn protocol(engine: &Backend, base: &Options, plan: &Plan) -> Result<Vec<(String, String, Table)>> {
    let cpu = Backend::Cpu { threads: 1 };
    // "GPU" or "CPU": what ran the topology cells.
    let on = engine_label(std::slice::from_ref(engine));
    let mut cells: BTreeMap<(String, u32, u32), Cell> = BTreeMap::new();
    let mut knowns = BTreeMap::new();
    let mut wall = Table::new(&[
        "instance",
        "local search",
        "topology",
        "engine",
        "runs",
        "mean wall time per run (s)",
        "#optimum",
    ]);
    for name in &plan.instances {
        let (inst, known) = load(name)?;
        knowns.insert(name.clone(), known);
        for &pass in &plan.passes {
            let mut columns: Vec<(Topology, &Backend)> = plan.topologies.iter().map(|&t| (t, engine)).collect();
            if plan.cpu_variant {
                columns.push((Topology::Random, &cpu));
            }
            for (topology, backend) in columns {
                let cell = run_cell(backend, base, (&inst, known), pass, topology, plan)?;
                let secs: Vec<f64> = cell.runs.iter().map(|r| r.elapsed).collect();
                wall.push(vec![
                    name.clone(),
                    pass_name(pass).into(),
                    topology_name(topology).into(),
                    backend.describe(),
                    cell.runs.len().to_string(),
                    format!("{:.4}", mean_sd(&secs).0),
                    cell.reached.to_string(),
                ]);
                cells.insert((name.clone(), pass as u32, topology as u32), cell);
            }
        }
    }
    let get = |n: &str, p: Pass, t: Topology| cells.get(&(n.to_string(), p as u32, t as u32));
    let mut out = Vec::new();
    // Tables 4.1–4.6: topology columns, ours beside the thesis's.
    let topo_table = |pass: Pass, set: &[&str], paper: &[(&str, Row4)], stat: fn(&[f64]) -> (f64, f64), big: bool| {
        let mut header = vec!["instance".to_string()];
        for t in &plan.topologies {
            header.push(format!("{} ours", topology_name(*t)));
            header.push(format!("{} thesis", topology_name(*t)));
        }
        let mut t = Table { header, rows: Vec::new() };
        for name in plan.instances.iter().filter(|n| set.contains(&n.as_str())) {
            let mut row = vec![name.clone()];
            for topo in &plan.topologies {
                let c = get(name, pass, *topo);
                let ours = c.map_or("–".into(), |c| ours_cell(c, stat, big));
                let idx = TOPOLOGIES.iter().position(|x| x == topo).unwrap_or(0);
                let theirs = paper.iter().find(|r| r.0 == name.as_str()).map_or("–".into(), |r| pm(r.1[idx], big));
                row.push(ours);
                row.push(theirs);
            }
            t.rows.push(row);
        }
        t
    };
    for (key, heading, pass, set, paper, stat, big) in [
        (
            "t4.1",
            "Table 4.1: generations to the optimum, 2-opt (median ± MAD)",
            Pass::TwoOpt,
            &TO_OPTIMUM[..],
            T41,
            median_mad as fn(&[f64]) -> (f64, f64),
            false,
        ),
        (
            "t4.2",
            "Table 4.2: generations to the optimum, greedy 2-opt (median ± MAD)",
            Pass::Greedy,
            &TO_OPTIMUM[..],
            T42,
            median_mad,
            false,
        ),
        ("t4.3", "Table 4.3: final cost, 2-opt (mean ± sd)", Pass::TwoOpt, &FINAL_COST[..], T43, mean_sd, true),
        ("t4.4", "Table 4.4: final cost, greedy 2-opt (mean ± sd)", Pass::Greedy, &FINAL_COST[..], T44, mean_sd, true),
        ("t4.5", "Table 4.5: final cost, 2-opt (median ± MAD)", Pass::TwoOpt, &FINAL_COST[..], T45, median_mad, true),
        (
            "t4.6",
            "Table 4.6: final cost, greedy 2-opt (median ± MAD)",
            Pass::Greedy,
            &FINAL_COST[..],
            T46,
            median_mad,
            true,
        ),
    ] {
        if plan.passes.contains(&pass) {
            out.push((key.to_string(), heading.to_string(), topo_table(pass, set, paper, stat, big)));
        }
        // The thesis's 2-opt as its Algorithm 16 prints it, beside the same thesis column.
        if pass == Pass::TwoOpt && plan.passes.contains(&Pass::Record) {
            let heading = heading.replace("2-opt", "2-opt as Algorithm 16 prints it");
            out.push((format!("{key}-alg16"), heading, topo_table(Pass::Record, set, paper, stat, big)));
        }
    }
    // Tables 4.7–4.9: the CPU variant.
    if plan.cpu_variant {
        for (key, heading, set, paper, stat, big) in [
            (
                "t4.7",
                "Table 4.7: CPU variant, generations to the optimum (median ± MAD)",
                &TO_OPTIMUM[..],
                T47,
                median_mad as fn(&[f64]) -> (f64, f64),
                false,
            ),
            ("t4.8", "Table 4.8: CPU variant, final cost (mean ± sd)", &FINAL_COST[..], T48, mean_sd, true),
            ("t4.9", "Table 4.9: CPU variant, final cost (median ± MAD)", &FINAL_COST[..], T49, median_mad, true),
        ] {
            let mut t = Table::new(&["instance", "2-opt ours", "2-opt thesis", "greedy ours", "greedy thesis"]);
            for name in plan.instances.iter().filter(|n| set.contains(&n.as_str())) {
                let mut row = vec![name.clone()];
                for (i, pass) in [Pass::TwoOpt, Pass::Greedy].into_iter().enumerate() {
                    row.push(get(name, pass, Topology::Random).map_or("–".into(), |c| ours_cell(c, stat, big)));
                    row.push(paper.iter().find(|r| r.0 == name.as_str()).map_or("–".into(), |r| pm(r.1[i], big)));
                }
                t.rows.push(row);
            }
            out.push((key.to_string(), heading.to_string(), t));
        }
    }
    // Table 4.10: best found and the first generation that found it.
    let mut t = Table {
        header: vec![
            "instance".into(),
            "best known".into(),
            format!("ours, topologies on {on}: best (generation)"),
            "thesis PGAGrid (GPU)".into(),
            "ours, CPU variant: best (generation)".into(),
            "thesis CPU variant".into(),
        ],
        rows: Vec::new(),
    };
    for name in &plan.instances {
        let best = |cpu_side: bool| -> String {
            let mut found: Option<(i64, u64)> = None;
            for ((n, _, topo), c) in &cells {
                if n != name || (*topo == Topology::Random as u32) != cpu_side {
                    continue;
                }
                for r in &c.runs {
                    let cand = (r.cost, r.best_at.unwrap_or(0));
                    if found.is_none_or(|f| cand < f) {
                        found = Some(cand);
                    }
                }
            }
            found.map_or("–".into(), |(c, g)| format!("{c} ({g})"))
        };
        let paper = T410.iter().find(|r| r.0 == name.as_str());
        t.rows.push(vec![
            name.clone(),
            knowns.get(name).map_or("–".into(), |k| k.to_string()),
            best(false),
            paper.map_or("–".into(), |r| format!("{} ({})", r.1.0, r.1.1)),
            best(true),
            paper.map_or("–".into(), |r| format!("{} ({})", r.2.0, r.2.1)),
        ]);
    }
    out.push(("t4.10".into(), "Table 4.10: best found over all runs (first generation reaching it)".into(), t));
    // Tables 4.11–4.13: our costs beside the other methods' results the thesis cites.
    let ours = |name: &str| -> (String, String) {
        let mut best: Option<i64> = None;
        let mut cell: Option<(f64, Pass, Topology)> = None;
        for &pass in &plan.passes {
            for &topo in &plan.topologies {
                if let Some(c) = get(name, pass, topo) {
                    let costs: Vec<f64> = c.runs.iter().map(|r| r.cost as f64).collect();
                    best = c.runs.iter().map(|r| r.cost).chain(best).min();
                    let m = median(&costs);
                    if cell.is_none_or(|(b, _, _)| m < b) {
                        cell = Some((m, pass, topo));
                    }
                }
            }
        }
        let best = best.map_or("–".into(), |b| b.to_string());
        let mid = cell.map_or("–".into(), |(m, p, t)| format!("{m} ({}, {})", pass_name(p), topology_name(t)));
        (best, mid)
    };
    for lit in literature::TABLES {
        let mut header = vec![
            "instance".to_string(),
            "best known".to_string(),
            format!("ours on {on}: best"),
            format!("ours on {on}: median (best cell)"),
        ];
        header.extend((0..lit.columns.len()).map(|i| lit.heading(i)));
        let mut t = Table { header, rows: Vec::new() };
        for name in &plan.instances {
            let known = knowns.get(name).copied();
            let (best, mid) = ours(name);
            let mut row = vec![name.clone(), known.map_or("–".into(), |k| k.to_string()), best, mid];
            row.extend(lit.columns.iter().map(|m| literature::cell(lit.figure(m, name), known)));
            t.rows.push(row);
        }
        out.push((lit.key.to_string(), lit.title(), t));
    }
    // Tables 4.14–4.16: Wilcoxon signed-rank tests, α = 0.05.
    let header = ["instance", "local search", "A", "B", "non-zero pairs", "statistic", "p-value", "method", "verdict"];
    let mut t14 = Table::new(&header);
    let mut t15 = Table::new(&header);
    let mut t16 = Table::new(&header);
    let test = |t: &mut Table, name: &str, pass: &str, a: (&str, &Cell), b: (&str, &Cell)| {
        let r = signed_rank(&a.1.values, &b.1.values);
        t.rows.push(vec![
            name.into(),
            pass.into(),
            a.0.into(),
            b.0.into(),
            r.n.to_string(),
            format!("{}", r.statistic),
            format!("{:.4}", r.p_value),
            if r.exact { "exact" } else { "normal approx." }.into(),
            verdict(a.0, b.0, &r, 0.05),
        ]);
    };
    for name in &plan.instances {
        for &pass in &plan.passes {
            for (i, &ta) in plan.topologies.iter().enumerate() {
                for &tb in &plan.topologies[i + 1..] {
                    if let (Some(a), Some(b)) = (get(name, pass, ta), get(name, pass, tb)) {
                        test(&mut t14, name, pass_name(pass), (topology_name(ta), a), (topology_name(tb), b));
                    }
                }
                if let Some(cpu_cell) = get(name, pass, Topology::Random)
                    && let Some(a) = get(name, pass, ta)
                {
                    test(&mut t16, name, pass_name(pass), (topology_name(ta), a), ("CPU", cpu_cell));
                }
            }
        }
        for &topo in &plan.topologies {
            if let (Some(g), Some(o)) = (get(name, Pass::Greedy, topo), get(name, Pass::TwoOpt, topo)) {
                test(&mut t15, name, topology_name(topo), ("greedy 2-opt", g), ("2-opt", o));
            }
        }
    }
    out.push(("t4.14".into(), "Table 4.14: topology against topology (Wilcoxon signed-rank, α = 0.05)".into(), t14));
    out.push((
        "t4.15".into(),
        "Table 4.15: greedy 2-opt against 2-opt, per topology (the \"local search\" column names the topology)".into(),
        t15,
    ));
    if plan.cpu_variant {
        out.push(("t4.16".into(), "Table 4.16: each topology against the CPU variant".into(), t16));
    }
    out.push(("wall".into(), "Wall time per run (not in the thesis)".into(), wall));
    Ok(out)
}
