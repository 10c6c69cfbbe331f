//! Calls: torch functions and modules through the operator catalogue, user functions and
//! classes (run in their calling context, bounded depth), module containers, builtins.

use std::cell::RefCell;
use std::rc::Rc;

use ruff_python_ast::{Expr, ExprCall, Stmt, StmtClassDef, StmtFunctionDef};
use ruff_text_size::{Ranged, TextRange};

use super::interp::{ActiveCall, Interp, MAX_DEPTH};
use super::passed;

/// Statements a call made by a loading module's top level may run (see `run_user`).
const LOAD_CALL_STEPS: usize = 2_000;
/// Statements a call from the analysed file into another module may run.
const IMPORTED_CALL_STEPS: usize = 5_000;
use super::methods::{
    constant_key, dict_mutation, grow, list_pop, mapping_method, set_key, str_method,
    str_result_by_kind,
};
use super::sequences::tensor_to_python;
pub use super::sequences::{element_of, iterate};
use super::value::{ContainerKind, Object, TorchModule, TORCH_BASE_ATTR, V};
use crate::catalogue::{apply_noting_reads, lookup, Failure, RuleError, RuleKind};
use crate::operators::api::ApiKind;
use crate::shapes::kind::Declared;
use crate::shapes::{DimExpr, Value};

/// `SHAPEHOUND_DEBUG=1` prints what the catalogue could not answer (read once: it is asked
/// on hot paths).
pub(crate) fn debug_misses() -> bool {
    static DEBUG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *DEBUG.get_or_init(|| std::env::var_os("SHAPEHOUND_DEBUG").is_some())
}

/// Dims larger than this (in expression nodes) are replaced by fresh symbols.
const MAX_EXPR_SIZE: usize = 48;

/// `nn.Module` methods that return the module itself.
pub const MODULE_SELF_METHODS: &[&str] = &[
    "to",
    "cuda",
    "cpu",
    "train",
    "eval",
    "float",
    "double",
    "half",
    "bfloat16",
    "requires_grad_",
    "apply",
    "type",
];

