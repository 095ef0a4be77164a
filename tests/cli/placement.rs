//! End-to-end tests of `keys`, `partitions`, `stores`, `--store` and the
//! `measure` error paths that need no server.

use crate::common::{bad_input, json_of, shardplan};
use serde_json::{json, Value};

#[test]
fn keys_from_stdin_as_tsv() {
    // Known answers from Redis 7 (CLUSTER KEYSLOT).
    shardplan()
        .args(["keys", "--stdin", "--format", "tsv"])
        .write_stdin("{reel:8841}:likes:3\n{reel:8841}:likes:19\nreel:8841:likes:3\nreel:8841:likes:19\n")
        .assert()
        .success()
        // With the bundled scenario's 3 masters (slots 5461-10922 on node 1).
        .stdout("{reel:8841}:likes:3\t5809\t1\n{reel:8841}:likes:19\t5809\t1\nreel:8841:likes:3\t7443\t1\nreel:8841:likes:19\t6464\t1\n");
    // Bytes as given, UTF-8 or not; CRLF line ends are trimmed.
    let out = shardplan()
        .args(["keys", "--stdin", "--format", "tsv"])
        .write_stdin(b"caf\xe9\r\n123456789\n".to_vec())
        .assert()
        .success();
    let stdout = out.get_output().stdout.clone();
    assert!(stdout.starts_with(b"caf\xe9\t"));
    // CRC16 check value 0x31C3 = 12739 (below 16384, so also the slot).
    assert!(stdout.ends_with(b"123456789\t12739\t2\n"));
}

