//! Precise mode: resolve every call to a canonical PyTorch operator, or to nothing.
//!
//! A single pass over the module evaluates expressions in a small value lattice
//! ([`Value`]): imports and aliases bind names to torch namespaces and API objects, torch calls
//! produce tensors and module instances, `self.x = nn.Conv2d(...)` in any method makes
//! `self.x(...)` an application of `torch.nn.Conv2d`. Function bodies run after the scope that
//! defines them (as Python runs them), methods of a class after its body, `__init__` first.
//! Whatever is not understood is `Unknown`: a Tensor method name on an unknown receiver is
//! recorded with resolution `method_name`, unless the name is shared with builtins or
//! `nn.Module`; nothing else unknown is ever counted.

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use ruff_python_ast::visitor::{walk_expr, walk_stmt, Visitor};
use ruff_python_ast::{
    Comprehension, Expr, ExprCall, Identifier, ModModule, Parameters, Stmt, StmtClassDef,
    StmtFunctionDef,
};
use ruff_text_size::{Ranged, TextSize};

use super::api::{torch_api, ApiKind, MethodSharing, TorchApi};
use super::values::{
    aliased, api_call_result, builtin_call_result, element_of, foreign_call_result, is_builtin,
    method_call_result, module_apply_result, module_value, resolution_of, tensor_attribute,
    torch_path_value, Value, Via,
};
use super::{CallKind, CallSite, FileOperators, Resolution};
use crate::eval::interp::AppliedOperators;
use crate::frontend::LineIndex;
use crate::resolve::{import_bindings, is_torch_path, Binding, Imported};

/// Finds the PyTorch operator calls of a parsed module.
pub fn find_calls(module: &ModModule, text: &str) -> FileOperators {
    let mut resolver = Resolver::new(text);
    resolver.run_module(&module.body);
    let imports_torch = resolver.imports_torch;
    let mut out = resolver.out;
    // A file that never imports torch has no business calling tensor methods: a bare method
    // name there (`q.put()`, `a.tolist()`, `s.select()`) is not evidence of PyTorch.
    if !imports_torch {
        out.calls.retain(|c| c.resolution != Resolution::MethodName);
    }
    out.calls.sort();
    out
}

/// Completes counting with what the shape analysis applies at the file's call sites
/// (`applied`, from `units::run_units_noting_operators`), so that both stages name the same
/// operator wherever the analysis resolves a call: a site counting resolves alike keeps its
/// row; a site only the analysis resolves gets rows of resolution `analysis`; a site where
/// counting names another operator takes the analysis' (a callee rebound under an `if`,
/// which counting reads in statement order while the analysis follows the path the code's
/// defaults take). Where the analysis' runs apply several operators at one site (either
/// side of a branch), each is a row.
pub fn add_analysed(
    out: &mut FileOperators,
    module: &ModModule,
    text: &str,
    applied: &AppliedOperators,
) {
    use std::collections::BTreeMap;
    let lines = LineIndex::new(text);
    let mut by_site: BTreeMap<(u32, u32), Vec<&crate::eval::interp::Applied>> = BTreeMap::new();
    for a in applied {
        by_site
            .entry(lines.line_col(text, a.at))
            .or_default()
            .push(a);
    }
    // Counting's rows by site, looked up once per site the analysis resolves.
    let mut counted: BTreeMap<(u32, u32), Vec<CallSite>> = BTreeMap::new();
    for c in std::mem::take(&mut out.calls) {
        counted.entry((c.line, c.column)).or_default().push(c);
    }
    for ((line, column), found) in by_site {
        let rows = counted.entry((line, column)).or_default();
        if !rows
            .iter()
            .any(|c| found.iter().any(|a| a.operator == c.operator))
        {
            // Counting's other operators at this site give way.
            rows.clear();
        }
        let (enclosing_class, enclosing_function) = enclosing(&module.body, found[0].at);
        // Every operator the analysis applies here (runs may take either side of a branch).
        for a in found {
            if rows.iter().any(|c| c.operator == a.operator) {
                continue;
            }
            rows.push(CallSite {
                line,
                column,
                operator: a.operator.to_string(),
                call_kind: a.kind,
                resolution: Resolution::Analysis,
                enclosing_class: enclosing_class.clone(),
                enclosing_function: enclosing_function.clone(),
            });
        }
    }
    out.calls = counted.into_values().flatten().collect();
    out.calls.sort();
}