impl<'a> Interp<'a> {
    pub fn eval_call(&mut self, c: &'a ExprCall) -> V<'a> {
        if let Some(rounded) = self.rounded_quotient(c) {
            return rounded;
        }
        // `xs.append(v)` on a name or attribute rebinds it (lists are values here).
        if let Expr::Attribute(a) = &*c.func {
            let method = a.attr.id.as_str();
            // `obj.__dict__.update(cfg)`: the keys of a known dict become attributes; what
            // else writes there (`setdefault`, `pop`, a dict not known) may replace any.
            if let Some(owner) = super::assign::instance_dict_owner(&a.value) {
                if matches!(
                    method,
                    "update" | "setdefault" | "pop" | "clear" | "__setitem__"
                ) {
                    let owner = self.eval(owner);
                    let (args, kwargs) = self.eval_args(c);
                    let known = match (method, args.as_slice()) {
                        ("update", [V::Dict(items)]) => Some(items.to_vec()),
                        ("update", []) => Some(Vec::new()),
                        _ => None,
                    };
                    match known {
                        Some(items) if kwargs.iter().all(|(k, _)| k != "**") => {
                            for (k, v) in items.into_iter().chain(kwargs) {
                                self.set_attr(&owner, &k, v);
                            }
                        }
                        _ => self.forget_data_attrs(&owner),
                    }
                    return V::none();
                }
            }
            // Dicts are values too: `d.pop(k)` returns the item and rebinds `d`.
            if matches!(method, "pop" | "setdefault" | "update")
                && matches!(&*a.value, Expr::Name(_) | Expr::Attribute(_))
            {
                match self.eval(&a.value) {
                    V::Dict(items) => {
                        let (args, kwargs) = self.eval_args(c);
                        let (result, updated) = dict_mutation(&items, method, args, kwargs);
                        self.rebind_changed(&a.value, updated);
                        return result;
                    }
                    V::List(items) if method == "pop" => {
                        let (args, _) = self.eval_args(c);
                        let (result, updated) = list_pop(&items, &args);
                        self.rebind_changed(&a.value, updated);
                        return result;
                    }
                    _ => {}
                }
            }
            // `dims.reverse()`, `dims.sort()` reorder the list in place.
            if matches!(method, "reverse" | "sort")
                && matches!(&*a.value, Expr::Name(_) | Expr::Attribute(_))
            {
                if let V::List(items) = self.eval(&a.value) {
                    let reordered = if method == "reverse" && c.arguments.is_empty() {
                        V::list(Rc::unwrap_or_clone(items).into_iter().rev().collect())
                    } else if method == "sort" && c.arguments.args.is_empty() {
                        let (_, kwargs) = self.eval_args(c);
                        match super::builtins::sort_order(&kwargs) {
                            Some(reverse) => self.sorted_values(&items, reverse),
                            None => V::Unknown,
                        }
                    } else {
                        V::Unknown
                    };
                    self.rebind_changed(&a.value, reordered);
                    return V::none();
                }
            }
            if matches!(
                method,
                "append"
                    | "extend"
                    | "insert"
                    | "add_module"
                    | "register_module"
                    | "register_buffer"
                    | "register_parameter"
                    | "__setattr__"
            ) {
                let recv = self.eval(&a.value);
                let (args, _) = self.eval_args(c);
                // `self.__setattr__(name, layer)` registers a child as `add_module` does (in
                // order, in a container); any other value is a plain attribute.
                let method = match (method, args.get(1)) {
                    ("__setattr__", Some(v)) if v.is_layer() => "add_module",
                    ("__setattr__", _) => "register_buffer",
                    _ => method,
                };
                if let V::Object(_) = &recv {
                    // An object is shared, not a value: it grows in place.
                    match (recv.container(), method, args.as_slice()) {
                        (
                            _,
                            "register_buffer" | "register_parameter",
                            [V::Data(Value::Str(Some(name))), t, ..],
                        ) => {
                            self.set_attr(&recv, name, t.clone());
                        }
                        (Some(mut c), _, _) => {
                            let updated = if grow(&mut c, method, args) {
                                c
                            } else {
                                V::Unknown
                            };
                            self.set_attr(&recv, TORCH_BASE_ATTR, updated);
                        }
                        // `nn.Module.add_module(name, m)` registers an attribute.
                        (
                            None,
                            "add_module" | "register_module",
                            [V::Data(Value::Str(Some(name))), m],
                        ) => {
                            self.set_attr(&recv, name, m.clone());
                        }
                        // Under a name not known: a child the analysis cannot name.
                        (None, "add_module" | "register_module", _) => {
                            self.set_attr(&recv, super::value::UNNAMED_ATTR, V::Unknown);
                        }
                        _ => {}
                    }
                    return V::none();
                }
                let mut recv = recv;
                // Held by its name and `recv`, and by other names too (`aliases.rs`)?
                let aliased = match &*a.value {
                    Expr::Name(n) if super::aliases::held_elsewhere(&recv, 2) => {
                        Some((n.id.as_str(), recv.clone()))
                    }
                    _ => None,
                };
                // A local list gives up its binding while it grows, so that its items, no
                // longer shared, grow in place; it is bound again either way.
                let local = match (&*a.value, &recv) {
                    (Expr::Name(n), V::List(_)) => self.release_local(n.id.as_str()),
                    _ => false,
                };
                if grow(&mut recv, method, args) || local {
                    if let Some((name, old)) = aliased {
                        self.update_aliases(name, &old, &recv);
                    }
                    self.rebind_changed(&a.value, recv);
                }
                return V::none();
            }
            if method == "__init__" {
                if let Expr::Call(inner) = &*a.value {
                    if matches!(&*inner.func, Expr::Name(n) if n.id.as_str() == "super") {
                        let (args, kwargs) = self.eval_args(c);
                        return self.call_super_method("__init__", args, kwargs, c.range());
                    }
                }
            }
        }
        if let Expr::Name(n) = &*c.func {
            if n.id.as_str() == "super" && self.lookup("super").is_builtin() {
                return match self.run.class_ctx.last() {
                    Some((class, this)) => V::Super(class, Box::new(this.clone())),
                    None => V::Unknown,
                };
            }
        }
        let func = self.eval(&c.func);
        let (args, kwargs) = self.eval_args(c);
        // `x.squeeze_(1)` changes `x`'s shape in place: `x` is rebound to what
        // `x.squeeze(1)` gives.
        if let (Expr::Attribute(a), V::Bound(recv, method)) = (&*c.func, &func) {
            let out_of_place = method
                .strip_suffix('_')
                .filter(|m| RESHAPING_IN_PLACE.contains(m));
            if let (Some(m), true) = (out_of_place, recv.is_tensor()) {
                let bound = V::Bound(recv.clone(), m.into());
                let out = self.call(bound, args, kwargs, c.range());
                self.assign(&a.value, out.clone());
                return out;
            }
        }
        if self.applied.is_some() {
            self.callee_at = Some(match &*c.func {
                Expr::Attribute(a) => a.attr.range.start(),
                other => other.range().start(),
            });
        }
        // Lists and dicts are values here, but Python passes them by reference: what the
        // callee changes in place the caller's name sees (`passed.rs`).
        let positional = c
            .arguments
            .args
            .iter()
            .take_while(|e| !matches!(e, Expr::Starred(_)))
            .zip(args.iter())
            .enumerate()
            .map(|(i, (e, v))| (Some(i), e, v));
        let keywords = c.arguments.keywords.iter().filter_map(|k| {
            let name = k.arg.as_ref()?;
            let v = kwargs.iter().find(|(n, _)| n == name.id.as_str())?;
            Some((None, &k.value, &v.1))
        });
        let passed: Vec<(Option<usize>, &'a Expr, V<'a>)> = positional
            .chain(keywords)
            .filter(|(_, e, v)| matches!(e, Expr::Name(_)) && passed::changeable(v))
            .map(|(i, e, v)| (i, e, v.clone()))
            .collect();
        // Without word from the callee: the positions a function of the file mutates;
        // numpy shuffles in place (`np.random.shuffle(a)`, `rng.shuffle(a)`); an unknown
        // callee may write into an array.
        let mutated: Vec<usize> = match &func {
            V::Func(def) if !passed.is_empty() => {
                let changed = passed::mutated_params(def);
                let p = &def.parameters;
                p.posonlyargs
                    .iter()
                    .chain(p.args.iter())
                    .enumerate()
                    .filter(|(_, a)| changed.contains(&a.parameter.name.id.as_str()))
                    .map(|(i, _)| i)
                    .collect()
            }
            V::Builtin("numpy.random.shuffle") => vec![0],
            V::Unknown => passed
                .iter()
                .filter(|(_, _, v)| matches!(v, V::Array(_)))
                .filter_map(|(i, _, _)| *i)
                .collect(),
            _ => Vec::new(),
        };
        if !passed.is_empty() {
            self.run.finished = None;
            self.run.watch_call = true;
        }
        let out = self.call(func, args, kwargs, c.range());
        self.callee_at = None;
        self.run.watch_call = false;
        let finished = self.run.finished.take();
        for (i, arg, before) in passed {
            let after = finished.as_ref().and_then(|f| f.after(&before));
            match after {
                Some(passed::After::Unchanged) => {}
                Some(passed::After::Known(v)) => self.assign(arg, v),
                Some(passed::After::Changed) => self.assign(arg, passed::forgotten(&before)),
                None if i.is_some_and(|i| mutated.contains(&i)) => {
                    self.assign(arg, passed::forgotten(&before))
                }
                None => {}
            }
        }
        out
    }

    pub(super) fn eval_args(&mut self, c: &'a ExprCall) -> (Vec<V<'a>>, Vec<(String, V<'a>)>) {
        let mut args = Vec::new();
        let mut unknown_length = false;
        for e in c.arguments.args.iter() {
            if let Expr::Starred(s) = e {
                let v = self.eval(&s.value);
                match iterate(&v) {
                    Some(items) => args.extend(items),
                    // Of unknown length: which parameters it fills is unknown.
                    None => {
                        args.push(V::Unknown);
                        unknown_length = true;
                    }
                }
            } else {
                args.push(self.eval(e));
            }
        }
        let mut kwargs = Vec::new();
        for k in c.arguments.keywords.iter() {
            let v = self.eval(&k.value);
            match &k.arg {
                Some(name) => kwargs.push((name.id.to_string(), v)),
                None => {
                    if let V::Dict(items) = v {
                        kwargs.extend(items.iter().cloned());
                    } else {
                        kwargs.push(("**".to_string(), V::Unknown));
                    }
                }
            }
        }
        if unknown_length && !kwargs.iter().any(|(k, _)| k == "**") {
            // Spread like an unknown mapping: no argument binds for certain.
            kwargs.push(("**".to_string(), V::Unknown));
        }
        (args, kwargs)
    }

    /// `math.ceil(a / b)` and `math.floor(a / b)` of ints: exact (`-(-a // b)`, `a // b`),
    /// where the quotient alone would be a float of no known value (a patch grid's side,
    /// padding to a multiple).
    fn rounded_quotient(&mut self, c: &'a ExprCall) -> Option<V<'a>> {
        let ([Expr::BinOp(q)], []) = (&c.arguments.args[..], &c.arguments.keywords[..]) else {
            return None;
        };
        if q.op != ruff_python_ast::Operator::Div {
            return None;
        }
        let name = match self.eval(&c.func) {
            V::Builtin(name @ ("math.ceil" | "math.floor")) => name,
            _ => return None,
        };
        let (a, b) = (self.eval(&q.left), self.eval(&q.right));
        if let (Some(x), Some(y)) = (super::expr::int_of(&a), super::expr::int_of(&b)) {
            if y.as_const().is_none_or(|k| k != 0)
                && (x.as_const().is_none() || y.as_const().is_none())
            {
                let rounded = match name {
                    "math.floor" => x.floordiv(&y),
                    _ => x.neg().floordiv(&y).neg(),
                };
                return Some(V::Data(crate::shapes::Value::Int(rounded)));
            }
        }
        let quotient = self.binop(a, q.op, b, q.range, false);
        Some(super::builtins::call_math(name, &[quotient]))
    }

    pub fn call(
        &mut self,
        func: V<'a>,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        if !matches!(
            func,
            V::Torch(_) | V::Module(_) | V::Bound(..) | V::Builtin(_)
        ) {
            // Not a torch operator applied here: what the callee applies has call sites
            // of its own.
            self.callee_at = None;
        }
        match func {
            V::Torch(path) => self.call_torch(&path, args, kwargs, span),
            V::Builtin(name) => self.call_builtin(name, args, kwargs, span),
            V::Func(def) => self.call_user(def, None, args, kwargs, span),
            V::Closure(def, captured) => {
                self.captured = Some(captured);
                self.call_user(def, None, args, kwargs, span)
            }
            V::Lambda(lambda, captured) => self.call_lambda(lambda, captured, args, kwargs),
            V::Partial(p) => {
                let mut all_kwargs = p.kwargs.clone();
                for (k, v) in kwargs {
                    set_key(&mut all_kwargs, k, v);
                }
                let all_args = p.args.iter().cloned().chain(args).collect();
                self.call(p.func.clone(), all_args, all_kwargs, span)
            }
            V::Class(class) => self.instantiate(class, args, kwargs, span),
            V::Object(_) => {
                let base = func.torch_base();
                let forward = self.attribute(func, "forward", span);
                match (forward, base) {
                    (forward @ V::Bound(..), _) => self.call(forward, args, kwargs, span),
                    // A subclass of a torch module without its own forward.
                    (_, Some(b)) => self.call(b, args, kwargs, span),
                    _ => V::Unknown,
                }
            }
            V::Module(m) => match self.rnn_on_packed(&m, &args, &kwargs, span) {
                Some(out) => out,
                None => self.apply_module(&m, args, kwargs, span),
            },
            V::Container(ContainerKind::Sequential, items, _) => {
                let mut x = args.into_iter().next().unwrap_or(V::Unknown);
                for (_, layer) in items.iter() {
                    x = self.call(layer.clone(), vec![x], Vec::new(), span);
                }
                x
            }
            V::Bound(recv, method) => self.call_method(*recv, &method, args, kwargs, span),
            V::Transform(t) if args.len() == 1 && kwargs.is_empty() => {
                let x = args.into_iter().next().unwrap_or(V::Unknown);
                self.apply_transform(&t, x, span)
            }
            V::Either(e) => self.on_each_side(&e, |me, layer| {
                me.call(layer, args.clone(), kwargs.clone(), span)
            }),
            _ => V::Unknown,
        }
    }

    pub(super) fn call_method(
        &mut self,
        recv: V<'a>,
        method: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        if matches!(method, "eval" | "train") && recv.is_layer() {
            self.run.mode_changed = true;
        }
        match &recv {
            V::Object(o) if super::config::is_parser(o.borrow().class) => {
                self.parser_method(o, method, args, kwargs, span)
            }
            V::Path(_) | V::OpenFile(_) => self.data_method(&recv, method, &args),
            V::Object(o) => {
                let class = o.borrow().class;
                match self.class_member(class, method) {
                    Some(V::Func(def)) => {
                        self.call_user(def, Some(recv.clone()), args, kwargs, span)
                    }
                    // `nn.Module` methods that return the module itself.
                    None if MODULE_SELF_METHODS.contains(&method) => recv.clone(),
                    // A method of the torch module the class extends (`self.items()` in an
                    // `nn.ModuleDict` subclass).
                    // `children()` of a module (not a container): its registered layers.
                    None if method == "children"
                        && args.is_empty()
                        && recv.container().is_none() =>
                    {
                        self.children(o)
                    }
                    None if method == "parameters" && self.is_module_class(class) => {
                        Self::parameters_of_layer()
                    }
                    None => match recv.torch_base() {
                        Some(base) => self.call_method(base, method, args, kwargs, span),
                        None => V::Unknown,
                    },
                    _ => V::Unknown,
                }
            }
            V::Super(..) => self.call_super_method(method, args, kwargs, span),
            V::Class(c) => match self.class_member(c, method) {
                Some(V::Func(def)) => self.call_user(def, Some(recv.clone()), args, kwargs, span),
                None if method == "apply" && self.is_autograd_function(c) => {
                    self.apply_autograd_function(c, args, kwargs, span)
                }
                _ => V::Unknown,
            },
            V::Array(t) => self.numpy_method((**t).clone(), method, args, kwargs, span),
            V::Image(img) => self.image_method(img, method, &args, &kwargs),
            V::Data(Value::Tensor(t)) if method == "numpy" => super::numpy::array(t.clone()),
            V::Data(Value::Tensor(t)) if matches!(method, "item" | "tolist") => {
                // Ints drawn from a range (`torch.randint(0, 88, (4,)).tolist()`): each a
                // draw of its own.
                match (tensor_to_python(t, method == "tolist"), t.range()) {
                    (V::Data(Value::IntUnknown), Some(b)) => self.drawn_int(b),
                    (V::List(xs), Some(b)) => V::list(
                        Rc::unwrap_or_clone(xs)
                            .into_iter()
                            .map(|x| match x {
                                V::Data(Value::IntUnknown) => self.drawn_int(b),
                                other => other,
                            })
                            .collect(),
                    ),
                    (v, _) => v,
                }
            }
            V::Data(Value::Tensor(_)) => {
                let mut all = vec![recv];
                all.extend(args);
                let name = format!("torch.Tensor.{method}");
                self.apply_function(&name, all, kwargs, span, &[])
            }
            V::Data(Value::Size(_)) if method == "numel" => {
                self.apply_function("torch.Size.numel", vec![recv], kwargs, span, &[])
            }
            V::Module(m) => match method {
                "forward" => self.apply_module(m, args, kwargs, span),
                "parameters" => Self::parameters_of_layer(),
                m if MODULE_SELF_METHODS.contains(&m) => recv.clone(),
                _ => V::Unknown,
            },
            V::Container(_, items, _) => match method {
                "forward" => self.call(recv.clone(), args, kwargs, span),
                "parameters" => Self::parameters_of_layer(),
                _ => mapping_method(items, method, &args),
            },
            V::Data(Value::Str(Some(text))) => str_method(text, method, &args),
            V::Data(Value::Str(None)) => str_result_by_kind(method),
            V::List(_) | V::Dict(_) if method == "copy" => recv.copied(false),
            V::List(items) if method == "index" => super::methods::list_index(items, &args),
            V::Dict(items) => mapping_method(items, method, &args),
            _ => V::Unknown,
        }
    }

    // ---- torch -------------------------------------------------------------------------

    pub(super) fn call_torch(
        &mut self,
        path: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        // Functions of other libraries with a rule (torchvision's box operations) and
        // static methods of torch classes (`nn.Transformer.generate_square_subsequent_mask`)
        // are outside torch's API table.
        let api = crate::resolve::torch_name(path).or_else(|| {
            crate::catalogue::lookup(path).map(|r| match r.kind {
                RuleKind::Module { .. } => (path, ApiKind::Module),
                RuleKind::Function(_) => (path, ApiKind::Function),
            })
        });
        // Tracing and export run the model on their example inputs.
        if let "torch.jit.trace" | "torch.jit._get_trace_graph" | "torch.onnx.export" = path {
            let model = args.first().cloned().unwrap_or(V::Unknown);
            let example = ["example_inputs", "args"]
                .iter()
                .find_map(|k| kwargs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
                .or_else(|| args.get(1).cloned())
                .unwrap_or(V::Unknown);
            self.run_on_example(model.clone(), vec![example], span);
            // A traced model computes what the model does.
            return if path == "torch.jit.trace" {
                model
            } else {
                V::Unknown
            };
        }
        let utility = api.map_or(path, |(canonical, _)| canonical);
        if let Some(v) = self.torch_utility(utility, &args, &kwargs, span) {
            return v;
        }
        let Some((canonical, kind)) = api else {
            if debug_misses() {
                eprintln!("no torch api {path}");
            }
            return V::Unknown;
        };
        let canonical = canonical.to_string();
        if let Some(V::Items(item)) = args.first() {
            let item = (**item).clone();
            return self.apply_to_items((path, &canonical), item, args, kwargs, span);
        }
        // Converters read an array as the tensor of its shape.
        let args = if is_converter(&canonical) {
            Self::arrays_as_tensors(args)
        } else {
            args
        };
        match canonical.as_str() {
            "torch.nn.utils.rnn.pack_padded_sequence" => {
                return self.pack_padded(&args, &kwargs, span)
            }
            "torch.nn.utils.rnn.pad_packed_sequence" => {
                return self.pad_packed(&args, &kwargs, span)
            }
            "torch.nn.Sequential" => {
                let items = match args.as_slice() {
                    [V::Container(ContainerKind::ModuleDict, items, _)] => (**items).clone(),
                    // `nn.Sequential(OrderedDict([("conv", ...), ...]))`: named children.
                    [V::Dict(items)] => items.to_vec(),
                    _ => args
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| (i.to_string(), v))
                        .collect(),
                };
                return V::Container(ContainerKind::Sequential, Rc::new(items), self.here(span));
            }
            "torch.nn.ModuleList" => {
                let items = match args.first() {
                    Some(v) => match iterate(v) {
                        Some(items) => items,
                        None => return V::Unknown,
                    },
                    None => Vec::new(),
                };
                let items = items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (i.to_string(), v))
                    .collect();
                return V::Container(ContainerKind::ModuleList, Rc::new(items), self.here(span));
            }
            "torch.nn.ModuleDict" => {
                let items = match args.first() {
                    Some(V::Dict(items)) => items.to_vec(),
                    None => Vec::new(),
                    _ => return V::Unknown,
                };
                return V::Container(ContainerKind::ModuleDict, Rc::new(items), self.here(span));
            }
            // The analysis follows eager execution: not scripted, traced or compiled.
            "torch.jit.is_scripting"
            | "torch.jit.is_tracing"
            | "torch.compiler.is_compiling"
            | "torch._dynamo.is_compiling" => return V::Data(Value::Bool(Some(false))),
            "torch.nn.Parameter" | "torch.nn.parameter.Parameter" => {
                return args.into_iter().next().unwrap_or(V::Unknown)
            }
            // The pre-0.4 autograd wrapper: since torch 0.4 it returns its tensor argument.
            "torch.autograd.Variable" => {
                return match args.into_iter().next() {
                    Some(t) if t.is_tensor() => t,
                    _ => V::Unknown,
                }
            }
            "torch.utils.data.TensorDataset" => return self.tensor_dataset(args),
            "torch.utils.data.DataLoader" => return self.data_loader(&args, &kwargs, span),
            "torch.utils.data.random_split" => return self.random_split(&args, &kwargs, span),
            "torch.utils.data.Subset" => return self.subset(&args, &kwargs, span),
            // An array shares its memory with the tensor: the tensor has its shape.
            "torch.from_numpy" => {
                return match args.first() {
                    Some(V::Array(t)) => V::data(Value::Tensor((**t).clone())),
                    _ => V::Unknown,
                }
            }
            "torch.Size" => {
                let dims = args.first().and_then(iterate).and_then(|items| {
                    items
                        .iter()
                        .map(|v| super::expr::int_of(v).map(crate::shapes::Dim::Known))
                        .collect::<Option<Vec<_>>>()
                });
                return dims.map_or(V::Unknown, |d| V::Data(Value::Size(d)));
            }
            _ => {}
        }
        // The catalogue names some functions by the path users write (`F.avg_pool1d` is
        // `torch.avg_pool1d` underneath).
        let (canonical, rule) = match lookup(&canonical) {
            Some(r) => (canonical, Some(r.kind)),
            None => match lookup(path) {
                Some(r) => (path.to_string(), Some(r.kind)),
                None => (canonical, None),
            },
        };
        match (kind, rule) {
            (ApiKind::Module, Some(RuleKind::Module { init, .. })) => {
                match self.run_rule(init, &canonical, &args, &kwargs, span, &[], None) {
                    Some(Value::Module(m)) => V::Module(Rc::new(TorchModule {
                        value: *m,
                        span: self.here(span),
                    })),
                    _ => V::Unknown,
                }
            }
            (_, Some(RuleKind::Function(f))) => {
                let out = self.run_rule(f, &canonical, &args, &kwargs, span, &[], None);
                out.map_or(V::Unknown, V::data)
            }
            (ApiKind::Function, None) if canonical.ends_with('_') => {
                match self.in_place_function(&canonical, &args, &kwargs, span) {
                    Some(v) => v,
                    None => {
                        self.run.trace.unknown_ops += 1;
                        V::Unknown
                    }
                }
            }
            _ => {
                if debug_misses() {
                    eprintln!("no rule for {canonical}");
                }
                self.run.trace.unknown_ops += 1;
                V::Unknown
            }
        }
    }

    /// `torch.stack(xs)`, `torch.cat(xs, dim)` and `torch.tensor(xs)` of a list of unknown
    /// length every item of which is `item`: the operator applied to a list of that one item,
    /// the dim the list's length gives then a fresh size (each item still has to fit the
    /// operator). Any other operator of such a list is unknown.
    fn apply_to_items(
        &mut self,
        (path, canonical): (&str, &str),
        item: V<'a>,
        mut args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let joins = matches!(
            canonical,
            "torch.cat" | "torch.concat" | "torch.concatenate"
        );
        let makes = matches!(canonical, "torch.tensor" | "torch.as_tensor");
        if !(joins || makes || canonical == "torch.stack") {
            return V::Unknown;
        }
        let dim = if makes {
            Some(0)
        } else {
            args.get(1)
                .or_else(|| kwargs.iter().find(|(k, _)| k == "dim").map(|(_, v)| v))
                .map_or(Some(0), |d| {
                    super::expr::int_of(d).and_then(|d| d.as_const())
                })
        };
        args[0] = V::list(vec![item]);
        let out = self.call_torch(path, args, kwargs, span);
        let (Some(dim), V::Data(Value::Tensor(mut t))) = (dim, out) else {
            return V::Unknown;
        };
        let Some(dims) = t.shape.dims() else {
            return V::Unknown;
        };
        let rank = dims.len() as i64;
        let at = if dim < 0 { dim + rank } else { dim };
        if !(0..rank).contains(&at) {
            return V::Unknown;
        }
        let mut dims = dims.to_vec();
        dims[at as usize] = crate::shapes::Dim::Known(self.fresh_dim("len"));
        t.shape = crate::shapes::Shape::Ranked(dims);
        t.elements = None;
        t.uniform = None;
        t.top = None;
        V::Data(Value::Tensor(t))
    }

    /// Applies the function rule named `name` (a catalogue name) to the arguments.
    pub fn apply_function(
        &mut self,
        name: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
        related: &[(TextRange, String)],
    ) -> V<'a> {
        match lookup(name).map(|r| r.kind) {
            Some(RuleKind::Function(f)) => self
                .run_rule(f, name, &args, &kwargs, span, related, None)
                .map_or(V::Unknown, V::data),
            _ => {
                self.run.trace.unknown_ops += 1;
                V::Unknown
            }
        }
    }