#[test]
fn keys_stdin_takes_an_empty_line_as_the_empty_key() {
    // Issue 32: the empty line was dropped without a word. The empty string
    // is a valid Redis key: CRC16-XMODEM of no bytes is 0, so slot 0 (Redis
    // 7's CLUSTER KEYSLOT "" answers 0). Blank lines at the very end (the
    // trailing newline, then two more, one CRLF) are not keys.
    shardplan()
        .args(["keys", "--stdin", "--format", "tsv"])
        .write_stdin("reel:8841:likes:3\n\nreel:8841:likes:19\n\n\r\n")
        .assert()
        .success()
        .stdout("reel:8841:likes:3\t7443\t1\n\t0\t0\nreel:8841:likes:19\t6464\t1\n");
    let v = json_of_stdin(&["keys", "-", "--format", "json"], "\nreel:8841:likes:3\n");
    let keys = v["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 2, "{v}");
    assert_eq!((&keys[0]["key"], &keys[0]["slot"]), (&json!(""), &json!(0)));
    assert_eq!(keys[1]["slot"], 7443);
    // The table names it rather than leave a blank cell.
    let out = shardplan()
        .args(["keys", "--stdin"])
        .write_stdin("a\n\nb\n\n")
        .env("COLUMNS", "200")
        .assert()
        .success();
    let table = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        table.contains("│ 1     ┆ \"\" (the empty key) ┆ 0 "),
        "{table}"
    );
    assert!(table.contains("│ 2 "), "{table}");
    assert!(
        !table.contains("│ 3 "),
        "a trailing blank line is no key: {table}"
    );
    // Only blank lines: no key, refused as before.
    let out = shardplan()
        .args(["keys", "--stdin"])
        .write_stdin("\n\n")
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `shardplan ARGS` with `stdin`, its standard output as JSON.
fn json_of_stdin(args: &[&str], stdin: &str) -> Value {
    let out = shardplan().args(args).write_stdin(stdin).assert().success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

#[test]
fn keys_template_with_nodes() {
    let v = json_of(&[
        "keys",
        "--template",
        "reel:8841:likes:<shard>",
        "--shards",
        "20",
        "--nodes",
        "3",
    ]);
    assert_eq!(v["keys"].as_array().unwrap().len(), 20);
    assert_eq!(v["keys"][3]["key"], "reel:8841:likes:3");
    assert_eq!(v["keys"][3]["slot"], 7443);
    assert_eq!(v["keys"][19]["slot"], 6464);
    assert_eq!(v["distinct_slots"], 20);
    assert_eq!(v["distinct_nodes"], 3);
    assert!(v["busiest_node_share"].as_f64().unwrap() >= 0.35);
    let tagged = json_of(&[
        "keys",
        "--template",
        "{reel:8841}:likes:<shard>",
        "--shards",
        "20",
        "--nodes",
        "3",
    ]);
    assert_eq!(tagged["distinct_slots"], 1);
    assert_eq!(tagged["distinct_nodes"], 1);
    assert_eq!(tagged["busiest_node_share"], 1.0);
    let padded = json_of(&[
        "keys",
        "--template",
        "r:<shard>",
        "--shards",
        "12",
        "--pad",
        "3",
    ]);
    assert_eq!(padded["keys"][7]["key"], "r:007");
}

#[test]
fn keys_check_exit_codes() {
    // One hash tag: every shard in one slot. --check follows the plan's
    // verdict (docs/verdict.md): on the redis-cluster preset (named, so its
    // cap outranks the bundled scenario's 1,000/s) one master
    // carries the planned 14,000/s, so the count holds and the shared slot
    // is a warning with the fix named; with masters of 6,000/s it fails.
    let hashed = [
        "keys",
        "--store",
        "redis-cluster",
        "--template",
        "{reel:8841}:likes:<shard>",
        "--shards",
        "20",
    ];
    let out = shardplan().args(hashed).arg("--check").assert().success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("WARNING: SHARED SLOT"), "{stdout}");
    let out = shardplan()
        .args(hashed)
        .args(["--node-cap", "7000", "--check"])
        .assert()
        .code(1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("check failed: No shard count holds this plan: 3 masters x 7,000/s")
            && stderr.contains(
                "20 shards do NOT hold the plan of 14,000/s: they fail the Redis Cluster nodes"
            ),
        "{stderr}"
    );
    // The shard number inside the tag spreads them.
    shardplan()
        .args([
            "keys",
            "--store",
            "redis-cluster",
            "--template",
            "{reel:8841:<shard>}:likes",
            "--shards",
            "20",
            "--node-cap",
            "7000",
            "--check",
        ])
        .assert()
        .success();
    // A sorted store's contiguous keys are a warning, not the verdict.
    let out = shardplan()
        .args([
            "keys",
            "--store",
            "sorted",
            "--template",
            "reel#8841#likes#<shard>",
            "--check",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("share one tablet"), "{stdout}");
    let sorted = json_of(&[
        "keys",
        "--store",
        "sorted",
        "--template",
        "reel#8841#likes#<shard>",
    ]);
    assert_eq!(sorted["contiguous"], true);
    assert_eq!(sorted["keys"][7]["shard_first_key"], "07#reel#8841#likes");
}

#[test]
fn keys_bad_input() {
    for (args, what) in [
        (
            vec!["keys", "--template", "reel:likes", "--shards", "3"],
            "--template",
        ),
        (
            vec!["keys", "--template", "r:<shard>", "--shards", "0"],
            "--shards",
        ),
        (
            vec!["keys", "--template", "r:<shard>", "--nodes", "0"],
            "--nodes",
        ),
        (
            vec!["keys", "--template", "r:<shard>", "--store", "dynamodb"],
            "--store",
        ),
        (vec!["keys"], "--stdin"),
    ] {
        bad_input(&args, what);
    }
}

#[test]
fn partitions_birthday_figures() {
    // 20 shards over 10 partitions: sharing is certain (pigeonhole).
    let v = json_of(&["partitions", "--shards", "20", "--partitions", "10"]);
    assert_eq!(v["p_shared_partition"], 1.0);
    // E[partitions with 2+] = P (1 - (1-1/P)^S - S/P (1-1/P)^(S-1)) = 6.0825...
    let e = 10.0 * (1.0 - 0.9f64.powi(20) - 2.0 * 0.9f64.powi(19));
    assert!((v["expected_shared_partitions"].as_f64().unwrap() - e).abs() < 1e-9);
    // The classic birthday case: 23 over 365 is 0.5072972343.
    let v = json_of(&["partitions", "--shards", "23", "--partitions", "365"]);
    assert!((v["p_shared_partition"].as_f64().unwrap() - 0.507_297_234_3).abs() < 1e-9);
    let v = json_of(&[
        "partitions",
        "--shards",
        "20",
        "--partitions",
        "1000",
        "--rate",
        "14000",
        "--cap",
        "1000",
    ]);
    assert!(v["partition_p_over_cap_per_second"].as_f64().is_some());
    // A store preset sets the partition cap (Firestore: one write a second).
    let v = json_of(&[
        "partitions",
        "--shards",
        "20",
        "--partitions",
        "100",
        "--rate",
        "14000",
        "--store",
        "firestore",
    ]);
    assert_eq!(v["cap"], 1.0);
}

#[test]
fn stores_and_presets() {
    let v = json_of(&["stores"]);
    let names: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["store"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "dynamodb",
            "firestore",
            "postgres",
            "redis-cluster",
            "sorted"
        ]
    );
    // Firestore: about one write a second per document; 70% of it is safe.
    let v = json_of(&["size", "--peak", "140", "--store", "firestore"]);
    assert_eq!(v["cap"], 1.0);
    assert_eq!(v["shards"], 200);
    // A flag still overrides the preset.
    let v = json_of(&[
        "size",
        "--peak",
        "14000",
        "--store",
        "redis-cluster",
        "--cap",
        "1000",
    ]);
    assert_eq!(v["shards"], 20);
}

#[test]
fn measure_errors_without_a_server() {
    let out = shardplan()
        .args(["measure", "--redis", "http://127.0.0.1:6379"])
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("--redis"));
    // Nothing listens on port 1: a refused connection is exit 1.
    let out = shardplan()
        .args([
            "measure",
            "--redis",
            "redis://127.0.0.1:1",
            "--duration",
            "1s",
            "--max-ops",
            "10",
        ])
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("127.0.0.1:1"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn cap_from_measure_sets_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("m.json");
    std::fs::write(&f, r#"{"single_ops_per_second": 1500.7}"#).unwrap();
    let v = json_of(&[
        "size",
        "--peak",
        "14000",
        "--headroom",
        "0.3",
        "--cap-from-measure",
        f.to_str().unwrap(),
    ]);
    assert_eq!(v["cap"], 1500.0);
    assert_eq!(v["shards"], 14); // 14,000 / 1,050 = 13.3 -> 14
    std::fs::write(&f, "not json").unwrap();
    let out = shardplan()
        .args(["size", "--cap-from-measure", f.to_str().unwrap()])
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("--cap-from-measure"));
}

/// `shardplan` with `line` split at spaces and `stdin`: its exit code,
/// stdout parsed as JSON (`null` if it is not) and stderr.
fn run(line: &str, stdin: &str) -> (i32, Value, String) {
    let out = shardplan()
        .args(line.split(' '))
        .write_stdin(stdin)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let stderr = String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap(), json, stderr)
}

