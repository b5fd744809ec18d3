//! Issue 42: `bench 002` and `bench 004` print the other methods' results the thesis cites
//! (Tables 4.11–4.13) beside ours, and name the engine that ran the topology cells.
mod support;

use support::{fresh_dir, run_bench};

/// A fast `bench 002` on the CPU engine (els19, 2 runs of 5 generations a cell): the
/// literature tables are in its output and CSV files, and no column calls the CPU a GPU.
#[test]
fn bench_002_prints_the_literature_beside_ours() {
    let out_dir = fresh_dir("bench-literature");
    let args =
        ["002", "--engine", "cpu", "--instances", "els19", "--runs", "2", "--generations", "5", "--time-limit", "20"];
    let stdout = run_bench(&args, &out_dir);
    for needle in [
        "Table 4.11: ours beside the literature",
        "Table 4.12: ours beside the literature",
        "Table 4.13: ours beside the literature",
        "| Ramkumar [57] | Mohassesian [41] | Chaparala [43] | Chmiel [17] |",
        "ours on CPU: best",
        "ours, topologies on CPU: best (generation)",
    ] {
        assert!(stdout.contains(needle), "`{needle}` missing from\n{stdout}");
    }
    // els19's row of Table 4.11: the best known, and the three figures printed for it.
    let row = stdout
        .lines()
        .find(|l| l.starts_with("| els19 | 17212548 |") && l.ends_with("| 17212548 | 17212548 | – | 17212548 |"))
        .unwrap_or_else(|| panic!("no els19 row of Table 4.11 in\n{stdout}"));
    assert!(!row.contains("| – | – | 17212548"), "{row}");
    assert!(!stdout.contains("GPU best"), "the CPU engine's column is named GPU:\n{stdout}");
    let csv = std::fs::read_to_string(out_dir.join("seed002-t4.11.csv")).unwrap();
    assert!(csv.starts_with("instance,best known,ours on CPU: best,"), "{csv}");
    let _ = std::fs::remove_dir_all(&out_dir);
}
