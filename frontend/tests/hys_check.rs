//! Checker tests: `.hys` text → diagnostics, each asserted with its message and its exact
//! `FILE:LINE:COL` position (via `SourceMap::render`).

use frontend::diag::{Severity, SourceMap};
use frontend::hys::check::{check, Checked};
use frontend::hys::parser::parse;
use num_bigint::BigInt;
use solver::formula::{Bound, Domain, Sort};
use solver::num::{FpFormat, IntType, Rational};

/// All diagnostics of `text`, rendered, and the checked file if there was no error.
fn run(text: &str) -> (Option<Checked>, Vec<String>) {
    let sm = SourceMap::new("t.hys", text);
    let file = parse(text).unwrap_or_else(|d| panic!("parse error: {}", sm.render(&d)));
    let (ck, diags) = check(&file);
    let rendered = diags.iter().map(|d| sm.render(d)).collect();
    // errors and checked result agree
    assert_eq!(
        ck.is_none(),
        diags.iter().any(|d| d.severity == Severity::Error)
    );
    (ck, rendered)
}

fn diags(text: &str) -> Vec<String> {
    run(text).1
}

/// Exactly one diagnostic, starting with `prefix` (`t.hys:LINE:COL: ...`) and containing
/// `msg`.
#[track_caller]
fn one(text: &str, prefix: &str, msg: &str) {
    let d = diags(text);
    assert_eq!(d.len(), 1, "expected one diagnostic, got {d:#?}");
    assert!(
        d[0].starts_with(prefix) && d[0].contains(msg),
        "expected `{prefix} ...{msg}...`, got `{}`",
        d[0]
    );
}

#[track_caller]
fn clean(text: &str) -> Checked {
    let (ck, d) = run(text);
    assert!(d.is_empty(), "unexpected diagnostics: {d:#?}");
    ck.expect("checked")
}

fn q(n: i64) -> Rational {
    Rational::from_integer(BigInt::from(n))
}

// ---------------------------------------------------------------- names and declarations

#[test]
fn undeclared_name() {
    one(
        "DECL\n  float [0, 1] x;\nEXPR\n  x + y > 1;\n",
        "t.hys:4:7: ",
        "undeclared name `y`",
    );
}

#[test]
fn duplicate_variable() {
    one(
        "DECL\n  float [0, 1] x;\n  int [0, 3] y, x;\nEXPR\n  x > 0;\n",
        "t.hys:3:17: ",
        "`x` is already declared",
    );
}

#[test]
fn define_clashing_with_a_variable() {
    one(
        "DECL\n  float [0, 1] k;\n  define k = 3;\nEXPR\n  k > 0;\n",
        "t.hys:3:10: ",
        "`k` is already declared",
    );
    one(
        "DECL\n  define k = 3;\n  boole k;\nEXPR\n  true;\n",
        "t.hys:3:9: ",
        "`k` is already declared",
    );
}

#[test]
fn define_used_before_its_definition() {
    one(
        "DECL\n  define a = b + 1;\n  define b = 2;\nEXPR\n  true;\n",
        "t.hys:2:14: ",
        "`b` is used before its definition",
    );
}

#[test]
fn define_using_a_variable() {
    one(
        "DECL\n  float [0, 1] x;\n  define a = 2 * x;\nEXPR\n  x > a;\n",
        "t.hys:3:18: ",
        "`x` is a variable",
    );
}

// ---------------------------------------------------------------- primes

#[test]
fn primes_only_in_trans() {
    one(
        "DECL\n  float [0, 1] x;\nINIT\n  x' = 0;\nTRANS\n  x' = x;\nTARGET\n  x > 0;\n",
        "t.hys:4:3: ",
        "primes are only allowed in TRANS",
    );
    one(
        "DECL\n  float [0, 1] x;\nEXPR\n  x' = 0;\n",
        "t.hys:4:3: ",
        "primed variable `x'` in EXPR",
    );
    one(
        "DECL\n  float [0, 1] x;\nINIT\n  x = 0;\nTRANS\n  x' = x;\nTARGET\n  x' > 0;\n",
        "t.hys:8:3: ",
        "in TARGET",
    );
}

