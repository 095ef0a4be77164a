//! The plans of `keys`, `partitions` and `stores`: the keys to place (read
//! from a list or expanded from a template), the shard count and the plan
//! it is judged against, and the shared partitions to weigh.

use super::{Output, Resolved};
use crate::cli::{JudgeArgs, KeysArgs, PartitionsArgs, StoresArgs};
use crate::config::input_file::read_bounded;
use crate::config::plan::{Plan, PlanFlags};
use crate::config::{refuse, Resolver, Run, Sourced};
use crate::error::{InputError, InputResult};
use crate::model::defaults::MAX_PAD;
use crate::model::partitions::{Method, PartitionPlan, EXACT_MAX_SHARDS};
use crate::model::placement::ShardTemplate;
use crate::model::store::Store;

/// What `keys` places, and where.
pub enum KeysCheck {
    /// The keys as listed (`keys FILE`, `--stdin`), on Redis Cluster slots.
    Listed(Vec<Vec<u8>>),
    /// The template's keys, on Redis Cluster slots.
    Slots(ShardTemplate),
    /// The template's keys, in a sorted store's key order.
    Sorted(ShardTemplate),
}

/// `shardplan keys`, resolved.
pub struct KeysOptions {
    /// The keys and the store they are placed on.
    pub check: KeysCheck,
    /// The shard count judged: the keys listed, else `--shards`.
    pub shards: u64,
    /// The plan the count is judged against.
    pub plan: Plan,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// Where the result goes.
    pub output: Output,
}

impl KeysOptions {
    pub fn new(args: KeysArgs, run: &Run) -> InputResult<Self> {
        let j = &args.judge;
        crate::config::reads::refuse_batch_size(&j.reads, "keys")?;
        let mut r = Resolver::for_load(run, &j.scenario, "keys")?;
        // keys checks Redis Cluster slots unless told otherwise.
        r.default_store = Some(Store::RedisCluster);
        let store = j
            .sizing
            .store
            .store
            .or(r.scenario.scenario.store_preset)
            .unwrap_or(Store::RedisCluster);
        refuse_store(store)?;
        // A transactional like costs the store's write units: one on both
        // stores keys checks, so the cap per key and every figure stay put.
        let cost = Store::transactional_write_cost(Some(store));
        refuse(
            j.sizing.transactional && cost == 1.0,
            "--transactional",
            format!(
                "on keys with {}: a transactional like costs it one write unit, as a plain one \
                 does (only DynamoDB's 2 shrinks the cap per key)",
                store.name()
            ),
        )?;
        let (given, listed) = listed_keys(&args, &mut r)?;
        refuse(
            store == Store::Sorted && j.plan.nodes.nodes.is_some(),
            "--nodes",
            "with --store sorted: a sorted store has tablets, not cluster masters",
        )?;
        let (pad, pad_width) = pad(&args)?;
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
        let plan = keys_plan(&mut r, j, store, (listed.as_deref(), pad_width))?;
        // A count out of range is refused before any output is opened (the
        // verdict would refuse it only after).
        crate::model::validate::count("shards", shards, crate::model::defaults::MAX_SHARDS)
            .map_err(|e| r.blame(e))?;
        let output = Output::new(run, &args.out, j.check.check)?;
        let expand = |t: &str| ShardTemplate::new(t, pad_width).map_err(|e| r.blame(e));
        let check = match (store, listed, template) {
            (Store::Sorted, _, None) => {
                let what = given.as_ref().map_or("--template", |(w, _)| *w);
                return Err(InputError::new(
                    what,
                    "the sorted-store check needs --template",
                ));
            }
            (Store::Sorted, _, Some(t)) => KeysCheck::Sorted(expand(&t)?),
            (_, Some(keys), _) => KeysCheck::Listed(keys),
            (_, None, Some(t)) => KeysCheck::Slots(expand(&t)?),
            (_, None, None) => unreachable!("clap requires FILE, --stdin or --template"),
        };
        Ok(KeysOptions {
            check,
            shards,
            plan,
            resolved: r.finish(),
            output,
        })
    }
}

/// `--pad` with its source, and as a width the template takes.
fn pad(args: &KeysArgs) -> InputResult<(Sourced<u64>, usize)> {
    let pad = Sourced::flag("--pad", args.pad)
        .unwrap_or(Sourced::default(crate::model::defaults::DEFAULT_PAD));
    let width = usize::try_from(pad.value)
        .ok()
        .filter(|p| *p <= MAX_PAD)
        .ok_or_else(|| pad.error(format!("must be from 0 to {MAX_PAD} (got {})", pad.value)))?;
    Ok((pad, width))
}

/// The plan the keys are judged against: `size`'s, with the keys listed
/// (or the template padded to `pad_width`) placed on the cluster's nodes.
fn keys_plan(
    r: &mut Resolver,
    j: &JudgeArgs,
    store: Store,
    (listed, pad_width): (Option<&[Vec<u8>]>, usize),
) -> InputResult<Plan> {
    // A sorted store's template is keys' own input: the plan has no
    // cluster to place it on.
    let mut plan_args = j.plan.clone();
    if store == Store::Sorted {
        plan_args.template = Default::default();
    }
    let flags = PlanFlags {
        listed_keys: listed,
        pad: pad_width,
        own_template: true,
        ..PlanFlags::new(&plan_args, &j.span.duration, &j.span.traffic)
    };
    let plan = r.plan(&j.sizing, &j.reads, flags)?;
    // The placement and its verdict count no batch reads.
    r.inputs.forget("batch_size");
    Ok(plan)
}

