//! Temme's uniform asymptotic expansion of the regularized incomplete gamma
//! functions, in logs: `ln P(a, x)` for `x <= a` and `ln Q(a, x)` for `x >= a`
//! (the smaller side of each) in O(1) near the mean, where the Poisson
//! tails' series in `special.rs` need about `sqrt(a)` terms (400 at `a =
//! 2000`).
//!
//! With `lambda = x / a` and `eta^2 / 2 = lambda - 1 - ln lambda` (`eta` of
//! the sign of `lambda - 1`),
//!
//! ```text
//! Q(a, x) = erfc(eta sqrt(a / 2)) / 2 + R,  P(a, x) = erfc(-eta sqrt(a / 2)) / 2 - R,
//! R = e^(-a eta^2 / 2) / sqrt(2 pi a) sum_k C_k(eta) a^-k
//! ```
//!
//! (N. M. Temme, "The asymptotic expansion of the incomplete gamma
//! functions", SIAM J. Math. Anal. 10, 1979; A. R. DiDonato and A. H. Morris,
//! ACM TOMS 12, 1986; A. Gil, J. Segura and N. M. Temme, "Numerical Methods
//! for Special Functions", SIAM 2007, section 8.3; Boost's
//! `igamma_temme_large`). The `C_k` are their Taylor series in `eta`, from
//! `bench/temme_coefficients.py` (mpmath at 60 digits; `C_k(0)` are
//! -1/3, -1/540, 25/6048, ... as in the literature, and the Stirling
//! coefficients the recursion needs come out as mpmath's).
//!
//! In logs: `a eta^2 / 2` is summed as Loader's `bd0(a, x)` is (no
//! cancellation near `x = a`), both parts carry the factor `e^(-a eta^2 /
//! 2)`, and `ln erfc` past 26 (where `erfc` underflows) is its asymptotic
//! series, so the logs stay finite far below 1e-300. (The module uses
//! nothing of `special.rs`, which calls it: layers point down.)
//!
//! The region, `a >= 20` and `|eta| <= 1/2` (`x / a` in about 0.580..1.587):
//! the Taylor series of `C_k` converge as `(|eta| / 2 sqrt(pi))^n`, 21 to
//! 27 terms to 1e-19 at `|eta| = 1/2`; past it the Poisson series are short
//! anyway (their terms fall by `x / a` or `a / x` each). At `a = 20` the
//! twelve `C_0..C_11` leave under 1e-17 of the sum (`C_12 / 20^12` is
//! at most 2e-18; the terms of `a^-k` are dropped once their bound is
//! below 1e-18: five at `a = 2000`). Against mpmath at 40 digits the logs
//! are within 4.5e-16 of their size (`max(1, |ln P|)`; 267 values from
//! `a = 21` to `1e6 + 1`, `temme_tests.rs`; the series of `special.rs`
//! at the same points are within 1.0e-14, their rounding growing with
//! their terms).

use std::f64::consts::{LN_2, PI};

/// The smallest `a` answered: below it twelve terms of `a^-k` are not
/// enough for double precision at `|eta| = 1/2`.
const A_MIN: f64 = 20.0;

/// `eta^2 / 2` at the region's edge `|eta| = 1/2` (the tables' `ETA_MAX`).
const HALF_ETA_SQ_MAX: f64 = 0.125;

/// `(x - a) / a` just outside the region (`eta = -1/2` at -0.4204, `1/2`
/// at 0.5866): the series of [`half_eta_sq`] converges fast within it.
const T_RANGE: (f64, f64) = (-0.43, 0.59);

/// A term of `sum_k C_k a^-k` whose bound is below this (relative to a sum
/// of at least 1/3 in the region) no longer changes it.
const TERM_EPS: f64 = 1e-18;

/// `ln P(a, x)`, the chance a Gamma(`a`, 1) variable is below `x`, for `x
/// <= a` in the region (`None` outside it).
pub(super) fn ln_gamma_p_temme(a: f64, x: f64) -> Option<f64> {
    if x > a {
        return None;
    }
    ln_smaller_side(a, x, -1.0)
}

