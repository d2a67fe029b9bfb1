//! Lowering tests: `.hys` text → check → lower → assertions on the formulas (exact dumps via
//! `Formula`'s `Display`, and focused properties).

use frontend::diag::SourceMap;
use frontend::hys::check::check;
use frontend::hys::lower::{lower, Lowered};
use frontend::hys::parser::parse;
use ic3::TransitionSystem;
use solver::formula::{Atom, Formula, Op, Rel, Sort, VarOrigin};
use solver::num::{FpFormat, IntType, Rational};
use solver::Var;

fn lowered(text: &str) -> Lowered {
    let sm = SourceMap::new("t.hys", text);
    let file = parse(text).unwrap_or_else(|d| panic!("{}", sm.render(&d)));
    let (ck, diags) = check(&file);
    let ck = ck.unwrap_or_else(|| {
        let d: Vec<String> = diags.iter().map(|d| sm.render(d)).collect();
        panic!("check failed: {d:#?}")
    });
    lower(&ck).unwrap_or_else(|d| panic!("{}", sm.render(&d)))
}

fn expr(text: &str) -> Formula {
    match lowered(text) {
        Lowered::Expr(f) => f,
        Lowered::Transition(_) => panic!("expected an EXPR file"),
    }
}

fn system(text: &str) -> TransitionSystem {
    match lowered(text) {
        Lowered::Transition(ts) => {
            ts.validate().expect("valid transition system");
            ts
        }
        Lowered::Expr(_) => panic!("expected a transition system"),
    }
}

fn defs(f: &Formula) -> Vec<String> {
    f.defs.iter().map(|d| f.def_to_string(d)).collect()
}

fn roots(f: &Formula) -> Vec<String> {
    f.roots.iter().map(|&r| f.lit_to_string(r)).collect()
}

fn var(f: &Formula, name: &str) -> Var {
    f.vars
        .iter()
        .find(|(_, v)| v.name == name)
        .map(|(v, _)| v)
        .unwrap_or_else(|| panic!("no variable {name}"))
}

fn q(n: i64, d: i64) -> Rational {
    Rational::new(n.into(), d.into())
}

const SMALL: &str = "DECL
  int [0, 10] x, y;
  float [-1, 1] r;
  boole b, c;
EXPR
  2*(x + y) - x <= 3;
  3 - x >= 1;
  x*y + x*y > 8;
  b = 1 or c != 0;
  r < 0.5 -> (c <-> b);
  x - y <= 0 xor y - x >= 0;
  ite(b, x, r) = r;
";

#[test]
fn small_file_exact_dump() {
    let f = expr(SMALL);
    let expected = "VARIABLES
  v0 x : int [0, 10]
  v1 y : int [0, 10]
  v2 r : real [-1, 1]
  v3 b : boole
  v4 c : boole
  v5 h#1 : int (-inf, +inf)  -- aux
  v6 h#2 : int (-inf, +inf)  -- aux
  v7 t#1 : boole  -- tseitin
  v8 t#2 : boole  -- tseitin
  v9 t#3 : boole  -- tseitin
  v10 h#3 : int (-inf, +inf)  -- aux
  v11 false : boole  -- constant
  v12 h#4 : real (-inf, +inf)  -- aux
  v13 h#5 : real (-inf, +inf)  -- aux
  v14 h#6 : real (-inf, +inf)  -- aux
DEFINITIONS
  h#1 = x + 2*y;
  h#2 = x * y;
  h#3 = x + -1*y;
  h#4 = x;
  h#5 = ite(b, h#4, r);
  h#6 = r + -1*h#5;
CLAUSES
  !t#1 or !b;
  !t#1 or !c;
  t#1 or b or c;
  !t#2 or b or c;
  !t#2 or !b or !c;
  t#2 or !b or c;
  t#2 or b or !c;
  !t#3 or r < 0.5;
  !t#3 or t#2;
  t#3 or r >= 0.5 or !t#2;
  !false;
ROOTS
  h#1 <= 3;
  x <= 2;
  h#2 > 4;
  !t#1;
  !t#3;
  false;
  h#6 <= 0;
  h#6 >= 0;
";
    assert_eq!(f.to_string(), expected);
    // lowering is deterministic
    assert_eq!(expr(SMALL).to_string(), expected);
}

