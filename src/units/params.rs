//! What a unit's parameters probably are, from their annotations and how the body uses them:
//! a tensor (then symbolic dims of each plausible rank, or the annotated shape), a size (a
//! positive symbol), or unknown. A wrong guess must never raise an alarm: a tensor guess is
//! made only on tensor evidence (or for `forward`, by convention) and withdrawn on any
//! non-tensor use.

use rustc_hash::FxHashMap as HashMap;

use ruff_python_ast::visitor::{walk_expr, walk_stmt, Visitor};
use ruff_python_ast::{Expr, Operator, Stmt, StmtFunctionDef};

use crate::operators::api::{torch_api, MethodSharing};

/// A shape annotation's dims: names (shared across parameters), numbers, products of names
/// (`(h w)`), and an unknown-length part (`...`, `*b`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnnotatedDim {
    Name(String),
    Const(i64),
    Product(Vec<String>),
    Variadic,
}

/// Whether a parameter has a default (`None` included: a unit runs with it, as a caller
/// that omits the argument calls it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Default {
    Absent,
    Value,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A tensor of unknown rank.
    Tensor,
    /// A tensor whose rank the code pins (`b, c, h, w = x.shape`).
    Ranked(usize),
    /// A tensor with an annotated shape.
    Shaped(Vec<AnnotatedDim>),
    /// An integer used as a size.
    Size,
    /// An integer annotated as a named dim (seed 003's `in_dim: D["in"]`): the same symbol
    /// as the dims of that name in the unit's annotated tensors (`x: T["b in"]`).
    NamedSize(String),
    Unknown,
}

/// Each parameter's name, kind and default, in order.
pub type Kinds = Vec<(String, ParamKind, Default)>;

/// The parameters of `def` whose shape in `kinds` is the one its docstring declares (not
/// an annotation's): what [`undeclared`] may take back.
pub fn docstring_declared(def: &StmtFunctionDef, kinds: &Kinds) -> Vec<String> {
    let Some(doc) = super::docstring::docstring(def) else {
        return Vec::new();
    };
    let names: Vec<String> = kinds.iter().map(|(n, _, _)| n.clone()).collect();
    let declared = super::docstring::declared_shapes(doc, &names);
    let annotated = |name: &str| {
        def.parameters
            .iter_non_variadic_params()
            .find(|p| p.parameter.name.id.as_str() == name)
            .and_then(|p| p.parameter.annotation.as_deref())
            .and_then(annotation_kind)
            .is_some_and(|k| k != ParamKind::Tensor)
    };
    kinds
        .iter()
        .filter(|(name, kind, _)| {
            matches!(kind, ParamKind::Shaped(dims) if declared.get(name) == Some(dims))
                && !annotated(name)
        })
        .map(|(name, _, _)| name.clone())
        .collect()
}

/// `kinds` with the docstring declarations of `names` taken back: tensors of any rank.
pub fn undeclared(kinds: &Kinds, names: &[String]) -> Kinds {
    kinds
        .iter()
        .map(|(name, kind, default)| match names.contains(name) {
            true => (name.clone(), ParamKind::Tensor, *default),
            false => (name.clone(), kind.clone(), *default),
        })
        .collect()
}

impl ParamKind {
    pub fn is_tensor(&self) -> bool {
        matches!(
            self,
            ParamKind::Tensor | ParamKind::Ranked(_) | ParamKind::Shaped(_)
        )
    }
}

#[derive(Default)]
struct Evidence {
    tensor: bool,
    not_tensor: bool,
    size: bool,
    /// `a, b, c = x.shape`: the rank the code unpacks.
    rank: Option<usize>,
    /// Indexed by a plain int or name (`hs[0]`): a list of tensors as often as a tensor.
    indexed: bool,
    /// The least rank the body's constant dim reads need (`x.shape[1]`, `x.size(-3)`).
    reads_rank: usize,
}

/// Finds the functions of the file a body calls by name, so that their parameters' kinds
/// carry over to the arguments (`conv_bn_relu(in_channels, out_channels, 3)`).
pub type Helpers<'h, 'a> = &'h dyn Fn(&str) -> Option<&'a StmtFunctionDef>;