#[test]
fn no_primes_on_static_variables_or_defines() {
    one(
        "DECL\n  static float [0, 1] s;\nINIT\n  s = 0;\nTRANS\n  s' = s;\nTARGET\n  s > 0;\n",
        "t.hys:6:3: ",
        "`s` is static",
    );
    one(
        "DECL\n  define d = 1;\n  float [0, 1] x;\nINIT\n  x = 0;\nTRANS\n  x' = d';\nTARGET\n  x > 0;\n",
        "t.hys:7:8: ",
        "`d` is a define (a constant) and cannot be primed",
    );
}

// ---------------------------------------------------------------- constants

#[test]
fn defines_fold_exactly() {
    let ck = clean(
        "DECL\n  define a = 2^10;\n  define b = (a - 24) / 3;\n  define c = -(b^2);\n  define d = max(abs(c), 7/2) + min(1, pow(2, 3));\n  int [0, a] n;\nEXPR\n  n > 0;\n",
    );
    let defs = ck.defines();
    assert_eq!(defs[0], ("a".into(), q(1024)));
    assert_eq!(defs[1], ("b".into(), Rational::new(1000.into(), 3.into())));
    assert_eq!(defs[2].1, -Rational::new(1_000_000.into(), 9.into()));
    assert_eq!(defs[3].1, Rational::new(1_000_000.into(), 9.into()) + q(1));
    assert_eq!(ck.declared()[0].domain, Domain::closed(q(0), q(1024)));
}

#[test]
fn division_by_zero_in_a_constant() {
    one(
        "DECL\n  define z = 1 - 1;\n  define a = 3 / z;\nEXPR\n  true;\n",
        "t.hys:3:14: ",
        "division by zero in a constant expression",
    );
}

#[test]
fn constant_blow_up_is_refused_quickly() {
    let t = std::time::Instant::now();
    one(
        "DECL\n  define a = 2^1000000000;\nEXPR\n  true;\n",
        "t.hys:2:14: ",
        "constant too large",
    );
    one(
        "DECL\n  float [0, 1] x;\nEXPR\n  x < 10^(10^10);\n",
        "t.hys:4:7: ",
        "constant too large",
    );
    // `^` is left-associative: 10^10^10 = (10^10)^10 = 10^100, which is fine
    clean("DECL\n  define a = 10^10^10;\nEXPR\n  true;\n");
    // repeated squaring hits the limit too
    let mut text = String::from("DECL\n  define a0 = 3;\n");
    for i in 1..40 {
        text.push_str(&format!("  define a{i} = a{} * a{};\n", i - 1, i - 1));
    }
    text.push_str("EXPR\n  true;\n");
    let d = diags(&text);
    assert!(
        !d.is_empty() && d[0].contains("constant too large"),
        "{d:?}"
    );
    assert!(t.elapsed().as_secs() < 10);
}

// ---------------------------------------------------------------- ranges

#[test]
fn int_bounds_must_be_integers() {
    one(
        "DECL\n  int [0.5, 3] n;\nEXPR\n  n > 0;\n",
        "t.hys:2:8: ",
        "the lower bound 0.5 of an `int` range is not an integer",
    );
}

#[test]
fn empty_ranges() {
    one(
        "DECL\n  int [3, 1] n;\nEXPR\n  n > 0;\n",
        "t.hys:2:7: ",
        "the range is empty",
    );
    one(
        "DECL\n  float (1, 1) x;\nEXPR\n  x > 0;\n",
        "t.hys:2:9: ",
        "the range is empty",
    );
    one(
        "DECL\n  int (0, 1) n;\nEXPR\n  n > 0;\n",
        "t.hys:2:7: ",
        "the range is empty",
    );
    clean("DECL\n  float [1, 1] x;\n  int (0, 2) n;\nEXPR\n  x > 0;\n");
}

#[test]
fn open_integer_bounds_are_normalised() {
    let ck = clean("DECL\n  int (0, 3) n;\n  int [-2, 5) m;\n  float (0, 1] x;\nEXPR\n  n > 0;\n");
    let d = ck.declared();
    assert_eq!(d[0].domain, Domain::closed(q(1), q(2)));
    assert_eq!(d[1].domain, Domain::closed(q(-2), q(4)));
    assert_eq!(
        d[2].domain,
        Domain {
            lo: Some(Bound {
                value: q(0),
                strict: true
            }),
            hi: Some(Bound {
                value: q(1),
                strict: false
            }),
        }
    );
    assert_eq!(d[2].sort, Sort::Real);
}