#[test]
fn hash_consing_shares_identical_subterms() {
    let f = expr("DECL\n  float [0, 1] x, y;\nEXPR\n  x*y + x*y + y*x > 1;\n  sin(x*y) < x*y;\n");
    let muls = f.defs.iter().filter(|d| d.op == Op::Mul).count();
    assert_eq!(muls, 1, "{:?}", defs(&f));
    assert_eq!(
        defs(&f),
        ["h#1 = x * y", "h#2 = sin(h#1)", "h#3 = h#1 + -1*h#2"]
    );
    // sin(h1) - h1 < 0, normalised to a positive first coefficient: h1 - sin(h1) > 0
    assert_eq!(roots(&f), ["h#1 > 1/3", "h#3 > 0"]);
}

#[test]
fn linear_normalisation() {
    let f = expr("DECL\n  float [0, 1] x, y;\nEXPR\n  2*(x+y) - x <= 3;\n");
    assert_eq!(defs(&f), ["h#1 = x + 2*y"]);
    assert_eq!(roots(&f), ["h#1 <= 3"]);
    // scaled to coprime integers, first coefficient positive; constants to the right
    let f = expr("DECL\n  float [0, 1] x, y;\nEXPR\n  x/2 - y/3 + 1 >= 0;\n  2*y - 3*x <= 6;\n");
    assert_eq!(defs(&f), ["h#1 = 3*x + -2*y"]);
    assert_eq!(roots(&f), ["h#1 >= -6", "h#1 >= -6"]);
}

#[test]
fn opposite_differences_share_one_aux() {
    let f =
        expr("DECL\n  float [0, 1] x, y;\nEXPR\n  x - y <= 0;\n  y - x >= 0;\n  y - x > 0.5;\n");
    assert_eq!(defs(&f), ["h#1 = x + -1*y"]);
    assert_eq!(roots(&f), ["h#1 <= 0", "h#1 <= 0", "h#1 < -0.5"]);
    assert_eq!(f.atoms.len(), 2);
}

#[test]
fn single_variable_relations_are_bound_atoms() {
    let f = expr("DECL\n  int [0, 10] x;\n  float [0, 10] r;\nEXPR\n  3 - x >= 1;\n  2*r + 1 < 4;\n  -r >= -3;\n  1 = 1;\n");
    assert!(f.defs.is_empty());
    assert_eq!(roots(&f), ["x <= 2", "r < 1.5", "r <= 3"]);
    let x = var(&f, "x");
    assert_eq!(
        f.atoms[0],
        Atom::Bound {
            var: x,
            rel: Rel::Le,
            value: q(2, 1)
        }
    );
}

#[test]
fn strict_integer_bounds_are_rounded() {
    let f = expr("DECL\n  int [0, 10] x;\nEXPR\n  x < 2.5;\n  x > 2.5;\n  x < 3;\n  x >= 7;\n  x = 4;\n  x = 4.5;\n  x != 4.5;\n");
    assert_eq!(
        roots(&f),
        ["x <= 2", "x > 2", "x <= 2", "x > 6", "x <= 4", "x > 3", "false"]
    );
    // only `x <= c` atoms on integers
    assert!(f
        .atoms
        .iter()
        .all(|a| matches!(a, Atom::Bound { rel: Rel::Le, .. } | Atom::Bool(_))));
}

