//! Tours in their own terms: the construction heuristics that start a tour search
//! (`construct`) and the tour's local search, iterated (`ils`), as the TSP's `Polish`.
pub mod baseline;
pub mod construct;
pub mod ils;

use crate::problems::polish::Polish;
use crate::problems::tsplib::TspData;
use ils::TourSearch;

/// The TSP's polish: `ils::TourSearch` over the QAP's permutation, which is the tour.
pub struct TourPolish {
    search: TourSearch,
    rounds: u64,
}

impl TourPolish {
    /// The polish of tours through `d`'s cities.
    pub fn new(d: &TspData, seed: u64) -> TourPolish {
        let tour: Vec<usize> = (0..d.n).collect();
        TourPolish { search: TourSearch::new(d.dist.clone(), d.n, &tour, seed), rounds: 0 }
    }
}

impl Polish for TourPolish {
    fn describe(&self) -> &'static str {
        if self.search.is_symmetric() {
            "2-opt and Or-opt over 10 nearest neighbours, iterated with double-bridge kicks"
        } else {
            "Or-opt over 10 nearest neighbours (asymmetric: no reversals), iterated with double-bridge kicks"
        }
    }

    fn improve(&mut self, perm: &[u16], iterate: bool, stop: &dyn Fn() -> bool) -> Vec<u16> {
        let tour: Vec<usize> = perm.iter().map(|&c| c as usize).collect();
        self.search.set_tour(&tour);
        self.rounds += 1;
        if iterate {
            self.search.iterate(stop);
        } else {
            self.search.descend(stop);
        }
        self.search.tour().iter().map(|&c| c as u16).collect()
    }
}
