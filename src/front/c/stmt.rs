//! Statements and calls: structured control flow, `goto`, `switch`, and function inlining.

use std::collections::HashMap;

use lang_c::ast::{
    BlockItem, CallExpression, DeclarationSpecifier, DerivedDeclarator, Expression, ForInitializer,
    FunctionDefinition, Label, LabeledStatement, Statement, SwitchStatement,
};
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};

use super::decl::declarator_name;
use super::expr::{callee_name, Rv};
use super::recursion::{SharedCall, SITES, SITE_TY};
use super::{Binding, CType, Frame, Jumps, Translator, R};
use crate::wl::{Binary, Op};

/// The size of the CFA past which recursive calls are no longer inlined (the translation
/// gives up as unsupported): inlining a function that calls itself twice doubles the CFA with
/// every level (unless copies are shared, [`SharedCall`]), and the large-block encoding and
/// the engines must still handle it.
pub(super) const MAX_RECURSIVE_EDGES: usize = 20_000;

impl<'a> Translator<'a> {
    pub(super) fn stmt(&mut self, s: &Node<Statement>) -> R<()> {
        if !matches!(s.node, Statement::Compound(_)) {
            let line = self.line(&s.span);
            self.note_line(line);
        }
        match &s.node {
            Statement::Compound(items) => {
                self.scopes.push(HashMap::new());
                for item in items {
                    match &item.node {
                        BlockItem::Declaration(d) => self.declaration(d, false)?,
                        BlockItem::Statement(s) => self.stmt(s)?,
                        BlockItem::StaticAssert(_) => {}
                    }
                }
                self.scopes.pop();
            }
            Statement::Expression(Some(e)) => {
                self.eval(e)?;
            }
            Statement::Expression(None) => {}
            Statement::If(i) => {
                let c = self.truth(&i.node.condition)?;
                let then = self.new_loc(&i.node.then_statement.span);
                let other = self.new_loc(&s.span);
                let join = self.new_loc(&s.span);
                self.branch_to(c, then, other)?;
                self.start(then);
                self.stmt(&i.node.then_statement)?;
                self.jump(join)?;
                self.start(other);
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e)?;
                }
                self.goto_and_start(join)?;
            }
            Statement::While(w) => {
                let head = self.loop_head(&s.span);
                self.goto_and_start(head)?;
                self.loop_body(head, Some(&w.node.expression), &w.node.statement, None)?;
            }
            Statement::DoWhile(d) => {
                let body = self.new_loc(&d.node.statement.span);
                let test = self.new_loc(&d.node.expression.span);
                let exit = self.new_loc(&s.span);
                self.goto_and_start(body)?;
                self.jumps.push(Jumps {
                    brk: exit,
                    cont: Some(test),
                });
                let r = self.stmt(&d.node.statement);
                self.jumps.pop();
                r?;
                self.goto_and_start(test)?;
                let c = self.truth(&d.node.expression)?;
                self.branch_to(c, body, exit)?;
                self.start(exit);
            }
            Statement::For(f) => {
                self.scopes.push(HashMap::new());
                match &f.node.initializer.node {
                    ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                    ForInitializer::Expression(e) => {
                        self.eval(e)?;
                    }
                    ForInitializer::Declaration(d) => self.declaration(d, false)?,
                }
                let head = self.loop_head(&s.span);
                self.goto_and_start(head)?;
                let cond = f.node.condition.as_deref();
                self.loop_body(head, cond, &f.node.statement, f.node.step.as_deref())?;
                self.scopes.pop();
            }
            Statement::Switch(sw) => self.switch(&sw.node, &s.span)?,
            Statement::Labeled(l) => self.labeled(&l.node)?,
            Statement::Goto(label) => {
                let target = self.label(&label.node.name);
                self.jump(target)?;
            }
            Statement::Continue => match self.jumps.iter().rev().find_map(|j| j.cont) {
                Some(target) => self.jump(target)?,
                None => return self.unsupported(&s.span, "continue outside a loop"),
            },
            Statement::Break => match self.jumps.last() {
                Some(j) => {
                    let target = j.brk;
                    self.jump(target)?
                }
                None => return self.unsupported(&s.span, "break outside a loop or switch"),
            },
            Statement::Return(Some(e)) if self.tail_return(e)? => {}
            Statement::Return(e) => {
                let frame = self
                    .frames
                    .last()
                    .expect("statements are inside a function");
                let (ret, ret_var) = (frame.ret, frame.ret_var);
                if let Some(e) = e {
                    let value = self.eval(e);
                    self.tail_pending = false;
                    match (value?, ret_var) {
                        (Some(v), Some((var, ty))) => {
                            let c = self.convert(v, ty)?;
                            self.write(var, c)?;
                        }
                        (_, None) => {}
                        (None, Some(_)) => return self.unsupported(&s.span, "return of void"),
                    }
                }
                self.jump(ret)?;
            }
            Statement::Asm(_) => return self.unsupported(&s.span, "inline assembly"),
        }
        Ok(())
    }

    /// A loop from its head (the current location): test, body, step, back to the head.
    fn loop_body(
        &mut self,
        head: crate::cfa::Loc,
        cond: Option<&Node<Expression>>,
        body: &Node<Statement>,
        step: Option<&Node<Expression>>,
    ) -> R<()> {
        let inside = self.new_loc(&body.span);
        let exit = self.new_loc(&body.span);
        match cond {
            Some(c) => {
                let t = self.truth(c)?;
                self.branch_to(t, inside, exit)?;
            }
            None => self.jump(inside)?,
        }
        self.start(inside);
        let next = match step {
            Some(e) => self.new_loc(&e.span),
            None => head,
        };
        self.jumps.push(Jumps {
            brk: exit,
            cont: Some(next),
        });
        let r = self.stmt(body);
        self.jumps.pop();
        r?;
        self.goto_and_start(next)?;
        if let Some(e) = step {
            self.eval(e)?;
            self.jump(head)?;
        }
        self.start(exit);
        Ok(())
    }

    /// The location of a label of the current function.
    fn label(&mut self, name: &str) -> crate::cfa::Loc {
        let frame = self.frames.last().expect("inside a function");
        if let Some(&l) = frame.labels.get(name) {
            return l;
        }
        let l = self.cfa.add_location(None);
        let frame = self.frames.last_mut().expect("inside a function");
        frame.labels.insert(name.to_owned(), l);
        l
    }

    fn labeled(&mut self, l: &LabeledStatement) -> R<()> {
        let target = match &l.label.node {
            Label::Identifier(id) => self.label(&id.node.name),
            Label::Case(_) | Label::Default => {
                let found = self.cases.last().and_then(|c| c.get(&l.label.span.start));
                match found {
                    Some(&t) => t,
                    None => return self.unsupported(&l.label.span, "case label outside a switch"),
                }
            }
            Label::CaseRange(_) => return self.unsupported(&l.label.span, "case range"),
        };
        self.goto_and_start(target)?;
        self.stmt(&l.statement)
    }

    /// `switch`: one edge per case from the dispatch, fall-through between cases.
    fn switch(&mut self, sw: &SwitchStatement, span: &Span) -> R<()> {
        let v = self.value(&sw.expression)?;
        let ty = v.ty.promote();
        let v = Rv {
            t: self.convert(v, ty)?,
            ty,
        };
        let mut finder = CaseFinder(Vec::new());
        finder.visit_statement(&sw.statement.node, &sw.statement.span);
        let brk = self.new_loc(span);
        let mut none = self.cfa.bool_const(true);
        let mut default = None;
        let mut targets = HashMap::new();
        for (at, case) in finder.0 {
            let l = self.cfa.add_location(None);
            targets.insert(at, l);
            let Some(e) = case else {
                default = Some(l);
                continue;
            };
            let c = match self.constant(e) {
                Ok(c) => c,
                Err(_) => return self.unsupported(&e.span, "non-constant case label"),
            };
            let c = self.int_const(ty, c).t;
            let eq = self.op(Op::Binary(Binary::Eq), &[v.t, c])?;
            self.edge_to(l, eq)?;
            let ne = self.not(eq)?;
            none = self.op(Op::Binary(Binary::And), &[none, ne])?;
        }
        self.edge_to(default.unwrap_or(brk), none)?;
        let dead = self.cfa.add_location(None);
        self.start(dead);
        let cont = self.jumps.last().and_then(|j| j.cont);
        self.jumps.push(Jumps { brk, cont });
        self.cases.push(targets);
        let r = self.stmt(&sw.statement);
        self.cases.pop();
        self.jumps.pop();
        r?;
        self.goto_and_start(brk)
    }

    /// A call: the verifier's built-ins, or an inlined function.
    pub(super) fn call(&mut self, c: &CallExpression, span: &Span) -> R<Option<Rv>> {
        let Some(name) = callee_name(c) else {
            return self.unsupported(span, "call through a function pointer");
        };
        let line = self.line(span);
        self.note_line(line);
        if self.is_error_call(name) {
            let error = self.cfa.error;
            self.jump(error)?;
            return Ok(None);
        }
        if !self.is_builtin(name) {
            return match self.functions.get(name).copied() {
                Some(f) => self.inline(f, &c.arguments, span),
                None => self.external(name, &c.arguments, span),
            };
        }
        match name {
            // An assertion failure that is not the error (a property file names another
            // function): the program aborts (its string arguments are not evaluated).
            n if ASSERT_FAILURES.contains(&n) => {
                let exit = self.cfa.exit;
                self.jump(exit)?;
                Ok(None)
            }
            n if TERMINATIONS.contains(&n) => {
                for a in &c.arguments {
                    self.eval(a)?;
                }
                let exit = self.cfa.exit;
                self.jump(exit)?;
                Ok(None)
            }
            "__VERIFIER_assume" | "assert" => {
                let [arg] = c.arguments.as_slice() else {
                    return self.unsupported(span, format!("{name} without one argument"));
                };
                let t = self.truth(arg)?;
                if name == "assert" {
                    let go_on = self.new_loc(span);
                    // A false condition calls the C library's assertion failure.
                    let failed = match self.is_error_call(ASSERT_FAILURES[0]) {
                        true => self.cfa.error,
                        false => self.cfa.exit,
                    };
                    self.branch_to(t, go_on, failed)?;
                    self.start(go_on);
                } else {
                    self.assume(t)?;
                }
                Ok(None)
            }
            _ => {
                let Some(ty) = self.nondet_type(&name["__VERIFIER_nondet_".len()..]) else {
                    return self.unsupported(span, format!("{name} (a non-integer type)"));
                };
                Ok(Some(self.nondet(name, ty, span)))
            }
        }
    }

    /// Inlines a call of `f`: arguments into the parameters, the body, the return value.
    pub(super) fn inline(
        &mut self,
        f: &'a FunctionDefinition,
        args: &[Node<Expression>],
        span: &Span,
    ) -> R<Option<Rv>> {
        let tail = std::mem::take(&mut self.tail_pending);
        let name = declarator_name(&f.declarator);
        let derived = &f.declarator.node.derived;
        let parameters = match derived.first().map(|d| &d.node) {
            Some(DerivedDeclarator::Function(fd)) => fd.node.parameters.as_slice(),
            // `f()`: no parameters.
            Some(DerivedDeclarator::KRFunction(names)) if names.is_empty() => &[],
            _ => return self.unsupported(&f.declarator.span, "old-style function definition"),
        };
        if derived.len() != 1 {
            return self.unsupported(&f.declarator.span, "function returning a pointer");
        }
        let ret_ty = self.base_type(f.specifiers.iter().filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(t),
            _ => None,
        }));
        let ret_ty = match ret_ty {
            Ok(CType::Void) => None,
            Ok(CType::Int(t)) => Some(t),
            Ok(CType::Array(..)) => return self.unsupported(span, "function returning an array"),
            Err(c) => return self.unsupported(&f.declarator.span, c),
        };
        let mut params = Vec::new();
        for p in parameters {
            if let Some(param) =
                self.parameter_type(&p.node.specifiers, p.node.declarator.as_ref(), &p.span)?
            {
                params.push((param, p.span.start));
            }
        }
        let prototyped = matches!(
            derived.first().map(|d| &d.node),
            Some(DerivedDeclarator::Function(_))
        );
        if params.len() != args.len() && !prototyped {
            // `f()` called with arguments: undefined behaviour that compilers accept.
            return self.unsupported(span, format!("call of {name}() with arguments"));
        }
        if params.len() != args.len() {
            // Not valid C: a constraint violation that a compiler rejects (an input error).
            return Err(super::CError::Syntax {
                line: Some(self.line(span)),
                message: format!(
                    "call of {name} with {} arguments, but it takes {} parameters",
                    args.len(),
                    params.len()
                ),
            });
        }
        // The arguments first: their side effects happen before the call, cut or not.
        let held = self.arguments(args)?;
        let active = self.frames.iter().filter(|fr| fr.name == name).count();
        if self.summaries && active > 0 {
            return self.summarized_call(&name, held, ret_ty, span);
        }
        if active >= self.recursion.bound as usize {
            if self.recursion.exceeded_is_error && self.without_effects(&name) {
                return Ok(self.beyond_bound(&name, ret_ty, span));
            }
            self.exceed_recursion_bound()?;
            // What follows is unreachable: any value of the return type does.
            return Ok(ret_ty.map(|t| self.int_const(t, 0)));
        }
        if active > 0 && self.cfa.edges.len() > MAX_RECURSIVE_EDGES {
            return Err(super::CError::RecursionTooLarge {
                line: self.line(span),
                bound: self.recursion.bound,
                function: name,
            });
        }
        // With shared copies, a recursive call in straight-line context runs the copy of the
        // body that every call with the same chain of active calls shares ([`SharedCall`]).
        let shared = active > 0 && self.recursion.shared && self.is_true(self.cond);
        let key = shared.then(|| self.call_string(&name, tail));
        if let Some(k) = &key {
            if let Some(copy) = self.shared.get(k).filter(|c| c.sites < SITES).cloned() {
                self.assign_parameters(&copy.params, held)?;
                return self.enter_copy(k, copy);
            }
        }
        let ret = self.new_loc(span);
        self.frames.push(Frame {
            name: name.clone(),
            ret,
            ret_var: None,
            labels: HashMap::new(),
            tail,
            params: Vec::new(),
            entry: None,
            summary: None,
        });
        let ret_var = match ret_ty {
            Some(t) => Some((
                self.object("return", &CType::Int(t), f.declarator.span.start)?,
                t,
            )),
            None => None,
        };
        self.frames.last_mut().expect("pushed").ret_var = ret_var;
        let mut scope = HashMap::new();
        let mut vars = Vec::with_capacity(params.len());
        for ((pname, pty), at) in params {
            let v = self.object(&pname, &CType::Int(pty), at)?;
            scope.insert(pname, Binding::Var(v, CType::Int(pty)));
            vars.push((v, pty));
        }
        if self.summaries && self.calls_itself(&name) {
            return self.outermost_summarized(f, scope, vars, held, ret_ty, span);
        }
        self.assign_parameters(&vars, held)?;
        let site = match key {
            Some(_) => {
                let level = self.frames.iter().filter(|fr| fr.name == name).count() as u32;
                let site_ty = CType::Int(SITE_TY);
                let key = (f.declarator.span.end, level);
                let site = self.variable(format!("{name}::call_site"), &site_ty, key)?;
                let first = self.int_const(SITE_TY, 0).t;
                self.write(site, first)?;
                Some(site)
            }
            None => None,
        };
        let entry = match self.is_true(self.cond) {
            true => {
                let entry = self.new_loc(span);
                self.goto_and_start(entry)?;
                Some(entry)
            }
            false => None,
        };
        let frame = self.frames.last_mut().expect("pushed");
        (frame.params, frame.entry) = (vars.clone(), entry);
        self.function_body(f, scope)?;
        self.goto_and_start(ret)?;
        self.frames.pop();
        if let (Some(k), Some(site), Some(entry)) = (key, site, entry) {
            let copy = SharedCall {
                entry,
                ret,
                site,
                sites: 1,
                ret_var,
                params: vars,
            };
            self.shared.insert(k, copy.clone());
            return self.return_to_site(&copy, 0);
        }
        Ok(ret_var.map(|(v, ty)| Rv {
            t: self.read(v),
            ty,
        }))
    }

    /// The body of `f`, whose frame is the last, in its own scope `scope` (its parameters).
    pub(super) fn function_body(
        &mut self,
        f: &'a FunctionDefinition,
        scope: HashMap<String, Binding>,
    ) -> R<()> {
        let scopes = std::mem::replace(&mut self.scopes, vec![scope]);
        let jumps = std::mem::take(&mut self.jumps);
        let cases = std::mem::take(&mut self.cases);
        let body = self.stmt(&f.statement);
        self.scopes = scopes;
        self.jumps = jumps;
        self.cases = cases;
        body
    }
}