#[test]
fn booleans_compared_with_numbers_are_literals() {
    let f = expr("DECL\n  boole b, c, d, e;\nEXPR\n  b = 1;\n  c = 0;\n  d != 0;\n  1 - e >= 1;\n");
    assert!(f.defs.is_empty(), "{:?}", defs(&f));
    assert_eq!(roots(&f), ["b", "!c", "d", "!e"]);
    // a Boolean sum needs BoolToNum
    let f = expr("DECL\n  boole b, c;\nEXPR\n  b + c = 1;\n  b = 2;\n");
    assert_eq!(
        defs(&f),
        ["h#1 = bool2num(b)", "h#2 = bool2num(c)", "h#3 = h#1 + h#2"]
    );
    assert_eq!(roots(&f), ["h#3 <= 1", "h#3 > 0", "false"]);
    assert_eq!(
        f.vars[var(&f, "h#1")].domain,
        solver::Domain::closed(q(0, 1), q(1, 1))
    );
}

#[test]
fn boolean_structure_is_flattened_and_shared() {
    let f = expr("DECL\n  boole a, b, c, d;\nEXPR\n  a and (b and c) and d;\n  a or b or (c or d);\n  !(!a and !b and !(c or d));\n  not not a;\n  a xor b;\n  b <-> a;\n");
    // top-level conjunctions are flattened into roots
    assert_eq!(roots(&f)[..4], ["a", "b", "c", "d"]);
    // `a or b or c or d` and `!(!a and !b and !(c or d))` are one Tseitin variable
    assert_eq!(roots(&f)[4], "!t#1");
    assert_eq!(roots(&f)[5], "!t#1");
    assert_eq!(roots(&f)[6], "a");
    // xor and iff share their variable
    assert_eq!(roots(&f)[7], "t#2");
    assert_eq!(roots(&f)[8], "!t#2");
    let tseitin = f
        .vars
        .values()
        .filter(|v| matches!(v.origin, VarOrigin::Tseitin { .. }))
        .count();
    assert_eq!(tseitin, 2);
    // one 4-ary and: 4 binary clauses + 1 long clause; xor: 4 clauses
    assert_eq!(f.clauses.len(), 9);
}

#[test]
fn fp_constants_are_rounded_and_relations_are_ieee() {
    let f = expr("DECL\n  fp32 x;\n  fp64 y;\nEXPR\n  x = 0.1;\n  y > 0.1;\n  x + 1 <= x;\n  y != -0.0;\n  feq(x, 2.5);\n");
    let c = var(&f, "fp32:0x3dcccccd");
    assert_eq!(f.vars[c].fp_const, Some(0x3dcccccd));
    assert_eq!(f.vars[c].origin, VarOrigin::Constant);
    assert_eq!(f.vars[c].sort, Sort::Fp(FpFormat::F32));
    let y01 = var(&f, &format!("fp64:0x{:x}", 0.1f64.to_bits()));
    assert_eq!(f.vars[y01].fp_const, Some(0.1f64.to_bits()));
    let negzero = var(&f, "fp64:0x8000000000000000");
    assert_eq!(f.vars[negzero].fp_const, Some((-0.0f64).to_bits()));
    assert_eq!(
        defs(&f),
        [
            "h#1 = fsame(x, fp32:0x3dcccccd)",
            &format!("h#2 = flt(fp64:0x{:x}, y)", 0.1f64.to_bits()),
            "h#3 = fadd[RNE](x, fp32:0x3f800000)",
            "h#4 = fle(h#3, x)",
            "h#5 = fsame(y, fp64:0x8000000000000000)",
            "h#6 = feq(x, fp32:0x40200000)",
        ]
    );
    assert_eq!(roots(&f), ["h#1", "h#2", "h#4", "!h#5", "h#6"]);
}

