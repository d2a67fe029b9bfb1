//! Rough per-call cost of the IEEE contractors (not a benchmark; a sanity check of the
//! hot-loop cost): `cargo run --release -p solver --example ieee_contractor_speed`.
use solver::contractors::ieee::*;
use solver::num::{FpFormat, RoundingMode};
use std::time::Instant;

fn main() {
    let f = FpFormat::F64;
    let full = FpDom::full(f);
    let x = FpDom::range(f, 1.0, 1e10);
    let y = FpDom::range(f, -3.0, 7.5);
    let z = FpDom::range(f, 2.0, 3.0);
    let p = |v: f64| FpDom::point(f, v.to_bits());
    type Case<'a> = (&'a str, Box<dyn Fn() -> FpDom + 'a>);
    let cases: Vec<Case> = vec![
        (
            "fwd_add box",
            Box::new(|| fwd_add(RoundingMode::Rne, &x, &y)),
        ),
        (
            "bwd_add_x box",
            Box::new(|| bwd_add_x(RoundingMode::Rne, &z, &x, &y)),
        ),
        (
            "bwd_add_x full",
            Box::new(|| bwd_add_x(RoundingMode::Rne, &z, &full, &full)),
        ),
        (
            "bwd_add_x point",
            Box::new(|| bwd_add_x(RoundingMode::Rne, &p(1e20), &full, &p(1.0))),
        ),
        (
            "fwd_mul full",
            Box::new(|| fwd_mul(RoundingMode::Rne, &full, &full)),
        ),
        (
            "bwd_mul_x box",
            Box::new(|| bwd_mul_x(RoundingMode::Rne, &z, &x, &y)),
        ),
        (
            "bwd_mul_x full",
            Box::new(|| bwd_mul_x(RoundingMode::Rne, &z, &full, &full)),
        ),
        (
            "bwd_div_y full",
            Box::new(|| bwd_div_y(RoundingMode::Rne, &z, &full, &full)),
        ),
        (
            "bwd_fma_a full",
            Box::new(|| bwd_fma_a(RoundingMode::Rne, &z, &full, &full, &full)),
        ),
        (
            "bwd_sqrt_x full",
            Box::new(|| bwd_sqrt_x(RoundingMode::Rne, &z, &full)),
        ),
    ];
    for (name, c) in &cases {
        let t = Instant::now();
        let mut n = 0;
        while t.elapsed().as_millis() < 300 {
            std::hint::black_box(c());
            n += 1;
        }
        println!(
            "{name:16} {:10.1} µs/call",
            t.elapsed().as_secs_f64() * 1e6 / n as f64
        );
    }
}
