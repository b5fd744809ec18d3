//! The k×k chessboard problems of 004 §3.9.2 as QAPs, the k² squares being the locations
//! (square r·k + c is row r, column c).
//!
//! * Knight's tour: facilities are the k² positions of the tour, F the adjacency of the
//!   closed cycle 0 → 1 → … → k²−1 → 0 (or of the open path), `D[s][t]` = 0 when a knight
//!   goes from s to t and 1 otherwise: the cost counts the steps that are not knight moves,
//!   0 exactly for a tour.
//! * Rooks, queens, bishops: m pieces (k, k, 2k − 2) and k² − m empty-square dummies are
//!   the facilities; `F[i][j]` = 1 between two pieces, D the attack relation: the cost is
//!   twice the number of attacking pairs, 0 exactly for a valid placement.
use super::{Answer, Kind, Misfit, Posed, ProblemError, first_misfit, matrix, option_error, qap};
use crate::io::Instance;

/// Board sides the solver takes: k² ≤ 256 locations, and at least 2 squares.
pub const MIN_SIDE: usize = 2;
/// The largest board side: k² ≤ 256 locations.
pub const MAX_SIDE: usize = 16;

fn check_side(k: usize) -> Result<(), ProblemError> {
    if !(MIN_SIDE..=MAX_SIDE).contains(&k) {
        return Err(option_error(
            "--k",
            format!("board side {k} is outside {MIN_SIDE}..={MAX_SIDE} (k² squares, at most 256)"),
        ));
    }
    Ok(())
}

fn is_knight_move(k: usize, s: usize, t: usize) -> bool {
    let (dr, dc) = ((s / k).abs_diff(t / k), (s % k).abs_diff(t % k));
    (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
}

/// The board as text, `mark(square)` in each cell, rows from the top.
fn draw(k: usize, width: usize, mark: impl Fn(usize) -> String) -> String {
    (0..k)
        .map(|r| (0..k).map(|c| format!("{:>width$}", mark(r * k + c))).collect::<Vec<_>>().join(" ") + "\n")
        .collect()
}

/// The knight's tour on a k×k board, posed as a QAP.
#[derive(Debug)]
pub struct Knight {
    /// The board side.
    pub k: usize,
    /// A closed tour (a cycle), else an open path.
    pub closed: bool,
    inst: Instance,
}

impl Knight {
    /// The QAP of a k×k board's knight's tour, closed or open.
    pub fn new(k: usize, closed: bool) -> Result<Knight, ProblemError> {
        check_side(k)?;
        let n = k * k;
        let f = matrix(n, |i, j| i64::from(j == i + 1 || (closed && i == n - 1 && j == 0)));
        let d = matrix(n, |s, t| i64::from(!is_knight_move(k, s, t)));
        let inst = qap(format!("knight{k}{}", if closed { "" } else { "-open" }), n, f, d, "knight")?;
        Ok(Knight { k, closed, inst })
    }
}

/// Whether `tour` (squares in visiting order) is a knight's tour of the k×k board, closed
/// or open; Ok(number of squares).
pub fn check_knight_tour(k: usize, closed: bool, tour: &[usize]) -> Result<i64, String> {
    let n = k * k;
    if tour.len() != n {
        return Err(format!("the tour visits {} squares, not {n}", tour.len()));
    }
    match first_misfit(tour, n) {
        Some(Misfit::OutOfRange(s)) => return Err(format!("square {s} is off the board")),
        Some(Misfit::Repeated(s)) => return Err(format!("square {} is visited twice", square_name(k, s))),
        None => {}
    }
    let steps = if closed { n } else { n - 1 };
    for i in 0..steps {
        let (s, t) = (tour[i], tour[(i + 1) % n]);
        if !is_knight_move(k, s, t) {
            return Err(format!(
                "step {} from {} to {} is not a knight move",
                i + 1,
                square_name(k, s),
                square_name(k, t)
            ));
        }
    }
    Ok(n as i64)
}

/// Algebraic-style name: column letter, row number from the bottom (a1 is the lower left).
pub fn square_name(k: usize, s: usize) -> String {
    format!("{}{}", (b'a' + (s % k) as u8) as char, k - s / k)
}

impl Posed for Knight {
    fn kind(&self) -> Kind {
        Kind::Knight
    }
    fn qap(&self) -> &Instance {
        &self.inst
    }
    fn target(&self) -> Option<i64> {
        Some(0)
    }
    fn answer(&self, perm: &[u16]) -> Answer {
        let tour: Vec<usize> = perm.iter().map(|&s| s as usize).collect();
        let mut step = vec![0usize; self.k * self.k];
        for (i, &s) in tour.iter().enumerate() {
            if s < step.len() {
                step[s] = i + 1;
            }
        }
        let width = (self.k * self.k).to_string().len();
        let names: Vec<String> = tour.iter().map(|&s| square_name(self.k, s)).collect();
        Answer::checked("knight", "squares_toured", check_knight_tour(self.k, self.closed, &tour), 0)
            .with("k", self.k)
            .with("closed", self.closed)
            .with("tour", &names)
            .drawn(draw(self.k, width, |s| step[s].to_string()))
    }
}

/// The pieces of the placement problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// k rooks.
    Rook,
    /// k queens.
    Queen,
    /// 2k − 2 bishops.
    Bishop,
}

