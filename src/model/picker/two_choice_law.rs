//! One two-choice server's law of one shard's likes after `n` likes, for
//! `n = 0..=last`: what the union bound over shards
//! ([`super::two_choice_bound`]) sums over the servers.
//!
//! The profile chain of [`super::two_choice_chain`] (how many shards sit
//! 0, 1, 2, .. likes above the least used one) is walked like by like. A
//! shard of the server is a uniformly random one of its profile's shards,
//! so after `n` likes it holds `least + l` likes with chance `c_l / S`.
//!
//! The chain has too many profiles to walk whole, and dropping the rare
//! ones loses mass that the chain would have brought back: at 15 shards,
//! dropping those under 1e-12 of a step lost 1.3e-6 of a 480-like second,
//! a floor of `S K 1.3e-6` under any bound. So a rare profile is not
//! dropped but **raised**: likes are added to its least used shard until it
//! is a profile kept at this step, and its mass goes on from there with
//! those `e` extra likes remembered (its least used count is read from
//! `n + e`). The raised counts are at least the true ones shard by shard
//! (sorted), and that order survives every later like: couple both by the
//! ranks the like draws (it goes to the lower of two uniform ranks; ties
//! change no profile), and adding one to the same rank of two sorted
//! vectors, one under the other, keeps them so. A uniformly chosen shard's
//! count is then at least as likely to pass any level: the law read here
//! is an upper bound in the stochastic order, never under the truth.
//!
//! Only what cannot be raised within `MAX_RAISE_ROWS` rows of likes,
//! and raised mass too small to matter (`KEEP_RAISED`), is lost; it is
//! kept in `lost` and counted over every cap. A raise lands on a profile
//! common at this step, whose likes differ by whole rows (one like a
//! shard), so a raised shard carries about one like more. At 15 shards and
//! 480 likes a second, keeping profiles over 1e-9 of a step raises 3e-4 of
//! the mass and loses 1.3e-12, in 34 million moves (0.3 s); 20 shards and
//! 510 likes take 104 million moves (0.7 s) and lose 5e-12.

use std::collections::HashMap;

/// The least mass a profile must hold at a step to be walked as itself.
pub const KEEP: f64 = 1e-9;

/// Raised mass under this much is lost instead: it would only grow the
/// walk (1e-17 lost 6e-12 of a 480-like second over 15 shards, 1e-19
/// 1.3e-12 for a tenth more moves).
const KEEP_RAISED: f64 = 1e-19;

/// Most likes a rare profile is raised by before its mass is lost, in
/// rows of one like a shard: raising to a common profile takes one row
/// (3e-4 of a 480-like second at 15 shards) far more often than two
/// (4e-7), and mass raised four rows holds about 1e-12.
const MAX_RAISE_ROWS: u64 = 4;

/// Most levels a profile is walked with (8 bits a level in a `u128`).
const MAX_LEVELS: usize = 16;

/// Most shards (a level's count is 8 bits).
pub const MAX_SHARDS: u64 = 255;

/// A profile: `c_l` (shards at level `l`) in byte `l`.
type Shape = u128;

fn count(shape: Shape, level: usize) -> u64 {
    ((shape >> (8 * level)) & 0xff) as u64
}

/// The likes above the least used shard, `sum l c_l`.
fn above(shape: Shape) -> u64 {
    (1..MAX_LEVELS).map(|l| l as u64 * count(shape, l)).sum()
}

/// One like on a shard at `level`; `None` past [`MAX_LEVELS`].
fn lift(shape: Shape, level: usize) -> Option<Shape> {
    if level + 1 >= MAX_LEVELS {
        return None;
    }
    let next = shape - (1 << (8 * level)) + (1 << (8 * (level + 1)));
    // The least used level emptied: the one above is the new 0.
    Some(match level == 0 && count(next, 0) == 0 {
        true => next >> 8,
        false => next,
    })
}