    pub(super) fn apply_module(
        &mut self,
        m: &TorchModule,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let class = m.value.class.clone();
        let Some(RuleKind::Module { forward, .. }) = lookup(&class).map(|r| r.kind) else {
            self.run.trace.unknown_ops += 1;
            return V::Unknown;
        };
        let short = class.rsplit('.').next().unwrap_or(&class).to_string();
        let related = vec![(m.span, format!("`{short}` constructed here"))];
        let mut value = m.value.clone();
        if self.run.mode_changed {
            value.params.insert("training".into(), Value::Bool(None));
        }
        self.run_rule(forward, &class, &args, &kwargs, span, &related, Some(value))
            .map_or(V::Unknown, V::data)
    }

    /// Runs one rule: its requirements become obligations at `span`; a definite error is a
    /// failure there, unless an argument was unknown (then the rule may have misread it).
    #[allow(clippy::too_many_arguments)]
    fn run_rule(
        &mut self,
        rule: fn(&mut crate::catalogue::Ctx) -> crate::catalogue::RuleResult,
        name: &str,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
        related: &[(TextRange, String)],
        module: Option<crate::shapes::value::ModuleValue>,
    ) -> Option<Value> {
        // Reported under torch's canonical name, as operator counting names it
        // (`F.conv2d`'s rule is `torch.nn.functional.conv2d`; the operator is `torch.conv2d`).
        // The rule itself reads its own name.
        let torch = crate::resolve::torch_name(name);
        let operator = torch.map_or(name, |(canonical, _)| canonical);
        // Only torch's own operators are counted; the first rule applied for a call is the
        // call's operator.
        if let (Some((canonical, api)), Some(at)) = (torch, self.callee_at.take()) {
            use crate::operators::CallKind;
            let kind = match (api, &module) {
                (_, Some(_)) => CallKind::Apply,
                (ApiKind::Module, None) => CallKind::Construct,
                _ if name.starts_with("torch.Tensor.") => CallKind::Method,
                _ => CallKind::Call,
            };
            if let (None, Some(applied)) = (self.anchor, &mut self.applied) {
                applied.insert(super::interp::Applied {
                    at,
                    operator: canonical,
                    kind,
                });
            }
        }
        let arg_values: Vec<Value> = args.iter().map(V::to_value).collect();
        let kw_values: Vec<(String, Value)> = kwargs
            .iter()
            .map(|(k, v)| (k.clone(), v.to_value()))
            .collect();
        // `f(**unknown)` may bind any parameter: nothing the rule reads is certain.
        let spread = kwargs.iter().any(|(k, _)| k == "**");
        // The argument shapes a finding's message shows, formatted only for a run that
        // records an obligation (formatting every call's shapes was a tenth of a scan).
        let shapes = std::cell::OnceCell::new();
        let shapes = || shapes.get_or_init(|| describe(args)).as_str();
        let kind = crate::catalogue::finding_kind(name);
        self.run.trace.ops += 1;
        // A question the rule cannot settle is answered by the run's next planned decision
        // (see `Interp::decisions`); without one, the unit asks to be run both ways.
        let mut decided = Vec::new();
        let mut inputs = (arg_values, kw_values, module);
        let mut result = loop {
            let (args, kwargs, module) = inputs;
            let planned = self.plan.decisions.get(self.plan.used).copied();
            match (
                apply_noting_reads(rule, name, args, kwargs, module, decided.clone()),
                planned,
            ) {
                (Err(f), Some(answer)) if matches!(f.error, RuleError::Unsupported(_)) => {
                    match *f {
                        Failure {
                            wanted: Some((pred, back)),
                            ..
                        } => {
                            decided.push((pred, answer));
                            self.plan.used += 1;
                            inputs = *back;
                        }
                        f => break Err(Box::new(f)),
                    }
                }
                (other, _) => break other,
            }
        };
        if let Err(f) = &mut result {
            self.plan.split_wanted |= f.wanted.is_some();
            // What the rule required before it stopped still holds (unless it fails for
            // certain: then the failure says more).
            if matches!(f.error, RuleError::Unsupported(_)) || f.read_unknown {
                for r in std::mem::take(&mut f.requirements) {
                    let kind = Declared::resolve(r.kind, kind);
                    self.require(kind, r.pred, r.message, operator, span, related, shapes());
                }
            }
        }
        match result.map_err(|f| (f.error, f.read_unknown)) {
            Ok(outcome) => {
                let outcome = self.name_fresh(outcome);
                for r in outcome.requirements {
                    let kind = Declared::resolve(r.kind, kind);
                    self.require(kind, r.pred, r.message, operator, span, related, shapes());
                }
                for p in outcome.assumptions {
                    let answer = decided.iter().any(|(q, yes)| match yes {
                        true => *q == p,
                        false => matches!(&p, crate::shapes::Pred::Not(n) if **n == *q),
                    });
                    match answer {
                        true => self.take_answer(p, span),
                        false => self.assume(p, span),
                    }
                }
                Some(self.bounded(outcome.value))
            }
            // A type error (a tensor where a size goes, a missing argument) means a value is
            // not what the analysis assumed: the run proves nothing.
            Err((RuleError::Invalid { message, .. }, _)) if is_type_error(&message) => {
                self.violate(|| message.clone());
                None
            }
            // An error is certain unless the rule read something not known before it failed.
            Err((RuleError::Invalid { message, kind: k }, read_unknown))
                if !read_unknown && !spread =>
            {
                self.fail(
                    Declared::resolve(k, kind),
                    message,
                    operator,
                    span,
                    related,
                    shapes(),
                );
                None
            }
            Err((e, _)) => {
                if debug_misses() {
                    eprintln!("rule {name}: {e:?} (line {})", self.position(span).line);
                }
                self.run.trace.unknown_ops += 1;
                None
            }
        }
    }

