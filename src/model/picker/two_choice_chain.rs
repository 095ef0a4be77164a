//! The law of one two-choice server's counts after `n` likes, as tables a
//! second draws from instead of drawing two shards a like.
//!
//! The rule (two uniform draws, the one this server has sent fewer likes
//! to, the first on a tie) treats every shard alike, so what a server's
//! second leaves is an exchangeable count vector: its **profile** (how
//! many shards sit 0, 1, 2, .. likes above the least used one) is a Markov
//! chain, and given the profile every placement of it on the shards is
//! equally likely. From profile `c`, a like goes to a shard at level `l`
//! with chance `(A_l^2 - A_(l+1)^2) / S^2`, `A_l` the shards at level `l`
//! or above (both draws at `l` or above, not both above), and which shard
//! of the level it is, is uniform. The least used count is then
//! `(n - sum l c_l) / S`.
//!
//! The chain has too many profiles to tabulate whole (past 400,000 at
//! 16 shards), but its mass sits on few: a step keeps the profiles holding
//! at least [`KEEP`] of the mass, and the mass that leaves them is
//! remembered by step, source profile and level. A server's second then
//! draws one entry of step `n`'s alias table; on the "left" entry it draws
//! where the path left (step, profile, level: a table too), places that
//! profile, and goes on like by like for the likes after it. Every path is
//! drawn with its exact chance: the tables only decide which paths cost a
//! like-by-like finish (1.1 % of a server's 350-like seconds at the
//! reference load).

use rand::{Rng, RngExt};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The least mass a profile must hold at a step to stay in its table.
pub const KEEP: f64 = 1e-7;

/// Most table entries (profiles kept over the steps, plus the sources the
/// mass leaves from) a chain is built with (about 30 MB, built in a fifth
/// of a second); past it the simulation draws like by like. The reference
/// server (350 likes over 20 shards, tables for 250 to 450) needs 950,000.
pub const MAX_ENTRIES: usize = 1_500_000;

/// Most words (`u32`) of profiles a build interns, the pruned ones
/// included: 750,000 at the reference; 50 shards would need 7 million.
pub const MAX_PROFILE_WORDS: usize = 2_000_000;

/// Most likes a server's second is tabulated for: past it the steps alone
/// pass [`MAX_ENTRIES`].
pub const MAX_LIKES: u64 = 2_000;

/// A [`ServerChain`] for the likes a server's second is likely to hold,
/// built on first use (by whichever thread draws first: the tables depend
/// only on the inputs, so the draws do not depend on which).
#[derive(Debug)]
pub struct LazyChain {
    shards: usize,
    likes: (u64, u64),
    chain: OnceLock<Option<ServerChain>>,
}

impl LazyChain {
    /// For a server whose second holds `mean` likes with variance
    /// `variance`: the tables cover 7 standard deviations and 4 likes on
    /// either side (a second past them is drawn like by like). `None`
    /// where that passes [`MAX_LIKES`].
    pub fn new(shards: usize, mean: f64, variance: f64) -> Option<LazyChain> {
        let reach = 7.0 * variance.max(0.0).sqrt() + 4.0;
        let last = (mean + reach).ceil();
        if !(last.is_finite() && last <= MAX_LIKES as f64) {
            return None;
        }
        let first = (mean - reach).floor().max(1.0) as u64;
        Some(LazyChain {
            shards,
            likes: (first, last as u64),
            chain: OnceLock::new(),
        })
    }

    /// The tables (built now if not yet), `None` past [`MAX_ENTRIES`].
    pub fn get(&self) -> Option<&ServerChain> {
        self.chain
            .get_or_init(|| ServerChain::build(self.shards, self.likes, KEEP, MAX_ENTRIES))
            .as_ref()
    }
}

/// A server's first draw ([`ServerChain::draw`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Drawn {
    /// Where the profile is, or [`LEFT`].
    at: u32,
    /// The profile's levels.
    levels: u32,
}

