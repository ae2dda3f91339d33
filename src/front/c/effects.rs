//! Functions without effects: a call of one does nothing but compute its return value.
//!
//! A function has no effect of its own when its body writes only its own parameters and
//! locals (no global, no `static` or `extern` local, no array or pointer parameter, no `*p`
//! or `&x`) and calls nothing that can reach the error (the error calls, the assert family, `assert`);
//! it is *without effects* when every function it can call, itself included, has none. A
//! call of such a function deeper than the recursion bound can then be over-approximated by
//! an arbitrary return value instead of by the error (see [`crate::cfa::Cfa::unwind`]): what
//! the call could do to the rest of the run is only its value, and arbitrary values cover it.
//! `abort`, `exit`, failing assumptions and endless recursion inside the call only cut runs,
//! which the over-approximation may keep (a run that draws such a value is never taken for
//! a counterexample). The test is syntactic and conservative: names are compared,
//! so a write to a name that is also a global's counts as an effect even when a local
//! shadows it.

use std::collections::{BTreeSet, HashSet};

use lang_c::ast::{
    BinaryOperator, BinaryOperatorExpression, CallExpression, DeclaratorKind, DerivedDeclarator,
    Expression, FunctionDefinition, ParameterDeclaration, StorageClassSpecifier, UnaryOperator,
    UnaryOperatorExpression,
};
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};

use super::expr::callee_name;
use super::stmt::ASSERT_FAILURES;
use super::Translator;

/// What one function's body does, as far as [`Translator::without_effects`] asks.
#[derive(Default)]
struct Body {
    /// Parameters and locals.
    declared: HashSet<String>,
    /// The variables it assigns or increments (the array of an element).
    written: Vec<String>,
    /// The functions it calls by name.
    calls: Vec<String>,
    /// An effect the names above cannot express (a write through a pointer or member, an
    /// address taken, a `static` local, an array or pointer parameter, a call through an
    /// expression, inline assembly).
    opaque: bool,
}

impl Body {
    fn of(f: &FunctionDefinition) -> Body {
        let mut body = Body::default();
        body.visit_declarator(&f.declarator.node, &f.declarator.span);
        body.visit_statement(&f.statement.node, &f.statement.span);
        body
    }

    /// The variable an assignment to `e` writes, or `opaque` when it is not one by name.
    fn write(&mut self, e: &Node<Expression>) {
        match &e.node {
            Expression::Identifier(id) => self.written.push(id.node.name.clone()),
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.write(&b.node.lhs)
            }
            _ => self.opaque = true,
        }
    }
}

impl<'ast> Visit<'ast> for Body {
    fn visit_declarator_kind(&mut self, kind: &'ast DeclaratorKind, span: &'ast Span) {
        if let DeclaratorKind::Identifier(id) = kind {
            self.declared.insert(id.node.name.clone());
        }
        visit::visit_declarator_kind(self, kind, span);
    }

    fn visit_parameter_declaration(&mut self, p: &'ast ParameterDeclaration, span: &'ast Span) {
        let derived = p.declarator.iter().flat_map(|d| &d.node.derived);
        if derived.into_iter().any(|d| {
            matches!(
                d.node,
                DerivedDeclarator::Array(_) | DerivedDeclarator::Pointer(_)
            )
        }) {
            self.opaque = true;
        }
        visit::visit_parameter_declaration(self, p, span);
    }

    fn visit_storage_class_specifier(&mut self, s: &'ast StorageClassSpecifier, span: &'ast Span) {
        // A `static` local outlives the call; an `extern` one names a global.
        if matches!(
            s,
            StorageClassSpecifier::Static | StorageClassSpecifier::Extern
        ) {
            self.opaque = true;
        }
        visit::visit_storage_class_specifier(self, s, span);
    }