/// The innermost class and function whose statement contains `at`, as counting names a
/// call site's enclosing scopes.
fn enclosing(body: &[Stmt], at: TextSize) -> (Option<String>, Option<String>) {
    let (mut class, mut function) = (None, None);
    let mut stmts = body;
    'descend: loop {
        for stmt in stmts {
            if !stmt.range().contains(at) {
                continue;
            }
            match stmt {
                Stmt::ClassDef(c) => {
                    class = Some(c.name.id.to_string());
                    stmts = &c.body;
                    continue 'descend;
                }
                Stmt::FunctionDef(f) => {
                    function = Some(f.name.id.to_string());
                    stmts = &f.body;
                    continue 'descend;
                }
                other => {
                    stmts = nested_body(other, at);
                    if stmts.is_empty() {
                        break 'descend;
                    }
                    continue 'descend;
                }
            }
        }
        break;
    }
    (class, function)
}

/// The block of a compound statement that contains `at` (empty for a simple statement).
fn nested_body(stmt: &Stmt, at: TextSize) -> &[Stmt] {
    let blocks: Vec<&[Stmt]> = match stmt {
        Stmt::If(s) => std::iter::once(&s.body[..])
            .chain(s.elif_else_clauses.iter().map(|c| &c.body[..]))
            .collect(),
        Stmt::For(s) => vec![&s.body[..], &s.orelse[..]],
        Stmt::While(s) => vec![&s.body[..], &s.orelse[..]],
        Stmt::With(s) => vec![&s.body[..]],
        Stmt::Try(s) => {
            let mut v: Vec<&[Stmt]> = vec![&s.body[..], &s.orelse[..], &s.finalbody[..]];
            for h in &s.handlers {
                let ruff_python_ast::ExceptHandler::ExceptHandler(h) = h;
                v.push(&h.body[..]);
            }
            v
        }
        Stmt::Match(s) => s.cases.iter().map(|c| &c.body[..]).collect(),
        _ => Vec::new(),
    };
    blocks
        .into_iter()
        .find(|b| b.iter().any(|st| st.range().contains(at)))
        .unwrap_or(&[])
}

/// Bounded recursion: deep nesting grows the stack instead of overflowing it.
fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, f)
}

struct Frame {
    names: HashMap<Rc<str>, Value>,
    /// Class bodies are not visible from the methods defined in them.
    is_class: bool,
}

#[derive(Default)]
struct ClassInfo {
    attrs: HashMap<Rc<str>, Value>,
    bases: Vec<Rc<str>>,
}

struct Deferred<'a> {
    def: &'a StmtFunctionDef,
    class: Option<Rc<str>>,
    is_method: bool,
}

struct Resolver<'a> {
    api: &'static TorchApi,
    text: &'a str,
    lines: LineIndex,
    frames: Vec<Frame>,
    star_torch: Vec<Rc<str>>,
    classes: HashMap<Rc<str>, ClassInfo>,
    class_stack: Vec<Rc<str>>,
    func_stack: Vec<Rc<str>>,
    deferred: Vec<Vec<Deferred<'a>>>,
    out: FileOperators,
    /// Some import statement binds a torch module or object.
    imports_torch: bool,
}

impl<'a> Resolver<'a> {
    fn new(text: &'a str) -> Self {
        Resolver {
            api: torch_api(),
            text,
            lines: LineIndex::new(text),
            frames: vec![Frame {
                names: HashMap::default(),
                is_class: false,
            }],
            star_torch: Vec::new(),
            classes: HashMap::default(),
            class_stack: Vec::new(),
            func_stack: Vec::new(),
            deferred: vec![Vec::new()],
            out: FileOperators::default(),
            imports_torch: false,
        }
    }

    fn run_module(&mut self, body: &'a [Stmt]) {
        self.exec_body(body);
        self.run_deferred();
    }

    // ---- recording -------------------------------------------------------------------

    fn record(
        &mut self,
        at: TextSize,
        operator: &str,
        call_kind: CallKind,
        resolution: Resolution,
    ) {
        let (line, column) = self.lines.line_col(self.text, at);
        self.out.calls.push(CallSite {
            line,
            column,
            operator: operator.to_string(),
            call_kind,
            resolution,
            enclosing_class: self.class_stack.last().map(|c| c.to_string()),
            enclosing_function: self.func_stack.last().map(|f| f.to_string()),
        });
    }

