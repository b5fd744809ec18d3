//! QAPLIB `.dat` / `.sln` readers and writer. Every error names the file and what is wrong;
//! n is checked from the first number before the rest is read, and no more is read than
//! 1 + 2n² numbers can take.
use super::input::{Fault, Input, read_text};
pub use super::instance::ErrorKind;
use super::instance::Instance;
use std::ffi::OsStr;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

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
    /// The file.
    pub path: PathBuf,
    /// What kind of fault.
    pub kind: ErrorKind,
    /// The reason, in one line.
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

/// Reads a file whose first number is n and which holds `numbers(n)` numbers, through the
/// one bounded input path (`input`): n is read first, from a head of at most `HEAD_BYTES`
/// of blanks and one number of at most `BYTES_PER_NUMBER` bytes (read whole where it crosses
/// `HEAD_BYTES`), and checked; then no more than those numbers can take is read, and a
/// regular file longer than that is refused unread.
fn read_capped(path: &Path, numbers: impl Fn(u64) -> u64) -> Result<Vec<u8>, QapError> {
    let mut input = Input::open(path).map_err(|f| fault(path, f))?;
    let mut bytes = Vec::new();
    if input.read_up_to(&mut bytes, HEAD_BYTES + BYTES_PER_NUMBER).map_err(|f| fault(path, f))? {
        // The whole file: the parse says what is wrong with it, if anything.
        return Ok(bytes);
    }
    let head = String::from_utf8_lossy(bytes.strip_prefix(BOM).unwrap_or(&bytes)).into_owned();
    let rest = head.trim_start();
    let first = rest.split(char::is_whitespace).next().unwrap_or_default();
    if first.is_empty() || head.len() - rest.len() > HEAD_BYTES as usize {
        return Err(err(path, ErrorKind::NotANumber, "no number in the first 4 KiB"));
    }
    // A token that runs to the end of the head is longer than any number.
    let whole = rest.len() > first.len();
    let n = first.parse::<i64>().ok().filter(|_| whole).ok_or_else(|| {
        let shown: String = first.chars().take(20).collect();
        err(path, ErrorKind::NotANumber, format!("token 1 (`{shown}`) is not an integer"))
    })?;
    let n = check_n(path, n)? as u64;
    let cap = numbers(n) * BYTES_PER_NUMBER + HEAD_BYTES;
    input.read_rest(&mut bytes, cap).map_err(|f| match f {
        Fault::TooLong { size: Some(size), .. } => err(
            path,
            ErrorKind::TooLarge,
            format!("{size} bytes is more than {} numbers for n = {n} can take ({cap} bytes)", numbers(n)),
        ),
        Fault::TooLong { size: None, .. } => err(
            path,
            ErrorKind::TooLarge,
            format!(
                "longer than the {cap} bytes that {} numbers for n = {n} can take (refused after reading that much)",
                numbers(n)
            ),
        ),
        refused => fault(path, refused),
    })?;
    Ok(bytes)
}

/// An input's fault as this reader's error.
fn fault(path: &Path, f: Fault) -> QapError {
    let kind = if matches!(f, Fault::Refused(_)) { ErrorKind::Io } else { ErrorKind::TooLarge };
    err(path, kind, f.to_string())
}