/// How deep size evidence follows calls into helpers.
const HELPER_DEPTH: usize = 2;

struct Uses<'n, 'h, 'a> {
    names: &'n [String],
    helpers: Option<Helpers<'h, 'a>>,
    depth: usize,
    ev: HashMap<String, Evidence>,
    /// Parameters the body rebinds: a later `x.shape` may describe another value.
    rebound: rustc_hash::FxHashSet<String>,
}

impl Uses<'_, '_, '_> {
    fn param(&self, e: &Expr) -> Option<String> {
        match e {
            Expr::Name(n) if self.names.iter().any(|p| p == n.id.as_str()) => {
                Some(n.id.to_string())
            }
            _ => None,
        }
    }

    fn mark(&mut self, e: &Expr, f: impl FnOnce(&mut Evidence)) {
        if let Some(p) = self.param(e) {
            f(self.ev.entry(p).or_default());
        }
    }

    /// A size position: the parameters of an integer expression there (`d_in + d_pos`,
    /// `2 * hidden`) are sizes too.
    fn mark_sizes(&mut self, e: &Expr) {
        match e {
            Expr::BinOp(b)
                if matches!(
                    b.op,
                    Operator::Add | Operator::Sub | Operator::Mult | Operator::FloorDiv
                ) =>
            {
                self.mark_sizes(&b.left);
                self.mark_sizes(&b.right);
            }
            _ => self.mark(e, |ev| ev.size = true),
        }
    }
}

impl Uses<'_, '_, '_> {
    /// A call of a function of the file: an argument in the place of one of its size
    /// parameters is a size, one in the place of a tensor parameter a tensor.
    fn mark_helper_args(&mut self, c: &ruff_python_ast::ExprCall) {
        let (Some(helpers), Expr::Name(n)) = (self.helpers, &*c.func) else {
            return;
        };
        if self.depth == 0 || self.param(&c.func).is_some() {
            return;
        }
        let Some(callee) = helpers(n.id.as_str()) else {
            return;
        };
        let kinds = classify_at(callee, false, false, Some(helpers), self.depth - 1);
        let positional = c
            .arguments
            .args
            .iter()
            .take_while(|a| !matches!(a, Expr::Starred(_)));
        let named = c.arguments.keywords.iter().filter_map(|k| {
            let kind = kinds
                .iter()
                .find(|(p, ..)| Some(p.as_str()) == k.arg.as_deref())?;
            Some((&k.value, &kind.1))
        });
        for (arg, kind) in positional.zip(kinds.iter().map(|(_, k, _)| k)).chain(named) {
            match kind {
                ParamKind::Size => self.mark_sizes(arg),
                // Passed on unchanged to a parameter whose rank the helper declares.
                ParamKind::Ranked(r) => self.mark(arg, |ev| {
                    ev.tensor = true;
                    ev.rank.get_or_insert(*r);
                }),
                k if k.is_tensor() => self.mark(arg, |ev| ev.tensor = true),
                _ => {}
            }
        }
    }
}

impl Uses<'_, '_, '_> {
    /// `torch.einsum("nc,kc->nk", q, queue)`: an operand's subscripts without `...` declare
    /// its rank, as `n, c = queue.shape` would.
    fn mark_einsum_ranks(&mut self, c: &ruff_python_ast::ExprCall) {
        let args = &c.arguments.args;
        let Some(Expr::StringLiteral(eq)) = args.first() else {
            return;
        };
        let eq = eq.value.to_str();
        let inputs = eq.split("->").next().unwrap_or(eq);
        let operands: Vec<&Expr> = match &args[1..] {
            [Expr::List(l)] => l.elts.iter().collect(),
            [Expr::Tuple(t)] => t.elts.iter().collect(),
            many => many.iter().collect(),
        };
        let terms: Vec<&str> = inputs.split(',').collect();
        if terms.len() != operands.len() {
            return;
        }
        for (term, operand) in terms.iter().zip(operands) {
            let letters = term.chars().filter(|ch| !ch.is_whitespace());
            if term.contains('.') || !letters.clone().all(|ch| ch.is_ascii_alphabetic()) {
                continue;
            }
            let n = letters.count();
            self.mark(operand, |ev| {
                ev.tensor = true;
                ev.rank.get_or_insert(n);
            });
        }
    }
}