/// `keys FILE`, `keys -` and `--stdin` (the same as `-`): which was given
/// (clap lets only one of them or `--template` through) and the keys read,
/// as they are (a template expands them instead); `--shards` and `--pad`
/// are refused beside them, and no keys at all is refused.
type Given = Option<(&'static str, std::path::PathBuf)>;

fn listed_keys(args: &KeysArgs, r: &mut Resolver) -> InputResult<(Given, Option<Vec<Vec<u8>>>)> {
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
        return Err(InputError::new(
            *what,
            "needs at least one key, one per line (got none)",
        ));
    }
    Ok((given, Some(keys)))
}

/// The keys in `path` (`-`: standard input), one per line, as given: an
/// empty line in the list is the empty key (a valid Redis key, slot 0, as
/// CRC16 of no bytes is 0). Only the blank lines at the very end (the file's
/// trailing newline, or several) end the list rather than add keys; a `\r`
/// before a `\n` is a Windows line end, not part of the key. Errors name `what`.
fn read_keys(
    claims: &crate::files::Claims,
    what: &str,
    path: &std::path::Path,
) -> InputResult<Vec<Vec<u8>>> {
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
fn split_keys(what: &str, bytes: &[u8]) -> InputResult<Vec<Vec<u8>>> {
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
            ));
        }
        keys.extend(std::iter::repeat_n(Vec::new(), blanks));
        blanks = 0;
        keys.push(line.to_vec());
    }
    Ok(keys)
}

/// keys checks Redis Cluster slots or a sorted store's key order.
fn refuse_store(store: Store) -> InputResult<()> {
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
    ))
}

/// `shardplan partitions`, resolved.
pub struct PartitionsOptions {
    /// The shards over the partitions, with the seed, trials and load.
    pub placement: PartitionPlan,
    /// `--shards`: the count judged.
    pub shards: u64,
    /// The plan the count is judged against.
    pub plan: Plan,
    /// The inputs, frozen.
    pub resolved: Resolved,
    /// Where the result goes.
    pub output: Output,
}

impl PartitionsOptions {
    pub fn new(args: PartitionsArgs, run: &Run) -> InputResult<Self> {
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
        crate::config::reads::refuse_batch_size(&j.reads, "partitions")?;
        let mut r = Resolver::for_load(run, &j.scenario, "partitions")?;
        let flags = PlanFlags::new(&j.plan, &j.span.duration, &j.span.traffic);
        let plan = r.plan(&j.sizing, &j.reads, flags)?;
        // The placement and its verdict count no batch reads.
        r.inputs.forget("batch_size");
        r.inputs
            .record("shards", &Sourced::from_flag("--shards", shards));
        let placement = placement(&args, &mut r, &plan, shards)?;
        let output = Output::new(run, &args.out, j.check.check)?;
        Ok(PartitionsOptions {
            placement,
            shards,
            plan,
            resolved: r.finish(),
            output,
        })
    }
}

/// `shards` over the plan's partitions, with `--seed`, `--trials` and
/// `--rate`'s load.
fn placement(
    args: &PartitionsArgs,
    r: &mut Resolver,
    plan: &Plan,
    shards: u64,
) -> InputResult<PartitionPlan> {
    let partitions = plan
        .inputs
        .partitions
        .map(|p| p.partitions)
        .expect("--partitions was given");
    let mut placement = PartitionPlan::new(shards, partitions).map_err(|e| r.blame(e))?;
    // The seed and the trials feed Monte Carlo only: the exact sums take
    // neither, so they are refused there and not recorded as inputs.
    if placement.method() == Method::Exact {
        let why = format!(
            "here: {shards} shards over {partitions} partitions are summed exactly (Monte Carlo, \
             which draws placements, is used past {} shards over more than {} partitions)",
            crate::output::fmt::num(EXACT_MAX_SHARDS as f64),
            crate::output::fmt::num(crate::model::defaults::MAX_SHARDS as f64),
        );
        refuse(args.seed.seed.is_some(), "--seed", &why)?;
        refuse(args.trials.trials.is_some(), "--trials", &why)?;
    } else {
        let seed = Sourced::flag("--seed", args.seed.seed)
            .unwrap_or(Sourced::default(crate::model::defaults::DEFAULT_SEED));
        placement = placement.with_seed(r.inputs.take("seed", seed));
        if let Some(t) = Sourced::flag("--trials", args.trials.trials) {
            r.inputs.record("trials", &t);
            placement = placement.with_trials(t.value).map_err(|e| r.blame(e))?;
        }
    }
    // With --rate, the chance a partition goes over its cap at that load
    // (the plan's cap per key and traffic law).
    if let Some(rate) = Sourced::flag("--rate", args.rate.one()?) {
        let rate = r.inputs.take("rate", rate);
        placement = placement
            .with_load(rate, plan.inputs.sizing.cap, plan.inputs.key_check.traffic)
            .map_err(|e| r.blame(e))?;
    }
    Ok(placement)
}

/// `shardplan stores`, resolved: it lists the presets, so only where.
pub struct StoresOptions {
    /// Where the list goes.
    pub output: Output,
}

impl StoresOptions {
    pub fn new(args: StoresArgs, run: &Run) -> InputResult<Self> {
        refuse(
            args.out.explain.explain,
            "--explain",
            "on stores: it lists the presets and resolves no inputs",
        )?;
        Ok(StoresOptions {
            output: Output::new(run, &args.out, false)?,
        })
    }
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
