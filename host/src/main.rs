//! `qapgpu`: the command line (`qapgpu::cli`). With no arguments it solves the embedded
//! default instance (planted, optimum known) on the GPU when there is one, else on the CPU.
fn main() {
    std::process::exit(qapgpu::cli::main());
}
