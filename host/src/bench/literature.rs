//! Other methods' results on the QAPLIB instances of seeds 002 and 004, as the papers print
//! them (issue 42), and the tables that set them beside ours.
//!
//! The thesis (seed 004, §4.3) prints them in Tables 4.11, 4.12 and 4.13, "Results reported
//! in the literature": one column per method, headed by the author and the thesis's
//! reference number, one row per instance, a cost (the thesis does not say whether each is a
//! best, a mean or a median; Ziqiang's 637428558.1 has a decimal, so at least that one is a
//! mean), "-" where the method reports none. A "-" becomes no entry here.
//!
//! Seed 002's Table 3 ("some results referenced by other researchers mentioned above") is
//! not in the text at hand: its extraction kept the table's caption sentence and lost every
//! value (as it lost those of Tables 1 and 2). It has no const table, and `bench 002` prints
//! the thesis's three tables: the paper cites the same works (Mohassesian [16], Chaparala
//! [21], Semlali [22], Mohammadi [23], Szwed [24], Bashiri [31] in its numbering), by the
//! same author, a year later.

/// A method the literature tables cite.
#[derive(Clone, Copy, Debug)]
pub struct Method {
    /// The column's name, as the thesis heads it (first author).
    pub name: &'static str,
    /// The reference as the thesis cites it ("[57]").
    pub reference: &'static str,
    /// The same work's reference in seed 002, where that paper cites it.
    pub seed002_reference: Option<&'static str>,
    /// The work, from the thesis's bibliography (its spelling).
    pub work: &'static str,
    /// What the thesis says the method is and runs on (§4.3).
    pub what: &'static str,
}

/// The methods of Tables 4.11–4.13, in the thesis's column order.
pub const METHODS: &[Method] = &[
    Method {
        name: "Ramkumar",
        reference: "[57]",
        seed002_reference: None,
        work: "A. Ramkumar, S. Ponnanbalam, N. Jawahar, Robotics and Computer-Integrated Manufacturing 25(3), 2009",
        what: "iterated fast local search with crossover perturbation; 10 runs × 220 iterations; CPU",
    },
    Method {
        name: "Mohassesian",
        reference: "[41]",
        seed002_reference: Some("[16]"),
        work: "Mohassesian, Karasfi, Artificial Intelligence and Robotics (IRANOPEN), 2017",
        what: "Ramkumar's algorithm with a balanced dispersion of solutions; 10 runs; CPU",
    },
    Method {
        name: "Chaparala",
        reference: "[43]",
        seed002_reference: Some("[21]"),
        work: "A. Chaparala, C. Nova, A. Qasem, XSEDE 2014",
        what: "2-opt local search; GPU",
    },
    Method {
        name: "Chmiel",
        reference: "[17]",
        seed002_reference: None,
        work: "W. Chmiel, P. Kadluczka, J. Kwicien, B. Filipowicz, Bull. Polish Acad. Sci. Tech. Sci. 65(4), 2017",
        what: "improved ant algorithm with a 2-opt neighbourhood; 10 runs × 100–1000 iterations; CPU",
    },
    Method {
        name: "Ziqiang",
        reference: "[78]",
        seed002_reference: None,
        work: "Ziqiang, Yi, Yang, International Conference on Natural Computation, 2014",
        what: "HAFSOA, fish school + differential evolution; 20 runs × 500 iterations; CPU",
    },
    Method {
        name: "Bashiri",
        reference: "[5]",
        seed002_reference: Some("[31]"),
        work: "Bashiri, Karimi, Journal of Industrial Engineering International 8, 2012",
        what: "best of TS, SA, PSO, 2-opt, greedy 2-opt, 3-opt, greedy 3-opt (2-opt, 1000 iterations); CPU",
    },
    Method {
        name: "Semlali",
        reference: "[23]",
        seed002_reference: Some("[22]"),
        work: "Semlali, Essaid, Chebihi, ICMCS, 2018",
        what: "chicken swarm optimization + GRASP; 20 runs × 100 iterations; GPU",
    },
    Method {
        name: "Gunawan",
        reference: "[31]",
        seed002_reference: None,
        work: "A. Gunawan, K. Ming, K. Leng, H. Chuin, IEEE CASE, 2014",
        what: "GRASP initial population, SA and TS; 20 runs × 300n iterations; CPU",
    },
    Method {
        name: "Mohammadi",
        reference: "[40]",
        seed002_reference: Some("[23]"),
        work: "Mohammadi, Mirzaie, Derhami, KBEI, 2015",
        what: "parallel GA; 20 runs; GPU",
    },
    Method {
        name: "Szwed",
        reference: "[63]",
        seed002_reference: Some("[24]"),
        work: "Szwed, Chmiel, CoRR, 2015",
        what: "multi-swarm PSO in OpenCL; GPU",
    },
    Method {
        name: "Fomeni",
        reference: "[24]",
        seed002_reference: None,
        work: "Fomeni, Master's thesis, University of the Witwatersrand, 2011",
        what: "auxiliary function-based dynamic convexized method (deterministic); CPU",
    },
    Method {
        name: "Zhang",
        reference: "[77]",
        seed002_reference: None,
        work: "Zhang, Beltran, Liang, Annals of Operations Research 207(1), 2013",
        what: "MILP solver on the Xia-Yuan linearization (deterministic); CPU",
    },
];

