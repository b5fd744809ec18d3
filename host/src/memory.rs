//! Sizes checked before allocation: a request the machine cannot hold gets a one-line
//! error instead of an abort.
use anyhow::{Result, bail};

/// Bytes of host memory available for new allocations (Linux: MemAvailable), or None
/// where it cannot be read.
pub fn available() -> Option<u128> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u128 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Fails when `bytes` for `what` exceed the host memory available now.
pub fn ensure_host(bytes: u128, what: &str) -> Result<()> {
    if let Some(avail) = available() {
        if bytes > avail {
            bail!("{what} needs {} of memory, more than the {} available", human(bytes), human(avail));
        }
    }
    if bytes > isize::MAX as u128 {
        bail!("{what} needs {} of memory, more than one allocation can hold", human(bytes));
    }
    Ok(())
}

/// "1.5 GiB", "640 KiB".
pub fn human(bytes: u128) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 { format!("{bytes} B") } else { format!("{v:.1} {}", units[u]) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn human_sizes() {
        assert_eq!(super::human(512), "512 B");
        assert_eq!(super::human(3 << 29), "1.5 GiB");
    }

    #[test]
    fn absurd_sizes_are_refused() {
        assert!(super::ensure_host(u128::MAX, "test").unwrap_err().to_string().starts_with("test needs"));
    }
}
