//! Semantic test of the lowering: random Int/Bool formulas (over small-range `int` and
//! `boole` variables with `+ - *`, `^`, `abs`, `min`, `max`, `ite`, relations, Booleans as
//! numbers, and every Boolean connective) are written as `.hys` text, checked and lowered.
//! For every assignment of the declared variables, the truth value of the source formula
//! (computed by a small evaluator over the generated tree) must equal the value of the lowered
//! formula under that assignment: definitions computed in order, Tseitin variables determined
//! by their (full) definitions through unit propagation, then all clauses and roots checked.

use frontend::hys::check::check;
use frontend::hys::lower::{lower, Lowered};
use frontend::hys::parser::parse;
use num_traits::{One, Signed};
use proptest::prelude::*;
use solver::formula::{Atom, Formula, Op, Sort};
use solver::num::Rational;
use solver::Var;

// ------------------------------------------------------------------ random source formulas

#[derive(Clone, Debug)]
enum IE {
    Var(usize),
    Const(i64),
    Add(Box<IE>, Box<IE>),
    Sub(Box<IE>, Box<IE>),
    Mul(Box<IE>, Box<IE>),
    Neg(Box<IE>),
    Pow(Box<IE>, u32),
    Abs(Box<IE>),
    Min(Box<IE>, Box<IE>),
    Max(Box<IE>, Box<IE>),
    Ite(Box<BE>, Box<IE>, Box<IE>),
    /// a Boolean used as 0/1
    Num(Box<BE>),
}

#[derive(Clone, Copy, Debug)]
enum BOp {
    And,
    Or,
    Xor,
    Nand,
    Nor,
    Nxor,
    Impl,
    Iff,
    RevImpl,
}

