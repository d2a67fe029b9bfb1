//! The checked, typed form of a `.hys` file's constraints, which [`super::lower`] consumes.
//!
//! The checker resolves names (variables to indices, `define`s to their values), folds
//! constants, decides every sub-expression's sort, inserts the implicit conversions
//! (Booleans used as numbers, integer and decimal constants adapted to fp or machine-integer
//! operands) and chooses the primitive operation of every fp/machine-integer operator. The
//! result is stored in an arena in post-order: every node's operands have smaller ids than the
//! node itself, so later passes process a constraint with a plain loop (no recursion, whatever
//! the nesting), and dropping it never recurses.

use crate::diag::Span;
use solver::formula::{Op, Sort};
use solver::num::{IntType, Rational};

/// Index of a node in [`Ir::nodes`].
pub type NodeId = u32;

/// Boolean connectives (aliases folded: `nand` is `not and`, `<-` is a swapped `->`, ...).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BoolOp {
    And,
    Or,
    Xor,
    Iff,
    Impl,
}

/// The six relations of the language.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RelOp {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

impl RelOp {
    /// `a op b` ⇔ `b op.swap() a`
    pub fn swap(self) -> RelOp {
        match self {
            RelOp::Lt => RelOp::Gt,
            RelOp::Le => RelOp::Ge,
            RelOp::Gt => RelOp::Lt,
            RelOp::Ge => RelOp::Le,
            r => r,
        }
    }
    pub fn holds(self, ord: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            RelOp::Lt => ord == Less,
            RelOp::Le => ord != Greater,
            RelOp::Eq => ord == Equal,
            RelOp::Ne => ord != Equal,
            RelOp::Ge => ord != Less,
            RelOp::Gt => ord == Greater,
        }
    }
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum NodeKind {
    /// `true` / `false` (sort Bool)
    Bool(bool),
    /// An exact numeric constant: sort Int (integral value), Real, or a machine-integer sort
    /// (value inside the type).
    Num(Rational),
    /// An IEEE constant: its bits in the node's `Fp` format.
    Fp(u64),
    /// Declared variable number `var` (index into [`super::check::Checked::declared`]);
    /// `primed` for the next-state copy.
    Var {
        var: u32,
        primed: bool,
    },
    /// A Boolean operand used as the number 1 (true) or 0 (false); sort Int.
    BoolToNum(NodeId),
    Not(NodeId),
    Bool2(BoolOp, NodeId, NodeId),
    /// `ite(c, a, b)`: `a` and `b` have the node's sort, or are Int/Real when it is Real.
    Ite(NodeId, NodeId, NodeId),
    /// A relation, sort Bool. Operands: both Int/Real (mixed freely), both of one fp format
    /// (IEEE comparison; `=`/`!=` are identity), both of one machine type, or both Bool
    /// (`=`/`!=` only).
    Rel(RelOp, NodeId, NodeId),
    // --- exact Int/Real arithmetic (linear parts are normalised by the lowering) ---
    Add(NodeId, NodeId),
    Sub(NodeId, NodeId),
    Mul(NodeId, NodeId),
    /// real division (the divisor is not the constant 0)
    Div(NodeId, NodeId),
    Neg(NodeId),
    /// `a^n`, `n >= 2` (`a^0` and `a^1` are folded away)
    Pow(NodeId, u32),
    /// A primitive operation applied directly: Int/Real functions (`abs`, `sin`, `nrt`, ...),
    /// fp and machine-integer arithmetic, conversions, fp predicates. The output sort is the
    /// node's sort; operand sorts are as [`Op`] requires.
    Op(Op, Vec<NodeId>),
    /// Conversion of an Int operand into the node's machine-integer sort. The constraint
    /// containing it is false when the value does not fit (language doc B.2).
    FitConvert(NodeId),
}

impl NodeKind {
    /// Appends the operand nodes to `out`, in order.
    pub fn operands(&self, out: &mut Vec<NodeId>) {
        match self {
            NodeKind::Bool(_) | NodeKind::Num(_) | NodeKind::Fp(_) | NodeKind::Var { .. } => {}
            NodeKind::BoolToNum(a)
            | NodeKind::Not(a)
            | NodeKind::Neg(a)
            | NodeKind::Pow(a, _)
            | NodeKind::FitConvert(a) => out.push(*a),
            NodeKind::Bool2(_, a, b)
            | NodeKind::Rel(_, a, b)
            | NodeKind::Add(a, b)
            | NodeKind::Sub(a, b)
            | NodeKind::Mul(a, b)
            | NodeKind::Div(a, b) => {
                out.push(*a);
                out.push(*b);
            }
            NodeKind::Ite(a, b, c) => {
                out.push(*a);
                out.push(*b);
                out.push(*c);
            }
            NodeKind::Op(_, args) => out.extend_from_slice(args),
        }
    }

    /// The same node over other operands (`ops` in the order [`NodeKind::operands`] gives).
    pub fn with_operands(&self, ops: &[NodeId]) -> NodeKind {
        let o = |i: usize| ops[i];
        match self {
            NodeKind::Bool(_) | NodeKind::Num(_) | NodeKind::Fp(_) | NodeKind::Var { .. } => {
                self.clone()
            }
            NodeKind::BoolToNum(_) => NodeKind::BoolToNum(o(0)),
            NodeKind::Not(_) => NodeKind::Not(o(0)),
            NodeKind::Neg(_) => NodeKind::Neg(o(0)),
            NodeKind::Pow(_, n) => NodeKind::Pow(o(0), *n),
            NodeKind::FitConvert(_) => NodeKind::FitConvert(o(0)),
            NodeKind::Bool2(b, ..) => NodeKind::Bool2(*b, o(0), o(1)),
            NodeKind::Rel(r, ..) => NodeKind::Rel(*r, o(0), o(1)),
            NodeKind::Add(..) => NodeKind::Add(o(0), o(1)),
            NodeKind::Sub(..) => NodeKind::Sub(o(0), o(1)),
            NodeKind::Mul(..) => NodeKind::Mul(o(0), o(1)),
            NodeKind::Div(..) => NodeKind::Div(o(0), o(1)),
            NodeKind::Ite(..) => NodeKind::Ite(o(0), o(1), o(2)),
            NodeKind::Op(op, args) => NodeKind::Op(op.clone(), ops[..args.len()].to_vec()),
        }
    }
}

#[derive(Clone, PartialEq, Debug)]
pub struct Node {
    pub kind: NodeKind,
    pub sort: Sort,
    pub span: Span,
}

/// A top-level constraint: its nodes are `first .. end`; `root` is its value (sort Bool).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Constraint {
    pub first: NodeId,
    pub end: NodeId,
    pub root: NodeId,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Ir {
    pub nodes: Vec<Node>,
}

impl Ir {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }
    pub fn push(&mut self, kind: NodeKind, sort: Sort, span: Span) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node { kind, sort, span });
        id
    }
    pub fn len(&self) -> usize {
        self.nodes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// The machine-integer type of a sort, if it is one.
pub fn machine(sort: Sort) -> Option<IntType> {
    match sort {
        Sort::MachineInt(t) => Some(t),
        _ => None,
    }
}

/// Int or Real.
pub fn is_arith(sort: Sort) -> bool {
    matches!(sort, Sort::Int | Sort::Real)
}
