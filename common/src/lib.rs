//! Shared between the host and the GPU kernels: parameter blocks, memory layouts and the
//! operators of every algorithm, as plain functions on `&mut [u8]` rows.
//!
//! This crate is `no_std` and compiles both for the host and for `nvptx64-nvidia-cuda`.
//! The kernels in `device` and the CPU engine in `host` call the very same functions, so a
//! kernel and its CPU twin produce bit-identical populations from the same seed.
#![no_std]
#![warn(missing_docs)]

pub mod aco;
pub mod cga;
pub mod cost;
pub mod delta;
pub mod elem;
pub mod ga;
pub mod gene;
pub mod layout;
pub mod ls;
pub mod mata;
pub mod matrix;
pub mod moves;
pub mod narrow_tabu;
pub mod null_swaps;
pub mod ops;
pub mod params;
pub mod planted;
pub mod rng;
pub mod search;
pub mod shuffle;
pub mod sums;
pub mod wide;

/// Largest problem size of the `u8` rows: the GA families, the shared-memory local-search
/// kernels and everything built on seed 003's colony, as in the papers' populations.
pub const MAX_N: usize = 256;

/// Largest problem size of the wide path (`wide`: `u16` rows, every table in global
/// memory): the `ts` family above `MAX_N`. A walk's Δ table of i64 is 16 MB there.
pub const WIDE_MAX_N: usize = 2048;
