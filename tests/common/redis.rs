//! Real Redis servers for the tests: standalone, a cluster without
//! replicas, or one with replicas to kill a master and wait for the
//! failover; on free loopback ports, killed in `Drop` (also when an
//! assertion fails). Needs `redis-server` and `redis-cli` on PATH (CI
//! installs Debian's); without them the tests that use them fail.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Loads stay small: a few thousand INCRs per phase.
pub const OPS: u64 = 3_000;

/// Held while picking ports and until the servers on them are up, so two
/// tests running in parallel cannot pick the same free port.
static PORTS: Mutex<()> = Mutex::new(());

pub fn port_lock() -> MutexGuard<'static, ()> {
    PORTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub fn require(tool: &str) {
    let found = Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    assert!(
        matches!(found, Ok(s) if s.success()),
        "`{tool}` is not installed or not on PATH: these tests start real Redis servers; install it (Debian: apt-get install redis-server)"
    );
}

/// A loopback port that is free, and whose cluster bus port (+10000) is too.
pub fn free_port() -> u16 {
    for _ in 0..100 {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        if port <= 55_535 && TcpListener::bind(("127.0.0.1", port + 10_000)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port pair found");
}

pub fn redis_cli(port: u16, args: &[&str]) -> String {
    let out = Command::new("redis-cli")
        .args(["-h", "127.0.0.1", "-p", &port.to_string()])
        .args(args)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Servers that die with this value (children killed before the dir goes).
pub struct Servers {
    pub ports: Vec<u16>,
    pub children: Vec<Child>,
    pub dir: tempfile::TempDir,
    /// Declared last: released after the children are killed in `Drop`.
    _serial: Option<MutexGuard<'static, ()>>,
}

impl Drop for Servers {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// How [`Servers::start`] joins the nodes into a cluster.
struct ClusterSpec {
    /// Replicas per master (`--cluster-replicas`).
    replicas: usize,
    /// redis-server arguments added to every node's.
    args: Vec<String>,
}

impl Servers {
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.ports[0])
    }

    /// `n` standalone servers, or a cluster of `n` masters without replicas.
    pub fn spawn(n: usize, cluster: bool) -> Servers {
        let spec = cluster.then(|| ClusterSpec {
            replicas: 0,
            args: Vec::new(),
        });
        Servers::start(n, spec.as_ref())
    }

    /// A cluster of `masters` masters with `replicas` replicas each (at
    /// least 3 masters, as `redis-cli --cluster create` demands), every
    /// replica synced with its master, ready for failover tests: a replica
    /// may always take over (`--cluster-replica-validity-factor 0`), after
    /// `node_timeout_ms` without its master.
    pub fn spawn_cluster_with_replicas(
        masters: usize,
        replicas: usize,
        node_timeout_ms: u64,
    ) -> Servers {
        let args = [
            "--cluster-node-timeout",
            &node_timeout_ms.to_string(),
            "--cluster-replica-validity-factor",
            "0",
            "--repl-diskless-sync",
            "yes",
            "--repl-diskless-sync-delay",
            "0",
        ]
        .map(String::from)
        .to_vec();
        let spec = ClusterSpec { replicas, args };
        Servers::start(masters * (1 + replicas), Some(&spec))
    }

    fn start(n: usize, cluster: Option<&ClusterSpec>) -> Servers {
        require("redis-server");
        require("redis-cli");
        let mut s = {
            let _ports = port_lock();
            // A port found free can be taken before the server binds it (by
            // a server of another test running at the same time): try again
            // on new ports.
            (0..5)
                .find_map(|_| Servers::try_spawn(n, cluster))
                .expect("redis-server could not bind a free port in 5 attempts")
        };
        // Held by every Servers for its life, so the tests of one binary
        // that start servers (Redis or PostgreSQL) run one at a time: a
        // measurement of CPU or throughput must not share the 2 cores with
        // another test's load. Taken once the servers are up: idle servers
        // starting (a cluster's nodes wait 2 s before they take writes)
        // overlap the test that holds it.
        s._serial = Some(super::one_at_a_time());
        s
    }

    /// These servers without `common::one_at_a_time`, for a test that
    /// starts a [`super::postgres::Pg`] next, which takes it (the lock is
    /// not reentrant).
    #[allow(dead_code)]
    pub fn beside_postgres(mut self) -> Servers {
        self._serial = None;
        self
    }

    fn try_spawn(n: usize, cluster: Option<&ClusterSpec>) -> Option<Servers> {
        let mut s = Servers {
            ports: Vec::new(),
            children: Vec::new(),
            dir: tempfile::tempdir().unwrap(),
            _serial: None,
        };
        let dir = s.dir.path().to_path_buf();
        for _ in 0..n {
            let port = free_port();
            let mut cmd = Command::new("redis-server");
            cmd.args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ]);
            cmd.arg("--dir").arg(&dir);
            if let Some(spec) = cluster {
                cmd.args(["--cluster-enabled", "yes", "--cluster-config-file"]);
                cmd.arg(dir.join(format!("nodes-{port}.conf")));
                cmd.args(&spec.args);
            }
            let child = cmd
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn redis-server");
            s.ports.push(port);
            s.children.push(child);
        }
        for (c, &p) in s.children.iter_mut().zip(&s.ports) {
            wait_for(&format!("redis-server on port {p} answers PING"), || {
                !matches!(c.try_wait(), Ok(None)) || redis_cli(p, &["PING"]).contains("PONG")
            });
        }
        // A server that could not bind exits; then PONG came from someone else.
        if s.children
            .iter_mut()
            .any(|c| !matches!(c.try_wait(), Ok(None)))
        {
            return None;
        }
        if let Some(spec) = cluster {
            let addrs: Vec<String> = s.ports.iter().map(|p| format!("127.0.0.1:{p}")).collect();
            let out = Command::new("redis-cli")
                .arg("--cluster")
                .arg("create")
                .args(&addrs)
                .args(["--cluster-replicas", &spec.replicas.to_string()])
                .arg("--cluster-yes")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "redis-cli --cluster create failed: {}",
                String::from_utf8_lossy(&out.stdout)
            );
            for &p in &s.ports {
                wait_for(&format!("node {p} reports cluster_state:ok"), || {
                    redis_cli(p, &["CLUSTER", "INFO"]).contains("cluster_state:ok")
                });
            }
            if spec.replicas > 0 {
                let want = n / (1 + spec.replicas) * spec.replicas;
                wait_for(
                    &format!("{want} replicas report master_link_status:up"),
                    || {
                        let up = s.ports.iter().filter(|&&p| {
                            let info = redis_cli(p, &["INFO", "replication"]);
                            info.contains("role:slave") && info.contains("master_link_status:up")
                        });
                        up.count() == want
                    },
                );
            }
        }
        Some(s)
    }

    /// Whether child `index` still runs (a frozen one does); neither reaps
    /// it nor needs `&mut`.
    fn is_live(&self, index: usize) -> bool {
        let pid = self.children[index].id() as libc::pid_t;
        // SAFETY: a zeroed siginfo_t is valid; waitid only writes into it.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
            // -1 (ECHILD): already reaped, e.g. by `kill_node`; a si_pid:
            // exited, a zombie not yet reaped.
            libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) == 0
                && info.si_pid() == 0
        }
    }

    /// The ports of the servers still running.
    pub fn live_ports(&self) -> Vec<u16> {
        (0..self.ports.len())
            .filter(|&i| self.is_live(i))
            .map(|i| self.ports[i])
            .collect()
    }

    /// Kills server `index` with SIGKILL (no shutdown, no failover
    /// handshake) and reaps it.
    pub fn kill_node(&mut self, index: usize) {
        let c = &mut self.children[index];
        c.kill().unwrap();
        c.wait().unwrap();
    }

    /// The index (in `children` and `ports`) and port of the master of
    /// `key`'s slot, as the first live node sees it: until a failover
    /// completes, that can be a dead master.
    pub fn master_of_key(&self, key: &str) -> (usize, u16) {
        let live = self.live_ports();
        let port = live
            .iter()
            .find_map(|&p| master_on(p, key))
            .unwrap_or_else(|| panic!("no live node of {live:?} names the master of {key:?}"));
        let index = self.ports.iter().position(|&p| p == port);
        let index = index.unwrap_or_else(|| panic!("master {port} of {key:?} is not ours"));
        (index, port)
    }

    /// Waits (30 s at most) until, after the master on `killed_port` died,
    /// every live node reports `cluster_state:ok` and names the same
    /// master, another node, for `key`'s slot.
    pub fn wait_failover(&self, killed_port: u16, key: &str) {
        let what = format!("a replica replaces the master on port {killed_port} for {key:?}");
        wait_for_within(&what, Duration::from_secs(30), || {
            let live = self.live_ports();
            let ok = live
                .iter()
                .all(|&p| redis_cli(p, &["CLUSTER", "INFO"]).contains("cluster_state:ok"));
            let masters: Vec<Option<u16>> = live.iter().map(|&p| master_on(p, key)).collect();
            ok && !live.is_empty()
                && masters.iter().all(|&m| m.is_some() && m == masters[0])
                && masters[0] != Some(killed_port)
        });
    }
}

