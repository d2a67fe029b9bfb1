//! A rough timing of the transcendental contractors (ns per call), to keep an eye on the cost
//! of MPFR. Not a benchmark harness: `cargo test -p solver --release --test
//! transcendental_speed -- --ignored --nocapture` prints the numbers; it asserts nothing
//! about speed.

use solver::contractors::transcendental::point_enclosure;
use solver::contractors::*;
use solver::interval::Interval;
use std::hint::black_box;
use std::time::Instant;

fn time(name: &str, n: usize, mut f: impl FnMut(usize) -> f64) {
    let start = Instant::now();
    let mut acc = 0.0;
    for i in 0..n {
        acc += f(i);
    }
    let ns = start.elapsed().as_nanos() as f64 / n as f64;
    black_box(acc);
    eprintln!("{name:>26}: {ns:8.0} ns");
}

#[test]
#[ignore = "timing only"]
fn speed() {
    // boxes of width 0.1 .. 1.1 around [-10, 10], ends open or closed
    let xs: Vec<Interval> = (0..1024)
        .map(|i| {
            let a = (i as f64 * 0.37).sin() * 10.0;
            let b = a + 0.1 + (i as f64 * 0.11).cos().abs();
            Interval::new(a, i % 3 == 0, b, i % 5 == 0)
        })
        .collect();
    let pos: Vec<Interval> = xs
        .iter()
        .map(|x| Interval::new(x.lo().abs() + 0.5, false, x.hi().abs() + 2.0, false))
        .collect();
    let huge: Vec<Interval> = xs.iter().map(|x| Interval::point(x.lo() * 1e300)).collect();
    let n = 200_000;
    let x = |i: usize| black_box(xs[i & 1023]);
    let p = |i: usize| black_box(pos[i & 1023]);
    time("point_enclosure exp", n, |i| {
        point_enclosure(Transcendental::Exp, x(i).lo()).map_or(0.0, |e| e.0)
    });
    time("point_enclosure sin", n, |i| {
        point_enclosure(Transcendental::Sin, x(i).lo()).map_or(0.0, |e| e.0)
    });
    time("fwd_exp", n, |i| fwd_exp(x(i)).lo());
    time("fwd_exp10", n, |i| fwd_exp10(x(i)).lo());
    time("fwd_log", n, |i| fwd_log(p(i)).lo());
    time("fwd_sin", n, |i| fwd_sin(x(i)).lo());
    time("fwd_cos", n, |i| fwd_cos(x(i)).lo());
    time("fwd_tan", n, |i| fwd_tan(x(i)).lo());
    time("fwd_sin (point 1e300)", n / 10, |i| {
        fwd_sin(black_box(huge[i & 1023])).lo()
    });
    time("bwd_exp_a", n, |i| bwd_exp_a(p(i), x(i + 1)).lo());
    time("bwd_log_a", n, |i| bwd_log_a(x(i), p(i + 1)).lo());
    let half = Interval::closed(0.5, 0.75);
    time("bwd_sin_a", n, |i| bwd_sin_a(half, x(i)).lo());
    time("bwd_cos_a", n, |i| bwd_cos_a(half, x(i)).lo());
    time("bwd_tan_a", n, |i| bwd_tan_a(half, x(i)).lo());
}
