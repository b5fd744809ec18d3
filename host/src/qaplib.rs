//! QAPLIB `.dat` / `.sln` readers and writer. Every error names the file and what is wrong.
use crate::instance::Instance;
use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    Io,
    Empty,
    NotANumber,
    BadSize,
    TokenCount,
    OutOfRange,
    Overflow,
    NotAPermutation,
    Mismatch,
}

/// An input file that cannot be used, with the reason in one line.
#[derive(Debug, Clone)]
pub struct QapError {
    pub path: PathBuf,
    pub kind: ErrorKind,
    pub message: String,
}

impl fmt::Display for QapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for QapError {}

fn err(path: &Path, kind: ErrorKind, message: impl Into<String>) -> QapError {
    QapError { path: path.to_path_buf(), kind, message: message.into() }
}

/// Whitespace-separated integers, each with its 1-based position for error messages.
fn integers(path: &Path, text: &str) -> Result<Vec<i64>, QapError> {
    text.split_whitespace()
        .enumerate()
        .map(|(k, t)| {
            t.parse::<i64>().map_err(|_| {
                let shown: String = t.chars().take(20).collect();
                err(path, ErrorKind::NotANumber, format!("token {} (`{shown}`) is not an integer", k + 1))
            })
        })
        .collect()
}

fn read_text(path: &Path) -> Result<String, QapError> {
    let bytes = std::fs::read(path).map_err(|e| err(path, ErrorKind::Io, format!("cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|_| err(path, ErrorKind::NotANumber, "not a text file (invalid UTF-8)"))
}

fn check_n(path: &Path, n: i64) -> Result<usize, QapError> {
    if n < 2 {
        return Err(err(path, ErrorKind::BadSize, format!("n = {n}: a QAP instance needs n ≥ 2")));
    }
    if n > qapgpu_common::MAX_N as i64 {
        return Err(err(
            path,
            ErrorKind::BadSize,
            format!("n = {n} exceeds the limit of {} (a gene is one byte)", qapgpu_common::MAX_N),
        ));
    }
    Ok(n as usize)
}

/// Parses the text of a `.dat` file: n, then A (n×n), then B (n×n).
pub fn parse_dat(path: &Path, text: &str) -> Result<Instance, QapError> {
    let nums = integers(path, text)?;
    let &first = nums.first().ok_or_else(|| err(path, ErrorKind::Empty, "empty file: expected n, then two n×n matrices"))?;
    let n = check_n(path, first)?;
    let want = 1 + 2 * n * n;
    if nums.len() != want {
        return Err(err(
            path,
            ErrorKind::TokenCount,
            format!("expected 1 + 2·n² = {want} numbers for n = {n}, found {}", nums.len()),
        ));
    }
    let (a, b) = nums[1..].split_at(n * n);
    for (name, m) in [("A", a), ("B", b)] {
        if let Some(k) = m.iter().position(|&v| v < i32::MIN as i64 || v > u32::MAX as i64) {
            return Err(err(
                path,
                ErrorKind::OutOfRange,
                format!("{name}[{}][{}] = {} is out of range: entries must fit in 32 bits", k / n + 1, k % n + 1, m[k]),
            ));
        }
    }
    let name = path.file_stem().map_or("instance".into(), |s| s.to_string_lossy().into_owned());
    Instance::new(name, n, a.to_vec(), b.to_vec()).map_err(|(kind, msg)| err(path, kind, msg))
}

pub fn read_dat(path: &Path) -> Result<Instance, QapError> {
    parse_dat(path, &read_text(path)?)
}

/// A `.sln` file: n, the cost, then the permutation p(1) … p(n), 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    pub n: usize,
    pub cost: i64,
    /// 0-based: `perm[i]` is the location of facility i.
    pub perm: Vec<u8>,
}

pub fn parse_sln(path: &Path, text: &str) -> Result<Solution, QapError> {
    let nums = integers(path, text)?;
    if nums.is_empty() {
        return Err(err(path, ErrorKind::Empty, "empty file: expected n, the cost, then n positions"));
    }
    let n = check_n(path, nums[0])?;
    if nums.len() != n + 2 {
        return Err(err(path, ErrorKind::TokenCount, format!("expected 2 + n = {} numbers for n = {n}, found {}", n + 2, nums.len())));
    }
    let perm: Vec<u8> = nums[2..]
        .iter()
        .map(|&v| if (1..=n as i64).contains(&v) { Ok((v - 1) as u8) } else { Err(v) })
        .collect::<Result<_, _>>()
        .map_err(|v| err(path, ErrorKind::OutOfRange, format!("position {v} is outside 1..={n}")))?;
    if !qapgpu_common::ops::is_permutation(&perm) {
        return Err(err(path, ErrorKind::NotAPermutation, "the positions are not a permutation of 1..=n (a value repeats)"));
    }
    Ok(Solution { n, cost: nums[1], perm })
}

pub fn read_sln(path: &Path) -> Result<Solution, QapError> {
    parse_sln(path, &read_text(path)?)
}

/// QAPLIB `.sln` text for a 0-based permutation.
pub fn format_sln(cost: i64, perm: &[u8]) -> String {
    let body: Vec<String> = perm.iter().map(|&g| (g as u32 + 1).to_string()).collect();
    format!("{} {}\n{}\n", perm.len(), cost, body.join(" "))
}

pub fn write_sln(path: &Path, cost: i64, perm: &[u8]) -> Result<(), QapError> {
    std::fs::write(path, format_sln(cost, perm)).map_err(|e| err(path, ErrorKind::Io, format!("cannot write: {e}")))
}

/// The folder of QAPLIB files: `$QAPLIB_DIR`, else `../shared/qaplib` from the working
/// directory or from the workspace.
pub fn qaplib_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("QAPLIB_DIR") {
        return PathBuf::from(d);
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/qaplib");
    let here = PathBuf::from("../shared/qaplib");
    if here.is_dir() { here } else { workspace }
}

/// `NAME` or a path: a bare name without `.dat` is looked up in `qaplib_dir()`.
pub fn resolve(instance: &str) -> PathBuf {
    let p = PathBuf::from(instance);
    if p.exists() || instance.contains('/') || instance.ends_with(".dat") {
        p
    } else {
        qaplib_dir().join(format!("{instance}.dat"))
    }
}

/// Best-known value of `name` from the `bks.csv` beside the instance file (or in
/// `qaplib_dir()`), else from a `.sln` beside it.
pub fn best_known(dat: &Path, name: &str) -> Option<i64> {
    let dir = dat.parent().filter(|d| !d.as_os_str().is_empty()).map_or_else(qaplib_dir, Path::to_path_buf);
    for csv in [dir.join("bks.csv"), qaplib_dir().join("bks.csv")] {
        if let Ok(text) = std::fs::read_to_string(&csv) {
            for line in text.lines().skip(1) {
                let f: Vec<&str> = line.split(',').collect();
                if f.len() >= 3 && f[0] == name {
                    return f[2].trim().parse().ok();
                }
            }
        }
    }
    read_sln(&dir.join(format!("{name}.sln"))).ok().map(|s| s.cost)
}