/// The C library's assertion-failure functions (glibc's first): a failing `assert` calls one.
/// They are the error unless a property file names another function.
pub(super) const ASSERT_FAILURES: [&str; 3] = ["__assert_fail", "__assert_perror_fail", "__assert"];

impl Translator<'_> {
    /// Whether a call of `name` reaches the error location ([`super::Externs::error`]).
    pub(super) fn is_error_call(&self, name: &str) -> bool {
        match &self.externs.error {
            Some(f) => f == name,
            None => {
                matches!(name, "reach_error" | "__VERIFIER_error")
                    || ASSERT_FAILURES.contains(&name)
            }
        }
    }

    /// Whether calls of `name` are the verifier's built-ins ([`Translator::call`]), whatever
    /// the program defines.
    pub(super) fn is_builtin(&self, name: &str) -> bool {
        self.is_error_call(name)
            || ASSERT_FAILURES.contains(&name)
            || matches!(name, "__VERIFIER_assume" | "assert")
            || TERMINATIONS.contains(&name)
            || name.starts_with("__VERIFIER_nondet_")
    }
}

/// The functions that end the program (gcc's built-ins among them: a `__builtin_abort()`
/// read as a function without a body, that returns, would let the path go on).
const TERMINATIONS: [&str; 8] = [
    "abort",
    "exit",
    "_exit",
    "_Exit",
    "__builtin_abort",
    "__builtin_exit",
    "__builtin_trap",
    "__builtin_unreachable",
];

/// The `case`/`default` labels of a switch body (not of nested switches), by source offset
/// of the label, in source order.
struct CaseFinder<'ast>(Vec<(usize, Option<&'ast Node<Expression>>)>);

impl<'ast> Visit<'ast> for CaseFinder<'ast> {
    fn visit_labeled_statement(&mut self, l: &'ast LabeledStatement, span: &'ast Span) {
        match &l.label.node {
            Label::Case(e) => self.0.push((l.label.span.start, Some(e))),
            Label::Default => self.0.push((l.label.span.start, None)),
            _ => {}
        }
        visit::visit_labeled_statement(self, l, span);
    }

    fn visit_switch_statement(&mut self, _: &'ast SwitchStatement, _: &'ast Span) {}
}