    /// Records an infix operator, a unary one or a subscript on a tensor (call kind
    /// `operator`), at its symbol: the first `symbol` in the text between its operands
    /// (`gap`), else the gap's start.
    fn record_operator(
        &mut self,
        gap: (TextSize, TextSize),
        symbol: &str,
        operator: &str,
        resolution: Resolution,
    ) {
        let (start, end) = (gap.0.to_usize(), gap.1.to_usize());
        let at = self
            .text
            .get(start..end.max(start))
            .and_then(|between| between.find(symbol))
            .map_or(gap.0, |i| gap.0 + TextSize::from(i as u32));
        self.record(at, operator, CallKind::Operator, resolution);
    }

    // ---- scopes ----------------------------------------------------------------------

    /// An import's binding: torch names resolve through the API table, relative imports are
    /// recorded (and bound to `Relative`), other modules are namespaces of their own.
    fn bind_import(&mut self, b: Binding<'_>) {
        let via = if b.aliased { Via::Alias } else { Via::Import };
        match b.imported {
            Imported::Member {
                level: level @ 1..,
                module,
                name,
            } => {
                let dots = ".".repeat(level as usize);
                let sep = if module.is_empty() { "" } else { "." };
                self.out
                    .relative_imports
                    .push(format!("{dots}{module}{sep}{name}"));
                if let Some(bound) = b.name {
                    self.bind_name(bound, Value::Relative);
                }
            }
            Imported::Star {
                level: level @ 1..,
                module,
            } => {
                let dots = ".".repeat(level as usize);
                let sep = if module.is_empty() { "" } else { "." };
                self.out
                    .relative_imports
                    .push(format!("{dots}{module}{sep}*"));
            }
            Imported::Star { module, .. } => {
                self.imports_torch |= is_torch_path(module);
                if is_torch_path(module) {
                    self.star_torch.push(Rc::from(module));
                }
            }
            Imported::Module(path) => {
                self.imports_torch |= is_torch_path(path);
                if let Some(bound) = b.name {
                    self.bind_name(bound, module_value(path, via));
                }
            }
            Imported::Member { module, .. } => {
                self.imports_torch |= is_torch_path(module);
                if let (Some(bound), Some(path)) = (b.name, b.imported.path()) {
                    self.bind_name(bound, module_value(&path, via));
                }
            }
        }
    }

    fn bind_name(&mut self, name: &str, value: Value) {
        let frame = self.frames.last_mut().expect("module frame");
        frame.names.insert(Rc::from(name), value);
    }

    fn lookup(&self, name: &str) -> Value {
        let top = self.frames.len() - 1;
        for (i, frame) in self.frames.iter().enumerate().rev() {
            if frame.is_class && i != top {
                continue;
            }
            if let Some(v) = frame.names.get(name) {
                return v.clone();
            }
        }
        for ns in &self.star_torch {
            let v = torch_path_value(&format!("{ns}.{name}"), Via::Import);
            if v != Value::Unknown {
                return v;
            }
        }
        if is_builtin(name) {
            return Value::Builtin(Rc::from(name));
        }
        Value::Unknown
    }

    fn class_attr(&self, class: &str, attr: &str) -> Value {
        let mut todo = vec![class];
        let mut seen = 0;
        while let Some(c) = todo.pop() {
            seen += 1;
            if seen > 32 {
                break;
            }
            if let Some(info) = self.classes.get(c) {
                if let Some(v) = info.attrs.get(attr) {
                    return v.clone();
                }
                todo.extend(info.bases.iter().map(|b| b.as_ref()));
            }
        }
        Value::Unknown
    }

    fn set_class_attr(&mut self, class: &Rc<str>, attr: &str, value: Value) {
        let info = self.classes.entry(class.clone()).or_default();
        let joined = match info.attrs.remove(attr) {
            Some(old) => old.join(value),
            None => value,
        };
        info.attrs.insert(Rc::from(attr), joined);
    }

    // ---- statements ------------------------------------------------------------------

    fn exec_body(&mut self, body: &'a [Stmt]) {
        for stmt in body {
            self.exec(stmt);
        }
    }

    fn exec(&mut self, stmt: &'a Stmt) {
        grow(|| self.exec_inner(stmt))
    }

