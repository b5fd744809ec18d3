//! Instances and their files: the in-memory instance, QAPLIB `.dat` / `.sln` reading,
//! writing and look-up, and the bounded input path every reader takes (`input`).
pub mod input;
pub mod instance;
pub mod qaplib;

pub use instance::{ErrorKind, Instance, InstanceError};