/// A JSON object's field names, space-separated, in order.
fn fields(v: &Value) -> String {
    let names: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    names.join(" ")
}

#[test]
fn keys_prose_and_field_order() {
    // The model returns typed reads and warnings; the view words them into
    // the same JSON fields, in the same places, with these exact words.
    let crossslot = "MGET across slots fails with CROSSSLOT, so a read is";
    let per_node = ", pipelined and grouped per node";
    let spread = "keys --store redis-cluster --template reel:8841:likes:<shard> --nodes 3";
    let (_, v, _) = run(&format!("{spread} --format json"), "");
    assert!(fields(&v).ends_with(
        "read_commands read_pipelines read_note suggested_template warnings verdict inputs warning_text"
    ));
    let note = format!("{crossslot} 20 GETs{per_node} (3 pipelines in parallel)");
    assert_eq!(v["read_note"], note);
    let over = "NODE OVER ITS SHARE: node 2 of 3 holds 8 of 20 shards (40.0% of the writes), \
                more than ceil(S/N) = 7 (35.0%)";
    assert_eq!(v["warnings"], json!([over]));
    // Node balance is a note: --check follows the plan's verdict, which
    // holds on the redis-cluster preset (named: its cap outranks the
    // bundled scenario's; docs/verdict.md).
    let passed = (0, Value::Null, String::new());
    let check = run(&format!("{spread} --check --format tsv"), "");
    assert_eq!(check, passed);
    // Exit 1, the keys on stdout (TSV, not JSON) and one line on stderr.
    let failed = |text: &str| (1, Value::Null, format!("shardplan: check failed: {text}\n"));

    let shared = "SHARED SLOT: 20 of 20 shard keys share a slot with another shard (slot 5809 holds 20, \
                  100.0% of the writes); the hash tag {...} is hashed instead of the whole key, so those \
                  shards' writes all go to one node. Fix: put the shard number inside the tag \
                  (e.g. {reel:8841:<shard>}:likes) or drop the tag.";
    let (_, v, _) = run(
        "keys --store redis-cluster --template {reel:8841}:likes:<shard> --format json",
        "",
    );
    let one_slot =
        "all 20 keys share slot 5809: one MGET reads them, but every write goes to one node";
    assert_eq!(v["read_note"], one_slot);
    let fix = "suggested template: 'reel:8841:likes:<shard>' (no shared slot)";
    // The bundled scenario's 3 masters: the one slot is on node 1.
    let one_node =
        "NODE OVER ITS SHARE: node 1 of 3 holds 20 of 20 shards (100.0% of the writes), \
                    more than ceil(S/N) = 7 (35.0%)";
    assert_eq!(v["warnings"], json!([shared, one_node, fix]));
    let check = run(
        "keys --store redis-cluster --template {reel:8841}:likes:<shard> --check --format tsv",
        "",
    );
    assert_eq!(check, passed);
    let check = run(
        "keys --store redis-cluster --template {reel:8841}:likes:<shard> --node-cap 6000 --check --format tsv",
        "",
    );
    assert_eq!(
        check,
        failed(
            "No shard count holds this plan: 3 masters x 6,000/s = 18,000 writes/s against a \
             peak of 14,000 writes/s, and every key hashes to one slot; levers: a template \
             without the hash tag (see the warning). 20 shards do NOT hold the plan of \
             14,000/s: they fail the Redis Cluster nodes (the recommendation is 1)"
        )
    );

    // reel:1444 and reel:4336 collide in slot 2 without a tag.
    let keys = "reel:1444\nreel:4336\nreel:7\n";
    let (_, v, _) = run(
        "keys --store redis-cluster --stdin --nodes 2 --format json",
        keys,
    );
    let note =
        format!("{crossslot} one MGET per slot: 2 commands{per_node} (1 pipeline in parallel)");
    assert_eq!(v["read_note"], note);
    let collide = "SHARED SLOT: 2 of 3 shard keys share a slot with another shard (slot 2 holds 2, \
                   66.7% of the writes); their CRC16 values collide mod 16384, so those shards' writes \
                   all go to one node. Fix: put the shard number inside the tag \
                   (e.g. {reel:8841:<shard>}:likes) or drop the tag.";
    let over = "NODE OVER ITS SHARE: node 0 of 2 holds 3 of 3 shards (100.0% of the writes), \
                more than ceil(S/N) = 2 (66.7%)";
    assert_eq!(v["warnings"], json!([collide, over]));
    let check = run(
        "keys --store redis-cluster --stdin --nodes 2 --check --format tsv",
        keys,
    );
    assert_eq!(check, passed);
    let _ = (collide, over, failed);
}