    fn exec_inner(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::Import(_) | Stmt::ImportFrom(_) => {
                for b in import_bindings(stmt) {
                    self.bind_import(b);
                }
            }
            Stmt::FunctionDef(def) => {
                self.eval_function_header(def);
                self.bind_name(def.name.id.as_str(), Value::Unknown);
                let class = self.current_class_body();
                let is_method = class.is_some();
                let class = class.or_else(|| self.class_stack.last().cloned());
                self.deferred
                    .last_mut()
                    .expect("deferred level")
                    .push(Deferred {
                        def,
                        class,
                        is_method,
                    });
            }
            Stmt::ClassDef(class) => self.exec_class(class),
            Stmt::Assign(assign) => {
                let value = self.eval(&assign.value);
                let value = aliased(&assign.value, value);
                for target in &assign.targets {
                    self.bind_target(target, value.clone());
                }
            }
            Stmt::AugAssign(aug) => {
                let rhs = self.eval(&aug.value);
                let lhs = self.eval(&aug.target);
                if lhs == Value::Tensor || rhs == Value::Tensor {
                    // In place on a tensor target (`x += y` is `x.add_(y)`).
                    let (symbol, operator) = infix::binary(aug.op);
                    let in_place = infix::in_place(operator);
                    let gap = (aug.target.end(), aug.value.start());
                    let op = in_place.as_deref().unwrap_or(operator);
                    self.record_operator(gap, symbol, op, Resolution::TensorMethod);
                }
                if let Expr::Name(name) = &*aug.target {
                    let v = if lhs == Value::Tensor || rhs == Value::Tensor {
                        Value::Tensor
                    } else {
                        Value::Unknown
                    };
                    self.bind_name(name.id.as_str(), v);
                }
            }
            Stmt::AnnAssign(ann) => {
                let value = match &ann.value {
                    Some(v) => {
                        let value = self.eval(v);
                        aliased(v, value)
                    }
                    None if self.is_tensor_annotation(&ann.annotation) => Value::Tensor,
                    None => return,
                };
                self.bind_target(&ann.target, value);
            }
            Stmt::For(for_) => {
                let iter = self.eval(&for_.iter);
                self.bind_target(&for_.target, element_of(&iter));
                self.exec_body(&for_.body);
                self.exec_body(&for_.orelse);
            }
            Stmt::With(with) => {
                for item in &with.items {
                    self.eval(&item.context_expr);
                    if let Some(vars) = &item.optional_vars {
                        self.bind_target(vars, Value::Unknown);
                    }
                }
                self.exec_body(&with.body);
            }
            Stmt::Try(try_) => {
                self.exec_body(&try_.body);
                for handler in &try_.handlers {
                    let ruff_python_ast::ExceptHandler::ExceptHandler(h) = handler;
                    if let Some(t) = &h.type_ {
                        self.eval(t);
                    }
                    if let Some(name) = &h.name {
                        self.bind_name(name.id.as_str(), Value::NotTensor);
                    }
                    self.exec_body(&h.body);
                }
                self.exec_body(&try_.orelse);
                self.exec_body(&try_.finalbody);
            }
            _ => walk_stmt(self, stmt),
        }
    }

    /// Decorators, defaults and annotations run where the function is defined.
    fn eval_function_header(&mut self, def: &'a StmtFunctionDef) {
        for d in &def.decorator_list {
            self.eval(&d.expression);
        }
        for p in def.parameters.iter_non_variadic_params() {
            if let Some(default) = &p.default {
                self.eval(default);
            }
        }
    }

    /// The class whose body is being executed right now (its methods are being defined).
    fn current_class_body(&self) -> Option<Rc<str>> {
        let top = self.frames.last()?;
        if top.is_class {
            self.class_stack.last().cloned()
        } else {
            None
        }
    }

    fn exec_class(&mut self, class: &'a StmtClassDef) {
        for d in &class.decorator_list {
            self.eval(&d.expression);
        }
        let name: Rc<str> = Rc::from(class.name.id.as_str());
        let mut bases = Vec::new();
        if let Some(args) = &class.arguments {
            for base in args.args.iter() {
                if let Value::UserClass(b) = self.eval(base) {
                    bases.push(b);
                }
            }
            for kw in args.keywords.iter() {
                self.eval(&kw.value);
            }
        }
        self.classes.entry(name.clone()).or_default().bases = bases;
        self.bind_name(&name, Value::UserClass(name.clone()));
        self.class_stack.push(name.clone());
        self.frames.push(Frame {
            names: HashMap::default(),
            is_class: true,
        });
        self.exec_body(&class.body);
        let frame = self.frames.pop().expect("class frame");
        self.class_stack.pop();
        // Class attributes (`act = nn.ReLU()`) are reachable as `self.act`.
        let info = self.classes.entry(name).or_default();
        for (k, v) in frame.names {
            info.attrs.entry(k).or_insert(v);
        }
    }

    fn run_deferred(&mut self) {
        let mut pending = self.deferred.pop().unwrap_or_default();
        self.deferred.push(Vec::new());
        // `__init__` first: it defines the `self.*` modules the other methods apply.
        pending.sort_by_key(|d| d.def.name.id.as_str() != "__init__");
        for item in pending {
            self.run_function(item);
        }
    }

    fn run_function(&mut self, item: Deferred<'a>) {
        let def = item.def;
        let saved_classes = std::mem::take(&mut self.class_stack);
        if let Some(c) = &item.class {
            self.class_stack.push(c.clone());
        }
        self.func_stack.push(Rc::from(def.name.id.as_str()));
        self.frames.push(Frame {
            names: HashMap::default(),
            is_class: false,
        });
        let self_value = match (&item.class, item.is_method) {
            (Some(c), true) if !self.has_decorator(def, "staticmethod") => {
                if self.has_decorator(def, "classmethod") {
                    Some(Value::UserClass(c.clone()))
                } else {
                    Some(Value::SelfOf(c.clone()))
                }
            }
            _ => None,
        };
        self.bind_parameters(&def.parameters, self_value);
        self.deferred.push(Vec::new());
        self.exec_body(&def.body);
        self.run_deferred();
        self.deferred.pop();
        self.frames.pop();
        self.func_stack.pop();
        self.class_stack = saved_classes;
    }

    fn has_decorator(&self, def: &StmtFunctionDef, name: &str) -> bool {
        def.decorator_list
            .iter()
            .any(|d| matches!(&d.expression, Expr::Name(n) if n.id.as_str() == name))
    }

    fn bind_parameters(&mut self, params: &'a Parameters, self_value: Option<Value>) {
        let mut first = self_value;
        for p in params.iter_non_variadic_params() {
            let v = match first.take() {
                Some(v) => v,
                None => match &p.parameter.annotation {
                    Some(a) if self.is_tensor_annotation(a) => Value::Tensor,
                    _ => Value::Unknown,
                },
            };
            self.bind_name(p.parameter.name.id.as_str(), v);
        }
        for p in params.vararg.iter().chain(params.kwarg.iter()) {
            self.bind_name(p.name.id.as_str(), Value::Unknown);
        }
    }

    /// `Tensor`, `torch.Tensor`, `Optional[Tensor]`, `Float[Tensor, "b c"]`, `"torch.Tensor"`.
    fn is_tensor_annotation(&self, expr: &Expr) -> bool {
        match expr {
            Expr::Name(_) | Expr::Attribute(_) => matches!(
                self.static_value(expr),
                Value::Api {
                    name: "torch.Tensor" | "torch.nn.Parameter",
                    ..
                }
            ),
            Expr::Subscript(s) => match &*s.slice {
                Expr::Tuple(t) => t.elts.first().is_some_and(|e| self.is_tensor_annotation(e)),
                inner => self.is_tensor_annotation(inner),
            },
            Expr::BinOp(b) => {
                self.is_tensor_annotation(&b.left) || self.is_tensor_annotation(&b.right)
            }
            Expr::StringLiteral(s) => {
                matches!(s.value.to_str(), "Tensor" | "torch.Tensor")
            }
            _ => false,
        }
    }

    /// The value of a name or attribute chain, without evaluating (or recording) anything.
    fn static_value(&self, expr: &Expr) -> Value {
        match expr {
            Expr::Name(n) => self.lookup(n.id.as_str()),
            Expr::Attribute(a) => match self.static_value(&a.value) {
                Value::Namespace { path, via } if is_torch_path(&path) => {
                    torch_path_value(&format!("{path}.{}", a.attr.id), via)
                }
                _ => Value::Unknown,
            },
            _ => Value::Unknown,
        }
    }

    fn bind_target(&mut self, target: &'a Expr, value: Value) {
        match target {
            Expr::Name(n) => self.bind_name(n.id.as_str(), value),
            Expr::Tuple(t) => self.bind_elements(&t.elts, &value),
            Expr::List(l) => self.bind_elements(&l.elts, &value),
            Expr::Starred(s) => {
                let v = if value == Value::TensorSeq {
                    Value::TensorSeq
                } else {
                    Value::Unknown
                };
                self.bind_target(&s.value, v);
            }
            Expr::Attribute(a) => {
                if let Expr::Name(owner) = &*a.value {
                    if let Value::SelfOf(class) = self.lookup(owner.id.as_str()) {
                        self.set_class_attr(&class, a.attr.id.as_str(), value);
                        return;
                    }
                }
                self.eval(&a.value);
            }
            // `x[i] = v` on a tensor writes into it.
            Expr::Subscript(s) => {
                let v = self.eval(&s.value);
                self.eval(&s.slice);
                if v == Value::Tensor {
                    let gap = (s.value.end(), s.slice.start());
                    let op = "torch.Tensor.__setitem__";
                    self.record_operator(gap, "[", op, Resolution::TensorMethod);
                }
            }
            other => {
                self.eval(other);
            }
        }
    }

    fn bind_elements(&mut self, elts: &'a [Expr], value: &Value) {
        let element = element_of(value);
        for e in elts {
            self.bind_target(e, element.clone());
        }
    }

    // ---- expressions -----------------------------------------------------------------

    fn eval(&mut self, expr: &'a Expr) -> Value {
        grow(|| self.eval_inner(expr))
    }

    fn eval_inner(&mut self, expr: &'a Expr) -> Value {
        match expr {
            Expr::Name(n) => self.lookup(n.id.as_str()),
            Expr::Attribute(a) => {
                let owner = self.eval(&a.value);
                self.attribute(owner, &a.attr)
            }
            Expr::Call(call) => self.eval_call(call),
            Expr::NoneLiteral(_) => Value::NoneValue,
            Expr::StringLiteral(_)
            | Expr::BytesLiteral(_)
            | Expr::NumberLiteral(_)
            | Expr::BooleanLiteral(_)
            | Expr::EllipsisLiteral(_) => Value::NotTensor,
            Expr::FString(_) | Expr::List(_) | Expr::Dict(_) | Expr::Set(_) => {
                walk_expr(self, expr);
                Value::NotTensor
            }
            Expr::BinOp(b) => {
                let l = self.eval(&b.left);
                let r = self.eval(&b.right);
                let (symbol, operator) = infix::binary(b.op);
                let gap = (b.left.end(), b.right.start());
                if l == Value::Tensor || r == Value::Tensor {
                    self.record_operator(gap, symbol, operator, Resolution::TensorMethod);
                    Value::Tensor
                } else {
                    // `@` multiplies matrices: on unknown operands, a guess like a Tensor
                    // method name (only kept in files that import torch).
                    if b.op == ruff_python_ast::Operator::MatMult
                        && l == Value::Unknown
                        && r == Value::Unknown
                    {
                        self.record_operator(gap, symbol, operator, Resolution::MethodName);
                    }
                    Value::Unknown
                }
            }
            Expr::UnaryOp(u) => match (self.eval(&u.operand), infix::unary(u.op)) {
                (Value::Tensor, Some((symbol, operator))) => {
                    let gap = (u.start(), u.operand.start());
                    self.record_operator(gap, symbol, operator, Resolution::TensorMethod);
                    Value::Tensor
                }
                _ => Value::Unknown,
            },
            Expr::Compare(c) => {
                let mut left = self.eval(&c.left);
                let mut left_end = c.left.end();
                for (op, right) in c.ops.iter().zip(c.comparators.iter()) {
                    let r = self.eval(right);
                    if let (Some((symbol, operator)), true) = (
                        infix::compare(*op),
                        left == Value::Tensor || r == Value::Tensor,
                    ) {
                        let gap = (left_end, right.start());
                        self.record_operator(gap, symbol, operator, Resolution::TensorMethod);
                    }
                    left = r;
                    left_end = right.end();
                }
                Value::Unknown
            }
            Expr::Subscript(s) => {
                let v = self.eval(&s.value);
                self.eval(&s.slice);
                match v {
                    Value::Tensor => {
                        let gap = (s.value.end(), s.slice.start());
                        let op = "torch.Tensor.__getitem__";
                        self.record_operator(gap, "[", op, Resolution::TensorMethod);
                        Value::Tensor
                    }
                    Value::TensorSeq => Value::Tensor,
                    _ => Value::Unknown,
                }
            }
            Expr::If(i) => {
                self.eval(&i.test);
                let a = self.eval(&i.body);
                let b = self.eval(&i.orelse);
                a.join(b)
            }
            Expr::Named(n) => {
                let v = self.eval(&n.value);
                self.bind_target(&n.target, v.clone());
                v
            }
            Expr::Tuple(t) => {
                let mut all_tensors = !t.elts.is_empty();
                for e in &t.elts {
                    all_tensors &= self.eval(e) == Value::Tensor;
                }
                if all_tensors {
                    Value::TensorSeq
                } else {
                    Value::Unknown
                }
            }
            Expr::Lambda(l) => {
                self.frames.push(Frame {
                    names: HashMap::default(),
                    is_class: false,
                });
                if let Some(params) = &l.parameters {
                    for p in params.iter_non_variadic_params() {
                        if let Some(d) = &p.default {
                            self.eval(d);
                        }
                    }
                    self.bind_parameters(params, None);
                }
                self.eval(&l.body);
                self.frames.pop();
                Value::Unknown
            }
            Expr::ListComp(c) => {
                self.comprehension(&c.generators, &[&c.elt]);
                Value::NotTensor
            }
            Expr::SetComp(c) => {
                self.comprehension(&c.generators, &[&c.elt]);
                Value::NotTensor
            }
            Expr::DictComp(c) => {
                match &c.key {
                    Some(key) => self.comprehension(&c.generators, &[key, &c.value]),
                    None => self.comprehension(&c.generators, &[&c.value]),
                }
                Value::NotTensor
            }
            Expr::Generator(g) => {
                self.comprehension(&g.generators, &[&g.elt]);
                Value::Unknown
            }
            Expr::Starred(s) => self.eval(&s.value),
            _ => {
                walk_expr(self, expr);
                Value::Unknown
            }
        }
    }

    fn comprehension(&mut self, generators: &'a [Comprehension], elts: &[&'a Expr]) {
        self.frames.push(Frame {
            names: HashMap::default(),
            is_class: false,
        });
        for g in generators {
            let iter = self.eval(&g.iter);
            self.bind_target(&g.target, element_of(&iter));
            for cond in &g.ifs {
                self.eval(cond);
            }
        }
        for e in elts {
            self.eval(e);
        }
        self.frames.pop();
    }

    /// `owner.attr` read, not called.
    fn attribute(&mut self, owner: Value, attr: &Identifier) -> Value {
        let attr = attr.id.as_str();
        match owner {
            Value::Namespace { path, via } => {
                let q = format!("{path}.{attr}");
                if is_torch_path(&path) {
                    torch_path_value(&q, via)
                } else {
                    Value::Namespace {
                        path: Rc::from(q),
                        via,
                    }
                }
            }
            Value::Tensor => tensor_attribute(attr),
            Value::SelfOf(class) => self.class_attr(&class, attr),
            Value::ModuleInstance { .. } => match attr {
                "weight" | "bias" => Value::Tensor,
                _ => Value::Unknown,
            },
            Value::NotTensor => Value::NotTensor,
            _ => Value::Unknown,
        }
    }

    fn eval_call(&mut self, call: &'a ExprCall) -> Value {
        let result = match &*call.func {
            Expr::Attribute(a) => {
                let owner = self.eval(&a.value);
                self.call_attribute(owner, &a.attr)
            }
            Expr::Name(n) => {
                let v = self.lookup(n.id.as_str());
                self.call_value(v, n.range.start())
            }
            other => {
                let v = self.eval(other);
                self.call_value(v, other.start())
            }
        };
        for arg in call.arguments.args.iter() {
            self.eval(arg);
        }
        for kw in call.arguments.keywords.iter() {
            self.eval(&kw.value);
        }
        result
    }

    fn call_value(&mut self, callee: Value, at: TextSize) -> Value {
        match callee {
            Value::Api { name, kind, via } => {
                let call_kind = if kind == ApiKind::Function {
                    CallKind::Call
                } else {
                    CallKind::Construct
                };
                self.record(at, name, call_kind, resolution_of(via));
                api_call_result(name, kind, via)
            }
            Value::ModuleInstance { class, via } => {
                self.record(at, class, CallKind::Apply, resolution_of(via));
                module_apply_result(class)
            }
            Value::Builtin(name) => builtin_call_result(&name),
            _ => Value::Unknown,
        }
    }

    fn call_attribute(&mut self, owner: Value, attr: &Identifier) -> Value {
        let at = attr.range.start();
        let name = attr.id.as_str();
        match owner {
            Value::Namespace { path, via } => {
                let q = format!("{path}.{name}");
                if is_torch_path(&path) {
                    let v = torch_path_value(&q, via);
                    self.call_value(v, at)
                } else {
                    foreign_call_result(&q)
                }
            }
            Value::Api {
                name: "torch.Tensor",
                via,
                ..
            } if self.api.tensor_method(name).is_some() => {
                let op = format!("torch.Tensor.{name}");
                self.record(at, &op, CallKind::Call, resolution_of(via));
                method_call_result(name)
            }
            Value::Tensor => {
                if self.api.tensor_method(name).is_some() {
                    let op = format!("torch.Tensor.{name}");
                    self.record(at, &op, CallKind::Method, Resolution::TensorMethod);
                    method_call_result(name)
                } else {
                    Value::Unknown
                }
            }
            Value::SelfOf(class) => match self.class_attr(&class, name) {
                Value::ModuleInstance { class, .. } => {
                    self.record(at, class, CallKind::Apply, Resolution::ModuleAttribute);
                    module_apply_result(class)
                }
                Value::Api {
                    name: api,
                    kind: ApiKind::Function,
                    ..
                } => {
                    self.record(at, api, CallKind::Call, Resolution::ModuleAttribute);
                    api_call_result(api, ApiKind::Function, Via::Alias)
                }
                _ => Value::Unknown,
            },
            Value::ModuleInstance { class, via } => match name {
                "forward" => {
                    self.record(at, class, CallKind::Apply, resolution_of(via));
                    module_apply_result(class)
                }
                "to" | "cuda" | "cpu" | "train" | "eval" | "half" | "float" | "double"
                | "bfloat16" | "requires_grad_" => Value::ModuleInstance { class, via },
                _ => Value::Unknown,
            },
            Value::Unknown => match self.api.tensor_method(name) {
                Some(MethodSharing::Plain) => {
                    let op = format!("torch.Tensor.{name}");
                    self.record(at, &op, CallKind::Method, Resolution::MethodName);
                    Value::Unknown
                }
                _ => Value::Unknown,
            },
            Value::NotTensor => Value::NotTensor,
            _ => Value::Unknown,
        }
    }
}