/// One figure of a literature table: what `method` (cited as `reference`) reports on
/// `instance`, a cost as the thesis prints it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// The method's column name.
    pub method: &'static str,
    /// Its reference, as the table heads the column.
    pub reference: &'static str,
    /// The QAPLIB instance (lower case, our name for it).
    pub instance: &'static str,
    /// The cost printed.
    pub value: f64,
}

const fn fig(method: &'static str, reference: &'static str, instance: &'static str, value: f64) -> Figure {
    Figure { method, reference, instance, value }
}

/// Thesis (seed 004) Table 4.11, "Results reported in the literature": Ramkumar [57],
/// Mohassesian [41], Chaparala [43], Chmiel [17].
pub const T411: &[Figure] = &[
    fig("Ramkumar", "[57]", "els19", 17212548.0),
    fig("Ramkumar", "[57]", "had20", 6922.0),
    fig("Ramkumar", "[57]", "kra32", 88760.0),
    fig("Ramkumar", "[57]", "nug30", 6146.0),
    fig("Ramkumar", "[57]", "scr20", 110030.0),
    fig("Ramkumar", "[57]", "tai35b", 297719554.0),
    fig("Ramkumar", "[57]", "tai40b", 716675355.0),
    fig("Ramkumar", "[57]", "tai60b", 631700959.0),
    fig("Ramkumar", "[57]", "tho40", 242888.0),
    fig("Mohassesian", "[41]", "els19", 17212548.0),
    fig("Mohassesian", "[41]", "had20", 6922.0),
    fig("Mohassesian", "[41]", "kra32", 88700.0),
    fig("Mohassesian", "[41]", "nug30", 6130.0),
    fig("Mohassesian", "[41]", "scr20", 110030.0),
    fig("Mohassesian", "[41]", "tai35b", 286605043.0),
    fig("Mohassesian", "[41]", "tai40b", 637250948.0),
    fig("Mohassesian", "[41]", "tai60b", 608215054.0),
    fig("Mohassesian", "[41]", "tho40", 241912.0),
    fig("Chaparala", "[43]", "tai35b", 283349722.0),
    fig("Chaparala", "[43]", "tai40b", 637349459.0),
    fig("Chaparala", "[43]", "tai60b", 609612341.0),
    fig("Chmiel", "[17]", "els19", 17212548.0),
    fig("Chmiel", "[17]", "esc64a", 132.0),
    fig("Chmiel", "[17]", "had20", 6922.0),
    fig("Chmiel", "[17]", "kra32", 88700.0),
    fig("Chmiel", "[17]", "nug30", 6124.0),
    fig("Chmiel", "[17]", "scr20", 110030.0),
    fig("Chmiel", "[17]", "tho40", 240516.0),
];

/// Thesis (seed 004) Table 4.12, "Results reported in the literature": Ziqiang [78],
/// Bashiri [5], Semlali [23], Gunawan [31]. Gunawan's had20 and nug30 figures (2927.2,
/// 2124.4) are below those instances' optima (6922, 6124) and are not costs of them; they
/// are kept as printed and flagged in the output.
pub const T412: &[Figure] = &[
    fig("Ziqiang", "[78]", "tai40b", 637428558.1),
    fig("Bashiri", "[5]", "nug30", 6180.0),
    fig("Semlali", "[23]", "tai35b", 286661392.0),
    fig("Semlali", "[23]", "tai40b", 649512197.0),
    fig("Gunawan", "[31]", "had20", 2927.2),
    fig("Gunawan", "[31]", "kra32", 88700.0),
    fig("Gunawan", "[31]", "nug30", 2124.4),
    fig("Gunawan", "[31]", "scr20", 110030.0),
];

/// Thesis (seed 004) Table 4.13, "Results reported in the literature": Mohammadi [40],
/// Szwed [63], Fomeni [24], Zhang [77].
pub const T413: &[Figure] = &[
    fig("Mohammadi", "[40]", "tai35b", 284703248.0),
    fig("Mohammadi", "[40]", "tai40b", 647201580.0),
    fig("Mohammadi", "[40]", "tai60b", 624137807.0),
    fig("Szwed", "[63]", "esc64a", 116.0),
    fig("Szwed", "[63]", "tai60b", 612078720.0),
    fig("Fomeni", "[24]", "esc64a", 116.0),
    fig("Fomeni", "[24]", "had20", 6922.0),
    fig("Fomeni", "[24]", "kra32", 91760.0),
    fig("Fomeni", "[24]", "nug30", 6180.0),
    fig("Fomeni", "[24]", "scr20", 110676.0),
    fig("Zhang", "[77]", "kra32", 93000.0),
    fig("Zhang", "[77]", "nug30", 6264.0),
    fig("Zhang", "[77]", "scr20", 110030.0),
];

