//! The GPU kernels of qapgpu, compiled to PTX (`cargo xtask build-ptx`).
//!
//! Kernels are thin: they map threads to work and move data between memories; the
//! operators themselves are the plain functions of `qapgpu-common`, which the CPU engine
//! runs too. Every kernel takes one pointer to a `#[repr(C)]` parameter block.
#![no_std]
#![feature(abi_ptx, stdarch_nvptx, asm_experimental_arch)]

mod aco;
mod batch;
mod block;
mod cga;
mod ga;
mod intrinsics;
mod matrices;
mod rngs;
mod search;
mod stop;
mod ts;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // A looping panic would hang the whole grid; trap aborts the launch with an error the
    // host reports.
    unsafe { core::arch::nvptx::trap() }
}
