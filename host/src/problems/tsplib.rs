//! TSPLIB files (Reinelt 1991): `TYPE: TSP` or `ATSP`, `EDGE_WEIGHT_TYPE` `EUC_2D`,
//! `CEIL_2D`, `ATT`, `GEO` (with a `NODE_COORD_SECTION`) or `EXPLICIT` (with an
//! `EDGE_WEIGHT_SECTION` in `FULL_MATRIX`, `UPPER_ROW`, `LOWER_ROW`, `UPPER_DIAG_ROW`,
//! `LOWER_DIAG_ROW` or their `_COL` twins). Distances follow TSPLIB's definitions (GEO as
//! Concorde computes it, which gives the published optima).
use super::{ProblemError, file_error, read_text};
use std::path::Path;

/// Fewest and most cities (a tour needs 3; a QAP takes at most 256 locations).
pub const MIN_CITIES: usize = 3;
/// The most cities: a QAP takes at most 256 locations.
pub const MAX_CITIES: usize = qapgpu_common::MAX_N;

/// A TSP: the name and the n×n distance matrix (row-major; `d[i][j]` from city i to city j).
#[derive(Debug, Clone, PartialEq)]
pub struct TspData {
    /// The name (TSPLIB's `NAME`, or the file's stem).
    pub name: String,
    /// Cities.
    pub n: usize,
    /// Distances, row-major.
    pub dist: Vec<i64>,
    /// Edge weight type, for the report.
    pub weight_type: String,
    /// The cities' coordinates, where the distances come from them (not `EXPLICIT`).
    pub coords: Option<Vec<(f64, f64)>>,
}

impl TspData {
    /// The distance from city `i` to city `j`.
    pub fn d(&self, i: usize, j: usize) -> i64 {
        self.dist[i * self.n + j]
    }

    /// Whether every distance equals its reverse (a TSP rather than an ATSP).
    pub fn is_symmetric(&self) -> bool {
        is_symmetric(&self.dist, self.n)
    }
}

/// Whether the n×n row-major matrix `dist` equals its transpose.
pub fn is_symmetric(dist: &[i64], n: usize) -> bool {
    (0..n).all(|i| (0..i).all(|j| dist[i * n + j] == dist[j * n + i]))
}

