//! Fuzzing the `.dat` and `.sln` readers with proptest: arbitrary bytes, and valid files
//! with bytes flipped, inserted, removed or cut. Whatever comes in, a reader returns an
//! instance or a one-line error naming the file, and never panics.
//!
//! CI runs proptest's default number of cases (256 per property); to fuzz longer:
//! `PROPTEST_CASES=1000000 cargo test --release -p qapgpu-tests --test fuzz_readers`.
use proptest::prelude::*;
use qapgpu::io::qaplib::{QapError, parse_dat_bytes, parse_sln_bytes};
use std::path::Path;

fn valid_dat() -> Vec<u8> {
    b"4\n0 1 2 3\n1 0 1 2\n2 1 0 1\n3 2 1 0\n\n0 5 2 4\n5 0 3 0\n2 3 0 0\n4 0 0 5\n".to_vec()
}

fn valid_sln() -> Vec<u8> {
    b"4 70\n3 4 1 2\n".to_vec()
}

fn check_error(e: &QapError, file: &str) {
    let msg = e.to_string();
    assert!(msg.starts_with(file), "names the file: {msg}");
    assert!(!msg.contains('\n'), "one line: {msg}");
}

fn check_dat(bytes: &[u8]) {
    match parse_dat_bytes(Path::new("fuzz.dat"), bytes) {
        Ok(inst) => {
            assert!((2..=256).contains(&inst.n));
            assert_eq!(inst.a.len(), inst.n * inst.n);
            assert_eq!(inst.b.len(), inst.n * inst.n);
            let identity: Vec<u8> = (0..inst.n as u8).collect();
            let _ = inst.cost(&identity); // fits i64 by the overflow check
        }
        Err(e) => check_error(&e, "fuzz.dat"),
    }
}

fn check_sln(bytes: &[u8]) {
    match parse_sln_bytes(Path::new("fuzz.sln"), bytes) {
        Ok(s) => {
            assert_eq!(s.perm.len(), s.n);
            assert!(qapgpu::perm::is_permutation(&s.perm, s.n));
        }
        Err(e) => check_error(&e, "fuzz.sln"),
    }
}

/// A byte edit of a file: flip, insert, remove, or cut at a position (taken modulo the length).
#[derive(Clone, Debug)]
enum Edit {
    Set(usize, u8),
    Insert(usize, u8),
    Remove(usize),
    Cut(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let byte = prop_oneof![Just(b'-'), Just(b' '), Just(b'\n'), Just(b'9'), Just(0xEF), any::<u8>()];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Edit::Set(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Remove),
        any::<usize>().prop_map(Edit::Cut),
    ]
}

fn apply(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for e in edits {
        let len = bytes.len().max(1);
        match *e {
            Edit::Set(i, b) if !bytes.is_empty() => bytes[i % len] = b,
            Edit::Insert(i, b) => bytes.insert(i % (bytes.len() + 1), b),
            Edit::Remove(i) if !bytes.is_empty() => {
                bytes.remove(i % len);
            }
            Edit::Cut(i) => bytes.truncate(i % (bytes.len() + 1)),
            _ => {}
        }
    }
    bytes
}

proptest! {
    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        check_dat(&bytes);
        check_sln(&bytes);
    }

    #[test]
    fn arbitrary_numbers(n in -3i64..300, rest in proptest::collection::vec(any::<i64>(), 0..64)) {
        let text: Vec<String> = std::iter::once(n).chain(rest).map(|v| v.to_string()).collect();
        check_dat(text.join(" ").as_bytes());
        check_sln(text.join("\n").as_bytes());
    }

    #[test]
    fn edited_valid_files(edits in proptest::collection::vec(edit(), 1..6)) {
        check_dat(&apply(valid_dat(), &edits));
        check_sln(&apply(valid_sln(), &edits));
    }
}

#[test]
fn the_seeds_of_the_edits_are_valid() {
    assert!(parse_dat_bytes(Path::new("a.dat"), &valid_dat()).is_ok());
    assert!(parse_sln_bytes(Path::new("a.sln"), &valid_sln()).is_ok());
}
