#!/usr/bin/env python3
"""Independent cross-check of examples/ts-suite/expected.csv with Z3 (not needed at test time).

Reads each suite file with its own small parser for the subset of .hys the suite uses
(int/float/boole/static/define; and or xor -> <-> not; relations; + - * / ^; abs min max;
primes), builds the unrolling over exact Int/Real arithmetic with every state in its declared
range (iSAT3's semantics), and decides:
  UNSAFE  if some depth k <= MAX_DEPTH has I(s0) & T(s0,s1) & ... & TARGET(sk)  (prints k);
  SAFE    if all runs end (I & T^k unsatisfiable) after refuting depths < k, or if k-induction
          with simple-path constraints succeeds for some k <= MAX_K.
Anything else is reported as undecided. Usage: python3 crosscheck_z3.py  (pip install z3-solver)
"""
import csv, os, re, sys
from fractions import Fraction
import z3

MAX_DEPTH, MAX_K = 100, 12
TOK = re.compile(r"\s*(<->|->|<=|>=|!=|&&|\|\||[-+*/^()\[\],;=<>!']|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)")

def tokens(s):
    s = re.sub(r"--[^\n]*", "", s)
    out, i = [], 0
    while i < len(s):
        m = TOK.match(s, i)
        if not m:
            if s[i:].strip() == "":
                break
            raise SyntaxError(s[i:i + 20])
        out.append(m.group(1)); i = m.end()
    return out

class Model:
    def __init__(self, text):
        t = tokens(text)
        secs, cur = {}, None
        for x in t:
            if x in ("DECL", "INIT", "TRANS", "TARGET"):
                cur = x; secs[cur] = []
            else:
                secs[cur].append(x)
        self.vars, self.defines = {}, {}
        d = secs["DECL"]; i = 0
        while i < len(d):
            static = d[i] == "static"
            if static: i += 1
            kind = d[i]; i += 1
            if kind == "define":
                name = d[i]; j = d.index(";", i)
                self.defines[name] = Fraction(d[i + 2]) if j == i + 3 else Fraction(d[i + 2])
                i = j + 1; continue
            lo = hi = None
            if kind in ("int", "float"):
                assert d[i] == "["
                j = d.index("]", i)
                parts = "".join(d[i + 1:j]).split(",")
                lo, hi = Fraction(parts[0]), Fraction(parts[1]); i = j + 1
            while True:
                self.vars[d[i]] = (kind, lo, hi, static); i += 1
                if d[i] == ",": i += 1; continue
                assert d[i] == ";"; i += 1; break
        self.secs = {k: self.split(v) for k, v in secs.items() if k != "DECL"}

    @staticmethod
    def split(ts):
        out, cur = [], []
        for x in ts:
            if x == ";": out.append(cur); cur = []
            else: cur.append(x)
        return out

    def state(self, k):
        mk = {"int": z3.Int, "float": z3.Real, "boole": z3.Bool}
        s = {}
        for n, (kind, lo, hi, static) in self.vars.items():
            s[n] = mk[kind](f"{n}@{0 if static else k}")
        return s

    def domain(self, s):
        cs = []
        for n, (kind, lo, hi, _) in self.vars.items():
            if lo is not None:
                c = lambda q: z3.RealVal(str(q)) if kind == "float" else z3.IntVal(int(q))
                cs += [s[n] >= c(lo), s[n] <= c(hi)]
        return cs

    def formula(self, sec, cur, nxt=None):
        return z3.And([Parser(c, cur, nxt, self.defines).parse() for c in self.secs[sec]] or [z3.BoolVal(True)])

def real(e):
    return z3.ToReal(e) if e.is_int() else e

