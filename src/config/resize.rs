//! A grow or a shrink: `--from`/`--to` and the flags of each, over the
//! scenario's `[resize]` section, over the defaults. A grow-only flag on a
//! shrink (or the reverse) is refused.

use super::scenario::ResizeSection;
use super::{refuse, Resolver, Sourced};
use crate::cli::ResizeArgs;
use crate::error::{InputError, InputResult};
use crate::model::defaults::{
    DEFAULT_LIKES_AFTER, DEFAULT_LIKES_BEFORE, DEFAULT_SETTINGS_TTL_SECONDS,
};
use crate::model::timeline::resize::{
    FoldMode, ReadMode, ResizeConfig, ResizeOrder, ResizePlan, StepOrder,
};

impl Resolver {
    /// The resize plan and the seed of the simulated grow.
    pub fn resize(&mut self, a: &ResizeArgs) -> InputResult<(ResizePlan, u64)> {
        let section = self.scenario.scenario.resize.clone().unwrap_or_default();
        let (from, to) = self.counts_before_and_after(a, &section)?;
        let grow = from.value < to.value;
        refuse_the_other_direction(a, grow)?;
        let mut cfg = ResizeConfig::new(
            self.inputs.take("resize.from", from),
            self.inputs.take("resize.to", to),
        );
        if grow {
            self.grow(a, &section, &mut cfg);
        } else {
            self.shrink(a, &section, &mut cfg);
        }
        let plan = cfg.validate().map_err(|e| self.inputs.attach(e))?;
        // Only a grow is simulated; a shrink's reads are deterministic.
        let seed = if grow { self.seed(a.seed.seed) } else { 0 };
        Ok((plan, seed))
    }

    /// The shard counts before and after: both required.
    fn counts_before_and_after(
        &self,
        a: &ResizeArgs,
        section: &ResizeSection,
    ) -> InputResult<(Sourced<u64>, Sourced<u64>)> {
        let needed = |flag: &str| {
            InputError::new(
                flag,
                "is required (or a --scenario with a [resize] section)",
            )
        };
        let from = Sourced::flag("--from", a.from)
            .or(self.field("resize.from", &section.from))
            .ok_or_else(|| needed("--from"))?;
        let to = Sourced::flag("--to", a.to)
            .or(self.field("resize.to", &section.to))
            .ok_or_else(|| needed("--to"))?;
        Ok((from, to))
    }

    /// A grow's order of steps, the likes before and after, and the
    /// settings' TTL.
    fn grow(&mut self, a: &ResizeArgs, section: &ResizeSection, cfg: &mut ResizeConfig) {
        let order = Sourced::flag("--order", a.order)
            .or(self.field("resize.order", &section.order))
            .unwrap_or(Sourced::default(ResizeOrder::default()));
        cfg.order = self.inputs.take("resize.order", order);
        let before = Sourced::flag("--likes-before", a.likes_before)
            .or(self.field("resize.likes_before", &section.likes_before))
            .unwrap_or(Sourced::default(DEFAULT_LIKES_BEFORE));
        cfg.likes_before = self.inputs.take("resize.likes_before", before);
        let after = Sourced::flag("--likes-after", a.likes_after)
            .or(self.field("resize.likes_after", &section.likes_after))
            .unwrap_or(Sourced::default(DEFAULT_LIKES_AFTER));
        cfg.likes_after = self.inputs.take("resize.likes_after", after);
        let ttl = Sourced::flag("--settings-ttl", a.settings_ttl.settings_ttl)
            .or(self.field("resize.settings_ttl_seconds", &section.settings_ttl_seconds))
            .unwrap_or(Sourced::default(DEFAULT_SETTINGS_TTL_SECONDS));
        cfg.settings_ttl_seconds = self.inputs.take("resize.settings_ttl_seconds", ttl);
    }

    /// A shrink's fold, its reads, the order of its steps and, when the
    /// scenario gives them, the likes on each old shard.
    fn shrink(&mut self, a: &ResizeArgs, section: &ResizeSection, cfg: &mut ResizeConfig) {
        let fold = Sourced::flag("--fold", a.fold)
            .or(self.field("resize.fold", &section.fold))
            .unwrap_or(Sourced::default(FoldMode::default()));
        cfg.fold = self.inputs.take("resize.fold", fold);
        let read = Sourced::flag("--read", a.read)
            .or(self.field("resize.read", &section.read))
            .unwrap_or(Sourced::default(ReadMode::default()));
        cfg.read = self.inputs.take("resize.read", read);
        let step = Sourced::flag("--step-order", a.step_order)
            .or(self.field("resize.step_order", &section.step_order))
            .unwrap_or(Sourced::default(StepOrder::default()));
        cfg.step_order = self.inputs.take("resize.step_order", step);
        if let Some(likes) = self.field("resize.shard_likes", &section.shard_likes) {
            cfg.shard_likes = Some(self.inputs.take("resize.shard_likes", likes));
        }
    }
}

/// Refuses a grow-only flag on a shrink, or a shrink-only flag on a grow.
fn refuse_the_other_direction(a: &ResizeArgs, grow: bool) -> InputResult<()> {
    let (mode, other) = if grow {
        ("on a grow (--to above --from)", "shrink")
    } else {
        ("on a shrink (--to below --from)", "grow")
    };
    let why = format!("{mode}: it is a {other} flag");
    let (grow_flags, shrink_flags) = (
        [
            (a.order.is_some(), "--order"),
            (a.likes_before.is_some(), "--likes-before"),
            (a.likes_after.is_some(), "--likes-after"),
            (a.settings_ttl.settings_ttl.is_some(), "--settings-ttl"),
            (a.seed.seed.is_some(), "--seed"),
        ],
        [
            (a.fold.is_some(), "--fold"),
            (a.read.is_some(), "--read"),
            (a.step_order.is_some(), "--step-order"),
        ],
    );
    let refused: &[(bool, &str)] = if grow { &shrink_flags } else { &grow_flags };
    for (given, flag) in refused {
        // A shrink is deterministic: --seed is a running flag there too.
        if *flag != "--seed" {
            refuse(*given, flag, &why)?;
        }
    }
    Ok(())
}