/// One way out of the kept profiles at a step.
#[derive(Debug, Clone, Copy)]
struct Exit {
    /// Where the profile the like left from is in [`ServerChain::profiles`].
    profile: u32,
    /// The levels whose like leads out, one bit each.
    levels: u64,
    /// The mass left through this and the step's exits before it.
    cumulative: f64,
}

/// "Left the kept profiles", in an alias entry.
const LEFT: u32 = u32::MAX;

/// One entry of a step's alias table (Walker, built as Vose does): a
/// uniformly drawn entry gives its own profile with chance `odds`, else its
/// alias. The profiles are where they sit in [`ServerChain::profiles`], so
/// a draw reads one entry and one profile: the tables are megabytes, and
/// with rand_distr's `WeightedAliasIndex` (odds, aliases and the profile
/// ids in three arrays, three reads that miss the cache) half of a
/// simulated second was the wait for its first read.
#[derive(Debug, Clone, Copy)]
struct AliasEntry {
    odds: f64,
    own: u32,
    alias: u32,
}

/// One step's kept profiles (and "left") as an alias table.
#[derive(Debug, Clone)]
struct Step {
    entries: Vec<AliasEntry>,
    /// The kept profiles and their masses (the tests check them against
    /// brute force).
    #[cfg(test)]
    kept: Vec<(u32, f64)>,
}

impl Step {
    /// The table of a step's kept profiles (`(where, mass)`) and the mass
    /// that left, "left" last.
    fn new(kept: &[(u32, f64)], left: f64) -> Step {
        let mut weights: Vec<(u32, f64)> = kept.to_vec();
        weights.push((LEFT, left));
        let n = weights.len() as f64;
        let total: f64 = weights.iter().map(|&(_, w)| w).sum();
        let mut entries: Vec<AliasEntry> = weights
            .iter()
            .map(|&(own, w)| AliasEntry {
                odds: w * n / total,
                own,
                alias: own,
            })
            .collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) =
            (0..entries.len()).partition(|&i| entries[i].odds < 1.0);
        while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
            small.pop();
            entries[s].alias = entries[l].own;
            entries[l].odds -= 1.0 - entries[s].odds;
            if entries[l].odds < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        // What is left holds its own (odds 1, to rounding).
        for i in small.into_iter().chain(large) {
            entries[i].odds = 1.0;
        }
        Step {
            entries,
            #[cfg(test)]
            kept: kept.to_vec(),
        }
    }

    /// One draw: a profile's place, or [`LEFT`].
    fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        let e = self.entries[rng.random_range(0..self.entries.len())];
        if rng.random::<f64>() < e.odds {
            e.own
        } else {
            e.alias
        }
    }
}

/// One like's move from a profile: the level it lands on, its chance and
/// the profile it makes.
#[derive(Debug, Clone, Copy)]
struct Move {
    level: u32,
    chance: f64,
    next: u32,
}

/// The profiles met while building, interned, with their moves. Hundreds
/// of thousands are met (750,000 words at the reference server), so the
/// lookups hash with foldhash (std's SipHash took a third of a build) and
/// a profile is stored once, in `flat`, besides its key.
#[derive(Debug, Default)]
struct Profiles {
    /// Every profile, its length then its levels, one after another.
    flat: Vec<u32>,
    /// Where profile `id` starts in `flat`.
    at: Vec<u32>,
    ids: HashMap<Box<[u32]>, u32, foldhash::fast::FixedState>,
    moves: Vec<Option<Box<[Move]>>>,
}

impl Profiles {
    fn intern(&mut self, profile: &[u32]) -> u32 {
        if let Some(&id) = self.ids.get(profile) {
            return id;
        }
        let id = self.at.len() as u32;
        self.at.push(self.flat.len() as u32);
        self.flat.push(profile.len() as u32);
        self.flat.extend_from_slice(profile);
        self.ids.insert(profile.into(), id);
        self.moves.push(None);
        id
    }

