//! The local searches on the GPU: robust tabu search and 2-opt, one unit (a c-ant or a
//! walk) a block. The bodies are `ls` (MATA and plain), `split` and `sums`; `kernels`
//! defines every entry from the one table of `qapgpu_common::search::kernels`, which the
//! host's planner chooses from.
mod kernels;
mod ls;
mod split;
mod sums;

pub(crate) use ls::donor_slot;