impl<'a> Visitor<'a> for Resolver<'a> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        self.exec(stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        self.eval(expr);
    }
}

/// The torch operators Python's operators call on tensors.
mod infix {
    use ruff_python_ast::{CmpOp, Operator, UnaryOp};

    /// A binary operator's symbol and the torch function it calls (`a @ b` is
    /// `torch.matmul(a, b)`).
    pub fn binary(op: Operator) -> (&'static str, &'static str) {
        match op {
            Operator::Add => ("+", "torch.add"),
            Operator::Sub => ("-", "torch.sub"),
            Operator::Mult => ("*", "torch.mul"),
            Operator::MatMult => ("@", "torch.matmul"),
            Operator::Div => ("/", "torch.div"),
            Operator::Mod => ("%", "torch.remainder"),
            Operator::Pow => ("**", "torch.pow"),
            Operator::LShift => ("<<", "torch.bitwise_left_shift"),
            Operator::RShift => (">>", "torch.bitwise_right_shift"),
            Operator::BitOr => ("|", "torch.bitwise_or"),
            Operator::BitXor => ("^", "torch.bitwise_xor"),
            Operator::BitAnd => ("&", "torch.bitwise_and"),
            Operator::FloorDiv => ("//", "torch.floor_divide"),
        }
    }