#[test]
fn range_bounds_are_constant_expressions() {
    let ck = clean("DECL\n  define n = 4;\n  int [-n, 2^n - 1] k;\nEXPR\n  k > 0;\n");
    assert_eq!(ck.declared()[0].domain, Domain::closed(q(-4), q(15)));
}

#[test]
fn boole_has_no_range_and_machine_ranges_fit_the_type() {
    one(
        "DECL\n  int8 [0, 300] a;\nEXPR\n  a > 0;\n",
        "t.hys:2:12: ",
        "the upper bound 300 is outside the type `int8` (-128..127)",
    );
    one(
        "DECL\n  uint8 [-1, 3] a;\nEXPR\n  a > 0;\n",
        "t.hys:2:10: ",
        "outside the type `uint8`",
    );
    let ck = clean("DECL\n  int16 a;\n  uint8 (0, 10) b;\nEXPR\n  a > 0;\n  b > 0;\n");
    let d = ck.declared();
    assert_eq!(d[0].domain, Domain::closed(q(-32768), q(32767)));
    assert_eq!(d[1].domain, Domain::closed(q(1), q(9)));
    assert_eq!(d[1].sort, Sort::MachineInt(IntType::new(8, false)));
}

#[test]
fn fp_ranges_are_normalised_to_floats() {
    let ck = clean("DECL\n  fp32 [0.1, 1] x;\n  fp64 y;\nEXPR\n  x > 0;\n");
    let d = ck.declared();
    let lo = FpFormat::F32.to_rational(0x3dcccccd).unwrap();
    assert_eq!(d[0].domain, Domain::closed(lo, q(1)));
    assert!(d[1].domain.is_unbounded());
    one(
        "DECL\n  fp32 [0.1, 0.1] x;\nEXPR\n  x > 0;\n",
        "t.hys:2:8: ",
        "the range contains no finite `fp32` value",
    );
}

// ---------------------------------------------------------------- exponents

#[test]
fn exponents_must_be_constant_non_negative_integers() {
    one(
        "DECL\n  float [0, 1] x;\n  int [1, 3] n;\nEXPR\n  x^n > 0;\n",
        "t.hys:5:5: ",
        "the exponent must be a non-negative integer constant",
    );
    one(
        "DECL\n  float [0, 1] x;\nEXPR\n  x^0.5 > 0;\n",
        "t.hys:4:5: ",
        "the exponent must be a non-negative integer constant, but it is 0.5",
    );
    one(
        "DECL\n  float [0, 1] x;\nEXPR\n  pow(x, -1) > 0;\n",
        "t.hys:4:10: ",
        "it is -1",
    );
    one(
        "DECL\n  float [0, 1] x;\nEXPR\n  nrt(x, 0) > 0;\n",
        "t.hys:4:10: ",
        "the degree of `nrt` must be a positive integer constant",
    );
    // given by defines and constant expressions
    clean("DECL\n  define n = 2;\n  float [0, 1] x;\nEXPR\n  x^n + x^(n+1) + nrt(x, n*2) + pow(x, 2*n) > 0;\n");
}

// ---------------------------------------------------------------- types

#[test]
fn fp_does_not_mix_with_reals_or_other_formats() {
    one(
        "DECL\n  fp32 a;\n  float [0, 1] r;\nEXPR\n  a + r > 0;\n",
        "t.hys:5:3: ",
        "type mismatch in `+`: fp32 and real cannot be mixed",
    );
    one(
        "DECL\n  fp32 a;\n  fp64 b;\nEXPR\n  a < b;\n",
        "t.hys:5:3: ",
        "type mismatch in `<`: fp32 and fp64 cannot be mixed",
    );
    one(
        "DECL\n  fp64 a;\n  boole b;\nEXPR\n  a * b > 0;\n",
        "t.hys:5:7: ",
        "a Boolean cannot be used as a number in fp64 arithmetic",
    );
}