/// One server's laws of one shard's likes.
#[derive(Debug, Clone)]
pub struct ShardLaws {
    /// The shards.
    pub shards: u64,
    /// The likes of `laws[0]`.
    pub first: u64,
    /// `laws[n - first] = (first, pmf)`: `first + x` likes with chance `pmf[x]`
    /// after `n` likes; the pmf sums to `1 - lost[n]` (to rounding).
    pub laws: Vec<(u64, Vec<f64>)>,
    /// The mass lost by `n` likes, counted over every cap.
    pub lost: Vec<f64>,
}

/// The profiles met, interned, with their moves (computed once: a walk
/// meets each thousands of times), all in one array.
#[derive(Default)]
struct Shapes {
    shapes: Vec<Shape>,
    /// Each profile's likes above its least used shard, and its levels
    /// (what a read needs, kept so reads do not unpack the profile).
    above: Vec<u64>,
    levels: Vec<Box<[(u8, u8)]>>,
    ids: HashMap<Shape, u32, foldhash::fast::FixedState>,
    /// Where profile `id`'s moves start in `moves` and how many
    /// (`u32::MAX` until first needed).
    at: Vec<(u32, u32)>,
    /// `(next, chance)` a like; a move past [`MAX_LEVELS`] has `next ==
    /// LOST`.
    moves: Vec<(u32, f64)>,
}

const LOST: u32 = u32::MAX;

impl Shapes {
    fn intern(&mut self, shape: Shape) -> u32 {
        if let Some(&id) = self.ids.get(&shape) {
            return id;
        }
        let id = self.shapes.len() as u32;
        self.shapes.push(shape);
        self.above.push(above(shape));
        let levels = (0..MAX_LEVELS).map(|l| (l as u8, count(shape, l) as u8));
        self.levels.push(levels.filter(|&(_, c)| c > 0).collect());
        self.ids.insert(shape, id);
        self.at.push((u32::MAX, 0));
        id
    }

    /// Where profile `id`'s moves are in `moves` (computed on first use).
    fn moves_of(&mut self, id: u32, shards: u64) -> std::ops::Range<usize> {
        let (from, len) = self.at[id as usize];
        if from != u32::MAX {
            return from as usize..(from + len) as usize;
        }
        let shape = self.shapes[id as usize];
        let s2 = (shards * shards) as f64;
        let (mut at_or_above, start) = (shards, self.moves.len());
        for level in 0..MAX_LEVELS {
            let c = count(shape, level);
            let higher = at_or_above - c;
            if c > 0 {
                let chance = (at_or_above * at_or_above - higher * higher) as f64 / s2;
                let next = lift(shape, level).map_or(LOST, |up| self.intern(up));
                self.moves.push((next, chance));
            }
            at_or_above = higher;
            if at_or_above == 0 {
                break;
            }
        }
        let len = self.moves.len() - start;
        self.at[id as usize] = (start as u32, len as u32);
        start..start + len
    }
}

/// The profiles' masses with one count of extra likes, dense by id.
#[derive(Default)]
struct Class {
    /// The profiles kept at this step: `(id, mass)`.
    now: Vec<(u32, f64)>,
    /// Next step's masses by id (scratch), and the ids set.
    mass: Vec<f64>,
    touched: Vec<u32>,
}

impl Class {
    fn add(&mut self, id: u32, m: f64) {
        let at = id as usize;
        if at >= self.mass.len() {
            self.mass.resize(at + 1 + at / 2, 0.0);
        }
        if self.mass[at] == 0.0 {
            self.touched.push(id);
        }
        self.mass[at] += m;
    }
}

/// The walk's state: the profiles as they are (`zero`), and the raised
/// ones by their extra likes.
struct Walk {
    shards: u64,
    shapes: Shapes,
    zero: Class,
    raised: std::collections::BTreeMap<u32, Class>,
    /// Where profile `id` was last raised to: `(to, likes added)`.
    raised_to: Vec<(u32, u32)>,
    lost: f64,
    moves: u64,
}

impl Walk {
    /// One like from every profile, then the rare ones raised.
    fn step(&mut self) {
        let mut zero = std::mem::take(&mut self.zero);
        self.spread(&mut zero);
        self.zero = zero;
        let mut raised = std::mem::take(&mut self.raised);
        for class in raised.values_mut() {
            self.spread(class);
        }
        self.raised = raised;
        self.prune();
    }

