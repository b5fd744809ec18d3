//! Each kind of bad input gets a one-line error that names the file and the problem.
use qapgpu::io::qaplib::{ErrorKind, parse_dat, parse_sln};
use std::path::Path;

fn dat_err(text: &str) -> qapgpu::io::qaplib::QapError {
    parse_dat(Path::new("bad.dat"), text).expect_err("must be rejected")
}

fn check(e: qapgpu::io::qaplib::QapError, kind: ErrorKind, needle: &str) {
    let msg = e.to_string();
    assert_eq!(e.kind, kind, "{msg}");
    assert!(msg.starts_with("bad."), "names the file: {msg}");
    assert!(msg.contains(needle), "`{msg}` should mention `{needle}`");
    assert!(!msg.contains('\n'), "one line: {msg}");
}

#[test]
fn empty_file() {
    check(dat_err("  \n"), ErrorKind::Empty, "empty file");
}

#[test]
fn non_number() {
    check(dat_err("2\n0 1\n1 x0\n0 1 1 0"), ErrorKind::NotANumber, "token 5 (`x0`) is not an integer");
    check(dat_err("2\n0 1.5\n1 0\n0 1 1 0"), ErrorKind::NotANumber, "not an integer");
}

#[test]
fn n_zero_and_n_too_large() {
    check(dat_err("0"), ErrorKind::BadSize, "n = 0");
    check(dat_err("-3 1 2"), ErrorKind::BadSize, "n = -3");
    check(dat_err("3000"), ErrorKind::BadSize, "exceeds the limit of 2048");
}

#[test]
fn token_count() {
    check(dat_err("2\n0 1\n1 0\n0 1 1"), ErrorKind::TokenCount, "expected 1 + 2·n² = 9 numbers for n = 2, found 8");
    check(dat_err("2\n0 1\n1 0\n0 1 1 0 7"), ErrorKind::TokenCount, "found 10");
}

#[test]
fn values_out_of_range() {
    check(dat_err("2\n0 1\n1 0\n0 99999999999 1 0"), ErrorKind::OutOfRange, "B[1][2] = 99999999999 is out of range");
    check(dat_err("2\n0 -1\n1 0\n0 4000000000 1 0"), ErrorKind::OutOfRange, "no 32-bit element type");
}

#[test]
fn cost_overflow() {
    // 256² · (2³²−1)² ≥ 2⁶³: some permutation's cost would not fit in 64 bits.
    let n = 256;
    let mut t = format!("{n}\n");
    for _ in 0..2 * n * n {
        t.push_str("4294967295 ");
    }
    check(dat_err(&t), ErrorKind::Overflow, "overflow 64 bits");
}

#[test]
fn sln_errors() {
    let e = |t: &str| parse_sln(Path::new("bad.sln"), t).expect_err("must be rejected");
    check(e(""), ErrorKind::Empty, "empty file");
    check(e("3 10 1 2"), ErrorKind::TokenCount, "expected 2 + n = 5");
    check(e("3 10 1 2 4"), ErrorKind::OutOfRange, "position 4 is outside 1..=3");
    check(e("3 10 1 2 2"), ErrorKind::NotAPermutation, "not a permutation");
}

#[test]
fn unreadable_file() {
    let err = qapgpu::io::qaplib::read_dat(Path::new("bad.missing.dat")).expect_err("no such file");
    assert_eq!(err.kind, ErrorKind::Io);
    assert!(err.to_string().starts_with("bad.missing.dat: cannot read"));
}
