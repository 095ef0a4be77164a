//! Views: the sentences, tables and machine rows the commands print, built
//! from the model's typed results. Nothing here computes a figure; the model
//! never writes a sentence.

pub mod compare;
pub mod fleet;
