//! The log design's reader: one consumer group over the shard streams.
//! Each batch it reads is added to the stream's counter key and
//! acknowledged in one MULTI (the stream and its counter share a slot), so
//! a batch counts once even when a reply is lost: after any failure the
//! consumer reads its own pending entries again first, and a batch whose
//! MULTI was applied is no longer pending.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::bail;
use redis::Value;

use super::accounting::Tally;
use super::node::{Router, Sent};
use super::pace::{new_histogram, now_micros};
use super::writers::Shared;

/// The consumer group's name.
const GROUP: &str = "shardplan";
/// Entries read at a time from one stream.
const BATCH: usize = 1000;
/// How long the consumer may go on after the writes to drain the streams.
const DRAIN_LIMIT: Duration = Duration::from_secs(30);

/// Creates the group on every stream (and the streams), before the writes.
pub(super) fn create_groups(s: &Shared, router: &mut Router) -> anyhow::Result<()> {
    for (stream, &slot) in s.streams.iter().zip(&s.slots) {
        let own = crate::model::placement::key_slot(stream.as_bytes());
        if own != slot {
            return Err(crate::error::InputError::new(
                "--template",
                format!(
                    "the stream {stream} and its counter key hash to different slots ({own} and \
                     {slot}), so the consumer's MULTI could not touch both; use a template whose \
                     keys have no braces, or one whole hash tag"
                ),
            )
            .into());
        }
        let cmd = redis::cmd("XGROUP")
            .arg("CREATE")
            .arg(stream)
            .arg(GROUP)
            .arg("$")
            .arg("MKSTREAM")
            .clone();
        match router.send(slot, &[cmd]) {
            Sent::Replies(_) => {}
            Sent::Refused(code) => bail!("XGROUP CREATE on {stream} was refused ({code})"),
            _ => bail!("XGROUP CREATE on {stream} got no reply"),
        }
    }
    Ok(())
}

/// What the consumer did.
pub(super) struct Consumed {
    /// Entries not yet in the counters when the writes ended.
    pub(super) backlog_at_end: u64,
}

