//! The SMT-LIB printer (`frontend::smtlib_out`) checked structurally, without an SMT solver:
//! every script is a list of well-formed S-expressions, declares each symbol once before use,
//! applies only known SMT-LIB functions, and encodes icpic3's semantics where SMT-LIB's differ
//! (unspecified results are fresh variables, `fmin(-0, +0) = -0`). Whether Z3 and Bitwuzla
//! parse and agree is checked by `benchmarks/scripts/smt_peers.py` (not at test time).

use frontend::hys::{load, Lowered};
use frontend::smtlib_out::to_smtlib;
use std::collections::HashSet;
use std::path::Path;

#[derive(Debug, Clone, PartialEq)]
enum Sx {
    Atom(String),
    List(Vec<Sx>),
}

fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ';' => {
                // comment to end of line
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '|' => {
                let mut q = String::from("|");
                for c in chars.by_ref() {
                    q.push(c);
                    if c == '|' {
                        break;
                    }
                }
                assert!(
                    q.len() >= 2 && q.ends_with('|'),
                    "unterminated quoted symbol"
                );
                out.push(q);
            }
            '(' | ')' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                out.push(c.to_string());
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn parse_all(s: &str) -> Vec<Sx> {
    let toks = tokens(s);
    let mut stack: Vec<Vec<Sx>> = vec![Vec::new()];
    for t in toks {
        match t.as_str() {
            "(" => stack.push(Vec::new()),
            ")" => {
                let l = stack.pop().expect("balanced");
                stack.last_mut().expect("unbalanced `)`").push(Sx::List(l));
            }
            _ => stack.last_mut().expect("open").push(Sx::Atom(t)),
        }
    }
    assert_eq!(stack.len(), 1, "unbalanced `(`");
    stack.pop().unwrap_or_default()
}

const FUNCTIONS: &[&str] = &[
    "and",
    "or",
    "not",
    "=",
    "ite",
    "<=",
    "<",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "to_real",
    "to_int",
    "fp.add",
    "fp.sub",
    "fp.mul",
    "fp.div",
    "fp.sqrt",
    "fp.fma",
    "fp.neg",
    "fp.abs",
    "fp.min",
    "fp.max",
    "fp.lt",
    "fp.leq",
    "fp.eq",
    "fp.isNaN",
    "fp.isInfinite",
    "fp.isZero",
    "fp.isSubnormal",
    "fp.isNormal",
    "fp.isNegative",
    "fp.to_real",
    "fp",
    "bvadd",
    "bvsub",
    "bvmul",
    "bvneg",
    "bvand",
    "bvor",
    "bvxor",
    "bvnot",
    "bvsdiv",
    "bvudiv",
    "bvsrem",
    "bvurem",
    "bvshl",
    "bvashr",
    "bvlshr",
    "bvsle",
    "bvule",
    "bvslt",
    "bvult",
    "bv2nat",
];
const INDEXED: &[&str] = &[
    "to_fp",
    "to_fp_unsigned",
    "fp.to_sbv",
    "fp.to_ubv",
    "extract",
    "sign_extend",
    "zero_extend",
    "int2bv",
    "NaN",
    "FloatingPoint",
    "BitVec",
];
const CONSTANTS: &[&str] = &["true", "false", "RNE", "RNA", "RTP", "RTN", "RTZ"];

/// Checks one term: known heads, declared symbols, literals.
fn check_term(t: &Sx, declared: &HashSet<String>) {
    match t {
        Sx::Atom(a) => {
            let ok = declared.contains(a)
                || CONSTANTS.contains(&a.as_str())
                || a.chars().all(|c| c.is_ascii_digit())
                || (a.contains('.') && a.chars().all(|c| c.is_ascii_digit() || c == '.'))
                || (a.starts_with("#b") && a[2..].chars().all(|c| c == '0' || c == '1'));
            assert!(ok, "undeclared or unknown symbol {a}");
        }
        Sx::List(items) => {
            let (head, args) = items.split_first().expect("empty application");
            match head {
                Sx::Atom(h) if h == "_" => {
                    // (_ bvN w), (_ NaN e s)
                    let Some(Sx::Atom(k)) = args.first() else {
                        panic!("bad indexed term {t:?}")
                    };
                    assert!(k.starts_with("bv") || k == "NaN", "indexed constant {k}");
                }
                Sx::Atom(h) => {
                    assert!(FUNCTIONS.contains(&h.as_str()), "unknown function {h}");
                    args.iter().for_each(|a| check_term(a, declared));
                }
                Sx::List(ix) => {
                    // ((_ to_fp 8 24) RNE x)
                    assert_eq!(ix.first(), Some(&Sx::Atom("_".into())), "{t:?}");
                    let Some(Sx::Atom(k)) = ix.get(1) else {
                        panic!("bad indexed function {t:?}")
                    };
                    assert!(
                        INDEXED.contains(&k.as_str()),
                        "unknown indexed function {k}"
                    );
                    args.iter().for_each(|a| check_term(a, declared));
                }
            }
        }
    }
}

/// Checks a whole script; returns its top-level commands.
fn check_script(script: &str) -> Vec<Sx> {
    let cmds = parse_all(script);
    let mut declared = HashSet::new();
    assert!(
        matches!(cmds.first(), Some(Sx::List(l)) if l.first() == Some(&Sx::Atom("set-logic".into()))),
        "first command is set-logic"
    );
    assert_eq!(
        cmds.last(),
        Some(&Sx::List(vec![Sx::Atom("check-sat".into())])),
        "last command is check-sat"
    );
    for c in &cmds {
        let Sx::List(l) = c else {
            panic!("a bare atom at top level: {c:?}")
        };
        match l.first() {
            Some(Sx::Atom(k)) if k == "declare-fun" => {
                let Some(Sx::Atom(name)) = l.get(1) else {
                    panic!("bad declaration {c:?}")
                };
                assert!(declared.insert(name.clone()), "{name} declared twice");
                assert_eq!(l.get(2), Some(&Sx::List(vec![])), "constants only");
            }
            Some(Sx::Atom(k)) if k == "assert" => {
                assert_eq!(l.len(), 2, "{c:?}");
                check_term(&l[1], &declared);
            }
            Some(Sx::Atom(k)) if k == "set-logic" || k == "check-sat" => {}
            other => panic!("unexpected command {other:?}"),
        }
    }
    cmds
}

fn script_of(text: &str) -> String {
    let loaded = load(text).unwrap_or_else(|d| panic!("{d:?}"));
    let Lowered::Expr(f) = &loaded.lowered else {
        panic!("not an EXPR file")
    };
    to_smtlib(f).expect("printable")
}

#[test]
fn every_suite_file_prints_a_well_formed_script() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/floats");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("examples/floats") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "hys") {
            let text = std::fs::read_to_string(&p).expect("readable");
            let s = script_of(&text);
            check_script(&s);
            n += 1;
        }
    }
    assert!(n >= 30, "{n} files");
}

