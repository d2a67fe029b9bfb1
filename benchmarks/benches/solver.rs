//! The solver's hot paths:
//! - `bcp`: CDCL + propagation on a fixed random 3-SAT instance (200 vars, 850 clauses),
//!   solved from scratch per iteration, in propagations (assigned literals) per second;
//! - `contractors`: forward and backward contractors of each family on 1,024 fixed random
//!   boxes, in contractions per second (machine integers: `bv*`, `bit*`, `shl`, `cast` on
//!   random int32/uint64 boxes, some of which wrap around);
//! - `solve_nlsat`: two nlsat corpus files end to end (load + `add_formula` + `solve`);
//! - `assumptions`: one incremental solver queried under changing assumption sets (as IC3
//!   does), time per `solve(&assumptions)` call.

use benchmarks::benchmarks_dir;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use solver::contractors::bv;
use solver::contractors::*;
use solver::{Domain, Op, Rational, Rel, Solver, SolverConfig, Sort};
use std::hint::black_box;
use std::time::Duration;

/// A seeded xorshift64 (no dependency): the instances are the same on every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Uniform in `[lo, hi)`.
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn rat(n: i64) -> Rational {
    Rational::from_integer(n.into())
}

// ------------------------------------------------------------------------------ bcp

const SAT_VARS: usize = 200;
const SAT_CLAUSES: usize = 850;

/// Clauses of a fixed random 3-SAT instance: `(var, negated)` triples over distinct vars.
fn random_3sat() -> Vec<[(usize, bool); 3]> {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    (0..SAT_CLAUSES)
        .map(|_| {
            let mut c = [(0usize, false); 3];
            for i in 0..3 {
                let v = loop {
                    let v = rng.below(SAT_VARS as u64) as usize;
                    if c[..i].iter().all(|&(w, _)| w != v) {
                        break v;
                    }
                };
                c[i] = (v, rng.below(2) == 1);
            }
            c
        })
        .collect()
}

/// Builds the instance in a fresh solver and solves it.
fn solve_3sat(clauses: &[[(usize, bool); 3]]) -> (Solver, solver::SolveResult) {
    let mut s = Solver::new(SolverConfig::default()).expect("default config");
    let lits: Vec<_> = (0..SAT_VARS)
        .map(|_| {
            let v = s.new_bool();
            s.bool_lit(v).expect("bool var")
        })
        .collect();
    for c in clauses {
        let cl = c.map(|(v, neg)| if neg { !lits[v] } else { lits[v] });
        s.add_clause(&cl);
    }
    let r = s.solve(&[]);
    (s, r)
}

fn bcp(c: &mut Criterion) {
    let clauses = random_3sat();
    let (s, r) = solve_3sat(&clauses);
    assert!(
        r.is_sat() || r.is_unsat(),
        "3-SAT instance undecided: {r:?}"
    );
    let props = s.stats().propagations;
    assert!(props > 0, "the 3-SAT instance propagates nothing");
    let mut g = c.benchmark_group("bcp");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(props));
    g.bench_function("3sat_200v_850c", |b| {
        b.iter(|| solve_3sat(black_box(&clauses)))
    });
    g.finish();
}

// ----------------------------------------------------------------------- contractors

const BOXES: usize = 1024;

/// `BOXES` argument triples with lower ends in `[lo, hi)` and widths in `[0, width)`.
fn random_boxes(seed: u64, lo: f64, hi: f64, width: f64) -> Vec<[Interval; 3]> {
    let mut rng = XorShift(seed);
    (0..BOXES)
        .map(|_| {
            [(); 3].map(|_| {
                let l = rng.uniform(lo, hi);
                Interval::closed(l, l + rng.uniform(0.0, width))
            })
        })
        .collect()
}

