//! Decisions under `--criterion condition|mcdc` (see `super::super::mcdc`): the controlling
//! expression of an `if`, `while`, `do`, `for` or `?:` lowered like [`Lowerer::cond`], with a
//! goal on each outcome of each condition (condition) or a path code and one goal per
//! evaluation path (mcdc). Under `--criterion decision` (the default) it is `cond` itself.

use super::*;
use crate::c::mcdc::{self, Criterion, Tree};

/// The `&&`/`||`/`!` tree of `e` (the same cases as [`Lowerer::cond`]), its conditions
/// numbered left to right (their evaluation order) and their spans pushed to `leaves`.
fn decision_tree(e: &Node<Expression>, leaves: &mut Vec<(usize, usize)>) -> Tree {
    match &e.node {
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalAnd => {
            let l = decision_tree(&b.node.lhs, leaves);
            Tree::And(Box::new(l), Box::new(decision_tree(&b.node.rhs, leaves)))
        }
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalOr => {
            let l = decision_tree(&b.node.lhs, leaves);
            Tree::Or(Box::new(l), Box::new(decision_tree(&b.node.rhs, leaves)))
        }
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
            Tree::Not(Box::new(decision_tree(&u.node.operand, leaves)))
        }
        _ => {
            leaves.push((e.span.start, e.span.end));
            Tree::Leaf(leaves.len() - 1)
        }
    }
}

/// What the lowering of one decision's conditions adds to their outcome edges.
struct DecCtx {
    criterion: Criterion,
    /// the path-code variable (mcdc)
    pv: Option<usize>,
    /// the next condition's number
    next: usize,
}

impl<'a> Lowerer<'a> {
    /// Branches from `cur` to `t` if the decision `e` is true, else to `f` (as [`Self::cond`]),
    /// adding the goals of the coverage criterion in effect.
    pub(super) fn decision(
        &mut self,
        e: &Node<Expression>,
        cur: usize,
        t: usize,
        f: usize,
    ) -> R<()> {
        let criterion = mcdc::current();
        // a decision in the initializer of a static object is a constant expression, where
        // C allows no function call or assignment (the replay's instrumentation): no goals,
        // as for branches (the lowering has no branch goals there either)
        if criterion == Criterion::Decision || self.static_init > 0 {
            return self.cond(e, cur, t, f);
        }
        let mut spans = Vec::new();
        let tree = decision_tree(e, &mut spans);
        let n = spans.len();
        let paths = if criterion == Criterion::Mcdc && n <= mcdc::MAX_CONDITIONS {
            mcdc::paths(&tree, n)
        } else {
            vec![]
        };
        let with_paths = !paths.is_empty() && paths.len() <= mcdc::MAX_PATHS;
        let leaves = spans
            .iter()
            .map(|&(a, b)| mcdc::Leaf {
                start: a,
                end: b,
                pos: self.src.pos(a),
                text: short_text(self.src.text.get(a..b).unwrap_or("")),
            })
            .collect();
        let rec = mcdc::Decision {
            start: e.span.start,
            end: e.span.end,
            pos: self.src.pos(e.span.start),
            function: self
                .fn_stack
                .last()
                .map(|f| f.name.clone())
                .unwrap_or_default(),
            leaves,
            paths: if with_paths { paths } else { vec![] },
            capped: criterion == Criterion::Mcdc && !with_paths,
        };
        let mut ctx = DecCtx {
            criterion,
            pv: None,
            next: 0,
        };
        if !with_paths {
            self.dcond(e, cur, t, f, &mut ctx)?;
            self.cfg.decisions.push(rec);
            return Ok(());
        }
        // the path code starts at 0 at each evaluation; the outcome nodes dispatch on it
        let pv = self.fresh_var("mcdc_path", INT);
        ctx.pv = Some(pv);
        let start = self.assign_edge(cur, pv, E::Int(INT, 0));
        let (dt, df) = (self.cfg.new_node(), self.cfg.new_node());
        self.dcond(e, start, dt, df, &mut ctx)?;
        for (from, to, outcome) in [(dt, t, true), (df, f, false)] {
            let mut at = from;
            for (i, p) in rec.paths.iter().enumerate() {
                if p.outcome != outcome {
                    continue;
                }
                let code = p.code();
                let g = self.goal(
                    GoalKind::McdcPath {
                        end: e.span.end as u32,
                        path: i as u16,
                    },
                    e.span.start,
                    Instrument::Path {
                        start: e.span.start,
                        end: e.span.end,
                        leaves: spans.clone(),
                        code,
                    },
                );
                let eq = E::Cmp(Rel::Eq, INT, E::Var(pv).b(), E::Int(INT, code as i128).b());
                let (hit, next) = (self.cfg.new_node(), self.cfg.new_node());
                self.cfg.edge(at, hit, Ins::Assume(eq.clone()));
                self.cfg.edge(hit, to, Ins::Goal(g));
                self.cfg.edge(at, next, Ins::Assume(eq.negate()));
                at = next;
            }
            // no other code arrives here; the edge keeps the graph total all the same
            self.cfg.edge(at, to, Ins::Skip);
        }
        self.cfg.decisions.push(rec);
        Ok(())
    }