#[test]
fn machine_integers_need_one_type() {
    one(
        "DECL\n  int8 a;\n  int16 b;\nEXPR\n  a + b = 0;\n",
        "t.hys:5:3: ",
        "type mismatch in `+`: int8 and int16 cannot be mixed",
    );
    one(
        "DECL\n  int8 a;\n  int [0, 9] n;\nEXPR\n  a = n;\n",
        "t.hys:5:3: ",
        "type mismatch in `=`: int8 and int cannot be mixed",
    );
    one(
        "DECL\n  int8 a;\nEXPR\n  a + 0.5 > 0;\n",
        "t.hys:4:7: ",
        "the constant 0.5 is not an integer, so it cannot be a int8",
    );
    one(
        "DECL\n  int8 a;\nEXPR\n  a < 200;\n",
        "t.hys:4:7: ",
        "the constant 200 does not fit int8 (-128..127)",
    );
    // -128 is one constant
    clean("DECL\n  int8 a;\nEXPR\n  a > -128;\n");
}

#[test]
fn fp_functions_and_rounding_modes() {
    clean("DECL\n  fp32 a, b;\nEXPR\n  fadd(a, b, RTZ) = fmul(a, 2, RNE);\n  isnan(fsqrt(a, RTP)) or feq(a, 0.5);\n  to_fp32(1, RTN) = a;\n");
    one(
        "DECL\n  fp32 a, b;\nEXPR\n  fadd(a, b, a) = a;\n",
        "t.hys:4:14: ",
        "argument 3 of `fadd` must be a rounding mode",
    );
    one(
        "DECL\n  fp32 a;\nEXPR\n  fadd(a, RNE, RNE) = a;\n",
        "t.hys:4:11: ",
        "rounding mode `RNE` is only allowed as the rounding argument",
    );
    one(
        "DECL\n  float [0, 1] r;\nEXPR\n  isnan(r);\n",
        "t.hys:4:9: ",
        "`isnan` needs fp operands, found real",
    );
    one(
        "DECL\n  fp64 a;\nEXPR\n  fadd(1, 2, RNE) = a;\n",
        "t.hys:4:8: ",
        "cannot tell the fp format",
    );
    one(
        "DECL\n  fp32 a;\n  fp64 b;\nEXPR\n  feq(a, b);\n",
        "t.hys:5:3: ",
        "type mismatch in `feq`: fp64 and fp32",
    );
}

#[test]
fn bit_reinterpretation_types() {
    let decl = "DECL\n  fp32 x;\n  fp64 y;\n  uint32 u;\n  int32 i;\n  uint64 w;\n  float [0, 1] d;\nEXPR\n";
    let ck = clean(&format!(
        "{decl}  fp_bits(x) = u;\n  fp_bits(y) = w;\n  fp32_of_bits(u) = x;\n  fp32_of_bits(i) = x;\n  fp64_of_bits(w) = y;\n  fp32_of_bits(0x7f800000) = x;\n"
    ));
    assert!(!ck.sections().is_empty());
    one(
        &format!("{decl}  fp_bits(1.5) = u;\n"),
        "t.hys:9:11: ",
        "cannot tell the fp format of `fp_bits`",
    );
    one(
        &format!("{decl}  fp_bits(u) = u;\n"),
        "t.hys:9:11: ",
        "`fp_bits` needs fp operands, found uint32",
    );
    one(
        &format!("{decl}  fp32_of_bits(d) = x;\n"),
        "t.hys:9:16: ",
        "`fp32_of_bits` needs a uint32 (or int32) operand, found real",
    );
    one(
        &format!("{decl}  fp64_of_bits(u) = y;\n"),
        "t.hys:9:16: ",
        "`fp64_of_bits` needs a uint64 (or int64) operand, found uint32",
    );
    one(
        &format!("{decl}  fp32_of_bits(-1) = x;\n"),
        "t.hys:9:16: ",
        "does not fit uint32",
    );
    one(
        &format!("{decl}  fp_bits(y) = u;\n"),
        "t.hys:9:3: ",
        "uint64 and uint32 cannot be mixed",
    );
}