#[derive(Clone, Copy, Debug)]
enum ROp {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

#[derive(Clone, Debug)]
enum BE {
    Var(usize),
    Const(bool),
    Not(Box<BE>),
    Bin(BOp, Box<BE>, Box<BE>),
    Rel(ROp, Box<IE>, Box<IE>),
    Ite(Box<BE>, Box<BE>, Box<BE>),
    /// Boolean (in)equality `a = b`, `a != b`
    Eq(bool, Box<BE>, Box<BE>),
}

/// Integer variables `x0`, `x1` and their ranges; Boolean variables `b0`, `b1`.
const INT_RANGES: [(i64, i64); 2] = [(-2, 2), (-1, 2)];
const BOOLS: usize = 2;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn gen_int(r: &mut Rng, depth: u32) -> IE {
    if depth == 0 || r.below(4) == 0 {
        return match r.below(3) {
            0 => IE::Const(r.below(7) as i64 - 3),
            1 => IE::Num(Box::new(BE::Var(r.below(BOOLS as u64) as usize))),
            _ => IE::Var(r.below(INT_RANGES.len() as u64) as usize),
        };
    }
    let d = depth - 1;
    let b = |r: &mut Rng| Box::new(gen_int(r, d));
    match r.below(11) {
        0 | 1 => IE::Add(b(r), b(r)),
        2 => IE::Sub(b(r), b(r)),
        3 | 4 => IE::Mul(b(r), b(r)),
        5 => IE::Neg(b(r)),
        6 => IE::Pow(b(r), r.below(4) as u32),
        7 => IE::Abs(b(r)),
        8 => {
            if r.below(2) == 0 {
                IE::Min(b(r), b(r))
            } else {
                IE::Max(b(r), b(r))
            }
        }
        9 => IE::Ite(Box::new(gen_bool(r, d)), b(r), b(r)),
        _ => IE::Num(Box::new(gen_bool(r, d))),
    }
}

fn gen_bool(r: &mut Rng, depth: u32) -> BE {
    if depth == 0 || r.below(5) == 0 {
        return match r.below(6) {
            0 => BE::Const(r.below(2) == 0),
            1 | 2 => BE::Var(r.below(BOOLS as u64) as usize),
            _ => BE::Rel(rel(r), Box::new(gen_int(r, 0)), Box::new(gen_int(r, 0))),
        };
    }
    let d = depth - 1;
    let b = |r: &mut Rng| Box::new(gen_bool(r, d));
    match r.below(9) {
        0 => BE::Not(b(r)),
        1..=3 => {
            let ops = [
                BOp::And,
                BOp::Or,
                BOp::Xor,
                BOp::Nand,
                BOp::Nor,
                BOp::Nxor,
                BOp::Impl,
                BOp::Iff,
                BOp::RevImpl,
            ];
            let op = ops[r.below(ops.len() as u64) as usize];
            BE::Bin(op, b(r), b(r))
        }
        4..=6 => BE::Rel(rel(r), Box::new(gen_int(r, d)), Box::new(gen_int(r, d))),
        7 => BE::Ite(b(r), b(r), b(r)),
        _ => BE::Eq(r.below(2) == 0, b(r), b(r)),
    }
}

fn rel(r: &mut Rng) -> ROp {
    [ROp::Lt, ROp::Le, ROp::Eq, ROp::Ne, ROp::Ge, ROp::Gt][r.below(6) as usize]
}

fn print_int(e: &IE) -> String {
    match e {
        IE::Var(i) => format!("x{i}"),
        IE::Const(c) if *c < 0 => format!("(-{})", -c),
        IE::Const(c) => c.to_string(),
        IE::Add(a, b) => format!("({} + {})", print_int(a), print_int(b)),
        IE::Sub(a, b) => format!("({} - {})", print_int(a), print_int(b)),
        IE::Mul(a, b) => format!("({} * {})", print_int(a), print_int(b)),
        IE::Neg(a) => format!("(-{})", print_int(a)),
        IE::Pow(a, n) => format!("({})^{n}", print_int(a)),
        IE::Abs(a) => format!("abs({})", print_int(a)),
        IE::Min(a, b) => format!("min({}, {})", print_int(a), print_int(b)),
        IE::Max(a, b) => format!("max({}, {})", print_int(a), print_int(b)),
        IE::Ite(c, a, b) => format!("ite({}, {}, {})", print_bool(c), print_int(a), print_int(b)),
        IE::Num(b) => print_bool(b),
    }
}

fn print_bool(e: &BE) -> String {
    match e {
        BE::Var(i) => format!("b{i}"),
        BE::Const(c) => c.to_string(),
        BE::Not(a) => format!("(!{})", print_bool(a)),
        BE::Bin(op, a, b) => {
            let s = match op {
                BOp::And => "and",
                BOp::Or => "or",
                BOp::Xor => "xor",
                BOp::Nand => "nand",
                BOp::Nor => "nor",
                BOp::Nxor => "nxor",
                BOp::Impl => "->",
                BOp::Iff => "<->",
                BOp::RevImpl => "<-",
            };
            format!("({} {s} {})", print_bool(a), print_bool(b))
        }
        BE::Rel(op, a, b) => {
            let s = match op {
                ROp::Lt => "<",
                ROp::Le => "<=",
                ROp::Eq => "=",
                ROp::Ne => "!=",
                ROp::Ge => ">=",
                ROp::Gt => ">",
            };
            format!("({} {s} {})", print_int(a), print_int(b))
        }
        BE::Ite(c, a, b) => format!(
            "ite({}, {}, {})",
            print_bool(c),
            print_bool(a),
            print_bool(b)
        ),
        BE::Eq(ne, a, b) => {
            format!(
                "({} {} {})",
                print_bool(a),
                if *ne { "!=" } else { "=" },
                print_bool(b)
            )
        }
    }
}

// ------------------------------------------------------------------ source semantics

fn eval_int(e: &IE, xs: &[i64], bs: &[bool]) -> Rational {
    let z = |v: i64| Rational::from_integer(v.into());
    match e {
        IE::Var(i) => z(xs[*i]),
        IE::Const(c) => z(*c),
        IE::Add(a, b) => eval_int(a, xs, bs) + eval_int(b, xs, bs),
        IE::Sub(a, b) => eval_int(a, xs, bs) - eval_int(b, xs, bs),
        IE::Mul(a, b) => eval_int(a, xs, bs) * eval_int(b, xs, bs),
        IE::Neg(a) => -eval_int(a, xs, bs),
        IE::Pow(a, n) => {
            let v = eval_int(a, xs, bs);
            (0..*n).fold(Rational::one(), |acc, _| acc * &v)
        }
        IE::Abs(a) => eval_int(a, xs, bs).abs(),
        IE::Min(a, b) => eval_int(a, xs, bs).min(eval_int(b, xs, bs)),
        IE::Max(a, b) => eval_int(a, xs, bs).max(eval_int(b, xs, bs)),
        IE::Ite(c, a, b) => {
            if eval_bool(c, xs, bs) {
                eval_int(a, xs, bs)
            } else {
                eval_int(b, xs, bs)
            }
        }
        IE::Num(b) => z(eval_bool(b, xs, bs) as i64),
    }
}

fn eval_bool(e: &BE, xs: &[i64], bs: &[bool]) -> bool {
    match e {
        BE::Var(i) => bs[*i],
        BE::Const(c) => *c,
        BE::Not(a) => !eval_bool(a, xs, bs),
        BE::Bin(op, a, b) => {
            let (a, b) = (eval_bool(a, xs, bs), eval_bool(b, xs, bs));
            match op {
                BOp::And => a && b,
                BOp::Or => a || b,
                BOp::Xor => a != b,
                BOp::Nand => !(a && b),
                BOp::Nor => !(a || b),
                BOp::Nxor | BOp::Iff => a == b,
                BOp::Impl => !a || b,
                BOp::RevImpl => a || !b,
            }
        }
        BE::Rel(op, a, b) => {
            let (a, b) = (eval_int(a, xs, bs), eval_int(b, xs, bs));
            match op {
                ROp::Lt => a < b,
                ROp::Le => a <= b,
                ROp::Eq => a == b,
                ROp::Ne => a != b,
                ROp::Ge => a >= b,
                ROp::Gt => a > b,
            }
        }
        BE::Ite(c, a, b) => {
            if eval_bool(c, xs, bs) {
                eval_bool(a, xs, bs)
            } else {
                eval_bool(b, xs, bs)
            }
        }
        BE::Eq(ne, a, b) => (eval_bool(a, xs, bs) == eval_bool(b, xs, bs)) != *ne,
    }
}

// ------------------------------------------------------------------ lowered semantics

#[derive(Clone, Debug, PartialEq)]
enum Val {
    B(bool),
    N(Rational),
}

/// The value of `f` with the declared variables (the first ones, in declaration order) set
/// to `declared`: `None` when a Tseitin or auxiliary variable stays undetermined (an
/// incomplete encoding).
fn eval_formula(f: &Formula, declared: &[Val]) -> Result<bool, String> {
    let n = f.vars.len();
    let mut v: Vec<Option<Val>> = vec![None; n];
    for (i, d) in declared.iter().enumerate() {
        v[i] = Some(d.clone());
    }
    for (x, info) in f.vars.iter() {
        if matches!(info.origin, solver::VarOrigin::Constant) && info.sort != Sort::Bool {
            let lo = info.domain.lo.as_ref().ok_or("constant without a value")?;
            v[x.index()] = Some(Val::N(lo.value.clone()));
        }
    }
    let num = |v: &[Option<Val>], x: Var| match &v[x.index()] {
        Some(Val::N(q)) => Some(q.clone()),
        _ => None,
    };
    let boolean = |v: &[Option<Val>], x: Var| match &v[x.index()] {
        Some(Val::B(b)) => Some(*b),
        _ => None,
    };
    let lit_value = |v: &[Option<Val>], l: solver::Lit| -> Option<bool> {
        let val = match f.atom(l.atom()) {
            Atom::Bool(x) => boolean(v, *x)?,
            Atom::Bound { var, rel, value } => rel.holds(num(v, *var)?.cmp(value)),
        };
        Some(val != l.is_negated())
    };
    loop {
        let mut progress = false;
        for d in &f.defs {
            if v[d.out.index()].is_some() {
                continue;
            }
            let args: Option<Vec<Val>> = d.args.iter().map(|&a| v[a.index()].clone()).collect();
            let Some(args) = args else { continue };
            let nv = |i: usize| match &args[i] {
                Val::N(q) => q.clone(),
                Val::B(b) => Rational::from_integer((*b as i64).into()),
            };
            let out = match &d.op {
                Op::Linear { coeffs, constant } => Val::N(
                    coeffs
                        .iter()
                        .enumerate()
                        .fold(constant.clone(), |acc, (i, c)| acc + c * nv(i)),
                ),
                Op::Mul => Val::N(nv(0) * nv(1)),
                Op::Pow(k) => Val::N((0..*k).fold(Rational::one(), |acc, _| acc * nv(0))),
                Op::Abs => Val::N(nv(0).abs()),
                Op::Min => Val::N(nv(0).min(nv(1))),
                Op::Max => Val::N(nv(0).max(nv(1))),
                Op::BoolToNum => Val::N(nv(0)),
                Op::Ite => match &args[0] {
                    Val::B(true) => args[1].clone(),
                    Val::B(false) => args[2].clone(),
                    Val::N(_) => return Err("ite condition is not Boolean".into()),
                },
                op => return Err(format!("unexpected operation {op:?}")),
            };
            if f.vars[d.out].sort == Sort::Int {
                if let Val::N(q) = &out {
                    if !q.is_integer() {
                        return Err(format!("Int auxiliary {} gets {q}", f.vars[d.out].name));
                    }
                }
            }
            v[d.out.index()] = Some(out);
            progress = true;
        }
        // unit propagation through the Tseitin clauses
        for c in &f.clauses {
            let mut unknown = None;
            let mut n_unknown = 0;
            let mut sat = false;
            for &l in c {
                match lit_value(&v, l) {
                    Some(true) => sat = true,
                    Some(false) => {}
                    None => {
                        n_unknown += 1;
                        unknown = Some(l);
                    }
                }
            }
            if sat || n_unknown != 1 {
                continue;
            }
            if let Some(l) = unknown {
                if let Atom::Bool(x) = f.atom(l.atom()) {
                    if v[x.index()].is_none() {
                        v[x.index()] = Some(Val::B(!l.is_negated()));
                        progress = true;
                    }
                }
            }
        }
        if !progress {
            break;
        }
    }
    for c in &f.clauses {
        let mut sat = false;
        for &l in c {
            match lit_value(&v, l) {
                Some(true) => sat = true,
                Some(false) => {}
                None => return Err(format!("undetermined literal {}", f.lit_to_string(l))),
            }
        }
        if !sat {
            return Ok(false);
        }
    }
    for &r in &f.roots {
        match lit_value(&v, r) {
            Some(true) => {}
            Some(false) => return Ok(false),
            None => return Err(format!("undetermined root {}", f.lit_to_string(r))),
        }
    }
    Ok(true)
}

fn assignments() -> Vec<(Vec<i64>, Vec<bool>)> {
    let mut out = vec![(vec![], vec![])];
    for &(lo, hi) in &INT_RANGES {
        out = out
            .into_iter()
            .flat_map(|(xs, bs)| {
                (lo..=hi).map(move |x| {
                    let mut xs = xs.clone();
                    xs.push(x);
                    (xs, bs.clone())
                })
            })
            .collect();
    }
    for _ in 0..BOOLS {
        out = out
            .into_iter()
            .flat_map(|(xs, bs)| {
                [false, true].into_iter().map(move |b| {
                    let mut bs = bs.clone();
                    bs.push(b);
                    (xs.clone(), bs)
                })
            })
            .collect();
    }
    out
}

fn check_formula(constraints: &[BE]) -> Result<(), String> {
    let mut text = String::from("DECL\n");
    for (i, (lo, hi)) in INT_RANGES.iter().enumerate() {
        text.push_str(&format!("  int [{lo}, {hi}] x{i};\n"));
    }
    for i in 0..BOOLS {
        text.push_str(&format!("  boole b{i};\n"));
    }
    text.push_str("EXPR\n");
    for c in constraints {
        text.push_str(&format!("  {};\n", print_bool(c)));
    }
    let file = parse(&text).map_err(|d| format!("parse error {d:?} in\n{text}"))?;
    let (ck, diags) = check(&file);
    let ck = ck.ok_or_else(|| format!("check failed: {diags:?}\n{text}"))?;
    let f = match lower(&ck).map_err(|d| format!("{d:?}"))? {
        Lowered::Expr(f) => f,
        Lowered::Transition(_) => return Err("not an EXPR file".into()),
    };
    for (xs, bs) in assignments() {
        let expected = constraints.iter().all(|c| eval_bool(c, &xs, &bs));
        let mut declared: Vec<Val> = xs
            .iter()
            .map(|&x| Val::N(Rational::from_integer(x.into())))
            .collect();
        declared.extend(bs.iter().map(|&b| Val::B(b)));
        let got = eval_formula(&f, &declared).map_err(|e| format!("{e}\n{text}\n{f}"))?;
        if got != expected {
            return Err(format!(
                "x = {xs:?}, b = {bs:?}: source {expected}, lowered {got}\n{text}\n{f}"
            ));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn lowering_preserves_the_meaning(seed in any::<u64>(), n in 1usize..4, depth in 1u32..6) {
        let mut r = Rng(seed);
        let constraints: Vec<BE> = (0..n).map(|_| gen_bool(&mut r, depth)).collect();
        if let Err(e) = check_formula(&constraints) {
            prop_assert!(false, "{}", e);
        }
    }
}

#[test]
fn the_evaluator_detects_a_wrong_lowering() {
    // sanity check of the test itself: a formula with a flipped root disagrees
    let text = "DECL\n  int [-2, 2] x0;\n  int [-1, 2] x1;\n  boole b0;\n  boole b1;\nEXPR\n  (x0 + x1 > 1);\n";
    let (ck, _) = check(&parse(text).unwrap());
    let Lowered::Expr(mut f) = lower(&ck.unwrap()).unwrap() else {
        panic!()
    };
    let declared = |x: i64, y: i64| {
        vec![
            Val::N(Rational::from_integer(x.into())),
            Val::N(Rational::from_integer(y.into())),
            Val::B(false),
            Val::B(false),
        ]
    };
    assert_eq!(eval_formula(&f, &declared(2, 0)), Ok(true));
    assert_eq!(eval_formula(&f, &declared(0, 0)), Ok(false));
    f.roots[0] = !f.roots[0];
    assert_eq!(eval_formula(&f, &declared(2, 0)), Ok(false));
}
