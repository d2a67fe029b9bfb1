#!/usr/bin/env python3
"""Independent check of examples/ic3-suite/expected.csv with Z3 (not needed at test time).

The script has its own small reader for the .hys subset the suite uses (boole, int, float =
real, fp32/fp64, int8..uint64, ranges; and or xor not -> <-> <-; relations; + - * /; abs min
max ite; feq isnan isinf fabs to_fp32 to_fp64 to_real to_int16 ...; primes) and encodes it for
Z3 with the semantics of docs/hys-language.md:

  * int = Int, float = Real, every state (current and next) inside its declared range;
  * fp32/fp64 = Float32/Float64, arithmetic rounded to nearest even, `=` is identity (SMT-LIB
    `=`: all NaNs equal, -0 != +0), `<` etc. and feq are IEEE comparisons, a constant in an fp
    context is the exact rational rounded to nearest even, an fp range means "not NaN, not
    infinite, between the floats inside the range";
  * machine integers = bit-vectors with wrap-around, relations compare the exact signed or
    unsigned values, to_int16(int8) sign-extends.

For every SAFE file, INVARIANTS below holds a hand-written inductive invariant, written in
.hys syntax (constraints separated by `;`, read as a conjunction of lemmas), and the script
proves the three conditions of an inductive invariant:

    (1) Dom(s) & INIT(s)                          =>  Inv(s)
    (2) Dom(s) & Dom(s') & Inv(s) & TRANS(s, s')  =>  Inv(s')
    (3) Dom(s) & Inv(s)                           =>  not TARGET(s)

Every SAFE file also gets a bounded check (no counterexample up to SAFE_BMC_DEPTH steps). For
every UNSAFE file the script unrolls with Z3 and checks that the target is unreachable at
every depth below the expected one and reachable at the expected depth (UNSAFE_DEPTH).

Usage: python3 check_invariants.py [--lemmas] [FILE ...]      (pip install z3-solver)
  --lemmas   also report, per SAFE file, which lemmas of its invariant could be dropped alone
"""
import csv
import os
import re
import sys
from fractions import Fraction

import z3

SAFE_BMC_DEPTH = 20          # bounded sanity check of the SAFE files (icpic3's BMC goes to 40)
SAFE_BMC_TIMEOUT_MS = 10000  # per depth; the check stops early (and says so) when Z3 needs longer

