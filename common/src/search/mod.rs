//! The local searches (robust tabu search and 2-opt) that seed 003's colony, `ts` and
//! `memetic` run on the GPU: which kernels exist (`kernels`), and which one a search runs
//! with what memory (`plan`). The memory plan itself is `layout::LsLayout`; the operators
//! are `ls`, `moves`, `mata`, `sums` and `narrow_tabu`.
pub mod kernels;
pub mod plan;
