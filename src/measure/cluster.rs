//! The deployment: a standalone server or a cluster, its nodes and slot map
//! from CLUSTER SLOTS, and connections that keep the URL's credentials
//! (the nodes' own figures from INFO are read in [`super::cpu`]).

use std::collections::BTreeMap;

use anyhow::{anyhow, bail, Context};
use redis::cluster::ClusterClient;
use redis::{Connection, ConnectionAddr, ConnectionInfo, InfoDict, Value};

use crate::error::InputError;
use crate::model::placement::REDIS_SLOTS;

use super::config::MeasureConfig;
use super::conn::Conn;
use super::errors::describe;
use super::url::redact;

use crate::model::defaults::CONNECT_TIMEOUT;
use std::time::Duration;

/// A node of the deployment and the slots it owns.
#[derive(Debug, Clone)]
pub(super) struct Node {
    /// `host:port`, as reported.
    pub(super) addr: String,
    /// The host to connect to.
    pub(super) host: String,
    /// The port to connect to.
    pub(super) port: u16,
    /// Hash slots the node owns.
    pub(super) slots: u64,
}

/// Where the load goes: a standalone server, or a cluster with its slot map.
pub(super) struct Target {
    /// `--redis` with any password redacted, for messages.
    url: String,
    /// The cluster client (with `--cluster`).
    cluster: Option<ClusterClient>,
    /// The standalone client (without `--cluster`).
    single: Option<redis::Client>,
    /// Every master (the one server if standalone), ordered by address.
    pub(super) nodes: Vec<Node>,
    /// Node index for each of the 16384 slots.
    slot_node: Vec<usize>,
    /// The parsed `--redis` URL; its credentials are reused for every node.
    pub(super) info: ConnectionInfo,
    /// `--timeout`: how long a reply may take.
    pub(super) wait: Duration,
    /// How long a connect and its handshake may take: [`CONNECT_TIMEOUT`],
    /// or `--timeout` where shorter (as for PostgreSQL).
    connect: Duration,
}

/// `cannot connect to URL: why`, the why in words ("connection refused",
/// "timed out", "not a Redis server", a refused login).
fn connect_message(url: &str, e: &redis::RedisError, connect: Duration) -> String {
    format!("cannot connect to {url}: {}", describe(e, connect))
}

/// Whether the server runs in cluster mode, by the `cluster_enabled` field
/// of `INFO cluster`; `None` when it does not say (an ACL refuses INFO):
/// then the mode's own commands tell.
fn cluster_enabled(seed: &mut Connection) -> Option<bool> {
    let info: InfoDict = redis::cmd("INFO").arg("cluster").query(seed).ok()?;
    info.get::<i64>("cluster_enabled").map(|on| on == 1)
}

impl Target {
    /// Connect to `--redis`, check the login and the mode (`--cluster` or
    /// not), and read the slot map of a cluster.
    pub(super) fn connect(config: &MeasureConfig) -> anyhow::Result<Target> {
        let url = redact(&config.redis);
        let client = redis::Client::open(config.redis.as_str())
            .map_err(|e| InputError::new("--redis", e.to_string()))?;
        let connect = CONNECT_TIMEOUT.min(config.timeout);
        let mut seed = client
            .get_connection_with_timeout(connect)
            .map_err(|e| anyhow!(connect_message(&url, &e, connect)))?;
        let wait = config.timeout;
        seed.set_read_timeout(Some(wait))?;
        // The handshake does not check a password the URL lacks; the first
        // command does. Fail here with a hint instead of mid-run.
        redis::cmd("PING")
            .query::<String>(&mut seed)
            .map_err(|e| anyhow!("{url} did not answer PING: {}", describe(&e, wait)))?;
        let info = client.get_connection_info().clone();
        let enabled = cluster_enabled(&mut seed);
        if !config.cluster {
            let (host, port) = match info.addr() {
                ConnectionAddr::Tcp(h, p) => (h.clone(), *p),
                other => bail!("{url}: unsupported address {other}"),
            };
            // A cluster node answers keys of other nodes with MOVED; say so
            // now rather than after the first INCR.
            if enabled == Some(true) {
                bail!("{url} is a Redis Cluster node; pass --cluster");
            }
            return Ok(Target {
                url,
                cluster: None,
                single: Some(client),
                nodes: vec![Node {
                    addr: format!("{host}:{port}"),
                    host,
                    port,
                    slots: REDIS_SLOTS as u64,
                }],
                slot_node: vec![0; REDIS_SLOTS as usize],
                info,
                wait,
                connect,
            });
        }
        if enabled == Some(false) {
            bail!("{url} is not a Redis Cluster node (cluster support disabled); drop --cluster");
        }
        let raw: Value = redis::cmd("CLUSTER")
            .arg("SLOTS")
            .query(&mut seed)
            .map_err(|e| anyhow!("CLUSTER SLOTS on {url} failed: {}", describe(&e, wait)))?;
        let (nodes, slot_node) = parse_cluster_slots(&raw)
            .with_context(|| format!("reading CLUSTER SLOTS from {url}"))?;
        let cluster = ClusterClient::builder(vec![info.clone()])
            .connection_timeout(connect)
            .response_timeout(wait)
            .build()
            .map_err(|e| anyhow!("cannot set up the cluster client for {url}: {e}"))?;
        Ok(Target {
            url,
            cluster: Some(cluster),
            single: None,
            nodes,
            slot_node,
            info,
            wait,
            connect,
        })
    }

    /// Whether the deployment is a cluster (`--cluster`).
    pub(super) fn is_cluster(&self) -> bool {
        self.cluster.is_some()
    }