/// The rank a constant dim index needs: `1` needs 2 dims, `-3` needs 3.
fn constant_dim_rank(e: &Expr) -> Option<usize> {
    match e {
        Expr::NumberLiteral(n) => n.value.as_int()?.as_u64().map(|k| k as usize + 1),
        Expr::UnaryOp(u) if u.op == ruff_python_ast::UnaryOp::USub => match &*u.operand {
            Expr::NumberLiteral(n) => n.value.as_int()?.as_u64().map(|k| k as usize),
            _ => None,
        },
        _ => None,
    }
}

/// The expression is the plain name `id` (`self`, `torch`).
pub fn is_name(e: &Expr, id: &str) -> bool {
    matches!(e, Expr::Name(n) if n.id.as_str() == id)
}

/// Receivers of these attributes are tensors (names no builtin type or `nn.Module` shares).
fn tensor_attribute(attr: &str) -> bool {
    matches!(attr, "shape" | "ndim" | "T" | "mT" | "dtype" | "device")
        || torch_api()
            .tensor_method(attr)
            .is_some_and(|s| s == MethodSharing::Plain)
}

impl<'e> Uses<'_, '_, '_> {
    /// `x.attr`: tensor-only attributes mark a tensor, others (not a size or conversion) mark something else.
    fn visit_attribute(&mut self, a: &'e ruff_python_ast::ExprAttribute) {
        let attr = a.attr.id.as_str();
        if tensor_attribute(attr) {
            self.mark(&a.value, |ev| ev.tensor = true);
        } else if !matches!(
            attr,
            "size"
                | "dim"
                | "to"
                | "float"
                | "long"
                | "int"
                | "half"
                | "double"
                | "bool"
                | "cuda"
                | "cpu"
                | "detach"
                | "clone"
                | "contiguous"
                | "numel"
        ) {
            self.mark(&a.value, |ev| ev.not_tensor = true);
        }
    }

    /// `a @ b` takes tensors; arithmetic with a literal takes sizes; a list display times a count, widths.
    fn visit_binop(&mut self, b: &'e ruff_python_ast::ExprBinOp) {
        if b.op == Operator::MatMult {
            self.mark(&b.left, |ev| ev.tensor = true);
            self.mark(&b.right, |ev| ev.tensor = true);
        } else {
            let literal = |x: &Expr| matches!(x, Expr::NumberLiteral(_));
            if literal(&b.right) || literal(&b.left) {
                self.mark(&b.left, |ev| ev.size = true);
                self.mark(&b.right, |ev| ev.size = true);
            }
            // `[in_dim] + [hidden] * n_layers`: lists of layer widths, and a count.
            let display = |x: &Expr| matches!(x, Expr::List(_) | Expr::Tuple(_));
            if matches!(b.op, Operator::Add | Operator::Mult)
                && (display(&b.left) || display(&b.right))
            {
                for side in [&*b.left, &*b.right] {
                    if display(side) {
                        for elt in list_elements(Some(side)) {
                            self.mark(elt, |ev| ev.size = true);
                        }
                    } else if b.op == Operator::Mult {
                        self.mark(side, |ev| {
                            ev.size = true;
                            ev.not_tensor = true;
                        });
                    }
                }
            }
        }
    }