#[test]
fn part_a_functions_are_not_ieee_operations() {
    one(
        "DECL\n  fp64 a;\nEXPR\n  abs(a) > 1;\n",
        "t.hys:4:7: ",
        "`abs` is not defined on fp64: use `fabs`",
    );
    one(
        "DECL\n  fp64 a;\nEXPR\n  sqrt(a) > 1;\n",
        "t.hys:4:8: ",
        "use `fsqrt`",
    );
    one(
        "DECL\n  fp64 a;\nEXPR\n  sin(a) > 0;\n",
        "t.hys:4:7: ",
        "`sin` is not defined on fp64: convert with to_real(...) first",
    );
    one(
        "DECL\n  int32 a;\nEXPR\n  max(a, 1) > 0;\n",
        "t.hys:4:7: ",
        "`max` is not defined on int32",
    );
    one(
        "DECL\n  fp64 a;\nEXPR\n  a^2 > 0;\n",
        "t.hys:4:3: ",
        "`^` is not defined on fp64",
    );
}

#[test]
fn conversions() {
    clean(
        "DECL\n  fp64 d;\n  fp32 f;\n  int8 a;\n  uint16 u;\n  int [0, 300] n;\n  float [-1, 1] r;\nEXPR\n  to_fp32(d) = f;\n  to_fp64(a, RTZ) = d;\n  to_int8(d) = a;\n  to_int8(u) = a;\n  to_uint16(n) = u;\n  to_int(a) + n > 2;\n  to_real(d) + to_real(n) + to_real(a) > r;\n  to_int(d) > 0;\n",
    );
    one(
        "DECL\n  int8 a;\n  float [0, 1] r;\nEXPR\n  to_int8(r) = a;\n",
        "t.hys:5:11: ",
        "`to_int8` converts an fp value, a machine integer or an int, not a real",
    );
    one(
        "DECL\n  int8 a;\nEXPR\n  to_int8(300) = a;\n",
        "t.hys:4:11: ",
        "the constant 300 does not fit int8",
    );
    one(
        "DECL\n  float [0, 1] r;\nEXPR\n  to_int(r) > 0;\n",
        "t.hys:4:10: ",
        "`to_int` converts a machine integer or an fp value, not a real",
    );
    one(
        "DECL\n  boole b;\n  fp32 f;\nEXPR\n  to_fp32(b) = f;\n",
        "t.hys:5:11: ",
        "`to_fp32` cannot convert a Boolean",
    );
}

#[test]
fn bitwise_functions() {
    clean("DECL\n  uint8 a, b;\nEXPR\n  bitand(a, b) = bitnot(bitxor(a, 1));\n  shl(a, 3) = shr(b, a);\n");
    one(
        "DECL\n  uint8 a;\nEXPR\n  shl(a, 8) = a;\n",
        "t.hys:4:10: ",
        "shift amount 8 is not an integer in 0..7",
    );
    one(
        "DECL\n  uint8 a;\n  int8 b;\nEXPR\n  shr(a, b) = a;\n",
        "t.hys:5:10: ",
        "the shift amount must be an integer constant or a uint8, not a int8",
    );
    one(
        "DECL\n  fp32 a;\nEXPR\n  bitnot(a) = a;\n",
        "t.hys:4:10: ",
        "`bitnot` needs a machine-integer operand",
    );
}

#[test]
fn booleans_and_numbers() {
    one(
        "DECL\n  float [0, 1] x;\nEXPR\n  x and x > 0;\n",
        "t.hys:4:3: ",
        "expected a Boolean, found a real expression",
    );
    one(
        "DECL\n  float [0, 1] x;\nEXPR\n  not 1;\n",
        "t.hys:4:7: ",
        "expected a Boolean, found a number",
    );
    one(
        "DECL\n  float [0, 1] x;\nEXPR\n  x + 1;\n",
        "t.hys:4:3: ",
        "a constraint must be Boolean, but this is a real expression",
    );
    one(
        "DECL\n  int [0, 1] x;\nEXPR\n  ite(x, 1, 2) > 0;\n",
        "t.hys:4:7: ",
        "expected a Boolean, found a int expression",
    );
    // Booleans as 0/1 in Int/Real arithmetic and relations: silent for variables
    clean("DECL\n  boole a, b, c;\n  float [0, 1] x;\nEXPR\n  a + b + c = 1;\n  a = 1;\n  x <= b;\n  ite(a, b, c);\n  ite(a, x, 1) > 0;\n");
}

