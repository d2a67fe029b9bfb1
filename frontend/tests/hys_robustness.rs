//! Robustness: random, mostly ill-typed `.hys` files over every type, function, operator and
//! rounding mode (in right and wrong places) must never make the checker or the lowering
//! panic; a file that checks must lower without error, deterministically, and a transition
//! system must validate.

use frontend::hys::check::check;
use frontend::hys::lower::{lower, Lowered};
use frontend::hys::parser::parse;
use proptest::prelude::*;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const DECLS: &str = "DECL
  define k = 3;
  define h = 0.5;
  boole b, c;
  int [-3, 3] n;
  int [0, 300] m;
  float [-2, 2] x;
  float (0, 1] p;
  fp32 f;
  fp64 d;
  fp64 [-1, 1] e;
  int8 a;
  uint16 u;
  static int32 s;
";

const LEAVES: &[&str] = &[
    "b", "c", "n", "m", "x", "p", "f", "d", "e", "a", "u", "s", "k", "h", "0", "1", "2", "-1",
    "0.1", "-0.0", "1e39", "1e400", "300", "-128", "0x1.8p+1", "true", "false", "RNE", "RTZ", "zz",
    "n'", "b'", "s'", "k'",
];

const FUNCS: &[(&str, usize)] = &[
    ("abs", 1),
    ("min", 2),
    ("max", 2),
    ("sin", 1),
    ("cos", 1),
    ("tan", 1),
    ("exp", 1),
    ("exp2", 1),
    ("exp10", 1),
    ("log", 1),
    ("log2", 1),
    ("log10", 1),
    ("nrt", 2),
    ("pow", 2),
    ("sqrt", 1),
    ("ite", 3),
    ("fadd", 3),
    ("fsub", 3),
    ("fmul", 3),
    ("fdiv", 3),
    ("fsqrt", 2),
    ("ffma", 4),
    ("fabs", 1),
    ("fmin", 2),
    ("fmax", 2),
    ("feq", 2),
    ("isnan", 1),
    ("isinf", 1),
    ("iszero", 1),
    ("issubnormal", 1),
    ("isnormal", 1),
    ("isneg", 1),
    ("to_fp32", 1),
    ("to_fp64", 2),
    ("to_real", 1),
    ("to_int", 1),
    ("to_int8", 1),
    ("to_uint16", 1),
    ("to_int32", 1),
    ("bitand", 2),
    ("bitor", 2),
    ("bitxor", 2),
    ("bitnot", 1),
    ("shl", 2),
    ("shr", 2),
];

const BINOPS: &[&str] = &[
    "+", "-", "*", "/", "^", "<", "<=", "=", "!=", ">=", ">", "and", "or", "xor", "nand", "nor",
    "nxor", "->", "<->", "<-",
];

