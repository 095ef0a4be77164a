//! A real PostgreSQL for the tests: a cluster made once with `initdb` and
//! copied into a temporary directory owned by the `postgres` user (initdb
//! and the server refuse root; as root the tools run through `runuser -u
//! postgres`), started with `pg_ctl` on a free loopback port and stopped
//! in `Drop` (also when an assertion fails). The binaries are looked for
//! on PATH, then in Debian's `/usr/lib/postgresql/<version>/bin`; without
//! them the tests FAIL (CI installs them), they do not skip.
//!
//! TCP logins need the password [`PASSWORD`] (scram-sha-256). A [`Pg`]
//! holds `common::one_at_a_time` from the moment its server is up, so two
//! tests never load the machine at once (the lock the Redis servers take
//! too: both are in `tests/servers/`).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The superuser's password (TCP logins need it).
pub const PASSWORD: &str = "pg-s3cr3t-9f2c";

/// Where `tool` is: on PATH, else the newest Debian version directory.
pub fn find_tool(tool: &str) -> PathBuf {
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let p = dir.join(tool);
            if p.is_file() {
                return p;
            }
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse::<u32>().ok()?;
            Some((v, e.path().join("bin").join(tool)))
        })
        .filter(|(_, p)| p.is_file())
        .collect();
    versions.sort();
    match versions.pop() {
        Some((_, p)) => p,
        None => panic!(
            "`{tool}` not found on PATH nor in /usr/lib/postgresql/<version>/bin: these tests start a real \
             PostgreSQL; install it (Debian: apt-get install postgresql; .ci/run does)"
        ),
    }
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// `tool args` as the postgres user when we are root.
fn as_postgres(tool: &Path, args: &[&str]) -> Command {
    let mut cmd = if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(tool);
        c
    } else {
        Command::new(tool)
    };
    cmd.args(args);
    cmd
}

