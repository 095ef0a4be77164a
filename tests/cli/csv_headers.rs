//! CSV columns are a contract: one golden header per command, pinned
//! here. A renamed or dropped column fails this test, and the change then
//! needs a CHANGELOG line (and, where the serde field itself changed, a new
//! JSON `schema_version`); adding a column means adding it to the pin. The
//! columns carry their units (`rate_likes_per_s`), so no header names one
//! column twice, and numbers have one form (`1000`, never `1000.0` or `-0`).

use crate::common::shardplan;

const GOLDEN: &[(&[&str], &str)] = &[
    (
        &["size"],
        "scenario,observed_likes_per_s,growth_factor,transactional,write_cost_units,peak_likes_per_s,peak_writes_per_s,cap_writes_per_s,safe_per_shard_writes_per_s,headroom_share,mean_per_shard_at_peak_writes_per_s,headroom_left_share,evaluated,recommended_shards,shards,binding,rule_of_thumb_shards,key_risk_shards,partition_shards,partition_shards_stable,partition_failing,partition_binds,worst_risk,worst_p_any_over_cap,worst_ln_p_any_over_cap,worst_p_any_over_cap_exact,key_p_any_over_cap,key_ln_p_any_over_cap,key_method,picker,rule_of_thumb_p_any_over_cap,rule_of_thumb_ln_p_any_over_cap,partition_p_any_over_cap,partition_ln_p_any_over_cap,capacity_likes_per_s,safe_capacity_likes_per_s,margin_share,risk,key_risk,duration_s,traffic,partition_risk,partitions,nodes,node_shards,node_p_any_over_cap,node_ln_p_any_over_cap,keys_per_node,cap_per_key_likes_per_s,transactional_write_cost_units,reads_uncached_per_second,reads_cached_per_second,fails,holds,warnings,infeasible,views_per_s,servers,cache_s,batch_size_items,sums_cached_per_second,batches_per_sum,batch_requests_uncached_per_second,batch_requests_cached_per_second,reads_per_shard_uncached,reads_per_shard_cached,read_cap_reads_per_s,over_read_cap_cached,cache_s_for_read_cap,write_units_per_like,write_cost_per_million_likes,like_row_cost_per_million_likes,read_cost_per_million_views_uncached,read_cost_per_million_views_cached,monthly_cost",
    ),
    (
        &["simulate", "--seconds", "60"],
        "scenario,rate_likes_per_s,write_rate_writes_per_s,mean_per_shard_writes_per_s,shards,cap_writes_per_s,duration_s,traffic,picker,servers,seed,likes_total,busiest_max_writes_per_s,quietest_min_writes_per_s,busiest_mean_writes_per_s,busiest_p50_writes_per_s,busiest_p99_writes_per_s,busiest_p999_writes_per_s,seconds_over_cap,simulated_p_over_cap_per_second,simulated_p_over_cap_ci95_low,simulated_p_over_cap_ci95_high,simulated_p_any_over_cap,simulated_p_any_over_cap_ci95_low,simulated_p_any_over_cap_ci95_high,sampler,exact_busiest_mean_writes_per_s,exact_busiest_p50_writes_per_s,exact_busiest_p99_writes_per_s,exact_busiest_p999_writes_per_s,exact_busiest_over_run_median_writes_per_s,exact_busiest_over_run_q01_writes_per_s,exact_busiest_over_run_q99_writes_per_s,key_p_over_cap_per_second,key_ln_p_over_cap_per_second,key_p_any_over_cap_in_run,key_ln_p_any_over_cap_in_run,views_per_s,cache_s,batch_size_items,reads_uncached_per_second,reads_cached_per_second,sums_cached_per_second,batches_per_sum,batch_requests_uncached_per_second,batch_requests_cached_per_second,reads_per_shard_uncached,reads_per_shard_cached,read_cap_reads_per_s,over_read_cap_cached,cache_s_for_read_cap",
    ),
    (
        &["risk"],
        "rate_likes_per_s,write_rate_writes_per_s,shards,cap_writes_per_s,duration_s,traffic,picker,servers,key_p_over_cap_per_second,key_ln_p_over_cap_per_second,key_p_any_over_cap,key_ln_p_any_over_cap,key_method,underflow,busiest_mean_writes_per_s,busiest_p999_writes_per_s,busiest_over_run_median_writes_per_s,busiest_over_run_q01_writes_per_s,busiest_over_run_q99_writes_per_s,busiest_bound_writes_per_s,p_over_cap_rel_error,exact",
    ),
    (
        &["sweep"],
        "rate_likes_per_s,write_rate_writes_per_s,shards,picker,key_method,key_p_over_cap_per_second,key_ln_p_over_cap_per_second,key_p_any_over_cap,key_ln_p_any_over_cap,busiest_mean_writes_per_s,busiest_p999_writes_per_s,reads_uncached_per_second,reads_cached_per_second,verdict,cap_writes_per_s,duration_s,traffic",
    ),
    (
        &["compare"],
        "strategy,exact,error,writes_per_key_per_second,key_p_over_cap_per_second,key_p_any_over_cap,reads_per_second,reads_per_view,freshness_lag_seconds,crash_loss_likes,double_count_likes,memory_bytes,verdict,keys,key_ln_p_over_cap_per_second,key_ln_p_any_over_cap,cap_per_key_likes_per_s,reads_uncached_per_second,p_conflict,attempts_per_like,cancellations_per_second,overcount_per_hour,undercount_per_hour,net_drift_per_hour,write_units_per_like,write_cost_per_million_likes,like_row_cost_per_million_likes,read_cost_per_million_views_uncached,read_cost_per_million_views_cached,monthly_cost",
    ),
    (
        &["stores"],
        "store,placement,write_cap_per_key_writes_per_s,read_cap_per_key_reads_per_s,burst_seconds,batch_read_items,transactional_write_cost_units,slots,read_cost,source",
    ),
    (
        &["scenarios"],
        "name,describes,commands,description",
    ),
    (
        // The bundled scenario's 3 masters (the plan keys judges with).
        &["keys", "--template", "a:<shard>", "--shards", "4"],
        "key,slot,node",
    ),
    (
        &["partitions", "--shards", "4", "--partitions", "10"],
        "shards,partitions,p_shared_partition,expected_shared_partitions,expected_occupied_partitions,busiest_partition_mean_shards,busiest_partition_mean_shards_se,busiest_partition_mean_share,method,trials,seed,rate_likes_per_s,cap_writes_per_s,traffic,shard_writes_per_s,busiest_partition_mean_writes_per_s,partition_p_over_cap_per_second,partition_ln_p_over_cap_per_second,partition_method",
    ),
    (
        &["fleet", "--reels", "1000", "--partitions", "10", "--trials", "8", "--max-shards", "16"],
        "scenario,policy,items,items_per_reel,shard_reads_per_second_uncached,shard_reads_per_second_cached,reels,total_rate_likes_per_s,threshold_likes_per_s,target_shards,hot_reels,hottest_reel_likes_per_s,partitions,cap_writes_per_s,hottest_partition_writes_per_s,hottest_to_mean,partition_p_over_cap_per_second,partition_p_over_cap_lower,partition_p_any_over_cap,partition_p_any_over_cap_lower,partition_p_over_cap_kind,duration_s,search_found,search_shards,search_threshold_likes_per_s,search_risk,item_bytes,storage_gb,storage_cost_per_month,write_cost_per_month,read_cost_per_month_cached,read_cost_per_month_uncached,monthly_cost",
    ),
    (
        &["reconcile"],
        "scenario,drift_writes_per_day,drift_over_per_day,drift_under_per_day,drift_net_per_day,drift_p_over,drift_p_under,drift_per_reel_writes,drift_per_reel_mean_net,drift_per_reel_sd_net,drift_per_reel_exact_p_off,drift_per_reel_exact_reels_off,drift_per_reel_exact_largest_abs_net_median,drift_per_reel_exact_largest_abs_net_p99,drift_per_reel_exact_largest_net_p99,job_rows,job_seconds,job_every_seconds,job_fits,job_runs_per_month,job_cost_per_run,job_cost_per_month,gap_count_seconds,gap_peak_likes,gap_likes,correction_shards,correction_shard_expected,correction_largest_decrease,correction_can_go_below_zero,correction_p_reel_below_zero,correction_spread_per_shard,alternatives_transaction_cap_per_key,alternatives_txn_ms,alternatives_transaction_shards,alternatives_retry_window_seconds,alternatives_idempotency_keys,alternatives_idempotency_bytes,alternatives_idempotency_writes_per_day,alternatives_idempotency_cost_per_month,alternatives_log_lag_seconds",
    ),
    (
        &["resize", "--scenario", "grow-right-order"],
        "from,to,order,likes_before,likes_after,settings_ttl_seconds,stale_window_seconds,seed,true_total,displayed_total,expected_displayed_total,min_displayed_ratio,max_displayed_ratio,undercount_seconds",
    ),
];

/// The CSV `shardplan ARGS --format csv` prints, which must succeed.
fn csv_of(args: &[&str]) -> String {
    let out = shardplan()
        .args(args)
        .args(["--format", "csv"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_command_keeps_its_csv_header() {
    for (args, want) in GOLDEN {
        let text = csv_of(args);
        let got = text.lines().next().unwrap_or("");
        assert_eq!(got, *want, "the CSV header of {args:?} changed");
    }
}

#[test]
fn no_header_names_a_column_twice_and_no_number_is_signed_zero() {
    for (args, _) in GOLDEN {
        let text = csv_of(args);
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
        for (i, c) in header.iter().enumerate() {
            assert!(!header[..i].contains(c), "{args:?}: {c} twice");
        }
        for line in lines {
            // Nested values (a list of warnings) are compact JSON: skipped.
            for cell in line
                .split(',')
                .filter(|c| !c.contains(['"', '[', '{', ':']))
            {
                assert!(
                    cell != "-0" && cell != "-0.0" && !cell.ends_with(".0"),
                    "{args:?}: {cell} in {line}"
                );
            }
        }
    }
}