    /// A value whose dims stay small: an expression past [`MAX_EXPR_SIZE`] nodes (repeated
    /// broadcasting of symbolic dims in a loop nests `max`/`min` without end) becomes a fresh
    /// symbol, which only loses precision. A tensor's dim stays non-negative; an int (a
    /// difference of sizes, `offset = a.size(2) - b.size(2)`) may be negative.
    pub fn bounded(&mut self, v: Value) -> Value {
        let cap = |e: &DimExpr, this: &mut Self| -> DimExpr {
            if e.size() > MAX_EXPR_SIZE {
                this.fresh_dim("dim")
            } else {
                e.clone()
            }
        };
        match v {
            Value::Tensor(mut t) => {
                if let crate::shapes::Shape::Ranked(dims) = &t.shape {
                    if dims
                        .iter()
                        .any(|d| d.expr().is_some_and(|e| e.size() > MAX_EXPR_SIZE))
                    {
                        let dims = dims
                            .iter()
                            .map(|d| match d.expr() {
                                Some(e) => crate::shapes::Dim::Known(cap(e, self)),
                                None => crate::shapes::Dim::Dyn,
                            })
                            .collect();
                        t.shape = crate::shapes::Shape::Ranked(dims);
                    }
                }
                Value::Tensor(t)
            }
            Value::Int(e) if e.size() > MAX_EXPR_SIZE => Value::Int(self.fresh_sym("int")),
            Value::Tuple(items) => {
                Value::Tuple(items.into_iter().map(|x| self.bounded(x)).collect())
            }
            Value::List(items) => Value::List(items.into_iter().map(|x| self.bounded(x)).collect()),
            other => other,
        }
    }

