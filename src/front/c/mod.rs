//! The C front end: SV-COMP-style reachability programs (`.c`, preprocessed `.i`) to a
//! [`Cfa`].
//!
//! Parsing is `lang-c` on `gcc -E` output ([`preprocess`]). The translation inlines every
//! call, recursive ones up to a bound ([`Recursion`]) or, for the Horn clauses, into
//! procedure summaries ([`translate_summarized`]), and builds the CFA block by block:
//! within a straight-line block the translator keeps a symbolic store (variable -> term over the values at the block's start),
//! a guard and the nondet values drawn, and emits one edge when control flow branches or
//! joins. Values that must survive a block boundary inside an expression (an operand
//! evaluated before a call to an inlined function) are kept in temporary variables.
//!
//! Semantics choices:
//! - unsigned integers wrap around; a conversion to a narrower signed type keeps the low
//!   bits (two's complement, gcc's implementation-defined choice);
//! - the undefined operations the translation can see (signed overflow of `+ - * /` and
//!   unary `-`, division or remainder by zero, shift amounts out of range, array indices out
//!   of bounds) follow SV-COMP's no-UB
//!   assumption: a path that performs one is cut (the operation acts as an assumption that it
//!   is defined), so no verdict rests on an undefined value;
//! - uninitialised local scalars and arrays are nondeterministic (reported in traces);
//!   globals start zero;
//! - `reach_error()`, `__VERIFIER_error()`, `__assert_fail()` and a failing `assert` are the
//!   error location; `abort()` and `exit()` end the program; `__VERIFIER_assume(c)` cuts paths
//!   where `c` is zero; `__VERIFIER_nondet_<type>()` returns a fresh value of its type;
//! - a call of any other function without a body returns a fresh value of its return type
//!   and has no other effect ([`Externs`]: named on stderr; `--strict-extern` refuses it);
//! - a variable-length array keeps the length computed at its declaration (indices checked
//!   against it); `static` locals are initialised once, before `main` runs; a conditional
//!   with a `void` operand is void.
//!
//! Anything else (pointers, floats, structs, heap and thread functions, ...) is rejected as
//! [`CError::Unsupported`] naming the construct and its line.

mod decl;
mod effects;
mod expr;
mod external;
mod lvalue;
mod operators;
pub mod preprocess;
mod recursion;
pub mod spec;
mod stmt;
mod summary;
mod tail;
pub mod types;

use std::collections::{BTreeSet, HashMap};

use lang_c::ast::{FunctionDefinition, TranslationUnit};
use lang_c::driver::{parse_preprocessed, Config};
use lang_c::span::Span;

use crate::cfa::{Cfa, Edge, Loc, VarId};
use crate::wl::{Binary, Op, TermId, Unary};
use decl::Construct;
use preprocess::LineMap;
pub use types::{CType, DataModel, IntTy};

/// Why a C file was not translated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CError {
    /// Not valid C (or the preprocessor failed): an input error.
    Syntax { line: Option<u32>, message: String },
    /// Valid C outside the supported subset: the verdict is `unknown`.
    Unsupported { line: u32, construct: String },
    /// Recursion inlined to [`Recursion::bound`] makes a CFA too large (at the call of
    /// `function` at `line`): a smaller bound may still be translated.
    RecursionTooLarge {
        line: u32,
        bound: u32,
        function: String,
    },
}

impl std::fmt::Display for CError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CError::Syntax { line, message } => match line {
                Some(l) => write!(f, "line {l}: {message}"),
                None => write!(f, "{message}"),
            },
            CError::Unsupported { line, construct } => {
                write!(f, "unsupported: {construct} at line {line}")
            }
            CError::RecursionTooLarge {
                line,
                bound,
                function,
            } => write!(
                f,
                "unsupported: recursion inlined {bound} deep (function {function}): more than \
                 {} edges at line {line}",
                stmt::MAX_RECURSIVE_EDGES
            ),
        }
    }
}

/// A translated program.
pub struct Program {
    pub cfa: Cfa,
    /// Headers whose `#include` was dropped because they do not exist.
    pub dropped_headers: Vec<String>,
    /// Functions without a body whose calls were read as nondet values (see [`Externs`]).
    pub assumed_nondet: Vec<String>,
}

