//! Sizes checked before allocation: a request this process cannot hold gets a one-line
//! error, naming the options that size it, instead of an abort. What it can hold is the
//! least of the machine's available memory and the room its own limits leave:
//! `ulimit -v` (RLIMIT_AS) and `ulimit -d` (RLIMIT_DATA) less what it already maps, and its
//! cgroup's memory limit (v2 `memory.max`, v1 `memory.limit_in_bytes`, the group's and its
//! ancestors') less what the group already uses.
use anyhow::{Result, bail};

/// Room for new allocations, and the limit that sets it, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    /// Bytes that may still be allocated.
    pub bytes: u128,
    /// The limit that sets it, in words.
    pub limit: String,
}

/// Limits from here up count as none (cgroup v1 writes "no limit" as about 2⁶³).
const UNLIMITED: u128 = 1 << 62;

/// Address space a thread may take beside what it allocates: its stack (2 MiB) and the
/// malloc arena glibc reserves for it (64 MiB). Under `ulimit -v 256M`, a grid the check let
/// through aborted once the two workers' arenas had taken 128 MiB of the room.
const THREAD_RESERVE: u128 = 66 << 20;

/// A `Key:   1234 kB` line of a /proc file, in bytes.
fn proc_kib(text: &str, key: &str) -> Option<u128> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u128 = line[key.len()..].split_whitespace().next()?.parse().ok()?;
    Some(kib * 1024)
}

/// Bytes of host memory available for new allocations (Linux: MemAvailable), or None
/// where it cannot be read.
pub fn available() -> Option<u128> {
    proc_kib(&std::fs::read_to_string("/proc/meminfo").ok()?, "MemAvailable:")
}

/// The soft limit `resource` sets, None when there is none.
fn rlimit(resource: libc::__rlimit_resource_t) -> Option<u128> {
    let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes one rlimit through a valid pointer.
    if unsafe { libc::getrlimit(resource, &mut r) } != 0 || r.rlim_cur == libc::RLIM_INFINITY {
        return None;
    }
    Some(r.rlim_cur as u128)
}

/// A number in a cgroup file ("max" or an unreadable file: None).
fn cgroup_number(path: &std::path::Path) -> Option<u128> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The least room the memory cgroups of this process leave (its group's and every
/// ancestor's limit less their usage), from the contents of /proc/self/cgroup.
fn cgroup_room(self_cgroup: &str, root: &std::path::Path) -> Option<u128> {
    let mut least: Option<u128> = None;
    for line in self_cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let (dir, limit_file, usage_file) = match controllers {
            "" => (root.to_path_buf(), "memory.max", "memory.current"),
            c if c.split(',').any(|x| x == "memory") => {
                (root.join("memory"), "memory.limit_in_bytes", "memory.usage_in_bytes")
            }
            _ => continue,
        };
        // The group's folder and its ancestors', up to the mount's root (a namespaced
        // mount shows the group at its root: the ancestors are not there).
        let mut rel = std::path::PathBuf::from(path.trim_start_matches('/'));
        loop {
            let here = dir.join(&rel);
            if let Some(limit) = cgroup_number(&here.join(limit_file)).filter(|&l| l < UNLIMITED) {
                let used = cgroup_number(&here.join(usage_file)).unwrap_or(0);
                let room = limit.saturating_sub(used);
                least = Some(least.map_or(room, |l| l.min(room)));
            }
            if !rel.pop() {
                break;
            }
        }
    }
    least
}

/// Room for new allocations of this process (`Room::limit` names the tightest limit), or
/// None where nothing can be read.
pub fn room() -> Option<Room> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let mut rooms = Vec::new();
    if let Some(b) = available() {
        rooms.push(Room { bytes: b, limit: "available on this machine".into() });
    }
    if let Some(l) = rlimit(libc::RLIMIT_AS).filter(|&l| l < UNLIMITED) {
        // The workers of a CPU engine: one a core at most (`algo::cpu_pool`), and the main
        // thread.
        let threads = std::thread::available_parallelism().map_or(1, |c| c.get()) as u128 + 1;
        let used = proc_kib(&status, "VmSize:").unwrap_or(0) + threads * THREAD_RESERVE;
        rooms.push(Room { bytes: l.saturating_sub(used), limit: format!("left under this process's address-space limit (ulimit -v) once its {threads} threads have their stacks and malloc arenas") });
    }
    if let Some(l) = rlimit(libc::RLIMIT_DATA).filter(|&l| l < UNLIMITED) {
        let used = proc_kib(&status, "VmData:").unwrap_or(0);
        rooms.push(Room {
            bytes: l.saturating_sub(used),
            limit: "left under this process's data limit (ulimit -d)".into(),
        });
    }
    if let Some(b) = std::fs::read_to_string("/proc/self/cgroup")
        .ok()
        .and_then(|c| cgroup_room(&c, std::path::Path::new("/sys/fs/cgroup")))
    {
        rooms.push(Room { bytes: b, limit: "left under this process's cgroup memory limit".into() });
    }
    rooms.into_iter().min_by_key(|r| r.bytes)
}

/// Fails when `bytes` for `what` exceed the room this process has now (`room`); the
/// one-line error names `options`, the ones to lower ("--blocks or --subpop").
pub fn ensure_host(bytes: u128, what: &str, options: &str) -> Result<()> {
    if let Some(r) = room()
        && bytes > r.bytes
    {
        bail!("{what} needs {} of memory, more than the {} {}; lower {options}", human(bytes), human(r.bytes), r.limit);
    }
    if bytes > isize::MAX as u128 {
        bail!("{what} needs {} of memory, more than one allocation can hold; lower {options}", human(bytes));
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
    use super::cgroup_room;

    #[test]
    fn human_sizes() {
        assert_eq!(super::human(512), "512 B");
        assert_eq!(super::human(3 << 29), "1.5 GiB");
    }

    #[test]
    fn absurd_sizes_are_refused() {
        let e = super::ensure_host(u128::MAX, "test", "--blocks").unwrap_err().to_string();
        assert!(e.starts_with("test needs") && e.ends_with("; lower --blocks"), "{e}");
    }

    #[test]
    fn the_room_is_never_more_than_the_machine_has() {
        if let (Some(r), Some(avail)) = (super::room(), super::available()) {
            assert!(r.bytes <= avail);
        }
    }

    #[test]
    fn cgroup_limits_are_read_for_the_group_and_its_ancestors() {
        let root = std::env::temp_dir().join(format!("qapgpu-cgroup-{}", std::process::id()));
        let write = |rel: &str, file: &str, v: &str| {
            let d = root.join(rel);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join(file), v).unwrap();
        };
        // v2: the group has no limit of its own ("max"), its parent 3 GiB with 1 GiB used.
        write("a/b", "memory.max", "max\n");
        write("a/b", "memory.current", "100\n");
        write("a", "memory.max", &format!("{}\n", 3u64 << 30));
        write("a", "memory.current", &format!("{}\n", 1u64 << 30));
        assert_eq!(cgroup_room("0::/a/b\n", &root), Some(2 << 30));
        // v1: the memory controller's folder; "no limit" is about 2⁶³.
        write("memory/g", "memory.limit_in_bytes", "9223372036854771712\n");
        assert_eq!(cgroup_room("4:memory:/g\n3:cpu:/g\n", &root), None);
        write("memory/g", "memory.limit_in_bytes", "1000\n");
        write("memory/g", "memory.usage_in_bytes", "400\n");
        assert_eq!(cgroup_room("4:cpuacct,memory:/g\n", &root), Some(600));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