    // ---- user code ---------------------------------------------------------------------

    pub fn call_user(
        &mut self,
        def: &'a StmtFunctionDef,
        this: Option<V<'a>>,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let class = this.as_ref().and_then(V::object_class);
        self.call_user_in(def, class, this, args, kwargs, span)
    }

    /// Runs a user function with its parameters bound (defaults evaluated at the call) in a
    /// fresh frame; its result joins its `return` values.
    pub fn call_user_in(
        &mut self,
        def: &'a StmtFunctionDef,
        class: Option<&'a StmtClassDef>,
        this: Option<V<'a>>,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        // A property is read (`obj.out_channels`, see `read_property`), never called.
        if has_decorator(def, "property") {
            self.captured = None;
            return V::Unknown;
        }
        self.run_user(def, class, this, args, kwargs, span)
    }

    /// Reads a `@property` of an object: its getter runs with the object bound
    /// (`self.num_features = features[-1].out_channels`).
    pub fn read_property(
        &mut self,
        def: &'a StmtFunctionDef,
        obj: V<'a>,
        span: TextRange,
    ) -> V<'a> {
        self.run_user(
            def,
            obj.object_class(),
            Some(obj),
            Vec::new(),
            Vec::new(),
            span,
        )
    }

    fn run_user(
        &mut self,
        def: &'a StmtFunctionDef,
        class: Option<&'a StmtClassDef>,
        this: Option<V<'a>>,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let watched = std::mem::take(&mut self.run.watch_call);
        let (args, kwargs) = match super::libraries::legacy_interface(def, &args, &kwargs) {
            Some(rewritten) => rewritten,
            None => (args, kwargs),
        };
        let result_unknown = !def.decorator_list.is_empty() && self.decorated_result_unknown(def);
        // What the body applies has call sites of its own.
        self.callee_at = None;
        // A closure's captured frame is for this call only.
        let captured = self.captured.take();
        if self.run.depth >= MAX_DEPTH || def.is_async {
            return V::Unknown;
        }
        // `@staticmethod` binds nothing; `@classmethod` binds the instance's class.
        let bound = if has_decorator(def, "staticmethod") {
            None
        } else if has_decorator(def, "classmethod") {
            this.as_ref().map(|t| match t {
                V::Object(o) => V::Class(o.borrow().class),
                other => other.clone(),
            })
        } else {
            this.clone()
        };
        // A call Python rejects raises a `TypeError` before the body runs; decorators may
        // change the signature.
        let plain = def.decorator_list.iter().all(|d| {
            matches!(&d.expression, Expr::Name(n) if matches!(n.id.as_str(), "staticmethod" | "classmethod"))
        });
        let positional = args.len() + usize::from(bound.is_some());
        if plain && Self::rejects_arguments(&def.parameters, positional, &kwargs) {
            self.violate(|| format!("the call of `{}` does not match its signature", def.name.id));
            return V::Unknown;
        }
        let call = ActiveCall {
            id: super::closures::next_call_id(),
            frame: self.run.locals.len(),
            def,
            this: bound.clone(),
            args: args.clone(),
            kwargs: kwargs.clone(),
        };
        if self
            .run
            .active_calls
            .iter()
            .any(|running| call.repeats(running))
        {
            return V::Unknown;
        }
        let memo_key = call.memo_key();
        if let Some(hit) = memo_key.as_ref().and_then(|k| self.run.memo.get(k)) {
            return hit.clone();
        }
        let mark = memo_key.as_ref().map(|_| self.run.trace.mark());
        self.run.active_calls.push(call);
        let module = self.module_of(def);
        let switch = self.enter_module(module, span);
        let mut frame = self.bind_params(def, bound, args, kwargs);
        let shared = captured
            .and_then(|c| self.bind_captured(|| super::closures::owned_names(def), &c, &mut frame));
        let entry: Vec<(String, V<'a>)> = match watched {
            true => frame
                .iter()
                .filter(|(_, v)| passed::changeable(v))
                .map(|(n, v)| (n.clone(), v.clone()))
                .collect(),
            false => Vec::new(),
        };
        self.run.depth += 1;
        self.run.locals.push(Rc::new(frame));
        let declared = declared_globals(&def.body);
        if !declared.is_empty() {
            let depth = self.run.locals.len();
            self.run.global_names.push((depth, declared));
        }
        self.run.returns.push(Vec::new());
        self.run.return_frames.push(watched.then(Vec::new));
        if let (Some(c), Some(t)) = (class, &this) {
            self.run.class_ctx.push((c, t.clone()));
        }
        let outer_call = self.run.call_sites.is_empty();
        if outer_call || self.run.depth <= 2 {
            self.run.call_sites.push(span);
        }
        let saved_guards = self.run.guards.len();
        // Code of another file runs with a budget per call, so that library machinery (an
        // import-structure scan, a registry walk) cannot spend the unit's budget: a call
        // from the analysed file into another module, and a call a module loaded for it
        // makes from its top level (run for its definitions). Over budget, the call is
        // abandoned with an unknown result.
        let limited = self.run.call_limit.is_none()
            && ((self.run.loading && self.run.depth == 1)
                || (module.is_some() && switch.is_some() && !self.run.loading));
        if limited {
            let budget = if self.run.loading {
                LOAD_CALL_STEPS
            } else {
                IMPORTED_CALL_STEPS
            };
            self.run.call_limit = Some(self.run.steps + budget);
        }
        self.exec_block(&def.body);
        let abandoned = limited
            && self
                .run
                .call_limit
                .take()
                .is_some_and(|limit| self.run.steps > limit);
        self.run.guards.truncate(saved_guards);
        if outer_call || self.run.depth <= 2 {
            self.run.call_sites.pop();
        }
        if class.is_some() && this.is_some() {
            self.run.class_ctx.pop();
        }
        if let Some(shared) = shared {
            self.write_back_shared(shared);
        }
        let return_frames = self.run.return_frames.pop().flatten();
        if watched {
            let ran_to_end = !self.run.dead && !abandoned;
            let exit = match (ran_to_end, self.run.locals.last().cloned()) {
                (true, Some(last)) => {
                    let frames = return_frames.into_iter().flatten().chain([last]);
                    Some(self.passed_at_exits(&entry, frames))
                }
                _ => None,
            };
            self.run.finished = Some(passed::Finished::new(def, entry, exit));
        }
        let returns = self.run.returns.pop().unwrap_or_default();
        if self
            .run
            .global_names
            .last()
            .is_some_and(|(depth, _)| *depth == self.run.locals.len())
        {
            self.run.global_names.pop();
        }
        self.run.locals.pop();
        self.run.depth -= 1;
        self.run.active_calls.pop();
        self.leave_module(switch);
        if self.run.dead || abandoned {
            // The call raised (it has no result), or did not run to its end.
            return V::Unknown;
        }
        let out = if result_unknown {
            // A decorator may replace the result.
            V::Unknown
        } else {
            let mut out: Option<V<'a>> = None;
            for r in returns {
                out = Some(match out {
                    None => r,
                    Some(prev) => self.join(prev, r),
                });
            }
            out.unwrap_or_else(V::none)
        };
        // Only a result no later code can change, of a call that recorded nothing and ran
        // to its end, stands for the calls after it.
        if let Some(key) = memo_key {
            if Some(self.run.trace.mark()) == mark
                && self
                    .run
                    .call_limit
                    .is_none_or(|limit| self.run.steps <= limit)
                && immutable(&out)
            {
                self.run.memo.insert(key, out.clone());
            }
        }
        out
    }

    /// `Cls(args)`: a new instance whose `__init__` (the class's or a base's in the file)
    /// runs with the arguments.
    pub fn instantiate(
        &mut self,
        class: &'a StmtClassDef,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let obj = V::Object(Rc::new(RefCell::new(Object {
            class,
            attrs: Rc::default(),
            order: Vec::new(),
            span: self.here(span),
        })));
        let init = self
            .ancestry(class)
            .into_iter()
            .find_map(|c| own_method(c, "__init__").map(|f| (f, c)));
        match init {
            Some((init, owner)) => {
                self.call_user_in(init, Some(owner), Some(obj.clone()), args, kwargs, span);
            }
            // No `__init__` in the file: a dataclass's generated one, or a torch base's own.
            None if self.is_dataclass(class) => self.dataclass_init(class, &obj, args, kwargs),
            None => self.init_torch_base(class, &obj, args, kwargs, span),
        }
        obj
    }
}