    /// Profile `id`'s levels.
    fn levels(&self, id: u32) -> &[u32] {
        let at = self.at[id as usize] as usize;
        &self.flat[at + 1..at + 1 + self.flat[at] as usize]
    }

    /// Computes the moves from profile `id` once.
    fn ensure_moves(&mut self, id: u32, shards: usize) {
        if self.moves[id as usize].is_some() {
            return;
        }
        let c = self.levels(id).to_vec();
        let mut out = Vec::with_capacity(c.len());
        let mut next = Vec::with_capacity(c.len() + 1);
        for (level, chance) in level_chances(&c, shards) {
            next.clear();
            next.extend_from_slice(&c);
            next[level] -= 1;
            match next.get_mut(level + 1) {
                Some(up) => *up += 1,
                None => next.push(1),
            }
            // The least used level emptied: the one above is the new 0.
            let from = usize::from(next[0] == 0);
            let next = self.intern(&next[from..]);
            out.push(Move {
                level: level as u32,
                chance,
                next,
            });
        }
        self.moves[id as usize] = Some(out.into_boxed_slice());
    }

    /// The moves from profile `id`, once [`Profiles::ensure_moves`] ran.
    fn moves(&self, id: u32) -> &[Move] {
        self.moves[id as usize].as_deref().unwrap_or_default()
    }
}

/// The levels a like can land on from profile `c`, with their chances:
/// `(A_l^2 - A_(l+1)^2) / S^2` in exact integers before the one division.
fn level_chances(c: &[u32], shards: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
    let s2 = (shards as f64) * (shards as f64);
    let mut at_or_above: u64 = shards as u64;
    c.iter().enumerate().filter_map(move |(level, &n)| {
        let above = at_or_above - u64::from(n);
        let chance = (at_or_above * at_or_above - above * above) as f64 / s2;
        at_or_above = above;
        (n > 0).then_some((level, chance))
    })
}

/// The tables of one server's second, for `first..=last` likes.
#[derive(Debug)]
pub struct ServerChain {
    shards: usize,
    first: u64,
    /// Every profile met: its length, then its levels (see [`Profiles`]).
    profiles: Vec<u32>,
    /// Step `first + i`'s table.
    steps: Vec<Step>,
    /// `left_by[t]`: the mass that left the kept profiles in steps `1..=t`.
    left_by: Vec<f64>,
    /// `exits[t]`: where step `t`'s mass left (empty for `t = 0`).
    exits: Vec<Vec<Exit>>,
}

impl ServerChain {
    /// The tables for `first..=last` likes over `shards` shards, keeping the
    /// profiles that hold at least `keep` of a step's mass; `None` past
    /// `max_entries` entries or [`MAX_PROFILE_WORDS`].
    pub fn build(
        shards: usize,
        (first, last): (u64, u64),
        keep: f64,
        max_entries: usize,
    ) -> Option<ServerChain> {
        let first = first.max(1);
        if shards == 0 || last < first {
            return None;
        }
        let mut profiles = Profiles::default();
        let start = profiles.intern(&[shards as u32]);
        let mut chain = ServerChain {
            shards,
            first,
            profiles: Vec::new(),
            steps: Vec::new(),
            left_by: vec![0.0],
            exits: vec![Vec::new()],
        };
        let mut now: Vec<(u32, f64)> = vec![(start, 1.0)];
        let (mut mass, mut touched) = (Vec::<f64>::new(), Vec::<u32>::new());
        let mut entries = 0usize;
        for t in 1..=last {
            for &(id, _) in &now {
                profiles.ensure_moves(id, shards);
            }
            for &(id, m) in &now {
                for mv in profiles.moves(id) {
                    let at = mv.next as usize;
                    if at >= mass.len() {
                        mass.resize(at + 1, 0.0);
                    }
                    if mass[at] == 0.0 {
                        touched.push(mv.next);
                    }
                    mass[at] += m * mv.chance;
                }
            }
            // An exit's levels are bits of a u64: a profile 64 levels wide
            // (never met with any mass) is drawn like by like instead.
            let exits = exits_of(&now, &profiles, &mass, keep)?;
            let left = exits.last().map_or(0.0, |e| e.cumulative);
            chain.left_by.push(chain.left_by[t as usize - 1] + left);
            entries += exits.len();
            chain.exits.push(exits);
            now = touched
                .iter()
                .map(|&id| (id, mass[id as usize]))
                .filter(|&(_, m)| m >= keep)
                .collect();
            if profiles.flat.len() > MAX_PROFILE_WORDS {
                return None;
            }
            for &id in &touched {
                mass[id as usize] = 0.0;
            }
            touched.clear();
            if t >= first {
                entries += now.len();
                let kept: Vec<(u32, f64)> = now
                    .iter()
                    .map(|&(id, m)| (profiles.at[id as usize], m))
                    .collect();
                let left = chain.left_by[t as usize];
                chain.steps.push(Step::new(&kept, left));
            }
            if entries > max_entries {
                return None;
            }
        }
        chain.profiles = profiles.flat;
        Some(chain)
    }

