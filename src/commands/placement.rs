//! `shardplan keys`, `partitions` and `stores`: where the shard keys land.

use crate::cli::{KeysArgs, PartitionsArgs, StoresArgs};
use crate::config::input_file::read_bounded;
use crate::config::Run;
use crate::config::{refuse, Inputs, Sourced};
use crate::error::InputError;
use crate::model::defaults::MAX_PAD;
use crate::model::partitions::PartitionPlan;
use crate::model::placement::{KeysReport, ShardTemplate, SortedReport};
use crate::model::store::{all_presets, Store};
use crate::output::OutputSet;
use crate::views::placement::{KeysView, PartitionsView, SortedView};
use crate::views::stores::StoresView;

/// The keys in `path` (`-`: standard input), one per line, as given: an
/// empty line in the list is the empty key (a valid Redis key, slot 0, as
/// CRC16 of no bytes is 0). Only the blank lines at the very end (the file's
/// trailing newline, or several) end the list rather than add keys; a `\r`
/// before a `\n` is a Windows line end, not part of the key. Errors name `what`.
fn read_keys(
    claims: &crate::output::policy::Claims,
    what: &str,
    path: &std::path::Path,
) -> anyhow::Result<Vec<Vec<u8>>> {
    let max = crate::model::defaults::MAX_KEY_TEXT_BYTES;
    let bytes = read_bounded(
        claims,
        what,
        path,
        max + crate::model::defaults::MAX_KEYS,
        "give at most 2 MiB of keys (20,000 keys of 100 bytes) at a time",
    )?;
    split_keys(what, &bytes)
}

/// [`read_keys`] on the bytes read.
fn split_keys(what: &str, bytes: &[u8]) -> anyhow::Result<Vec<Vec<u8>>> {
    let mut keys: Vec<Vec<u8>> = Vec::new();
    // Empty lines seen since the last key: keys only if a key follows.
    let mut blanks: usize = 0;
    for line in bytes.split(|b| *b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            blanks += 1;
            continue;
        }
        if (keys.len() + blanks + 1) as u64 > crate::model::defaults::MAX_KEYS {
            return Err(InputError::new(
                what,
                format!(
                    "holds more than {} keys; a counter has far fewer shards",
                    crate::model::defaults::MAX_KEYS
                ),
            )
            .into());
        }
        keys.extend(std::iter::repeat_n(Vec::new(), blanks));
        blanks = 0;
        keys.push(line.to_vec());
    }
    Ok(keys)
}

pub fn run_keys(args: KeysArgs, run: &Run) -> anyhow::Result<()> {
    let j = &args.judge;
    let mut r = crate::config::Resolver::for_load(run, &j.scenario, "keys")?;
    // keys checks Redis Cluster slots unless told otherwise.
    r.default_store = Some(Store::RedisCluster);
    let store = j
        .sizing
        .store
        .store
        .or(r.scenario.scenario.store_preset)
        .unwrap_or(Store::RedisCluster);
    refuse_store(store)?;
    let (given, listed) = listed_keys(&args, &mut r)?;
    if store == Store::Sorted {
        refuse(
            j.plan.nodes.nodes.is_some(),
            "--nodes",
            "with --store sorted: a sorted store has tablets, not cluster masters",
        )?;
    }
    let pad = Sourced::flag("--pad", args.pad)
        .unwrap_or(Sourced::default(crate::model::defaults::DEFAULT_PAD));
    let pad_width = usize::try_from(pad.value)
        .ok()
        .filter(|p| *p <= MAX_PAD)
        .ok_or_else(|| pad.error(format!("must be from 0 to {MAX_PAD} (got {})", pad.value)))?;
    let template = j.plan.template.template.clone();
    let shards = match &listed {
        Some(keys) => Sourced::derived(keys.len() as u64, "the keys listed"),
        None => Sourced::flag("--shards", args.shards.one()?)
            .unwrap_or(Sourced::default(crate::model::defaults::DEFAULT_KEY_SHARDS)),
    };
    if template.is_some() {
        r.inputs.record("pad", &pad);
    }
    let shards = r.inputs.take("shards", shards);
    // A sorted store's template is keys' own input: the plan has no
    // cluster to place it on.
    let mut plan_args = j.plan.clone();
    if store == Store::Sorted {
        plan_args.template = Default::default();
    }
    let flags = crate::config::plan::PlanFlags {
        listed_keys: listed.as_deref(),
        pad: pad_width,
        ..crate::config::plan::PlanFlags::new(&plan_args, &j.span.duration, &j.span.traffic)
    };
    let plan = r.plan(&j.sizing, &j.reads, flags)?;
    let verdict = super::plan_verdict(&plan, shards).map_err(|e| r.blame(e))?;
    let nodes = plan.inputs.nodes.as_ref().map(|c| c.nodes);
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    let inputs = &r.inputs;
    let expand = |t: &str| ShardTemplate::new(t, pad_width).map_err(|e| inputs.attach(e));
    let report: Box<dyn crate::output::Report> = match (store, &listed, &template) {
        (Store::Sorted, _, None) => {
            let what = given.as_ref().map_or("--template", |(w, _)| *w);
            return Err(InputError::new(what, "the sorted-store check needs --template").into());
        }
        (Store::Sorted, _, Some(t)) => Box::new(SortedView(
            SortedReport::from_template(&expand(t)?, shards).map_err(|e| inputs.attach(e))?,
        )),
        (_, Some(keys), _) => Box::new(KeysView(
            KeysReport::from_keys(keys, nodes).map_err(|e| inputs.attach(e))?,
        )),
        (_, None, Some(t)) => Box::new(KeysView(
            KeysReport::from_template(&expand(t)?, shards, nodes).map_err(|e| inputs.attach(e))?,
        )),
        (_, None, None) => unreachable!("clap requires FILE, --stdin or --template"),
    };
    let line = crate::views::verdict::line(&verdict);
    let holds = verdict.holds;
    let view = crate::views::verdict::WithVerdict {
        report: report.as_ref(),
        verdict: Some(verdict),
        headline: true,
    };
    super::emit(out, &view, &r.inputs, args.out.explain.explain)?;
    super::check(j.check.check, holds, &line)
}