/// Messages of argument type errors (as opposed to shape errors).
fn is_type_error(msg: &str) -> bool {
    const MARKERS: &[&str] = &[
        "must be a tensor",
        "must be tensor",
        "must be an int",
        "must be int",
        "must be a tuple",
        "must be number",
        "must be a number",
        "must be a bool",
        "must be bool",
        "must be str",
        "must be a str",
        "must be a list",
        "arguments must be numbers",
        "missing argument",
        "missing 1 required",
        // A required argument not given (`t.transpose()`: numpy's, not torch's).
        ": missing ",
        "no tensor operand",
        "takes ",
        "invalid combination of arguments",
        "invalid data type",
        "unexpected keyword",
        "unsupported operand",
        "not subscriptable",
        "object is not",
        "expected a tensor",
        "must be a sequence",
        // Containers the analysis did not track exactly (lists of feature maps, `None`s).
        "expected a sequence of tensors",
        "got an element",
        "non-empty list of tensors",
        "step must be greater than zero",
        "expects hx as",
        "should be defined",
        // Dtypes are tracked coarsely: a dtype complaint is no shape bug.
        "with a bool tensor",
        "not implemented for",
        "floating point",
        "scalar type",
        "dtype",
    ];
    let m = msg.to_ascii_lowercase();
    MARKERS.iter().any(|k| m.contains(k))
}

