//! Non-recursive traversal of expression trees.
//!
//! Long left-associative chains (`a + a + ... + a` with 100,000 terms, or as many `and`s) parse
//! into trees whose left spine is as long as the chain. Every pass over expressions therefore
//! walks them with an explicit stack, never with native recursion.

use super::ast::{Expr, ExprKind};

/// The `i`-th direct sub-expression of `e`, if it has that many.
fn child(e: &Expr, i: usize) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Unary(_, a) | ExprKind::Paren(_, a) => (i == 0).then_some(&**a),
        ExprKind::Binary(_, a, b) => match i {
            0 => Some(&**a),
            1 => Some(&**b),
            _ => None,
        },
        ExprKind::Call { args, .. } => args.get(i),
        _ => None,
    }
}

/// Post-order fold over `root`: `visit(node, results of its children in order)` is called once
/// per node, children before parents, with an explicit stack (no recursion).
pub(crate) fn post_order<'a, T>(root: &'a Expr, visit: impl FnMut(&'a Expr, Vec<T>) -> T) -> T {
    post_order_cut(root, |_| true, visit)
}

/// Like [`post_order`], but the children of nodes for which `descend` is false are not
/// visited (`visit` gets no child results for them).
pub(crate) fn post_order_cut<'a, T>(
    root: &'a Expr,
    descend: impl Fn(&'a Expr) -> bool,
    mut visit: impl FnMut(&'a Expr, Vec<T>) -> T,
) -> T {
    let mut stack: Vec<(&'a Expr, usize)> = vec![(root, 0)];
    let mut values: Vec<T> = Vec::new();
    while let Some(top) = stack.last_mut() {
        let (e, next) = (top.0, top.1);
        let c = if next == 0 && !descend(e) {
            None
        } else {
            child(e, next)
        };
        if let Some(c) = c {
            top.1 += 1;
            stack.push((c, 0));
            continue;
        }
        stack.pop();
        let n = next.min(values.len());
        let args = values.split_off(values.len() - n);
        let v = visit(e, args);
        if stack.is_empty() {
            return v;
        }
        values.push(v);
    }
    // The loop returns when the root is finished; the stack is never empty before that.
    unreachable!("post_order: empty traversal stack")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::hys::ast::BinOp;

    #[test]
    fn folds_a_long_left_spine_on_a_small_stack() {
        let leaf = || Expr::new(ExprKind::Bool(true), Span::default());
        let mut e = leaf();
        for _ in 0..200_000 {
            e = Expr::new(
                ExprKind::Binary(BinOp::And, Box::new(e), Box::new(leaf())),
                Span::default(),
            );
        }
        let count = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let n = post_order(&e, |_, kids: Vec<usize>| 1 + kids.iter().sum::<usize>());
                // dropping a deep tree recursively would overflow: leak it instead
                std::mem::forget(e);
                n
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(count, 400_001);
    }
}