fn check_n(path: &Path, n: i64) -> Result<usize, QapError> {
    if n < 2 {
        return Err(err(path, ErrorKind::BadSize, format!("n = {n}: a QAP instance needs n ≥ 2")));
    }
    if n > qapgpu_common::WIDE_MAX_N as i64 {
        return Err(err(
            path,
            ErrorKind::BadSize,
            format!("n = {n} exceeds the limit of {} (the wide path's largest n)", qapgpu_common::WIDE_MAX_N),
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
        return Err(err(
            path,
            ErrorKind::TokenCount,
            format!("expected 1 + 2·n² = {want} numbers for n = {n}, found {found}"),
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
    Instance::new(name, n, a.to_vec(), b.to_vec()).map_err(|e| err(path, e.kind, e.message))
}

/// Reads a QAPLIB `.dat` file: n, then A and B.
pub fn read_dat(path: &Path) -> Result<Instance, QapError> {
    let bytes = read_capped(path, |n| 1 + 2 * n * n).map_err(|e| match path.parent() {
        // A name looked up in the QAPLIB folder that is not there: say where to point.
        Some(dir) if !path.exists() && dir == qaplib_dir() => QapError {
            message: format!(
                "{}; the name was looked up in {}: set QAPLIB_DIR to the folder of the whole QAPLIB, or give a path",
                e.message,
                dir.display()
            ),
            ..e
        },
        _ => e,
    })?;
    parse_dat_bytes(path, &bytes)
}

/// A `.sln` file: n, the cost, then the permutation p(1) … p(n), 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlnFile {
    /// Problem size.
    pub n: usize,
    /// The cost the file states.
    pub cost: i64,
    /// 0-based: `perm[i]` is the location of facility i.
    pub perm: Vec<u16>,
}

/// Parses the bytes of a `.sln` file (a leading byte-order mark is skipped).
pub fn parse_sln_bytes(path: &Path, bytes: &[u8]) -> Result<SlnFile, QapError> {
    parse_sln(path, text_of(path, bytes)?)
}

/// Parses the text of a `.sln` file (`path` names it in errors).
pub fn parse_sln(path: &Path, text: &str) -> Result<SlnFile, QapError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let n = first_n(path, text, "empty file: expected n, the cost, then n positions")?;
    let (nums, found) = integers(path, text, n + 2)?;
    if found != n + 2 {
        return Err(err(
            path,
            ErrorKind::TokenCount,
            format!("expected 2 + n = {} numbers for n = {n}, found {found}", n + 2),
        ));
    }
    let perm: Vec<u16> = nums[2..]
        .iter()
        .map(|&v| if (1..=n as i64).contains(&v) { Ok((v - 1) as u16) } else { Err(v) })
        .collect::<Result<_, _>>()
        .map_err(|v| err(path, ErrorKind::OutOfRange, format!("position {v} is outside 1..={n}")))?;
    if !crate::perm::is_permutation(&perm, n) {
        return Err(err(
            path,
            ErrorKind::NotAPermutation,
            "the positions are not a permutation of 1..=n (a value repeats)",
        ));
    }
    Ok(SlnFile { n, cost: nums[1], perm })
}

/// Reads a `.sln` file.
pub fn read_sln(path: &Path) -> Result<SlnFile, QapError> {
    parse_sln_bytes(path, &read_capped(path, |n| n + 2)?)
}

/// QAPLIB `.sln` text for a 0-based permutation.
pub fn format_sln(cost: i64, perm: &[u16]) -> String {
    let body: Vec<String> = perm.iter().map(|&g| (g as u32 + 1).to_string()).collect();
    format!("{} {}\n{}\n", perm.len(), cost, body.join(" "))
}

/// QAPLIB `.dat` text of an instance: n, then A and B row by row (A and B as QAPLIB
/// orders them: `Instance::a` first).
pub fn format_dat(inst: &Instance) -> String {
    let n = inst.n;
    let rows = |m: &[i64]| -> String {
        m.chunks(n).map(|r| r.iter().map(i64::to_string).collect::<Vec<_>>().join(" ") + "\n").collect()
    };
    format!("{n}\n\n{}\n{}", rows(&inst.a), rows(&inst.b))
}

/// Writes `inst` as a `.dat` file, whole or not at all (`output::replace`).
pub fn write_dat(path: &Path, inst: &Instance) -> Result<(), QapError> {
    crate::output::replace(path, format_dat(inst).as_bytes())
        .map_err(|e| err(path, ErrorKind::Io, format!("cannot write: {e}")))
}

/// The instances shipped in the repository (`data/qaplib`): those the tests load and the
/// README's examples name, so that a clone runs them without the full library.
pub fn bundled_dir() -> PathBuf {
    workspace().join("data/qaplib")
}

/// The workspace this binary was built in (fixed at compile time).
fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(Path::new("."))
}

/// The folder of QAPLIB files, the first of: `$QAPLIB_DIR` (the user's choice, taken even
/// where it does not exist, so that a wrong path is reported rather than hidden);
/// `../shared/qaplib` from the working directory, then beside the workspace (the full
/// library where the project keeps it); the workspace's `data/qaplib` (`bundled_dir`), the
/// few instances shipped for the tests and examples. The last two paths are fixed at
/// compile time, so a binary moved elsewhere needs `QAPLIB_DIR`.
pub fn qaplib_dir() -> PathBuf {
    let beside = workspace().parent().unwrap_or(Path::new("..")).join("shared/qaplib");
    let shared = [PathBuf::from("../shared/qaplib"), beside];
    first_dir(std::env::var_os("QAPLIB_DIR"), shared)
}

/// `qaplib_dir`'s order over a given variable and shared folders (apart for its test).
fn first_dir(var: Option<std::ffi::OsString>, shared: [PathBuf; 2]) -> PathBuf {
    var.map(PathBuf::from).or_else(|| shared.into_iter().find(|d| d.is_dir())).unwrap_or_else(bundled_dir)
}

/// Paths that are not UTF-8, by the names `name_of` gave them.
static NAMED: Mutex<Vec<(String, PathBuf)>> = Mutex::new(Vec::new());

/// A name for an instance given as a name or a path, for the tables that show it and for
/// `resolve`: the text itself where it is UTF-8; else its lossy form, which `resolve` maps
/// back to the path for the rest of the process (numbered where two paths look alike).
pub fn name_of(given: &OsStr) -> String {
    if let Some(s) = given.to_str() {
        return s.to_string();
    }
    let mut named = NAMED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((name, _)) = named.iter().find(|(_, p)| p.as_os_str() == given) {
        return name.clone();
    }
    let lossy = given.to_string_lossy().into_owned();
    let name = (1..)
        .map(|k| if k == 1 { lossy.clone() } else { format!("{lossy} ({k})") })
        .find(|c| named.iter().all(|(n, _)| n != c))
        .unwrap_or(lossy);
    named.push((name.clone(), PathBuf::from(given)));
    name
}

/// `NAME` or a path: a bare name without `.dat` is looked up in `qaplib_dir()`, then in
/// `bundled_dir()` (for an instance the library folder lacks). Any file
/// name is taken, UTF-8 or not (and a name `name_of` gave is its path again).
pub fn resolve(instance: impl AsRef<OsStr>) -> PathBuf {
    let instance = instance.as_ref();
    let named = NAMED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .find(|(n, _)| instance == OsStr::new(n))
        .map(|(_, p)| p.clone());
    if let Some(p) = named {
        return p;
    }
    let p = PathBuf::from(instance);
    let bytes = p.as_os_str().as_encoded_bytes();
    if p.exists() || bytes.contains(&b'/') || bytes.ends_with(b".dat") {
        p
    } else {
        let mut file = p.into_os_string();
        file.push(".dat");
        let library = qaplib_dir();
        let in_library = library.join(&file);
        // An instance an existing library folder lacks but the repository ships (kra32); a
        // QAPLIB_DIR that does not exist is reported, not passed over.
        let shipped = bundled_dir().join(&file);
        if library.is_dir() && !in_library.exists() && shipped.is_file() { shipped } else { in_library }
    }
}

/// A best-known value and the file it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestKnown {
    /// The best-known cost.
    pub value: i64,
    /// The file that gave it.
    pub source: PathBuf,
}

/// What `best_known` found, and a note for every value it passed over (one given for
/// another n) or file it could not read.
#[derive(Debug, Clone, Default)]
pub struct Lookup {
    /// The value found, if any.
    pub found: Option<BestKnown>,
    /// What was passed over, one note each.
    pub notes: Vec<String>,
}

impl Lookup {
    /// The value found, if any.
    pub fn value(&self) -> Option<i64> {
        self.found.as_ref().map(|b| b.value)
    }

    /// Where the value came from, for a report.
    pub fn source(&self) -> Option<String> {
        self.found.as_ref().map(|b| b.source.display().to_string())
    }

    /// The value and where it came from, after printing the notes on stderr unless `quiet`
    /// (a stderr that cannot be written loses them).
    pub fn noted(self, quiet: bool) -> Option<(i64, String)> {
        if !quiet {
            for note in &self.notes {
                let _ = writeln!(std::io::stderr(), "note: {note}");
            }
        }
        Some((self.value()?, self.source()?))
    }
}

/// Whether the library's file of `inst`'s name (`qaplib_dir()`) holds `inst`'s matrices.
fn same_as_library(inst: &Instance) -> bool {
    let path = qaplib_dir().join(format!("{}.dat", inst.name));
    read_dat(&path).is_ok_and(|lib| lib.n == inst.n && lib.a == inst.a && lib.b == inst.b)
}

/// Most bytes a `bks.csv` may take (a line an instance: QAPLIB's 136 take 4 KiB).
const BKS_BYTES: u64 = 1 << 20;

/// Best-known value of `inst` (by its name) from the `bks.csv` beside the instance file
/// `dat`, else the one in `qaplib_dir()`, else a `.sln` of the file's name beside it: the
/// first whose n is the instance's. A value given for another n (a user's own `nug12.dat` of
/// n = 6) belongs to another instance: it is passed over, with a note. The library's value
/// is taken for a file outside the library only where the library's file of that name holds
/// the same matrices (a user's own `nug12.dat` of n = 12 is not QAPLIB's nug12).
pub fn best_known(dat: &Path, inst: &Instance) -> Lookup {
    let (name, n) = (inst.name.as_str(), inst.n);
    let dir = dat.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut lookup = Lookup::default();
    let (beside, lib) = (dir.join("bks.csv"), qaplib_dir().join("bks.csv"));
    let same = beside == lib || beside.canonicalize().is_ok_and(|b| lib.canonicalize().is_ok_and(|l| b == l));
    let csvs = if same { vec![beside] } else { vec![beside, lib.clone()] };
    for csv in csvs.iter().filter(|c| c.exists()) {
        match bks_rows(csv, name) {
            Err(why) => lookup.notes.push(format!("{}: not used for best-known values: {why}", csv.display())),
            Ok(rows) => {
                if let Some(&(_, value)) = rows.iter().find(|r| r.0 == Some(n)) {
                    if *csv == lib && !same && !same_as_library(inst) {
                        lookup.notes.push(format!(
                            "{}: {name} there is not this {name} (its matrices differ or its file is missing): its best-known value {value} is not used",
                            csv.display()
                        ));
                        continue;
                    }
                    lookup.found = Some(BestKnown { value, source: csv.clone() });
                    return lookup;
                }
                lookup.notes.extend(rows.iter().map(|&(m, value)| {
                    let m = m.map_or("no n".into(), |m| format!("n = {m}"));
                    format!("{}: {name} has {m} there, but this {name} has n = {n}: its best-known value {value} is not used", csv.display())
                }));
            }
        }
    }
    // Beside the file, by its own name (which need not be UTF-8).
    let mut sln = dat.file_stem().map_or_else(|| name.into(), OsStr::to_os_string);
    sln.push(".sln");
    let sln = dir.join(sln);
    if sln.exists() {
        match read_sln(&sln) {
            Ok(s) if s.n == n => lookup.found = Some(BestKnown { value: s.cost, source: sln }),
            Ok(s) => lookup.notes.push(format!(
                "{}: n = {}, but the instance has n = {n}: its cost {} is not used as the best known",
                sln.display(),
                s.n,
                s.cost
            )),
            Err(e) => lookup.notes.push(format!("{e} (not used as the best known)")),
        }
    }
    lookup
}

/// The rows of `name` in a `bks.csv` (`instance,n,best_known,…` after a header line): each
/// row's n (None where it is not a number) and value; a row whose value is not a number is
/// skipped.
fn bks_rows(csv: &Path, name: &str) -> Result<Vec<(Option<usize>, i64)>, String> {
    let text = read_text(csv, BKS_BYTES).map_err(|f| f.to_string())?;
    Ok(text
        .lines()
        .skip(1)
        .map(|line| line.split(',').map(str::trim).collect::<Vec<_>>())
        .filter(|f| f.len() >= 3 && f[0] == name)
        .filter_map(|f| Some((f[1].parse().ok(), f[2].parse().ok()?)))
        .collect())
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
        assert_eq!(bundled, bundled_dir());
        assert!(!bundled.to_string_lossy().contains(".."), "{} is shown in reports", bundled.display());
        let nug12 = bundled.join("nug12.dat");
        let inst = read_dat(&nug12).unwrap();
        assert_eq!(inst.n, 12);
        assert_eq!(best_known(&nug12, &inst).value(), Some(578));
        let tai40a = bundled.join("tai40a.dat");
        let found = best_known(&tai40a, &read_dat(&tai40a).unwrap()).found.unwrap();
        assert_eq!(
            (found.value, found.source),
            (3139370, bundled.join("bks.csv")),
            "from bks.csv: there is no tai40a.sln"
        );
        let shared = std::env::temp_dir();
        assert_eq!(first_dir(None, [PathBuf::from("/nonexistent"), shared.clone()]), shared);
        assert_eq!(first_dir(Some("/set/by/user".into()), [shared.clone(), shared]), Path::new("/set/by/user"));
    }
}
