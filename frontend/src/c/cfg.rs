//! The program as a control-flow graph over side-effect-free, typed expressions: what
//! [`super::lower`] produces from the C syntax tree and [`super::encode`] turns into a
//! transition system.

use super::parse::Pos;

/// A C scalar type (after typedefs and enums are resolved). `Bool` is `_Bool` (0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Void,
    Bool,
    Int { bits: u8, signed: bool },
    F32,
    F64,
}

pub const INT: Ty = Ty::Int {
    bits: 32,
    signed: true,
};

impl Ty {
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }
    pub fn is_int(self) -> bool {
        matches!(self, Ty::Int { .. } | Ty::Bool)
    }
    pub fn is_signed_int(self) -> bool {
        matches!(self, Ty::Int { signed: true, .. })
    }
    pub fn bits(self) -> u32 {
        match self {
            Ty::Void => 0,
            Ty::Bool => 8,
            Ty::Int { bits, .. } => bits as u32,
            Ty::F32 => 32,
            Ty::F64 => 64,
        }
    }
    /// The `.hys` type of a variable of this type.
    pub fn hys(self) -> String {
        match self {
            Ty::Void => "boole".into(),
            Ty::Bool => "uint8 [0, 1]".into(),
            Ty::Int { bits, signed } => format!("{}int{bits}", if signed { "" } else { "u" }),
            Ty::F32 => "fp32".into(),
            Ty::F64 => "fp64".into(),
        }
    }
    /// The `.hys` conversion function into this type.
    pub fn conv_fn(self) -> String {
        match self {
            Ty::Bool => "to_uint8".into(),
            Ty::Int { bits, signed } => format!("to_{}int{bits}", if signed { "" } else { "u" }),
            Ty::F32 => "to_fp32".into(),
            Ty::F64 => "to_fp64".into(),
            Ty::Void => "to_int32".into(),
        }
    }
    /// Smallest and largest value of an integer type.
    pub fn range(self) -> (i128, i128) {
        match self {
            Ty::Bool => (0, 1),
            Ty::Int { bits, signed: true } => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            Ty::Int {
                bits,
                signed: false,
            } => (0, (1i128 << bits) - 1),
            _ => (0, 0),
        }
    }
    pub fn c_name(self) -> String {
        match self {
            Ty::Void => "void".into(),
            Ty::Bool => "_Bool".into(),
            Ty::Int { bits, signed } => format!("{}int{bits}_t", if signed { "" } else { "u" }),
            Ty::F32 => "float".into(),
            Ty::F64 => "double".into(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rel {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// A side-effect-free expression. Value expressions have a [`Ty`]; `Cond` expressions are
/// truth values (the `.hys` Booleans).
#[derive(Clone, Debug, PartialEq)]
pub enum E {
    Var(usize),
    /// an integer constant of an integer type (in range)
    Int(Ty, i128),
    /// a float constant: raw bits of its format
    Fp(Ty, u64),
    /// an operation on two operands of the same type, result of that type
    Bin(BinOp, Ty, Box<E>, Box<E>),
    Neg(Ty, Box<E>),
    BitNot(Ty, Box<E>),
    /// conversion (to, from, e)
    Conv(Ty, Ty, Box<E>),
    /// comparison of two operands of type Ty (Cond)
    Cmp(Rel, Ty, Box<E>, Box<E>),
    Not(Box<E>),
    And(Box<E>, Box<E>),
    Or(Box<E>, Box<E>),
    True,
    False,
    /// a Cond as 0/1 of an integer type
    OfCond(Ty, Box<E>),
    Ite(Ty, Box<E>, Box<E>, Box<E>),
    Fabs(Ty, Box<E>),
    Sqrt(Ty, Box<E>),
    /// fmin/fmax (is_max, type, a, b, a Boolean variable that picks the zero's sign when
    /// a and b are zeros of different signs: C leaves it open)
    MinMax(bool, Ty, Box<E>, Box<E>, usize),
    IsNan(Box<E>),
    IsInf(Box<E>),
    /// the IEEE encoding of a float of type Ty (an unsigned integer of the same width; a NaN
    /// gives the canonical pattern: the lowerer adds the payload choice)
    Bits(Ty, Box<E>),
    /// the float of type Ty with the encoding given by an unsigned integer of its width
    FromBits(Ty, Box<E>),
    /// a Cond: `result` (of type Ty) lies within the error bound the C library documents for
    /// the mathematical function `f` of the arguments, or the arguments are outside the
    /// domain where the bound is stated (non-finite, a pole, a result that may overflow)
    LibmWithin(Libm, Ty, Vec<E>, Box<E>),
    /// a read through a pointer whose target is resolved only when the whole program is
    /// lowered (`Lowerer::resolve_dynamic`): dynamic access `site`, part 0 (the scalar or a
    /// pointer's object id) or 1 (a pointer's offset). Never reaches the encoder.
    Load(usize, u8),
}

/// The `<math.h>` functions the front end encloses (`E::LibmWithin`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Libm {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Atan2,
    Exp,
    Log,
    Log2,
    Log10,
    Pow,
    Hypot,
}

impl Libm {
    pub fn from_c(name: &str) -> Option<(Libm, Ty, usize)> {
        let (base, ty) = match name.strip_suffix('f') {
            Some(b) if b != "expf" && !b.is_empty() => (b, Ty::F32),
            _ => (name, Ty::F64),
        };
        let f = match base {
            "sin" => Libm::Sin,
            "cos" => Libm::Cos,
            "tan" => Libm::Tan,
            "asin" => Libm::Asin,
            "acos" => Libm::Acos,
            "atan" => Libm::Atan,
            "atan2" => Libm::Atan2,
            "exp" => Libm::Exp,
            "log" => Libm::Log,
            "log2" => Libm::Log2,
            "log10" => Libm::Log10,
            "pow" => Libm::Pow,
            "hypot" => Libm::Hypot,
            _ => return None,
        };
        let arity = if matches!(f, Libm::Atan2 | Libm::Pow | Libm::Hypot) {
            2
        } else {
            1
        };
        Some((f, ty, arity))
    }
}

impl E {
    pub fn b(self) -> Box<E> {
        Box::new(self)
    }
    pub fn negate(self) -> E {
        match self {
            E::True => E::False,
            E::False => E::True,
            E::Not(x) => *x,
            other => E::Not(other.b()),
        }
    }
    pub fn and(self, o: E) -> E {
        match (self, o) {
            (E::True, x) | (x, E::True) => x,
            (E::False, _) | (_, E::False) => E::False,
            (a, b) => E::And(a.b(), b.b()),
        }
    }
    pub fn or(self, o: E) -> E {
        match (self, o) {
            (E::False, x) | (x, E::False) => x,
            (E::True, _) | (_, E::True) => E::True,
            (a, b) => E::Or(a.b(), b.b()),
        }
    }
}

/// What an edge does.
#[derive(Clone, Debug)]
pub enum Ins {
    Skip,
    Assign(usize, E),
    /// the edge is taken only if the condition holds
    Assume(E),
    /// the variable gets a nondeterministic value: nondet site `site`
    Havoc(usize, usize),
    /// the variable gets an arbitrary value that is not an input (an uninitialised local)
    Forget(usize),
    /// taking the edge reaches goal `g`
    Goal(usize),
    /// goal `g` (undefined behaviour) is reached if the condition holds here
    Check(usize, E),
    /// a write through a pointer resolved after lowering: dynamic access `site` gets the
    /// value (for a pointer: its object id and offset). Never reaches the encoder.
    Store(usize, E, Option<E>),
    /// goal `g` is reached if dynamic access `site` has no valid target (resolved later)
    CheckAccess(usize, usize),
}

#[derive(Clone, Debug)]
pub struct Edge {
    pub to: usize,
    pub ins: Ins,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalKind {
    Then,
    Else,
    Case,
    Default,
    LoopBody,
    Error,
    Overflow,
    DivZero,
    ConvRange,
    Shift,
    Bounds,
    /// a read or write through a null, dangling or out-of-object pointer
    Pointer,
    /// `--criterion condition`: an atomic condition of a decision evaluates to `value`.
    /// `end` is the byte offset where the condition's text ends: with the position (its
    /// start) it tells apart two conditions that start at one place (`c` and `c ? a : b` in
    /// `if ((c ? a : b) && d)`), while the copies of an inlined function still share it.
    Cond {
        value: bool,
        end: u32,
    },
    /// `--criterion mcdc`: the decision whose text ends at `end` is evaluated along its
    /// short-circuit path number `path` (see `super::mcdc`); combined into [`GoalKind::Mcdc`]
    /// lines, never reported itself
    McdcPath {
        end: u32,
        path: u16,
    },
    /// `--criterion mcdc`: a report line (one per condition), built from the path goals
    Mcdc,
}

impl GoalKind {
    pub fn name(self) -> &'static str {
        match self {
            GoalKind::Then => "then",
            GoalKind::Else => "else",
            GoalKind::Case => "case",
            GoalKind::Default => "default",
            GoalKind::LoopBody => "loop-body",
            GoalKind::Error => "error-call",
            GoalKind::Overflow => "signed-overflow",
            GoalKind::DivZero => "division-by-zero",
            GoalKind::ConvRange => "float-to-int-out-of-range",
            GoalKind::Shift => "invalid-shift",
            GoalKind::Bounds => "array-index-out-of-bounds",
            GoalKind::Pointer => "invalid-pointer-access",
            GoalKind::Cond { value: true, .. } => "condition-true",
            GoalKind::Cond { value: false, .. } => "condition-false",
            GoalKind::McdcPath { .. } => "mcdc-path",
            GoalKind::Mcdc => "mcdc",
        }
    }
    pub fn is_ub(self) -> bool {
        matches!(
            self,
            GoalKind::Overflow
                | GoalKind::DivZero
                | GoalKind::ConvRange
                | GoalKind::Shift
                | GoalKind::Bounds
                | GoalKind::Pointer
        )
    }
}

/// How the C text is instrumented to observe a goal when the trace is replayed
/// (byte offsets in the preprocessed text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instrument {
    /// `{ hit(); S }` around the statement `S` at `[start, end)`
    WrapStmt(usize, usize),
    /// `if (c) { S } else hit();` for the then-statement at `[start, end)` of an `if` without
    /// `else`
    ElseAfter(usize, usize),
    /// `(hit(), e)` around the expression at `[start, end)`
    WrapExpr(usize, usize),
    /// an undefined-behaviour check of the expression at `[start, end)`: observed in the
    /// replay by gcc's UndefinedBehaviorSanitizer, whose report must point into the span
    Ub(usize, usize),
    /// a float → integer conversion of the operand at `[start, end)` (of type `from`) into
    /// an integer type with range `[lo, hi]`: the replay wraps the operand in an exact check
    /// `lo - 1 < v < hi + 1` (computed in x87 extended precision, exact for both formats)
    ConvCheck {
        start: usize,
        end: usize,
        from: Ty,
        lo: i128,
        hi: i128,
    },
    /// an atomic condition at `[start, end)` (`--criterion condition`): the replay marks the
    /// goal when the condition evaluates to `value` (see `super::mcdc::insertions`)
    Cond {
        start: usize,
        end: usize,
        value: bool,
    },
    /// a decision at `[start, end)` with its conditions at `leaves` (`--criterion mcdc`): the
    /// replay records each evaluated condition's value and marks the goal when the decision
    /// was evaluated along the path whose code is `code` (see `super::mcdc`)
    Path {
        start: usize,
        end: usize,
        leaves: Vec<(usize, usize)>,
        code: u32,
    },
    /// not observable in the text
    None,
}

#[derive(Clone, Debug)]
pub struct Goal {
    pub kind: GoalKind,
    pub pos: Pos,
    /// the function the goal is in (the innermost inlined one)
    pub function: String,
    pub instrument: Instrument,
    /// for an undefined-behaviour check: the span of the innermost block item (statement or
    /// declaration) it is in, where gcc's sanitizer may report it instead of at its operator
    pub ub_stmt: Option<(usize, usize)>,
    /// for a signed-overflow or shift check: the operation and its integer-constant operands,
    /// which a sanitizer report must show (gcc folds `(x * 3) * 2` into `x * 6` and reports
    /// that at the outer operator: such a report is not attributed)
    pub ub_sig: Option<UbSig>,
}

/// The operation of an undefined-behaviour check (see [`Goal::ub_sig`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UbSig {
    /// `+`, `-`, `*`, `/`, `%`, `<<`, `>>` or `neg`
    pub op: &'static str,
    /// the value of the left / right operand when it is an integer constant
    pub lhs: Option<i128>,
    pub rhs: Option<i128>,
}

#[derive(Clone, Debug)]
pub struct VarInfo {
    /// the name in the `.hys` text
    pub hys: String,
    /// the C name (for messages)
    pub c_name: String,
    pub ty: Ty,
    /// introduced by the translation (not a C variable)
    pub is_temp: bool,
}

/// A place where a nondeterministic value enters: `__VERIFIER_nondet_T()`, a parameter of the
/// analysed function, a read of a volatile variable.
#[derive(Clone, Debug)]
pub struct NondetSite {
    pub var: usize,
    pub ty: Ty,
    pub what: String,
    pub pos: Pos,
    /// the position of the call's closing parenthesis (witness waypoints)
    pub ret_pos: Pos,
    /// does the replay harness supply this value (a nondet call or a parameter of the
    /// analysed function)? An `extern` variable or a volatile read is not an input of the
    /// harness: the compiled program uses its real value, and the replay decides.
    pub fed: bool,
}

/// A `while` or `for` loop of the source and its head node (correctness witnesses).
#[derive(Clone, Debug)]
pub struct LoopSite {
    /// the loop head node (a cut point of the encoding)
    pub head: usize,
    /// the position of the `while` / `for` keyword
    pub pos: Pos,
    /// the function the loop is in
    pub function: String,
    /// the C names in scope at the keyword that denote scalar variables held in the state,
    /// with the variable (index into `vars`), by name
    pub vars: Vec<(String, usize)>,
}

#[derive(Clone, Debug, Default)]
pub struct Cfg {
    pub vars: Vec<VarInfo>,
    /// the `while` and `for` loops, in the order they were lowered (an inlined function's
    /// loop once per call)
    pub loops: Vec<LoopSite>,
    /// out-edges per node
    pub nodes: Vec<Vec<Edge>>,
    /// loop heads (cut points of the large-block encoding)
    pub loop_head: Vec<bool>,
    pub entry: usize,
    /// the end of every run (return from the entry function, abort, exit, assume failure)
    pub stop: usize,
    pub goals: Vec<Goal>,
    pub nondets: Vec<NondetSite>,
    /// the analysed function
    pub function: String,
    /// parameter types and return type of the analysed function
    pub entry_params: Vec<Ty>,
    pub entry_ret: Ty,
    /// the program uses a type whose size depends on the data model (`long`, `sizeof`)
    pub model_sensitive: bool,
    /// functions no input file defines whose calls return a nondeterministic value
    /// (`--undefined-functions nondet`): name and return type, in the order of first call
    pub undefined_fns: Vec<(String, Ty)>,
    /// the analysed function's parameters as the replay harness builds them
    pub entry_shapes: Vec<ParamShape>,
    /// the semantic choices of the translation that a DEAD answer rests on (stated in the
    /// report: entry state, parameter objects, pointer targets, layout)
    pub assumptions: Vec<String>,
    /// every scalar cell of a file-scope variable and whether the entry reads or writes it
    /// (outside the program's initialisation): what the step environment classifies
    pub storage: Vec<StorageCell>,
    /// the cells of the objects the entry's pointer parameters point to, likewise
    pub param_cells: Vec<ParamCell>,
    /// the environment the entry runs in (inputs fed through setter functions; a step
    /// function's loop), which the replay harness rebuilds
    pub env: Option<EnvHarness>,
    /// the functions whose bodies were lowered (the entry and every function it calls)
    pub lowered_fns: Vec<String>,
    /// the names of the `static` file-scope variables (writable only by their unit)
    pub file_statics: Vec<String>,
    /// the decisions lowered with `--criterion condition|mcdc` (one per lowered copy)
    pub decisions: Vec<super::mcdc::Decision>,
    /// the byte offset (in the concatenated preprocessed text) just after the analysed
    /// function's definition: the replay inserts a trampoline there that the harness calls
    /// (so a `static` entry function, or one whose name a system header declares otherwise,
    /// can be called from the harness's translation unit)
    pub entry_end: Option<usize>,
    /// plain `char` is unsigned (`--target arm32`): the replay builds with `-funsigned-char`
    pub unsigned_char: bool,
    /// ARM EABI layout (`--target arm32`): the replay builds with `-malign-double`
    pub arm_eabi: bool,
}

/// A scalar cell of a file-scope variable.
#[derive(Clone, Debug)]
pub struct StorageCell {
    /// the first translation unit where the variable is visible
    pub unit: usize,
    /// the cell as a C lvalue (`rtU.Speed`, `tbl[3]`); a word of a union is `u@4`
    pub path: String,
    pub var: usize,
    /// `None`: a pointer cell
    pub ty: Option<Ty>,
    pub is_const: bool,
    pub volatile: bool,
    pub read: bool,
    pub written: bool,
}

/// A scalar cell of the object a pointer parameter of the entry points to.
#[derive(Clone, Debug)]
pub struct ParamCell {
    pub param: usize,
    /// the parameter's name
    pub name: String,
    /// the cell's path below the object (`.state`, `[2].x`; empty for a scalar pointee)
    pub rel: String,
    pub off: usize,
    pub ty: Option<Ty>,
    pub read: bool,
    pub written: bool,
}

/// One value the environment feeds before each call of the step function.
#[derive(Clone, Debug, PartialEq)]
pub enum StepFeed {
    /// the global cell set by setter function `name`
    Global(String),
    /// scalar parameter `k`
    Arg(usize, Ty),
    /// the cell at byte `off` of the object pointer parameter `k` points to
    Cell(usize, usize, Ty),
}

/// An argument of the init function.
#[derive(Clone, Debug)]
pub enum InitArg {
    Scalar(Ty),
    /// the object of the step function's pointer parameter `k`
    StepObj(usize),
    /// a fresh object of its own
    Fresh(ObjShape),
}

/// The environment of the entry as the replay harness rebuilds it.
#[derive(Clone, Debug, Default)]
pub struct EnvHarness {
    pub step: String,
    pub init: Option<String>,
    /// a step function called in a loop (else the entry is called once after the setters)
    pub looped: bool,
    /// setter functions appended to the program's units: (unit, name, C text); each feeds
    /// one global cell from the next input
    pub setters: Vec<(usize, String, String)>,
    /// setters called once before the init function (calibration parameters)
    pub param_setters: Vec<String>,
    /// what each step feeds, in order (for `--function`: the setters called before the call)
    pub step_feeds: Vec<StepFeed>,
    pub init_args: Vec<InitArg>,
    /// inputs read before the loop (step objects' initial contents, parameters, init
    /// arguments) and in each step, by name; `other_inputs`: the unit reads further inputs
    /// (nondet functions) whose number per step may vary
    pub setup_names: Vec<String>,
    pub step_names: Vec<String>,
    pub other_inputs: bool,
}

/// A parameter of the analysed function as the replay harness must build it.
#[derive(Clone, Debug)]
pub enum ParamShape {
    /// one input of the type
    Scalar(Ty),
    /// a pointer to a fresh object whose cells are inputs (in cell order; a pointer cell is
    /// filled with a pointer to its own fresh object, whose inputs come at that place)
    Pointer(ObjShape),
    /// a struct or union passed by value (the harness cannot name its type: no replay)
    Aggregate,
}

#[derive(Clone, Debug)]
pub struct ObjShape {
    pub size: usize,
    pub cells: Vec<(usize, CellShape)>,
}

#[derive(Clone, Debug)]
pub enum CellShape {
    Scalar(Ty),
    Pointer(ObjShape),
}

impl Cfg {
    pub fn new_node(&mut self) -> usize {
        self.nodes.push(Vec::new());
        self.loop_head.push(false);
        self.nodes.len() - 1
    }
    pub fn edge(&mut self, from: usize, to: usize, ins: Ins) {
        self.nodes[from].push(Edge { to, ins });
    }
}