/// Reads the streams until the writes have ended and every entry is in
/// its counter (or [`DRAIN_LIMIT`] after the end); records each entry's lag
/// from its like's creation to its batch's MULTI being acknowledged.
pub(super) fn consume(s: &Shared) -> Consumed {
    let mut router = Router::new(s.target);
    let mut lags = new_histogram();
    let aggregated = AtomicU64::new(0);
    let mut pending = vec![false; s.streams.len()];
    let mut backlog_at_end = None;
    let mut drain_until = None;
    loop {
        let writing = !s.writers_done.load(Ordering::Acquire);
        if !writing && backlog_at_end.is_none() {
            let acked = s.tally.acknowledged.load(Ordering::Relaxed);
            backlog_at_end = Some(acked.saturating_sub(aggregated.load(Ordering::Relaxed)));
            drain_until = Some(Instant::now() + DRAIN_LIMIT);
            // A batch whose MULTI was applied on a master that died before
            // its replica had it is pending again on the new master, with no
            // error seen here: read every stream's pending entries once more.
            pending.fill(true);
        }
        let mut read_any = false;
        // Settled: a whole pass read only new entries (">"), and found none.
        let mut read_pending = false;
        for (i, pending) in pending.iter_mut().enumerate() {
            read_pending |= *pending;
            let n = one_batch(s, &mut router, i, pending, &mut lags);
            aggregated.fetch_add(n, Ordering::Relaxed);
            read_any |= n > 0;
        }
        let settled = !read_any && !read_pending;
        if !writing && (settled || drain_until.is_some_and(|d| Instant::now() >= d)) {
            break;
        }
        if !read_any {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    let mut h = s.lags.lock().unwrap_or_else(|e| e.into_inner());
    let _ = h.add(&lags);
    Consumed {
        backlog_at_end: backlog_at_end.unwrap_or(0),
    }
}

/// Reads one batch of stream `i` (its pending entries first when
/// `pending`), adds it to the counter and acknowledges it; returns the
/// entries counted.
fn one_batch(
    s: &Shared,
    router: &mut Router,
    i: usize,
    pending: &mut bool,
    lags: &mut hdrhistogram::Histogram<u64>,
) -> u64 {
    let read = redis::cmd("XREADGROUP")
        .arg("GROUP")
        .arg(GROUP)
        .arg("consumer")
        .arg("COUNT")
        .arg(BATCH)
        .arg("STREAMS")
        .arg(&s.streams[i])
        .arg(if *pending { "0" } else { ">" })
        .clone();
    let entries = match router.send(s.slots[i], &[read]) {
        Sent::Replies(v) => entries_of(&v[0]),
        other => {
            consumer_error(&s.tally, &other);
            *pending = true;
            return 0;
        }
    };
    if entries.is_empty() {
        *pending = false;
        return 0;
    }
    let n = entries.len() as u64;
    let mut ack = redis::cmd("XACK");
    ack.arg(&s.streams[i]).arg(GROUP);
    for (id, _) in &entries {
        ack.arg(id);
    }
    let tx = [
        redis::cmd("MULTI"),
        redis::cmd("INCRBY").arg(&s.counters[i]).arg(n).clone(),
        ack,
        redis::cmd("EXEC"),
    ];
    match router.send(s.slots[i], &tx) {
        Sent::Replies(v) if matches!(v.get(3), Some(Value::Array(_))) => {
            let now = now_micros();
            for (_, t) in &entries {
                lags.saturating_record(now.saturating_sub(*t).max(1));
            }
            n
        }
        other => {
            consumer_error(&s.tally, &other);
            *pending = true;
            0
        }
    }
}

fn consumer_error(tally: &Tally, sent: &Sent) {
    let what = match sent {
        Sent::Refused(code) => code.as_str(),
        Sent::NoReply => "no reply",
        Sent::Unreachable => "connection refused",
        Sent::Replies(_) => "transaction aborted",
    };
    tally.error(&format!("consumer: {what}"));
}

/// The entries of an XREADGROUP reply on one stream: each id and the
/// creation time (`t`, microseconds) its like carried.
fn entries_of(reply: &Value) -> Vec<(String, u64)> {
    let Value::Array(streams) = reply else {
        return Vec::new(); // Nil: nothing new
    };
    let mut out = Vec::new();
    for stream in streams {
        let Value::Array(parts) = stream else {
            continue;
        };
        let Some(Value::Array(entries)) = parts.get(1) else {
            continue;
        };
        for e in entries {
            let Value::Array(pair) = e else { continue };
            let Some(id) = pair.first().and_then(text) else {
                continue;
            };
            let t = match pair.get(1) {
                Some(Value::Array(fields)) => fields.get(1).and_then(text),
                _ => None,
            };
            out.push((id, t.and_then(|t| t.parse().ok()).unwrap_or(0)));
        }
    }
    out
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::BulkString(b) => Some(String::from_utf8_lossy(b).into_owned()),
        Value::SimpleString(s) => Some(s.clone()),
        _ => None,
    }
}

/// The count rebuilt from the streams: every entry read back with XRANGE,
/// 10,000 at a time (each entry one like).
pub(super) fn rebuild(s: &Shared, router: &mut Router) -> anyhow::Result<i64> {
    let mut total = 0i64;
    for (stream, &slot) in s.streams.iter().zip(&s.slots) {
        let mut from = "-".to_string();
        loop {
            let cmd = redis::cmd("XRANGE")
                .arg(stream)
                .arg(&from)
                .arg("+")
                .arg("COUNT")
                .arg(10_000)
                .clone();
            let Sent::Replies(v) = router.send(slot, &[cmd]) else {
                bail!("XRANGE on {stream} failed while rebuilding the count");
            };
            // XRANGE's reply is the entries themselves: wrap it as
            // XREADGROUP's one-stream reply to reuse the parser.
            let wrapped = Value::Array(vec![Value::Array(vec![Value::Nil, v[0].clone()])]);
            let entries = entries_of(&wrapped);
            total += entries.len() as i64;
            match entries.last() {
                Some((id, _)) if entries.len() == 10_000 => from = format!("({id}"),
                _ => break,
            }
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bulk(s: &str) -> Value {
        Value::BulkString(s.as_bytes().to_vec())
    }

    #[test]
    fn entries_carry_their_id_and_creation_time() {
        let entry = |id: &str, t: &str| {
            Value::Array(vec![bulk(id), Value::Array(vec![bulk("t"), bulk(t)])])
        };
        let reply = Value::Array(vec![Value::Array(vec![
            bulk("{k}:log"),
            Value::Array(vec![entry("1-0", "17"), entry("1-1", "18")]),
        ])]);
        assert_eq!(
            entries_of(&reply),
            [("1-0".to_string(), 17), ("1-1".to_string(), 18)]
        );
        assert!(entries_of(&Value::Nil).is_empty());
    }
}