#[test]
fn sorted_and_partitions_prose() {
    let sorted = "keys --store sorted --template reel#8841#likes#<shard>";
    let (_, v, _) = run(&format!("{sorted} --format json"), "");
    assert!(fields(&v).ends_with("shard_first_in_order note verdict inputs warning_text"));
    assert_eq!(
        v["note"],
        "all 20 shard keys start with 'reel#8841#likes#', so they sort next to each other and likely \
         share one tablet (one node) until the store splits it; put the shard number first: \
         '<shard>#reel#8841#likes' (pad 2)"
    );
    // Contiguous keys are a warning; --check follows the plan's verdict.
    assert_eq!(run(&format!("{sorted} --check --format csv"), "").0, 0);
    let (_, v, _) = run(
        "keys --store sorted --template <shard>#reel#8841#likes --format json",
        "",
    );
    assert_eq!(
        v["note"],
        "the shard number comes first, so other counters' keys sort between the shards and they \
         spread over the key range"
    );

    let uniform = "assumes each shard key hashes to a uniformly random partition, independently; \
                   adaptive capacity may later move busy items apart";
    let base = "partitions --shards 20 --partitions 20";
    let (_, v, _) = run(&format!("{base} --format json"), "");
    assert_eq!(v["notes"], json!([uniform]));
    let load = format!("{base} --rate 14000 --cap 1000");
    let (_, v, _) = run(&format!("{load} --format json"), "");
    assert!(fields(&v).ends_with("partition_method notes verdict inputs warning_text"));
    assert_eq!(v["partition_method"], "upper_bound");
    let fixed = "fixed traffic: the cap chance is the union bound over partitions of exact \
                 Binomial(rate, k / S) tails, an upper bound (multinomial loads are negatively \
                 associated: taken as independent they would understate it)";
    assert_eq!(v["notes"], json!([uniform, fixed]));
    let (_, v, _) = run(&format!("{load} --traffic poisson --format json"), "");
    let poisson =
        "Poisson traffic: partition loads are independent Poisson(rate * k / S), so the cap \
                   chance is exact for each placement";
    assert_eq!(v["notes"], json!([uniform, poisson]));
    // CSV stays one flat row: no prose column.
    let out = shardplan()
        .args(load.split(' '))
        .args(["--format", "csv"])
        .output()
        .unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.starts_with("shards,") && !csv.contains("notes") && !csv.contains("assumptions"));
}

