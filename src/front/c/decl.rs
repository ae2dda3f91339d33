//! Types from declaration specifiers and declarators; global and local declarations.

use lang_c::ast::Declaration;
use lang_c::ast::{
    ArraySize, DeclarationSpecifier, Declarator, DeclaratorKind, DerivedDeclarator, Designator,
    Expression, ExternalDeclaration, Initializer, InitializerListItem, StorageClassSpecifier,
    TranslationUnit, TypeSpecifier,
};
use lang_c::span::{Node, Span};
use lang_c::visit::Visit;

use super::{Binding, CError, CType, IntTy, Translator, R};
use crate::cfa::VarId;
use crate::wl::{Binary, BitVec, Op, Sort};

/// An unsupported construct, named as `unsupported: CONSTRUCT at line N` reports it (the
/// caller knows the line).
#[derive(Clone, Debug, thiserror::Error)]
#[error("{0}")]
pub(super) struct Construct(pub(super) String);

impl From<String> for Construct {
    fn from(name: String) -> Construct {
        Construct(name)
    }
}

impl From<Construct> for String {
    fn from(c: Construct) -> String {
        c.0
    }
}

/// A declarator reduced to what the subset allows.
pub(super) enum Declared<'d> {
    Object(String, CType),
    /// A function declarator (a prototype when it has no body).
    Function(String),
    /// A variable-length array: its elements and its length expression, evaluated where the
    /// declaration is (only a local object can be one; everywhere else it is unsupported).
    Vla(String, IntTy, &'d Node<Expression>),
}

/// The length of the `CType::Array` of a variable-length array: its index has 32 bits, as
/// large as any length the translation accepts (see [`Translator::vla`]).
pub(super) const VLA_LEN: u64 = 1 << 32;