    /// `-x`, `~x`, `+x`; `not x` is Python's truth test, no operator.
    pub fn unary(op: UnaryOp) -> Option<(&'static str, &'static str)> {
        match op {
            UnaryOp::USub => Some(("-", "torch.neg")),
            UnaryOp::Invert => Some(("~", "torch.bitwise_not")),
            UnaryOp::UAdd => Some(("+", "torch.positive")),
            UnaryOp::Not => None,
        }
    }

    /// Comparisons; `is`, `in` are Python's, no operator.
    pub fn compare(op: CmpOp) -> Option<(&'static str, &'static str)> {
        match op {
            CmpOp::Eq => Some(("==", "torch.eq")),
            CmpOp::NotEq => Some(("!=", "torch.ne")),
            CmpOp::Lt => Some(("<", "torch.lt")),
            CmpOp::LtE => Some(("<=", "torch.le")),
            CmpOp::Gt => Some((">", "torch.gt")),
            CmpOp::GtE => Some((">=", "torch.ge")),
            CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn => None,
        }
    }

    /// The in-place Tensor method an augmented assignment calls (`x += y` is `x.add_(y)`);
    /// `@=` has none (Python computes `x = x @ y`).
    pub fn in_place(operator: &str) -> Option<String> {
        let name = operator.strip_prefix("torch.")?;
        (name != "matmul").then(|| format!("torch.Tensor.{name}_"))
    }
}

#[cfg(test)]
#[path = "precise_tests.rs"]
mod tests;
