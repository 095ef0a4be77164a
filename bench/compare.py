#!/usr/bin/env python3
"""Runs `shardplan simulate` and the Python references on issue 4's cases,
whole process, wall clock, and prints a Markdown table (also written to
bench/results.md). Called by bench/compare.sh, which builds shardplan and
finds a Python with numpy; standard library only, so it runs under any
Python 3.9+.

Timing: hyperfine when installed (--shell=none, so no shell start-up is
counted), else a plain loop over subprocess with time.perf_counter. Each
command first runs once untimed-for-the-table to capture its JSON figures
and its peak resident memory, (ru_maxrss from wait4, the figure GNU time's
%M prints), which also serves as the warm-up.
"""

import argparse
import datetime
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
    the forked Python image before exec, so small figures read high.
    """
    gnu = has_gnu_time()
    with tempfile.TemporaryFile() as out_f, tempfile.TemporaryFile() as err_f, \
            tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        full = [GNU_TIME, "-f", "%M %U %S", "-o", tf.name, *cmd] if gnu else cmd
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
        if gnu:
            rss, user, system = tf.read().split()[-3:]
            rss_kib, cpu = int(rss), float(user) + float(system)
        else:
            rss_kib, cpu = ru.ru_maxrss, ru.ru_utime + ru.ru_stime
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


def time_runs(cmd, runs, env=None):
    """Wall and CPU seconds of `runs` runs: dict with min, median, cpu."""
    if USE_HYPERFINE and shutil.which("hyperfine"):
        with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
            hf = ["hyperfine", "--shell=none", "--style", "none", "--runs", str(runs),
                  "--export-json", tmp.name, "--", subprocess.list2cmdline(cmd)]
            subprocess.run(hf, check=True, env=env, stdout=subprocess.DEVNULL)
            r = json.load(open(tmp.name))["results"][0]
        times = r["times"]
        # hyperfine's user/system are means over the runs.
        cpu = r["user"] + r["system"]
        how = "hyperfine"
    else:
        times, cpus = [], []
        for _ in range(runs):
            m = run_measured(cmd, env)
            times.append(m["wall"])
            cpus.append(m["cpu"])
        cpu = statistics.median(cpus)
        how = "subprocess loop"
    return {"min": min(times), "median": statistics.median(times), "cpu": cpu,
            "runs": runs, "how": how, "times": times}


def fig(d, k):
    v = d.get(k)
    return "?" if v is None else str(v)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shardplan", required=True, help="path to the release binary")
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
    py = a.python
    seed = 1
    cases = [
        ("A", 14_000, 20, 1_000_000 // scale),
        ("B", 200_000, 286, 100_000 // scale),
    ]

    def sp_cmd(rate, shards, seconds, threads=None):
        c = [sp, "simulate", "--rate", str(rate), "--shards", str(shards),
             "--seconds", str(seconds), "--seed", str(seed), "--format", "json"]
        if threads is not None:
            c += ["--threads", str(threads)]
        return c

    def np_cmd(rate, shards, seconds):
        return [py, os.path.join(here, "numpy_reference.py"), "--rate", str(rate),
                "--shards", str(shards), "--seconds", str(seconds), "--seed", str(seed)]

    log = lambda msg: print(f"[{time.strftime('%H:%M:%S')}] {msg} (load {loadavg()})",
                            file=sys.stderr, flush=True)
    loads = [loadavg()]
    rows = []
    sp_a = None
    for name, rate, shards, seconds in cases:
        log(f"case {name}: {rate} likes/s x {shards} shards x {seconds} s")
        spm = run_measured(sp_cmd(rate, shards, seconds))
        npm = run_measured(np_cmd(rate, shards, seconds), numpy_env())
        spt = time_runs(sp_cmd(rate, shards, seconds), a.runs)
        npt = time_runs(np_cmd(rate, shards, seconds), a.runs, numpy_env())
        loads.append(loadavg())
        spj, npj = json.loads(spm["stdout"]), json.loads(npm["stdout"])
        rows.append({
            "case": f"{name}: {rate:,} likes/s, {shards} shards, {seconds:,} s",
            "cmd": " ".join(sp_cmd(rate, shards, seconds)[1:]),
            "sp": spt, "ref": npt, "ref_name": "numpy", "spj": spj, "refj": npj,
            "sp_rss": spm["rss_kib"], "ref_rss": npm["rss_kib"],
            "ratio": npt["median"] / spt["median"],
            "ratio_cpu": npt["cpu"] / spt["cpu"] if spt["cpu"] > 0 else float("nan"),
            "target": 10.0,
        })
        if name == "A":
            sp_a = (spt, seconds)

    log(f"pure-Python loop: 14000 likes/s x 20 shards x {a.loop_seconds} s")
    loop_cmd = [py, os.path.join(here, "python_loop.py"), "--rate", "14000", "--shards",
                "20", "--seconds", str(a.loop_seconds), "--seed", str(seed)]
    lpm = run_measured(loop_cmd)
    lpt = time_runs(loop_cmd, a.runs)
    loads.append(loadavg())
    lpj = json.loads(lpm["stdout"])
    spt, sp_seconds = sp_a
    sp_rate = sp_seconds / spt["median"]
    loop_rate = a.loop_seconds / lpt["median"]
    rows.append({
        "case": f"C: 14,000 likes/s, 20 shards; loop {a.loop_seconds:,} s vs shardplan "
                f"{sp_seconds:,} s (simulated s per wall s)",
        "cmd": " ".join(loop_cmd[1:]),
        "sp": spt, "ref": lpt, "ref_name": "python loop", "spj": rows[0]["spj"], "refj": lpj,
        "sp_rss": rows[0]["sp_rss"], "ref_rss": lpm["rss_kib"],
        "ratio": sp_rate / loop_rate,
        "ratio_cpu": (sp_seconds / spt["cpu"]) / (a.loop_seconds / lpt["cpu"]),
        "target": 1000.0, "sp_rate": sp_rate, "loop_rate": loop_rate,
    })

    log("threads: --threads 1 vs --threads 2, byte-identical output")
    rate, shards, seconds = 14_000, 20, 1_000_000 // scale
    t1 = run_measured(sp_cmd(rate, shards, seconds, 1))
    t2 = run_measured(sp_cmd(rate, shards, seconds, 2))
    identical = t1["stdout"] == t2["stdout"]
    t1t = time_runs(sp_cmd(rate, shards, seconds, 1), a.runs)
    t2t = time_runs(sp_cmd(rate, shards, seconds, 2), a.runs)

    big = 10_000_000 // scale
    log(f"memory: peak RSS at {big:,} simulated seconds")
    rss_big = run_measured(sp_cmd(rate, shards, big))
    loads.append(loadavg())

    # ---- the report ----
    def mb(kib):
        return f"{kib / 1024:.1f}"

    lines = []
    lines.append(f"Run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on "
                 f"{platform.node() or 'this machine'}; {os.cpu_count()} logical CPUs; "
                 f"timing by {rows[0]['sp']['how']}, {a.runs} runs per command; "
                 f"load average (1/5/15 min) during the run: {', '.join(loads)}.")
    lines.append("")
    lines.append("Times are whole-process wall clock, median of the runs (min in brackets); "
                 "CPU is user + system. Ratio = reference median / shardplan median "
                 "(case C: simulated seconds per wall second, shardplan / loop).")
    lines.append("")
    lines.append("| case | shardplan s | reference s | ratio (target) | met | CPU ratio "
                 "| busiest max | p50 | p99 | p99.9 | quantiles agree | seconds over cap | peak RSS MB |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    agree_notes = []
    for r in rows:
        s, f = r["spj"], r["refj"]
        agree, note = quantiles_agree(s, f)
        agree_notes.append(f"{r['case'].split(':')[0]} ({r['ref_name']}): {note}")
        pair = lambda k: f"{fig(s, k)} / {fig(f, k)}"
        lines.append(
            f"| {r['case']} | {r['sp']['median']:.3f} ({r['sp']['min']:.3f}) "
            f"| {r['ref_name']} {r['ref']['median']:.3f} ({r['ref']['min']:.3f}) "
            f"| {r['ratio']:.1f}x ({r['target']:,.0f}x) "
            f"| {'yes' if r['ratio'] >= r['target'] else 'NO'} | {r['ratio_cpu']:.1f}x "
            f"| {pair('busiest_max')} | {pair('busiest_p50')} | {pair('busiest_p99')} "
            f"| {pair('busiest_p999')} | {'yes' if agree else 'NO'} | {pair('seconds_over_cap')} "
            f"| {mb(r['sp_rss'])} / {mb(r['ref_rss'])} |")
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
    lines.append(f"- Threads (case A size): --threads 1 {t1t['median']:.3f} s "
                 f"(min {t1t['min']:.3f}), --threads 2 {t2t['median']:.3f} s "
                 f"(min {t2t['min']:.3f}); speed-up {t1t['median'] / t2t['median']:.2f}x; "
                 f"output byte-identical: {'yes' if identical else 'NO'}.")
    lines.append(f"- Peak RSS of shardplan: {mb(rows[0]['sp_rss'])} MB at "
                 f"{cases[0][3]:,} simulated s, {mb(rss_big['rss_kib'])} MB at {big:,} s "
                 f"(target under 64 MB: {'met' if rss_big['rss_kib'] < 64 * 1024 else 'NOT met'}); "
                 f"that run took {rss_big['wall']:.2f} s wall; RSS by {rss_big['rss_how']}.")
    lines.append(f"- Versions: {a.revision + ' ' if a.revision else ''}{subprocess.run([sp, '--version'], capture_output=True, text=True).stdout.strip()}, "
                 f"numpy {rows[0]['refj'].get('numpy_version', '?')}, "
                 f"Python {subprocess.run([py, '-c', 'import platform; print(platform.python_version())'], capture_output=True, text=True).stdout.strip()}.")
    lines.append("")
    lines.append("Commands (shardplan; the references take the same flags):")
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
    ok = identical and all(quantiles_agree(r["spj"], r["refj"])[0] for r in rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