/// The operands' shapes for messages: `[8, 3, 32, 32], [3]`.
fn describe(args: &[V]) -> String {
    args.iter()
        .filter_map(|a| match a {
            V::Data(Value::Tensor(t)) => Some(t.shape.to_string()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl V<'_> {
    pub fn is_builtin(&self) -> bool {
        matches!(self, V::Builtin(_))
    }
}

/// The method `name` a class body defines itself: the last `def` of the name, the one Python
/// binds (`@overload` stubs come first).
pub fn own_method<'a>(class: &'a StmtClassDef, name: &str) -> Option<&'a StmtFunctionDef> {
    class.body.iter().rev().find_map(|stmt| match stmt {
        ruff_python_ast::Stmt::FunctionDef(f) if f.name.id.as_str() == name => Some(f),
        _ => None,
    })
}

/// The names a function body declares `global` (its own statements, nested blocks
/// included, nested functions and classes not).
pub(super) fn declared_globals(body: &[Stmt]) -> Vec<&str> {
    let mut names = Vec::new();
    for stmt in body {
        match stmt {
            Stmt::Global(g) => names.extend(g.names.iter().map(|n| n.id.as_str())),
            Stmt::If(s) => {
                names.extend(declared_globals(&s.body));
                for c in &s.elif_else_clauses {
                    names.extend(declared_globals(&c.body));
                }
            }
            Stmt::For(s) => {
                names.extend(declared_globals(&s.body));
                names.extend(declared_globals(&s.orelse));
            }
            Stmt::While(s) => {
                names.extend(declared_globals(&s.body));
                names.extend(declared_globals(&s.orelse));
            }
            Stmt::With(s) => names.extend(declared_globals(&s.body)),
            Stmt::Try(s) => {
                names.extend(declared_globals(&s.body));
                for h in &s.handlers {
                    let ruff_python_ast::ExceptHandler::ExceptHandler(h) = h;
                    names.extend(declared_globals(&h.body));
                }
                names.extend(declared_globals(&s.orelse));
                names.extend(declared_globals(&s.finalbody));
            }
            _ => {}
        }
    }
    names
}

/// Whether `def` carries the plain decorator `@name`.
pub fn has_decorator(def: &StmtFunctionDef, name: &str) -> bool {
    def.decorator_list
        .iter()
        .any(|d| matches!(&d.expression, Expr::Name(n) if n.id.as_str() == name))
}

impl<'a> ActiveCall<'a> {
    /// The memo key of a call of a memoised function (`None`: not memoised, or an argument
    /// Python would not find equal by value, as `lru_cache` keys do).
    fn memo_key(&self) -> Option<String> {
        if !super::decorators::is_memoised(self.def) {
            return None;
        }
        let mut key = format!("{:p}", self.def as *const StmtFunctionDef);
        for arg in self.this.iter().chain(&self.args) {
            key.push('|');
            key.push_str(&constant_key(arg)?);
        }
        for (name, arg) in &self.kwargs {
            key.push_str(&format!("|{name}={}", constant_key(arg)?));
        }
        Some(key)
    }

    /// Whether this call repeats `running`, a call already running: a recursive call each
    /// of whose arguments is unknown or the same as the running call's. Its abstract run is
    /// the running call's over again (with less known), so it adds nothing but steps; its
    /// result is unknown instead. Recursion that makes progress (a smaller count, another
    /// node of a tree) runs as before.
    fn repeats(&self, running: &ActiveCall<'a>) -> bool {
        let covered = |new: &V<'a>, old: &V<'a>| new.is_unknown() || new.same(old);
        std::ptr::eq(self.def, running.def)
            && self.args.len() == running.args.len()
            && self.kwargs.len() == running.kwargs.len()
            && match (&self.this, &running.this) {
                (Some(new), Some(old)) => covered(new, old),
                (None, None) => true,
                _ => false,
            }
            && self
                .args
                .iter()
                .zip(&running.args)
                .all(|(n, o)| covered(n, o))
            && self
                .kwargs
                .iter()
                .zip(&running.kwargs)
                .all(|((n, a), (m, b))| n == m && covered(a, b))
    }
}

/// Whether no code can change `v` in place (a constant, unknown, a class or function).
fn immutable(v: &V) -> bool {
    match v {
        V::Data(d) => !matches!(d, Value::Tensor(_) | Value::Module(_)),
        V::Unknown | V::Class(_) | V::Func(_) | V::Torch(_) | V::Builtin(_) => true,
        _ => false,
    }
}

/// The argument in place `i` or named `name`.
pub(super) fn argument<'v, 'a>(
    args: &'v [V<'a>],
    kwargs: &'v [(String, V<'a>)],
    i: usize,
    name: &str,
) -> Option<&'v V<'a>> {
    kwargs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
        .or_else(|| args.get(i))
}

