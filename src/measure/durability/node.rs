//! One writer's own way to the nodes: a connection per node and its own
//! slot map, so that nothing is ever sent twice behind the run's back (a
//! client library that retries a request whose connection died can apply
//! an INCR twice, and the accounting could not tell). A `MOVED` or `ASK`
//! reply is followed (the request was not applied); any other error reply
//! is the request's answer; a connection that dies with a request in flight
//! gives no answer, and the next request reconnects, reading the slot map
//! again first on a cluster.

use std::time::Duration;

use redis::{Cmd, ConnectionAddr, ConnectionInfo, ConnectionLike, ServerErrorKind, Value};

use crate::measure::cluster::{parse_cluster_slots, Target};
use crate::model::defaults::CONNECT_TIMEOUT;
use crate::model::placement::REDIS_SLOTS;

/// Redirections followed for one request before it counts as refused.
const MAX_REDIRECTS: usize = 5;

/// What became of one request (a command, or a few sent together to one
/// node).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Sent {
    /// Every reply, one per command (a reply may itself be an error, as
    /// inside a transaction).
    Replies(Vec<Value>),
    /// The first command was refused with this error code: nothing was
    /// applied.
    Refused(String),
    /// No reply: the connection died or timed out with the request in
    /// flight.
    NoReply,
    /// No node of the slot would take a connection: nothing was sent.
    Unreachable,
}

/// A writer's connections and slot map.
pub(super) struct Router {
    info: ConnectionInfo,
    cluster: bool,
    wait: Duration,
    /// Every address known (the map's masters, then the ones seen before),
    /// asked in turn for the slot map.
    addrs: Vec<(String, u16)>,
    conns: Vec<Option<redis::Connection>>,
    /// For each slot, its master's index in `addrs`.
    slot_node: Vec<usize>,
    /// The slot map may be out of date (a connection died, a node said
    /// READONLY or CLUSTERDOWN): read it again before the next request.
    stale: bool,
}

impl Router {
    /// A router for `target`'s deployment, starting from its slot map.
    pub(super) fn new(target: &Target) -> Router {
        let addrs: Vec<(String, u16)> = target
            .nodes
            .iter()
            .map(|n| (n.host.clone(), n.port))
            .collect();
        let slot_node = (0..REDIS_SLOTS).map(|s| target.node_of(s)).collect();
        Router {
            info: target.info.clone(),
            cluster: target.is_cluster(),
            wait: target.wait,
            conns: addrs.iter().map(|_| None).collect(),
            addrs,
            slot_node,
            stale: false,
        }
    }

    /// How long a reply may take, for the connections opened from now on.
    pub(super) fn set_wait(&mut self, wait: Duration) {
        self.wait = wait;
    }

    /// Send `cmds` to the master of `slot` as one round trip.
    pub(super) fn send(&mut self, slot: u16, cmds: &[Cmd]) -> Sent {
        let mut asking: Option<usize> = None;
        for _ in 0..MAX_REDIRECTS {
            if self.stale && self.cluster {
                self.refresh();
            }
            let node = asking.take().unwrap_or(self.slot_node[slot as usize]);
            let ask = node != self.slot_node[slot as usize];
            let values = match self.round_trip(node, cmds, ask) {
                Ok(values) => values,
                Err(sent) => return sent,
            };
            let Some(Value::ServerError(e)) = values.get(usize::from(ask)) else {
                return Sent::Replies(if ask { values[1..].to_vec() } else { values });
            };
            match (e.kind(), redirect(e.details())) {
                (Some(ServerErrorKind::Moved), Some(addr)) => {
                    let to = self.index_of(addr);
                    self.slot_node[slot as usize] = to;
                    // One slot moved: others may have too.
                    self.stale = true;
                }
                (Some(ServerErrorKind::Ask), Some(addr)) => asking = Some(self.index_of(addr)),
                (kind, _) => {
                    if matches!(
                        kind,
                        Some(ServerErrorKind::ReadOnly | ServerErrorKind::ClusterDown)
                    ) {
                        self.stale = true;
                    }
                    return Sent::Refused(e.code().to_string());
                }
            }
        }
        Sent::Refused("MOVED".to_string())
    }

    /// `cmds` on node `node` (after ASKING when `ask`), or what stopped
    /// them.
    fn round_trip(&mut self, node: usize, cmds: &[Cmd], ask: bool) -> Result<Vec<Value>, Sent> {
        let conn = match self.connection(node) {
            Some(c) => c,
            None => {
                self.stale = true;
                return Err(Sent::Unreachable);
            }
        };
        let mut p = redis::pipe();
        if ask {
            p.cmd("ASKING");
        }
        for c in cmds {
            p.add_command(c.clone());
        }
        let n = cmds.len() + usize::from(ask);
        match conn.req_packed_commands(&p.get_packed_pipeline(), 0, n) {
            Ok(values) if values.len() == n => Ok(values),
            _ => {
                // Whatever the error, the connection's state is unknown.
                self.conns[node] = None;
                self.stale = true;
                Err(Sent::NoReply)
            }
        }
    }

    /// The open connection to node `node`, opened if needed.
    fn connection(&mut self, node: usize) -> Option<&mut redis::Connection> {
        if self.conns[node].is_none() {
            self.conns[node] = self.open(node);
        }
        self.conns[node].as_mut()
    }

    fn open(&self, node: usize) -> Option<redis::Connection> {
        let (host, port) = self.addrs[node].clone();
        let info = self.info.clone().set_addr(ConnectionAddr::Tcp(host, port));
        let client = redis::Client::open(info).ok()?;
        let conn = client.get_connection_with_timeout(CONNECT_TIMEOUT).ok()?;
        conn.set_read_timeout(Some(self.wait)).ok()?;
        conn.set_write_timeout(Some(self.wait)).ok()?;
        Some(conn)
    }

    /// The index of `host:port` in `addrs`, added if new.
    fn index_of(&mut self, addr: &str) -> usize {
        let (host, port) = match addr.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), p.parse().unwrap_or(0)),
            None => (addr.to_string(), 0),
        };
        if let Some(i) = self.addrs.iter().position(|a| a.0 == host && a.1 == port) {
            return i;
        }
        self.addrs.push((host, port));
        self.conns.push(None);
        self.addrs.len() - 1
    }

    /// Read the slot map again from the first node that answers; on
    /// failure the old map stays and stays stale.
    pub(super) fn refresh(&mut self) {
        for node in 0..self.addrs.len() {
            let Some(conn) = self.connection(node) else {
                continue;
            };
            let Ok(raw) = redis::cmd("CLUSTER").arg("SLOTS").query::<Value>(conn) else {
                self.conns[node] = None;
                continue;
            };
            let Ok((nodes, slot_node)) = parse_cluster_slots(&raw) else {
                // A node that lost its view of the cluster: ask another.
                continue;
            };
            let index: Vec<usize> = nodes
                .iter()
                .map(|n| self.index_of(&format!("{}:{}", n.host, n.port)))
                .collect();
            self.slot_node = slot_node.into_iter().map(|i| index[i]).collect();
            self.stale = false;
            return;
        }
    }
}

/// The `host:port` of a `MOVED` or `ASK` reply's details (`slot host:port`).
fn redirect(details: Option<&str>) -> Option<&str> {
    details?.split_ascii_whitespace().nth(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_redirect_names_its_node() {
        assert_eq!(
            redirect(Some("3999 127.0.0.1:6381")),
            Some("127.0.0.1:6381")
        );
        assert_eq!(redirect(Some("3999")), None);
        assert_eq!(redirect(None), None);
    }
}