# Hand-written inductive invariants of the SAFE models (see expected.csv for the reasoning).
INVARIANTS = {
    # --- integers
    "s_int_double_counter.hys": "y = 2 * x; x <= 10;",
    "s_int_tokens.hys": "a + b + c = 4;",
    "s_int_lockstep_reset.hys": "x = y;",
    "s_int_budget.hys": "spent + left = 12;",
    "s_int_two_phase.hys": "!ph -> (y = 0 and x <= 15); ph -> x + y = 15;",
    "s_int_guarded_follow.hys": "x <= 20; y <= 20;",
    "s_int_speed_limit.hys": "v <= 3; x <= 92;",
    "s_int_odometer.hys": "t = 5 * b + a;",
    "s_int_walker_window.hys": "hi <= 10; w <= 10;",
    # --- reals
    "s_real_speed_limit.hys": "v <= 2; x <= 52;",
    "s_real_two_rates.hys": "y = 2 * x; x < 5.25;",
    "s_real_heating_timer.hys": "2 * T <= t; t <= 10;",
    "s_real_energy_budget.hys": "T + 0.5 * E <= 20;",
    "s_real_sampled_valve.hys": "t <= 7; open -> 2 * h < 13 + t; !open -> h < 10.5;",
    "s_real_three_stage.hys": "v <= 1; w < 4; x < 44;",
    "s_real_error_latch.hys": "v <= 0.5; x < 20.5; !err;",
    "s_real_dual_tank.hys": "h1 + h2 = 5;",
    "s_real_pwm_heater.hys": "p <= 3 -> T <= p; p >= 3 -> 2 * T <= 9 - p;",
    # --- IEEE floats and machine integers
    "s_fp32_speed_limit.hys": "v <= 2.25; x <= 52.25;",
    "s_fp64_window_sum.hys": "k <= 8; s <= 0.125 * to_fp64(k);",   # the bound also excludes NaN
    "s_fp32_filter_accumulator.hys": "y <= 1.0; z <= 31.0;",
    "s_fp64_pc_halves.hys": "pc <= 2; pc = 1 -> (i <= 10 and s = 0.5 * to_fp64(i)); pc = 2 -> s = 5.0;",
    "s_uint8_two_counters.hys": "b = a + a;",                        # modulo 256
    "s_int16_step_guard.hys": "step >= 0; x >= 0;",
    "s_uint16_triangle.hys": "i <= 10; s + s + i = i * i;",
    # --- program-counter models
    "s_pc_sum_loop.hys": "pc <= 4; i >= 0; s >= 0;",
    "s_pc_up_down.hys": "pc <= 3; pc = 1 -> (x = i and i <= 6); pc = 2 -> (x + i = 6 and i <= 6); pc = 3 -> x = 0;",
    "s_pc_div_by_sub.hys": "pc <= 4; r >= 0; pc = 2 -> r >= 3; pc >= 3 -> r <= 2;",
    "s_pc_peterson.hys": "f1 <-> p >= 1; f2 <-> q >= 1; (p = 3 and q = 2) -> t; (q = 3 and p = 2) -> !t; !(p = 3 and q = 3);",
    "s_pc_nested_loops.hys": "pc = 0 or pc = 1 or pc = 2 or pc = 5; pc = 1 -> (c = 3 * i and i <= 4); "
                             "pc = 2 -> (c = 3 * i + j and j <= 3 and i <= 3); pc = 5 -> c = 12;",
    "s_pc_real_integrate.hys": "pc <= 2; x <= 1; pc = 1 -> (k <= 8 and y <= k); pc = 2 -> y <= 8;",
    "s_pc_clamp_accumulate.hys": "pc <= 5; n <= 6; pc <= 3 -> n <= 5; acc <= 10 * n; acc >= -10 * n; "
                                 "pc = 2 -> v <= 10; pc = 3 -> (v <= 10 and v >= -10);",
    "s_pc_binary_search.hys": "pc <= 3; lo >= 0; hi <= 15; pc >= 2 -> (lo <= mid and mid < hi);",
    "s_pc_countdown_transfer.hys": "pc <= 2; pc = 1 -> a + b = n; pc = 2 -> a = n;",
}

# Expected shortest counterexample length of the UNSAFE models (derived by hand, see expected.csv).
UNSAFE_DEPTH = {
    "u_int_speed_overshoot.hys": 26,
    "u_pc_sum_off_by_one.hys": 36,
    "u_real_speed_overshoot.hys": 24,
    "u_pc_peterson_swapped_turn.hys": 6,
    "u_fp32_tenths.hys": 31,
    "u_uint8_stride.hys": 37,
    "u_int16_triple.hys": 10,
    "u_real_valve_late.hys": 23,
    "u_pc_nested_off_by_one.hys": 27,
    "u_real_tank_leak.hys": 11,
    "u_int_two_phase_double.hys": 31,
    "u_fp64_pc_tenths.hys": 13,
}

# ---------------------------------------------------------------------------------------------
# lexer

TOK = re.compile(r"\s*(<->|->|<-|<=|>=|!=|&&|\|\||0x[0-9a-fA-F.]+p[-+]?\d+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
                 r"|[A-Za-z_][A-Za-z0-9_]*|[-+*/^()\[\]{},;=<>!'])")


def tokens(s):
    s = re.sub(r"--[^\n]*", "", s)
    out, i = [], 0
    while i < len(s):
        if s[i:].strip() == "":
            break
        m = TOK.match(s, i)
        if not m:
            raise SyntaxError("cannot read: " + s[i:i + 20])
        out.append(m.group(1))
        i = m.end()
    return out


