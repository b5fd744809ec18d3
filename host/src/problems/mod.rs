//! Other problems posed as QAPs (seed 004 §2.1.3 and §3.9): each module reads its problem,
//! builds the QAP (F, D; negative entries where the reduction needs them), turns a
//! permutation back into the problem's answer, and checks that answer against the
//! problem's own data, never against the QAP's matrices.
//!
//! Every reduction maps a permutation `p` (facility i at location p(i)) as follows:
//!
//! | problem | facilities | locations | cost of p |
//! |---|---|---|---|
//! | tsp | tour positions | cities | tour length |
//! | lap | vertices | positions 0..n | Σ w·\|pos u − pos v\| |
//! | clique | k clique slots + n − k others | vertices | −2·(edges among the k chosen) |
//! | gpp | k blocks of n/k slots | vertices | −2·(weight inside the parts) |
//! | packing | vertices of G1 | vertices of G2 | 2·(edges of G1 on edges of G2) |
//! | knight | tour positions | squares | steps that are not knight moves |
//! | rooks, queens, bishops | pieces + empty squares | squares | 2·(attacking pairs) |
pub mod chess;
pub mod clique;
pub mod generate;
pub mod gpp;
pub mod graph;
pub mod graph_polish;
pub mod lap;
pub mod orders;
pub mod packing;
pub mod plateau;
pub mod polish;
pub mod solve;
pub mod tour;
pub mod tsp;
pub mod tsplib;

use crate::io::Instance;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;
use std::path::{Path, PathBuf};

/// The problems `pose` and `solve --problem` take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Travelling salesman: a TSPLIB file (EUC_2D, CEIL_2D, ATT, GEO, EXPLICIT).
    Tsp,
    /// Minimum linear arrangement of a graph (edge list or DIMACS).
    Lap,
    /// Maximum clique of a graph (DIMACS .clq/.col or edge list).
    Clique,
    /// Graph partitioning into --k equal parts, minimum cut (edge list or DIMACS).
    Gpp,
    /// Graph packing: FILE's graph G1 placed on --graph2's G2 with no edge on an edge.
    Packing,
    /// Knight's tour on a k×k board (closed; --open-tour for an open one).
    Knight,
    /// k non-attacking rooks on a k×k board.
    Rooks,
    /// k non-attacking queens on a k×k board.
    Queens,
    /// 2k − 2 non-attacking bishops on a k×k board (the most there can be).
    Bishops,
}

impl Kind {
    /// The problem's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Tsp => "tsp",
            Kind::Lap => "lap",
            Kind::Clique => "clique",
            Kind::Gpp => "gpp",
            Kind::Packing => "packing",
            Kind::Knight => "knight",
            Kind::Rooks => "rooks",
            Kind::Queens => "queens",
            Kind::Bishops => "bishops",
        }
    }

    /// Whether the problem carries its own target (a valid placement or tour, a k-clique)
    /// rather than taking one in its own terms (`--target` as a tour length, a cut).
    pub fn has_own_target(self) -> bool {
        self.is_board() || self == Kind::Clique
    }

    /// Whether the problem is a board (`--k` is its side, no file).
    pub fn is_board(self) -> bool {
        matches!(self, Kind::Knight | Kind::Rooks | Kind::Queens | Kind::Bishops)
    }
}

/// An input that cannot be posed, in one line naming the file (or option) and the fault.
#[derive(Debug, Clone)]
pub struct ProblemError {
    /// The file, or the option at fault.
    pub source: String,
    /// The fault, in one line.
    pub message: String,
}

impl fmt::Display for ProblemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.message)
    }
}

impl std::error::Error for ProblemError {}

pub(crate) fn file_error(path: &Path, message: impl Into<String>) -> ProblemError {
    ProblemError { source: path.display().to_string(), message: message.into() }
}

pub(crate) fn option_error(option: &str, message: impl Into<String>) -> ProblemError {
    ProblemError { source: option.to_string(), message: message.into() }
}