fn run_ok(what: &str, mut cmd: Command) -> Output {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A running server, stopped (immediately) and deleted when dropped.
pub struct Pg {
    pub port: u16,
    pub dir: tempfile::TempDir,
    pg_ctl: PathBuf,
    /// `common::one_at_a_time`, taken once the server is up and declared
    /// last: released after `Drop` stopped the server.
    _serial: std::sync::MutexGuard<'static, ()>,
}

impl Pg {
    pub fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// The URL without a password (give it in PGPASSWORD).
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// The URL with the password in it.
    pub fn url_with_password(&self) -> String {
        format!(
            "postgres://postgres:{PASSWORD}@127.0.0.1:{}/postgres",
            self.port
        )
    }

    /// A client of our own, to look at the server.
    pub fn client(&self) -> postgres::Client {
        postgres::Client::connect(&self.url_with_password(), postgres::NoTls).unwrap()
    }

    /// The schemas whose name starts with `prefix`.
    pub fn schemas(&self, prefix: &str) -> Vec<String> {
        self.client()
            .query(
                "SELECT nspname::text FROM pg_namespace WHERE starts_with(nspname::text, $1) ORDER BY 1",
                &[&prefix],
            )
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect()
    }

    /// Wait (at most 30 s) until `clients` load connections of a run
    /// (`application_name` `shardplan-<8 hex>`, not its admin or monitor)
    /// are connected, then a little more so they are writing: a run's
    /// first design is under way, whatever the machine's load.
    pub fn wait_for_load(&self, clients: i64) {
        let mut client = self.client();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let n: i64 = client
                .query_one(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name ~ '^shardplan-[0-9a-f]{8}$'",
                    &[],
                )
                .unwrap()
                .get(0);
            if n >= clients {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the run's {clients} load connections did not appear within 30 s"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
    }

    /// Kill the server the way a crash does (`pg_ctl stop -m immediate`).
    pub fn kill(&self) {
        let data = self.data();
        run_ok(
            "pg_ctl stop",
            as_postgres(
                &self.pg_ctl,
                &[
                    "stop",
                    "-m",
                    "immediate",
                    "-w",
                    "-D",
                    data.to_str().unwrap(),
                ],
            ),
        );
    }

    /// A shell command that crashes the server (`pg_ctl stop -m
    /// immediate`) and starts it again on the same port, as `--fault-command`
    /// runs it.
    pub fn crash_and_restart_command(&self) -> String {
        let data = self.data();
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("log");
        let pg_ctl = self.pg_ctl.display();
        let inner = format!(
            "{pg_ctl} stop -m immediate -w -D {data} && {pg_ctl} start -w -t 30 -D {data} -l {log} -o '{options}'",
            data = data.display(),
            log = log.display()
        );
        if is_root() {
            format!("runuser -u postgres -- sh -c \"{inner}\" >/dev/null")
        } else {
            format!("sh -c \"{inner}\" >/dev/null")
        }
    }

    pub fn start() -> Pg {
        let pg_ctl = find_tool("pg_ctl");
        let dir = tempfile::tempdir().unwrap();
        if is_root() {
            chown_to_postgres(dir.path());
        }
        let data = dir.path().join("data");
        // A copy of the cluster `initdb` made once: a third of initdb's time.
        run_ok("cp -a template", {
            let mut c = Command::new("cp");
            c.arg("-a").arg(template()).arg(&data);
            c
        });
        // A port found free can be taken before the server binds it: try again.
        for _ in 0..5 {
            let port = TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            let options = format!(
                "-p {port} -k {} -c listen_addresses=127.0.0.1",
                dir.path().display()
            );
            let log = dir.path().join("log");
            let started = as_postgres(
                &pg_ctl,
                &[
                    "start",
                    "-w",
                    "-t",
                    "30",
                    "-D",
                    data.to_str().unwrap(),
                    "-l",
                    log.to_str().unwrap(),
                    "-o",
                    &options,
                ],
            )
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
            if started.success() {
                // The test runs alone from here (a server starting overlaps
                // the test before it).
                let _serial = super::one_at_a_time();
                return Pg {
                    port,
                    dir,
                    pg_ctl,
                    _serial,
                };
            }
        }
        panic!(
            "pg_ctl could not start PostgreSQL on a free port in 5 attempts: {}",
            std::fs::read_to_string(dir.path().join("log")).unwrap_or_default()
        );
    }
}

fn chown_to_postgres(path: &Path) {
    run_ok("chown postgres", {
        let mut c = Command::new("chown");
        c.arg("postgres:postgres").arg(path);
        c
    });
}

/// What the template is made with: a new name for a new recipe (the
/// `initdb` flags below or [`PASSWORD`]), so an old template is not reused.
const TEMPLATE_RECIPE: &str = "scram1";

/// A data directory made once by `initdb` (superuser `postgres` with
/// [`PASSWORD`], trust on the socket, scram-sha-256 over TCP), under the
/// target's directory for integration tests and named for `initdb
/// --version` and [`TEMPLATE_RECIPE`], then copied by every [`Pg::start`].
/// Staged in a scratch directory and renamed into place, so a run killed
/// half way leaves no half template.
fn template() -> PathBuf {
    static TEMPLATE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    TEMPLATE
        .get_or_init(|| {
            let initdb = find_tool("initdb");
            let version = run_ok("initdb --version", {
                let mut c = Command::new(&initdb);
                c.arg("--version");
                c
            });
            let version: String = String::from_utf8_lossy(&version.stdout)
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '.')
                .collect();
            let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
            let done = root.join(format!("pg-template-{version}-{TEMPLATE_RECIPE}"));
            if done.join("PG_VERSION").is_file() {
                return done;
            }
            // initdb runs in the system's temporary directory, which the
            // postgres user can reach (the target's may sit under /root).
            let scratch = tempfile::tempdir().unwrap();
            if is_root() {
                chown_to_postgres(scratch.path());
            }
            let pwfile = scratch.path().join("pw");
            std::fs::write(&pwfile, PASSWORD).unwrap();
            if is_root() {
                chown_to_postgres(&pwfile);
            }
            let data = scratch.path().join("data");
            run_ok(
                "initdb",
                as_postgres(
                    &initdb,
                    &[
                        "-D",
                        data.to_str().unwrap(),
                        "-U",
                        "postgres",
                        "--auth-local=trust",
                        "--auth-host=scram-sha-256",
                        &format!("--pwfile={}", pwfile.display()),
                        "--no-sync",
                        "-E",
                        "UTF8",
                    ],
                ),
            );
            let staged = tempfile::tempdir_in(root).unwrap();
            run_ok("cp -a data", {
                let mut c = Command::new("cp");
                c.arg("-a").arg(&data).arg(staged.path());
                c
            });
            // Another test binary may have renamed its own first: either is
            // the same template.
            let _ = std::fs::rename(staged.path().join("data"), &done);
            done
        })
        .clone()
}

impl Drop for Pg {
    fn drop(&mut self) {
        let data = self.data();
        let _ = as_postgres(
            &self.pg_ctl,
            &[
                "stop",
                "-m",
                "immediate",
                "-w",
                "-D",
                data.to_str().unwrap(),
            ],
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    }
}