/// Reads a TSPLIB file.
pub fn read(path: &Path) -> Result<TspData, ProblemError> {
    parse(path, &read_text(path)?)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Weights {
    Euc2d,
    Ceil2d,
    Att,
    Geo,
    Explicit,
}

/// Parses a TSPLIB file; every error names `path` and, where it helps, the keyword or line.
pub fn parse(path: &Path, text: &str) -> Result<TspData, ProblemError> {
    let bad = |m: String| file_error(path, m);
    let mut name = path.file_stem().map_or("tsp".into(), |s| s.to_string_lossy().into_owned());
    let (mut n, mut weights, mut format) = (None::<usize>, None::<Weights>, None::<String>);
    let mut coords: Option<Vec<(f64, f64)>> = None;
    let mut explicit: Option<Vec<i64>> = None;
    let mut lines = text.lines().enumerate().peekable();
    while let Some((k, raw)) = lines.next() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let (key, value) = match line.split_once(':') {
            Some((a, b)) => (a.trim().to_ascii_uppercase(), b.trim().to_string()),
            None => (line.split_whitespace().next().unwrap_or("").to_ascii_uppercase(), String::new()),
        };
        match key.as_str() {
            "NAME" => name = value,
            "COMMENT" | "DISPLAY_DATA_TYPE" | "NODE_COORD_TYPE" => {}
            "TYPE" => {
                // The type is the value's first word: si175 has `TYPE: TSP (M.~Hofmeister)`.
                let kind = value.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
                if !matches!(kind.as_str(), "TSP" | "ATSP") {
                    return Err(bad(format!("TYPE {value} is not a TSP (TSP or ATSP expected)")));
                }
            }
            "DIMENSION" => {
                let d: i64 = value.parse().map_err(|_| bad(format!("DIMENSION `{value}` is not a number")))?;
                if d < MIN_CITIES as i64 || d > MAX_CITIES as i64 {
                    return Err(bad(format!(
                        "DIMENSION {d} is outside {MIN_CITIES}..={MAX_CITIES} (a QAP takes at most {MAX_CITIES} cities)"
                    )));
                }
                // TSPLIB gives DIMENSION once, before the sections, which are read for it:
                // another would drop cities or ask for some that were never given.
                if let Some(m) = n {
                    let conflict = if m == d as usize {
                        "repeats".to_string()
                    } else {
                        format!("contradicts the DIMENSION {m} given before")
                    };
                    return Err(bad(format!(
                        "line {}: DIMENSION {d} {conflict} (TSPLIB gives it once, before the sections)",
                        k + 1
                    )));
                }
                n = Some(d as usize);
            }
            "EDGE_WEIGHT_TYPE" => {
                weights = Some(match value.to_ascii_uppercase().as_str() {
                    "EUC_2D" => Weights::Euc2d,
                    "CEIL_2D" => Weights::Ceil2d,
                    "ATT" => Weights::Att,
                    "GEO" => Weights::Geo,
                    "EXPLICIT" => Weights::Explicit,
                    other => {
                        return Err(bad(format!(
                            "EDGE_WEIGHT_TYPE {other} is not supported (EUC_2D, CEIL_2D, ATT, GEO, EXPLICIT)"
                        )));
                    }
                })
            }
            "EDGE_WEIGHT_FORMAT" => format = Some(value.to_ascii_uppercase()),
            "NODE_COORD_SECTION" => {
                let n = n.ok_or_else(|| bad("NODE_COORD_SECTION before DIMENSION".into()))?;
                let mut c = vec![(f64::NAN, f64::NAN); n];
                for _ in 0..n {
                    let (k, l) =
                        lines.next().ok_or_else(|| bad(format!("NODE_COORD_SECTION ends before its {n} cities")))?;
                    let t: Vec<&str> = l.split_whitespace().collect();
                    let at = |m: String| bad(format!("line {}: {m}", k + 1));
                    if t.len() != 3 {
                        return Err(at("expected `city x y`".into()));
                    }
                    let i: usize = t[0].parse().map_err(|_| at(format!("`{}` is not a city number", t[0])))?;
                    if !(1..=n).contains(&i) {
                        return Err(at(format!("city {i} is outside 1..={n}")));
                    }
                    let num = |s: &str| {
                        s.parse::<f64>()
                            .ok()
                            .filter(|v| v.is_finite() && v.abs() <= 1e9)
                            .ok_or_else(|| at(format!("`{s}` is not a coordinate (a finite number up to 10⁹)")))
                    };
                    if !c[i - 1].0.is_nan() {
                        return Err(at(format!("city {i} appears twice")));
                    }
                    c[i - 1] = (num(t[1])?, num(t[2])?);
                }
                coords = Some(c);
            }
            "EDGE_WEIGHT_SECTION" => {
                let n = n.ok_or_else(|| bad("EDGE_WEIGHT_SECTION before DIMENSION".into()))?;
                let fmt = format.clone().ok_or_else(|| bad("EDGE_WEIGHT_SECTION without EDGE_WEIGHT_FORMAT".into()))?;
                let count = explicit_count(&fmt, n).ok_or_else(|| bad(format!("EDGE_WEIGHT_FORMAT {fmt} is not supported (FULL_MATRIX, UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW and the _COL forms)")))?;
                let mut nums = Vec::with_capacity(count);
                while nums.len() < count {
                    let (k, l) = lines.next().ok_or_else(|| {
                        bad(format!("EDGE_WEIGHT_SECTION ends after {} of its {count} numbers", nums.len()))
                    })?;
                    for t in l.split_whitespace() {
                        if nums.len() == count {
                            return Err(bad(format!(
                                "line {}: more numbers than the {count} of a {fmt} of {n} cities",
                                k + 1
                            )));
                        }
                        let v: i64 = t.parse().map_err(|_| {
                            bad(format!(
                                "line {}: `{}` is not an integer distance",
                                k + 1,
                                t.chars().take(20).collect::<String>()
                            ))
                        })?;
                        if v.unsigned_abs() > i32::MAX as u64 {
                            return Err(bad(format!("line {}: distance {v} does not fit in 32 bits", k + 1)));
                        }
                        nums.push(v);
                    }
                }
                explicit = Some(full_matrix(&fmt, n, &nums));
            }
            "DISPLAY_DATA_SECTION" => {
                for _ in 0..n.unwrap_or(0) {
                    lines.next();
                }
            }
            "EOF" => break,
            other => {
                return Err(bad(format!(
                    "line {}: unknown keyword `{}`",
                    k + 1,
                    other.chars().take(30).collect::<String>()
                )));
            }
        }
    }
    let n = n.ok_or_else(|| bad("no DIMENSION".into()))?;
    let weights = weights.ok_or_else(|| bad("no EDGE_WEIGHT_TYPE".into()))?;
    let mut kept = None;
    let dist = if weights == Weights::Explicit {
        let d = explicit.ok_or_else(|| bad("EDGE_WEIGHT_TYPE EXPLICIT without an EDGE_WEIGHT_SECTION".into()))?;
        if d.len() != n * n {
            return Err(bad(format!("EDGE_WEIGHT_SECTION gives {} distances, DIMENSION {n} needs {}", d.len(), n * n)));
        }
        d
    } else {
        let c = coords.ok_or_else(|| bad("no NODE_COORD_SECTION".into()))?;
        if c.len() != n {
            return Err(bad(format!("NODE_COORD_SECTION has {} cities, DIMENSION {n}", c.len())));
        }
        let mut d = vec![0i64; n * n];
        for i in 0..n {
            for j in 0..n {
                if i != j {
                    d[i * n + j] = distance(weights, c[i], c[j]);
                }
            }
        }
        kept = Some(c);
        d
    };
    let weight_type = format!("{weights:?}").to_uppercase();
    Ok(TspData { name, n, dist, weight_type, coords: kept })
}