    /// The index in `nodes` of the node serving `slot`.
    pub(super) fn node_of(&self, slot: u16) -> usize {
        self.slot_node[slot as usize]
    }

    /// A new connection for one client (cluster-routing with `--cluster`).
    pub(super) fn open(&self) -> anyhow::Result<Conn> {
        if let Some(c) = &self.cluster {
            let conn = c
                .get_connection()
                .map_err(|e| anyhow!(connect_message(&self.url, &e, self.connect)))?;
            return Ok(Conn::cluster(conn, self.wait));
        }
        let client = self.single.as_ref().ok_or_else(|| anyhow!("no client"))?;
        let conn = client
            .get_connection_with_timeout(self.connect)
            .map_err(|e| anyhow!(connect_message(&self.url, &e, self.connect)))?;
        conn.set_read_timeout(Some(self.wait))?;
        conn.set_write_timeout(Some(self.wait))?;
        Ok(Conn::single(conn, self.wait))
    }

    /// A plain connection to one node, by `host:port`.
    /// Keeps the URL's credentials, so it works on a server with a password.
    pub(super) fn node_connection(&self, node: &Node) -> anyhow::Result<Connection> {
        let info = self
            .info
            .clone()
            .set_addr(ConnectionAddr::Tcp(node.host.clone(), node.port));
        let url = format!("redis://{}", node.addr);
        let client = redis::Client::open(info)?;
        let conn = client
            .get_connection_with_timeout(self.connect)
            .map_err(|e| anyhow!(connect_message(&url, &e, self.connect)))?;
        conn.set_read_timeout(Some(self.wait))?;
        Ok(conn)
    }
}

/// CLUSTER SLOTS replies `[[start, end, [ip, port, id, ...], replicas...], ...]`;
/// masters only (replicas do not take writes).
pub(super) fn parse_cluster_slots(raw: &Value) -> anyhow::Result<(Vec<Node>, Vec<usize>)> {
    let int = |v: &Value| match v {
        Value::Int(i) => Some(*i),
        _ => None,
    };
    let text = |v: &Value| match v {
        Value::BulkString(b) => Some(String::from_utf8_lossy(b).into_owned()),
        Value::SimpleString(s) => Some(s.clone()),
        _ => None,
    };
    let Value::Array(ranges) = raw else {
        bail!("expected an array, got {raw:?}");
    };
    let mut by_addr: BTreeMap<String, usize> = BTreeMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut slot_node = vec![usize::MAX; REDIS_SLOTS as usize];
    for range in ranges {
        let Value::Array(parts) = range else {
            bail!("expected a slot range array, got {range:?}");
        };
        let (Some(start), Some(end), Some(Value::Array(master))) = (
            parts.first().and_then(int),
            parts.get(1).and_then(int),
            parts.get(2),
        ) else {
            bail!("unexpected slot range {range:?}");
        };
        let (Some(ip), Some(port)) = (master.first().and_then(text), master.get(1).and_then(int))
        else {
            bail!("unexpected node entry {master:?}");
        };
        if !(0..REDIS_SLOTS as i64).contains(&start) || !(start..REDIS_SLOTS as i64).contains(&end)
        {
            bail!("slot range {start}-{end} is outside 0-16383");
        }
        let port = u16::try_from(port).map_err(|_| anyhow!("bad port {port}"))?;
        let addr = format!("{ip}:{port}");
        let idx = *by_addr.entry(addr.clone()).or_insert_with(|| {
            nodes.push(Node {
                addr,
                host: ip,
                port,
                slots: 0,
            });
            nodes.len() - 1
        });
        nodes[idx].slots += (end - start + 1) as u64;
        for s in start..=end {
            slot_node[s as usize] = idx;
        }
    }
    if let Some(s) = slot_node.iter().position(|&n| n == usize::MAX) {
        bail!("slot {s} is not served by any node; is the cluster state ok?");
    }
    // Order nodes by address so reports are stable run to run.
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by(|&a, &b| nodes[a].addr.cmp(&nodes[b].addr));
    let mut new_index = vec![0; nodes.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new;
    }
    let sorted = order.iter().map(|&i| nodes[i].clone()).collect();
    let slot_node = slot_node.into_iter().map(|i| new_index[i]).collect();
    Ok((sorted, slot_node))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_slots_reply_maps_every_slot() {
        let node = |port: i64| {
            Value::Array(vec![
                Value::BulkString(b"127.0.0.1".to_vec()),
                Value::Int(port),
                Value::BulkString(b"id".to_vec()),
            ])
        };
        let raw = Value::Array(vec![
            Value::Array(vec![Value::Int(5461), Value::Int(10922), node(7001)]),
            Value::Array(vec![Value::Int(0), Value::Int(5460), node(7000)]),
            Value::Array(vec![Value::Int(10923), Value::Int(16383), node(7002)]),
        ]);
        let (nodes, slot_node) = parse_cluster_slots(&raw).unwrap();
        let addrs: Vec<_> = nodes.iter().map(|n| (n.addr.as_str(), n.slots)).collect();
        assert_eq!(
            addrs,
            [
                ("127.0.0.1:7000", 5461),
                ("127.0.0.1:7001", 5462),
                ("127.0.0.1:7002", 5461)
            ]
        );
        assert_eq!((slot_node[0], slot_node[5461], slot_node[16383]), (0, 1, 2));
        let partial = Value::Array(vec![Value::Array(vec![
            Value::Int(0),
            Value::Int(100),
            node(7000),
        ])]);
        assert!(parse_cluster_slots(&partial)
            .unwrap_err()
            .to_string()
            .contains("slot 101"));
    }
}