# ---------------------------------------------------------------------------------------------
# types: ("bool",), ("int",), ("real",), ("num",) = untyped constant, ("fp", eb, sb), ("bv", n, signed)

BOOL, INT, REAL, NUM = ("bool",), ("int",), ("real",), ("num",)
FP32, FP64 = ("fp", 8, 24), ("fp", 11, 53)
MACHINE = {f"{'u' if u else ''}int{n}": ("bv", n, not u) for n in (8, 16, 32, 64) for u in (False, True)}
RNE = z3.RNE()


def fpsort(t):
    return z3.FPSort(t[1], t[2])


class V:
    """A typed value: t is the type, e the Z3 expression (or a Fraction for NUM)."""

    def __init__(self, t, e):
        self.t, self.e = t, e


def num_to(q, t):
    """An exact constant as a value of type t (fp: rounded to nearest even)."""
    if t == INT:
        if q.denominator != 1:
            return z3.RealVal(str(q))
        return z3.IntVal(int(q))
    if t == REAL:
        return z3.RealVal(str(q))
    if t[0] == "fp":
        return z3.simplify(z3.fpRealToFP(RNE, z3.RealVal(str(q)), fpsort(t)))
    if t[0] == "bv":
        assert q.denominator == 1, q
        return z3.BitVecVal(int(q) % (1 << t[1]), t[1])
    raise TypeError(t)


def as_num(v):
    """Booleans in arithmetic are 0/1."""
    if v.t == BOOL:
        return V(INT, z3.If(v.e, z3.IntVal(1), z3.IntVal(0)))
    return v


def unify(a, b):
    a, b = as_num(a), as_num(b)
    if a.t == NUM and b.t == NUM:
        return NUM, a.e, b.e
    if a.t == NUM:
        return b.t, num_to(a.e, b.t), b.e
    if b.t == NUM:
        return a.t, a.e, num_to(b.e, a.t)
    if a.t == b.t:
        return a.t, a.e, b.e
    if {a.t, b.t} == {INT, REAL}:
        ea = z3.ToReal(a.e) if a.t == INT else a.e
        eb = z3.ToReal(b.e) if b.t == INT else b.e
        return REAL, ea, eb
    raise TypeError(f"mixed operands {a.t} and {b.t}")


def arith(op, a, b):
    t, x, y = unify(a, b)
    if t == NUM:
        return V(NUM, {"+": x + y, "-": x - y, "*": x * y, "/": x / y}[op])
    if t[0] == "fp":
        f = {"+": z3.fpAdd, "-": z3.fpSub, "*": z3.fpMul, "/": z3.fpDiv}[op]
        return V(t, f(RNE, x, y))
    if t[0] == "bv":
        if op == "/":
            raise TypeError("machine-int division is not used by the suite")
        return V(t, {"+": x + y, "-": x - y, "*": x * y}[op])
    if op == "/":
        return V(REAL, (z3.ToReal(x) if t == INT else x) / (z3.ToReal(y) if t == INT else y))
    return V(t, {"+": x + y, "-": x - y, "*": x * y}[op])


def relation(op, a, b):
    if op in ("=", "!=") and a.t == BOOL and b.t == BOOL:
        r = a.e == b.e
        return V(BOOL, r if op == "=" else z3.Not(r))
    t, x, y = unify(a, b)
    if t == NUM:
        return V(BOOL, z3.BoolVal({"<": x < y, "<=": x <= y, "=": x == y, "!=": x != y,
                                   ">=": x >= y, ">": x > y}[op]))
    if op == "=":
        return V(BOOL, x == y)          # identity for fp (SMT-LIB =), equality otherwise
    if op == "!=":
        return V(BOOL, z3.Not(x == y))
    if t[0] == "fp":
        f = {"<": z3.fpLT, "<=": z3.fpLEQ, ">": z3.fpGT, ">=": z3.fpGEQ}[op]
        return V(BOOL, f(x, y))
    if t[0] == "bv" and not t[2]:
        f = {"<": z3.ULT, "<=": z3.ULE, ">": z3.UGT, ">=": z3.UGE}[op]
        return V(BOOL, f(x, y))
    return V(BOOL, {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op])


