#!/usr/bin/env python3
"""Runs `shardplan simulate` and the Python references on issues 4 and 18's
cases, whole process, and prints a Markdown table (also written to
bench/results.md). Called by bench/compare.sh, which builds shardplan (and,
with --previous-rev, a previous release) and finds a Python with numpy;
standard library only, so it runs under any Python 3.9+.

Cases (--quick divides every simulated-seconds figure by 10):

  A    14,000 likes/s, 20 shards, 1,000,000 s, default sampler (the exact
       table): numpy wall / shardplan wall, target 60x
  A10  the same at 10,000,000 s: target 100x (numpy takes ~15-25 s a run)
  B    200,000 likes/s, 286 shards, 100,000 s: target 10x
  M    case A's size with --sampler multinomial --threads 1: numpy CPU /
       shardplan CPU, one core each (numpy is single threaded), target 1.5x
  MP   M with --traffic poisson (numpy_reference.py --traffic poisson:
       a Poisson(rate) count each second, then the multinomial split)
  C    the pure-Python loop, simulated seconds per wall second, target 1000x

Every case checks that the reference's p50/p99/p99.9 agree statistically with
shardplan's histogram; M's figures are also checked against A's (the
multinomial and the exact table sample the same law).

--previous BIN (or the environment variable SHARDPLAN_PREVIOUS): a previous
release build of shardplan. Every shardplan command is then also timed with
it, run for run interleaved with the current build (the order alternating
each round), so load on the machine hits both alike, and the table gets a
column "vs previous" = previous median / current median (above 1: the
current build is faster). bench/compare.sh --previous-rev REV builds one
automatically; by hand:

  git worktree add --detach /tmp/prev <rev>
  cargo build --release --manifest-path /tmp/prev/Cargo.toml --target-dir /tmp/prev-target
  bash bench/compare.sh --previous /tmp/prev-target/release/shardplan
  git worktree remove --force /tmp/prev && rm -rf /tmp/prev-target

Timing: hyperfine when installed (--shell=none, so no shell start-up is
counted), else a plain loop over subprocess with time.perf_counter; the
interleaved current/previous pairs always use the plain loop (hyperfine runs
one command's runs back to back). CPU is user + system of the process and
its children from wait4 (microseconds; GNU time's own share is about a
millisecond). Each command first runs once untimed-for-the-table to capture
its JSON figures and its peak resident memory (GNU time's %M, else wait4's
ru_maxrss), which also serves as the warm-up.
"""

import argparse
import datetime
import functools
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# numpy on this kind of machine may see OpenBLAS tuning variables meant for
# another CPU; the references run without them.
NUMPY_ENV_DROP = ["OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"]


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "n/a"


GNU_TIME = "/usr/bin/time"


@functools.lru_cache(maxsize=None)
def has_gnu_time():
    try:
        r = subprocess.run([GNU_TIME, "-f", "%M", "true"], capture_output=True, text=True)
    except OSError:
        return False
    return r.returncode == 0 and r.stderr.strip().isdigit()


def run_measured(cmd, env=None):
    """Runs cmd once: stdout, wall s, the child's CPU s and peak RSS in KiB.

    Peak RSS comes from GNU time's %M when installed (Debian: the `time`
    package). Without it, from wait4's ru_maxrss, which on Linux also counts
    the forked Python image before exec, so small figures read high. CPU
    always comes from wait4 (user + system, the waited-for process and its
    children): GNU time prints it only to 10 ms.
    """
    gnu = has_gnu_time()
    with tempfile.TemporaryFile() as out_f, tempfile.TemporaryFile() as err_f, \
            tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        full = [GNU_TIME, "-f", "%M", "-o", tf.name, *cmd] if gnu else cmd
        start = time.perf_counter()
        proc = subprocess.Popen(full, stdout=out_f, stderr=err_f, env=env)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out_f.seek(0)
        err_f.seek(0)
        out, err = out_f.read(), err_f.read()
        if proc.returncode != 0:
            sys.stderr.write(err.decode(errors="replace"))
            raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)}")
        cpu = ru.ru_utime + ru.ru_stime
        rss_kib = int(tf.read().split()[-1]) if gnu else ru.ru_maxrss
    return {"stdout": out, "wall": wall, "cpu": cpu, "rss_kib": rss_kib,
            "rss_how": "GNU time %M" if gnu else "wait4 ru_maxrss"}