/// How calls of functions without a body (declared by a prototype, or not at all) are read.
///
/// By default such a call returns a nondet value of the declared return type (C's implicit
/// `int` for an undeclared function), after its arguments are evaluated for their side
/// effects: the assumption that an external function returns an arbitrary value and has no
/// other effect, which is what SV-COMP's tasks mean by the external functions they call.
/// The assumption is named on stderr and in `--json` for every such function. Calls that
/// could not be modelled that way stay unsupported whatever the policy: heap and thread
/// functions ([`NEVER_NONDET`]), arrays passed as arguments (the callee could write into
/// them), and return types warden does not support (pointers, structs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Externs {
    /// Only the functions of `nondet` are assumed nondet; any other call of a function without
    /// a body is unsupported (`--strict-extern`).
    pub strict: bool,
    /// Functions assumed nondet under `strict` too (`--nondet-fn`).
    pub nondet: Vec<String>,
    /// The function whose calls are the error, as a property file names it (`--spec`,
    /// [`spec::Spec`]): then calls of it alone are, its body (if any) is never run, and the
    /// assert family (`__assert_fail`, a failing `assert`) ends the program as the `abort`
    /// it is. `None`: `reach_error`, `__VERIFIER_error` and the assert family are the error.
    pub error: Option<String>,
}

/// How far recursive calls are inlined, and what a deeper call does.
///
/// A function is inlined at most `bound` times in one chain of active calls (so `bound` 1
/// inlines no recursive call); a call beyond that goes to the CFA's [`Cfa::unwind`] location.
/// With `exceeded_is_error` that location leads to the error, so the CFA over-approximates
/// the program (no error reachable: safe at every depth); without, it blocks and the CFA
/// under-approximates it (an error path is a real one). Programs without recursion are the
/// same either way. `warden check` deepens the bound until one of the two answers decides.
///
/// With `shared`, the recursive calls made with the same chain of active calls run one shared
/// copy of the body ([`recursion::SharedCall`]): the CFA grows linearly with the bound instead of
/// exponentially, for executing programs that recurse deep ([`crate::engine::execute`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Recursion {
    pub bound: u32,
    pub exceeded_is_error: bool,
    pub shared: bool,
}

impl Default for Recursion {
    fn default() -> Recursion {
        Recursion {
            bound: 1,
            exceeded_is_error: true,
            shared: false,
        }
    }
}

/// Functions whose calls are never read as nondet values: their effect on memory and
/// threads is the point of calling them, so assuming "no other effect" would be wrong.
const NEVER_NONDET: [&str; 12] = [
    "malloc",
    "calloc",
    "realloc",
    "free",
    "alloca",
    "__builtin_alloca",
    "memset",
    "memcpy",
    "memmove",
    "strcpy",
    "strncpy",
    "scanf",
];

/// Whether a call of `name` must stay unsupported rather than be assumed nondet.
fn never_nondet(name: &str) -> bool {
    NEVER_NONDET.contains(&name)
        || name.starts_with("pthread_")
        || name.starts_with("__VERIFIER_atomic")
}

/// Translates C source text. `.i` files go through `gcc -E` too: the corpus's ones still
/// have comments.
pub fn translate(source: &str, dm: DataModel) -> Result<Program, CError> {
    translate_with(source, dm, &Externs::default(), Recursion::default())
}

/// [`translate`], with calls of functions without a body read as `externs` says and recursion
/// inlined as `recursion` says.
pub fn translate_with(
    source: &str,
    dm: DataModel,
    externs: &Externs,
    recursion: Recursion,
) -> Result<Program, CError> {
    let p = preprocess_source(source)?;
    let (cfa, assumed_nondet) = translate_text(p.text, dm, externs, recursion, false)?;
    Ok(Program {
        cfa,
        dropped_headers: p.dropped,
        assumed_nondet,
    })
}

/// The part of [`translate_with`] after `gcc -E`: parsing and translating preprocessed text
/// (line markers give the source lines), with the functions assumed nondet. Public so that
/// the fuzzer (`benches/fuzz/`) can drive it in-process without running gcc for every input.
pub fn translate_preprocessed(
    text: String,
    dm: DataModel,
    externs: &Externs,
    recursion: Recursion,
) -> Result<(Cfa, Vec<String>), CError> {
    translate_text(text, dm, externs, recursion, false)
}