    /// A call: reshape sizes, the arguments of helpers, of `self(...)`, of builtins, of class constructions and of torch functions.
    fn visit_call(&mut self, c: &'e ruff_python_ast::ExprCall) {
        if let (Expr::Attribute(a), [dim]) = (&*c.func, &c.arguments.args[..]) {
            if a.attr.id.as_str() == "size" {
                if let Some(need) = constant_dim_rank(dim) {
                    self.mark(&a.value, |ev| ev.reads_rank = ev.reads_rank.max(need));
                }
            }
        }
        let callee = callee_path(&c.func);
        // `x.view(b, h // ws, ws, c)`: the sizes of a reshape are ints. A single
        // argument that is not a display may be a whole shape tuple: left alone.
        if let Expr::Attribute(a) = &*c.func {
            if SIZE_METHODS.contains(&a.attr.id.as_str()) {
                let args = &c.arguments.args;
                let sizes = match &args[..] {
                    [one] => list_elements(Some(one)),
                    many => many.iter().collect(),
                };
                for size in sizes {
                    self.mark_sizes(size);
                }
            }
        }
        self.mark_helper_args(c);
        // `self(x)`, `self.forward(x)`: a module's inputs are tensors.
        let own_forward = match &*c.func {
            Expr::Attribute(a) => a.attr.id.as_str() == "forward" && is_name(&a.value, "self"),
            other => is_name(other, "self"),
        };
        if own_forward {
            for a in c.arguments.args.iter() {
                self.mark(a, |ev| ev.tensor = true);
            }
        }
        if self.param(&c.func).is_some() {
            // Called: a function or a model, not a tensor.
            self.mark(&c.func, |ev| ev.not_tensor = true);
        }
        match callee.as_deref() {
            Some("range") => {
                for a in c.arguments.args.iter() {
                    self.mark(a, |ev| {
                        ev.size = true;
                        ev.not_tensor = true;
                    });
                }
            }
            Some("len" | "isinstance" | "list" | "tuple" | "enumerate" | "zip") => {
                for a in c.arguments.args.iter() {
                    self.mark(a, |ev| ev.not_tensor = true);
                }
            }
            // A class construction (`nn.Linear(d, 2 * d)`): its arguments are sizes.
            Some(path)
                if path
                    .rsplit('.')
                    .next()
                    .is_some_and(|l| l.starts_with(|ch: char| ch.is_ascii_uppercase())) =>
            {
                for a in c.arguments.args.iter().take(3) {
                    self.mark_sizes(a);
                }
                for k in c.arguments.keywords.iter() {
                    let size_kw = k
                        .arg
                        .as_ref()
                        .is_some_and(|a| SIZE_KEYWORDS.contains(&a.id.as_str()));
                    if size_kw {
                        self.mark_sizes(&k.value);
                    }
                }
            }
            // numpy takes arrays: an argument is not (known to be) a torch tensor.
            Some(path) if path.starts_with("np.") || path.starts_with("numpy.") => {
                for a in c.arguments.args.iter() {
                    self.mark(a, |ev| ev.not_tensor = true);
                }
            }
            // Creation functions take sizes, not tensors.
            Some(path) if is_torch_like(path) && takes_data(path) => {
                // `torch.tensor(matrix)`: matrix may be a list; `torch.cat(xs)`: a
                // sequence of tensors.
                for a in c.arguments.args.iter().take(1) {
                    self.mark(a, |ev| ev.not_tensor = true);
                }
                for elt in list_elements(c.arguments.args.first()) {
                    self.mark(elt, |ev| ev.tensor = true);
                }
            }
            Some(path) if is_torch_like(path) && is_creation(path) => {
                // `torch.rand(kernel_size)`: one argument of a shape-taking function may be a
                // whole shape (a tuple), not a size.
                let leaf = path.rsplit('.').next().unwrap_or(path);
                let whole_shape = c.arguments.args.len() == 1
                    && matches!(leaf, "zeros" | "ones" | "empty" | "rand" | "randn" | "full");
                for a in c.arguments.args.iter() {
                    if whole_shape {
                        self.mark(a, |ev| ev.not_tensor = true);
                    } else {
                        self.mark(a, |ev| ev.size = true);
                    }
                }
            }
            Some(path) if is_torch_like(path) => {
                // The first argument of a torch function is its input.
                if let Some(first) = c.arguments.args.first() {
                    self.mark(first, |ev| ev.tensor = true);
                }
                for elt in list_elements(c.arguments.args.first()) {
                    self.mark(elt, |ev| ev.tensor = true);
                }
                if path.ends_with("einsum") {
                    self.mark_einsum_ranks(c);
                }
                let operands = tensor_operands(path);
                for (i, a) in c.arguments.args.iter().enumerate().skip(1) {
                    if operands.contains(&i) {
                        self.mark(a, |ev| ev.tensor = true);
                    } else {
                        self.mark(a, |ev| ev.size = true);
                    }
                }
                for k in c.arguments.keywords.iter() {
                    self.mark(&k.value, |ev| ev.size = true);
                }
            }
            _ => {}
        }
    }