/// Benchmarks `fwd` and `bwd` of one family on `boxes`. The output box of each backward
/// call is the forward image of the arguments' lower halves, so that backward contracts.
fn family(
    c: &mut Criterion,
    name: &str,
    boxes: &[[Interval; 3]],
    fwd: impl Fn(&[Interval; 3]) -> Interval,
    bwd: impl Fn(Interval, &[Interval; 3]) -> Interval,
) {
    let outs: Vec<Interval> = boxes
        .iter()
        .map(|xs| {
            let lower = xs.map(|x| Interval::closed(x.lo(), x.lo() + 0.5 * (x.hi() - x.lo())));
            fwd(&lower)
        })
        .collect();
    let mut g = c.benchmark_group("contractors");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(500));
    g.throughput(Throughput::Elements(BOXES as u64));
    g.bench_function(BenchmarkId::new("fwd", name), |b| {
        b.iter(|| {
            for xs in black_box(boxes) {
                black_box(fwd(xs));
            }
        })
    });
    g.bench_function(BenchmarkId::new("bwd", name), |b| {
        b.iter(|| {
            for (xs, &out) in black_box(boxes).iter().zip(black_box(&outs)) {
                black_box(bwd(out, xs));
            }
        })
    });
    g.finish();
}

fn contractors(c: &mut Criterion) {
    let any = random_boxes(1, -10.0, 10.0, 5.0);
    let pos = random_boxes(2, 0.01, 50.0, 5.0);
    let lin = LinearCoeffs::new(
        &[rat(1), rat(-2), Rational::new(1.into(), 2.into())],
        &rat(3),
    );
    family(c, "linear3", &any, |x| lin.fwd(x), |o, x| lin.bwd(o, x, 1));
    family(
        c,
        "mul",
        &any,
        |x| fwd_mul(x[0], x[1]),
        |o, x| bwd_mul_a(o, x[0], x[1]),
    );
    family(
        c,
        "div",
        &any,
        |x| fwd_div(x[0], x[1]),
        |o, x| bwd_div_b(o, x[0], x[1]),
    );
    family(
        c,
        "pow3",
        &any,
        |x| fwd_pow(x[0], 3),
        |o, x| bwd_pow_a(o, x[0], 3),
    );
    family(
        c,
        "nrt3",
        &any,
        |x| fwd_nrt(x[0], 3),
        |o, x| bwd_nrt_a(o, x[0], 3),
    );
    family(
        c,
        "sqrt",
        &pos,
        |x| fwd_sqrt(x[0]),
        |o, x| bwd_sqrt_a(o, x[0]),
    );
    family(c, "abs", &any, |x| fwd_abs(x[0]), |o, x| bwd_abs_a(o, x[0]));
    family(
        c,
        "min",
        &any,
        |x| fwd_min(x[0], x[1]),
        |o, x| bwd_min_a(o, x[0], x[1]),
    );
    family(c, "exp", &any, |x| fwd_exp(x[0]), |o, x| bwd_exp_a(o, x[0]));
    family(c, "log", &pos, |x| fwd_log(x[0]), |o, x| bwd_log_a(o, x[0]));
    family(c, "sin", &any, |x| fwd_sin(x[0]), |o, x| bwd_sin_a(o, x[0]));
}

/// `BOXES` argument pairs of machine type `t`: boxes of width up to `2^wbits` (clamped to the
/// type), so that some wrap around and some do not.
fn random_int_boxes(seed: u64, t: solver::IntType, wbits: u32) -> Vec<[bv::IntIv; 2]> {
    let mut rng = XorShift(seed);
    let (lo, hi) = (bv::tmin(t), bv::tmax(t));
    (0..BOXES)
        .map(|_| {
            [(); 2].map(|_| {
                let l = bv::wrap(t, rng.next() as i128);
                let w = (rng.next() >> (64 - wbits)) as i128;
                bv::IntIv::new(l, (l + w).clamp(lo, hi))
            })
        })
        .collect()
}

