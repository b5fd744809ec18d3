//! QAPLIB `.dat` / `.sln` readers and writer. Every error names the file and what is wrong;
//! n is checked from the first number before the rest is read, and no more is read than
//! 1 + 2n² numbers can take.
pub use super::instance::ErrorKind;
use super::instance::Instance;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Bytes one number may take in a file, spaces included (QAPLIB pads columns; 64 is far
/// more than any file of the library uses).
const BYTES_PER_NUMBER: u64 = 64;
/// Bytes read to find n; a header comment longer than this is not QAPLIB.
const HEAD_BYTES: u64 = 4096;
/// The UTF-8 byte-order mark some editors put at the start of a file.
const BOM: &[u8] = b"\xEF\xBB\xBF";

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

/// The first `max` whitespace-separated integers, each error naming its 1-based position,
/// and how many tokens there are in all (the rest are counted, not parsed).
fn integers(path: &Path, text: &str, max: usize) -> Result<(Vec<i64>, usize), QapError> {
    let mut tokens = text.split_whitespace();
    let nums = tokens
        .by_ref()
        .take(max)
        .enumerate()
        .map(|(k, t)| {
            t.parse::<i64>().map_err(|_| {
                let shown: String = t.chars().take(20).collect();
                err(path, ErrorKind::NotANumber, format!("token {} (`{shown}`) is not an integer", k + 1))
            })
        })
        .collect::<Result<Vec<i64>, QapError>>()?;
    let total = nums.len() + tokens.count();
    Ok((nums, total))
}

/// n from the first number of `text`, checked.
fn first_n(path: &Path, text: &str, empty: &str) -> Result<usize, QapError> {
    let (first, _) = integers(path, text, 1)?;
    let &n = first.first().ok_or_else(|| err(path, ErrorKind::Empty, empty))?;
    check_n(path, n)
}

/// The text of `bytes` without a leading byte-order mark.
fn text_of<'b>(path: &Path, bytes: &'b [u8]) -> Result<&'b str, QapError> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|_| err(path, ErrorKind::NotANumber, "not a text file (invalid UTF-8)"))
}

/// Reads a file whose first number is n and which holds `numbers(n)` numbers: n is checked
/// from the first bytes, and a file longer than those numbers can take is refused unread.
fn read_capped(path: &Path, numbers: impl Fn(u64) -> u64) -> Result<Vec<u8>, QapError> {
    let io = |e: std::io::Error| err(path, ErrorKind::Io, format!("cannot read: {e}"));
    let mut file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    let mut bytes = Vec::new();
    (&mut file).take(HEAD_BYTES).read_to_end(&mut bytes).map_err(io)?;
    let head = String::from_utf8_lossy(bytes.strip_prefix(BOM).unwrap_or(&bytes)).into_owned();
    let Some(first) = head.split_whitespace().next() else {
        return if size <= HEAD_BYTES { Ok(bytes) } else { Err(err(path, ErrorKind::NotANumber, "no number in the first 4 KiB")) };
    };
    // A first token cut at HEAD_BYTES or not a number is reported by the full parse.
    if let Ok(n) = first.parse::<i64>() {
        let n = check_n(path, n)? as u64;
        let cap = numbers(n) * BYTES_PER_NUMBER + HEAD_BYTES;
        if size > cap {
            return Err(err(
                path,
                ErrorKind::TooLarge,
                format!("{size} bytes is more than {} numbers for n = {n} can take ({cap} bytes)", numbers(n)),
            ));
        }
        bytes.try_reserve(size as usize).map_err(|_| err(path, ErrorKind::TooLarge, format!("{size} bytes do not fit in memory")))?;
    } else if size > HEAD_BYTES {
        let shown: String = first.chars().take(20).collect();
        return Err(err(path, ErrorKind::NotANumber, format!("token 1 (`{shown}`) is not an integer")));
    }
    file.read_to_end(&mut bytes).map_err(io)?;
    Ok(bytes)
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

/// Parses the bytes of a `.dat` file: n, then A (n×n), then B (n×n). A leading byte-order
/// mark is skipped.
pub fn parse_dat_bytes(path: &Path, bytes: &[u8]) -> Result<Instance, QapError> {
    parse_dat(path, text_of(path, bytes)?)
}

/// Parses the text of a `.dat` file: n, then A (n×n), then B (n×n).
pub fn parse_dat(path: &Path, text: &str) -> Result<Instance, QapError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let n = first_n(path, text, "empty file: expected n, then two n×n matrices")?;
    let want = 1 + 2 * n * n;
    let (nums, found) = integers(path, text, want)?;
    if found != want {
        return Err(err(path, ErrorKind::TokenCount, format!("expected 1 + 2·n² = {want} numbers for n = {n}, found {found}")));
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
    Instance::new(name, n, a.to_vec(), b.to_vec()).map_err(|e| err(path, e.kind, e.message))
}

pub fn read_dat(path: &Path) -> Result<Instance, QapError> {
    parse_dat_bytes(path, &read_capped(path, |n| 1 + 2 * n * n)?)
}

/// A `.sln` file: n, the cost, then the permutation p(1) … p(n), 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlnFile {
    pub n: usize,
    pub cost: i64,
    /// 0-based: `perm[i]` is the location of facility i.
    pub perm: Vec<u8>,
}