def rank_interval(bins, q, n_ref, z=4.0):
    """Values of shardplan's histogram at shares q -/+ z * se, where
    se = sqrt(q (1 - q) (1/n + 1/n_ref)).

    The share of seconds at or below an empirical q-quantile of n seconds
    is Beta-distributed around q with variance about q (1 - q) / n (order
    statistics, e.g. David & Nagaraja 2003, section 2.2); two independent
    estimates add their variances. z = 4: a false "no" has odds of about
    1 in 16,000 per quantile. Distribution-free, so no model assumption.
    """
    n = sum(b["count"] for b in bins)
    se = math.sqrt(q * (1 - q) * (1 / n + 1 / n_ref))
    targets = [max(1, math.ceil((q - z * se) * n)), min(n, math.ceil((q + z * se) * n))]
    out, cum = [], 0
    for b in bins:
        cum += b["count"]
        while targets and cum >= targets[0]:
            out.append(b["value"])
            targets.pop(0)
    return out[0], out[1]


def quantiles_agree(spj, refj):
    """(all agree, text): the reference's p50/p99/p99.9 inside the
    interval around shardplan's."""
    bins = spj.get("busiest_histogram")
    if not bins:
        return False, "no histogram in shardplan's JSON"
    parts, ok = [], True
    for q, k, label in [(0.5, "busiest_p50", "p50"), (0.99, "busiest_p99", "p99"),
                        (0.999, "busiest_p999", "p99.9")]:
        lo, hi = rank_interval(bins, q, refj["seconds"])
        inside = lo <= refj[k] <= hi
        ok &= inside
        parts.append(f"{label} {refj[k]} in [{lo}, {hi}]" + ("" if inside else " NO"))
    return ok, "; ".join(parts)


def numpy_env():
    env = dict(os.environ)
    for k in NUMPY_ENV_DROP:
        env.pop(k, None)
    return env


USE_HYPERFINE = True


def summarise(times, cpu, runs, how):
    return {"min": min(times), "median": statistics.median(times), "cpu": cpu,
            "runs": runs, "how": how, "times": times}


def time_runs(cmd, runs, env=None):
    """Wall and CPU seconds of `runs` runs: dict with min, median, cpu."""
    if USE_HYPERFINE and shutil.which("hyperfine"):
        with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
            hf = ["hyperfine", "--shell=none", "--style", "none", "--runs", str(runs),
                  "--export-json", tmp.name, "--", subprocess.list2cmdline(cmd)]
            subprocess.run(hf, check=True, env=env, stdout=subprocess.DEVNULL)
            r = json.load(open(tmp.name))["results"][0]
        # hyperfine's user/system are means over the runs.
        return summarise(r["times"], r["user"] + r["system"], runs, "hyperfine")
    stats, = time_interleaved([cmd], runs, env)
    return stats


def time_interleaved(cmds, runs, env=None):
    """Times every command `runs` times round-robin with the plain loop: one
    run of each per round, the order rotating each round, so a change in the
    machine's load falls on all of them alike. One stats dict per command
    (CPU: the median run's)."""
    times = [[] for _ in cmds]
    cpus = [[] for _ in cmds]
    for i in range(runs):
        k = i % len(cmds)
        for j in list(range(k, len(cmds))) + list(range(k)):
            m = run_measured(cmds[j], env)
            times[j].append(m["wall"])
            cpus[j].append(m["cpu"])
    how = "subprocess loop" + (", interleaved" if len(cmds) > 1 else "")
    return [summarise(t, statistics.median(c), runs, how) for t, c in zip(times, cpus)]


def fig(d, k):
    v = d.get(k)
    return "?" if v is None else str(v)