/// Benchmarks `fwd` and `bwd` of one machine-integer operation, like [`family`]: the output
/// box of each backward call is the forward image of the arguments' lower halves.
fn bv_family(
    c: &mut Criterion,
    name: &str,
    boxes: &[[bv::IntIv; 2]],
    fwd: impl Fn(&[bv::IntIv; 2]) -> bv::BvSet,
    bwd: impl Fn(bv::IntIv, &[bv::IntIv; 2]) -> bv::IntIv,
) {
    let outs: Vec<bv::IntIv> = boxes
        .iter()
        .map(|xs| fwd(&xs.map(|x| bv::IntIv::new(x.lo, x.lo + (x.hi - x.lo) / 2))).hull())
        .collect();
    let mut g = c.benchmark_group("contractors");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(500));
    g.throughput(Throughput::Elements(BOXES as u64));
    g.bench_function(BenchmarkId::new("fwd", name), |b| {
        b.iter(|| {
            for xs in black_box(boxes) {
                black_box(fwd(xs));
            }
        })
    });
    g.bench_function(BenchmarkId::new("bwd", name), |b| {
        b.iter(|| {
            for (xs, &out) in black_box(boxes).iter().zip(black_box(&outs)) {
                black_box(bwd(out, xs));
            }
        })
    });
    g.finish();
}

fn machine_int_contractors(c: &mut Criterion) {
    let i32t = solver::IntType::new(32, true);
    let u64t = solver::IntType::new(64, false);
    let b32 = random_int_boxes(3, i32t, 20);
    let b64 = random_int_boxes(4, u64t, 40);
    let small = random_int_boxes(5, solver::IntType::new(8, false), 3);
    let t = i32t;
    bv_family(
        c,
        "bvadd_i32",
        &b32,
        |x| bv::fwd_add(t, x[0], x[1]),
        |o, x| bv::bwd_add_a(t, o, x[0], x[1]),
    );
    bv_family(
        c,
        "bvmul_i32",
        &b32,
        |x| bv::fwd_mul(t, x[0], x[1]),
        |o, x| bv::bwd_mul_a(t, o, x[0], x[1]),
    );
    bv_family(
        c,
        "bvmul_u64",
        &b64,
        |x| bv::fwd_mul(u64t, x[0], x[1]),
        |o, x| bv::bwd_mul_a(u64t, o, x[0], x[1]),
    );
    bv_family(
        c,
        "bvdiv_i32",
        &b32,
        |x| bv::fwd_div(t, x[0], x[1]),
        |o, x| bv::bwd_div_a(t, o, x[0], x[1]),
    );
    bv_family(
        c,
        "bvrem_i32",
        &b32,
        |x| bv::fwd_rem(t, x[0], x[1]),
        |o, x| bv::bwd_rem_a(t, o, x[0], x[1]),
    );
    bv_family(
        c,
        "bitand_i32",
        &b32,
        |x| bv::fwd_and(t, x[0], x[1]),
        |o, x| bv::bwd_and_a(t, o, x[0], x[1]),
    );
    bv_family(
        c,
        "bitxor_u64",
        &b64,
        |x| bv::fwd_xor(u64t, x[0], x[1]),
        |o, x| bv::bwd_xor_a(u64t, o, x[0], x[1]),
    );
    // shift counts: the small boxes of uint8 values in [0, 255], cut to 0..31 by the masks
    let counts: Vec<[bv::IntIv; 2]> = b32
        .iter()
        .zip(&small)
        .map(|(x, k)| {
            [
                x[0],
                bv::IntIv::new(k[0].lo % 32, (k[0].lo % 32 + 2).min(31)),
            ]
        })
        .collect();
    bv_family(
        c,
        "shl_i32",
        &counts,
        |x| bv::fwd_shl(t, x[0], x[1]),
        |o, x| bv::bwd_shl_a(t, o, x[0], x[1]),
    );
    let i8t = solver::IntType::new(8, true);
    bv_family(
        c,
        "cast_i32_i8",
        &b32,
        |x| bv::fwd_cast(i8t, x[0]),
        |o, x| bv::bwd_cast_a(i8t, o, x[0]),
    );
}

