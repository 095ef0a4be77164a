//! The keys a run writes and what it leaves behind.
//!
//! Without `--template` the keys carry a fresh random run id
//! (`shardplan:<id>:<shard>`), so they cannot collide with anyone's data.
//! The id moves the keys' slots, so on a cluster it is redrawn until the
//! keys reach as many nodes as they can (the spread is checked before the
//! load starts and reported). The id names keys; it is not a result, so it
//! does not come from the load's seed.
//!
//! At the end a key is deleted only if it still holds exactly what this run
//! wrote (one Lua script per key, so the check and the delete are atomic):
//! a key another client changed during the run is left alone and reported.
//! With `--overwrite`, string keys that existed before are set aside
//! (DUMP and PTTL) and restored afterwards; keys of any other type refuse
//! the run.

use anyhow::{bail, Context};
use rand::RngExt;

use crate::error::InputError;
use crate::model::placement::{key_slot, ShardTemplate, SHARD_PLACEHOLDER};

use super::cluster::Target;
use super::conn::Conn;

/// Draws of a run id before settling for the best spread found: with S keys
/// on N nodes (S >= N) one draw misses a node with probability at most
/// N (1 - 1/N)^S, so 64 draws fail only for S barely above N.
const RUN_ID_DRAWS: usize = 64;

/// Keys checked, deleted or restored per pipeline, so a run with 100,000
/// shards never builds one huge request.
const CHUNK: usize = 1_000;

/// Deletes KEYS[1] only if it is a string holding ARGV[1]; replies 1 when
/// deleted, 2 when the key is gone, 0 when it holds something else.
const DELETE_IF_OURS: &str = "local t = redis.call('TYPE', KEYS[1]).ok \
    if t == 'none' then return 2 end \
    if t == 'string' and redis.call('GET', KEYS[1]) == ARGV[1] then \
    return redis.call('DEL', KEYS[1]) end \
    return 0";

/// The keys one run writes.
pub(super) struct RunKeys {
    /// The template the keys come from (the user's, or the run id's).
    pub(super) template: ShardTemplate,
    /// The random id in the keys' names (`None` with `--template`).
    pub(super) run_id: Option<String>,
    /// The S shard keys.
    pub(super) shard: Vec<String>,
    /// The one key of the single-key phase: the template with `single` for
    /// the shard number, so it shares the template's hash tag if any.
    pub(super) single: String,
    /// A same-slot copy of the shard keys for timing MGET when they span
    /// several slots of a cluster (the whole `mget` name is the hash tag);
    /// empty when not needed or when braces in the template defeat the tag.
    pub(super) mget: Vec<String>,
    /// Whether the shard keys span several slots of a cluster.
    pub(super) spans_slots: bool,
    /// Distinct nodes holding at least one shard key.
    pub(super) nodes_reached: u64,
    /// The most nodes S keys could reach: min(S, nodes).
    pub(super) nodes_possible: u64,
}

impl RunKeys {
    /// The keys of `template` (or of a fresh run id when `None`) for
    /// `shards` shards on `target`.
    pub(super) fn choose(
        template: Option<&ShardTemplate>,
        shards: u64,
        cluster: bool,
        target: &Target,
    ) -> anyhow::Result<RunKeys> {
        if let Some(t) = template {
            return Ok(RunKeys::named(t.clone(), None, shards, cluster).spread_on(target));
        }
        let mut rng = rand::rng();
        let mut best: Option<RunKeys> = None;
        for _ in 0..RUN_ID_DRAWS {
            let id = format!("{:08x}", rng.random::<u32>());
            let t = ShardTemplate::new(&format!("shardplan:{id}:{SHARD_PLACEHOLDER}"), 0)
                .context("building the run's key template")?;
            let keys = RunKeys::named(t, Some(id), shards, cluster).spread_on(target);
            let done = keys.nodes_reached == keys.nodes_possible;
            if best
                .as_ref()
                .is_none_or(|b| keys.nodes_reached > b.nodes_reached)
            {
                best = Some(keys);
            }
            if done {
                break;
            }
        }
        best.context("no run id drawn")
    }

    /// The keys' names; the spread is filled in by [`RunKeys::spread_on`].
    fn named(
        template: ShardTemplate,
        run_id: Option<String>,
        shards: u64,
        cluster: bool,
    ) -> RunKeys {
        let shard = template.keys(shards);
        let named = |name: &str| template.template().replace(SHARD_PLACEHOLDER, name);
        let single = named("single");
        let slots: Vec<u16> = shard.iter().map(|k| key_slot(k.as_bytes())).collect();
        let spans_slots = cluster && slots.iter().any(|&s| s != slots[0]);
        let mut mget: Vec<String> = Vec::new();
        if spans_slots {
            let tag = named("mget");
            mget = (0..shards).map(|i| format!("{{{tag}}}:{i}")).collect();
            let first = key_slot(mget[0].as_bytes());
            if mget.iter().any(|k| key_slot(k.as_bytes()) != first) {
                mget.clear();
            }
        }
        RunKeys {
            template,
            run_id,
            shard,
            single,
            mget,
            spans_slots,
            nodes_reached: 0,
            nodes_possible: 0,
        }
    }