#[test]
fn fp_constant_expressions_use_ieee_arithmetic() {
    // fl64(fl64(0.1) + fl64(0.2)) is not fl64(0.3), as in C
    let f = expr("DECL\n  fp64 x;\nEXPR\n  x = (0.1 + 0.2);\n  x = 0.3;\n  x = -(1 - 1);\n");
    let sum = 0.1f64 + 0.2f64;
    assert_ne!(sum.to_bits(), 0.3f64.to_bits());
    let a = var(&f, &format!("fp64:0x{:x}", sum.to_bits()));
    let b = var(&f, &format!("fp64:0x{:x}", 0.3f64.to_bits()));
    assert_ne!(a, b);
    // -(1 - 1) is -(+0) = -0 in IEEE arithmetic
    var(&f, "fp64:0x8000000000000000");
    assert!(
        f.defs.iter().all(|d| d.op == Op::FSame),
        "constants are folded"
    );
}

#[test]
fn machine_integer_relations_do_not_wrap() {
    let f = expr("DECL\n  int8 a, b;\nEXPR\n  a < b;\n  a + 1 > 5;\n  -128 <= a;\n");
    assert_eq!(
        defs(&f),
        [
            "h#1 = convert(a)",
            "h#2 = convert(b)",
            "h#3 = h#1 + -1*h#2",
            "h#4 = bvadd(a, 1:int8)",
        ]
    );
    assert_eq!(roots(&f), ["h#3 <= -1", "h#4 > 5", "a > -129"]);
    let h1 = var(&f, "h#1");
    assert_eq!(f.vars[h1].sort, Sort::Int);
}

#[test]
fn conversion_of_int_to_machine_integer_carries_the_fit_condition() {
    let f = expr("DECL\n  int [-1000, 1000] n;\n  int [0, 100] k;\n  int8 a;\nEXPR\n  to_int8(n) = a;\n  to_int8(k) = a;\n");
    // the relation compares the converted value through n itself (exact where it fits;
    // where it does not, the fit condition makes the atom false)
    assert_eq!(
        defs(&f),
        [
            "h#1 = convert(n)",
            "h#2 = convert(a)",
            "h#3 = n + -1*h#2",
            "h#4 = convert(k)",
            "h#5 = k + -1*h#2",
        ]
    );
    let int8 = Sort::MachineInt(IntType::new(8, true));
    assert_eq!(f.vars[var(&f, "h#1")].sort, int8);
    assert_eq!(f.vars[var(&f, "h#2")].sort, Sort::Int);
    // the first constraint: (difference = 0) and -128 <= n <= 127; the second needs no
    // fit condition (k is always in range)
    assert_eq!(
        roots(&f),
        ["h#3 <= 0", "h#3 > -1", "n > -129", "n <= 127", "h#5 <= 0", "h#5 > -1"]
    );
}

#[test]
fn fit_conditions_stay_inside_their_atom() {
    let f =
        expr("DECL\n  int [-1000, 1000] n;\n  int8 a;\n  boole b;\nEXPR\n  b or to_int8(n) = a;\n");
    // not(atom) must not be forced by the fit condition: the root is one disjunction
    assert_eq!(roots(&f).len(), 1);
    let text = f.to_string();
    assert!(
        text.contains("n > -129") && text.contains("n <= 127"),
        "{text}"
    );
}