fn gen(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.below(4) == 0 {
        return r.pick(LEAVES).to_string();
    }
    let d = depth - 1;
    match r.below(6) {
        0 => format!("(- {})", gen(r, d)),
        1 => format!("(!{})", gen(r, d)),
        2 => {
            let (f, n) = FUNCS[r.below(FUNCS.len() as u64) as usize];
            // sometimes a wrong number of arguments
            let n = if r.below(10) == 0 { n + 1 } else { n };
            let args: Vec<String> = (0..n).map(|_| gen(r, d)).collect();
            format!("{f}({})", args.join(", "))
        }
        _ => {
            let op = r.pick(BINOPS);
            format!("({} {op} {})", gen(r, d), gen(r, d))
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Ty {
    Bool,
    Num,
    F32,
    F64,
    I8,
    U16,
}

/// Mostly well-typed expressions of type `ty` (with a few random ones mixed in).
fn typed(r: &mut Rng, ty: Ty, depth: u32) -> String {
    if r.below(25) == 0 {
        return gen(r, depth.min(2));
    }
    let d = depth.saturating_sub(1);
    let leaf = depth == 0 || r.below(3) == 0;
    match ty {
        Ty::Bool => {
            if leaf {
                return r
                    .pick(&["b", "c", "true", "false", "b'", "(n > 0)"])
                    .to_string();
            }
            match r.below(9) {
                0 => format!("(!{})", typed(r, Ty::Bool, d)),
                1 | 2 => {
                    let op = r.pick(&["and", "or", "xor", "->", "<->", "nand", "<-"]);
                    format!("({} {op} {})", typed(r, Ty::Bool, d), typed(r, Ty::Bool, d))
                }
                3 => format!(
                    "ite({}, {}, {})",
                    typed(r, Ty::Bool, d),
                    typed(r, Ty::Bool, d),
                    typed(r, Ty::Bool, d)
                ),
                4 => {
                    let p = r.pick(&["isnan", "isinf", "iszero", "isneg", "isnormal"]);
                    let t = if r.below(2) == 0 { Ty::F32 } else { Ty::F64 };
                    format!("{p}({})", typed(r, t, d))
                }
                _ => {
                    let t =
                        [Ty::Num, Ty::Num, Ty::F32, Ty::F64, Ty::I8, Ty::U16][r.below(6) as usize];
                    let op = r.pick(&["<", "<=", "=", "!=", ">=", ">"]);
                    format!("({} {op} {})", typed(r, t, d), typed(r, t, d))
                }
            }
        }
        Ty::Num => {
            if leaf {
                return r
                    .pick(&[
                        "n", "m", "x", "p", "k", "h", "2", "-1", "0.5", "b", "n'", "x'",
                    ])
                    .to_string();
            }
            match r.below(10) {
                0 => format!("(- {})", typed(r, Ty::Num, d)),
                1 => format!("({})^{}", typed(r, Ty::Num, d), r.below(4)),
                2 => {
                    let f = r.pick(&["abs", "sin", "exp", "log", "sqrt", "cos"]);
                    format!("{f}({})", typed(r, Ty::Num, d))
                }
                3 => {
                    let f = r.pick(&["min", "max"]);
                    format!("{f}({}, {})", typed(r, Ty::Num, d), typed(r, Ty::Num, d))
                }
                4 => format!(
                    "ite({}, {}, {})",
                    typed(r, Ty::Bool, d),
                    typed(r, Ty::Num, d),
                    typed(r, Ty::Num, d)
                ),
                5 => {
                    let f = r.pick(&["to_real", "to_int"]);
                    let t = [Ty::F64, Ty::I8, Ty::U16][r.below(3) as usize];
                    format!("{f}({})", typed(r, t, d))
                }
                6 => format!("nrt({}, {})", typed(r, Ty::Num, d), 1 + r.below(3)),
                _ => {
                    let op = r.pick(&["+", "-", "*", "/"]);
                    format!("({} {op} {})", typed(r, Ty::Num, d), typed(r, Ty::Num, d))
                }
            }
        }
        Ty::F32 | Ty::F64 => {
            let (v, conv) = if ty == Ty::F32 {
                ("f", "to_fp32")
            } else {
                (r.pick(&["d", "e"]), "to_fp64")
            };
            if leaf {
                return r.pick(&[v, "0.1", "-0.0", "1e39", "2"]).to_string();
            }
            match r.below(8) {
                0 => format!("(- {})", typed(r, ty, d)),
                1 => {
                    let f = r.pick(&["fadd", "fsub", "fmul", "fdiv"]);
                    let m = r.pick(&["RNE", "RNA", "RTP", "RTN", "RTZ"]);
                    format!("{f}({}, {}, {m})", typed(r, ty, d), typed(r, ty, d))
                }
                2 => {
                    let src = [Ty::Num, Ty::F32, Ty::F64, Ty::I8][r.below(4) as usize];
                    format!("{conv}({})", typed(r, src, d))
                }
                3 => format!(
                    "ite({}, {}, {})",
                    typed(r, Ty::Bool, d),
                    typed(r, ty, d),
                    typed(r, ty, d)
                ),
                4 => {
                    let f = r.pick(&["fmin", "fmax"]);
                    format!("{f}({}, {})", typed(r, ty, d), typed(r, ty, d))
                }
                _ => {
                    let op = r.pick(&["+", "-", "*", "/"]);
                    format!("({} {op} {})", typed(r, ty, d), typed(r, ty, d))
                }
            }
        }
        Ty::I8 | Ty::U16 => {
            let (v, conv) = if ty == Ty::I8 {
                ("a", "to_int8")
            } else {
                ("u", "to_uint16")
            };
            if leaf {
                return r.pick(&[v, "1", "-1", "100", "0"]).to_string();
            }
            match r.below(7) {
                0 => format!("(- {})", typed(r, ty, d)),
                1 => {
                    let f = r.pick(&["bitand", "bitor", "bitxor"]);
                    format!("{f}({}, {})", typed(r, ty, d), typed(r, ty, d))
                }
                2 => {
                    let src = [Ty::Num, Ty::F64, Ty::I8, Ty::U16][r.below(4) as usize];
                    let e = if src == Ty::Num {
                        "m".to_string()
                    } else {
                        typed(r, src, d)
                    };
                    format!("{conv}({e})")
                }
                3 => format!("shl({}, {})", typed(r, ty, d), r.below(4)),
                _ => {
                    let op = r.pick(&["+", "-", "*", "/"]);
                    format!("({} {op} {})", typed(r, ty, d), typed(r, ty, d))
                }
            }
        }
    }
}

fn file(r: &mut Rng, transition: bool) -> String {
    let mut text = String::from(DECLS);
    let sections: &[&str] = if transition {
        &["INIT", "TRANS", "TARGET"]
    } else {
        &["EXPR"]
    };
    for s in sections {
        text.push_str(s);
        text.push('\n');
        for _ in 0..=r.below(3) {
            let mut c = if r.below(4) == 0 {
                gen(r, 4)
            } else {
                typed(r, Ty::Bool, 4)
            };
            // primes belong in TRANS (mostly)
            if *s != "TRANS" && r.below(8) != 0 {
                c = c.replace('\'', "");
            }
            text.push_str(&format!("  {c};\n"));
        }
    }
    text
}

fn dump(l: &Lowered) -> String {
    match l {
        Lowered::Expr(f) => f.to_string(),
        Lowered::Transition(ts) => format!("{}{}{}", ts.init, ts.trans, ts.target),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn random_files_never_panic(seed in any::<u64>(), transition in any::<bool>()) {
        let mut r = Rng(seed);
        let text = file(&mut r, transition);
        let Ok(ast) = parse(&text) else {
            return Ok(());
        };
        let (ck, diags) = check(&ast);
        prop_assert_eq!(ck.is_none(), diags.iter().any(|d| d.is_error()));
        // diagnostics are sorted by position
        prop_assert!(diags.windows(2).all(|w| w[0].span.start <= w[1].span.start));
        if let Some(ck) = ck {
            let l = lower(&ck);
            prop_assert!(l.is_ok(), "lowering failed: {:?}\n{}", l.err(), text);
            let l = l.unwrap_or_else(|_| unreachable!());
            if let Lowered::Transition(ts) = &l {
                prop_assert!(ts.validate().is_ok(), "{:?}", ts.validate());
            }
            let again = lower(&ck).map(|l| dump(&l));
            prop_assert_eq!(Ok(dump(&l)), again.map_err(|d| d.message));
        }
    }
}

/// Some generated files must check, or the property above tests little.
#[test]
fn the_generator_produces_checkable_files() {
    let mut ok = 0;
    for seed in 0..2000u64 {
        let mut r = Rng(seed);
        let text = file(&mut r, seed % 2 == 0);
        if let Ok(ast) = parse(&text) {
            if check(&ast).0.is_some() {
                ok += 1;
            }
        }
    }
    assert!(ok > 200, "only {ok} of 2000 generated files check");
}