    /// Count the nodes of `target` the shard keys reach.
    fn spread_on(mut self, target: &Target) -> RunKeys {
        let mut nodes: Vec<usize> = self
            .shard
            .iter()
            .map(|k| target.node_of(key_slot(k.as_bytes())))
            .collect();
        nodes.sort_unstable();
        nodes.dedup();
        self.nodes_reached = nodes.len() as u64;
        self.nodes_possible = (self.shard.len() as u64).min(target.nodes.len() as u64);
        self
    }

    /// Every key the run may write.
    pub(super) fn all(&self) -> Vec<String> {
        let mut all = self.shard.clone();
        all.push(self.single.clone());
        all.extend(self.mget.iter().cloned());
        all
    }
}

/// A string key that existed before an `--overwrite` run: its serialized
/// value and its time to live, restored after the run.
pub(super) struct SetAside {
    key: String,
    dump: Vec<u8>,
    /// Milliseconds to live (0: no expiry), as RESTORE takes it.
    ttl_ms: i64,
}

/// Check that none of `keys` exists; with `overwrite`, set aside the string
/// keys that do (refusing other types) and delete them for the run.
pub(super) fn claim(
    admin: &mut Conn,
    keys: &[String],
    overwrite: bool,
) -> anyhow::Result<Vec<SetAside>> {
    let existing = existing_keys(admin, keys)?;
    let Some((first, _)) = existing.first() else {
        return Ok(Vec::new());
    };
    if !overwrite {
        return Err(InputError::new(
            "--overwrite",
            format!(
                "{} of the {} keys this run writes already exist (e.g. {first}); pass --overwrite to set them aside for the run and restore them after, or choose another --template",
                existing.len(),
                keys.len(),
            ),
        )
        .into());
    }
    set_aside(admin, existing)
}

/// Check that none of `keys` exists, for a durability run (which sets no
/// key aside: its count must be its own).
pub(super) fn refuse_existing(admin: &mut Conn, keys: &[String]) -> anyhow::Result<()> {
    let existing = existing_keys(admin, keys)?;
    match existing.first() {
        None => Ok(()),
        Some((first, _)) => Err(InputError::new(
            "--template",
            format!(
                "{} of the {} keys this run writes already exist (e.g. {first}); a durability run \
                 counts only its own writes: choose another --template or delete them",
                existing.len(),
                keys.len(),
            ),
        )
        .into()),
    }
}

/// Each of `keys` that exists, with its type.
fn existing_keys(admin: &mut Conn, keys: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    let mut existing: Vec<(String, String)> = Vec::new();
    for chunk in keys.chunks(CHUNK) {
        let cmds: Vec<redis::Cmd> = chunk.iter().map(|k| cmd1("TYPE", k)).collect();
        let types: Vec<String> = admin
            .pipeline(&cmds)
            .context("checking for existing keys")?;
        existing.extend(
            chunk
                .iter()
                .zip(types)
                .filter(|(_, t)| t != "none")
                .map(|(k, t)| (k.clone(), t)),
        );
    }
    Ok(existing)
}

/// `--overwrite`: set aside the `existing` string keys (refusing other
/// types) and delete them for the run.
fn set_aside(admin: &mut Conn, existing: Vec<(String, String)>) -> anyhow::Result<Vec<SetAside>> {
    if let Some((key, kind)) = existing.iter().find(|(_, t)| t != "string") {
        return Err(InputError::new(
            "--overwrite",
            format!(
                "{key} holds a {kind}; --overwrite sets aside and restores string keys only, so choose another --template"
            ),
        )
        .into());
    }
    let mut saved = Vec::with_capacity(existing.len());
    for chunk in existing.chunks(CHUNK) {
        let mut cmds = Vec::with_capacity(2 * chunk.len());
        for (k, _) in chunk {
            cmds.push(cmd1("DUMP", k));
            cmds.push(cmd1("PTTL", k));
        }
        let replies: Vec<redis::Value> = admin
            .pipeline(&cmds)
            .context("setting aside the existing keys (--overwrite)")?;
        for ((key, _), pair) in chunk.iter().zip(replies.chunks(2)) {
            let dump: Option<Vec<u8>> = redis::from_redis_value(pair[0].clone())?;
            let ttl: i64 = redis::from_redis_value(pair[1].clone())?;
            let Some(dump) = dump else {
                bail!("{key} vanished while it was being set aside (--overwrite)");
            };
            saved.push(SetAside {
                key: key.clone(),
                dump,
                ttl_ms: ttl.max(0),
            });
        }
    }
    let names: Vec<String> = saved.iter().map(|s| s.key.clone()).collect();
    delete(admin, &names).context("clearing the existing keys (--overwrite)")?;
    Ok(saved)
}