    /// `x[...]`: a string key marks a mapping, one index a sequence or a tensor, several axes a tensor.
    fn visit_subscript(&mut self, s: &'e ruff_python_ast::ExprSubscript) {
        if let Expr::Attribute(a) = &*s.value {
            if a.attr.id.as_str() == "shape" {
                if let Some(need) = constant_dim_rank(&s.slice) {
                    self.mark(&a.value, |ev| ev.reads_rank = ev.reads_rank.max(need));
                }
            }
        }
        match &*s.slice {
            Expr::StringLiteral(_) => self.mark(&s.value, |ev| ev.not_tensor = true),
            // `hs[0]`, `hs[-1]`, `inp[i]`: a sequence as often as a tensor.
            Expr::NumberLiteral(_) | Expr::Name(_) => self.mark(&s.value, |ev| ev.indexed = true),
            Expr::UnaryOp(u) if matches!(&*u.operand, Expr::NumberLiteral(_)) => {
                self.mark(&s.value, |ev| ev.indexed = true)
            }
            // `boxes[:, 0]`, `x[..., None]`: several axes, one of them sliced or new,
            // index an array; Python's sequences take one index.
            Expr::Tuple(t)
                if t.elts.iter().any(|e| {
                    matches!(
                        e,
                        Expr::Slice(_) | Expr::NoneLiteral(_) | Expr::EllipsisLiteral(_)
                    )
                }) =>
            {
                self.mark(&s.value, |ev| ev.tensor = true)
            }
            _ => {}
        }
    }
}

impl<'b> Visitor<'b> for Uses<'_, '_, '_> {
    fn visit_expr(&mut self, e: &'b Expr) {
        match e {
            Expr::Attribute(a) => self.visit_attribute(a),
            Expr::BinOp(b) => self.visit_binop(b),
            Expr::Call(c) => self.visit_call(c),
            Expr::Subscript(s) => self.visit_subscript(s),
            _ => {}
        }
        walk_expr(self, e);
    }

    fn visit_stmt(&mut self, s: &'b Stmt) {
        if let Stmt::For(f) = s {
            self.mark(&f.iter, |ev| ev.not_tensor = true);
        }
        let targets: Vec<&Expr> = match s {
            Stmt::Assign(a) => a.targets.iter().collect(),
            Stmt::AugAssign(a) => vec![&*a.target],
            Stmt::AnnAssign(a) => vec![&*a.target],
            Stmt::For(f) => vec![&*f.target],
            _ => Vec::new(),
        };
        for t in targets {
            let mut names = Vec::new();
            bound_names(t, &mut names);
            self.rebound.extend(names);
        }
        // `a, b = x` unpacks a sequence (a tuple of inputs, usually).
        if let Stmt::Assign(a) = s {
            if matches!(a.targets.first(), Some(Expr::Tuple(_) | Expr::List(_))) {
                self.mark(&a.value, |ev| ev.not_tensor = true);
            }
        }
        // `b, c, h, w = x.shape` / `= x.size()` pins the rank.
        if let Stmt::Assign(a) = s {
            let targets = match a.targets.first() {
                Some(Expr::Tuple(t)) => Some(&t.elts),
                Some(Expr::List(l)) => Some(&l.elts),
                _ => None,
            };
            let shape_of = match &*a.value {
                Expr::Attribute(at) if at.attr.id.as_str() == "shape" => Some(&*at.value),
                Expr::Call(c) if c.arguments.args.is_empty() => match &*c.func {
                    Expr::Attribute(at) if at.attr.id.as_str() == "size" => Some(&*at.value),
                    _ => None,
                },
                _ => None,
            };
            if let (Some(targets), Some(x)) = (targets, shape_of) {
                if !targets.iter().any(|t| matches!(t, Expr::Starred(_))) {
                    let n = targets.len();
                    self.mark(x, |ev| {
                        ev.tensor = true;
                        ev.rank.get_or_insert(n);
                    });
                }
            }
        }
        walk_stmt(self, s);
    }
}

