//! Tokenizes arbitrary bytes, decodes every property as several codec types and checks
//! the round trips (see `juliet_fuzz::tokenize`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| juliet_fuzz::tokenize(data));
