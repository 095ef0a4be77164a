//! The machine a measurement ran on: the client's host, OS, CPU model and
//! logical CPU count, read from the local system, and the server's version
//! as the server reported it. A measured rate means little without them.

/// Where a measurement ran. Every figure is what the system reported; a
/// figure it did not report is `None` (never a guess).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Machine {
    /// The host `shardplan` ran on (the client; the server may be elsewhere).
    pub hostname: Option<String>,
    /// The operating system: `/etc/os-release`'s `PRETTY_NAME` and the
    /// kernel release on Linux, else Rust's name for the OS.
    pub os: String,
    /// The CPU model (`/proc/cpuinfo`'s `model name` on Linux).
    pub cpu_model: Option<String>,
    /// Logical CPUs this process may use.
    pub logical_cpus: u64,
    /// The server's version as it reports it (`SHOW server_version` for
    /// PostgreSQL); `None` when the run did not ask.
    pub server_version: Option<String>,
}

impl Machine {
    /// The local machine, with the server's version if known.
    pub fn here(server_version: Option<String>) -> Machine {
        Machine {
            hostname: read_trimmed("/proc/sys/kernel/hostname")
                .or_else(|| std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty())),
            os: os(),
            cpu_model: cpu_model(),
            logical_cpus: std::thread::available_parallelism()
                .map(|n| n.get() as u64)
                .unwrap_or(1),
            server_version,
        }
    }
}

fn read_trimmed(path: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn os() -> String {
    let pretty = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME="))
                .map(|v| v.trim_matches('"').to_string())
        });
    let kernel = read_trimmed("/proc/sys/kernel/osrelease");
    match (pretty, kernel) {
        (Some(p), Some(k)) => format!("{p} (kernel {k})"),
        (Some(p), None) => p,
        (None, Some(k)) => format!("{} (kernel {k})", std::env::consts::OS),
        (None, None) => std::env::consts::OS.to_string(),
    }
}

fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines().find_map(|l| {
        let (key, value) = l.split_once(':')?;
        (key.trim() == "model name").then(|| value.trim().to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_local_machine_is_described() {
        let m = Machine::here(Some("15.4".into()));
        assert!(m.logical_cpus >= 1);
        assert!(!m.os.is_empty());
        assert_eq!(m.server_version.as_deref(), Some("15.4"));
        if cfg!(target_os = "linux") {
            assert!(m.hostname.is_some(), "{m:?}");
        }
    }
}