/// Tensor methods whose positional arguments are sizes.
const SIZE_METHODS: &[&str] = &[
    "view",
    "reshape",
    "expand",
    "repeat",
    "tile",
    "new_zeros",
    "new_ones",
    "new_empty",
];

/// Keyword arguments of layer constructors that are sizes.
const SIZE_KEYWORDS: &[&str] = &[
    "in_features",
    "out_features",
    "in_channels",
    "out_channels",
    "num_features",
    "embed_dim",
    "num_heads",
    "hidden_size",
    "input_size",
    "embedding_dim",
    "num_embeddings",
    "d_model",
    "nhead",
    "dim_feedforward",
    "normalized_shape",
    "num_channels",
    "num_groups",
    "kdim",
    "vdim",
    "proj_size",
    "kernel_size",
];

/// Names bound by an assignment target.
fn bound_names(t: &Expr, out: &mut Vec<String>) {
    match t {
        Expr::Name(n) => out.push(n.id.to_string()),
        Expr::Tuple(x) => x.elts.iter().for_each(|e| bound_names(e, out)),
        Expr::List(x) => x.elts.iter().for_each(|e| bound_names(e, out)),
        Expr::Starred(x) => bound_names(&x.value, out),
        _ => {}
    }
}

fn list_elements(e: Option<&Expr>) -> Vec<&Expr> {
    match e {
        Some(Expr::List(l)) => l.elts.iter().collect(),
        Some(Expr::Tuple(t)) => t.elts.iter().collect(),
        _ => Vec::new(),
    }
}

/// `torch.cat`, `F.relu`, `nn.functional.pad`, `torch.nn.functional.conv2d`: a dotted path.
fn callee_path(e: &Expr) -> Option<String> {
    match e {
        Expr::Name(n) => Some(n.id.to_string()),
        Expr::Attribute(a) => Some(format!("{}.{}", callee_path(&a.value)?, a.attr.id)),
        _ => None,
    }
}

fn is_creation(path: &str) -> bool {
    let last = path.rsplit('.').next().unwrap_or(path);
    matches!(
        last,
        "randn"
            | "rand"
            | "zeros"
            | "ones"
            | "empty"
            | "full"
            | "arange"
            | "linspace"
            | "logspace"
            | "eye"
            | "randint"
            | "randperm"
            | "Size"
    )
}

/// Functions whose first argument is data (nested lists, arrays), not a tensor or a size.
fn takes_data(path: &str) -> bool {
    let last = path.rsplit('.').next().unwrap_or(path);
    matches!(
        last,
        "tensor" | "as_tensor" | "from_numpy" | "stack" | "cat" | "concat"
    )
}

/// The positional arguments after the first that a torch function takes as tensors (the
/// weight of `F.linear`/`F.embedding`/`F.conv2d`, the second factor of `torch.matmul`, a
/// loss's target); its other arguments are sizes, dims or options.
fn tensor_operands(path: &str) -> &'static [usize] {
    let last = path.rsplit('.').next().unwrap_or(path);
    match last {
        "matmul"
        | "mm"
        | "bmm"
        | "mv"
        | "dot"
        | "outer"
        | "inner"
        | "cdist"
        | "cosine_similarity"
        | "pairwise_distance"
        | "embedding"
        | "grid_sample"
        | "mse_loss"
        | "l1_loss"
        | "smooth_l1_loss"
        | "huber_loss"
        | "cross_entropy"
        | "nll_loss"
        | "binary_cross_entropy"
        | "binary_cross_entropy_with_logits"
        | "kl_div" => &[1],
        "linear" | "conv1d" | "conv2d" | "conv3d" | "conv_transpose1d" | "conv_transpose2d"
        | "conv_transpose3d" | "addmm" | "baddbmm" | "where" => &[1, 2],
        "bilinear" | "scaled_dot_product_attention" => &[1, 2, 3],
        // `torch.einsum("btd,d->bt", hidden, query)`: every argument after the equation.
        "einsum" => &[1, 2, 3, 4, 5, 6, 7],
        _ => &[],
    }
}

fn is_torch_like(path: &str) -> bool {
    let root = path.split('.').next().unwrap_or("");
    matches!(root, "torch" | "F" | "nn") && path.contains('.')
}

