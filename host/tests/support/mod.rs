//! Helpers shared by the command-line tests (`mod support;` in each test file).
use std::process::Output;

/// Bytes as text, invalid UTF-8 replaced.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit 1 or 2, one line on stderr containing every needle, no panic.
pub fn assert_one_line_error(out: &Output, needles: &[&str], what: &str) {
    let err = text(&out.stderr);
    assert!(matches!(out.status.code(), Some(1 | 2)), "{what}: exit {:?}, stderr {err}", out.status);
    assert_eq!(err.trim_end().lines().count(), 1, "{what}: one line, got {err}");
    for needle in needles {
        assert!(err.contains(needle), "{what}: `{err}` should mention `{needle}`");
    }
    assert!(!err.contains("panicked"), "{what}: {err}");
}