// ----------------------------------------------------------------------- solve_nlsat

/// Corpus files (below `hys-public/nlsat-dreal3`) and whether this solver proves them UNSAT
/// (`false`: SAT or CANDIDATE). `atan-vega-3-weak-chunk-0244` takes ≈ 60 ms in
/// `icpic3 solve` (42,368 propagations).
const NLSAT_FILES: [(&str, bool); 2] = [
    ("hong/hong_1.hys", true),
    (
        "meti-tarski/atan/vega/3/weak/atan-vega-3-weak-chunk-0244.hys",
        true,
    ),
];

fn solve_formula(f: &solver::Formula) -> solver::SolveResult {
    let mut s = Solver::new(SolverConfig::default()).expect("default config");
    s.add_formula(f);
    s.solve(&[])
}

fn solve_nlsat(c: &mut Criterion) {
    let dir = benchmarks_dir().join("hys-public/nlsat-dreal3");
    let mut g = c.benchmark_group("solve_nlsat");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(3));
    for (file, unsat) in NLSAT_FILES {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (set ICPIC3_BENCHMARKS)", path.display()));
        let load = |t: &str| match frontend::hys::load(t).expect("corpus file loads").lowered {
            frontend::hys::Lowered::Expr(f) => f,
            frontend::hys::Lowered::Transition(_) => panic!("{file} is not a plain formula"),
        };
        let r = solve_formula(&load(&text));
        assert!(
            if unsat {
                r.is_unsat()
            } else {
                r.model().is_some()
            },
            "{file}: expected {}, got {r:?}",
            if unsat { "UNSAT" } else { "SAT/CANDIDATE" }
        );
        let name = file.rsplit('/').next().unwrap_or(file);
        g.bench_function(name, |b| {
            b.iter(|| solve_formula(&load(black_box(&text))).is_unsat())
        });
    }
    g.finish();
}

// ----------------------------------------------------------------------- assumptions

const CHAIN: usize = 20;

fn assumptions(c: &mut Criterion) {
    // x_0 ∈ [0, 100], x_{i+1} = x_i + 1: x_CHAIN = x_0 + CHAIN
    let mut s = Solver::new(SolverConfig::default()).expect("default config");
    let dom = Domain::closed(rat(0), rat(100));
    let mut xs = vec![s.new_var(Sort::Real, &dom)];
    for i in 0..CHAIN {
        let x = s.new_var(Sort::Real, &Domain::unbounded());
        s.add_def(
            x,
            Op::Linear {
                coeffs: vec![rat(1)],
                constant: rat(1),
            },
            vec![xs[i]],
        );
        xs.push(x);
    }
    // query k: x_0 >= 5k ∧ x_CHAIN <= 5k + CHAIN ± 1 (SAT for even k, UNSAT for odd k)
    let queries: Vec<(Vec<_>, bool)> = (0..16i64)
        .map(|k| {
            let unsat = k % 2 == 1;
            let hi = 5 * k + CHAIN as i64 + if unsat { -1 } else { 1 };
            let a = s.bound_lit(xs[0], Rel::Ge, &rat(5 * k));
            let b = s.bound_lit(xs[CHAIN], Rel::Le, &rat(hi));
            (vec![a, b], unsat)
        })
        .collect();
    for (k, (q, unsat)) in queries.iter().enumerate() {
        let r = s.solve(q);
        assert!(
            if *unsat {
                r.is_unsat()
            } else {
                r.model().is_some()
            },
            "query {k}: expected unsat = {unsat}, got {r:?}"
        );
    }
    let mut g = c.benchmark_group("assumptions");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(2));
    g.bench_function("linear_chain_20", |b| {
        let mut k = 0;
        b.iter(|| {
            let (q, _) = &queries[k % queries.len()];
            k += 1;
            s.solve(black_box(q)).is_unsat()
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    bcp,
    contractors,
    machine_int_contractors,
    solve_nlsat,
    assumptions
);
criterion_main!(benches);