/// The kinds of a function's parameters (after `self` for methods). `convention_tensor`:
/// an unannotated parameter with no evidence either way is a tensor (`forward`'s inputs).
pub fn classify(def: &StmtFunctionDef, skip_self: bool, convention_tensor: bool) -> Kinds {
    classify_at(def, skip_self, convention_tensor, None, 0)
}

/// [`classify`], with size evidence also from the parameters of the file's functions that
/// the body calls.
pub fn classify_with<'a>(
    def: &StmtFunctionDef,
    skip_self: bool,
    convention_tensor: bool,
    helpers: Helpers<'_, 'a>,
) -> Kinds {
    classify_at(
        def,
        skip_self,
        convention_tensor,
        Some(helpers),
        HELPER_DEPTH,
    )
}

fn classify_at<'a>(
    def: &StmtFunctionDef,
    skip_self: bool,
    convention_tensor: bool,
    helpers: Option<Helpers<'_, 'a>>,
    depth: usize,
) -> Kinds {
    let params: Vec<_> = def
        .parameters
        .posonlyargs
        .iter()
        .chain(def.parameters.args.iter())
        .chain(def.parameters.kwonlyargs.iter())
        .skip(usize::from(skip_self))
        .collect();
    let names: Vec<String> = params
        .iter()
        .map(|p| p.parameter.name.id.to_string())
        .collect();
    let mut uses = Uses {
        names: &names,
        helpers,
        depth,
        ev: HashMap::default(),
        rebound: rustc_hash::FxHashSet::default(),
    };
    for stmt in &def.body {
        uses.visit_stmt(stmt);
    }
    let declared = super::docstring::docstring(def)
        .map(|doc| super::docstring::declared_shapes(doc, &names))
        .unwrap_or_default();
    params
        .iter()
        .map(|p| {
            let name = p.parameter.name.id.to_string();
            let default = match p.default.as_deref() {
                None => Default::Absent,
                Some(_) => Default::Value,
            };
            let ev = uses.ev.get(&name);
            let rank = ev
                .and_then(|e| e.rank)
                .filter(|_| !uses.rebound.contains(&name));
            let written = p.parameter.annotation.as_deref().and_then(annotation_kind);
            // A docstring declaration refines a missing or plain `Tensor` annotation, unless
            // the body uses the value as something else or unpacks another rank.
            let documented = declared.get(&name).and_then(|dims| {
                let fixed = dims.iter().all(|d| *d != AnnotatedDim::Variadic);
                let conflicts = ev.is_some_and(|e| {
                    e.not_tensor
                        || e.indexed
                        || (fixed && e.rank.is_some_and(|r| r != dims.len()))
                        || (fixed && e.reads_rank > dims.len())
                });
                (!conflicts).then(|| ParamKind::Shaped(dims.clone()))
            });
            let annotated = match written {
                None | Some(ParamKind::Tensor) => documented.or(written),
                other => other,
            };
            let kind = match annotated {
                Some(ParamKind::Tensor) => match rank {
                    Some(r) => ParamKind::Ranked(r),
                    None => ParamKind::Tensor,
                },
                Some(k) => k,
                None => match ev {
                    Some(ev) if ev.not_tensor => {
                        if ev.size && !ev.tensor {
                            ParamKind::Size
                        } else {
                            ParamKind::Unknown
                        }
                    }
                    Some(_) if rank.is_some() => ParamKind::Ranked(rank.unwrap_or_default()),
                    Some(ev) if ev.tensor => ParamKind::Tensor,
                    Some(ev) if ev.indexed => ParamKind::Unknown,
                    _ if convention_tensor => ParamKind::Tensor,
                    Some(ev) if ev.size => ParamKind::Size,
                    _ => ParamKind::Unknown,
                },
            };
            (name, kind, default)
        })
        .collect()
}