def boolean(v):
    if v.t != BOOL:
        raise TypeError("Boolean expected")
    return v.e


# ---------------------------------------------------------------------------------------------
# parser (precedence of docs/hys-language.md A.5, all binary operators left-associative)

LEVELS = [["->", "<->", "<-", "impl", "implies", "iff"], ["or", "||", "nor"], ["xor", "nxor", "xnor"],
          ["and", "&&", "nand"], ["<", "<=", "=", "!=", ">=", ">"], ["+", "-"], ["*", "/"]]


class Parser:
    def __init__(self, toks, model, cur, nxt):
        self.t, self.i, self.m, self.cur, self.nxt = toks, 0, model, cur, nxt

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def eat(self, x=None):
        v = self.t[self.i]
        if x is not None and v != x:
            raise SyntaxError(f"expected {x}, got {v}")
        self.i += 1
        return v

    def parse(self):
        e = self.level(0)
        if self.i != len(self.t):
            raise SyntaxError(f"trailing tokens {self.t[self.i:]}")
        return e

    def level(self, n):
        if n == len(LEVELS):
            return self.unary()
        e = self.level(n + 1)
        while self.peek() in LEVELS[n]:
            op = self.eat()
            r = self.level(n + 1)
            e = self.apply(op, e, r)
        return e

    def apply(self, op, a, b):
        if op in ("->", "impl", "implies"):
            return V(BOOL, z3.Implies(boolean(a), boolean(b)))
        if op == "<-":
            return V(BOOL, z3.Implies(boolean(b), boolean(a)))
        if op in ("<->", "iff", "nxor", "xnor"):
            return V(BOOL, boolean(a) == boolean(b))
        if op in ("or", "||"):
            return V(BOOL, z3.Or(boolean(a), boolean(b)))
        if op == "nor":
            return V(BOOL, z3.Not(z3.Or(boolean(a), boolean(b))))
        if op == "xor":
            return V(BOOL, z3.Xor(boolean(a), boolean(b)))
        if op in ("and", "&&"):
            return V(BOOL, z3.And(boolean(a), boolean(b)))
        if op == "nand":
            return V(BOOL, z3.Not(z3.And(boolean(a), boolean(b))))
        if op in ("<", "<=", "=", "!=", ">=", ">"):
            return relation(op, a, b)
        return arith(op, a, b)

    def unary(self):
        x = self.peek()
        if x == "-":
            self.eat()
            v = as_num(self.unary())
            if v.t == NUM:
                return V(NUM, -v.e)
            if v.t[0] == "fp":
                return V(v.t, z3.fpNeg(v.e))
            return V(v.t, -v.e)
        if x == "+":
            self.eat()
            return self.unary()
        if x in ("!", "not"):
            self.eat()
            return V(BOOL, z3.Not(boolean(self.unary())))
        return self.power()

    def power(self):
        e = self.atom()
        while self.peek() == "^":
            self.eat()
            n = int(self.eat())
            r = V(NUM, Fraction(1))
            for _ in range(n):
                r = arith("*", r, e)
            e = r
        return e

    def args(self):
        self.eat("(")
        out = [self.level(0)]
        while self.peek() == ",":
            self.eat()
            out.append(self.level(0))
        self.eat(")")
        return out

    def atom(self):
        x = self.eat()
        if x in ("(", "[", "{"):
            e = self.level(0)
            self.eat({"(": ")", "[": "]", "{": "}"}[x])
            return e
        if x in ("true", "false"):
            return V(BOOL, z3.BoolVal(x == "true"))
        if re.match(r"\d", x):
            if x.startswith("0x"):
                return V(NUM, Fraction(float.fromhex(x)))
            return V(NUM, Fraction(x))
        if self.peek() == "(" and x not in self.m.vars:
            return self.call(x, self.args())
        if x in self.m.defines:
            return V(NUM, self.m.defines[x])
        if self.peek() == "'":
            self.eat()
            if self.nxt is None:
                raise SyntaxError(f"{x}' outside TRANS")
            return self.nxt[x]
        return self.cur[x]

    def int_to_fp(self, e, t):
        """to_fp of an `int`: for a declared variable with a small range an exact case split over
        its values (Z3 is slow on Int-to-float conversions), else fp.to_fp of the real value."""
        name = e.decl().name().split("@")[0] if z3.is_const(e) else None
        if name in self.m.vars and self.m.vars[name][1] is not None:
            lo_open, lo, hi, hi_open = self.m.vars[name][1]
            lo, hi = int(lo) + lo_open, int(hi) - hi_open
            if hi - lo <= 4096:
                r = num_to(Fraction(hi), t)
                for n in range(hi - 1, lo - 1, -1):
                    r = z3.If(e == n, num_to(Fraction(n), t), r)
                return r
        return z3.fpRealToFP(RNE, z3.ToReal(e), fpsort(t))

    def call(self, f, a):
        a = [as_num(v) if v.t == BOOL and f not in ("ite",) else v for v in a]
        if f == "abs":
            (v,) = a
            return V(v.t, z3.If(v.e >= 0, v.e, -v.e)) if v.t != NUM else V(NUM, abs(v.e))
        if f in ("min", "max"):
            t, x, y = unify(a[0], a[1])
            return V(t, z3.If(x <= y, x, y) if f == "min" else z3.If(x >= y, x, y))
        if f == "ite":
            c = boolean(a[0])
            t, x, y = unify(a[1], a[2])
            return V(t, z3.If(c, x, y))
        if f == "feq":
            t, x, y = unify(a[0], a[1])
            return V(BOOL, z3.fpEQ(x, y))
        if f in ("isnan", "isinf", "iszero", "isneg", "isnormal", "issubnormal"):
            g = {"isnan": z3.fpIsNaN, "isinf": z3.fpIsInf, "iszero": z3.fpIsZero, "isneg": z3.fpIsNegative,
                 "isnormal": z3.fpIsNormal, "issubnormal": z3.fpIsSubnormal}[f]
            return V(BOOL, g(a[0].e))
        if f == "fabs":
            return V(a[0].t, z3.fpAbs(a[0].e))
        if f in ("to_fp32", "to_fp64"):
            t = FP32 if f == "to_fp32" else FP64
            v = a[0]
            if v.t == NUM:
                return V(t, num_to(v.e, t))
            if v.t == INT:
                return V(t, self.int_to_fp(v.e, t))
            if v.t == REAL:
                return V(t, z3.fpRealToFP(RNE, v.e, fpsort(t)))
            if v.t[0] == "fp":
                return V(t, z3.fpFPToFP(RNE, v.e, fpsort(t)))
            if v.t[0] == "bv":
                g = z3.fpSignedToFP if v.t[2] else z3.fpUnsignedToFP
                return V(t, g(RNE, v.e, fpsort(t)))
        if f.startswith("to_") and f[3:] in MACHINE:
            t = MACHINE[f[3:]]
            v = a[0]
            if v.t == NUM:
                return V(t, num_to(v.e, t))
            if v.t[0] == "bv":
                n, m = v.t[1], t[1]
                if m > n:
                    e = z3.SignExt(m - n, v.e) if v.t[2] else z3.ZeroExt(m - n, v.e)
                elif m < n:
                    e = z3.Extract(m - 1, 0, v.e)
                else:
                    e = v.e
                return V(t, e)
        if f == "to_real" and a[0].t[0] == "fp":
            return V(REAL, z3.fpToReal(a[0].e))
        raise TypeError(f"function {f} on {[v.t for v in a]} is not supported by this checker")