class Parser:
    LEVELS = [["->", "<->"], ["or", "||"], ["xor"], ["and", "&&"], ["<", "<=", "=", "!=", ">=", ">"], ["+", "-"], ["*", "/"]]
    def __init__(self, toks, cur, nxt, defines):
        self.t, self.i, self.cur, self.nxt, self.defines = toks, 0, cur, nxt, defines
    def peek(self): return self.t[self.i] if self.i < len(self.t) else None
    def eat(self, x=None):
        v = self.t[self.i]; assert x is None or v == x, (v, x); self.i += 1; return v
    def parse(self):
        e = self.level(0); assert self.i == len(self.t), self.t[self.i:]; return e
    def level(self, n):
        if n == len(self.LEVELS): return self.unary()
        e = self.level(n + 1)
        while self.peek() in self.LEVELS[n]:
            op = self.eat(); r = self.level(n + 1); e = self.apply(op, e, r)
        return e
    @staticmethod
    def num(e):
        return z3.If(e, 1, 0) if z3.is_bool(e) else e
    def apply(self, op, a, b):
        if op == "->": return z3.Implies(a, b)
        if op == "<->": return a == b
        if op in ("or", "||"): return z3.Or(a, b)
        if op in ("and", "&&"): return z3.And(a, b)
        if op == "xor": return z3.Xor(a, b)
        a, b = self.num(a), self.num(b)
        return {"<": lambda: a < b, "<=": lambda: a <= b, "=": lambda: a == b, "!=": lambda: a != b,
                ">=": lambda: a >= b, ">": lambda: a > b, "+": lambda: a + b, "-": lambda: a - b,
                "*": lambda: a * b, "/": lambda: real(a) / real(b)}[op]()
    def unary(self):
        x = self.peek()
        if x == "-": self.eat(); return -self.num(self.unary())
        if x in ("!", "not"): self.eat(); return z3.Not(self.unary())
        return self.power()
    def power(self):
        e = self.atom()
        while self.peek() == "^":
            self.eat(); n = int(self.eat()); r = z3.IntVal(1) if n == 0 else e
            for _ in range(n - 1): r = r * e
            e = r
        return e
    def atom(self):
        x = self.eat()
        if x == "(":
            e = self.level(0); self.eat(")"); return e
        if x in ("true", "false"): return z3.BoolVal(x == "true")
        if re.match(r"\d", x):
            q = Fraction(x); return z3.IntVal(int(q)) if q.denominator == 1 and "." not in x else z3.RealVal(str(q))
        if x in ("abs", "min", "max"):
            self.eat("("); a = self.num(self.level(0)); args = [a]
            while self.peek() == ",": self.eat(); args.append(self.num(self.level(0)))
            self.eat(")")
            if x == "abs": return z3.If(a >= 0, a, -a)
            b = args[1]
            return z3.If(a <= b, a, b) if x == "min" else z3.If(a >= b, a, b)
        if x in self.defines: return z3.RealVal(str(self.defines[x]))
        if self.peek() == "'": self.eat(); return self.nxt[x]
        return self.cur[x]

def decide(m):
    # BMC: one solver, target per depth under push/pop
    s = z3.Solver(); states = [m.state(0)]
    s.add(m.domain(states[0])); s.add(m.formula("INIT", states[0]))
    for k in range(MAX_DEPTH + 1):
        if k > 0:
            states.append(m.state(k)); s.add(m.domain(states[k]))
            s.add(m.formula("TRANS", states[k - 1], states[k]))
        if s.check() == z3.unsat:
            return "SAFE", f"all runs end before length {k}"
        s.push(); s.add(m.formula("TARGET", states[k]))
        r = s.check(); s.pop()
        if r == z3.sat:
            return "UNSAFE", f"depth {k}"
        # k-induction step of length k+1 (base cases 0..k refuted)
        kk = k + 1
        if kk <= MAX_K:
            t = z3.Solver(); p = [m.state(100000 + i) for i in range(kk + 1)]
            for i, st in enumerate(p):
                t.add(m.domain(st))
                if i > 0: t.add(m.formula("TRANS", p[i - 1], st))
                t.add(z3.Not(m.formula("TARGET", st)) if i < kk else m.formula("TARGET", st))
            names = [n for n, v in m.vars.items() if not v[3]]
            for i in range(kk + 1):
                for j in range(i + 1, kk + 1):
                    t.add(z3.Or([p[i][n] != p[j][n] for n in names]) if names else z3.BoolVal(False))
            if t.check() == z3.unsat:
                return "SAFE", f"{kk}-inductive"
    return "UNDECIDED", f"up to depth {MAX_DEPTH}"

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    rows = list(csv.DictReader(open(os.path.join(here, "expected.csv"))))
    bad = 0
    for r in rows:
        m = Model(open(os.path.join(here, r["file"])).read())
        v, how = decide(m)
        ok = v == r["verdict"]
        bad += not ok
        print(f"{r['file']:32} expected {r['verdict']:7} z3 {v:9} ({how}){'' if ok else '  <-- MISMATCH'}")
    print(f"{len(rows) - bad} of {len(rows)} agree")
    sys.exit(1 if bad else 0)

if __name__ == "__main__":
    main()