    /// Whether a second of `likes` draws from the tables.
    pub fn covers(&self, likes: u64) -> bool {
        (self.first..self.first + self.steps.len() as u64).contains(&likes)
    }

    /// One server's second of `likes` (which [`ServerChain::covers`]) added
    /// to `counts`; `sent` (length `S`) and `order` (a permutation of the
    /// shards, any order) are scratch.
    pub fn add_server_second<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        likes: u64,
        scratch: (&mut [u32], &mut [u32]),
        counts: &mut [u64],
    ) {
        let drawn = self.draw(rng, likes);
        self.add_drawn(rng, likes, drawn, scratch, counts);
    }

    /// The first draw of a server's second of `likes` (which
    /// [`ServerChain::covers`]): its profile, or that its path left the
    /// tables. Drawing every server's before placing any lets their table
    /// reads (most of a second's time, waiting on memory) overlap.
    pub fn draw<R: Rng + ?Sized>(&self, rng: &mut R, likes: u64) -> Drawn {
        let at = self.steps[(likes - self.first) as usize].draw(rng);
        // Read the profile's length now too, for the same reason.
        let levels = match at {
            LEFT => 0,
            at => self.profiles[at as usize],
        };
        Drawn { at, levels }
    }

    /// A server's second from its [`ServerChain::draw`], added to `counts`
    /// (scratch as [`ServerChain::add_server_second`]'s).
    pub fn add_drawn<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        likes: u64,
        drawn: Drawn,
        (sent, order): (&mut [u32], &mut [u32]),
        counts: &mut [u64],
    ) {
        if drawn.at != LEFT {
            let at = drawn.at as usize + 1;
            let profile = &self.profiles[at..at + drawn.levels as usize];
            place(rng, profile, likes, order, |shard, n| {
                counts[shard] += u64::from(n)
            });
            return;
        }
        // The path left the kept profiles: find where, then go on like by
        // like from there.
        let t = self.exit_step(rng.random::<f64>(), likes as usize);
        let within = rng.random::<f64>() * (self.left_by[t] - self.left_by[t - 1]);
        let exits = &self.exits[t];
        let exit = exits[exits
            .partition_point(|e| e.cumulative <= within)
            .min(exits.len() - 1)];
        let profile = self.profile(exit.profile);
        let level = exit_level(rng, profile, self.shards, exit.levels);
        sent.fill(0);
        place(rng, profile, t as u64 - 1, order, |shard, n| {
            sent[shard] = n
        });
        let least = sent.iter().min().copied().unwrap_or(0);
        let at_level = sent.iter().filter(|&&n| n == least + level).count();
        let mut pick = rng.random_range(0..at_level);
        for n in sent.iter_mut().filter(|n| **n == least + level) {
            if pick == 0 {
                *n += 1;
                break;
            }
            pick -= 1;
        }
        super::two_choice::place_likes(rng, likes - t as u64, sent);
        for (c, &n) in counts.iter_mut().zip(sent.iter()) {
            *c += u64::from(n);
        }
    }
}