#[test]
fn the_checker_rejects_broken_scripts() {
    // the structural check itself must be able to fail
    for bad in [
        "(set-logic QF_FP)(assert x)(check-sat)",
        "(set-logic QF_FP)(declare-fun x () Bool)(assert (frob x))(check-sat)",
        "(set-logic QF_FP)(declare-fun x () Bool)(declare-fun x () Bool)(check-sat)",
        "(set-logic QF_FP)(assert true)",
        "(set-logic QF_FP)(assert (and true)(check-sat)",
    ] {
        assert!(
            std::panic::catch_unwind(|| check_script(bad)).is_err(),
            "accepted: {bad}"
        );
    }
}

#[test]
fn ieee_operations_and_semantics_differences() {
    let s = script_of(
        "DECL fp32 x, y; fp64 z; int32 k; uint8 u;\nEXPR fadd(x, y, RTZ) = fmin(x, y); ffma(x, y, x, RNA) < fsqrt(y, RTP); to_int32(x) = k; to_fp64(k, RTN) = z; to_fp32(u) = x; fmax(x, y) != fabs(-x); isnan(z) or issubnormal(x) or isneg(y);",
    );
    check_script(&s);
    for needle in [
        // the relation between two int32 values compares exact values; they are Int in the
        // lowering, printed as 40-bit vectors (no overflow), so the logic stays QF_BVFP
        "(set-logic QF_BVFP)",
        "((_ sign_extend 8) k)",
        "(declare-fun x () (_ FloatingPoint 8 24))",
        "(declare-fun z () (_ FloatingPoint 11 53))",
        "(declare-fun k () (_ BitVec 32))",
        "(fp.add RTZ x y)",
        "(fp.fma RNA x y x)",
        "(fp.sqrt RTP y)",
        // fmin(-0, +0) = -0 spelled out; SMT-LIB's fp.min may pick either zero
        "(ite (and (fp.isZero x) (fp.isZero y)) (ite (fp.isNegative x) x y) (fp.min x y))",
        "(ite (and (fp.isZero x) (fp.isZero y)) (ite (fp.isNegative x) y x) (fp.max x y))",
        // C's cast: specified only for finite values whose truncation fits int32
        "((_ fp.to_sbv 32) RTZ x) |unspecified#1|)",
        "((_ to_fp 11 53) RTN k)",
        "((_ to_fp_unsigned 8 24) RNE u)",
        "(fp.neg x)",
        "(fp.abs",
        "(fp.isSubnormal x)",
        "(fp.isNegative y)",
    ] {
        assert!(s.contains(needle), "missing {needle} in\n{s}");
    }
}