#[test]
fn transition_system_maps_and_statics() {
    let ts = system("DECL\n  define f = 2.0;\n  float [0, 1000] x;\n  boole jump;\n  static int [0, 3] k;\n  static fp32 s;\n  static boole sb;\n  static int8 m;\nINIT\n  x = 0.5;\n  !jump;\nTRANS\n  jump' <-> !jump;\n  jump -> f * x' = x;\n  !jump -> x' = x + 2;\nTARGET\n  x > 3.5;\n");
    let names: Vec<&str> = ts.state.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["x", "jump", "k", "s", "sb", "m"]);
    let statics: Vec<bool> = ts.state.iter().map(|s| s.is_static).collect();
    assert_eq!(statics, [false, false, true, true, true, true]);
    for (i, s) in ts.state.iter().enumerate() {
        assert_eq!(ts.init.vars[ts.init_vars[i]].name, s.name);
        assert_eq!(ts.target.vars[ts.target_vars[i]].name, s.name);
        assert_eq!(ts.trans.vars[ts.trans_current[i]].name, s.name);
        assert_eq!(ts.trans.vars[ts.trans_next[i]].name, format!("{}'", s.name));
        assert_eq!(ts.trans.vars[ts.trans_next[i]].domain, s.domain);
        assert_eq!(ts.trans.vars[ts.trans_next[i]].sort, s.sort);
    }
    assert_eq!(roots(&ts.init), ["x <= 0.5", "x >= 0.5", "!jump"]);
    assert_eq!(roots(&ts.target), ["x > 3.5"]);
    assert_eq!(
        defs(&ts.trans),
        [
            "h#1 = x + -2*x'",
            "h#2 = x + -1*x'",
            "h#3 = k + -1*k'",
            "h#4 = fsame(s, s')",
            "h#5 = convert(m)",
            "h#6 = convert(m')",
            "h#7 = h#5 + -1*h#6",
        ]
    );
    assert_eq!(
        roots(&ts.trans),
        ["t#1", "!t#3", "!t#5", "h#3 <= 0", "h#3 > -1", "h#4", "!t#6", "h#7 <= 0", "h#7 > -1"]
    );
}

#[test]
fn every_state_variable_has_a_copy_in_every_formula() {
    let ts = system("DECL\n  float [0, 1] x;\n  boole unused;\nINIT\nTRANS\n  x' = x;\nTARGET\n");
    assert_eq!(ts.init_vars.len(), 2);
    assert_eq!(ts.init.vars.len(), 2);
    assert!(ts.init.roots.is_empty() && ts.target.roots.is_empty());
    assert_eq!(ts.target.vars[ts.target_vars[1]].name, "unused");
}

#[test]
fn deep_chains_do_not_overflow_the_stack() {
    let mut text = String::from("DECL\n  int [0, 1] a;\n  boole b;\nEXPR\n  a");
    for _ in 0..100_000 {
        text.push_str(" + a");
    }
    text.push_str(" > 3;\n  b");
    for _ in 0..100_000 {
        text.push_str(" and b");
    }
    text.push_str(";\n  (a");
    for _ in 0..50_000 {
        text.push_str(" * a");
    }
    text.push_str(") >= 0;\n  b");
    for _ in 0..100_000 {
        text.push_str(" or b");
    }
    text.push_str(";\n  a");
    for _ in 0..100_000 {
        text.push_str(" - a");
    }
    text.push_str(" < 0 -> b");
    for _ in 0..50_000 {
        text.push_str(" -> b");
    }
    text.push_str(";\n");
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let f = expr(&text);
            (roots(&f), f.defs.len())
        })
        .expect("spawn");
    let t = std::time::Instant::now();
    let (r, ndefs) = handle.join().expect("no stack overflow");
    // linear-ish: well under the time a quadratic pass would take
    assert!(t.elapsed().as_secs() < 20, "took {:?}", t.elapsed());
    // 100,001·a > 3 → a > 3/100001; b and b and ... → b; a^k chain: x*x → x^2, then Mul
    assert_eq!(r[0], "a > 0");
    assert_eq!(r[1], "b");
    assert_eq!(r[2], "h#50000 > -1");
    assert_eq!(r[3], "b");
    assert_eq!(r.len(), 5);
    assert!(ndefs < 50_010);
}

