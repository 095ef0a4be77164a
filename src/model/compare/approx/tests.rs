//! The inputs shared by the approximate designs' tests, and their checks.

use super::*;
use crate::error::ParamError;

/// The interview's viral post: 200K likes/s, 50K views/s, the 286 shards
/// `size` gives at 700 safe writes/s per key, a 1,000/s cap, one minute.
pub(super) fn inputs() -> ApproxInputs {
    ApproxInputs::new(200_000.0, 50_000.0, 286, 1000.0, 60.0).unwrap()
}

/// Breaks one field of the inputs.
type Edit = fn(&mut ApproxInputs);

#[test]
fn bad_inputs_name_the_flag() {
    let mut i = inputs();
    i.epsilon = 1.0;
    let e = approx_rows(&i).unwrap_err();
    assert_eq!(e.downcast_ref::<ParamError>().unwrap().param, "epsilon");
    let cases: [(&str, Edit); 12] = [
        ("reels", |i| i.reels = 0),
        ("zipf", |i| i.zipf_s = f64::NAN),
        ("threshold", |i| i.threshold = -1.0),
        ("target_shards", |i| i.target_shards = 0),
        ("user_id_bytes", |i| i.user_id_bytes = 0),
        ("likes_per_day", |i| i.likes_per_day = 0.0),
        ("post_likes", |i| i.post_likes = Some(-3.0)),
        ("partitions", |i| i.partitions = Some(0)),
        ("shares", |i| i.shares = f64::INFINITY),
        ("cache_seconds", |i| i.cache_seconds = -1.0),
        ("duration_seconds", |i| i.seconds = 0.5),
        ("delta", |i| i.delta = 0.0),
    ];
    for (flag, set) in cases {
        let mut i = inputs();
        set(&mut i);
        assert_eq!(i.validate().unwrap_err().param, flag);
    }
    assert_eq!(
        ApproxInputs::new(0.0, 1.0, 1, 1.0, 1.0).unwrap_err().param,
        "rate"
    );
    assert_eq!(
        ApproxInputs::new(1.0, 1.0, 0, 1.0, 1.0).unwrap_err().param,
        "shards"
    );
}