#[test]
fn ite_branches_have_one_sort() {
    one(
        "DECL\n  boole c;\n  fp32 f;\n  fp64 d;\nEXPR\n  ite(c, f, d) = d;\n",
        "t.hys:6:3: ",
        "type mismatch in `ite`: fp32 and fp64 cannot be mixed",
    );
    one(
        "DECL\n  boole c;\n  fp32 f;\nEXPR\n  ite(c, 1, 2) = f;\n",
        "t.hys:5:3: ",
        "type mismatch in `=`: int and fp32 cannot be mixed",
    );
    // constants adapt to the other branch; Booleans and numbers mix as 0/1
    clean("DECL\n  boole c;\n  fp32 f;\n  int8 a;\n  float [0, 1] x;\nEXPR\n  ite(c, f, 0.5) = f;\n  ite(c, a, 3) = a;\n  ite(c, c, x) > 0;\n  ite(c, c, false);\n");
}

#[test]
fn wrong_number_of_arguments() {
    one(
        "DECL\n  float [0, 1] x;\nEXPR\n  min(x) > 0;\n",
        "t.hys:4:3: ",
        "`min` takes 2 argument(s), but 1 were given",
    );
}

// ---------------------------------------------------------------- domains of partial functions

#[test]
fn log_and_roots_outside_their_domain() {
    one(
        "DECL\n  float [-5, 0] x;\nEXPR\n  log(x) > 1;\n",
        "t.hys:4:7: ",
        "the argument of `log` is never > 0",
    );
    one(
        "DECL\n  float [-5, 3] x;\nEXPR\n  log10(x + 1) > 1;\n",
        "t.hys:4:9: warning: ",
        "the argument of `log10` can be outside its domain (> 0); the value is unspecified there",
    );
    one(
        "DECL\n  float [-5, -1] x;\nEXPR\n  sqrt(x) > 1;\n",
        "t.hys:4:8: ",
        "the argument of `sqrt` is never >= 0",
    );
    one(
        "DECL\n  float [-5, 1] x;\nEXPR\n  nrt(x^3, 4) > 1;\n",
        "t.hys:4:7: warning: ",
        "the argument of `nrt` can be outside its domain (>= 0)",
    );
    // inside the domain: silent (also with open bounds and even powers)
    clean("DECL\n  float (0, 1] x;\n  float [-3, 3] y;\nEXPR\n  log(x * x) + log2(exp(y)) + sqrt(y^2) + nrt(y^3, 3) > 0;\n");
    // odd roots of negative numbers are fine
    clean("DECL\n  float [-5, -1] x;\nEXPR\n  nrt(x, 3) < 0;\n");
}

#[test]
fn division_by_ranges_containing_zero() {
    one(
        "DECL\n  float [-1, 1] x;\nEXPR\n  1 / x > 1;\n",
        "t.hys:4:7: warning: ",
        "the divisor's range contains 0",
    );
    one(
        "DECL\n  float [-1, 1] x;\nEXPR\n  x / (0 * x) > 1;\n",
        "t.hys:4:7: ",
        "division by zero: the divisor is always 0",
    );
    one(
        "DECL\n  int8 a;\nEXPR\n  a / 0 > 1;\n",
        "t.hys:4:7: ",
        "division by zero",
    );
    clean("DECL\n  float [1, 2] x;\n  float (0, 2] y;\nEXPR\n  1 / x + 1 / y + x / (y * y) > 1;\n");
}

// ---------------------------------------------------------------- warnings

#[test]
fn chained_relations() {
    one(
        "DECL\n  float [-1, 1] x;\nEXPR\n  0 <= x <= 1;\n",
        "t.hys:4:3: warning: ",
        "chained comparison `a <= b <= c` is read as `(a <= b) <= c`",
    );
    // with parentheses it is what the user wrote (a Boolean used as a number)
    one(
        "DECL\n  float [-1, 1] x;\nEXPR\n  (0 <= x) <= 1;\n  0 <= x and x <= 1;\n",
        "t.hys:4:3: warning: ",
        "Boolean expression used as a number",
    );
}

#[test]
fn negated_even_powers() {
    one(
        "DECL\n  float [-1, 1] x;\nEXPR\n  -x^2 < 1;\n",
        "t.hys:4:3: warning: ",
        "`-x^2` is read as `-(x^2)`, but iSAT3 0.02 reads it as `(-x)^2`",
    );
    // odd powers and explicit parentheses: same value either way / intent explicit
    clean("DECL\n  define k = 3;\n  float [-1, 1] x;\nEXPR\n  -x^3 < 1;\n  -x^k < 1;\n  -(x^2) < 1;\n  (-x)^2 < 1;\n");
}