#[test]
fn part_b_operations_map_to_primitive_definitions() {
    let f = expr(
        "DECL
  fp64 d;
  fp32 f;
  int8 a;
  uint16 u;
  int [0, 300] n;
  float [-1, 1] r;
  boole b;
EXPR
  to_fp32(d) = f;
  to_fp64(a, RTZ) = d;
  to_int8(d) = a;
  to_int8(u) = a;
  to_uint16(n) = u;
  to_int(a) + n > 2;
  to_real(d) + to_real(n) + to_real(a) > r;
  to_int(d) > 0;
  fsub(f, 1.5, RTP) < fdiv(f, f, RNA);
  isinf(fsqrt(d, RTN)) or isneg(fabs(d)) or iszero(fmin(d, fmax(d, 2)));
  issubnormal(ffma(d, d, d, RNE)) xor isnormal(-d);
  bitand(a, 3) = bitor(a, bitxor(a, bitnot(a)));
  shl(u, 3) = shr(u, u);
  a * a - a / 2 = -a;
  ite(b, d, 1) = d;
  ite(b, b, r > 0);
",
    );
    let expected = [
        "h#1 = to_fp[RNE](d)",
        "h#2 = fsame(f, h#1)",
        "h#3 = to_fp[RTZ](a)",
        "h#4 = fsame(d, h#3)",
        "h#5 = fp_to_int(d)",
        "h#6 = convert(h#5)",
        "h#7 = convert(a)",
        "h#8 = h#6 + -1*h#7",
        "h#9 = bvcast(u)",
        "h#10 = convert(h#9)",
        "h#11 = h#7 + -1*h#10",
        // n always fits uint16: a plain conversion; compared through n itself
        "h#12 = convert(n)",
        "h#13 = convert(u)",
        "h#14 = n + -1*h#13",
        "h#15 = n + h#7",
        "h#16 = to_real(d)",
        "h#17 = convert(a)",
        "h#18 = n + -1*r + h#16 + h#17",
        "h#19 = fp_to_int(d)",
        "h#20 = fsub[RTP](f, fp32:0x3fc00000)",
        "h#21 = fdiv[RNA](f, f)",
        "h#22 = flt(h#20, h#21)",
        "h#23 = fsqrt[RTN](d)",
        "h#24 = isinf(h#23)",
        "h#25 = fabs(d)",
        "h#26 = isneg(h#25)",
        "h#27 = fmax(d, fp64:0x4000000000000000)",
        "h#28 = fmin(d, h#27)",
        "h#29 = iszero(h#28)",
        "h#30 = ffma[RNE](d, d, d)",
        "h#31 = issubnormal(h#30)",
        "h#32 = fneg(d)",
        "h#33 = isnormal(h#32)",
        "h#34 = bitand(a, 3:int8)",
        "h#35 = bitnot(a)",
        "h#36 = bitxor(a, h#35)",
        "h#37 = bitor(a, h#36)",
        "h#38 = convert(h#34)",
        "h#39 = convert(h#37)",
        "h#40 = h#38 + -1*h#39",
        "h#41 = shl(u, 3:uint16)",
        "h#42 = shr(u, u)",
        "h#43 = convert(h#41)",
        "h#44 = convert(h#42)",
        "h#45 = h#43 + -1*h#44",
        "h#46 = bvmul(a, a)",
        "h#47 = bvdiv(a, 2:int8)",
        "h#48 = bvsub(h#46, h#47)",
        "h#49 = bvneg(a)",
        "h#50 = convert(h#48)",
        "h#51 = convert(h#49)",
        "h#52 = h#50 + -1*h#51",
        "h#53 = ite(b, d, fp64:0x3ff0000000000000)",
        "h#54 = fsame(d, h#53)",
    ];
    assert_eq!(defs(&f), expected);
    let sorts: Vec<String> = ["h#5", "h#16", "h#17", "h#19", "h#12", "h#9"]
        .iter()
        .map(|n| f.vars[var(&f, n)].sort.name())
        .collect();
    assert_eq!(sorts, ["int8", "real", "real", "int", "uint16", "int8"]);
    // ite(b, b, r > 0) is b or r > 0: one and-variable, no ite variable
    assert_eq!(roots(&f).last().map(String::as_str), Some("!t#3"));
    assert_eq!(f.clauses.len(), 4 + 4 + 3);
}
