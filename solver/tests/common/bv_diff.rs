//! Differential check of the machine-integer contractors on points against Rust's native
//! integer operations (shared by `solver/examples/bv_diff.rs` and `solver/tests/bv_props.rs`).
//!
//! For random operands of each of the eight types — with special values weighted in: 0, ±1,
//! MIN, MAX, MIN+1, MAX-1, powers of two, and shift counts at 0, width-1, width, width+1 and
//! -1 — every forward contractor on point intervals must give exactly the native result
//! (`wrapping_*`, `checked_div`/`checked_rem` with `MIN / -1` wrapping as the `Op` docs say,
//! `<<`/`>>` for counts in range, `as` casts to all eight types), or the whole type where the
//! language leaves the result unspecified (division by 0, counts out of range). Backward
//! contractors on points must keep exactly the operand when the output is the native result,
//! and the exactly invertible ones (`+ - neg not xor`, casts) must return the empty set for any
//! other output.

use solver::contractors::bv::{self, BvSet, IntIv};
use solver::IntType;

/// Mismatch counters per type and operation.
#[derive(Default, Debug)]
pub struct DiffReport {
    /// (type name, inputs, checks, mismatches, first mismatch)
    pub rows: Vec<(String, u64, u64, u64, Option<String>)>,
}

impl DiffReport {
    pub fn total_mismatches(&self) -> u64 {
        self.rows.iter().map(|r| r.3).sum()
    }
}

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

struct Counter {
    checks: u64,
    bad: u64,
    first: Option<String>,
}

impl Counter {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.bad += 1;
            if self.first.is_none() {
                self.first = Some(what());
            }
        }
    }
}

fn exact(got: BvSet, want: Option<i128>, t: IntType) -> bool {
    match want {
        Some(w) => got.hull() == IntIv::point(w),
        None => got.hull() == bv::range(t),
    }
}