#[test]
fn calls_without_parentheses() {
    one(
        "DECL\n  float [-1, 1] x;\nEXPR\n  abs x > 0.5;\n",
        "t.hys:4:3: warning: ",
        "function call without parentheses",
    );
}

#[test]
fn boolean_expressions_used_as_numbers() {
    one(
        "DECL\n  float [-1, 1] x;\nEXPR\n  true + x >= 1;\n",
        "t.hys:4:3: warning: ",
        "Boolean expression used as a number",
    );
    // one warning per operand; variables are silent
    let d = diags("DECL\n  boole b;\n  float [-1, 1] x, y;\nEXPR\n  b + (x > 0) + (y > 0) >= 1;\n");
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(d[0].starts_with("t.hys:5:7: warning: "), "{d:?}");
    assert!(d[1].starts_with("t.hys:5:17: warning: "), "{d:?}");
}

#[test]
fn machine_constant_wrap_around() {
    one(
        "DECL\n  int8 a;\nEXPR\n  a = (100 + 100);\n",
        "t.hys:4:8: warning: ",
        "constant arithmetic wraps around in int8: 200 becomes -56",
    );
}

#[test]
fn fp_constants_that_overflow() {
    one(
        "DECL\n  fp32 a;\nEXPR\n  a < 1e39;\n",
        "t.hys:4:7: warning: ",
        "the constant overflows fp32: it is rounded to +infinity",
    );
    one(
        "DECL\n  fp64 a;\nEXPR\n  a = to_fp64(-1e400);\n",
        "t.hys:4:15: warning: ",
        "rounded to -infinity",
    );
}

// ---------------------------------------------------------------- many errors, source order

#[test]
fn independent_errors_are_all_reported_in_source_order() {
    let d = diags(
        "DECL\n  int [0.5, 2] n;\n  float [0, 1] x, x;\nEXPR\n  y > 0;\n  x^x > 0;\n  0 <= x <= 1;\n  n and x;\n",
    );
    let expect = [
        "t.hys:2:8: the lower bound 0.5",
        "t.hys:3:19: `x` is already declared",
        "t.hys:5:3: undeclared name `y`",
        "t.hys:6:5: the exponent must be",
        "t.hys:7:3: warning: chained comparison",
        "t.hys:8:3: expected a Boolean",
        "t.hys:8:9: expected a Boolean",
    ];
    assert_eq!(d.len(), expect.len(), "{d:#?}");
    for (got, want) in d.iter().zip(expect) {
        assert!(got.starts_with(want), "got `{got}`, want `{want}...`");
    }
}

#[test]
fn the_manuals_examples_check_cleanly() {
    let ck = clean(
        "DECL\n-- The range of each variable has to be bounded.\nint [1, 100] a, b, c;\n\nEXPR\n-- Constraint to be solved.\na*a + b*b = c*c;\n",
    );
    assert!(!ck.is_transition_system());
    assert_eq!(ck.constraint_count(), 1);
    let ck = clean(
        "DECL\ndefine f = 2.0;\nfloat [0, 1000] x;\nboole jump;\n\nINIT\nx = 0.5;\n!jump;\n\nTRANS\njump' <-> !jump;\n\njump -> f * x' = x;\n!jump -> x' = x + 2;\n\nTARGET\nx > 3.5;\n",
    );
    assert!(ck.is_transition_system());
    assert_eq!(ck.constraint_count(), 6);
    let names: Vec<&str> = ck.declared().iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["x", "jump"]);
    assert_eq!(ck.declared()[1].sort, Sort::Bool);
}

#[test]
fn remainder_needs_machine_integers() {
    one(
        "DECL float [0, 1] x;\nEXPR x % 2 > 0;",
        "t.hys:2:6:",
        "`%` is the remainder of machine integers",
    );
    one(
        "DECL fp64 x;\nEXPR x % x > 0;",
        "t.hys:2:6:",
        "not defined on fp operands",
    );
    one(
        "DECL int32 a;\nEXPR a % 0 = 1;",
        "t.hys:2:10:",
        "division by zero",
    );
    one(
        "DECL int32 a;\nEXPR a = 7.5 % 2;",
        "t.hys:2:10:",
        "`%` needs integer operands",
    );
}