/// Largest input file read (a graph on 256 vertices or a TSPLIB matrix of 256² numbers
/// takes far less).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The text of a problem file, through the bounded input path (`io::input`): a device or a
/// named pipe is refused unopened, a file larger than `MAX_FILE_BYTES` unread, and a pipe
/// once it passes that.
pub(crate) fn read_text(path: &Path) -> Result<String, ProblemError> {
    use crate::io::input::{Fault, read_bounded};
    let bytes = read_bounded(path, MAX_FILE_BYTES).map_err(|f| {
        let limit = format!("the {} MiB a problem of n ≤ 256 can take", MAX_FILE_BYTES >> 20);
        file_error(
            path,
            match f {
                Fault::Refused(m) => m,
                Fault::TooLong { size: Some(size), .. } => format!("{size} bytes is more than {limit}"),
                Fault::TooLong { size: None, .. } => format!("longer than {limit} (refused after reading that much)"),
            },
        )
    })?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    String::from_utf8(bytes.to_vec()).map_err(|_| file_error(path, "not a text file (invalid UTF-8)"))
}

/// A permutation's answer in the problem's own terms, checked.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The problem's name.
    pub problem: &'static str,
    /// The checker's verdict: a tour, a clique, an equal partition, a valid placement…
    pub valid: bool,
    /// What the checker found wrong (None when valid).
    pub defect: Option<String>,
    /// Name of the problem's measure (`tour_length`, `clique_size`, `cut`, …).
    pub measure: &'static str,
    /// Its value, recomputed by the checker from the problem's data.
    pub value: i64,
    /// The answer's own fields (the tour, the clique's vertices, the board, …).
    #[serde(flatten)]
    pub fields: Map<String, Value>,
    /// The answer drawn for a person (a board, a tour); not in the JSON.
    #[serde(skip)]
    pub drawing: String,
}

impl Answer {
    /// From a checker's verdict: `Ok(value)` or `Err(defect)`; `fallback` is the value
    /// reported when the answer is invalid.
    pub fn checked(
        problem: &'static str,
        measure: &'static str,
        verdict: Result<i64, String>,
        fallback: i64,
    ) -> Answer {
        let (valid, defect, value) = match verdict {
            Ok(v) => (true, None, v),
            Err(d) => (false, Some(d), fallback),
        };
        Answer { problem, valid, defect, measure, value, fields: Map::new(), drawing: String::new() }
    }

    /// The answer with one more field for the JSON report.
    pub fn with(mut self, key: &str, value: impl Serialize) -> Answer {
        self.fields.insert(key.into(), serde_json::to_value(value).expect("answer fields serialise"));
        self
    }

    /// The answer with a drawing for the text report.
    pub fn drawn(mut self, drawing: String) -> Answer {
        self.drawing = drawing;
        self
    }

    /// The text report: verdict, measure, the drawing.
    pub fn text(&self) -> String {
        let verdict = match &self.defect {
            None => "valid (checked against the problem's data)".to_string(),
            Some(d) => format!("NOT valid: {d}"),
        };
        let mut s = format!(
            "{:<16} {}\n{:<16} {verdict}\n{:<16} {}\n",
            "problem", self.problem, "answer", self.measure, self.value
        );
        if !self.drawing.is_empty() {
            s += &self.drawing;
            if !self.drawing.ends_with('\n') {
                s.push('\n');
            }
        }
        s
    }
}

/// A problem posed as a QAP.
pub trait Posed {
    /// Which problem it is.
    fn kind(&self) -> Kind;
    /// The QAP.
    fn qap(&self) -> &Instance;
    /// The QAP cost that proves an answer: a valid placement or tour (boards), a k-clique,
    /// or the known optimum. None when nothing is known.
    fn target(&self) -> Option<i64>;
    /// The problem's measure as a QAP cost (`--known` and `--target` are given in the
    /// problem's terms: a tour length, a cut, an arrangement's length); None where the
    /// problem carries its own target (boards, clique sizes, `Kind::has_own_target`) or
    /// where the cost would not fit in 64 bits (checked arithmetic).
    fn cost_of_measure(&self, _measure: i64) -> Option<i64> {
        None
    }
    /// The answer of a permutation of the QAP, checked against the problem's data.
    fn answer(&self, perm: &[u16]) -> Answer;
    /// The problem's construction heuristics' answers, as permutations of its QAP: starts
    /// for the search (none where the problem has no construction of its own).
    fn starts(&self) -> Vec<Vec<u16>> {
        Vec::new()
    }
    /// The problem's own improvement of its answers (None where it has none).
    fn polish(&self, _seed: u64) -> Option<Box<dyn polish::Polish>> {
        None
    }
}

