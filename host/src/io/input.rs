//! The one bounded input path of every reader: QAPLIB `.dat` and `.sln`, `bks.csv`, TSPLIB
//! and graph files, `--ptx` (and Python's `read_qaplib`, which calls the same code).
//!
//! A path is opened only where it names a regular file or an anonymous pipe (standard input
//! as `/dev/stdin` or `/dev/fd/0`, a shell's `<(…)`); symbolic links count as what they
//! point to. A device (`/dev/zero`, `/dev/urandom`, a terminal), a named pipe (FIFO), a
//! directory or a socket is refused before it is opened, in one line: a device would feed
//! bytes without end, and opening a FIFO that no one writes to blocks forever. Nothing is
//! read past the caller's bound: a regular file longer than it is refused unread, and a pipe
//! is refused as soon as it passes it (`Read::take`), so that memory never grows past what
//! the input's n allows.
use std::fs::{File, FileType};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why an input cannot be read.
#[derive(Debug)]
pub enum Fault {
    /// Not opened or not read: not a file, missing, unreadable. One line, without the path.
    Refused(String),
    /// Longer than the bound `max`: `size` where the file's length told it before reading
    /// (a regular file), None where the bound was passed while reading (a pipe).
    TooLong {
        /// The file's length, where it was known before reading.
        size: Option<u64>,
        /// The bound, in bytes.
        max: u64,
    },
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Refused(m) => f.write_str(m),
            Fault::TooLong { size: Some(size), max } => write!(f, "{size} bytes is more than the {max} bytes allowed"),
            Fault::TooLong { size: None, max } => {
                write!(f, "longer than the {max} bytes allowed (refused after reading that much)")
            }
        }
    }
}

/// An opened input: a regular file (`len` known) or a pipe.
#[derive(Debug)]
pub struct Input {
    file: File,
    /// The length of a regular file; None for a pipe.
    pub len: Option<u64>,
    /// Bytes read so far.
    read: u64,
}

impl Input {
    /// Opens `path` after checking what it names (see the module's notes).
    pub fn open(path: &Path) -> Result<Input, Fault> {
        let cannot = |e: std::io::Error| Fault::Refused(format!("cannot read: {e}"));
        // What the path names, through its links, checked before opening: a FIFO without a
        // writer would block `open` itself.
        refuse_kind(path, std::fs::metadata(path).map_err(cannot)?.file_type())?;
        let file = File::open(path).map_err(cannot)?;
        // And what was opened, should the path have changed in between.
        let meta = file.metadata().map_err(cannot)?;
        refuse_kind(path, meta.file_type())?;
        Ok(Input { file, len: meta.is_file().then_some(meta.len()), read: 0 })
    }

    /// Appends at most `max` more bytes to `buf`; true where the input ended before them.
    pub fn read_up_to(&mut self, buf: &mut Vec<u8>, max: u64) -> Result<bool, Fault> {
        let got =
            (&mut self.file).take(max).read_to_end(buf).map_err(|e| Fault::Refused(format!("cannot read: {e}")))?
                as u64;
        self.read += got;
        Ok(got < max)
    }

    /// Appends the rest of the input to `buf`, refused where the input in all (what was read
    /// before included) is longer than `max` bytes: a regular file unread, from its length;
    /// a pipe once `max + 1` bytes have come.
    pub fn read_rest(&mut self, buf: &mut Vec<u8>, max: u64) -> Result<(), Fault> {
        if let Some(size) = self.len.filter(|&s| s > max) {
            return Err(Fault::TooLong { size: Some(size), max });
        }
        if let Some(size) = self.len {
            // The file's own length, no more than the bound (a file in /proc says 0).
            buf.try_reserve(size.saturating_sub(self.read) as usize)
                .map_err(|_| Fault::Refused(format!("{size} bytes do not fit in memory")))?;
        }
        let left = max.saturating_sub(self.read);
        let ended = self.read_up_to(buf, left + 1)?;
        if !ended || self.read > max {
            return Err(Fault::TooLong { size: None, max });
        }
        Ok(())
    }
}

/// The whole of `path`, refused where it is longer than `max` bytes (`Input::read_rest`).
pub fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, Fault> {
    let mut input = Input::open(path)?;
    let mut bytes = Vec::new();
    input.read_rest(&mut bytes, max)?;
    Ok(bytes)
}

/// The whole of `path` as UTF-8 text, refused where it is longer than `max` bytes.
pub fn read_text(path: &Path, max: u64) -> Result<String, Fault> {
    String::from_utf8(read_bounded(path, max)?).map_err(|_| Fault::Refused("not a text file (invalid UTF-8)".into()))
}

/// Refuses what is neither a regular file nor an anonymous pipe, saying what it is.
fn refuse_kind(path: &Path, kind: FileType) -> Result<(), Fault> {
    let what = if kind.is_file() {
        None
    } else if kind.is_dir() {
        Some("is a directory, not a file")
    } else {
        special(path, kind)
    };
    what.map_or(Ok(()), |w| Err(Fault::Refused(w.into())))
}

/// What a special file is, in words; None for an anonymous pipe (read as a file is).
#[cfg(unix)]
fn special(path: &Path, kind: FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_char_device() || kind.is_block_device() {
        Some("is a device, not a file")
    } else if kind.is_socket() {
        Some("is a socket, not a file")
    } else if kind.is_fifo() {
        (!anonymous_pipe(path)).then_some(
            "is a named pipe (FIFO), not a file: refused, since one that no one writes to would wait forever (pipe it to standard input and name /dev/stdin instead)",
        )
    } else {
        Some("is not a regular file")
    }
}

#[cfg(not(unix))]
fn special(_path: &Path, _kind: FileType) -> Option<&'static str> {
    Some("is not a regular file")
}

/// Whether `path` leads, through its links, to an anonymous pipe: standard input or a
/// shell's `<(…)` seen through `/dev/stdin`, `/dev/fd/N` or `/proc/self/fd/N`, whose last
/// link reads `pipe:[inode]` on Linux. A FIFO with a name in a folder is not one.
#[cfg(unix)]
fn anonymous_pipe(path: &Path) -> bool {
    let mut at = path.to_path_buf();
    // As many links as the kernel follows.
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&at) else { return false };
        if target.as_os_str().as_encoded_bytes().starts_with(b"pipe:[") {
            return true;
        }
        at = if target.is_absolute() {
            target
        } else {
            at.parent().map_or_else(PathBuf::new, Path::to_path_buf).join(target)
        };
    }
    false
}