/// `torch.Tensor`, `Tensor`, `int`, jaxtyping `Float[Tensor, "b c h w"]`, torchtyping
/// `TensorType["b", "c"]`, and the `T["b c"]` form.
pub fn annotation_kind(a: &Expr) -> Option<ParamKind> {
    match a {
        Expr::Name(n) => match n.id.as_str() {
            "Tensor" => Some(ParamKind::Tensor),
            "int" => Some(ParamKind::Size),
            "float" | "bool" | "str" => Some(ParamKind::Unknown),
            _ => None,
        },
        Expr::Attribute(at) if at.attr.id.as_str() == "Tensor" => Some(ParamKind::Tensor),
        Expr::StringLiteral(s) => {
            // A quoted annotation: only the plain tensor names are read.
            match s.value.to_str() {
                "Tensor" | "torch.Tensor" => Some(ParamKind::Tensor),
                _ => None,
            }
        }
        Expr::Subscript(s) => {
            let head = callee_path(&s.value)?;
            let last = head.rsplit('.').next().unwrap_or(&head);
            let spec: Vec<&Expr> = match &*s.slice {
                Expr::Tuple(t) => t.elts.iter().collect(),
                other => vec![other],
            };
            match last {
                // jaxtyping: Float[Tensor, "b c"], Int[torch.Tensor, "n"], Shaped[...].
                "Float" | "Int" | "Bool" | "Shaped" | "Num" | "Real" | "Integer" | "Inexact"
                | "Float32" | "Float16" | "Int64" | "Int32" | "UInt8" => {
                    let dims = match spec.get(1) {
                        Some(Expr::StringLiteral(s)) => parse_dims(s.value.to_str()),
                        _ => None,
                    };
                    Some(dims.map_or(ParamKind::Tensor, ParamKind::Shaped))
                }
                // Seed 003's named dim of a size argument: `D["in"]`.
                "D" => match spec.as_slice() {
                    [Expr::StringLiteral(s)] => match parse_dims(s.value.to_str()).as_deref() {
                        Some([AnnotatedDim::Name(n)]) => Some(ParamKind::NamedSize(n.clone())),
                        _ => Some(ParamKind::Size),
                    },
                    _ => Some(ParamKind::Unknown),
                },
                // torchtyping: TensorType["b", "c", float]; seed 003's T["b c"].
                "TensorType" | "T" => {
                    let mut dims = Vec::new();
                    for e in spec {
                        match e {
                            Expr::StringLiteral(s) => dims.extend(parse_dims(s.value.to_str())?),
                            Expr::NumberLiteral(n) => match &n.value {
                                ruff_python_ast::Number::Int(i) => {
                                    dims.push(AnnotatedDim::Const(i.as_i64()?))
                                }
                                _ => return Some(ParamKind::Tensor),
                            },
                            Expr::EllipsisLiteral(_) => dims.push(AnnotatedDim::Variadic),
                            _ => {}
                        }
                    }
                    Some(ParamKind::Shaped(dims))
                }
                // Containers and unions: not a single tensor.
                _ => Some(ParamKind::Unknown),
            }
        }
        _ => None,
    }
}

/// `"b c (h w) 3 ..."` as dims; `None` on anything not understood.
pub fn parse_dims(spec: &str) -> Option<Vec<AnnotatedDim>> {
    let mut out = Vec::new();
    let mut rest = spec.trim();
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix('(') {
            let end = inner.find(')')?;
            let names: Vec<String> = inner[..end]
                .split_whitespace()
                .map(str::to_string)
                .collect();
            if names
                .iter()
                .any(|n| n.parse::<i64>().is_ok() || n.starts_with('*'))
            {
                return None;
            }
            out.push(AnnotatedDim::Product(names));
            rest = inner[end + 1..].trim_start();
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let token = &rest[..end];
        rest = rest[end..].trim_start();
        // jaxtyping modifiers: `#b` (broadcastable), `_b` (unchecked), `b=3` (documentation).
        let token = token.trim_start_matches(['#', '_']);
        let token = token.split('=').next().unwrap_or(token);
        out.push(if token == "..." || token.starts_with('*') {
            AnnotatedDim::Variadic
        } else if let Ok(c) = token.parse::<i64>() {
            AnnotatedDim::Const(c)
        } else if token.is_empty() {
            return None;
        } else {
            AnnotatedDim::Name(token.to_string())
        });
    }
    Some(out)
}

#[cfg(test)]
#[path = "params_tests.rs"]
mod tests;
