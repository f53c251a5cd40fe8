//! The benches' deterministic input generator, shared by the bench targets
//! (`#[path = "common/rng.rs"] mod rng;`).

/// A small deterministic generator (xorshift64*), so every run sees the same input.
pub(crate) struct Rng(pub u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A game-like float: a few decimals, authored or written by the shortest-form
    /// writer (`142.5`, `-84.25`, `0.7071068`, `100.0`).
    pub(crate) fn float(&mut self) -> f32 {
        match self.below(4) {
            0 => self.below(400) as f32 - 200.0,
            1 => (self.below(80_000) as f32 - 40_000.0) / 100.0,
            2 => (self.below(4000) as f32) / 8.0,
            _ => (self.below(2_000_000) as f32 - 1_000_000.0) / 1_000_000.0,
        }
    }
}
