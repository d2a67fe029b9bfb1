//! SMT-LIB and VMT input (language doc Part E), run against the real `icpic3` binary: answers
//! per `check-sat`, SMT-LIB semantics that differ from icpic3's own operations, models,
//! errors with positions, exit codes, and a few benchmark files with known status.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

fn icpic3(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .args(args)
        .output()
        .expect("icpic3 runs")
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("icpic3-smtlib-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

/// (stdout lines, stderr, exit code) of `icpic3 solve` on a script.
fn solve(name: &str, script: &str) -> (Vec<String>, String, i32) {
    let p = temp_file(name, script);
    let o = icpic3(&["solve", "--timeout", "20", p.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    (
        out,
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

fn answers(name: &str, script: &str) -> Vec<String> {
    let (out, err, _) = solve(name, script);
    assert!(!err.contains("internal error"), "{err}");
    out.into_iter()
        .filter(|l| matches!(l.as_str(), "sat" | "unsat" | "unknown"))
        .collect()
}

#[test]
fn euclidean_div_and_mod_push_pop_and_models() {
    let s = "(set-logic QF_LIA)
(declare-fun x () Int)
(declare-fun y () Int)
(assert (= (mod x 3) 2))
(assert (< x (- 5)))
(assert (> x (- 9)))
(assert (= y (div x 4)))
(check-sat)
(get-model)
(get-value (x (+ y 1)))
(push 1)
(assert (> x 0))
(check-sat)
(pop 1)
(check-sat)
(exit)
(check-sat)";
    let (out, _, code) = solve("lia.smt2", s);
    // x ∈ {-7}: -7 = 3·(-3) + 2, and div(-7, 4) = -2 (Euclidean, not C's -1)
    assert_eq!(out[0], "sat");
    assert!(
        out.contains(&"  (define-fun x () Int (- 7))".to_string()),
        "{out:?}"
    );
    assert!(
        out.contains(&"  (define-fun y () Int (- 2))".to_string()),
        "{out:?}"
    );
    assert!(
        out.contains(&"((x (- 7)) ((+ y 1) (- 1)))".to_string()),
        "{out:?}"
    );
    let a: Vec<&String> = out
        .iter()
        .filter(|l| matches!(l.as_str(), "sat" | "unsat" | "unknown"))
        .collect();
    assert_eq!(a, ["sat", "unsat", "sat"], "{out:?}");
    // the exit code follows the last check-sat; nothing runs after exit
    assert_eq!(code, 10);
}

#[test]
fn negative_operands_of_div_and_mod() {
    for (a, b, d, m) in [(7, -2, -3, 1), (-7, -2, 4, 1), (-7, 2, -4, 1), (7, 2, 3, 1)] {
        let s = format!(
            "(assert (not (and (= (div {a} {b}) {d}) (= (mod {a} {b}) {m}))))\n(check-sat)",
            a = lit(a),
            b = lit(b),
            d = lit(d)
        );
        assert_eq!(answers("divmod.smt2", &s), ["unsat"], "{a} {b}");
    }
}

fn lit(n: i64) -> String {
    if n < 0 {
        format!("(- {})", -n)
    } else {
        n.to_string()
    }
}

#[test]
fn division_by_zero_is_functional_but_never_a_wrong_answer() {
    // (/ x 0) is some value: both of these are sat in SMT-LIB; icpic3 may say unknown
    for s in [
        "(declare-fun x () Real)(assert (= (/ x 0.0) 5.0))(check-sat)",
        "(declare-fun n () Int)(assert (distinct (div n n) 1))(check-sat)",
        "(declare-fun x () Real)(declare-fun y () Real)(assert (= x 0.0))(assert (= y (/ 1.0 x)))(assert (> y 7.0))(check-sat)",
    ] {
        let a = answers("div0.smt2", s);
        assert!(a == ["sat"] || a == ["unknown"], "{s}: {a:?}");
    }
    // ... and functional: x = y implies x/0 = y/0 (Ackermann constraints)
    let s = "(declare-fun x () Real)(declare-fun y () Real)(declare-fun n () Real)
             (assert (not (=> (= x y) (= (/ x n) (/ y n)))))(assert (= n 0.0))(check-sat)";
    assert_eq!(answers("ack.smt2", s), ["unsat"]);
    // to_int is floor
    let s = "(declare-fun x () Real)(assert (= x (- 2.5)))(assert (not (= (to_int x) (- 3))))(check-sat)";
    assert_eq!(answers("toint.smt2", s), ["unsat"]);
}

#[test]
fn to_fp_of_one_bit_vector_reinterprets_the_pattern() {
    let cases = [
        (
            "(declare-fun b () (_ BitVec 32))(define-fun x () Float32 ((_ to_fp 8 24) b))
             (assert (fp.gt x ((_ to_fp 8 24) RNE 1.5)))(assert (bvult b #x3fd00000))(check-sat)",
            "sat",
        ),
        (
            "(declare-fun b () (_ BitVec 32))(assert (fp.isNaN ((_ to_fp 8 24) b)))
             (assert (bvult b #x7f800001))(check-sat)",
            "unsat",
        ),
        (
            "(declare-fun c () (_ BitVec 64))(assert (fp.isNegative ((_ to_fp 11 53) c)))
             (assert (bvult c #x8000000000000000))(check-sat)",
            "unsat",
        ),
        (
            "(assert (fp.isNaN ((_ to_fp 8 24) #xffc00001)))(check-sat)",
            "sat",
        ),
    ];
    for (i, (script, want)) in cases.iter().enumerate() {
        assert_eq!(
            answers(&format!("bits{i}.smt2"), script),
            vec![want.to_string()],
            "{script}"
        );
    }
}

#[test]
fn floating_point_semantics() {
    let cases = [
        // fp.min of +0 and -0 is either zero, but one application gives one value
        (
            "(define-fun x () Float64 (_ +zero 11 53))(define-fun y () Float64 (_ -zero 11 53))
             (assert (= (fp.min x y) x))(assert (= (fp.min x y) y))(check-sat)",
            "unsat",
        ),
        // 0.1f + 0.2f != 0.3f in binary32? it is equal; in binary64 it is not
        (
            "(define-fun a () Float64 ((_ to_fp 11 53) RNE 0.1))
             (define-fun b () Float64 ((_ to_fp 11 53) RNE 0.2))
             (assert (fp.eq (fp.add RNE a b) ((_ to_fp 11 53) RNE 0.3)))(check-sat)",
            "unsat",
        ),
        // NaN is not negative; = is identity (NaN = NaN), fp.eq is IEEE
        (
            "(declare-fun x () Float32)(assert (fp.isNaN x))(assert (fp.isNegative x))(check-sat)",
            "unsat",
        ),
        (
            "(declare-fun x () Float32)(assert (fp.isNaN x))(assert (= x x))(assert (not (fp.eq x x)))(check-sat)",
            "sat",
        ),
        (
            "(declare-fun x () (_ FloatingPoint 8 24))(assert (fp.eq x (fp #b0 #b01111111 #b00000000000000000000000)))
             (assert (not (= (fp.to_real x) 1.0)))(check-sat)",
            "unsat",
        ),
        // rounding modes chosen by a variable: a case split over the five modes
        (
            "(declare-fun r () RoundingMode)(declare-fun x () Float32)
             (assert (= x ((_ to_fp 8 24) RNE 0.1)))
             (assert (not (= (fp.add r x x) (fp.add RNE x x))))(check-sat)",
            "unsat",
        ),
        (
            "(declare-fun r () RoundingMode)(declare-fun x () Float32)
             (assert (= x ((_ to_fp 8 24) RNE 0.1)))
             (assert (not (= ((_ to_fp 8 24) r 0.1) x)))(assert (distinct r RTP RTZ))(check-sat)",
            "sat",
        ),
    ];
    for (s, want) in cases {
        assert_eq!(answers("fp.smt2", s), [want], "{s}");
    }
}

#[test]
fn bit_vectors_as_machine_integers() {
    let cases = [
        // SMT-LIB division by zero is defined for bit-vectors
        (
            "(assert (not (= (bvudiv #x07 #x00) #xff)))(check-sat)",
            "unsat",
        ),
        (
            "(assert (not (= (bvurem #x07 #x00) #x07)))(check-sat)",
            "unsat",
        ),
        (
            "(assert (not (= (bvsdiv #xf9 #x00) #x01)))(check-sat)",
            "unsat",
        ),
        (
            "(assert (not (= (bvsmod #xf9 #x02) #x01)))(check-sat)",
            "unsat",
        ),
        (
            "(assert (not (= (bvsrem #xf9 #x02) #xff)))(check-sat)",
            "unsat",
        ),
        (
            "(assert (not (= (bvshl #x01 #x09) #x00)))(check-sat)",
            "unsat",
        ),
        (
            "(assert (not (= (bvashr #x80 #x09) #xff)))(check-sat)",
            "unsat",
        ),
        ("(assert (not (bvslt #x80 #x7f)))(check-sat)", "unsat"),
        (
            "(assert (not (= ((_ extract 15 8) #x1234) #x12)))(check-sat)",
            "unsat",
        ),
        (
            "(assert (not (= (concat #x12 #x34) #x1234)))(check-sat)",
            "unsat",
        ),
        (
            "(assert (not (= ((_ sign_extend 8) #x80) #xff80)))(check-sat)",
            "unsat",
        ),
        (
            "(declare-fun b () (_ BitVec 8))(assert (= (bvadd b #x01) #x00))(check-sat)",
            "sat",
        ),
        // other widths are unsupported: the assertion is dropped, so sat becomes unknown ...
        (
            "(declare-fun b () (_ BitVec 3))(assert (= b #b101))(check-sat)",
            "unknown",
        ),
        // ... but unsat stays sound
        (
            "(declare-fun b () (_ BitVec 3))(assert (= b #b101))(assert false)(check-sat)",
            "unsat",
        ),
    ];
    for (s, want) in cases {
        assert_eq!(answers("bv.smt2", s), [want], "{s}");
    }
}

#[test]
fn lets_macros_and_transcendental_functions() {
    let cases = [
        (
            "(define-fun sq ((a Real)) Real (* a a))(declare-const x Real)
             (assert (let ((y (sq x)) (x 2.0)) (and (= y (* x x)) (> (sq x) 3.0))))(check-sat)",
            "sat",
        ),
        (
            "(declare-fun x () Real)(assert (> (sin x) 1.0))(check-sat)",
            "unsat",
        ),
        (
            "(declare-fun x () Real)(assert (< (exp x) 0.0))(check-sat)",
            "unsat",
        ),
        // dReal's negative and scientific constants
        (
            "(declare-fun x () Real)(assert (= x -2.5e-1))(assert (> x 0))(check-sat)",
            "unsat",
        ),
        (
            "(declare-fun x () Int)(assert (> (* x x) 2))(assert (< (* x x) 4))(check-sat)",
            "unsat",
        ),
    ];
    for (s, want) in cases {
        assert_eq!(answers("nra.smt2", s), [want], "{s}");
    }
}

#[test]
fn errors_have_positions_and_exit_code_1() {
    let (out, err, code) = solve(
        "bad.smt2",
        "(declare-fun x () Int)\n(assert (> x y))\n(check-sat)\n",
    );
    assert_eq!(code, 1);
    assert!(out[0].starts_with("(error \""), "{out:?}");
    assert!(
        out[0].contains("bad.smt2:2:14: unknown constant 'y'"),
        "{out:?}"
    );
    // standard error: compiler style, with the source line and a caret under the column
    assert!(
        err.contains("bad.smt2:2:14: error: unknown constant 'y'\n 2 | (assert (> x y))\n   |              ^\n"),
        "{err}"
    );
    let (_, err, code) = solve("paren.smt2", "(assert (> 1 0)\n");
    assert_eq!(code, 1);
    assert!(err.contains("paren.smt2:1:1: error: unclosed '('"), "{err}");
    let (_, err, code) = solve("sort.smt2", "(declare-fun x () Int)\n(assert (+ x 1))");
    assert_eq!(code, 1);
    assert!(
        err.contains("sort.smt2:2:9: error: expected a Bool term"),
        "{err}"
    );
    // no check-sat: exit 0
    let (_, _, code) = solve("empty.smt2", "(set-logic QF_LRA)");
    assert_eq!(code, 0);
}

#[test]
fn smtlib_status_files_with_known_answers() {
    let dir = common::benchmark_dir("smtlib-status");
    for (f, want) in [
        ("semantic-fusion-seeds/QF_FP/sat/div.c.3.smt2", "sat"),
        (
            "semantic-fusion-seeds/QF_FP/unsat/add_01_10_1.smt2",
            "unsat",
        ),
        (
            "bitwuzla-regress/test/regress/solver/fp/fp_min.smt2",
            "unsat",
        ),
        (
            "cvc5-regress/test/regress/cli/regress0/arith/div.02.smt2",
            "unknown",
        ),
        ("dreal4-regress/dreal/test/smt2/10.smt2", "unsat"),
    ] {
        let p = dir.join(f);
        let o = icpic3(&["solve", "--timeout", "20", p.to_str().unwrap()]);
        let out = String::from_utf8_lossy(&o.stdout);
        // the answer of the check-sat; before it, `unsupported` answers options icpic3 does
        // not know (dReal's `:precision`, SMT-LIB 2.6 §4.1.7)
        let first = out
            .lines()
            .find(|l| matches!(*l, "sat" | "unsat" | "unknown"))
            .unwrap_or("");
        assert!(
            out.lines()
                .all(|l| matches!(l, "sat" | "unsat" | "unknown" | "unsupported")),
            "{f}: {out}"
        );
        // div.02 is sat only through (div 0 0): never a wrong answer, unknown is fine
        if want == "unknown" {
            assert!(matches!(first, "sat" | "unknown"), "{f}: {out}");
        } else {
            assert_eq!(first, want, "{f}: {out}");
        }
    }
}

const COUNTER: &str = "(declare-fun x () Int)
(declare-fun xn () Int)
(declare-fun inp () Bool)
(define-fun sv () Int (! x :next xn))
(define-fun init () Bool (! (= x 0) :init true))
(define-fun tr () Bool (! (= xn (ite inp (+ x 1) x)) :trans true))
(define-fun p () Bool (! PROP :invar-property 0))
(assert true)
";

#[test]
fn vmt_safe_and_unsafe() {
    let unsafe_ = temp_file("unsafe.vmt", &COUNTER.replace("PROP", "(< x 3)"));
    let o = icpic3(&["solve", "--timeout", "30", unsafe_.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().next(), Some("UNSAFE"), "{out}");
    assert!(out.contains("x@3:"), "{out}");
    assert_eq!(o.status.code(), Some(10));
    let safe = temp_file("safe.vmt", &COUNTER.replace("PROP", "(>= x 0)"));
    let o = icpic3(&["solve", "--timeout", "30", safe.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().next(), Some("SAFE"), "{out}");
    assert_eq!(o.status.code(), Some(20));
    // a next-state variable outside :trans is an error
    let bad = temp_file("bad.vmt", &COUNTER.replace("PROP", "(>= xn 0)"));
    let o = icpic3(&["solve", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
}

/// `dump --format vmt` of a `.hys` transition system, solved back as VMT: same verdict.
#[test]
fn dumped_vmt_keeps_the_verdict() {
    let root = format!("{}/../examples", env!("CARGO_MANIFEST_DIR"));
    for (f, want, code) in [
        ("thermostat.hys", "SAFE", 20),
        ("ts-suite/u_abs_bounce.hys", "UNSAFE", 10),
    ] {
        let o = icpic3(&["dump", "--format", "vmt", &format!("{root}/{f}")]);
        assert_eq!(o.status.code(), Some(0), "{f}");
        let p = temp_file(
            &format!("{}.vmt", f.replace('/', "_")),
            &String::from_utf8_lossy(&o.stdout),
        );
        let o = icpic3(&["solve", "--timeout", "30", p.to_str().unwrap()]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(out.lines().next(), Some(want), "{f}: {out}");
        assert_eq!(o.status.code(), Some(code), "{f}");
    }
    // the wrong format for the problem's form is refused
    let o = icpic3(&[
        "dump",
        "--format",
        "smt2",
        &format!("{root}/thermostat.hys"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let o = icpic3(&[
        "dump",
        "--format",
        "smt2",
        &format!("{root}/circle_line.hys"),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("(check-sat)"));
}
