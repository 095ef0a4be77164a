//! The files shardplan reads, below every layer that reads them: the
//! bundled scenarios (`bundled`), input files where `-` is standard input
//! with their size limits (`input`), and one run's record of the files it
//! reads and writes (`Claims`). `config`, `measure` and `output` all read
//! through here; nothing here knows about flags beyond the name it is given
//! for errors.

pub mod bundled;
mod claims;
pub mod input;

pub use claims::Claims;