/// `ln Q(a, x)`, the chance a Gamma(`a`, 1) variable is above `x`, for `x
/// >= a` in the region (`None` outside it).
pub(super) fn ln_gamma_q_temme(a: f64, x: f64) -> Option<f64> {
    if x < a {
        return None;
    }
    ln_smaller_side(a, x, 1.0)
}

/// `ln(erfc(z) / 2 + sign e^-z^2 / sqrt(2 pi a) sum_k C_k(eta) a^-k)` with
/// `z = |eta| sqrt(a / 2)`: `P` (`sign = -1`, `eta <= 0`) or `Q` (`sign =
/// 1`, `eta >= 0`). For `P` both parts are positive (`sum_k C_k` is -0.38
/// to -0.29 in the region); for `Q` the second takes at most 0.171 of the
/// first (at `a = 20`, `eta = 1/2`; 0.148 for large `a`): no cancellation.
fn ln_smaller_side(a: f64, x: f64, sign: f64) -> Option<f64> {
    if a < A_MIN {
        return None;
    }
    // Exact: x is within a factor 2 of a in the range (Sterbenz).
    let t = (x - a) / a;
    if !(T_RANGE.0..=T_RANGE.1).contains(&t) {
        return None;
    }
    let half_sq = half_eta_sq(t);
    if half_sq > HALF_ETA_SQ_MAX {
        return None;
    }
    let z_sq = a * half_sq;
    let eta = (2.0 * half_sq).sqrt().copysign(t);
    let s = sign * sum_c(eta, a);
    let ln_half_erfc = ln_erfc_sqrt(z_sq) - LN_2;
    let ln_r = -z_sq - 0.5 * (2.0 * PI * a).ln() + s.abs().ln();
    let d = ln_r - ln_half_erfc;
    Some(if s >= 0.0 {
        ln_half_erfc.max(ln_r) + (-d.abs()).exp().ln_1p()
    } else {
        // d <= ln(1/5) < -ln 2: ln(1 - e^d) without cancellation.
        ln_half_erfc + (-d.exp()).ln_1p()
    })
}

/// `eta^2 / 2 = t - ln(1 + t)` (`lambda = 1 + t`) for `t` in `T_RANGE`:
/// with `v = t / (2 + t)`, `ln(1 + t) = 2 atanh(v)` and `t - 2 v = t v`, so
/// `t v - 2 (v^3 / 3 + v^5 / 5 + ...)`, relative rounding a few ulps
/// however small `t` (Loader's `bd0`; `|v| <= 0.28`, 15 terms at most).
fn half_eta_sq(t: f64) -> f64 {
    let v = t / (2.0 + t);
    let v_sq = v * v;
    let (mut sum, mut odd) = (t * v, 2.0 * v);
    let mut j = 1.0;
    loop {
        odd *= v_sq;
        let next = sum - odd / (2.0 * j + 1.0);
        if next == sum {
            return sum;
        }
        sum = next;
        j += 1.0;
    }
}

/// `ln erfc(sqrt(w))`, `w >= 0`. `erfc` itself up to 26 (6e-296, still
/// normal); past it `erfc(z) = e^-z^2 / (z sqrt(pi)) (1 - 1 / (2 z^2) + 1 3
/// / (2 z^2)^2 - ...)`, whose first term left out, at `z = 26`, is 3e-23.
fn ln_erfc_sqrt(w: f64) -> f64 {
    let z = w.sqrt();
    if z < 26.0 {
        return libm::erfc(z).ln();
    }
    let step = -0.5 / w;
    let (mut term, mut sum) = (1.0_f64, 1.0_f64);
    for k in 1..10 {
        term *= (2 * k - 1) as f64 * step;
        sum += term;
    }
    -w - 0.5 * std::f64::consts::PI.ln() - z.ln() + sum.ln()
}

