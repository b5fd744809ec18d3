//! Output files and standard output, written so that no result is lost to a bad path, a
//! full disk, a closed pipe or another process writing the same file.
//!
//! * Every output path is checked before the search starts (`Output::check`): its folder
//!   exists and takes a new file, it is not a folder, not read-only, not an input of the
//!   run and not another output of it.
//! * A regular file is written through a temporary file in the same folder, flushed to
//!   disk, then renamed over the path: a failed write leaves the previous file whole, and
//!   two processes writing one path leave one of their files, never a mix. A symbolic link
//!   is followed and its target replaced.
//! * `/dev/stdout` and `/dev/stderr` (and `/dev/fd/1`, `/dev/fd/2`) are the process's own
//!   descriptors, written through them (after the other outputs, before the report).
//! * Files that are not regular (`/dev/null`, a terminal, a FIFO) and descriptors
//!   (`/dev/fd/N`, paths under `/proc`) are written in place, appending; the check opens
//!   them and writes 0 bytes, which `/dev/full` refuses, and refuses a FIFO that has no
//!   reader rather than block. A regular file under `/dev/shm` is a file like any other.
//! * Standard output goes through `stdout`: a closed pipe there is `StdoutClosed`, which
//!   the command line turns into a quiet exit (status 141, as if killed by SIGPIPE).
use anyhow::{Context, Result, bail};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Standard output was a pipe that its reader closed: what was left to print is dropped.
#[derive(Debug)]
pub struct StdoutClosed;

impl std::fmt::Display for StdoutClosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("standard output was closed")
    }
}

impl std::error::Error for StdoutClosed {}

/// Writes `text` to standard output; a closed pipe is `StdoutClosed`, any other failure
/// (`> /dev/full`) an error naming standard output.
pub fn stdout(text: impl AsRef<[u8]>) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_ref()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(StdoutClosed.into()),
        Err(e) => Err(anyhow::Error::new(e).context("standard output: cannot write")),
    }
}

/// One line on standard error, ignoring a closed or failing stderr (notes and errors must
/// not turn into a panic).
pub fn stderr_line(line: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Where an output's bytes go.
#[derive(Debug)]
enum Target {
    /// A regular file (or a new one) at this path, its folder's path resolved: written
    /// through a temporary file and a rename.
    Replace(PathBuf),
    /// A device or another file that is not regular, opened by the check and kept open
    /// (a FIFO's reader sees one writer from the check to the write): written in place.
    InPlace(File),
    /// Standard output or standard error (1 or 2).
    Descriptor(u8),
}

/// An output path that was checked before the search.
#[derive(Debug)]
pub struct Output {
    /// The option that named it (`--write-sln`), for errors.
    pub option: &'static str,
    /// The path as given.
    pub path: PathBuf,
    target: Target,
}

/// Whether a path as given names a descriptor (written in place, whatever it points to).
fn is_descriptor_path(path: &Path) -> bool {
    path.starts_with("/dev/fd") || path.starts_with("/proc")
}

/// 1 or 2 for the paths that name standard output or standard error.
fn descriptor(path: &Path) -> Option<u8> {
    let p = path.to_str()?;
    match p {
        "/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1" => Some(1),
        "/dev/stderr" | "/dev/fd/2" | "/proc/self/fd/2" => Some(2),
        _ => None,
    }
}

/// The same file: same device and inode.
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    a.dev() == b.dev() && a.ino() == b.ino()
}

