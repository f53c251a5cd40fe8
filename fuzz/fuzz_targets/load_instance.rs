//! Loads an instance over its template (and the template's parent), all from the input
//! split at NUL bytes, and checks load -> save -> load and revert (see
//! `juliet_fuzz::load_instance`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| juliet_fuzz::load_instance(data));