impl<'a> Translator<'a> {
    /// The type named by a list of type specifiers; `Err` names the unsupported construct.
    pub(super) fn base_type<'s>(
        &mut self,
        specs: impl Iterator<Item = &'s Node<TypeSpecifier>>,
    ) -> Result<CType, Construct> {
        let (mut longs, mut short, mut char, mut unsigned) = (0, false, false, false);
        let mut result = None;
        for s in specs {
            match &s.node {
                TypeSpecifier::Void => result = Some(CType::Void),
                TypeSpecifier::Bool => result = Some(CType::Int(IntTy::BOOL)),
                TypeSpecifier::Char => char = true,
                TypeSpecifier::Short => short = true,
                TypeSpecifier::Long => longs += 1,
                TypeSpecifier::Int | TypeSpecifier::Signed => {}
                TypeSpecifier::Unsigned => unsigned = true,
                TypeSpecifier::Enum(e) => {
                    self.enumerators(&e.node)?;
                    result = Some(CType::Int(IntTy::INT));
                }
                TypeSpecifier::TypedefName(name) => {
                    let t = self.typedefs.get(&name.node.name).cloned();
                    result = Some(t.unwrap_or_else(|| {
                        Err(Construct(format!("unknown type name {}", name.node.name)))
                    })?);
                }
                TypeSpecifier::Float | TypeSpecifier::Double => {
                    return Err(Construct("floating-point type".into()))
                }
                TypeSpecifier::Struct(_) => return Err(Construct("struct or union type".into())),
                _ => return Err(Construct("type specifier".into())),
            }
        }
        if let Some(t) = result {
            return Ok(t);
        }
        let bits = match (char, short, longs) {
            (true, _, _) => 8,
            (_, true, _) => 16,
            (_, _, 0) => 32,
            (_, _, 1) => self.dm.long_bits(),
            _ => 64,
        };
        Ok(CType::Int(IntTy::new(bits, !unsigned)))
    }

    /// Binds the constants of an enumeration (its type is `int`).
    fn enumerators(&mut self, e: &lang_c::ast::EnumType) -> Result<(), Construct> {
        let mut next: i128 = 0;
        for en in &e.enumerators {
            if let Some(expr) = &en.node.expression {
                next = self
                    .constant(expr)
                    .map_err(|e| format!("enumeration value ({e})"))?;
            }
            let b = Binding::Const(next);
            match self.scopes.last_mut() {
                Some(scope) => scope.insert(en.node.identifier.node.name.clone(), b),
                None => self.globals.insert(en.node.identifier.node.name.clone(), b),
            };
            next += 1;
        }
        Ok(())
    }

    /// The value of an integer constant expression.
    pub(super) fn constant(&mut self, e: &Node<Expression>) -> Result<i128, Construct> {
        let v = self.value(e).map_err(|e| e.to_string())?;
        let c = self
            .cfa
            .terms
            .constant(v.t)
            .ok_or_else(|| "not a constant expression".to_string())?;
        let mut x = c.to_u64().unwrap_or(0) as i128;
        if v.ty.signed && v.ty.bits < 128 && c.msb() {
            x -= 1i128 << v.ty.bits;
        }
        Ok(x)
    }

    /// The name and type a declarator declares, from the base type.
    pub(super) fn declared<'d>(
        &mut self,
        base: Result<CType, Construct>,
        d: &'d Node<Declarator>,
        init: Option<&Node<Initializer>>,
    ) -> R<Declared<'d>> {
        let name = match &d.node.kind.node {
            DeclaratorKind::Identifier(id) => id.node.name.clone(),
            DeclaratorKind::Abstract => String::new(),
            DeclaratorKind::Declarator(_) => {
                return self.unsupported(&d.span, "parenthesised declarator")
            }
        };
        let mut ty = None;
        let mut vla = None;
        for derived in &d.node.derived {
            match &derived.node {
                DerivedDeclarator::Pointer(_) => return self.unsupported(&d.span, "pointer"),
                DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_) => {
                    return Ok(Declared::Function(name))
                }
                DerivedDeclarator::Array(a) if ty.is_none() => {
                    let len = match &a.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                            match self.constant(e) {
                                Ok(n) if n > 0 => n as u64,
                                Ok(_) => return self.unsupported(&d.span, "array of length 0"),
                                Err(_) => {
                                    vla = Some(&**e);
                                    VLA_LEN
                                }
                            }
                        }
                        ArraySize::Unknown => match init.map(|i| &i.node) {
                            Some(Initializer::List(items)) => items.len() as u64,
                            _ => return self.unsupported(&d.span, "array of unknown length"),
                        },
                        ArraySize::VariableUnknown => {
                            return self.unsupported(&d.span, "variable-length array")
                        }
                    };
                    ty = Some(len);
                }
                DerivedDeclarator::Array(_) => {
                    return self.unsupported(&d.span, "multi-dimensional array")
                }
                DerivedDeclarator::Block(_) => return self.unsupported(&d.span, "block pointer"),
            }
        }
        let base = match base {
            Ok(b) => b,
            Err(construct) => return self.unsupported(&d.span, construct),
        };
        Ok(match (ty, base) {
            (None, t) => Declared::Object(name, t),
            (Some(_), CType::Int(e)) if vla.is_some() => {
                Declared::Vla(name, e, vla.expect("a length"))
            }
            (Some(len), CType::Int(e)) => Declared::Object(name, CType::Array(e, len)),
            (Some(_), _) => return self.unsupported(&d.span, "array of non-integer elements"),
        })
    }

    /// Records typedefs, prototypes, enumerations and function bodies, and initialises the
    /// globals in the entry block.
    pub(super) fn globals_and_functions(&mut self, unit: &'a TranslationUnit) -> R<()> {
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::FunctionDefinition(f) => {
                    if let DeclaratorKind::Identifier(id) = &f.node.declarator.node.kind.node {
                        self.functions.insert(id.node.name.clone(), &f.node);
                    }
                }
                ExternalDeclaration::Declaration(d) => self.declaration(d, true)?,
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        Ok(())
    }

    /// A declaration at file scope (`global`) or in a block.
    pub(super) fn declaration(&mut self, d: &Node<Declaration>, global: bool) -> R<()> {
        let specs = &d.node.specifiers;
        let storage = specs.iter().find_map(|s| match &s.node {
            DeclarationSpecifier::StorageClass(c) => Some(c.node.clone()),
            _ => None,
        });
        let base = self.base_type(specs.iter().filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(t),
            _ => None,
        }));
        for init_decl in &d.node.declarators {
            let declarator = &init_decl.node.declarator;
            let init = init_decl.node.initializer.as_ref();
            if storage == Some(StorageClassSpecifier::Typedef) {
                let name = declarator_name(declarator);
                let t = match self.declared(base.clone(), declarator, None) {
                    Ok(Declared::Object(_, t)) => Ok(t),
                    Ok(Declared::Function(_)) => Err(Construct("function type".into())),
                    Ok(Declared::Vla(..)) => Err(Construct("variable-length array type".into())),
                    Err(CError::Unsupported { construct, .. }) => Err(Construct(construct)),
                    Err(e) => return Err(e),
                };
                self.typedefs.insert(name, t);
                continue;
            }
            if global {
                if is_function_declarator(declarator) {
                    let line = self.line(&declarator.span);
                    self.prototypes
                        .insert(declarator_name(declarator), (line, base.clone()));
                    continue;
                }
                match self.declared(base.clone(), declarator, init) {
                    Ok(Declared::Object(name, ty)) => {
                        self.line_of_decl(&d.span);
                        let v = self.object(&name, &ty, declarator.span.start)?;
                        self.globals.insert(name, Binding::Var(v, ty.clone()));
                        if let Some(i) = init {
                            self.initialise(v, &ty, i)?;
                        }
                    }
                    Ok(Declared::Function(_)) => {}
                    Ok(Declared::Vla(name, ..)) => {
                        let why = "variable-length array at file scope".to_owned();
                        self.globals.insert(name, Binding::Unsupported(why));
                    }
                    Err(CError::Unsupported { construct, line }) => {
                        let name = declarator_name(declarator);
                        let why = format!("{construct} (declared at line {line})");
                        self.globals.insert(name, Binding::Unsupported(why));
                    }
                    Err(e) => return Err(e),
                }
                continue;
            }
            if let Some((v, ty)) = self.statics.get(&declarator.span.start).cloned() {
                // A `static` local: created and initialised before the program starts.
                let scope = self.scopes.last_mut().expect("a block scope");
                scope.insert(declarator_name(declarator), Binding::Var(v, ty));
                continue;
            }
            match self.declared(base.clone(), declarator, init)? {
                Declared::Function(name) => {
                    let line = self.line(&declarator.span);
                    self.prototypes.insert(name, (line, base.clone()));
                }
                Declared::Vla(name, elem, len) => {
                    self.line_of_decl(&d.span);
                    let ty = CType::Array(elem, VLA_LEN);
                    let v = self.object(&name, &ty, declarator.span.start)?;
                    self.vla(v, len)?;
                    let scope = self.scopes.last_mut().expect("a block scope");
                    scope.insert(name.clone(), Binding::Var(v, ty));
                    self.havoc(v, &name, &declarator.span)?;
                }
                Declared::Object(name, ty) => {
                    self.line_of_decl(&d.span);
                    let v = self.object(&name, &ty, declarator.span.start)?;
                    let scope = self.scopes.last_mut().expect("a block scope");
                    scope.insert(name.clone(), Binding::Var(v, ty.clone()));
                    match init {
                        Some(i) => self.initialise(v, &ty, i)?,
                        None if storage == Some(StorageClassSpecifier::Extern) => {}
                        None => self.havoc(v, &name, &declarator.span)?,
                    }
                }
            }
        }
        Ok(())
    }

    /// Creates the `static` locals of every function body (one variable each, whatever the
    /// calls and their recursion) and initialises them in the current block, the entry: C
    /// initialises them once, before the program starts, with constant expressions.
    pub(super) fn static_locals(&mut self, unit: &'a TranslationUnit) -> R<()> {
        for ext in &unit.0 {
            let ExternalDeclaration::FunctionDefinition(f) = &ext.node else {
                continue;
            };
            let function = declarator_name(&f.node.declarator);
            let mut finder = StaticFinder(Vec::new());
            finder.visit_statement(&f.node.statement.node, &f.node.statement.span);
            for d in finder.0 {
                let base = self.base_type(d.specifiers.iter().filter_map(|s| match &s.node {
                    DeclarationSpecifier::TypeSpecifier(t) => Some(t),
                    _ => None,
                }));
                for init_decl in &d.declarators {
                    let declarator = &init_decl.node.declarator;
                    let init = init_decl.node.initializer.as_ref();
                    let Declared::Object(name, ty) =
                        self.declared(base.clone(), declarator, init)?
                    else {
                        continue;
                    };
                    let at = declarator.span.start;
                    let v = self.variable(format!("{function}::{name}"), &ty, (at, 0))?;
                    if let Some(i) = init {
                        self.initialise(v, &ty, i)?;
                    }
                    self.statics.insert(at, (v, ty));
                }
            }
        }
        Ok(())
    }

    /// Fixes the length of the variable-length array `v` to the value of `len` now: kept in a
    /// variable of its own that indexing checks against. A length that is not positive, or
    /// above `i32::MAX` (no stack holds that), is undefined: the path is cut.
    fn vla(&mut self, v: VarId, len: &Node<Expression>) -> R<()> {
        let n = self.value(len)?;
        let n = self.convert(n, IntTy::new(64, n.ty.signed))?;
        let var = match self.vla_lengths.get(&v) {
            Some(&l) => l,
            None => {
                let name = format!("{}.length", self.cfa.vars[v.index()].name);
                self.cfa.add_var(name, Sort::Bv(64), true)
            }
        };
        let zero = self.cfa.terms.constant_term(BitVec::zero(64));
        let max = (self.cfa.terms).constant_term(BitVec::from_u64(64, i32::MAX as u64));
        let positive = self.op(Op::Binary(Binary::Sgt), &[n, zero])?;
        let small = self.op(Op::Binary(Binary::Slte), &[n, max])?;
        let defined = self.op(Op::Binary(Binary::And), &[positive, small])?;
        self.assume(defined)?;
        self.write(var, n)?;
        self.vla_lengths.insert(v, var);
        Ok(())
    }

    fn line_of_decl(&mut self, span: &Span) {
        let l = self.line(span);
        self.note_line(l);
    }

    /// The variable of the declaration at source offset `at` in the current function (one per
    /// declaration and recursion level, shared by every inlining at that level: two calls at
    /// the same level never overlap).
    pub(super) fn object(&mut self, name: &str, ty: &CType, at: usize) -> R<VarId> {
        let (base, level) = match self.frames.last() {
            Some(f) => {
                let level = self.frames.iter().filter(|g| g.name == f.name).count();
                (format!("{}::{name}", f.name), level as u32)
            }
            None => (name.to_owned(), 0),
        };
        self.variable(base, ty, (at, level))
    }

    /// The variable of `key` (a declaration's offset and level), created as `base` (made
    /// unique) when it is new.
    pub(super) fn variable(&mut self, base: String, ty: &CType, key: (usize, u32)) -> R<VarId> {
        if let Some(&v) = self.decl_vars.get(&key) {
            return Ok(v);
        }
        let unique = self.fresh_name(&base);
        let (sort, signed) = match ty {
            CType::Int(t) => (Sort::Bv(t.bits), t.signed),
            CType::Array(e, len) => (
                Sort::Array {
                    index: index_bits(*len),
                    element: e.bits,
                },
                e.signed,
            ),
            CType::Void => {
                return Err(CError::Syntax {
                    line: None,
                    message: format!("variable {base} has type void"),
                })
            }
        };
        let v = self.cfa.add_var(unique, sort, signed);
        self.decl_vars.insert(key, v);
        Ok(v)
    }

    /// Gives an uninitialised local a nondeterministic value.
    fn havoc(&mut self, v: VarId, name: &str, span: &Span) -> R<()> {
        let sort = self.cfa.vars[v.index()].sort;
        let signed = self.cfa.vars[v.index()].signed;
        let line = self.line(span);
        let n = self
            .cfa
            .add_nondet(sort, format!("uninitialised {name}"), line, signed);
        self.drawn.push(n);
        let t = self.cfa.nondets[n].term;
        self.write(v, t)
    }

    /// Assigns the initialiser of a declaration.
    fn initialise(&mut self, v: VarId, ty: &CType, init: &Node<Initializer>) -> R<()> {
        match (ty, &init.node) {
            (CType::Int(t), Initializer::Expression(e)) => {
                let value = self.value(e)?;
                let c = self.convert(value, *t)?;
                self.write(v, c)
            }
            (CType::Array(elem, len), Initializer::List(items)) => {
                let zero = self.cfa.terms.constant_term(BitVec::zero(elem.bits));
                let sort = self.cfa.vars[v.index()].sort;
                let mut array = self.cfa.terms.const_array(sort, zero).map_err(internal)?;
                let mut next = 0u64;
                for item in items {
                    let at = self.designated(item, next, *len)?;
                    let Initializer::Expression(e) = &item.node.initializer.node else {
                        return self.unsupported(&item.span, "nested initialiser list");
                    };
                    let value = self.value(e)?;
                    let value = self.convert(value, *elem)?;
                    let index = self
                        .cfa
                        .terms
                        .constant_term(BitVec::from_u64(index_bits(*len), at));
                    array = self.op(Op::Write, &[array, index, value])?;
                    next = at + 1;
                }
                self.write(v, array)
            }
            _ => self.unsupported(&init.span, "initialiser of this form"),
        }
    }

    /// The index an initialiser-list item sets.
    fn designated(&mut self, item: &Node<InitializerListItem>, next: u64, len: u64) -> R<u64> {
        let at = match item.node.designation.as_slice() {
            [] => next,
            [d] => match &d.node {
                Designator::Index(e) => match self.constant(e) {
                    Ok(i) if i >= 0 => i as u64,
                    _ => return self.unsupported(&d.span, "array designator"),
                },
                _ => return self.unsupported(&d.span, "designator"),
            },
            _ => return self.unsupported(&item.span, "nested designator"),
        };
        if at >= len {
            return self.unsupported(&item.span, "initialiser beyond the array's end");
        }
        Ok(at)
    }

    /// A declarator's type for a parameter (arrays are unsupported as they decay to
    /// pointers).
    pub(super) fn parameter_type(
        &mut self,
        specs: &[Node<DeclarationSpecifier>],
        d: Option<&Node<Declarator>>,
        span: &Span,
    ) -> R<Option<(String, IntTy)>> {
        let base = self.base_type(specs.iter().filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(t),
            _ => None,
        }));
        let declared = match d {
            Some(d) => self.declared(base, d, None)?,
            None => match base {
                Ok(t) => Declared::Object(String::new(), t),
                Err(c) => return self.unsupported(span, c),
            },
        };
        match declared {
            Declared::Object(_, CType::Void) => Ok(None),
            Declared::Object(name, CType::Int(t)) => Ok(Some((name, t))),
            _ => self.unsupported(span, "array or function parameter"),
        }
    }
}