/// The CFA of a recursive program with its recursive calls answered by procedure summaries
/// ([`crate::cfa::Summarized`]) instead of inlined to a bound: for the Horn clauses of
/// [`crate::engine::chc`], which prove the program at every depth from it. Unsupported when
/// a recursive function writes anything but its own locals ([`summary`] says why).
pub fn translate_summarized(source: &str, dm: DataModel, externs: &Externs) -> Result<Cfa, CError> {
    let p = preprocess_source(source)?;
    let (cfa, _) = translate_text(p.text, dm, externs, Recursion::default(), true)?;
    Ok(cfa)
}

/// `gcc -E` on `source`, its failure a syntax error at the line it names.
fn preprocess_source(source: &str) -> Result<preprocess::Preprocessed, CError> {
    preprocess::preprocess(source).map_err(|e| {
        let message = e.to_string();
        CError::Syntax {
            line: preprocess::error_line(&message),
            message,
        }
    })
}

fn translate_text(
    text: String,
    dm: DataModel,
    externs: &Externs,
    recursion: Recursion,
    summaries: bool,
) -> Result<(Cfa, Vec<String>), CError> {
    let lines = LineMap::new(&text);
    let parse = parse_preprocessed(&Config::with_gcc(), text).map_err(|e| CError::Syntax {
        line: Some(lines.line(e.offset)),
        message: format!("syntax error, expected {}", expected(&e.expected)),
    })?;
    let mut translator = Translator::new(&lines, dm);
    translator.externs = externs.clone();
    translator.recursion = recursion;
    translator.summaries = summaries;
    translator.program(&parse.unit)
}

fn expected(tokens: &std::collections::HashSet<&str>) -> String {
    let mut t: Vec<&str> = tokens.iter().copied().collect();
    t.sort_unstable();
    t.join(", ")
}

type R<T> = Result<T, CError>;

/// What a name stands for.
#[derive(Clone, Debug)]
enum Binding {
    Var(VarId, CType),
    /// An enumeration constant.
    Const(i128),
    /// A global declared with a type outside the subset: an error only if used.
    Unsupported(String),
}

/// An inlined function call in progress.
struct Frame {
    name: String,
    /// Where `return` goes.
    ret: Loc,
    ret_var: Option<(VarId, IntTy)>,
    labels: HashMap<String, Loc>,
    /// Whether the call was the operand of a `return` (a tail call: see [`tail`]).
    tail: bool,
    /// The parameters, and the start of the body (after they are assigned; `None` for a call
    /// inside a conditional operand, which no tail call can come back to).
    params: Vec<(VarId, IntTy)>,
    entry: Option<Loc>,
    /// Set for a recursive function when recursion goes to summaries ([`summary`]).
    summary: Option<summary::FrameSummary>,
}

/// Targets of `break` and `continue` (a `switch` has no `continue` of its own).
#[derive(Copy, Clone)]
struct Jumps {
    brk: Loc,
    cont: Option<Loc>,
}

/// The translation state (see the module documentation).
struct Translator<'a> {
    cfa: Cfa,
    lines: &'a LineMap,
    dm: DataModel,
    functions: HashMap<String, &'a FunctionDefinition>,
    /// Functions declared without a body: the line and the type their calls return.
    prototypes: HashMap<String, (u32, Result<CType, Construct>)>,
    /// How calls of functions without a body are read.
    externs: Externs,
    /// The functions without a body whose calls were read as nondet values.
    assumed_nondet: BTreeSet<String>,
    /// How recursive calls are inlined.
    recursion: Recursion,
    /// Whether recursive calls go to procedure summaries instead ([`translate_summarized`]).
    summaries: bool,
    typedefs: HashMap<String, Result<CType, Construct>>,
    globals: HashMap<String, Binding>,
    scopes: Vec<HashMap<String, Binding>>,
    frames: Vec<Frame>,
    jumps: Vec<Jumps>,
    /// Case labels of the enclosing `switch` statements, by the label's source offset.
    cases: Vec<HashMap<usize, Loc>>,
    /// The variable of each declaration, by source offset and recursion level (how many
    /// calls of its function are active), reused by every inlining at that level.
    decl_vars: HashMap<(usize, u32), VarId>,
    /// The shared copies of recursive bodies, by the chain of active calls they run in.
    shared: HashMap<Vec<(String, bool)>, recursion::SharedCall>,
    /// The variable and type of each `static` local, by the source offset of its declarator:
    /// one variable for every call, initialised at the program's start.
    statics: HashMap<usize, (VarId, CType)>,
    /// The variable holding the length of each variable-length array (fixed when its
    /// declaration runs).
    vla_lengths: HashMap<VarId, VarId>,
    names: HashMap<String, usize>,
    // The current block.
    cur: Loc,
    store: HashMap<VarId, TermId>,
    guard: TermId,
    drawn: Vec<usize>,
    block_lines: Vec<u32>,
    /// Inside `a && b` (etc.) without control flow: when the operand is evaluated at all.
    cond: TermId,
    /// Set by a `return` whose operand is a call of a function with a body, for the frame
    /// that call pushes (see [`tail`]).
    tail_pending: bool,
}