macro_rules! diff_type {
    ($name:ident, $t:ty, $signed:expr) => {
        fn $name(inputs: u64, seed: u64) -> (u64, Counter) {
            const BITS: u32 = <$t>::BITS;
            let t = IntType::new(BITS as u8, $signed);
            let mut rng = Rng(seed | 1);
            let specials: [$t; 10] = [
                0,
                1,
                (0 as $t).wrapping_sub(1),
                <$t>::MIN,
                <$t>::MAX,
                <$t>::MIN.wrapping_add(1),
                <$t>::MAX.wrapping_sub(1),
                2,
                (1 as $t) << (BITS - 1),
                (1 as $t) << (BITS / 2),
            ];
            let pick = |rng: &mut Rng| -> $t {
                let r = rng.next();
                if r % 4 == 0 {
                    specials[(r >> 8) as usize % specials.len()]
                } else if r % 4 == 1 {
                    // small magnitudes
                    ((r >> 8) % 17) as $t
                } else {
                    rng.next() as $t
                }
            };
            let mut c = Counter {
                checks: 0,
                bad: 0,
                first: None,
            };
            let p = |v: $t| IntIv::point(v as i128);
            for _ in 0..inputs {
                let a: $t = pick(&mut rng);
                let b: $t = pick(&mut rng);
                let r = rng.next();
                let k: i128 = match r % 8 {
                    0 => 0,
                    1 => BITS as i128 - 1,
                    2 => BITS as i128,
                    3 => BITS as i128 + 1,
                    4 => -1,
                    _ => ((r >> 8) % BITS as u64) as i128,
                };
                let (ai, bi) = (a as i128, b as i128);
                let div = if b == 0 {
                    None
                } else {
                    Some(a.checked_div(b).unwrap_or(a.wrapping_div(b)) as i128)
                };
                let rem = if b == 0 {
                    None
                } else {
                    Some(a.checked_rem(b).unwrap_or(a.wrapping_rem(b)) as i128)
                };
                let in_range = (0..BITS as i128).contains(&k);
                let shl = in_range.then(|| a.checked_shl(k as u32).expect("in range") as i128);
                let shr = in_range.then(|| (a >> (k as u32)) as i128);
                type Fwd2 = fn(IntType, IntIv, IntIv) -> BvSet;
                let bin: [(&str, Fwd2, Option<i128>, IntIv); 10] = [
                    ("add", bv::fwd_add, Some(a.wrapping_add(b) as i128), p(b)),
                    ("sub", bv::fwd_sub, Some(a.wrapping_sub(b) as i128), p(b)),
                    ("mul", bv::fwd_mul, Some(a.wrapping_mul(b) as i128), p(b)),
                    ("div", bv::fwd_div, div, p(b)),
                    ("rem", bv::fwd_rem, rem, p(b)),
                    ("and", bv::fwd_and, Some((a & b) as i128), p(b)),
                    ("or", bv::fwd_or, Some((a | b) as i128), p(b)),
                    ("xor", bv::fwd_xor, Some((a ^ b) as i128), p(b)),
                    ("shl", bv::fwd_shl, shl, IntIv::point(k)),
                    ("shr", bv::fwd_shr, shr, IntIv::point(k)),
                ];
                for (name, f, want, second) in bin {
                    let got = f(t, p(a), second);
                    c.check(exact(got, want, t), || {
                        format!("{name}({a}, {second:?}) = {got:?}, want {want:?}")
                    });
                }
                let neg = a.wrapping_neg() as i128;
                let not = (!a) as i128;
                c.check(exact(bv::fwd_neg(t, p(a)), Some(neg), t), || {
                    format!("neg({a})")
                });
                c.check(exact(bv::fwd_not(t, p(a)), Some(not), t), || {
                    format!("not({a})")
                });
                // casts to every type
                let casts: [(IntType, i128); 8] = [
                    (IntType::new(8, true), a as i8 as i128),
                    (IntType::new(8, false), a as u8 as i128),
                    (IntType::new(16, true), a as i16 as i128),
                    (IntType::new(16, false), a as u16 as i128),
                    (IntType::new(32, true), a as i32 as i128),
                    (IntType::new(32, false), a as u32 as i128),
                    (IntType::new(64, true), a as i64 as i128),
                    (IntType::new(64, false), a as u64 as i128),
                ];
                for (tt, want) in casts {
                    let got = bv::fwd_cast(tt, p(a));
                    c.check(exact(got, Some(want), tt), || {
                        format!("cast {a} to {} = {got:?}, want {want}", tt.name())
                    });
                    // the cast's preimage on points: exactly a, or nothing for another value
                    let back = bv::bwd_cast_a(tt, IntIv::point(want), p(a));
                    c.check(back == p(a), || format!("bwd cast {a} to {}", tt.name()));
                    let other = bv::wrap(tt, want + 1);
                    let none = bv::bwd_cast_a(tt, IntIv::point(other), p(a));
                    c.check(none.is_empty(), || format!("bwd cast {a} != {other}"));
                }
                // conversion of an int (in or out of the type) into the type
                let v = ai * 3 + (r as i8 as i128);
                let fits = bv::range(t).contains(v);
                let got = bv::fwd_convert(t, IntIv::point(v));
                c.check(exact(got, fits.then_some(v), t), || format!("convert {v}"));
                // backward on points: the operands stay, exactly
                type Bwd = fn(IntType, IntIv, IntIv, IntIv) -> IntIv;
                let bwd: [(&str, Bwd, Bwd, Option<i128>, IntIv, bool); 10] = [
                    (
                        "add",
                        bv::bwd_add_a,
                        bv::bwd_add_b,
                        Some(a.wrapping_add(b) as i128),
                        p(b),
                        true,
                    ),
                    (
                        "sub",
                        bv::bwd_sub_a,
                        bv::bwd_sub_b,
                        Some(a.wrapping_sub(b) as i128),
                        p(b),
                        true,
                    ),
                    (
                        "mul",
                        bv::bwd_mul_a,
                        bv::bwd_mul_b,
                        Some(a.wrapping_mul(b) as i128),
                        p(b),
                        false,
                    ),
                    ("div", bv::bwd_div_a, bv::bwd_div_b, div, p(b), false),
                    ("rem", bv::bwd_rem_a, bv::bwd_rem_b, rem, p(b), false),
                    (
                        "and",
                        bv::bwd_and_a,
                        |t, o, a, b| bv::bwd_and_a(t, o, b, a),
                        Some((a & b) as i128),
                        p(b),
                        false,
                    ),
                    (
                        "or",
                        bv::bwd_or_a,
                        |t, o, a, b| bv::bwd_or_a(t, o, b, a),
                        Some((a | b) as i128),
                        p(b),
                        false,
                    ),
                    (
                        "xor",
                        bv::bwd_xor_a,
                        bv::bwd_xor_b,
                        Some((a ^ b) as i128),
                        p(b),
                        true,
                    ),
                    (
                        "shl",
                        bv::bwd_shl_a,
                        |t, o, a, k| bv::bwd_shift_k(t, true, o, a, k),
                        shl,
                        IntIv::point(k),
                        false,
                    ),
                    (
                        "shr",
                        bv::bwd_shr_a,
                        |t, o, a, k| bv::bwd_shift_k(t, false, o, a, k),
                        shr,
                        IntIv::point(k),
                        false,
                    ),
                ];
                for (name, fa, fb, want, second, invertible) in bwd {
                    let out = match want {
                        Some(w) => IntIv::point(w),
                        None => IntIv::point(bi), // unspecified: any output is consistent
                    };
                    let na = fa(t, out, p(a), second);
                    let nb = fb(t, out, p(a), second);
                    c.check(na == p(a) && nb == second, || {
                        format!("bwd {name}: out {out:?} a {a} second {second:?}: {na:?} {nb:?}")
                    });
                    if invertible {
                        let w = want.expect("total");
                        let other = IntIv::point(bv::wrap(t, w + 1));
                        let na = fa(t, other, p(a), second);
                        let nb = fb(t, other, p(a), second);
                        c.check(na.is_empty() && nb.is_empty(), || {
                            format!("bwd {name} keeps a point for a wrong output")
                        });
                    }
                }
                let (na, nn) = (
                    bv::bwd_neg_a(t, IntIv::point(neg), p(a)),
                    bv::bwd_not_a(t, IntIv::point(not), p(a)),
                );
                c.check(na == p(a) && nn == p(a), || format!("bwd neg/not {a}"));
                let wrong = IntIv::point(bv::wrap(t, neg + 1));
                c.check(bv::bwd_neg_a(t, wrong, p(a)).is_empty(), || {
                    format!("bwd neg {a} wrong")
                });
                let wrong = IntIv::point(bv::wrap(t, not + 1));
                c.check(bv::bwd_not_a(t, wrong, p(a)).is_empty(), || {
                    format!("bwd not {a} wrong")
                });
            }
            (inputs, c)
        }
    };
}

