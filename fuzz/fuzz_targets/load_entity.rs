//! Loads one entity file of a stock kind (the first byte picks the `Kind` line put in
//! front of the rest) and checks load -> save -> load (see `juliet_fuzz::load_entity`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| juliet_fuzz::load_entity(data));
