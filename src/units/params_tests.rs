use super::*;

#[test]
fn jaxtyping_strings_parse() {
    use AnnotatedDim::*;
    assert_eq!(
        parse_dims("batch c (h w) 3"),
        Some(vec![
            Name("batch".into()),
            Name("c".into()),
            Product(vec!["h".into(), "w".into()]),
            Const(3)
        ])
    );
    assert_eq!(parse_dims("... d"), Some(vec![Variadic, Name("d".into())]));
    assert_eq!(parse_dims("*b n"), Some(vec![Variadic, Name("n".into())]));
    assert_eq!(
        parse_dims("#b _c d=4"),
        Some(vec![Name("b".into()), Name("c".into()), Name("d".into())])
    );
}

fn first_def(src: &str) -> StmtFunctionDef {
    let m = crate::frontend::parse_python(src).unwrap();
    match m.body.into_iter().next() {
        Some(Stmt::FunctionDef(f)) => f,
        _ => panic!("no def"),
    }
}

/// The kinds of the parameters of the `index`-th function of `src`, with the file's other
/// functions as helpers.
fn kinds_with_helpers(src: &str, index: usize) -> Vec<ParamKind> {
    let m = crate::frontend::parse_python(src).unwrap();
    let defs: Vec<&StmtFunctionDef> = m
        .body
        .iter()
        .filter_map(|s| match s {
            Stmt::FunctionDef(f) => Some(f),
            _ => None,
        })
        .collect();
    let helpers = |name: &str| defs.iter().copied().find(|d| d.name.id.as_str() == name);
    classify_with(defs[index], false, false, &helpers)
        .into_iter()
        .map(|(_, k, _)| k)
        .collect()
}

fn kinds_of(def: &StmtFunctionDef) -> Vec<ParamKind> {
    classify(def, false, false)
        .into_iter()
        .map(|(_, k, _)| k)
        .collect()
}

#[test]
fn parameters_are_classified_by_use() {
    let def = first_def(
        "def f(x, k, model, cfg, n):\n    y = x.permute(0, 2, 1)\n    z = F.avg_pool1d(y, k)\n    out = model(z)\n    a = cfg['dim']\n    for i in range(n):\n        pass\n",
    );
    let kinds = kinds_of(&def);
    assert_eq!(
        kinds,
        vec![
            ParamKind::Tensor,
            ParamKind::Size,
            ParamKind::Unknown,
            ParamKind::Unknown,
            ParamKind::Size
        ]
    );
}

#[test]
fn weights_and_targets_of_torch_functions_are_tensors() {
    let def = first_def(
        "def f(ids, table, x, w, b, y, dim, q):\n    e = F.embedding(ids, table)\n    h = F.linear(x, w, b)\n    return F.mse_loss(h, y) + F.softmax(e, dim) + torch.einsum('bd,d->b', x, q)\n",
    );
    let kinds = kinds_of(&def);
    assert_eq!(
        kinds,
        vec![
            ParamKind::Tensor,
            ParamKind::Tensor,
            // The einsum's subscripts declare the ranks of `x` and `q`.
            ParamKind::Ranked(2),
            ParamKind::Tensor,
            ParamKind::Tensor,
            ParamKind::Tensor,
            ParamKind::Size,
            ParamKind::Ranked(1)
        ]
    );
}

/// The sizes of a reshape are ints (`ws` in `x.view(b, h // ws, ws, c)`); a single
/// argument may be a whole shape tuple and says nothing.
#[test]
fn reshape_sizes_are_sizes() {
    let def = first_def(
        "def f(x, ws, shape, k):\n    b, h, w, c = x.shape\n    y = x.view(b, h // ws, ws, w // ws, ws, c)\n    z = x.reshape(shape)\n    return y.expand((k, -1, -1, -1, -1, -1)), z\n",
    );
    let kinds = kinds_of(&def);
    assert_eq!(
        kinds,
        vec![
            ParamKind::Ranked(4),
            ParamKind::Size,
            ParamKind::Unknown,
            ParamKind::Size
        ]
    );
}

/// An argument in the place of a helper's size parameter is a size, through helpers
/// calling helpers (up to the depth limit).
#[test]
fn sizes_carry_over_from_the_helpers_a_body_calls() {
    let src = "def conv(cin, cout, k):\n    return nn.Conv2d(cin, cout, k)\ndef block(a, b):\n    return conv(a, b, 3)\ndef f(x, n, m, other):\n    y = block(n, b=m)\n    return other(x)\n";
    let kinds = kinds_with_helpers(src, 2);
    assert_eq!(
        kinds,
        vec![
            ParamKind::Unknown,
            ParamKind::Size,
            ParamKind::Size,
            ParamKind::Unknown
        ]
    );
    // Without the helpers, `n` has no evidence.
    let m = crate::frontend::parse_python(src).unwrap();
    let Some(Stmt::FunctionDef(f)) = m.body.get(2) else {
        panic!("no third def")
    };
    assert_eq!(kinds_of(f)[1], ParamKind::Unknown);
}

#[test]
fn einsum_subscripts_declare_operand_ranks() {
    let def = first_def(
        r#"
def scores(q, k, queue, bias):
    q = q * 2
    pos = torch.einsum("nc, nc->n", q, k)
    neg = torch.einsum("nc,kc->nk", q, queue)
    return torch.einsum("...d,d->...", neg, bias)
"#,
    );
    // `q` is rebound before its einsum; `bias`'s subscript declares one dim, `neg` is
    // not a parameter.
    assert_eq!(
        kinds_of(&def),
        vec![
            ParamKind::Tensor,
            ParamKind::Ranked(2),
            ParamKind::Ranked(2),
            ParamKind::Ranked(1)
        ]
    );
}

/// A parameter passed unchanged to a helper parameter of declared rank has that rank.
#[test]
fn declared_ranks_carry_over_from_helpers() {
    let kinds = kinds_with_helpers(
        "def logits(q, queue):\n    return torch.einsum(\"nc,kc->nk\", q, queue)\ndef loss(q, queue, labels):\n    return F.cross_entropy(logits(q, queue), labels)\n",
        1,
    );
    assert_eq!(kinds[..2], [ParamKind::Ranked(2), ParamKind::Ranked(2)]);
}
