//! The travelling salesman problem as a QAP (004 §2.1.3): F is the adjacency of the
//! directed Hamiltonian cycle 0 → 1 → … → n−1 → 0 (facilities are tour positions), D the
//! city distances (locations are cities), so a permutation costs exactly the length of the
//! tour p(0), p(1), …, p(n−1) — asymmetric (ATSP) distances included.
use super::tsplib::TspData;
use super::{Answer, Kind, Misfit, Posed, ProblemError, first_misfit, matrix, qap};
use crate::io::Instance;

/// A travelling salesman problem, posed as a QAP.
#[derive(Debug)]
pub struct Tsp {
    /// The cities' distances.
    pub data: TspData,
    inst: Instance,
    /// Known optimal tour length (a generated instance's), if any.
    pub optimum: Option<i64>,
}

impl Tsp {
    /// The QAP of the tour through `data`'s cities.
    pub fn new(data: TspData) -> Result<Tsp, ProblemError> {
        let n = data.n;
        let f = matrix(n, |i, j| i64::from(j == (i + 1) % n));
        let inst = qap(format!("tsp-{}", data.name), n, f, data.dist.clone(), "tsp")?;
        Ok(Tsp { data, inst, optimum: None })
    }
}

/// The length of `tour` (cities in visiting order, back to the first), or why it is not a
/// tour of the n cities.
pub fn check_tour(data: &TspData, tour: &[usize]) -> Result<i64, String> {
    let n = data.n;
    if tour.len() != n {
        return Err(format!("the tour visits {} cities, not {n}", tour.len()));
    }
    match first_misfit(tour, n) {
        Some(Misfit::OutOfRange(c)) => return Err(format!("city {} does not exist", c + 1)),
        Some(Misfit::Repeated(c)) => return Err(format!("city {} is visited twice", c + 1)),
        None => {}
    }
    Ok((0..n).map(|i| data.d(tour[i], tour[(i + 1) % n])).sum())
}

impl Posed for Tsp {
    fn kind(&self) -> Kind {
        Kind::Tsp
    }
    fn qap(&self) -> &Instance {
        &self.inst
    }
    fn target(&self) -> Option<i64> {
        self.optimum
    }
    fn cost_of_measure(&self, length: i64) -> Option<i64> {
        Some(length)
    }
    fn starts(&self) -> Vec<Vec<u16>> {
        super::tour::construct::starts(&self.data)
            .into_iter()
            .map(|t| t.into_iter().map(|c| c as u16).collect())
            .collect()
    }
    fn polish(&self, seed: u64) -> Option<Box<dyn super::polish::Polish>> {
        Some(Box::new(super::tour::TourPolish::new(&self.data, seed)))
    }
    fn answer(&self, perm: &[u16]) -> Answer {
        let tour: Vec<usize> = perm.iter().map(|&c| c as usize).collect();
        let shown: Vec<usize> = tour.iter().map(|c| c + 1).collect();
        let drawing = format!("{:<16} {}\n", "tour", shown.iter().map(usize::to_string).collect::<Vec<_>>().join(" "));
        Answer::checked("tsp", "tour_length", check_tour(&self.data, &tour), i64::MAX)
            .with("tour", &shown)
            .with("cities", self.data.n)
            .with("edge_weight_type", &self.data.weight_type)
            .drawn(drawing)
    }
}