/// The port of the master of `key`'s slot as the node on `port` sees it
/// (`None` when it does not answer).
fn master_on(port: u16, key: &str) -> Option<u16> {
    let slot: u16 = redis_cli(port, &["CLUSTER", "KEYSLOT", key])
        .trim()
        .parse()
        .ok()?;
    // <id> <ip:port@cport[,hostname]> <flags> <master> <ping> <pong>
    // <epoch> <link> <slot or lo-hi>... ([..] entries: migrations)
    redis_cli(port, &["CLUSTER", "NODES"]).lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 9 || !f[2].split(',').any(|flag| flag == "master") {
            return None;
        }
        let holds = f[8..].iter().any(|r| match r.split_once('-') {
            _ if r.starts_with('[') => false,
            Some((lo, hi)) => {
                matches!((lo.parse::<u16>(), hi.parse::<u16>()), (Ok(lo), Ok(hi)) if (lo..=hi).contains(&slot))
            }
            None => r.parse() == Ok(slot),
        });
        let addr = f[1].split(['@', ',']).next()?;
        holds.then(|| addr.rsplit_once(':')?.1.parse().ok()).flatten()
    })
}

pub fn wait_for(what: &str, ok: impl FnMut() -> bool) {
    wait_for_within(what, Duration::from_secs(20), ok);
}

/// [`wait_for`] with another limit than 20 s.
pub fn wait_for_within(what: &str, limit: Duration, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !ok() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub fn keys_on(port: u16) -> String {
    redis_cli(port, &["--scan"])
}

/// Starts `shardplan measure ARGS --redis URL` with its output piped, to
/// act on the server while it runs.
pub fn spawn_measure(args: &[&str], url: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_shardplan"))
        .arg("measure")
        .args(args)
        .args(["--redis", url])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}
