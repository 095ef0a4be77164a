//! `--picker` on a real store (both stores): client `c` acts as app server
//! `c`, its [`Writer`] choosing the shard of each write. With `random` no
//! writer is built: the clients draw their shard as every run did before
//! pickers (each store's own draw), so nothing about such a run changes.
//!
//! A writer is built once a run from its own random stream (a round-robin
//! cursor's first shard) and kept from one phase to the next, as a server
//! keeps its cursor. Each phase's wall-clock seconds count from the
//! client's start after the barrier; at each one's beginning the writer
//! starts a new second (two-choice forgets its counts). `user-hash` hashes
//! [`user_id`]: a different user for every like of the run.

use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::model::picker::{Picker, Writer};

/// The random stream (in place of a phase number) the writers are built
/// from.
const WRITERS_STREAM: u64 = u64::MAX - 1;

/// How the clients of a phase choose the shard of each write.
pub(crate) enum Pick<'a> {
    /// The store's uniform draw, as before `--picker`: the one-key phase,
    /// and the shards with `--picker random`.
    Uniform,
    /// Client `c` is app server `c`: its picker is `writers[c]`.
    Writers(&'a [Mutex<Writer>]),
}

impl<'a> Pick<'a> {
    /// `writers` ([`writers`]'s), or the uniform draw when there are none.
    pub(crate) fn of(writers: &'a [Mutex<Writer>]) -> Pick<'a> {
        match writers.is_empty() {
            true => Pick::Uniform,
            false => Pick::Writers(writers),
        }
    }
}

/// Each of `clients` clients' picker over `shards` shards, from `seed`;
/// none for `random`.
pub(crate) fn writers(picker: Picker, clients: u64, shards: u64, seed: u64) -> Vec<Mutex<Writer>> {
    if picker == Picker::Random {
        return Vec::new();
    }
    (0..clients as usize)
        .map(|c| {
            let mut rng = client_rng(seed, WRITERS_STREAM, c);
            Mutex::new(Writer::new(picker, c as u64, shards, &mut rng))
        })
        .collect()
}

/// Client `client`'s random stream in `phase`, from the run's seed.
pub(crate) fn client_rng(seed: u64, phase: u64, client: usize) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(
        seed ^ (phase << 32) ^ (client as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    )
}

/// The user id of client `client`'s `n`-th like (from 0) in `phase`: the
/// phase's low 16 bits, then the client's 16, then `n`'s low 32 (clients
/// are at most 1,000 and a client sends fewer than 2^32 likes a phase), so
/// no two likes of a run share one.
pub(crate) fn user_id(phase: u64, client: usize, n: u64) -> u64 {
    ((phase & 0xFFFF) << 48) | ((client as u64 & 0xFFFF) << 32) | (n & 0xFFFF_FFFF)
}

/// One client's choice in one phase: its writer, if any, and the phase's
/// second the writer is in.
pub(crate) struct Chooser<'a> {
    writer: Option<MutexGuard<'a, Writer>>,
    /// When the client started (after the barrier).
    started: Instant,
    second: u64,
    client: usize,
    phase: u64,
}

impl<'a> Chooser<'a> {
    /// Client `client`'s choice in `phase`, starting now: a writer starts a
    /// new second.
    pub(crate) fn new(pick: &'a Pick<'a>, client: usize, phase: u64) -> Chooser<'a> {
        let mut writer = match pick {
            Pick::Uniform => None,
            Pick::Writers(w) => Some(w[client].lock().unwrap_or_else(|e| e.into_inner())),
        };
        if let Some(w) = writer.as_deref_mut() {
            w.start_second();
        }
        Chooser {
            writer,
            started: Instant::now(),
            second: 0,
            client,
            phase,
        }
    }

    /// When the client started.
    pub(crate) fn started(&self) -> Instant {
        self.started
    }

    /// The writer's shard for the client's like number `n` (from 0) of the
    /// phase; `None` without a writer: the caller draws as it always has.
    pub(crate) fn pick(&mut self, rng: &mut Xoshiro256PlusPlus, n: u64) -> Option<u64> {
        let w = self.writer.as_deref_mut()?;
        let second = self.started.elapsed().as_secs();
        if second != self.second {
            self.second = second;
            w.start_second();
        }
        Some(w.pick(rng, user_id(self.phase, self.client, n)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_ids_are_distinct_across_phases_clients_and_likes() {
        let mut seen = std::collections::HashSet::new();
        for phase in [0, 1, 2, 3, 2001, u64::MAX] {
            for client in [0, 1, 999] {
                for n in [0, 1, 1 << 31] {
                    assert!(seen.insert(user_id(phase, client, n)));
                }
            }
        }
    }

    #[test]
    fn random_builds_no_writer_and_round_robin_clients_cycle() {
        assert!(writers(Picker::Random, 4, 8, 1).is_empty());
        let w = writers(Picker::RoundRobin, 3, 5, 1);
        let pick = Pick::of(&w);
        let mut rng = client_rng(1, 3, 0);
        for c in 0..3 {
            let mut chooser = Chooser::new(&pick, c, 3);
            let got: Vec<u64> = (0..10)
                .map(|n| chooser.pick(&mut rng, n).unwrap())
                .collect();
            for pair in got.windows(2) {
                assert_eq!(pair[1], (pair[0] + 1) % 5, "{got:?}");
            }
        }
        let uniform = Pick::of(&[]);
        assert_eq!(Chooser::new(&uniform, 0, 3).pick(&mut rng, 0), None);
    }
}
