//! A rough timing of the hot interval operations (ns per call), to keep an eye on cost. Not a
//! benchmark harness: `cargo test -p solver --release --test interval_speed -- --ignored
//! --nocapture` prints the numbers; it asserts nothing about speed.

use solver::contractors::{bwd_mul_a, fwd_linear};
use solver::interval::Interval;
use std::hint::black_box;
use std::time::Instant;

fn time(name: &str, n: usize, mut f: impl FnMut(usize) -> Interval) {
    let start = Instant::now();
    let mut acc = 0.0;
    for i in 0..n {
        acc += f(i).lo();
    }
    let ns = start.elapsed().as_nanos() as f64 / n as f64;
    black_box(acc);
    eprintln!("{name:>12}: {ns:6.2} ns");
}

#[test]
#[ignore = "timing only"]
fn speed() {
    // boxes with inexact ends, mixed signs, so the rounding paths do real work
    let xs: Vec<Interval> = (0..1024)
        .map(|i| {
            let a = (i as f64 * 0.37).sin() * 10.0;
            let b = a + 0.1 + (i as f64 * 0.11).cos().abs();
            Interval::new(a, i % 3 == 0, b, i % 5 == 0)
        })
        .collect();
    let n = 20_000_000;
    let x = |i: usize| black_box(xs[i & 1023]);
    let y = |i: usize| black_box(xs[(i * 7 + 3) & 1023]);
    time("add", n, |i| x(i) + y(i));
    time("mul", n, |i| x(i) * y(i));
    time("div", n, |i| x(i) / y(i));
    time("sqrt", n, |i| x(i).sqrt());
    time("pow 3", n, |i| x(i).pow(3));
    time("nrt 3", n / 10, |i| x(i).nrt(3));
    time("intersect", n, |i| x(i).intersect(y(i)));
    time("bwd_mul_a", n, |i| bwd_mul_a(x(i), y(i), x(i + 1)));
    let c = [
        Interval::point(1.0),
        Interval::point(-2.0),
        Interval::point(0.5),
    ];
    time("linear 3", n, |i| {
        fwd_linear(&c, Interval::point(1.0), &[x(i), y(i), x(i + 5)])
    });
}
