//! Helpers shared by the command-line tests (`mod support;` in each test file).
use std::process::Output;

/// Bytes as text, invalid UTF-8 replaced.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit 1 or 2, one line on stderr containing every needle, no panic.
#[allow(dead_code)]
pub fn assert_one_line_error(out: &Output, needles: &[&str], what: &str) {
    let err = text(&out.stderr);
    assert!(matches!(out.status.code(), Some(1 | 2)), "{what}: exit {:?}, stderr {err}", out.status);
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: one line, got {err}");
    for needle in needles {
        assert!(err.contains(needle), "{what}: `{err}` should mention `{needle}`");
    }
    assert!(!err.contains("panicked"), "{what}: {err}");
}

/// A fresh, empty temporary folder for one test's outputs (`qapgpu-TAG-PID`).
#[allow(dead_code)]
pub fn fresh_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("qapgpu-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs `qapgpu bench ARGS --out DIR`, which must succeed; returns its stdout.
#[allow(dead_code)]
pub fn run_bench(args: &[&str], dir: &std::path::Path) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qapgpu"))
        .arg("bench")
        .args(args)
        .arg("--out")
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "bench {}: {}", args.join(" "), text(&out.stderr));
    text(&out.stdout)
}

/// A CSV the bench wrote, as rows of cells (header first; quoted cells read as RFC 4180
/// writes them), each row with the header's count of cells.
#[allow(dead_code)]
pub fn read_csv(path: &std::path::Path) -> Vec<Vec<String>> {
    let body = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rows: Vec<Vec<String>> = body.lines().map(csv_cells).collect();
    for r in &rows {
        assert_eq!(r.len(), rows[0].len(), "{}: {r:?}", path.display());
    }
    rows
}

/// The cells of one CSV line.
fn csv_cells(line: &str) -> Vec<String> {
    let (mut cells, mut cell, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => cells.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
    }
    cells.push(cell);
    cells
}

/// The cell of `row` under the column `name` of `header`.
#[allow(dead_code)]
pub fn column<'a>(header: &[String], row: &'a [String], name: &str) -> &'a str {
    let k = header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}: {header:?}"));
    &row[k]
}