    fn visit_binary_operator_expression(
        &mut self,
        b: &'ast BinaryOperatorExpression,
        span: &'ast Span,
    ) {
        use BinaryOperator::*;
        if matches!(
            b.operator.node,
            Assign
                | AssignMultiply
                | AssignDivide
                | AssignModulo
                | AssignPlus
                | AssignMinus
                | AssignShiftLeft
                | AssignShiftRight
                | AssignBitwiseAnd
                | AssignBitwiseXor
                | AssignBitwiseOr
        ) {
            self.write(&b.lhs);
        }
        visit::visit_binary_operator_expression(self, b, span);
    }

    fn visit_unary_operator_expression(
        &mut self,
        u: &'ast UnaryOperatorExpression,
        span: &'ast Span,
    ) {
        use UnaryOperator::*;
        match u.operator.node {
            PostIncrement | PostDecrement | PreIncrement | PreDecrement => self.write(&u.operand),
            Address | Indirection => self.opaque = true,
            _ => {}
        }
        visit::visit_unary_operator_expression(self, u, span);
    }

    fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
        match callee_name(c) {
            Some(name) => self.calls.push(name.to_owned()),
            None => self.opaque = true,
        }
        visit::visit_call_expression(self, c, span);
    }

    fn visit_asm_statement(&mut self, _: &'ast lang_c::ast::AsmStatement, _: &'ast Span) {
        self.opaque = true;
    }
}

/// The names that the statements of `f` itself assign or increment (the array of an
/// element), whatever they are bound to; what a procedure summary's entry copies need
/// ([`super::summary`], which reads bodies that [`Translator::globals_written`] accepts).
pub(super) fn names_written(f: &FunctionDefinition) -> Vec<String> {
    Body::of(f).written
}

impl Translator<'_> {
    /// Whether a call of `name` (a function with a body) has no effect but its return value:
    /// no function it can call, itself included, writes anything but its own parameters and
    /// locals or calls anything that can reach the error (see the module documentation).
    pub(super) fn without_effects(&self, name: &str) -> bool {
        self.globals_written(name).is_some_and(|g| g.is_empty())
            && (self.bodies_run_by(name).iter())
                .all(|(_, body)| !body.calls.iter().any(|c| self.may_fail(c)))
    }

    /// The globals that a call of `name` can write (through any function it can run, itself
    /// included), when it writes nothing else but its functions' own parameters and locals:
    /// `None` for anything else (see the module documentation), and for a name that is both
    /// a local and a global in one body (the test compares names). What a procedure summary
    /// needs ([`super::summary`]).
    pub(super) fn globals_written(&self, name: &str) -> Option<BTreeSet<String>> {
        let mut written = BTreeSet::new();
        for (_, body) in self.bodies_run_by(name) {
            if body.opaque {
                return None;
            }
            for w in &body.written {
                match (body.declared.contains(w), self.globals.contains_key(w)) {
                    (true, false) => {}
                    (false, true) => {
                        written.insert(w.clone());
                    }
                    _ => return None,
                }
            }
        }
        Some(written)
    }

    /// Whether a call of `name` can call `name` again (directly or through others).
    pub(super) fn calls_itself(&self, name: &str) -> bool {
        (self.bodies_run_by(name).iter()).any(|(_, body)| body.calls.iter().any(|c| c == name))
    }

    /// The bodies of the functions a call of `name` can run, its own first.
    fn bodies_run_by(&self, name: &str) -> Vec<(String, Body)> {
        let mut seen: HashSet<String> = HashSet::new();
        let mut bodies = Vec::new();
        let mut todo = vec![name.to_owned()];
        while let Some(f) = todo.pop() {
            let Some(def) = self.functions.get(&f) else {
                continue;
            };
            if !seen.insert(f.clone()) {
                continue;
            }
            let body = Body::of(def);
            todo.extend((body.calls.iter()).filter(|c| !self.is_builtin(c)).cloned());
            bodies.push((f, body));
        }
        bodies
    }

    /// Whether a call of `name` can reach the error or has an effect that is not modelled as
    /// a nondet value (a function that is never assumed nondet).
    fn may_fail(&self, name: &str) -> bool {
        self.is_error_call(name)
            || ASSERT_FAILURES.contains(&name)
            || name == "assert"
            || (!self.functions.contains_key(name) && super::never_nondet(name))
    }
}
