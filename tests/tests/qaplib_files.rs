//! Every file of the QAPLIB folder (`qaplib_dir()`: the shared library, else the instances
//! shipped in data/qaplib) reads, and every .sln has exactly the cost in its header (the
//! .sln beside each .dat, else the shipped one).
use qapgpu::io::qaplib::{best_known, read_dat, read_sln};
use qapgpu_tests::{dat_files, qaplib, sln_of};

#[test]
fn every_dat_file_reads() {
    let files = dat_files();
    // The shipped folder holds 26 instances, 24 of them with a .sln; the full library more.
    assert!(files.len() >= 25, "expected the QAPLIB set in {}", qaplib().display());
    for f in files {
        let inst = read_dat(&f).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(inst.a.len(), inst.n * inst.n);
        assert!(best_known(&f, &inst).value().is_some(), "{}: no best-known value", f.display());
    }
}

#[test]
fn every_sln_has_the_cost_in_its_header() {
    let mut checked = 0;
    for f in dat_files() {
        let Some(sln) = sln_of(&f) else { continue };
        let inst = read_dat(&f).unwrap();
        let s = read_sln(&sln).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.n, inst.n, "{}", sln.display());
        assert_eq!(inst.cost(&s.perm), s.cost, "{}", sln.display());
        assert_eq!(best_known(&f, &inst).value(), Some(s.cost), "{}: .sln and bks.csv disagree", sln.display());
        checked += 1;
    }
    assert!(checked >= 23, "only {checked} .sln files checked");
}

#[test]
fn element_width_is_chosen_per_instance() {
    use qapgpu_common::elem::ElemWidth;
    let w = |name: &str| read_dat(&qaplib().join(format!("{name}.dat"))).unwrap().width;
    assert_eq!(w("nug12"), ElemWidth::U16);
    assert_eq!(w("els19"), ElemWidth::I32); // entries up to 99999: i32 before u32, the GPU kernels' type
}

#[test]
fn sln_round_trips_through_the_writer() {
    let f = sln_of(&qaplib().join("tai25b.dat")).unwrap();
    let s = read_sln(&f).unwrap();
    let text = qapgpu::io::qaplib::format_sln(s.cost, &s.perm);
    assert_eq!(qapgpu::io::qaplib::parse_sln(&f, &text).unwrap(), s);
}