/// Parses the bytes of a `.sln` file (a leading byte-order mark is skipped).
pub fn parse_sln_bytes(path: &Path, bytes: &[u8]) -> Result<SlnFile, QapError> {
    parse_sln(path, text_of(path, bytes)?)
}

pub fn parse_sln(path: &Path, text: &str) -> Result<SlnFile, QapError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let n = first_n(path, text, "empty file: expected n, the cost, then n positions")?;
    let (nums, found) = integers(path, text, n + 2)?;
    if found != n + 2 {
        return Err(err(path, ErrorKind::TokenCount, format!("expected 2 + n = {} numbers for n = {n}, found {found}", n + 2)));
    }
    let perm: Vec<u8> = nums[2..]
        .iter()
        .map(|&v| if (1..=n as i64).contains(&v) { Ok((v - 1) as u8) } else { Err(v) })
        .collect::<Result<_, _>>()
        .map_err(|v| err(path, ErrorKind::OutOfRange, format!("position {v} is outside 1..={n}")))?;
    if !qapgpu_common::ops::is_permutation(&perm) {
        return Err(err(path, ErrorKind::NotAPermutation, "the positions are not a permutation of 1..=n (a value repeats)"));
    }
    Ok(SlnFile { n, cost: nums[1], perm })
}

pub fn read_sln(path: &Path) -> Result<SlnFile, QapError> {
    parse_sln_bytes(path, &read_capped(path, |n| n + 2)?)
}

/// QAPLIB `.sln` text for a 0-based permutation.
pub fn format_sln(cost: i64, perm: &[u8]) -> String {
    let body: Vec<String> = perm.iter().map(|&g| (g as u32 + 1).to_string()).collect();
    format!("{} {}\n{}\n", perm.len(), cost, body.join(" "))
}

pub fn write_sln(path: &Path, cost: i64, perm: &[u8]) -> Result<(), QapError> {
    std::fs::write(path, format_sln(cost, perm)).map_err(|e| err(path, ErrorKind::Io, format!("cannot write: {e}")))
}

/// QAPLIB `.dat` text of an instance: n, then A and B row by row (A and B as QAPLIB
/// orders them: `Instance::a` first).
pub fn format_dat(inst: &Instance) -> String {
    let n = inst.n;
    let rows = |m: &[i64]| -> String { m.chunks(n).map(|r| r.iter().map(i64::to_string).collect::<Vec<_>>().join(" ") + "\n").collect() };
    format!("{n}\n\n{}\n{}", rows(&inst.a), rows(&inst.b))
}

pub fn write_dat(path: &Path, inst: &Instance) -> Result<(), QapError> {
    std::fs::write(path, format_dat(inst)).map_err(|e| err(path, ErrorKind::Io, format!("cannot write: {e}")))
}

/// The instances shipped in the repository (`data/qaplib`): those the tests load and the
/// README's examples name, so that a clone runs them without the full library.
pub const BUNDLED_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/qaplib");

/// The folder of QAPLIB files, the first of: `$QAPLIB_DIR` (the user's choice, taken even
/// where it does not exist, so that a wrong path is reported rather than hidden);
/// `../shared/qaplib` from the working directory, then beside the workspace (the full
/// library where the project keeps it); the workspace's `data/qaplib` (`BUNDLED_DIR`), the
/// few instances shipped for the tests and examples. The last two paths are fixed at
/// compile time, so a binary moved elsewhere needs `QAPLIB_DIR`.
pub fn qaplib_dir() -> PathBuf {
    let shared = [PathBuf::from("../shared/qaplib"), Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/qaplib")];
    first_dir(std::env::var_os("QAPLIB_DIR"), shared)
}

/// `qaplib_dir`'s order over a given variable and shared folders (apart for its test).
fn first_dir(var: Option<std::ffi::OsString>, shared: [PathBuf; 2]) -> PathBuf {
    var.map(PathBuf::from).or_else(|| shared.into_iter().find(|d| d.is_dir())).unwrap_or_else(|| PathBuf::from(BUNDLED_DIR))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Without `QAPLIB_DIR` and without a shared folder, the shipped instances are found, with
    /// their best-known values from the shipped `bks.csv`; the variable and a shared folder
    /// come first, the variable even where it names nothing.
    #[test]
    fn the_shipped_folder_is_the_last_resort() {
        let none = || [PathBuf::from("/nonexistent/shared/qaplib"), PathBuf::from("no/such/shared/qaplib")];
        let bundled = first_dir(None, none());
        assert_eq!(bundled, Path::new(BUNDLED_DIR));
        let nug12 = bundled.join("nug12.dat");
        assert_eq!(read_dat(&nug12).unwrap().n, 12);
        assert_eq!(best_known(&nug12, "nug12"), Some(578));
        assert_eq!(best_known(&bundled.join("tai40a.dat"), "tai40a"), Some(3139370), "from bks.csv: there is no tai40a.sln");
        let shared = std::env::temp_dir();
        assert_eq!(first_dir(None, [PathBuf::from("/nonexistent"), shared.clone()]), shared);
        assert_eq!(first_dir(Some("/set/by/user".into()), [shared.clone(), shared]), Path::new("/set/by/user"));
    }
}