/// `keys FILE`, `keys -` and `--stdin` (the same as `-`): which was given
/// (clap lets only one of them or `--template` through) and the keys read,
/// as they are (a template expands them instead); `--shards` and `--pad`
/// are refused beside them, and no keys at all is refused.
type Given = Option<(&'static str, std::path::PathBuf)>;

fn listed_keys(
    args: &KeysArgs,
    r: &mut crate::config::Resolver,
) -> anyhow::Result<(Given, Option<Vec<Vec<u8>>>)> {
    let given: Given = match (&args.file, args.stdin) {
        (Some(f), _) => Some(("FILE", f.clone())),
        (None, true) => Some(("--stdin", "-".into())),
        (None, false) => None,
    };
    let Some((what, path)) = &given else {
        return Ok((None, None));
    };
    if crate::config::input_file::is_stdin(path) {
        r.inputs.record("stdin", &Sourced::from_flag(what, true));
    } else {
        let file = path.display().to_string();
        r.inputs
            .record("keys_file", &Sourced::from_flag(what, file));
    }
    let why = match *what {
        "--stdin" => "with --stdin: the keys are read as given".to_string(),
        _ => format!("with keys {}: the keys are read as given", path.display()),
    };
    refuse(args.shards.shards.is_some(), "--shards", &why)?;
    refuse(args.pad.is_some(), "--pad", &why)?;
    let keys = read_keys(&r.claims, what, path)?;
    if keys.is_empty() {
        return Err(
            InputError::new(*what, "needs at least one key, one per line (got none)").into(),
        );
    }
    Ok((given, Some(keys)))
}

/// keys checks Redis Cluster slots or a sorted store's key order.
fn refuse_store(store: Store) -> anyhow::Result<()> {
    if matches!(store, Store::RedisCluster | Store::Sorted) {
        return Ok(());
    }
    // Hashed stores share partitions; PostgreSQL's rows share nothing a key
    // decides (one server, a lock per row).
    let instead = match store {
        Store::Postgres => "every row lives on the one server, so there is no placement to check",
        _ => "use `shardplan partitions`",
    };
    Err(InputError::new(
        "--store",
        format!(
            "keys checks redis-cluster (slots) or sorted (key order); for {} {instead}",
            store.name()
        ),
    )
    .into())
}

pub fn run_partitions(args: PartitionsArgs, run: &Run) -> anyhow::Result<()> {
    let j = &args.judge;
    // partitions weighs one placement: both counts are required.
    let required = |given: Option<u64>, flag: &'static str, what: &str| {
        given.ok_or_else(|| InputError::new(flag, format!("is required by partitions: {what}")))
    };
    let shards = required(args.shards.one()?, "--shards", "the counter's shard keys")?;
    required(
        j.plan.partitions.partitions,
        "--partitions",
        "the partitions the store hashes keys onto",
    )?;
    // The plan the count is judged against: the one `size` resolves.
    let mut r = crate::config::Resolver::for_load(run, &j.scenario, "partitions")?;
    let flags = crate::config::plan::PlanFlags::new(&j.plan, &j.span.duration, &j.span.traffic);
    let plan = r.plan(&j.sizing, &j.reads, flags)?;
    let partitions = plan
        .inputs
        .partitions
        .map(|p| p.partitions)
        .expect("--partitions was given");
    r.inputs
        .record("shards", &Sourced::from_flag("--shards", shards));
    let seed = Sourced::flag("--seed", args.seed.seed)
        .unwrap_or(Sourced::default(crate::model::defaults::DEFAULT_SEED));
    let mut placement = PartitionPlan::new(shards, partitions)
        .map_err(|e| r.blame(e))?
        .with_seed(r.inputs.take("seed", seed));
    if let Some(t) = Sourced::flag("--trials", args.trials.trials) {
        r.inputs.record("trials", &t);
        placement = placement.with_trials(t.value).map_err(|e| r.blame(e))?;
    }
    // With --rate, the chance a partition goes over its cap at that load
    // (the plan's cap per key and traffic law).
    if let Some(rate) = Sourced::flag("--rate", args.rate.one()?) {
        let rate = r.inputs.take("rate", rate);
        placement = placement
            .with_load(rate, plan.inputs.sizing.cap, plan.inputs.key_check.traffic)
            .map_err(|e| r.blame(e))?;
    }
    let verdict = super::plan_verdict(&plan, shards).map_err(|e| r.blame(e))?;
    let (holds, line) = (verdict.holds, crate::views::verdict::line(&verdict));
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    let view = crate::views::verdict::WithVerdict {
        report: &PartitionsView(placement.evaluate()),
        verdict: Some(verdict),
        headline: true,
    };
    super::emit(out, &view, &r.inputs, args.out.explain.explain)?;
    super::check(j.check.check, holds, &line)
}