# ---------------------------------------------------------------------------------------------
# the model


class Model:
    def __init__(self, text):
        t = tokens(text)
        secs, cur = {}, None
        for x in t:
            if x in ("DECL", "INIT", "TRANS", "TARGET", "EXPR"):
                cur = x
                secs[cur] = []
            else:
                secs[cur].append(x)
        assert "EXPR" not in secs, "transition systems only"
        self.vars, self.defines = {}, {}
        d, i = secs["DECL"], 0
        while i < len(d):
            static = d[i] == "static"
            if static:
                i += 1
            kind = d[i]
            i += 1
            if kind == "define":
                name = d[i]
                j = d.index(";", i)
                self.defines[name] = Parser(d[i + 2:j], self, {}, None).parse().e
                i = j + 1
                continue
            rng = None
            if d[i] in ("[", "("):
                j = i + 1
                while d[j] not in ("]", ")"):
                    j += 1
                body = d[i + 1:j]
                k = body.index(",")
                lo = Parser(body[:k], self, {}, None).parse().e
                hi = Parser(body[k + 1:], self, {}, None).parse().e
                rng = (d[i] == "(", Fraction(lo), Fraction(hi), d[j] == ")")
                i = j + 1
            typ = {"boole": BOOL, "int": INT, "float": REAL, "fp32": FP32, "fp64": FP64}.get(kind) or MACHINE[kind]
            while True:
                self.vars[d[i]] = (typ, rng, static)
                i += 1
                if d[i] == ",":
                    i += 1
                    continue
                assert d[i] == ";"
                i += 1
                break
        self.secs = {k: self.split(v) for k, v in secs.items() if k != "DECL"}

    @staticmethod
    def split(ts):
        out, cur = [], []
        for x in ts:
            if x == ";":
                out.append(cur)
                cur = []
            else:
                cur.append(x)
        assert not cur, "constraint without ;"
        return out

    def state(self, tag):
        s = {}
        for n, (t, rng, static) in self.vars.items():
            name = f"{n}@{'s' if static else tag}"
            if t == BOOL:
                e = z3.Bool(name)
            elif t == INT:
                e = z3.Int(name)
            elif t == REAL:
                e = z3.Real(name)
            elif t[0] == "fp":
                e = z3.FP(name, fpsort(t))
            else:
                e = z3.BitVec(name, t[1])
            s[n] = V(t, e)
        return s

    def domain(self, s):
        cs = []
        for n, (t, rng, _) in self.vars.items():
            x = s[n].e
            if t[0] == "fp" and rng is not None:
                lo_open, lo, hi, hi_open = rng
                assert not lo_open and not hi_open
                # the floats inside [lo, hi]: lo rounded up, hi rounded down
                flo = z3.simplify(z3.fpRealToFP(z3.RTP(), z3.RealVal(str(lo)), fpsort(t)))
                fhi = z3.simplify(z3.fpRealToFP(z3.RTN(), z3.RealVal(str(hi)), fpsort(t)))
                cs += [z3.Not(z3.fpIsNaN(x)), z3.Not(z3.fpIsInf(x)), z3.fpGEQ(x, flo), z3.fpLEQ(x, fhi)]
            elif rng is not None:
                lo_open, lo, hi, hi_open = rng
                v = s[n]
                cs.append(relation(">" if lo_open else ">=", v, V(NUM, lo)).e)
                cs.append(relation("<" if hi_open else "<=", v, V(NUM, hi)).e)
        return cs

    def formula(self, constraints, cur, nxt=None):
        return z3.And([boolean(Parser(c, self, cur, nxt).parse()) for c in constraints] or [z3.BoolVal(True)])

    def sec(self, name, cur, nxt=None):
        return self.formula(self.secs[name], cur, nxt)