#[test]
fn bit_reinterpretation_through_a_fresh_pattern() {
    let s = script_of(
        "DECL fp32 x; fp64 y; uint32 u; int64 w;\nEXPR fp_bits(x) = u; fp32_of_bits(u) = x; fp64_of_bits(w) = y; fp_bits(y) > 5;",
    );
    check_script(&s);
    for needle in [
        // fp_bits: a fresh pattern that decodes to x, the canonical NaN for NaN
        "(declare-fun |bits#1| () (_ BitVec 32))",
        "(assert (= ((_ to_fp 8 24) |bits#1|) x))",
        "(ite (fp.isNaN x) (_ bv2143289344 32) |bits#1|)",
        "(ite (fp.isNaN y) (_ bv9221120237041090560 64) |bits#",
        // fp_of_bits is SMT-LIB's to_fp of one bit-vector
        "((_ to_fp 8 24) u)",
        "((_ to_fp 11 53) w)",
    ] {
        assert!(s.contains(needle), "missing {needle} in\n{s}");
    }
}

#[test]
fn ranges_constants_and_identity() {
    let s =
        script_of("DECL fp64 [0, 1] a; fp32 [-0.1, 0.1] b;\nEXPR a = -0.0; not feq(a, a); b > 0;");
    check_script(&s);
    for needle in [
        // a range admits finite floats only
        "(assert (not (fp.isNaN a)))",
        "(assert (not (fp.isInfinite a)))",
        "(fp.leq (fp #b0 #b00000000000 #b0000000000000000000000000000000000000000000000000000) a)",
        "(fp.leq a (fp #b0 #b01111111111 #b0000000000000000000000000000000000000000000000000000))",
        // -0.1 and 0.1 are not binary32 values: the range ends move inward
        "(fp.leq (fp #b1 #b01111011 #b10011001100110011001100) b)",
        "(fp.leq b (fp #b0 #b01111011 #b10011001100110011001100))",
        // the constant -0 by its bits, identity as SMT-LIB `=`
        "(fp #b1 #b00000000000 #b0000000000000000000000000000000000000000000000000000)",
        "(fp.eq a a)",
    ] {
        assert!(s.contains(needle), "missing {needle} in\n{s}");
    }
}

#[test]
fn machine_integers_follow_c_and_leave_unspecified_cases_free() {
    let s = script_of(
        "DECL int8 a, b; uint16 c; int32 d;\nEXPR a / b = 3; a % b = 1; shr(a, b) = 1; shr(c, 2) = 1; to_int32(a) = d; c / to_uint16(a) = 2; bitand(a, b) != bitxor(a, bitnot(b)); to_int16(d) = 7;",
    );
    check_script(&s);
    for needle in [
        // division by zero is unspecified: a fresh value, not bvsdiv's fixed result
        "(ite (= b (_ bv0 8)) |unspecified#",
        "(bvsdiv a b)",
        "(bvsrem a b)",
        "(bvudiv c ",
        // out-of-range shift amounts are unspecified
        "(ite (and (bvsle (_ bv0 8) b) (bvslt b (_ bv8 8))) (bvashr a b) |unspecified#",
        "(bvlshr c |2:uint16|)",
        "((_ sign_extend 24) a)",
        "((_ extract 15 0) d)",
        "(bvnot b)",
    ] {
        assert!(s.contains(needle), "missing {needle} in\n{s}");
    }
    // every fresh variable is used exactly once (one per unspecified definition)
    let fresh: Vec<&str> = s
        .lines()
        .filter_map(|l| l.strip_prefix("(declare-fun |unspecified#"))
        .collect();
    assert!(fresh.len() >= 4, "{s}");
    for f in fresh {
        let name = format!("|unspecified#{}", f.split('|').next().unwrap_or(""));
        assert_eq!(s.matches(&format!("{name}|")).count(), 2, "{name} in\n{s}");
    }
}

#[test]
fn int_real_parts_and_unprintable_functions() {
    let s = script_of(
        "DECL int (0, 3) n; float [-1, 1] x;\nEXPR x * x + n / 2 > 0.5; x / (x - 1) < 3;",
    );
    check_script(&s);
    for needle in [
        "(<= 1 n)",
        "(<= n 2)",
        "(<= (- 1.0) x)",
        "(* x x)",
        "(ite (= ",
    ] {
        assert!(s.contains(needle), "missing {needle} in\n{s}");
    }
    let loaded = load("DECL float [0, 1] x;\nEXPR sin(x) > 0.5;").expect("loads");
    let Lowered::Expr(f) = &loaded.lowered else {
        panic!()
    };
    let err = to_smtlib(f).expect_err("sin has no SMT-LIB counterpart");
    assert!(err.contains("sin"), "{err}");
}