impl<'a> Translator<'a> {
    fn new(lines: &'a LineMap, dm: DataModel) -> Translator<'a> {
        let mut cfa = Cfa::new();
        let t = cfa.bool_const(true);
        let cur = cfa.entry;
        Translator {
            cfa,
            lines,
            dm,
            functions: HashMap::new(),
            prototypes: HashMap::new(),
            externs: Externs::default(),
            assumed_nondet: BTreeSet::new(),
            recursion: Recursion::default(),
            summaries: false,
            typedefs: HashMap::new(),
            globals: HashMap::new(),
            scopes: Vec::new(),
            frames: Vec::new(),
            jumps: Vec::new(),
            cases: Vec::new(),
            decl_vars: HashMap::new(),
            shared: HashMap::new(),
            statics: HashMap::new(),
            vla_lengths: HashMap::new(),
            names: HashMap::new(),
            cur,
            store: HashMap::new(),
            guard: t,
            drawn: Vec::new(),
            block_lines: Vec::new(),
            cond: t,
            tail_pending: false,
        }
    }

    fn line(&self, span: &Span) -> u32 {
        self.lines.line(span.start)
    }

    fn unsupported<T>(&self, span: &Span, construct: impl Into<String>) -> R<T> {
        Err(CError::Unsupported {
            line: self.line(span),
            construct: construct.into(),
        })
    }

    /// The whole program (globals, then `main` inlined): the CFA of `unit`, and the functions without a body assumed nondet in it.
    fn program(mut self, unit: &'a TranslationUnit) -> R<(Cfa, Vec<String>)> {
        self.globals_and_functions(unit)?;
        self.static_locals(unit)?;
        let Some(main) = self.functions.get("main").copied() else {
            return Err(CError::Syntax {
                line: None,
                message: "no function main".into(),
            });
        };
        self.inline(main, &[], &main.declarator.span)?;
        let exit = self.cfa.exit;
        self.jump(exit)?;
        Ok((self.cfa, self.assumed_nondet.into_iter().collect()))
    }

    /// A unique variable name.
    fn fresh_name(&mut self, base: &str) -> String {
        let n = self.names.entry(base.to_owned()).or_insert(0);
        *n += 1;
        match *n {
            1 => base.to_owned(),
            k => format!("{base}#{k}"),
        }
    }

    // ----- the current block -----

    /// The current value of `v`.
    fn read(&self, v: VarId) -> TermId {
        self.store
            .get(&v)
            .copied()
            .unwrap_or(self.cfa.vars[v.index()].term)
    }

    /// Assigns `t` to `v` (only where the current condition holds).
    fn write(&mut self, v: VarId, t: TermId) -> R<()> {
        let t = if self.is_true(self.cond) {
            t
        } else {
            let old = self.read(v);
            self.op(Op::Ite, &[self.cond, t, old])?
        };
        self.store.insert(v, t);
        Ok(())
    }

    /// Cuts the paths where `t` (1 bit) is false (under the current condition).
    fn assume(&mut self, t: TermId) -> R<()> {
        let t = if self.is_true(self.cond) {
            t
        } else {
            self.op(Op::Binary(Binary::Implies), &[self.cond, t])?
        };
        self.guard = self.op(Op::Binary(Binary::And), &[self.guard, t])?;
        Ok(())
    }

    fn note_line(&mut self, line: u32) {
        if self.block_lines.last() != Some(&line) {
            self.block_lines.push(line);
        }
    }

    fn is_true(&self, t: TermId) -> bool {
        self.cfa.terms.constant(t).is_some_and(|c| c.is_true())
    }

    fn op(&mut self, op: Op, args: &[TermId]) -> R<TermId> {
        self.cfa.terms.apply(op, args).map_err(|m| CError::Syntax {
            line: None,
            message: format!("internal sort error: {m}"),
        })
    }

    fn not(&mut self, t: TermId) -> R<TermId> {
        self.op(Op::Unary(Unary::Not), &[t])
    }

    /// Emits the edge from the current location to `to` under `extra` (the block stays open
    /// for further edges: see [`Translator::start`]).
    fn edge_to(&mut self, to: Loc, extra: TermId) -> R<()> {
        if !self.is_true(self.cond) {
            return Err(CError::Syntax {
                line: self.block_lines.last().copied(),
                message: "internal error: control flow inside a conditional operand".into(),
            });
        }
        let guard = self.op(Op::Binary(Binary::And), &[self.guard, extra])?;
        if self.cfa.terms.constant(guard).is_some_and(|c| c.is_zero()) {
            return Ok(());
        }
        let mut assigns: Vec<(VarId, TermId)> = self
            .store
            .iter()
            .filter(|(v, t)| self.cfa.vars[v.index()].term != **t)
            .map(|(v, t)| (*v, *t))
            .collect();
        assigns.sort_unstable();
        self.cfa.edges.push(Edge {
            from: self.cur,
            to,
            guard,
            assigns,
            nondets: self.drawn.clone(),
            lines: self.block_lines.clone(),
        });
        Ok(())
    }

    /// Starts a new block at `loc`.
    fn start(&mut self, loc: Loc) {
        self.cur = loc;
        self.store.clear();
        self.guard = self.cfa.bool_const(true);
        self.drawn.clear();
        self.block_lines.clear();
    }

    /// Ends the block with a jump to `to`; what follows is unreachable until a label.
    fn jump(&mut self, to: Loc) -> R<()> {
        let t = self.cfa.bool_const(true);
        self.edge_to(to, t)?;
        let dead = self.cfa.add_location(None);
        self.start(dead);
        Ok(())
    }

    /// Ends the block with a jump to `to` and continues there.
    fn goto_and_start(&mut self, to: Loc) -> R<()> {
        let t = self.cfa.bool_const(true);
        self.edge_to(to, t)?;
        self.start(to);
        Ok(())
    }

    /// Ends the block with a branch on `c` (1 bit).
    fn branch_to(&mut self, c: TermId, then: Loc, other: Loc) -> R<()> {
        self.edge_to(then, c)?;
        let n = self.not(c)?;
        self.edge_to(other, n)
    }

    fn new_loc(&mut self, span: &Span) -> Loc {
        let line = self.line(span);
        self.cfa.add_location(Some(line))
    }

    /// A new location for the head of the loop statement at `span`, recorded with the scalar
    /// variables its scope sees (globals, then each enclosing block: inner names shadow).
    fn loop_head(&mut self, span: &Span) -> Loc {
        let loc = self.new_loc(span);
        let mut visible: HashMap<&str, Option<VarId>> = HashMap::new();
        let bindings = std::iter::once(&self.globals).chain(&self.scopes);
        for (name, b) in bindings.flat_map(|scope| scope.iter()) {
            let var = match b {
                Binding::Var(v, CType::Int(_)) => Some(*v),
                _ => None,
            };
            visible.insert(name, var);
        }
        let mut visible: Vec<(String, VarId)> = visible
            .into_iter()
            .filter_map(|(name, v)| Some((name.to_owned(), v?)))
            .collect();
        visible.sort();
        self.cfa.loop_heads.push(crate::cfa::LoopHead {
            loc,
            line: self.line(span),
            column: self.lines.column(span.start),
            function: self.frames.last().map_or("main", |f| &f.name).to_owned(),
            visible,
        });
        loc
    }
}