impl Piece {
    /// How many the problem places on a k×k board: k rooks, k queens, 2k − 2 bishops.
    pub fn count(self, k: usize) -> usize {
        match self {
            Piece::Rook | Piece::Queen => k,
            Piece::Bishop => 2 * k - 2,
        }
    }

    /// Whether a piece on s attacks t (s ≠ t), whatever stands between: two pieces on one
    /// line are never both valid, so blocking does not matter.
    pub fn attacks(self, k: usize, s: usize, t: usize) -> bool {
        let (dr, dc) = ((s / k).abs_diff(t / k), (s % k).abs_diff(t % k));
        let straight = dr == 0 || dc == 0;
        let diagonal = dr == dc;
        s != t
            && match self {
                Piece::Rook => straight,
                Piece::Bishop => diagonal,
                Piece::Queen => straight || diagonal,
            }
    }

    fn letter(self) -> char {
        match self {
            Piece::Rook => 'R',
            Piece::Queen => 'Q',
            Piece::Bishop => 'B',
        }
    }

    fn kind(self) -> Kind {
        match self {
            Piece::Rook => Kind::Rooks,
            Piece::Queen => Kind::Queens,
            Piece::Bishop => Kind::Bishops,
        }
    }
}

/// Placing pieces on a k×k board so that no two attack each other, posed as a QAP.
#[derive(Debug)]
pub struct Placement {
    /// The piece placed.
    pub piece: Piece,
    /// The board side.
    pub k: usize,
    inst: Instance,
}

impl Placement {
    /// The QAP of `piece`'s placement on a k×k board.
    pub fn new(piece: Piece, k: usize) -> Result<Placement, ProblemError> {
        check_side(k)?;
        let (n, m) = (k * k, piece.count(k));
        let f = matrix(n, |i, j| i64::from(i != j && i < m && j < m));
        let d = matrix(n, |s, t| i64::from(piece.attacks(k, s, t)));
        let inst = qap(format!("{}{k}", piece.kind().name()), n, f, d, piece.kind().name())?;
        Ok(Placement { piece, k, inst })
    }
}

/// Whether `squares` places `piece.count(k)` pieces on distinct squares with no two
/// attacking each other (checked by rows, columns and diagonals); Ok(pieces placed).
pub fn check_placement(piece: Piece, k: usize, squares: &[usize]) -> Result<i64, String> {
    let m = piece.count(k);
    if squares.len() != m {
        return Err(format!("{} pieces placed, the problem asks for {m}", squares.len()));
    }
    for (x, &s) in squares.iter().enumerate() {
        if s >= k * k {
            return Err(format!("square {s} is off the board"));
        }
        for &t in &squares[..x] {
            let (rs, cs, rt, ct) = ((s / k) as i64, (s % k) as i64, (t / k) as i64, (t % k) as i64);
            let why = if s == t {
                Some("share a square")
            } else if piece != Piece::Bishop && rs == rt {
                Some("share a row")
            } else if piece != Piece::Bishop && cs == ct {
                Some("share a column")
            } else if piece != Piece::Rook && (rs - cs == rt - ct || rs + cs == rt + ct) {
                Some("share a diagonal")
            } else {
                None
            };
            if let Some(why) = why {
                return Err(format!("the pieces on {} and {} {why}", square_name(k, t), square_name(k, s)));
            }
        }
    }
    Ok(m as i64)
}

impl Posed for Placement {
    fn kind(&self) -> Kind {
        self.piece.kind()
    }
    fn qap(&self) -> &Instance {
        &self.inst
    }
    fn target(&self) -> Option<i64> {
        Some(0)
    }
    fn answer(&self, perm: &[u16]) -> Answer {
        let m = self.piece.count(self.k);
        let squares: Vec<usize> = perm[..m.min(perm.len())].iter().map(|&s| s as usize).collect();
        let mut on = vec![false; self.k * self.k];
        for &s in &squares {
            if s < on.len() {
                on[s] = true;
            }
        }
        let names: Vec<String> = squares.iter().map(|&s| square_name(self.k, s)).collect();
        let letter = self.piece.letter().to_string();
        Answer::checked(self.piece.kind().name(), "pieces_placed", check_placement(self.piece, self.k, &squares), 0)
            .with("k", self.k)
            .with("squares", &names)
            .drawn(draw(self.k, 1, |s| if on[s] { letter.clone() } else { ".".into() }))
    }
}