    /// One like from each of a class's profiles, into its scratch masses.
    fn spread(&mut self, class: &mut Class) {
        let now = std::mem::take(&mut class.now);
        for &(id, m) in &now {
            let moves = self.shapes.moves_of(id, self.shards);
            self.moves += moves.len() as u64;
            for &(next, chance) in &self.shapes.moves[moves] {
                match next {
                    LOST => self.lost += m * chance,
                    _ => class.add(next, m * chance),
                }
            }
        }
        class.now = now;
    }

    /// Whether profile `id` is common at this step (after the like).
    fn common(&self, id: u32) -> bool {
        self.zero.mass.get(id as usize).is_some_and(|&m| m >= KEEP)
    }

    /// Keeps the common profiles (over [`KEEP`] as they are) and raises the
    /// rest onto them, class by class upward (a raise only adds likes).
    fn prune(&mut self) {
        let met: Vec<(u32, f64)> = self
            .zero
            .touched
            .iter()
            .map(|&id| (id, self.zero.mass[id as usize]))
            .collect();
        self.zero.now.clear();
        for (id, m) in met {
            match m >= KEEP {
                true => self.zero.now.push((id, m)),
                false => self.raise_mass(id, 0, m),
            }
        }
        let mut extra = 0;
        while let Some((&e, class)) = self.raised.range(extra..).next() {
            extra = e + 1;
            let met: Vec<(u32, f64)> = class
                .touched
                .iter()
                .map(|&id| (id, class.mass[id as usize]))
                .collect();
            let mut now = Vec::new();
            for (id, m) in met {
                if m < KEEP_RAISED {
                    self.lost += m;
                } else if self.common(id) {
                    now.push((id, m));
                } else {
                    self.raise_mass(id, e, m);
                }
            }
            let class = self.raised.get_mut(&e).expect("a class");
            class.now = now;
            clear(class);
        }
        // The profiles as they are say what is common until the end.
        clear(&mut self.zero);
        self.raised.retain(|_, c| !c.now.is_empty());
    }

    /// Raises mass `m` of profile `id` (with `extra` likes added), or
    /// loses it.
    fn raise_mass(&mut self, id: u32, extra: u32, m: f64) {
        match self.raise(id, extra) {
            Some((to, more)) => self.raised.entry(more).or_default().add(to, m),
            None => self.lost += m,
        }
    }

    /// Likes added to the least used shard of profile `id` (with `extra`
    /// likes already added) until it is a common one: `(profile, extra)`;
    /// `None` past [`MAX_RAISE_ROWS`] rows of extra likes in all.
    fn raise(&mut self, id: u32, extra: u32) -> Option<(u32, u32)> {
        // Common profiles change slowly from step to step: try the last
        // target first.
        if let Some(&(to, added)) = self.raised_to.get(id as usize) {
            if added > 0 && self.common(to) {
                let more = extra + added;
                return (u64::from(more) <= MAX_RAISE_ROWS * self.shards).then_some((to, more));
            }
        }
        let (to, more) = self.raise_afresh(id, extra)?;
        if self.raised_to.len() <= id as usize {
            self.raised_to.resize(id as usize + 1, (0, 0));
        }
        self.raised_to[id as usize] = (to, more - extra);
        Some((to, more))
    }

    fn raise_afresh(&mut self, id: u32, mut extra: u32) -> Option<(u32, u32)> {
        let mut shape = self.shapes.shapes[id as usize];
        loop {
            if u64::from(extra) >= MAX_RAISE_ROWS * self.shards {
                return None;
            }
            shape = lift(shape, 0)?;
            extra += 1;
            if let Some(&to) = self.shapes.ids.get(&shape) {
                if self.common(to) {
                    return Some((to, extra));
                }
            }
        }
    }
}

/// Empties a class's scratch masses.
fn clear(class: &mut Class) {
    for &id in &class.touched {
        class.mass[id as usize] = 0.0;
    }
    class.touched.clear();
}

