//! Configuration: every input resolved once, in one layer, into validated
//! plans. For each input the order is the same: a flag, then a scenario
//! field, then a store preset, then the built-in default
//! ([`crate::model::defaults`]). A store preset is a preset wherever it is
//! named (`--store`, the scenario's `store`, a command's own store): it
//! fills what neither a flag nor the scenario gives. The bundled default
//! scenario, which the user did not name, stands in for the defaults: a
//! store named with `--store` ranks above it.
//!
//! Each resolved value is recorded in [`Inputs`] with its [`Source`], so an
//! error names what the user wrote (`--cap`, `scenario viral-evening.toml:
//! monitor.settings_ttl_seconds`), `--explain` prints every assumption, and
//! JSON output carries them under `inputs`.

pub mod compare;
mod empirical;
pub mod fleet;
pub use crate::files::input as input_file;
pub mod lists;
pub mod load;
pub mod measured;
pub mod observed;
pub mod options;
pub mod plan;
pub mod prices;
pub mod reads;
pub mod reconcile;
pub mod replay;
pub mod resize;
pub mod scenario;
pub mod simulation;
pub mod sizing;
pub mod source;
pub mod timeline;
pub mod unlikes;

pub use crate::output::run::Run;
pub use scenario::{Kind, Loaded};
pub use source::{Inputs, Source, Sourced};

use crate::cli::{ReadArgs, ScenarioArgs, SizingArgs};
use crate::error::{InputError, InputResult, ParamError};
use crate::model::read_cost::ReadPlan;

/// One command's resolution: the scenario it reads and the inputs resolved
/// so far.
#[derive(Debug, Clone)]
pub struct Resolver {
    /// The scenario (or [`Loaded::none`]).
    pub scenario: Loaded,
    /// Every input resolved so far, with its source.
    pub inputs: Inputs,
    /// Observed traffic (`--traffic-from`), once read.
    pub observed: Option<Box<observed::Observed>>,
    /// The command asked for observed traffic ([`Resolver::observe`]).
    observe_called: bool,
    /// `--replay`: keep the trace itself, not only its fit.
    pub keep_trace: bool,
    /// Unlikes, once the sizing resolved them ([`Resolver::unlikes`]).
    pub unlike_plan: Option<unlikes::UnlikePlan>,
    /// The planned peak, writes/s, once the sizing resolved it (empirical
    /// traffic grows the observed seconds to it).
    pub planned_peak: Option<f64>,
    /// Empirical traffic's law, once built, with the growth it was built
    /// at (`empirical.rs`: built and leaked once).
    pub empirical: Option<(f64, &'static crate::model::law::empirical::EmpiricalLaw)>,
    /// The store a command assumes when neither a flag nor the scenario
    /// names one (`keys`: redis-cluster).
    pub default_store: Option<crate::model::store::Store>,
    /// The user named the scenario (`--scenario`); the bundled default
    /// they did not name ranks below a store preset they named.
    scenario_named: bool,
    /// The preset in force was named by `--store` over a scenario the user
    /// did not name, so its figures rank above the scenario's
    /// ([`Resolver::presets`], [`Resolver::field_or_preset`]).
    preset_first: bool,
    /// The scenario file's own folder, when its shown name is not a path
    /// from here (`report` names it portably): files it names are read
    /// beside it.
    pub scenario_folder: Option<std::path::PathBuf>,
    /// The run's files: every input read is claimed, so no output replaces
    /// it, and standard input is read once.
    pub claims: crate::files::Claims,
}

impl Resolver {
    /// Starts from a loaded scenario; `named` says whether the user named it.
    pub fn new(scenario: Loaded, named: bool, claims: crate::files::Claims) -> Self {
        let mut inputs = Inputs::default();
        if scenario.name != Loaded::none().name {
            let source = if named {
                Source::Flag("--scenario")
            } else {
                Source::Default
            };
            inputs.record("scenario", &Sourced::new(scenario.name.clone(), source));
        }
        Resolver {
            scenario,
            inputs,
            observed: None,
            observe_called: false,
            keep_trace: false,
            unlike_plan: None,
            planned_peak: None,
            empirical: None,
            default_store: None,
            scenario_named: named,
            preset_first: false,
            scenario_folder: None,
            claims,
        }
    }

    /// Loads `--scenario` (or `default` when it is absent; no scenario when
    /// both are absent) and checks that it describes a kind the command
    /// serves.
    pub fn load(
        run: &Run,
        flag: Option<&str>,
        default: Option<&str>,
        command: &str,
        served: &[Kind],
    ) -> InputResult<Self> {
        let loaded = match flag.or(default) {
            Some(name) => scenario::load(&run.claims, name)?,
            None => Loaded::none(),
        };
        // A scenario of general settings only (no peak, curve, resize or
        // fleet) serves every command: the flags give the load.
        if !loaded.kinds.is_empty() {
            loaded.require(command, served)?;
        }
        scenario::check::fields(&loaded)?;
        Ok(Resolver::new(loaded, flag.is_some(), run.claims.clone()))
    }

    /// The scenario of a command about one counter's load (a flat load, or
    /// a time line sized at its peak): `--scenario`, else the bundled default.
    pub fn for_load(run: &Run, flag: &ScenarioArgs, command: &str) -> InputResult<Self> {
        Self::load(
            run,
            flag.scenario.as_deref(),
            Some(scenario::DEFAULT),
            command,
            &[Kind::FlatLoad, Kind::TimeLine],
        )
    }

    /// The sizing (a time line's peak when nothing else names one) and the
    /// read plan, with the store presets both draw on.
    pub fn sizing_and_reads(
        &mut self,
        sizing: &SizingArgs,
        reads: &ReadArgs,
    ) -> InputResult<(sizing::Sizing, ReadPlan)> {
        let fallback = self.curve_peak();
        let plan = self.sizing(sizing, fallback)?;
        let preset = self.presets(sizing.store.store);
        let reads = self.reads(reads, &preset)?;
        Ok((plan, reads))
    }

    /// A model error naming its parameter, attributed to the parameter's
    /// source.
    pub fn blame(&self, e: ParamError) -> InputError {
        self.inputs.attach(e)
    }

    /// The value of `field` when the scenario sets it.
    pub fn field<T: Clone>(&self, field: &str, value: &Option<T>) -> Option<Sourced<T>> {
        self.scenario.get(field, value)
    }

    /// A scenario field and the store preset's figure for it, in the order
    /// they rank: the scenario's first (a preset fills what the file leaves
    /// open, wherever the preset is named), except when the user named a
    /// store with `--store` and no scenario: the bundled default stands in
    /// for the built-in defaults then, and must not quietly replace the
    /// store's figures (`size --store firestore` sizes for Firestore's cap).
    pub fn field_or_preset<T>(
        &self,
        field: Option<Sourced<T>>,
        preset: Option<Sourced<T>>,
    ) -> Option<Sourced<T>> {
        match self.preset_first {
            true => preset.or(field),
            false => field.or(preset),
        }
    }
}

/// Refuses a flag that has no effect in the mode chosen, naming it and why.
pub fn refuse(given: bool, flag: &str, why: impl std::fmt::Display) -> InputResult<()> {
    if given {
        return Err(InputError::new(flag, format!("has no effect {why}")));
    }
    Ok(())
}