#[test]
fn keys_recommends_what_size_does() {
    // keys resolves size's plan: the scenario's cap (1,000/s in viral-reel)
    // outranks keys' own Redis Cluster store, which is only a preset below
    // it; named with --store, the preset ranks as it does for size.
    let template = [
        "keys",
        "--template",
        "reel:8841:likes:<shard>",
        "--shards",
        "20",
    ];
    let store = ["--store", "redis-cluster"];
    let quiet = ["--scenario", "quiet-reel"];
    let cases: [&[&str]; 5] = [
        &[],
        &["--peak", "30000"],
        &quiet,
        &store,
        &[&quiet[..], &store].concat(),
    ];
    for extra in cases {
        let keys = json_of(&[&template[..], extra].concat());
        let size = json_of(&[&["size"][..], extra].concat());
        assert_eq!(
            keys["verdict"]["recommended_shards"], size["shards"],
            "{extra:?}"
        );
        assert_eq!(keys["inputs"]["cap"], size["inputs"]["cap"], "{extra:?}");
    }
    // On the bundled default the recommendation is size's 20, with or
    // without a store named.
    let keys = json_of(&template);
    assert_eq!(keys["verdict"]["recommended_shards"], 20);
    assert_eq!(json_of(&["size"])["shards"], 20);
    assert_eq!(
        keys["inputs"]["cap"]["source"],
        "scenario viral-reel.toml: cap"
    );
}