/// One shard's law after `n` likes from the walk's profiles.
fn read(walk: &Walk, n: u64) -> (u64, Vec<f64>) {
    let shards = walk.shards;
    let entries = || {
        let zero = walk.zero.now.iter().map(|&(id, m)| ((id, 0), m));
        let raised = walk.raised.iter();
        zero.chain(raised.flat_map(|(&e, c)| c.now.iter().map(move |&(id, m)| ((id, e), m))))
    };
    let shapes = &walk.shapes;
    let least = |id: u32, extra: u32| (n + u64::from(extra) - shapes.above[id as usize]) / shards;
    let first = entries()
        .map(|((id, extra), _)| least(id, extra))
        .min()
        .unwrap_or(0);
    let mut pmf = vec![0.0; 2 * MAX_LEVELS];
    let per_shard = 1.0 / shards as f64;
    for ((id, extra), m) in entries() {
        let base = (least(id, extra) - first) as usize;
        for &(level, c) in shapes.levels[id as usize].iter() {
            let at = base + level as usize;
            if pmf.len() <= at {
                pmf.resize(at + 1, 0.0);
            }
            pmf[at] += m * f64::from(c) * per_shard;
        }
    }
    while pmf.last() == Some(&0.0) {
        pmf.pop();
    }
    (first, pmf)
}

/// The laws for `from..=last` likes over `shards` shards, or for as many
/// as `max_moves` moves reach (fewer laws: [`ShardLaws::last`] says); `None`
/// where `shards` is past [`MAX_SHARDS`], or as soon as the walk's pace
/// shows it cannot reach `needed` likes.
pub fn shard_laws(
    shards: u64,
    (from, last): (u64, u64),
    needed: u64,
    max_moves: u64,
) -> Option<ShardLaws> {
    if shards == 0 || shards > MAX_SHARDS {
        return None;
    }
    let mut shapes = Shapes::default();
    let start = shapes.intern(shards as Shape);
    let mut zero = Class::default();
    zero.now.push((start, 1.0));
    let mut walk = Walk {
        shards,
        shapes,
        zero,
        raised: Default::default(),
        raised_to: Vec::new(),
        lost: 0.0,
        moves: 0,
    };
    let mut out = ShardLaws {
        shards,
        first: from,
        laws: Vec::new(),
        lost: Vec::new(),
    };
    if from == 0 {
        out.laws.push((0, vec![1.0]));
        out.lost.push(0.0);
    }
    for n in 1..=last {
        let before = walk.moves;
        walk.step();
        if walk.moves > max_moves {
            // What was walked is whole: the laws up to the step before.
            break;
        }
        // A step's moves grow until the profiles settle, then hold: where
        // even half this step's pace would pass the moves before `needed`
        // likes, stop now (the answer is the same as a walk to the end:
        // `needed` out of reach, whatever came before in the process).
        let pace = (walk.moves - before) / 2;
        if n < needed && walk.moves + pace.saturating_mul(needed - n) > max_moves {
            return None;
        }
        if n >= from {
            out.laws.push(read(&walk, n));
            out.lost.push(walk.lost);
        }
    }
    (!out.laws.is_empty()).then_some(out)
}

impl ShardLaws {
    /// The most likes a law is given for.
    pub fn last(&self) -> u64 {
        self.first + self.laws.len() as u64 - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every law sums to one with what it lost, and its mean is at least
    /// `n / S` (the true mean; raising only adds).
    #[test]
    fn the_laws_keep_their_mass_and_mean() {
        let laws = shard_laws(15, (0, 480), 480, u64::MAX).unwrap();
        for n in [0usize, 1, 14, 15, 100, 350, 480] {
            let (first, pmf) = &laws.laws[n];
            let total: f64 = pmf.iter().sum::<f64>() + laws.lost[n];
            assert!((total - 1.0).abs() < 1e-12, "n {n}: {total}");
            let mean: f64 = pmf
                .iter()
                .enumerate()
                .map(|(x, p)| (*first + x as u64) as f64 * p)
                .sum();
            assert!(mean >= n as f64 / 15.0 - 1e-9, "n {n}: {mean}");
            assert!(mean <= n as f64 / 15.0 + 1e-3, "n {n}: {mean}");
        }
        // The loss measured when the walk was written: 1.3e-12 at 480 likes.
        assert!(laws.lost[480] < 1e-11, "{}", laws.lost[480]);
    }
}