def proved(solver_constraints, goal):
    s = z3.Solver()
    s.add(solver_constraints)
    s.add(z3.Not(goal))
    r = s.check()
    if r == z3.sat:
        return False, s.model()
    if r == z3.unsat:
        return True, None
    return None, s.reason_unknown()


def check_invariant(m, inv_text):
    inv = Model.split(tokens(inv_text))
    s0, s1 = m.state(0), m.state(1)
    inv0, inv1 = m.formula(inv, s0), m.formula(inv, s1)
    results = {}
    results["init"] = proved(m.domain(s0) + [m.sec("INIT", s0)], inv0)
    results["step"] = proved(m.domain(s0) + m.domain(s1) + [inv0, m.sec("TRANS", s0, s1)], inv1)
    results["target"] = proved(m.domain(s0) + [inv0], z3.Not(m.sec("TARGET", s0)))
    return results


def redundant_lemmas(m, inv_text):
    """The lemmas of the invariant that can be dropped with the rest still an inductive invariant."""
    lemmas = Model.split(tokens(inv_text))
    out = []
    for i, lem in enumerate(lemmas):
        rest = " ".join(" ".join(l) + " ;" for j, l in enumerate(lemmas) if j != i)
        if len(lemmas) > 1 and all(v[0] is True for v in check_invariant(m, rest).values()):
            out.append(" ".join(lem))
    return out