/// What `pose` needs besides the problem: its file or board side, and the reduction's
/// settings.
#[derive(Debug, Clone, Default)]
pub struct Spec {
    /// The problem's file (TSPLIB, DIMACS or an edge list), where it has one.
    pub file: Option<PathBuf>,
    /// Packing: the second graph's file (G2; `file` is G1).
    pub graph2: Option<PathBuf>,
    /// Board side (boards), clique size (clique, optional), parts (gpp, default 2).
    pub k: Option<usize>,
    /// Knight: an open tour instead of a closed one.
    pub open_tour: bool,
}

/// Poses one problem. The clique problem needs its k here (`clique::Clique::search` finds
/// the largest k).
pub fn pose(kind: Kind, spec: &Spec) -> Result<Box<dyn Posed>, ProblemError> {
    let file = || spec.file.as_deref().ok_or_else(|| option_error(kind.name(), "needs a FILE"));
    let board =
        || spec.k.ok_or_else(|| option_error("--k", format!("{} needs the board side --k (2..=16)", kind.name())));
    Ok(match kind {
        Kind::Tsp => Box::new(tsp::Tsp::new(tsplib::read(file()?)?)?),
        Kind::Lap => Box::new(lap::Lap::new(graph::read(file()?)?)?),
        Kind::Clique => {
            let g = graph::read(file()?)?;
            let k = spec.k.ok_or_else(|| option_error("--k", "pose clique needs the clique size --k"))?;
            Box::new(clique::Clique::new(g, k)?)
        }
        Kind::Gpp => Box::new(gpp::Gpp::new(graph::read(file()?)?, spec.k.unwrap_or(2))?),
        Kind::Packing => {
            let g1 = graph::read(file()?)?;
            let g2 =
                spec.graph2.as_deref().ok_or_else(|| option_error("--graph2", "packing needs the second graph"))?;
            Box::new(packing::Packing::new(g1, graph::read(g2)?)?)
        }
        Kind::Knight => Box::new(chess::Knight::new(board()?, !spec.open_tour)?),
        Kind::Rooks => Box::new(chess::Placement::new(chess::Piece::Rook, board()?)?),
        Kind::Queens => Box::new(chess::Placement::new(chess::Piece::Queen, board()?)?),
        Kind::Bishops => Box::new(chess::Placement::new(chess::Piece::Bishop, board()?)?),
    })
}

/// What keeps a list from being distinct values below n (the first found).
pub(crate) enum Misfit {
    OutOfRange(usize),
    Repeated(usize),
}

/// The first value of `items` that is ≥ n or seen before, if any.
pub(crate) fn first_misfit(items: &[usize], n: usize) -> Option<Misfit> {
    let mut seen = vec![false; n];
    items.iter().find_map(|&x| {
        if x >= n {
            Some(Misfit::OutOfRange(x))
        } else if std::mem::replace(&mut seen[x], true) {
            Some(Misfit::Repeated(x))
        } else {
            None
        }
    })
}

/// An n×n matrix with `f(i, j)` at (i, j), row-major.
pub(crate) fn matrix(n: usize, f: impl Fn(usize, usize) -> i64) -> Vec<i64> {
    (0..n * n).map(|x| f(x / n, x % n)).collect()
}

/// The QAP of a reduction, with its size checked (n ≥ 2, ≤ 256) and a name.
pub(crate) fn qap(name: String, n: usize, f: Vec<i64>, d: Vec<i64>, source: &str) -> Result<Instance, ProblemError> {
    Instance::new(name, n, f, d).map_err(|e| option_error(source, e.message))
}
