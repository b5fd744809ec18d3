//! The tabu matrix in 2-byte entries, for the fast path where 4-byte entries would cost a
//! block per SM (on an H100, n = 95 to 102 with u16 matrices: H and the tabu matrix of
//! 4-byte entries, A and B need more than half its shared memory a walk).
//!
//! An entry (the iteration until which an assignment is taboo, `ls::TABU_FREE` when never
//! used) is held as its distance above a search's `base`: the launch's first iteration
//! less the long-term aspiration, less one. Every class a move can get depends only on
//! differences of iterations (`ls::class_of_earlier`), so the classes are the same as with
//! the entries themselves, as long as every entry of the launch lies in `base ..= base +
//! SPAN` (`fits`). An entry below `base` is held as 0: it is more than the aspiration
//! before every iteration of this launch and of any later one, so it is ASPIRED at each of
//! them, as 0 is; decoded, it becomes `base`, which is ASPIRED at each of them too.

/// The largest distance above `base` an entry can hold.
pub const SPAN: u32 = u16::MAX as u32;

/// The most moves a walk launch on a narrow plan makes: the host splits longer launches,
/// so that `fits` can be decided before the run, whatever the run loop asks a launch for.
pub const LAUNCH_MAX: u32 = 4096;

/// The base of a launch whose first iteration is `now0`, with long-term aspiration
/// `aspiration` (0 for none).
#[inline(always)]
pub const fn base(now0: i32, aspiration: i32) -> i32 {
    now0.wrapping_sub(aspiration).wrapping_sub(1)
}

/// `until` held above `base` (0 for every entry below it; `fits` keeps it under `SPAN`).
#[inline(always)]
pub const fn encode(until: i32, base: i32) -> u16 {
    let d = until.wrapping_sub(base);
    if d < 0 {
        0
    } else if d > SPAN as i32 {
        SPAN as u16
    } else {
        d as u16
    }
}

/// The entry `e` holds: `base + e`.
#[inline(always)]
pub const fn decode(e: u16, base: i32) -> i32 {
    base.wrapping_add(e as i32)
}

/// Whether every entry of a search stays within `SPAN` of its base: the entries of a
/// launch of at most `launch_moves` iterations are at most `launch_moves + longest_tenure`
/// above its first iteration (a move at iteration it sets its two entries to it + a
/// tenure), and its base is `aspiration + 1` below that.
pub const fn fits(aspiration: u32, launch_moves: u32, longest_tenure: u32) -> bool {
    (aspiration as u64) + 1 + (launch_moves as u64) + (longest_tenure as u64) <= SPAN as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ls::{TABU_FREE, class_of_earlier};

    /// Every class of an encoded pair of entries is the class of the entries themselves, at
    /// every iteration of a launch, for entries from far below the base to the longest
    /// tenure past the launch's end.
    #[test]
    fn encoded_entries_class_as_the_entries() {
        let (asp, launch, tenure) = (50_000, 4096, 880);
        assert!(fits(asp as u32, launch as u32, tenure as u32));
        for now0 in [0, 1, 7_000, 123_456, i32::MAX - 200_000] {
            let b = base(now0, asp);
            let entries =
                [TABU_FREE, b - 5, b, b + 1, now0 - asp - 2, now0 - asp, now0 - 1, now0, now0 + launch + tenure];
            for now in [now0, now0 + 1, now0 + launch / 2, now0 + launch - 1] {
                for &until in &entries {
                    for new_best in [false, true] {
                        let e = encode(until, b) as i32;
                        assert_eq!(
                            class_of_earlier(e, now - b, new_best, asp),
                            class_of_earlier(until, now, new_best, asp),
                            "until {until}, now {now}, now0 {now0}"
                        );
                        // Decoded, the entry classes the same at later launches too.
                        let later = now + 3 * launch;
                        assert_eq!(
                            class_of_earlier(decode(encode(until, b), b), later, new_best, asp),
                            class_of_earlier(until, later, new_best, asp)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_window_is_checked() {
        assert!(fits(5 * 100 * 100, 4096, 881));
        assert!(!fits(5 * 112 * 112, 4096, 986));
        assert!(fits(0, 65_534, 0) && !fits(0, 65_535, 1));
    }
}