    /// [`Self::cond`] with the criterion's additions on each condition's outcome edges.
    fn dcond(
        &mut self,
        e: &Node<Expression>,
        cur: usize,
        t: usize,
        f: usize,
        ctx: &mut DecCtx,
    ) -> R<()> {
        match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalAnd => {
                let mid = self.cfg.new_node();
                self.dcond(&b.node.lhs, cur, mid, f, ctx)?;
                self.dcond(&b.node.rhs, mid, t, f, ctx)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalOr => {
                let mid = self.cfg.new_node();
                self.dcond(&b.node.lhs, cur, t, mid, ctx)?;
                self.dcond(&b.node.rhs, mid, t, f, ctx)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.dcond(&u.node.operand, cur, f, t, ctx)
            }
            _ => {
                let k = ctx.next;
                ctx.next += 1;
                let mut c = cur;
                let b = self.cond_value(e, &mut c)?;
                let (start, end) = (e.span.start, e.span.end);
                for (value, to) in [(true, t), (false, f)] {
                    // the goal exists even when the condition is a constant that never takes
                    // this value (it is then DEAD)
                    let goal = (ctx.criterion == Criterion::Condition).then(|| {
                        self.goal(
                            GoalKind::Cond {
                                value,
                                end: end as u32,
                            },
                            start,
                            Instrument::Cond { start, end, value },
                        )
                    });
                    let guard = match (&b, value) {
                        (E::True, true) | (E::False, false) => Ins::Skip,
                        (E::True, false) | (E::False, true) => continue,
                        (b, true) => Ins::Assume(b.clone()),
                        (b, false) => Ins::Assume(b.clone().negate()),
                    };
                    let mut n = self.cfg.new_node();
                    self.cfg.edge(c, n, guard);
                    if let Some(g) = goal {
                        let m = self.cfg.new_node();
                        self.cfg.edge(n, m, Ins::Goal(g));
                        n = m;
                    }
                    if let Some(pv) = ctx.pv {
                        let w = mcdc::weight(k) * if value { 1 } else { 2 };
                        let x = E::Bin(BinOp::Add, INT, E::Var(pv).b(), E::Int(INT, w as i128).b());
                        n = self.assign_edge(n, pv, x);
                    }
                    self.cfg.edge(n, to, Ins::Skip);
                }
                Ok(())
            }
        }
    }
}

/// A condition's text for reports: whitespace collapsed, at most 60 characters.
fn short_text(s: &str) -> String {
    let one: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > 60 {
        let cut: String = one.chars().take(57).collect();
        format!("{cut}...")
    } else {
        one
    }
}
