//! Real Redis servers for the tests: standalone or a cluster without
//! replicas, on free loopback ports, killed in `Drop` (also when an
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

impl Servers {
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.ports[0])
    }

    pub fn spawn(n: usize, cluster: bool) -> Servers {
        require("redis-server");
        require("redis-cli");
        // Held by every Servers for its life, so the tests of one binary
        // that start servers (Redis or PostgreSQL) run one at a time: a
        // measurement of CPU or throughput must not share the 2 cores with
        // another test's load.
        let serial = super::one_at_a_time();
        let _ports = port_lock();
        // A port found free can be taken before the server binds it (by a
        // server of another test file running at the same time): try again
        // on new ports.
        for _ in 0..5 {
            if let Some(mut s) = Servers::try_spawn(n, cluster) {
                s._serial = Some(serial);
                return s;
            }
        }
        panic!("redis-server could not bind a free port in 5 attempts");
    }

    fn try_spawn(n: usize, cluster: bool) -> Option<Servers> {
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
            if cluster {
                cmd.args(["--cluster-enabled", "yes", "--cluster-config-file"]);
                cmd.arg(dir.join(format!("nodes-{port}.conf")));
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
        if cluster {
            let addrs: Vec<String> = s.ports.iter().map(|p| format!("127.0.0.1:{p}")).collect();
            let out = Command::new("redis-cli")
                .arg("--cluster")
                .arg("create")
                .args(&addrs)
                .args(["--cluster-replicas", "0", "--cluster-yes"])
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
        }
        Some(s)
    }
}

pub fn wait_for(what: &str, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
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