def bmc(m, max_depth, timeout_ms=None):
    """(first depth <= max_depth with a run to the target or None, last depth refuted)."""
    s = z3.Solver()
    if timeout_ms:
        s.set("timeout", timeout_ms)
    states = [m.state(0)]
    s.add(m.domain(states[0]))
    s.add(m.sec("INIT", states[0]))
    for k in range(max_depth + 1):
        if k > 0:
            states.append(m.state(k))
            s.add(m.domain(states[k]))
            s.add(m.sec("TRANS", states[k - 1], states[k]))
        s.push()
        s.add(m.sec("TARGET", states[k]))
        r = s.check()
        s.pop()
        if r == z3.sat:
            return k, k - 1
        if r != z3.unsat:
            if timeout_ms:
                return None, k - 1
            raise RuntimeError(f"z3 says {r} at depth {k}")
    return None, max_depth


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    rows = list(csv.DictReader(open(os.path.join(here, "expected.csv"))))
    lemma_check = "--lemmas" in sys.argv
    only = set(os.path.basename(a) for a in sys.argv[1:] if not a.startswith("--"))
    bad = 0
    for r in rows:
        f = r["file"]
        if only and f not in only:
            continue
        m = Model(open(os.path.join(here, f)).read())
        if r["verdict"] == "SAFE":
            if f not in INVARIANTS:
                print(f"{f:34} SAFE    no invariant recorded  <-- MISSING")
                bad += 1
                continue
            res = check_invariant(m, INVARIANTS[f])
            ok = all(v[0] is True for v in res.values())
            depth, reached = bmc(m, SAFE_BMC_DEPTH, SAFE_BMC_TIMEOUT_MS)
            ok = ok and depth is None
            status = ", ".join(f"{k} {'ok' if v[0] else 'FAILS' if v[0] is False else 'unknown'}" for k, v in res.items())
            print(f"{f:34} SAFE    invariant: {status}; bmc: "
                  f"{f'no run to the target up to depth {reached}' if depth is None else f'TARGET AT DEPTH {depth}'}"
                  f"{'' if ok else '  <-- MISMATCH'}")
            if lemma_check:
                n = len(Model.split(tokens(INVARIANTS[f])))
                red = redundant_lemmas(m, INVARIANTS[f])
                print(f"    {n} lemma(s); " + ("each one is needed" if not red else
                                                "can be dropped alone: " + " | ".join(red)))
            if not ok:
                for k, v in res.items():
                    if v[0] is False:
                        print(f"    counterexample to {k}: {v[1]}")
        else:
            want = UNSAFE_DEPTH[f]
            depth, _ = bmc(m, want)
            ok = depth == want
            print(f"{f:34} UNSAFE  z3 bmc: first at depth {depth}, expected {want}{'' if ok else '  <-- MISMATCH'}")
        bad += not ok
    print("all agree" if not bad else f"{bad} disagreement(s)")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