/// torch functions and legacy constructors that build a tensor from data: an array, a
/// nested list or another tensor.
fn is_converter(canonical: &str) -> bool {
    matches!(
        canonical,
        "torch.tensor" | "torch.as_tensor" | "torch.asarray"
    ) || crate::catalogue::creation::LEGACY_CONSTRUCTORS
        .iter()
        .any(|(name, _)| *name == canonical)
}

/// Tensor methods whose in-place form (`squeeze_`, ...) changes the receiver's shape.
const RESHAPING_IN_PLACE: &[&str] = &[
    "squeeze",
    "unsqueeze",
    "t",
    "transpose",
    "swapaxes",
    "swapdims",
    "resize",
    "resize_as",
    "as_strided",
];

#[cfg(test)]
mod tests {
    use crate::testing::finding_lines;

    /// A recursive call on what is not known repeats the running call: it returns unknown
    /// instead of recursing to the depth limit, so a walk over an unknown folder that
    /// recurses three times per entry (3^12 calls) leaves the unit's budget for the failure
    /// after it.
    #[test]
    fn recursion_on_unknowns_stops_at_once() {
        let code = r#"
import os
import torch

def walk(path):
    for entry in os.scandir(path):
        if entry.is_dir():
            walk(entry.path)
            walk(entry.path)
            walk(entry.path)

walk(os.environ["ROOT"])
bad = torch.zeros(2) + torch.zeros(3)
"#;
        assert_eq!(finding_lines(code), vec![13]);
    }

    /// Recursion that makes progress runs to its end: `tower(3, 1)` is 8 long.
    #[test]
    fn recursion_with_new_arguments_runs() {
        let code = r#"
import torch

def tower(depth, c):
    if depth == 0:
        return torch.zeros(c)
    return tower(depth - 1, c * 2)

ok = tower(3, 1) + torch.zeros(8)
bad = tower(3, 1) + torch.zeros(4)
"#;
        assert_eq!(finding_lines(code), vec![10]);
    }
    /// A deep valid-convolution U-Net crops its skips by a negative `offset // 2` whose
    /// expression outgrows `MAX_EXPR_SIZE`: the int put in its place must not be taken for a
    /// size (non-negative), or the crop reads as a pad and the concatenation as impossible
    /// (torch runs it for inputs 46, 54, 62, ... square).
    #[test]
    fn capped_int_may_be_negative() {
        let src = r#"
import torch
import torch.nn as nn
import torch.nn.functional as F


class Up(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2)
        self.conv = nn.Conv2d(cin + cout, cout, 3)

    def forward(self, skip, low):
        low = self.up(low)
        diff = low.size(2) - skip.size(2)
        skip = F.pad(skip, [diff // 2, diff // 2, diff // 2, diff // 2])
        return self.conv(torch.cat([skip, low], 1))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.downs = nn.ModuleList([nn.Conv2d(c, 2 * c, 3) for c in (4, 8, 16, 32)])
        self.ups = nn.ModuleList([Up(2 * c, c) for c in (32, 16, 8)])

    def forward(self, x):
        skips = []
        for down in self.downs:
            x = down(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = skips.pop()
        for up in self.ups:
            x = up(skips.pop(), x)
        return x
"#;
        assert!(crate::testing::findings(src).is_empty());
    }

    /// `self.__setattr__(name, layer)` registers a child in order, as `add_module` does (a
    /// container subclass padding before its convolution); other values are attributes.
    #[test]
    fn dunder_setattr_registers_children() {
        let src = r#"
import torch
import torch.nn as nn

class PadConv(nn.Sequential):
    def __init__(self, cin, cout, k):
        super().__init__()
        if k % 2 == 0:
            self.pad = nn.ZeroPad2d((0, 1, 0, 1))
        self.__setattr__("conv", nn.Conv2d(cin, cout, k))
        self.__setattr__("scale", 2)

x = torch.randn(1, 4, 9, 9)
a = nn.MaxPool2d(2, 1)(nn.ZeroPad2d((0, 1, 0, 1))(x))
b = PadConv(4, 4, KERNEL)(x)
y = torch.cat([a, b], 1)
"#;
        crate::testing::assert_twins(src, "KERNEL", "4", "2", 16);
    }

    /// Batch norm needs more than one value per channel only in training: after
    /// `model.eval()` a single sample goes through.
    #[test]
    fn eval_mode_lifts_training_only_checks() {
        let src = r#"
import torch
import torch.nn as nn

class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 16)
        self.bn = nn.BatchNorm1d(16)

    def forward(self, x):
        return self.bn(self.fc(x))

model = Head()
MODE
model(torch.randn(1, 32))
"#;
        crate::testing::assert_twins(src, "MODE", "pass", "model.eval()", 12);
    }
}