impl Output {
    /// Checks `path` as the output of `option`, before any search: see the module's rules.
    /// `inputs` are the run's input files (the instance, the problem's file), which an
    /// output may not overwrite. Errors are one line naming the option and the path.
    pub fn check(option: &'static str, path: &Path, inputs: &[&Path]) -> Result<Output> {
        let here = || format!("{option} {}", path.display());
        let meta = match std::fs::metadata(path) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(anyhow::Error::new(e).context(here())),
        };
        if let Some(m) = &meta {
            if m.is_dir() {
                bail!("{}: is a folder, not a file", here());
            }
            for input in inputs {
                if std::fs::metadata(input).is_ok_and(|i| same_file(&i, m)) {
                    bail!("{}: is the input file {}; it would be overwritten", here(), input.display());
                }
            }
        }
        if let Some(fd) = descriptor(path) {
            return Ok(Output { option, path: path.to_path_buf(), target: Target::Descriptor(fd) });
        }
        if is_descriptor_path(path) || meta.as_ref().is_some_and(|m| !m.is_file()) {
            if meta.is_none() {
                bail!("{}: no such device or file", here());
            }
            let file = open_in_place(path).with_context(here)?;
            return Ok(Output { option, path: path.to_path_buf(), target: Target::InPlace(file) });
        }
        if meta.as_ref().is_some_and(|m| m.permissions().readonly()) {
            bail!("{}: the file is read-only", here());
        }
        let target = match meta {
            Some(_) => path.canonicalize().with_context(here)?,
            None => {
                let name = path.file_name().with_context(|| format!("{}: not a file name", here()))?;
                let folder = match path.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    _ => Path::new("."),
                };
                let folder = folder
                    .canonicalize()
                    .map_err(|e| anyhow::anyhow!("{}: its folder {}: {e}", here(), folder.display()))?;
                if !folder.is_dir() {
                    bail!("{}: {} is not a folder", here(), folder.display());
                }
                folder.join(name)
            }
        };
        // A file made and removed: the folder takes new files (permissions, a read-only
        // file system, no inodes left).
        let (tmp, file) =
            temporary(&target).with_context(|| format!("{}: cannot create a file in its folder", here()))?;
        drop(file);
        let _ = std::fs::remove_file(&tmp);
        Ok(Output { option, path: path.to_path_buf(), target: Target::Replace(target) })
    }

    /// The resolved path of a file to replace (None for a device), to compare outputs.
    fn replaced(&self) -> Option<&Path> {
        match &self.target {
            Target::Replace(p) => Some(p),
            Target::InPlace(_) | Target::Descriptor(_) => None,
        }
    }

    /// Writes `bytes` as the output's whole content: through a temporary file and a
    /// rename for a file, in place for a device. On failure the previous file is intact and
    /// the error is one line naming the option and the path.
    pub fn write(&self, bytes: &[u8]) -> Result<()> {
        let here = || format!("{} {}: cannot write it", self.option, self.path.display());
        match &self.target {
            Target::InPlace(file) => {
                let mut f = file;
                f.write_all(bytes).and_then(|()| f.flush()).with_context(here)
            }
            Target::Descriptor(1) => stdout(bytes),
            Target::Descriptor(_) => {
                let mut err = std::io::stderr().lock();
                err.write_all(bytes).and_then(|()| err.flush()).with_context(here)
            }
            Target::Replace(target) => replace(target, bytes).with_context(here),
        }
    }
}

/// Refuses two outputs that resolve to one file (`--write-sln x --trace x`).
pub fn check_distinct(outputs: &[&Output]) -> Result<()> {
    for (i, a) in outputs.iter().enumerate() {
        for b in &outputs[i + 1..] {
            if a.replaced().is_some() && a.replaced() == b.replaced() {
                bail!("{} {}: is also {} {}", b.option, b.path.display(), a.option, a.path.display());
            }
        }
    }
    Ok(())
}

/// Opens a device or a FIFO for appending without blocking and writes 0 bytes to it: a
/// FIFO without a reader and `/dev/full` fail here. Later writes block as usual.
fn open_in_place(path: &Path) -> std::io::Result<File> {
    let mut f = match OpenOptions::new().append(true).custom_flags(libc::O_NONBLOCK).open(path) {
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
            return Err(std::io::Error::other("a FIFO with no reader (writing would block)"));
        }
        r => r?,
    };
    let _none = f.write(&[])?;
    // SAFETY: reads and sets the status flags of a descriptor this function owns.
    let cleared = unsafe {
        let flags = libc::fcntl(f.as_raw_fd(), libc::F_GETFL);
        flags >= 0 && libc::fcntl(f.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK) == 0
    };
    if !cleared {
        return Err(std::io::Error::last_os_error());
    }
    Ok(f)
}

/// Makes a new temporary file beside `target`, named after it and this process.
fn temporary(target: &Path) -> std::io::Result<(PathBuf, File)> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let name = target.file_name().map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    let folder = target.parent().unwrap_or(Path::new("."));
    loop {
        let tmp = folder.join(format!(".{name}.{}.{}.tmp", std::process::id(), COUNT.fetch_add(1, Ordering::Relaxed)));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Writes `bytes` to a temporary file beside `target`, flushes it to disk, gives it the
/// permissions of the file it replaces, and renames it over `target`.
/// Writes `bytes` as `target`'s whole content through a temporary file in its folder and a
/// rename: readers see the old file or the new one, never a part.
pub fn replace(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let (tmp, mut file) = temporary(target)?;
    let written = (|| {
        file.write_all(bytes)?;
        file.sync_all()?;
        if let Ok(old) = std::fs::metadata(target) {
            file.set_permissions(old.permissions())?;
        }
        drop(file);
        std::fs::rename(&tmp, target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}
