//! One app server's picker, live: what a `measure` client runs, like by
//! like, against a real store.

use rand::{Rng, RngExt};

use super::Picker;
use crate::model::rng::mix64;

/// One server's picker and the state it keeps.
#[derive(Debug, Clone)]
pub struct Writer {
    picker: Picker,
    server: u64,
    shards: u64,
    /// Round-robin: the next shard.
    cursor: u64,
    /// Two-choice: likes sent to each shard this second.
    sent: Vec<u32>,
}

impl Writer {
    /// Server `server`'s picker over `shards` shards (`shards >= 1`); a
    /// round-robin cursor starts at a uniform shard drawn from `rng`.
    pub fn new<R: Rng + ?Sized>(picker: Picker, server: u64, shards: u64, rng: &mut R) -> Self {
        assert!(shards >= 1, "a writer needs a shard");
        let cursor = match picker {
            Picker::RoundRobin => rng.random_range(0..shards),
            _ => 0,
        };
        let sent = match picker {
            Picker::TwoChoice => vec![0; shards as usize],
            _ => Vec::new(),
        };
        Writer {
            picker,
            server,
            shards,
            cursor,
            sent,
        }
    }

    /// A new second begins: two-choice forgets its counts.
    pub fn start_second(&mut self) {
        self.sent.fill(0);
    }

    /// The shard (`0..S`) for a like by `user` (only user-hash reads it).
    pub fn pick<R: Rng + ?Sized>(&mut self, rng: &mut R, user: u64) -> u64 {
        let s = self.shards;
        match self.picker {
            Picker::Random => rng.random_range(0..s),
            Picker::RoundRobin => {
                let shard = self.cursor;
                self.cursor = (self.cursor + 1) % s;
                shard
            }
            Picker::TwoChoice => {
                let first = rng.random_range(0..s) as usize;
                let second = rng.random_range(0..s) as usize;
                let pick = if self.sent[second] < self.sent[first] {
                    second
                } else {
                    first
                };
                self.sent[pick] = self.sent[pick].saturating_add(1);
                pick as u64
            }
            Picker::Sticky => self.server % s,
            Picker::UserHash => mix64(user) % s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_picker_picks_as_described() {
        let mut rng = crate::model::rng::chunk_rng(34, 1);
        let mut rr = Writer::new(Picker::RoundRobin, 0, 5, &mut rng);
        let first = rr.pick(&mut rng, 0);
        let next: Vec<u64> = (0..6).map(|_| rr.pick(&mut rng, 0)).collect();
        let want: Vec<u64> = (1..7).map(|i| (first + i) % 5).collect();
        assert_eq!(next, want);
        let mut sticky = Writer::new(Picker::Sticky, 23, 20, &mut rng);
        assert!((0..10).all(|_| sticky.pick(&mut rng, 9) == 3));
        let mut hash = Writer::new(Picker::UserHash, 0, 20, &mut rng);
        let a = hash.pick(&mut rng, 1234);
        assert!((0..10).all(|_| hash.pick(&mut rng, 1234) == a));
        // Two-choice: 2 likes on 2 shards end 2 + 0 with probability 1/4
        // (both draws on the first like's shard); over 40,000 seconds the
        // standard error is 0.00217, the tolerance 5 of them.
        let mut two = Writer::new(Picker::TwoChoice, 0, 2, &mut rng);
        let mut both = 0;
        for _ in 0..40_000 {
            two.start_second();
            let (a, b) = (two.pick(&mut rng, 0), two.pick(&mut rng, 0));
            both += u64::from(a == b);
        }
        let f = both as f64 / 40_000.0;
        assert!((f - 0.25).abs() < 5.0 * 0.00217, "{f}");
    }
}