def num(x):
    """1.5 -> '1.5', 60 -> '60', 1000 -> '1,000'."""
    return f"{x:,g}"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shardplan", required=True, help="path to the release binary")
    p.add_argument("--previous", default=os.environ.get("SHARDPLAN_PREVIOUS") or None,
                   metavar="BIN",
                   help="a previous release build of shardplan, timed interleaved with "
                        "--shardplan on every shardplan command (default: $SHARDPLAN_PREVIOUS)")
    p.add_argument("--previous-revision", default="",
                   help="the previous build's source revision, for the report")
    p.add_argument("--python", default=sys.executable, help="Python with numpy")
    p.add_argument("--runs", type=int, default=3, help="timed runs per command (default 3)")
    p.add_argument("--quick", action="store_true",
                   help="10x fewer simulated seconds everywhere (a smoke run)")
    p.add_argument("--loop-seconds", type=int, default=200,
                   help="simulated seconds for the pure-Python loop (default 200)")
    p.add_argument("--no-hyperfine", action="store_true",
                   help="time with the plain loop even when hyperfine is installed")
    p.add_argument("--revision", default="", help="source revision, for the report")
    p.add_argument("--out", default=os.path.join(here, "results.md"))
    a = p.parse_args()
    if a.runs < 1:
        raise SystemExit("--runs must be at least 1")
    global USE_HYPERFINE
    USE_HYPERFINE = not a.no_hyperfine

    scale = 10 if a.quick else 1
    sp = os.path.abspath(a.shardplan)
    prev = os.path.abspath(a.previous) if a.previous else None
    if prev and not (os.path.isfile(prev) and os.access(prev, os.X_OK)):
        raise SystemExit(f"--previous: no executable at {prev}")
    py = a.python
    seed = 1
    mult = ["--sampler", "multinomial", "--threads", "1"]
    poisson = ["--traffic", "poisson"]
    # name, rate, shards, seconds, shardplan's extra flags, the reference's
    # extra flags, label suffix, ratio basis, target
    cases = [
        ("A", 14_000, 20, 1_000_000 // scale, [], [], "", "wall", 60.0),
        ("A10", 14_000, 20, 10_000_000 // scale, [], [], "", "wall", 100.0),
        ("B", 200_000, 286, 100_000 // scale, [], [], "", "wall", 10.0),
        ("M", 14_000, 20, 1_000_000 // scale, mult, [], ", multinomial, 1 thread",
         "cpu", 1.5),
        ("MP", 14_000, 20, 1_000_000 // scale, poisson + mult, poisson,
         ", Poisson traffic, multinomial, 1 thread", "cpu", 1.5),
    ]

    def sp_cmd(rate, shards, seconds, extra=(), binary=None):
        return [binary or sp, "simulate", "--rate", str(rate), "--shards", str(shards),
                "--seconds", str(seconds), "--seed", str(seed), "--format", "json", *extra]

    def np_cmd(rate, shards, seconds, extra=()):
        return [py, os.path.join(here, "numpy_reference.py"), "--rate", str(rate),
                "--shards", str(shards), "--seconds", str(seconds), "--seed", str(seed),
                *extra]

    def time_sp(cmd):
        """(current stats, previous stats or None, previous's warm-up run or
        None). The current build's warm-up is the caller's run_measured."""
        if not prev:
            return time_runs(cmd, a.runs), None, None
        pcmd = [prev, *cmd[1:]]
        pm = run_measured(pcmd)
        cur, old = time_interleaved([cmd, pcmd], a.runs)
        return cur, old, pm

    log = lambda msg: print(f"[{time.strftime('%H:%M:%S')}] {msg} (load {loadavg()})",
                            file=sys.stderr, flush=True)
    loads = [loadavg()]
    rows = []
    by_name = {}
    for name, rate, shards, seconds, sp_extra, np_extra, suffix, basis, target in cases:
        log(f"case {name}: {rate} likes/s x {shards} shards x {seconds} s"
            f"{' ' + ' '.join(sp_extra) if sp_extra else ''}")
        cmd = sp_cmd(rate, shards, seconds, sp_extra)
        ncmd = np_cmd(rate, shards, seconds, np_extra)
        spm = run_measured(cmd)
        npm = run_measured(ncmd, numpy_env())
        spt, prt, prm = time_sp(cmd)
        npt = time_runs(ncmd, a.runs, numpy_env())
        loads.append(loadavg())
        spj, npj = json.loads(spm["stdout"]), json.loads(npm["stdout"])
        ratio_wall = npt["median"] / spt["median"]
        ratio_cpu = npt["cpu"] / spt["cpu"] if spt["cpu"] > 0 else float("nan")
        row = {
            "name": name,
            "case": f"{name}: {rate:,} likes/s, {shards} shards, {seconds:,} s{suffix}",
            "cmd": " ".join(cmd[1:]), "seconds": seconds,
            "sp": spt, "ref": npt, "ref_name": "numpy", "spj": spj, "refj": npj,
            "sp_rss": spm["rss_kib"], "sp_wall1": spm["wall"], "rss_how": spm["rss_how"],
            "ref_rss": npm["rss_kib"],
            "basis": basis, "ratio": ratio_cpu if basis == "cpu" else ratio_wall,
            "ratio_wall": ratio_wall, "ratio_cpu": ratio_cpu, "target": target,
            "prev": prt,
            "prevj": json.loads(prm["stdout"]) if prm else None,
            "prev_rss": prm["rss_kib"] if prm else None,
        }
        rows.append(row)
        by_name[name] = row

    log(f"pure-Python loop: 14000 likes/s x 20 shards x {a.loop_seconds} s")
    loop_cmd = [py, os.path.join(here, "python_loop.py"), "--rate", "14000", "--shards",
                "20", "--seconds", str(a.loop_seconds), "--seed", str(seed)]
    lpm = run_measured(loop_cmd)
    lpt = time_runs(loop_cmd, a.runs)
    loads.append(loadavg())
    lpj = json.loads(lpm["stdout"])
    ra = by_name["A"]
    spt, sp_seconds = ra["sp"], ra["seconds"]
    sp_rate = sp_seconds / spt["median"]
    loop_rate = a.loop_seconds / lpt["median"]
    rows.append({
        "name": "C",
        "case": f"C: 14,000 likes/s, 20 shards; loop {a.loop_seconds:,} s vs shardplan "
                f"{sp_seconds:,} s (simulated s per wall s)",
        "cmd": " ".join(loop_cmd[1:]),
        "sp": spt, "ref": lpt, "ref_name": "python loop", "spj": ra["spj"], "refj": lpj,
        "sp_rss": ra["sp_rss"], "ref_rss": lpm["rss_kib"],
        "basis": "wall", "ratio": sp_rate / loop_rate,
        "ratio_cpu": (sp_seconds / spt["cpu"]) / (a.loop_seconds / lpt["cpu"]),
        "target": 1000.0, "sp_rate": sp_rate, "loop_rate": loop_rate,
        "prev": ra["prev"], "prevj": None,
    })

    log("threads: --threads 1 vs --threads 2, byte-identical output")
    rate, shards, seconds = 14_000, 20, 1_000_000 // scale
    t1 = run_measured(sp_cmd(rate, shards, seconds, ["--threads", "1"]))
    t2 = run_measured(sp_cmd(rate, shards, seconds, ["--threads", "2"]))
    identical = t1["stdout"] == t2["stdout"]
    t1t, t1p, _ = time_sp(sp_cmd(rate, shards, seconds, ["--threads", "1"]))
    t2t, t2p, _ = time_sp(sp_cmd(rate, shards, seconds, ["--threads", "2"]))
    loads.append(loadavg())

    # ---- the report ----
    def mb(kib):
        return f"{kib / 1024:.1f}"

    def run_out(cmd):
        return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()

    sp_how, ref_how = rows[0]["sp"]["how"], rows[0]["ref"]["how"]
    if prev:
        how = (f"shardplan timed by subprocess loop, run for run interleaved with the previous "
               f"build; the references by {ref_how}")
    else:
        how = f"timing by {sp_how}"
    lines = []
    lines.append(f"Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on "
                 f"{platform.node() or 'this machine'}; {os.cpu_count()} logical CPUs; "
                 f"{how}, {a.runs} runs per command; "
                 f"load average (1/5/15 min) during the run: {', '.join(loads)}.")
    lines.append("")
    lines.append("Times are whole-process wall clock, median of the runs (min in brackets); "
                 "CPU is user + system. Ratio = reference median / shardplan median "
                 "(case C: simulated seconds per wall second, shardplan / loop; cases M and MP: "
                 "reference CPU / shardplan CPU, one core each, as numpy is single threaded "
                 "and shardplan runs --threads 1)."
                 + (" vs previous = the previous build's median / this build's median, the "
                    "two timed run for run interleaved (above 1: this build is faster)."
                    if prev else ""))
    lines.append("")
    prev_h, prev_sep = (" vs previous |", "---|") if prev else ("", "")
    lines.append("| case | shardplan s | reference s | ratio (target) | met | CPU ratio |"
                 + prev_h +
                 " busiest max | p50 | p99 | p99.9 | quantiles agree | seconds over cap "
                 "| peak RSS MB |")
    lines.append("|---|---|---|---|---|---|" + prev_sep + "---|---|---|---|---|---|---|")
    agree_notes, all_agree = [], True
    for r in rows:
        s, f = r["spj"], r["refj"]
        agree, note = quantiles_agree(s, f)
        all_agree &= agree
        agree_notes.append(f"{r['name']} ({r['ref_name']}): {note}")
        pair = lambda k: f"{fig(s, k)} / {fig(f, k)}"
        vs_prev = ""
        if prev:
            vs_prev = f" {r['prev']['median'] / r['sp']['median']:.2f}x |"
        basis = " CPU" if r["basis"] == "cpu" else ""
        lines.append(
            f"| {r['case']} | {r['sp']['median']:.3f} ({r['sp']['min']:.3f}) "
            f"| {r['ref_name']} {r['ref']['median']:.3f} ({r['ref']['min']:.3f}) "
            f"| {r['ratio']:.1f}x{basis} ({num(r['target'])}x) "
            f"| {'yes' if r['ratio'] >= r['target'] else 'NO'} | {r['ratio_cpu']:.1f}x |"
            + vs_prev +
            f" {pair('busiest_max')} | {pair('busiest_p50')} | {pair('busiest_p99')} "
            f"| {pair('busiest_p999')} | {'yes' if agree else 'NO'} | {pair('seconds_over_cap')} "
            f"| {mb(r['sp_rss'])} / {mb(r['ref_rss'])} |")
    # The multinomial and the exact table sample the same law: M's figures
    # against A's (same size and seed, different samplers and draws).
    m_ok, m_note = quantiles_agree(by_name["M"]["spj"], by_name["A"]["spj"])
    all_agree &= m_ok
    agree_notes.append(f"M against A (shardplan's multinomial vs its exact table, A's "
                       f"figures in M's histogram): {m_note}")
    if prev:
        for r in rows:
            if r.get("prevj") is None:
                continue
            ok, note = quantiles_agree(r["spj"], r["prevj"])
            all_agree &= ok
            agree_notes.append(f"{r['name']} (previous build's figures in this build's "
                               f"histogram): {note}")
    lines.append("")
    lines.append("Figures are shardplan / reference. The streams differ (xoshiro256++ vs "
                 "PCG64 / Mersenne Twister), so they agree statistically, not digit for digit; "
                 "the pure-Python loop covers far fewer seconds, so its tail figures are rougher.")
    lines.append("")
    lines.append("Quantiles agree when the reference's value lies in shardplan's histogram "
                 "at q -/+ 4 standard errors of the share (distribution-free; both runs' "
                 "sizes counted):")
    lines.append("")
    for n in agree_notes:
        lines.append(f"- {n}")
    lines.append("")
    c = rows[-1]
    lines.append(f"- Case C rates: shardplan {c['sp_rate']:,.0f} simulated s per wall s, "
                 f"pure-Python loop {c['loop_rate']:,.1f}.")
    mm = [by_name[k] for k in ("M", "MP")]
    lines.append("- Cases M and MP by wall clock: "
                 + "; ".join(f"{r['name']} {r['ratio_wall']:.1f}x (CPU s: shardplan "
                             f"{r['sp']['cpu']:.3f}, numpy {r['ref']['cpu']:.3f})" for r in mm)
                 + ".")
    thr = (f"- Threads (case A size): --threads 1 {t1t['median']:.3f} s "
           f"(min {t1t['min']:.3f}), --threads 2 {t2t['median']:.3f} s "
           f"(min {t2t['min']:.3f}); speed-up {t1t['median'] / t2t['median']:.2f}x; "
           f"output byte-identical: {'yes' if identical else 'NO'}")
    if prev:
        thr += (f"; previous build: --threads 1 {t1p['median']:.3f} s "
                f"({t1p['median'] / t1t['median']:.2f}x), --threads 2 {t2p['median']:.3f} s "
                f"({t2p['median'] / t2t['median']:.2f}x)")
    lines.append(thr + ".")
    big = by_name["A10"]
    rss_line = (f"- Peak RSS of shardplan: {mb(rows[0]['sp_rss'])} MB at "
                f"{rows[0]['seconds']:,} simulated s, {mb(big['sp_rss'])} MB at "
                f"{big['seconds']:,} s (target under 64 MB: "
                f"{'met' if big['sp_rss'] < 64 * 1024 else 'NOT met'}); that run took "
                f"{big['sp_wall1']:.3f} s wall; RSS by {big['rss_how']}")
    if prev:
        rss_line += f"; previous build {mb(big['prev_rss'])} MB at {big['seconds']:,} s"
    lines.append(rss_line + ".")
    lines.append(f"- Versions: {a.revision + ' ' if a.revision else ''}{run_out([sp, '--version'])}, "
                 + (f"previous {a.previous_revision + ' ' if a.previous_revision else ''}"
                    f"{run_out([prev, '--version'])}, " if prev else "")
                 + f"numpy {rows[0]['refj'].get('numpy_version', '?')}, "
                 f"Python {run_out([py, '-c', 'import platform; print(platform.python_version())'])}.")
    lines.append("")
    lines.append("Commands (shardplan; the numpy reference takes the same --rate, --shards, "
                 "--seconds, --seed and --traffic):")
    lines.append("")
    for r in rows[:-1]:
        lines.append(f"    shardplan {r['cmd']}")
    lines.append(f"    python3 bench/{os.path.basename(loop_cmd[1])} {' '.join(loop_cmd[2:])}")
    lines.append("")
    text = "\n".join(lines)
    print(text)
    with open(a.out, "w") as f:
        f.write(text)
    print(f"(written to {a.out})", file=sys.stderr)
    ok = identical and all_agree
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