/// `sum_k C_k(eta) a^-k`, as many terms as change it (by `C_BOUND`).
fn sum_c(eta: f64, a: f64) -> f64 {
    let inv_a = 1.0 / a;
    let (mut n, mut weight) = (1, inv_a);
    while n < C.len() && C_BOUND[n] * weight >= TERM_EPS {
        n += 1;
        weight *= inv_a;
    }
    C[..n].iter().rev().fold(0.0, |s, c| {
        s * inv_a + c.iter().rev().fold(0.0, |p, &ck| p * eta + ck)
    })
}

/// The tables, `C_0` first.
const C: [&[f64]; 12] = [&C0, &C1, &C2, &C3, &C4, &C5, &C6, &C7, &C8, &C9, &C10, &C11];

// Generated by `python3 bench/temme_coefficients.py` (Taylor coefficients
// of `C_k(eta)`, the nearest doubles, truncated where the rest sums to
// below 1e-19 at `|eta| = 1/2`).
/// `C_0(eta)`: 21 terms.
const C0: [f64; 21] = [
    -0.3333333333333333,
    0.08333333333333333,
    -0.014814814814814815,
    0.0011574074074074073,
    0.0003527336860670194,
    -0.0001787551440329218,
    3.919263178522438e-05,
    -2.185448510679992e-06,
    -1.85406221071516e-06,
    8.296711340953087e-07,
    -1.7665952736826078e-07,
    6.707853543401498e-09,
    1.0261809784240309e-08,
    -4.382036018453353e-09,
    9.14769958223679e-10,
    -2.5514193994946248e-11,
    -5.830772132550426e-11,
    2.4361948020667415e-11,
    -5.0276692801141755e-12,
    1.1004392031956135e-13,
    3.371763262400985e-13,
];
/// `C_1(eta)`: 21 terms.
const C1: [f64; 21] = [
    -0.001851851851851852,
    -0.003472222222222222,
    0.0026455026455026454,
    -0.0009902263374485596,
    0.00020576131687242798,
    -4.018775720164609e-07,
    -1.8098550334489977e-05,
    7.64916091608111e-06,
    -1.6120900894563446e-06,
    4.647127802807434e-09,
    1.378633446915721e-07,
    -5.752545603517705e-08,
    1.1951628599778148e-08,
    -1.7543241719747647e-11,
    -1.0091543710600413e-09,
    4.162792991842583e-10,
    -8.56390702649298e-11,
    6.067215101604758e-14,
    7.1624989648114856e-12,
    -2.933186643771437e-12,
    5.996696365683689e-13,
];
/// `C_2(eta)`: 22 terms.
const C2: [f64; 22] = [
    0.004133597883597883,
    -0.0026813271604938273,
    0.0007716049382716049,
    2.0093878600823047e-06,
    -0.0001073665322636516,
    5.2923448829120125e-05,
    -1.2760635188618728e-05,
    3.423578734096138e-08,
    1.3721957309062934e-06,
    -6.298992138380055e-07,
    1.4280614206064242e-07,
    -2.0477098421990866e-10,
    -1.409252991086752e-08,
    6.228974084922022e-09,
    -1.3670488396617114e-09,
    9.428356159014678e-13,
    1.2872252400089318e-10,
    -5.5645956134363323e-11,
    1.197593554636698e-11,
    -4.1689782251838634e-15,
    -1.0940640427884595e-12,
    4.662239946390136e-13,
];
/// `C_3(eta)`: 21 terms.
const C3: [f64; 21] = [
    0.0006494341563786008,
    0.00022947209362139917,
    -0.0004691894943952557,
    0.00026772063206283885,
    -7.561801671883977e-05,
    -2.396505113867297e-07,
    1.1082654115347302e-05,
    -5.6749528269915965e-06,
    1.4230900732435883e-06,
    -2.7861080291528143e-11,
    -1.6958404091930278e-07,
    8.099464905388083e-08,
    -1.9111168485973655e-08,
    2.3928620439808118e-12,
    2.0620131815488797e-09,
    -9.460496661855133e-10,
    2.1541049775774907e-10,
    -1.388823336813903e-14,
    -2.1894761681963938e-11,
    9.790998951171684e-12,
    -2.178219188018096e-12,
];
/// `C_4(eta)`: 23 terms.
const C4: [f64; 23] = [
    -0.0008618882909167117,
    0.0007840392217200666,
    -0.0002990724803031902,
    -1.4638452578843418e-06,
    6.641498215465122e-05,
    -3.968365047179435e-05,
    1.1375726970678419e-05,
    2.507497226237533e-10,
    -1.6954149536558305e-06,
    8.907507532205309e-07,
    -2.292934834000805e-07,
    2.956794137544049e-11,
    2.8865829742708783e-08,
    -1.4189739437803219e-08,
    3.4463580499464896e-09,
    -2.3024517174528067e-13,
    -3.9409233028046403e-10,
    1.86023389685045e-10,
    -4.356323005056618e-11,
    1.278600101629623e-15,
    4.67927502665792e-12,
    -2.149246470613483e-12,
    4.908815614809652e-13,
];
/// `C_5(eta)`: 23 terms.
const C5: [f64; 23] = [
    -0.00033679855336635813,
    -6.972813758365857e-05,
    0.0002772753244959392,
    -0.00019932570516188847,
    6.797780477937208e-05,
    1.419062920643967e-07,
    -1.3594048189768693e-05,
    8.018470256334202e-06,
    -2.291481176508095e-06,
    -3.252473551298454e-10,
    3.4652846491085265e-07,
    -1.8447187191171344e-07,
    4.8240967037894184e-08,
    -1.7989466721743514e-14,
    -6.306194500013523e-09,
    3.162417628774568e-09,
    -7.840924253697429e-10,
    5.192679165254041e-15,
    9.358944242306784e-11,
    -4.513426216163278e-11,
    1.0799129993116828e-11,
    -3.661886712685252e-17,
    -1.210902069055155e-12,
];
/// `C_6(eta)`: 23 terms.
const C6: [f64; 23] = [
    0.0005313079364639922,
    -0.0005921664373536939,
    0.0002708782096718045,
    7.902353232660328e-07,
    -8.153969367561969e-05,
    5.61168275310625e-05,
    -1.8329116582843375e-05,
    -3.0796134506033047e-09,
    3.465155368803609e-06,
    -2.0291327396058603e-06,
    5.788792863149004e-07,
    2.338630673826657e-13,
    -8.828600746330484e-08,
    4.7435958880408125e-08,
    -1.2545415020710383e-08,
    8.649648858010293e-14,
    1.6846058979264062e-09,
    -8.575492823577594e-10,
    2.1598224929232125e-10,
    -7.613230520476153e-16,
    -2.6639822008536144e-11,
    1.3065700536611057e-11,
    -3.1799163902367977e-12,
];
/// `C_7(eta)`: 24 terms.
const C7: [f64; 24] = [
    0.00034436760689237765,
    5.171790908260592e-05,
    -0.00033493161081142234,
    0.0002812695154763237,
    -0.00010976582244684731,
    -1.2741009095484485e-07,
    2.7744451511563645e-05,
    -1.8263488805711332e-05,
    5.7876949497350525e-06,
    4.93875893393627e-10,
    -1.0595367014026043e-06,
    6.166714376110408e-07,
    -1.7562973359060463e-07,
    -1.297447328701544e-12,
    2.695423606288966e-08,
    -1.4578352908731272e-08,
    3.887645959386175e-09,
    -3.881002251019412e-17,
    -5.327994173877286e-10,
    2.7437977643314844e-10,
    -6.995796092070568e-11,
    2.589986387486848e-17,
    8.856689099669639e-12,
    -4.403168815871311e-12,
];
/// `C_8(eta)`: 25 terms.
const C8: [f64; 25] = [
    -0.0006526239185953094,
    0.0008394987206720873,
    -0.000438297098541721,
    -6.969091458420552e-07,
    0.00016644846642067547,
    -0.00012783517679769218,
    4.629953263691304e-05,
    4.557909867922708e-09,
    -1.0595271125805195e-05,
    6.783342904865167e-06,
    -2.1075476666258803e-06,
    -1.7213731432817144e-11,
    3.773587741611098e-07,
    -2.1867506700122867e-07,
    6.220228804018927e-08,
    6.597703826733e-16,
    -9.590386497425686e-09,
    5.213214492280807e-09,
    -1.3991589583935709e-09,
    5.382058999060575e-16,
    1.9484714275467745e-10,
    -1.0127287556389682e-10,
    2.6077347197254926e-11,
    -5.090418699993299e-18,
    -3.3721464474854593e-12,
];
/// `C_9(eta)`: 25 terms.
const C9: [f64; 25] = [
    -0.0005967612901927463,
    -7.204895416020011e-05,
    0.0006782308837667328,
    -0.0006401475260262758,
    0.00027750107634328704,
    1.819700838046515e-07,
    -8.479507117068503e-05,
    6.105192082501531e-05,
    -2.1073920183404862e-05,
    -8.858589014125599e-10,
    4.5284535953805374e-06,
    -2.8427815022504407e-06,
    8.708234177864641e-07,
    3.6886101871706966e-12,
    -1.534469519070206e-07,
    8.862466778790695e-08,
    -2.5184812301826817e-08,
    -1.0225912098215092e-14,
    3.896947075815478e-09,
    -2.1267304792235634e-09,
    5.737013552805138e-10,
    -1.8877498501697116e-19,
    -8.093153869465787e-11,
    4.23827232834492e-11,
    -1.1002224534207725e-11,
];
/// `C_10(eta)`: 26 terms.
const C10: [f64; 26] = [
    0.0013324454494800656,
    -0.0019144384985654776,
    0.0011089369134596636,
    9.9324041226423e-07,
    -0.0005087450129309319,
    0.00042735056665392886,
    -0.00016858853767910798,
    -8.1301893922785e-09,
    4.5284402370562144e-05,
    -3.127053674781734e-05,
    1.044986828530338e-05,
    4.8435226265680926e-11,
    -2.148256587345626e-06,
    1.329369701097492e-06,
    -4.029569309210103e-07,
    -1.756787766632329e-13,
    7.014504316366825e-08,
    -4.040787734999483e-08,
    1.1474026743371964e-08,
    3.964274685356394e-18,
    -1.7804938269892715e-09,
    9.748026254873165e-10,
    -2.6405338676507616e-10,
    5.79487516340376e-18,
    3.764774955354384e-11,
    -1.983951296757828e-11,
];
/// `C_11(eta)`: 27 terms.
const C11: [f64; 27] = [
    0.001579727660730835,
    0.00016251626278391583,
    -0.0020633421035543276,
    0.00213896861856891,
    -0.0010108559391263003,
    -3.99127055299192e-07,
    0.0003623502508476469,
    -0.00028143901463712157,
    0.00010449513336495887,
    2.12114184918303e-09,
    -2.5779417251947842e-05,
    1.7281818956040464e-05,
    -5.641377387290428e-06,
    -1.1024320105776174e-11,
    1.1223224418895174e-06,
    -6.869339637952674e-07,
    2.0653236975414888e-07,
    4.6714772409838506e-14,
    -3.5609886164949055e-08,
    2.0470855345905963e-08,
    -5.809173863328336e-09,
    -1.3328212875828647e-16,
    9.035460439133513e-10,
    -4.959878251733084e-10,
    1.3481607129399748e-10,
    -1.670378498659395e-21,
    -1.939350490392558e-11,
];
/// `sum_n |c_n| 0.5^n`, a bound on `|C_k(eta)|` in the region.
const C_BOUND: [f64; 12] = [
    0.38279, 0.0044339, 0.0057368, 0.0009292, 0.0013433, 0.0004747, 0.00091102, 0.00050197,
    0.001212, 0.00091102, 0.0026462, 0.0025452,
];

#[cfg(test)]
#[path = "temme_tests.rs"]
mod tests;