/// A literature table of a paper: its key and number, the columns in the printed order,
/// and its figures.
pub struct LiteratureTable {
    /// The key of its CSV file (`<stem>-<key>.csv`).
    pub key: &'static str,
    /// The paper's table ("Table 4.11").
    pub table: &'static str,
    /// The method columns, as printed, left to right.
    pub columns: [&'static str; 4],
    /// The figures.
    pub figures: &'static [Figure],
    /// What the output's heading adds ("" for nothing).
    pub note: &'static str,
}

/// The thesis's three tables; `bench 002` and `bench 004` print them both.
pub const TABLES: &[LiteratureTable] = &[
    LiteratureTable {
        key: "t4.11",
        table: "Table 4.11",
        columns: ["Ramkumar", "Mohassesian", "Chaparala", "Chmiel"],
        figures: T411,
        note: "; seed 002's Table 3 cites the same works, its values are not in the text at hand",
    },
    LiteratureTable {
        key: "t4.12",
        table: "Table 4.12",
        columns: ["Ziqiang", "Bashiri", "Semlali", "Gunawan"],
        figures: T412,
        note: "; † below the best-known value, so not a cost of that instance",
    },
    LiteratureTable {
        key: "t4.13",
        table: "Table 4.13",
        columns: ["Mohammadi", "Szwed", "Fomeni", "Zhang"],
        figures: T413,
        note: "",
    },
];

/// The method called `name`.
pub fn method(name: &str) -> Option<&'static Method> {
    METHODS.iter().find(|m| m.name == name)
}

impl LiteratureTable {
    /// What `method` reports on `instance` in this table.
    pub fn figure(&self, method: &str, instance: &str) -> Option<&'static Figure> {
        self.figures.iter().find(|f| f.method == method && f.instance == instance)
    }

    /// The output table's heading.
    pub fn title(&self) -> String {
        format!("{}: ours beside the literature (costs; the thesis's figures as printed{})", self.table, self.note)
    }

    /// A column's heading: "Ramkumar [57]".
    pub fn heading(&self, column: usize) -> String {
        let name = self.columns[column];
        method(name).map_or(name.to_string(), |m| format!("{} {}", m.name, m.reference))
    }
}

/// A literature cell: the figure as printed ("–" for none), with " †" where it is below the
/// instance's best-known value `known` (so not a cost of that instance).
pub fn cell(figure: Option<&Figure>, known: Option<i64>) -> String {
    match figure {
        None => "–".into(),
        Some(f) if known.is_some_and(|k| f.value < k as f64) => format!("{} †", f.value),
        Some(f) => f.value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::seed004::{FINAL_COST, TO_OPTIMUM};

    #[test]
    fn every_figure_names_an_instance_of_the_papers_and_a_known_method() {
        let instances: Vec<&str> = TO_OPTIMUM.iter().chain(&FINAL_COST).copied().collect();
        assert_eq!(instances.len(), 10, "the thesis's ten instances");
        for t in TABLES {
            for f in t.figures {
                assert!(
                    instances.contains(&f.instance),
                    "{}: {} is not an instance of the thesis",
                    t.table,
                    f.instance
                );
                let m = method(f.method).unwrap_or_else(|| panic!("{}: unknown method {}", t.table, f.method));
                assert_eq!(m.reference, f.reference, "{}: {}'s reference", t.table, f.method);
                assert!(t.columns.contains(&f.method), "{}: {} is not one of its columns", t.table, f.method);
                assert!(f.value > 0.0 && f.value.is_finite(), "{}: {f:?}", t.table);
            }
            // At most one figure per cell.
            for (i, f) in t.figures.iter().enumerate() {
                assert!(
                    !t.figures[..i].iter().any(|g| g.method == f.method && g.instance == f.instance),
                    "{}: {} on {} twice",
                    t.table,
                    f.method,
                    f.instance
                );
            }
        }
        // Every method heads a column, and only one.
        for m in METHODS {
            assert_eq!(TABLES.iter().flat_map(|t| t.columns).filter(|c| *c == m.name).count(), 1, "{}", m.name);
        }
    }

    #[test]
    fn figures_print_as_the_thesis_does() {
        assert_eq!(cell(TABLES[1].figure("Ziqiang", "tai40b"), Some(637250948)), "637428558.1");
        assert_eq!(cell(TABLES[0].figure("Ramkumar", "els19"), Some(17212548)), "17212548");
        assert_eq!(cell(TABLES[1].figure("Gunawan", "had20"), Some(6922)), "2927.2 †");
        assert_eq!(cell(TABLES[0].figure("Chaparala", "els19"), Some(17212548)), "–");
        assert_eq!(TABLES[2].heading(3), "Zhang [77]");
        assert_eq!(T411.len() + T412.len() + T413.len(), 28 + 8 + 13);
    }
}