diff_type!(diff_i8, i8, true);
diff_type!(diff_u8, u8, false);
diff_type!(diff_i16, i16, true);
diff_type!(diff_u16, u16, false);
diff_type!(diff_i32, i32, true);
diff_type!(diff_u32, u32, false);
diff_type!(diff_i64, i64, true);
diff_type!(diff_u64, u64, false);

/// Runs the differential check with `inputs` random operand pairs per type, the types on up
/// to `threads` threads.
pub fn run_diff(inputs: u64, seed: u64, threads: usize) -> DiffReport {
    type Runner = fn(u64, u64) -> (u64, Counter);
    let all: [(&str, Runner); 8] = [
        ("int8", diff_i8),
        ("uint8", diff_u8),
        ("int16", diff_i16),
        ("uint16", diff_u16),
        ("int32", diff_i32),
        ("uint32", diff_u32),
        ("int64", diff_i64),
        ("uint64", diff_u64),
    ];
    let mut rep = DiffReport::default();
    // one thread per type, at most `threads` at a time
    let threads = threads.max(1);
    for chunk in all.iter().enumerate().collect::<Vec<_>>().chunks(threads) {
        let results: Vec<_> = std::thread::scope(|s| {
            let hs: Vec<_> = chunk
                .iter()
                .map(|&(i, &(name, f))| {
                    s.spawn(move || (name, f(inputs, seed.wrapping_add(i as u64 * 0x9E37_79B9))))
                })
                .collect();
            hs.into_iter()
                .map(|h| h.join().expect("diff thread"))
                .collect()
        });
        for (name, (n, c)) in results {
            rep.rows
                .push((name.to_string(), n, c.checks, c.bad, c.first));
        }
    }
    rep
}