/// What the end of a run did to the keys.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct Cleanup {
    /// Keys deleted because they held exactly what this run wrote.
    pub(super) deleted: u64,
    /// Keys this run wrote that now hold something else (another client
    /// changed them): left as they are.
    pub(super) left: Vec<String>,
    /// Keys set aside by `--overwrite` and put back.
    pub(super) restored: u64,
}

/// Delete each of `written` (key, the value this run left in it) that still
/// holds that value, then restore what `--overwrite` set aside.
pub(super) fn clean_up(
    admin: &mut Conn,
    written: &[(String, String)],
    set_aside: &[SetAside],
) -> anyhow::Result<Cleanup> {
    let mut done = Cleanup::default();
    for chunk in written.chunks(CHUNK) {
        let cmds: Vec<redis::Cmd> = chunk
            .iter()
            .map(|(k, v)| {
                redis::cmd("EVAL")
                    .arg(DELETE_IF_OURS)
                    .arg(1)
                    .arg(k)
                    .arg(v)
                    .clone()
            })
            .collect();
        let replies: Vec<i64> = admin.pipeline(&cmds)?;
        for ((key, _), reply) in chunk.iter().zip(replies) {
            match reply {
                1 => done.deleted += 1,
                2 => {}
                _ => done.left.push(key.clone()),
            }
        }
    }
    // Every key is tried; the failures are reported together after.
    let mut failed: Vec<String> = Vec::new();
    for s in set_aside {
        // No REPLACE: a key someone created meanwhile is not overwritten.
        let restore = redis::cmd("RESTORE")
            .arg(&s.key)
            .arg(s.ttl_ms)
            .arg(&s.dump)
            .clone();
        match admin.command::<String>(&restore) {
            Ok(_) => done.restored += 1,
            Err(e) => failed.push(format!("{}: {e:#}", s.key)),
        }
    }
    if let Some(first) = failed.first() {
        bail!(
            "restoring {} of the {} keys --overwrite set aside failed (e.g. {first})",
            failed.len(),
            set_aside.len()
        );
    }
    Ok(done)
}

/// DEL `keys` in chunks (used for the set-aside originals only).
fn delete(admin: &mut Conn, keys: &[String]) -> anyhow::Result<()> {
    for chunk in keys.chunks(CHUNK) {
        let cmds: Vec<redis::Cmd> = chunk.iter().map(|k| cmd1("DEL", k)).collect();
        admin.pipeline::<Vec<u64>>(&cmds)?;
    }
    Ok(())
}

fn cmd1(name: &str, key: &str) -> redis::Cmd {
    redis::cmd(name).arg(key).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(template: &str, cluster: bool) -> RunKeys {
        RunKeys::named(ShardTemplate::new(template, 0).unwrap(), None, 16, cluster)
    }

    #[test]
    fn keys_follow_the_template() {
        let c = keys("likes:<shard>", true);
        assert_eq!(c.shard[0], "likes:0");
        assert_eq!(c.shard[15], "likes:15");
        assert_eq!(c.single, "likes:single");
        assert!(c.spans_slots);
        assert_eq!(c.mget[3], "{likes:mget}:3");
        let slot = key_slot(c.mget[0].as_bytes());
        assert!(c.mget.iter().all(|k| key_slot(k.as_bytes()) == slot));
        // Every placeholder takes the shard number, as in `keys`.
        let twice = keys("likes:<shard>:by:<shard>", true);
        assert_eq!(twice.shard[7], "likes:7:by:7");
        assert_eq!(twice.single, "likes:single:by:single");
        assert_eq!(twice.mget[2], "{likes:mget:by:mget}:2");
        // One hash tag: one slot, so no copy is needed.
        let tagged = keys("{likes}:<shard>", true);
        assert!(tagged
            .shard
            .iter()
            .all(|k| key_slot(k.as_bytes()) == key_slot(b"likes")));
        assert!(!tagged.spans_slots && tagged.mget.is_empty());
        // A standalone server takes an MGET of any keys.
        let single = keys("likes:<shard>", false);
        assert!(!single.spans_slots && single.mget.is_empty());
        assert_eq!(single.all().len(), 17);
    }
}