/// The `static` object declarations of a function body (not its prototypes, which
/// [`Translator::declaration`] reads where they are).
struct StaticFinder<'ast>(Vec<&'ast Declaration>);

impl<'ast> Visit<'ast> for StaticFinder<'ast> {
    fn visit_declaration(&mut self, d: &'ast Declaration, _: &'ast Span) {
        let is_static = d.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c)
                if c.node == StorageClassSpecifier::Static)
        });
        if is_static
            && !d
                .declarators
                .iter()
                .all(|i| is_function_declarator(&i.node.declarator))
        {
            self.0.push(d);
        }
    }
}

/// The number of index bits of an array of `len` elements.
pub(super) fn index_bits(len: u64) -> u32 {
    (64 - (len.max(2) - 1).leading_zeros()).max(1)
}

pub(super) fn declarator_name(d: &Node<Declarator>) -> String {
    match &d.node.kind.node {
        DeclaratorKind::Identifier(id) => id.node.name.clone(),
        DeclaratorKind::Declarator(inner) => declarator_name(inner),
        DeclaratorKind::Abstract => String::new(),
    }
}

fn is_function_declarator(d: &Node<Declarator>) -> bool {
    d.node.derived.iter().any(|x| {
        matches!(
            x.node,
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
        )
    }) && !d
        .node
        .derived
        .iter()
        .any(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
}

pub(super) fn internal(m: impl std::fmt::Display) -> CError {
    CError::Syntax {
        line: None,
        message: format!("internal error: {m}"),
    }
}
