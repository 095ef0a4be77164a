//! How often shards share a partition: the birthday bound and the expected
//! number of shared and occupied partitions, in closed form.

/// P(two or more of `s` shards share one of `p` partitions)
/// = 1 - prod_{i<s} (1 - i/p), with the product summed as logs.
pub fn p_shared_partition(s: u64, p: u64) -> f64 {
    if s > p {
        return 1.0;
    }
    let pf = p as f64;
    let log_none: f64 = (1..s).map(|i| (-(i as f64) / pf).ln_1p()).sum();
    -log_none.exp_m1()
}

/// Expected number of partitions holding two or more shards:
/// P * P(Bin(S, 1/P) >= 2).
pub fn expected_shared_partitions(s: u64, p: u64) -> f64 {
    let (sf, pf) = (s as f64, p as f64);
    if s < 2 {
        return 0.0;
    }
    if p == 1 {
        return 1.0;
    }
    let q = 1.0 / pf;
    let ln_q0 = (-q).ln_1p(); // ln(1 - 1/P)
    let at_least_two = if sf / pf < 0.5 {
        // Sum the pmf from 2 up: the closed form cancels to noise here.
        let mut term = (sf * (sf - 1.0) / 2.0) * q * q * ((sf - 2.0) * ln_q0).exp();
        let ratio = q / (1.0 - q);
        let mut sum = 0.0;
        let mut j = 2.0;
        while term > 0.0 && j <= sf {
            sum += term;
            if term < sum * 1e-17 {
                break;
            }
            term *= (sf - j) / (j + 1.0) * ratio;
            j += 1.0;
        }
        sum
    } else {
        1.0 - (sf * ln_q0).exp() - sf * q * ((sf - 1.0) * ln_q0).exp()
    };
    pf * at_least_two.max(0.0)
}

/// Expected number of partitions with at least one shard: P (1 - (1-1/P)^S).
pub fn expected_occupied_partitions(s: u64, p: u64) -> f64 {
    let pf = p as f64;
    -pf * (s as f64 * (-1.0 / pf).ln_1p()).exp_m1()
}
