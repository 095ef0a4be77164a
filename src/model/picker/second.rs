//! One simulated second of a picker other than the random ones: the likes
//! split over the `K` servers as the random picker splits them over shards
//! (the load balancer is uniform: the same [`ShardSampler`], `K` "shards"),
//! then each server's likes go where its picker sends them.

use std::sync::Arc;

use rand::Rng;

use super::two_choice_chain::{Drawn, LazyChain};
use super::{round_robin, sticky, two_choice, two_choice_chain, Picker, Writers};
use crate::error::ParamResult;
use crate::model::cost::SecondDraws;
use crate::model::law::TrafficModel;
use crate::model::rng::chunk_rng;
use crate::model::sampler::ShardSampler;
use crate::model::validate;

/// What one like drawn like by like under two-choice costs, in the cost
/// model's uniform picks (3 ns each): two picks, the two counts read and
/// compared, one written. Measured at 10.5 ns a like (release build, one
/// thread, 2e8 likes a run over 20, 1,000 and 100,000 shards: 2.06 to
/// 2.27 s), so 3.5 picks; two picks alone made a 21 s run look like 12 s.
const TWO_CHOICE_PICKS_PER_LIKE: f64 = 3.5;

/// Draws a picker's seconds.
#[derive(Debug, Clone)]
pub struct PickerSampler {
    writers: Writers,
    shards: usize,
    /// The second's likes and their split over the servers.
    servers: ShardSampler,
    /// Two-choice: the tables of a server's second (where they fit).
    chain: Option<Arc<LazyChain>>,
}

/// What a chunk of seconds keeps from one second to the next.
#[derive(Debug, Clone)]
pub struct SecondState {
    server_likes: Vec<u64>,
    /// Round-robin: each server's cursor.
    cursors: Vec<u64>,
    /// Two-choice: one server's own counts in the second.
    sent: Vec<u32>,
    /// Two-choice: the shards, in the order the last placement left them.
    order: Vec<u32>,
    /// Two-choice: each server's first draw from the tables.
    drawn: Vec<Drawn>,
}

impl PickerSampler {
    /// `rate` likes/s by `writers` over `shards` shards.
    pub fn new(
        rate: f64,
        shards: u64,
        traffic: TrafficModel,
        writers: Writers,
    ) -> ParamResult<Self> {
        let shards = validate::count("shards", shards, crate::model::defaults::MAX_SHARDS)?;
        let servers = ShardSampler::new(rate, writers.servers, traffic)?;
        let chain = (writers.picker == Picker::TwoChoice)
            .then(|| {
                // A server's likes: the second's, each to one of K servers.
                let mean = traffic.check_rate("rate", rate).ok()?;
                let k = writers.servers as f64;
                let variance = traffic.law().variance(mean) / (k * k) + mean / k * (1.0 - 1.0 / k);
                LazyChain::new(shards as usize, mean / k, variance)
            })
            .flatten()
            .map(Arc::new);
        Ok(PickerSampler {
            writers,
            shards: shards as usize,
            servers,
            chain,
        })
    }

    /// True where a second depends on the seconds before it (round-robin's
    /// cursors): a run is then independent replications, a chunk each.
    pub fn carries_state(&self) -> bool {
        self.writers.picker == Picker::RoundRobin
    }

    /// The state chunk `chunk` of a run from `seed` starts with: for
    /// round-robin, independent uniform cursors from the chunk's own
    /// stream (one the chunk's seconds do not draw from), so each chunk is
    /// a replication from its own start; nothing for the other pickers.
    pub fn chunk_state(&self, seed: u64, chunk: u64) -> SecondState {
        use rand::RngExt;
        let cursors = match self.carries_state() {
            true => {
                let own = crate::model::rng::mix64(seed ^ crate::model::rng::mix64(chunk));
                let mut rng = chunk_rng(own, u64::MAX);
                let s = self.shards as u64;
                (0..self.writers.servers)
                    .map(|_| rng.random_range(0..s))
                    .collect()
            }
            false => Vec::new(),
        };
        SecondState {
            server_likes: vec![0; self.writers.servers as usize],
            cursors,
            sent: vec![0; self.shards],
            order: match self.chain {
                Some(_) => (0..self.shards as u32).collect(),
                None => Vec::new(),
            },
            drawn: Vec::new(),
        }
    }

    /// What a second draws, for the cost model: the servers' split, then
    /// two-choice's placement (about a table draw and `S` picks a server;
    /// two uniform picks a like where it has no tables); round-robin draws each
    /// second twice (its two passes), and spreading costs about a table
    /// draw a server and a shard.
    pub fn draws(&self, rate: f64) -> SecondDraws {
        let SecondDraws::EveryShard {
            table_draws,
            picks,
            binomials,
        } = self.servers.draws()
        else {
            unreachable!("the servers' split draws every server");
        };
        let spread = (self.writers.servers + self.shards as u64) as f64;
        let (times, extra_picks) = match self.writers.picker {
            Picker::RoundRobin => (2.0, 0.0),
            Picker::TwoChoice if self.chain.is_some() => (
                1.0,
                (self.writers.servers * (self.shards as u64 + 2)) as f64,
            ),
            Picker::TwoChoice => (1.0, TWO_CHOICE_PICKS_PER_LIKE * rate),
            _ => (1.0, 0.0),
        };
        SecondDraws::EveryShard {
            table_draws: times * table_draws + spread,
            picks: times * picks + extra_picks,
            binomials: times * binomials,
        }
    }

    /// Fills `counts` (length `S`) with one second's writes per shard and
    /// returns the likes in it.
    pub fn sample_second<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        state: &mut SecondState,
        counts: &mut [u64],
    ) -> u64 {
        let likes = self.servers.sample_second(rng, &mut state.server_likes);
        match self.writers.picker {
            Picker::RoundRobin => {
                round_robin::spread_second(&state.server_likes, &mut state.cursors, counts)
            }
            Picker::Sticky => sticky::spread_second(&state.server_likes, counts),
            Picker::TwoChoice => {
                counts.fill(0);
                match self.chain.as_deref().and_then(LazyChain::get) {
                    Some(chain) => two_choice_tables(rng, chain, state, counts),
                    None => {
                        for &n in &state.server_likes {
                            two_choice::add_server_second(rng, n, &mut state.sent, counts);
                        }
                    }
                }
            }
            // The random pickers split as the shard sampler does.
            Picker::Random | Picker::UserHash => {
                counts.fill(0);
                for &n in &state.server_likes {
                    crate::model::sampler::add_split_uniform(rng, n, counts);
                }
            }
        }
        likes
    }
}

/// A two-choice second from the tables: every server's first draw, then
/// each server's placement (a server past the tables like by like, in
/// its turn).
fn two_choice_tables<R: Rng + ?Sized>(
    rng: &mut R,
    chain: &two_choice_chain::ServerChain,
    state: &mut SecondState,
    counts: &mut [u64],
) {
    state.drawn.clear();
    state
        .drawn
        .extend(state.server_likes.iter().map(|&n| match chain.covers(n) {
            true => chain.draw(rng, n),
            false => Drawn::default(),
        }));
    for (&n, &drawn) in state.server_likes.iter().zip(&state.drawn) {
        if chain.covers(n) {
            let scratch = (&mut state.sent[..], &mut state.order[..]);
            chain.add_drawn(rng, n, drawn, scratch, counts);
        } else {
            two_choice::add_server_second(rng, n, &mut state.sent, counts);
        }
    }
}