pub fn run_stores(args: StoresArgs, run: &Run) -> anyhow::Result<()> {
    refuse(
        args.out.explain.explain,
        "--explain",
        "on stores: it lists the presets and resolves no inputs",
    )?;
    let out = OutputSet::prepare(run, args.out.format, &args.out.output.output)?;
    super::emit(
        out,
        &StoresView(all_presets()),
        &Inputs::default(),
        args.out.explain.explain,
    )
}

#[cfg(test)]
mod tests {
    use super::split_keys;

    fn keys(text: &str) -> Vec<String> {
        split_keys("--stdin", text.as_bytes())
            .unwrap()
            .into_iter()
            .map(|k| String::from_utf8(k).unwrap())
            .collect()
    }

    #[test]
    fn an_empty_line_between_keys_is_the_empty_key() {
        assert_eq!(keys("a\n\nb\n"), ["a", "", "b"]);
        assert_eq!(keys("\na\n"), ["", "a"]);
        assert_eq!(keys("a\r\n\r\nb\r\n"), ["a", "", "b"]);
    }

    #[test]
    fn blank_lines_at_the_end_are_not_keys() {
        assert_eq!(keys("a\nb\n"), ["a", "b"]);
        assert_eq!(keys("a\nb"), ["a", "b"]);
        assert_eq!(keys("a\nb\n\n\r\n\n"), ["a", "b"]);
        assert!(keys("\n\n").is_empty());
        assert!(keys("").is_empty());
    }

    #[test]
    fn empty_keys_count_against_the_limit_but_a_blank_tail_does_not() {
        let max = crate::model::defaults::MAX_KEYS as usize;
        let tail = format!("a\n{}", "\n".repeat(3 * max));
        assert_eq!(keys(&tail), ["a"]);
        let inner = format!("{}a\n", "\n".repeat(max));
        assert!(split_keys("--stdin", inner.as_bytes()).is_err());
        let at_limit = format!("{}a\n", "\n".repeat(max - 1));
        assert_eq!(keys(&at_limit).len(), max);
    }
}
