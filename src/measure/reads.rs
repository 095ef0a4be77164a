//! The read path: the whole count read as S pipelined GETs against one MGET
//! of S keys in one slot, and the server's reply to an MGET across slots.

use std::time::{Duration, Instant};

use anyhow::bail;
use redis::Value;

use crate::model::placement::key_slot;

use super::cluster::Target;
use super::config::MeasureConfig;
use super::conn::Conn;
use super::keys::RunKeys;
use super::report::{MgetKeys, ReadPath};

/// Time `config.reads` reads of the whole count both ways; `values` are the
/// shard values just read, which the MGET must sum to and a same-slot copy
/// is written with. Each copy key written is added to `written` with its
/// value, for the clean-up. `counts_match`: the keys summed to the INCRs
/// sent; where they did not, another client is writing them, so the MGET
/// may read a different sum too, and the count check (exit 3), not this
/// one, is what the run reports.
pub(super) fn read_path(
    config: &MeasureConfig,
    target: &Target,
    admin: &mut Conn,
    keys: &RunKeys,
    values: &[i64],
    counts_match: bool,
    written: &mut Vec<(String, String)>,
) -> anyhow::Result<ReadPath> {
    let (shard_keys, mget_keys) = (&keys.shard[..], &keys.mget[..]);
    let reads = config.reads;

    let mut times = Vec::with_capacity(reads as usize);
    for _ in 0..reads {
        let start = Instant::now();
        admin.get_values(shard_keys)?;
        times.push(ms(start.elapsed()));
    }
    let pipelined_get_p50_ms = median(&mut times);

    let (mget_set, mget_label, crossslot_error) = if !keys.spans_slots {
        (shard_keys, MgetKeys::ShardKeys, None)
    } else {
        // Show what the server says to an MGET over several slots, asked
        // directly of the node owning the first key (the cluster client
        // would refuse it before sending).
        let node = &target.nodes[target.node_of(key_slot(shard_keys[0].as_bytes()))];
        let mut direct = target.node_connection(node)?;
        let reply = redis::cmd("MGET")
            .arg(shard_keys)
            .query::<Value>(&mut direct);
        let text = match reply {
            // The server's own words ("CROSSSLOT Keys in request don't
            // hash to the same slot"), not the client's rewording.
            Err(e) => match (e.code(), e.detail()) {
                (Some(code), Some(detail)) => format!("{code} {detail}"),
                _ => e.to_string(),
            },
            Ok(v) => format!("no error: the server answered {v:?}"),
        };
        if mget_keys.is_empty() {
            (mget_keys, MgetKeys::Unavailable, Some(text))
        } else {
            admin.mset(mget_keys, values)?;
            written.extend(
                mget_keys
                    .iter()
                    .cloned()
                    .zip(values.iter().map(i64::to_string)),
            );
            (mget_keys, MgetKeys::SameSlotCopy, Some(text))
        }
    };
    let mut mget_p50_ms = None;
    if !mget_set.is_empty() {
        times.clear();
        for _ in 0..reads {
            let start = Instant::now();
            let got = admin.mget(mget_set)?;
            times.push(ms(start.elapsed()));
            if counts_match && got.iter().sum::<i64>() != values.iter().sum::<i64>() {
                bail!("MGET read back a different sum than the pipelined GETs");
            }
        }
        mget_p50_ms = Some(median(&mut times));
    }
    Ok(ReadPath {
        reads,
        // The nodes the shard keys reach, counted once from the slot map.
        nodes_per_read: keys.nodes_reached,
        pipelined_get_p50_ms,
        mget_p50_ms,
        mget_keys: mget_label,
        crossslot_error,
    })
}

/// Median of a non-empty sample (mean of the middle two for even sizes).
fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// `d` in milliseconds.
fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_samples() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&mut [7.0]), 7.0);
    }
}
