//! CSV columns are a contract: one golden header per command, pinned
//! here. A renamed or dropped column fails this test, and the change then
//! needs a new JSON `schema_version` (the same serde rows feed both) and a
//! CHANGELOG line; adding a column means adding it to the pin.

use crate::common::shardplan;

const GOLDEN: &[(&[&str], &str)] = &[
    (
        &["size"],
        "scenario,observed,growth,transactional,write_cost,peak,cap,safe_per_shard,headroom,mean_per_shard_at_peak,headroom_left,evaluated,recommended_shards,shards,binding,rule_of_thumb_shards,key_risk_shards,partition_shards,partition_shards_stable,partition_failing,partition_binds,p_any_over_cap,ln_p_any_over_cap,p_any_over_cap_exact,key_p_any_over_cap,key_ln_p_any_over_cap,key_risk_method,picker,rule_of_thumb_p_any_over_cap,rule_of_thumb_ln_p_any_over_cap,partition_p_any_over_cap,partition_ln_p_any_over_cap,capacity_rate,safe_capacity_rate,margin,risk,key_risk,duration_seconds,traffic,partition_risk,partitions,nodes,node_shards,node_p_any_over_cap,node_ln_p_any_over_cap,keys_per_node,cap_per_key,transactional_write_cost,reads_uncached_per_second,reads_cached_per_second,fails,holds,warnings,views,servers,cache_seconds,batch_size,sums_cached_per_second,batches_per_sum,batch_requests_uncached_per_second,batch_requests_cached_per_second,reads_per_shard_uncached,reads_per_shard_cached,read_cap,over_read_cap_cached,cache_seconds_for_read_cap,write_units_per_like,write_cost_per_million_likes,like_row_cost_per_million_likes,read_cost_per_million_views_uncached,read_cost_per_million_views_cached,monthly_cost",
    ),
    (
        &["simulate", "--seconds", "60"],
        "scenario,rate,shards,cap,seconds,traffic,picker,servers,seed,likes_total,busiest_max,quietest_min,busiest_mean,busiest_p50,busiest_p99,busiest_p999,seconds_over_cap,p_over_cap_per_second,p_over_cap_ci95_low,p_over_cap_ci95_high,p_any_over_cap,p_any_over_cap_ci95_low,p_any_over_cap_ci95_high,sampler,exact_busiest_mean,exact_busiest_p50,exact_busiest_p99,exact_busiest_p999,exact_busiest_over_run_median,exact_busiest_over_run_q01,exact_busiest_over_run_q99,exact_p_over_cap_per_second,exact_ln_p_over_cap_per_second,exact_p_any_over_cap,exact_ln_p_any_over_cap,views,cache_seconds,batch_size,reads_uncached_per_second,reads_cached_per_second,sums_cached_per_second,batches_per_sum,batch_requests_uncached_per_second,batch_requests_cached_per_second,reads_per_shard_uncached,reads_per_shard_cached,read_cap,over_read_cap_cached,cache_seconds_for_read_cap",
    ),
    (
        &["risk"],
        "rate,shards,cap,seconds,traffic,p_over_cap_per_second,ln_p_over_cap_per_second,p_any_over_cap,ln_p_any_over_cap,underflow,busiest_mean_per_second,busiest_p999_per_second,busiest_over_run_median,busiest_over_run_q01,busiest_over_run_q99,p_over_cap_rel_error,exact",
    ),
    (
        &["sweep"],
        "rate,shards,cap,seconds,traffic,p_over_cap_per_second,ln_p_over_cap_per_second,p_any_over_cap,ln_p_any_over_cap,underflow,busiest_mean_per_second,busiest_p999_per_second,busiest_over_run_median,busiest_over_run_q01,busiest_over_run_q99,p_over_cap_rel_error,exact,reads_uncached_per_second,reads_cached_per_second,holds,fails,recommended_shards,picker,picker_p_any_over_cap,picker_ln_p_any_over_cap,picker_method",
    ),
    (
        &["compare"],
        "strategy,exact,error,writes_per_key_per_second,p_over_cap_per_second,p_any_over_cap,reads_per_second,reads_per_view,freshness_lag_seconds,crash_loss_likes,double_count_likes,memory_bytes,verdict,keys,ln_p_over_cap_per_second,ln_p_any_over_cap,cap_likes_per_key,reads_uncached_per_second,p_conflict,attempts_per_like,cancellations_per_second,overcount_per_hour,undercount_per_hour,net_drift_per_hour,write_units_per_like,write_cost_per_million_likes,like_row_cost_per_million_likes,read_cost_per_million_views_uncached,read_cost_per_million_views_cached,monthly_cost",
    ),
    (
        &["stores"],
        "store,placement,write_cap_per_key,read_cap_per_key,burst_seconds,batch_read_items,transactional_write_cost,slots,read_cost,source",
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
        "shards,partitions,p_shared_partition,expected_shared_partitions,expected_occupied_partitions,busiest_partition_mean_shards,busiest_partition_mean_shards_se,busiest_partition_mean_share,method,trials,seed,rate,cap,traffic,shard_rate,busiest_partition_mean_rate,p_partition_over_cap_per_second,ln_p_partition_over_cap_per_second,p_partition_over_cap_method",
    ),
    (
        &["fleet", "--reels", "1000", "--partitions", "10", "--trials", "8", "--max-shards", "16"],
        "scenario,policy,items,items_per_reel,shard_reads_per_second_uncached,shard_reads_per_second_cached,reels,total_rate,threshold,target_shards,hot_reels,hottest_reel_rate,partitions,cap,hottest_partition_rate,hottest_to_mean,p_over_cap_per_second,p_any_over_cap,seconds,search_found,search_shards,search_threshold,search_risk,item_bytes,storage_gb,storage_cost_per_month,write_cost_per_month,read_cost_per_month_cached,read_cost_per_month_uncached,monthly_cost",
    ),
    (
        &["resize", "--scenario", "grow-right-order"],
        "from,to,order,likes_before,likes_after,settings_ttl_seconds,stale_window_seconds,seed,true_total,displayed_total,expected_displayed_total,min_displayed_ratio,max_displayed_ratio,undercount_seconds",
    ),
];

#[test]
fn every_command_keeps_its_csv_header() {
    for (args, want) in GOLDEN {
        let out = shardplan()
            .args(*args)
            .args(["--format", "csv"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let got = text.lines().next().unwrap_or("");
        assert_eq!(got, *want, "the CSV header of {args:?} changed");
    }
}