impl ServerChain {
    /// The profile that starts at `at` in [`ServerChain::profiles`].
    fn profile(&self, at: u32) -> &[u32] {
        let at = at as usize;
        &self.profiles[at + 1..at + 1 + self.profiles[at] as usize]
    }

    /// The step at which a path of `likes` likes that left the kept
    /// profiles left them, from `u` uniform on `[0, 1)`: the first `t` with
    /// `left_by[t] > u left_by[likes]` (the last step with exits, were
    /// rounding to put `u` past them all).
    fn exit_step(&self, u: f64, likes: usize) -> usize {
        let u = u * self.left_by[likes];
        let t = self.left_by[1..=likes].partition_point(|&l| l <= u) + 1;
        if t <= likes {
            return t;
        }
        (1..=likes)
            .rev()
            .find(|&t| !self.exits[t].is_empty())
            .expect("a step with exits, as the left mass is positive")
    }
}

/// The exits of one step: for each kept profile of the step before, the
/// mass its likes carry to profiles under `keep`, and through which levels.
fn exits_of(now: &[(u32, f64)], profiles: &Profiles, mass: &[f64], keep: f64) -> Option<Vec<Exit>> {
    let mut exits = Vec::new();
    let mut cumulative = 0.0;
    for &(id, m) in now {
        let (mut levels, mut out) = (0u64, 0.0);
        for mv in profiles.moves(id) {
            if mass[mv.next as usize] < keep {
                levels |= 1u64.checked_shl(mv.level)?;
                out += m * mv.chance;
            }
        }
        if out > 0.0 {
            cumulative += out;
            exits.push(Exit {
                profile: profiles.at[id as usize],
                levels,
                cumulative,
            });
        }
    }
    Some(exits)
}

/// The level of an exit's like: one of `levels` (bits), by its chance.
fn exit_level<R: Rng + ?Sized>(rng: &mut R, profile: &[u32], shards: usize, levels: u64) -> u32 {
    let out: Vec<(usize, f64)> = level_chances(profile, shards)
        .filter(|&(l, _)| l < 64 && levels & (1 << l) != 0)
        .collect();
    let total: f64 = out.iter().map(|&(_, p)| p).sum();
    let mut u = rng.random::<f64>() * total;
    for &(l, p) in &out {
        if u < p {
            return l as u32;
        }
        u -= p;
    }
    out.last().map_or(0, |&(l, _)| l as u32)
}

/// Places `profile` (after `likes` likes) on the shards uniformly: each
/// level's shards a uniformly random set of its size, the largest level
/// taking the shards left so the fewest draws are made; `add(shard,
/// count)` is told each shard's count. `order` holds the shards in any
/// order (a partial shuffle keeps it a permutation).
fn place<R: Rng + ?Sized>(
    rng: &mut R,
    profile: &[u32],
    likes: u64,
    order: &mut [u32],
    mut add: impl FnMut(usize, u32),
) {
    let s = order.len();
    let above: u64 = profile
        .iter()
        .enumerate()
        .map(|(l, &c)| l as u64 * u64::from(c))
        .sum();
    let least = ((likes - above) / s as u64) as u32;
    let largest = (0..profile.len())
        .max_by_key(|&l| (profile[l], std::cmp::Reverse(l)))
        .unwrap_or(0);
    let mut k = 0;
    for (level, &c) in profile.iter().enumerate() {
        if level == largest {
            continue;
        }
        for _ in 0..c {
            let j = k + rng.random_range(0..s - k);
            order.swap(k, j);
            add(order[k] as usize, least + level as u32);
            k += 1;
        }
    }
    for &shard in &order[k..] {
        add(shard as usize, least + largest as u32);
    }
}

#[cfg(test)]
mod tests;
