//! The `shardplan` binary: parse, run, print one line on error, pick the
//! exit code (2 for bad input, 1 for anything else).

use std::process::ExitCode;

fn main() -> ExitCode {
    shardplan::shell::main()
}
