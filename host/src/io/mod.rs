//! Instances and their files: the in-memory instance, and QAPLIB `.dat` / `.sln` reading,
//! writing and look-up.
pub mod instance;
pub mod qaplib;

pub use instance::{ErrorKind, Instance, InstanceError};