/// Numbers in an `EDGE_WEIGHT_SECTION` of `format` for n cities.
fn explicit_count(format: &str, n: usize) -> Option<usize> {
    Some(match format {
        "FULL_MATRIX" => n * n,
        "UPPER_ROW" | "LOWER_ROW" | "UPPER_COL" | "LOWER_COL" => n * (n - 1) / 2,
        "UPPER_DIAG_ROW" | "LOWER_DIAG_ROW" | "UPPER_DIAG_COL" | "LOWER_DIAG_COL" => n * (n + 1) / 2,
        _ => return None,
    })
}

/// The full matrix from an explicit section. A triangle gives a symmetric matrix; a `_COL`
/// triangle read column by column is the other triangle read row by row.
fn full_matrix(format: &str, n: usize, nums: &[i64]) -> Vec<i64> {
    let mut d = vec![0i64; n * n];
    if format == "FULL_MATRIX" {
        d.copy_from_slice(nums);
        return d;
    }
    // (row, col) pairs of the triangle in file order.
    let upper = matches!(format, "UPPER_ROW" | "UPPER_DIAG_ROW" | "LOWER_COL" | "LOWER_DIAG_COL");
    let diag = format.contains("DIAG");
    let mut it = nums.iter();
    for i in 0..n {
        let cols: Box<dyn Iterator<Item = usize>> = match (upper, diag) {
            (true, false) => Box::new(i + 1..n),
            (true, true) => Box::new(i..n),
            (false, false) => Box::new(0..i),
            (false, true) => Box::new(0..=i),
        };
        for j in cols {
            let v = *it.next().expect("count checked");
            if i != j {
                d[i * n + j] = v;
                d[j * n + i] = v;
            }
        }
    }
    d
}

/// TSPLIB's nint: round half up.
fn nint(x: f64) -> i64 {
    (x + 0.5).floor() as i64
}

/// TSPLIB's GEO latitude or longitude in radians from DDD.MM (degrees, minutes).
fn geo_radians(x: f64) -> f64 {
    // TSPLIB's own value, which its published GEO optima assume (not `f64::consts::PI`).
    #[allow(clippy::approx_constant)]
    const PI: f64 = 3.141592;
    let deg = x.trunc();
    let min = x - deg;
    PI * (deg + 5.0 * min / 3.0) / 180.0
}

/// The distance of one edge under `w` (not `Explicit`).
fn distance(w: Weights, a: (f64, f64), b: (f64, f64)) -> i64 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    match w {
        Weights::Euc2d => nint((dx * dx + dy * dy).sqrt()),
        Weights::Ceil2d => (dx * dx + dy * dy).sqrt().ceil() as i64,
        Weights::Att => {
            let r = ((dx * dx + dy * dy) / 10.0).sqrt();
            let t = nint(r);
            if (t as f64) < r { t + 1 } else { t }
        }
        Weights::Geo => {
            const RRR: f64 = 6378.388;
            let (lat_a, lon_a, lat_b, lon_b) = (geo_radians(a.0), geo_radians(a.1), geo_radians(b.0), geo_radians(b.1));
            let q1 = (lon_a - lon_b).cos();
            let q2 = (lat_a - lat_b).cos();
            let q3 = (lat_a + lat_b).cos();
            (RRR * (0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)).clamp(-1.0, 1.0).acos() + 1.0) as i64
        }
        Weights::Explicit => unreachable!("explicit distances are read, not computed"),
    }
}

/// A TSPLIB file of cities at integer coordinates, EUC_2D (what `generate` writes).
pub fn format_euc2d(name: &str, comment: &str, cities: &[(i64, i64)]) -> String {
    let mut s = format!(
        "NAME : {name}\nCOMMENT : {comment}\nTYPE : TSP\nDIMENSION : {}\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n",
        cities.len()
    );
    for (i, (x, y)) in cities.iter().enumerate() {
        s += &format!("{} {x} {y}\n", i + 1);
    }
    s + "EOF\n"
}
