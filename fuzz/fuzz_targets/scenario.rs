//! Any bytes as a scenario file: the parser and its checks must return an
//! error, never panic, and the error must be one line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(e) = shardplan::shell::check_scenario(text) {
            assert!(!e.contains('\n'), "a multi-line error: {e}");
        }
    }
});
