//! Operator rule: `torch.einsum` (equation parsing, `...` broadcasting, repeated subscripts).
//! (See `catalogue/mod.rs` for the conventions.)

use super::common::*;
use super::{invalid, tensor_out, unsupported, Ctx, Rule, RuleError, RuleResult};
use std::collections::BTreeMap;

use crate::shapes::kind::FindingKind;
use crate::shapes::shape::{broadcast, Dim, Shape};
use crate::shapes::value::Value;

/// What this family's failures are, unless a rule or a check declares otherwise.
pub const KIND: FindingKind = FindingKind::MatmulMismatch;

pub const RULES: &[Rule] = &[Rule::function("torch.einsum", einsum)];

// ---------------------------------------------------------------------------------------
// einsum
// ---------------------------------------------------------------------------------------

/// One operand's subscripts: letters and at most one ellipsis (its position).
struct Term {
    labels: Vec<char>,
    ellipsis: Option<usize>,
}

/// Parses one comma-separated part of an einsum equation (letters and at most one `...`).
fn parse_term(ctx: &Ctx, s: &str, offset: usize) -> Result<Term, RuleError> {
    let chars: Vec<char> = s.chars().collect();
    let mut labels = Vec::new();
    let mut ellipsis = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphabetic() {
            labels.push(c);
            i += 1;
        } else if c == '.' && chars.get(i..i + 3) == Some(&['.', '.', '.']) && ellipsis.is_none() {
            ellipsis = Some(labels.len());
            i += 3;
        } else {
            return invalid(format!(
                "{}: einsum(): invalid subscript given at index {} in the equation string, subscripts must be in [a-zA-Z]",
                ctx.op,
                offset + i
            ));
        }
    }
    Ok(Term { labels, ellipsis })
}

/// The equation and operands of either calling convention: `einsum(eq, *ops)`,
/// `einsum(eq, [ops])`, or the sublist form `einsum(op0, [0, 1], op1, [1, 2], [0, 2])`.
fn einsum_inputs(ctx: &Ctx) -> Result<(String, Vec<Value>), RuleError> {
    ctx.read_all();
    let missing = || {
        invalid(format!(
            "{}: einsum(): must specify the equation string and at least one operand, or at least one operand and its subscript",
            ctx.op
        ))
    };
    match ctx.args.first() {
        Some(Value::Str(Some(eq))) => {
            let ops = match ctx.rest(1) {
                [] => return missing(),
                [one] if one.as_tensor().is_none() => match one.elements() {
                    Some(items) => items,
                    None => vec![one.clone()],
                },
                many => many.to_vec(),
            };
            Ok((eq.clone(), ops))
        }
        Some(Value::Str(None)) => unsupported(format!("{}: unknown equation", ctx.op)),
        Some(_) => {
            let letter = |v: &Value| -> Result<String, RuleError> {
                match v {
                    Value::Ellipsis => Ok("...".into()),
                    _ => match v.as_const_int() {
                        Some(i @ 0..=25) => Ok(((b'A' + i as u8) as char).to_string()),
                        Some(i @ 26..=51) => Ok(((b'a' + (i - 26) as u8) as char).to_string()),
                        _ => invalid(format!("{}: einsum(): invalid sublist entry {v}", ctx.op)),
                    },
                }
            };
            let sub = |v: &Value| -> Result<String, RuleError> {
                match v.elements() {
                    Some(items) => items.iter().map(letter).collect(),
                    None => invalid(format!("{}: einsum(): expected a sublist, got {v}", ctx.op)),
                }
            };
            let args = &ctx.args;
            let mut ops = Vec::new();
            let mut terms = Vec::new();
            let mut i = 0;
            while i + 1 < args.len() {
                ops.push(args[i].clone());
                terms.push(sub(&args[i + 1])?);
                i += 2;
            }
            let mut eq = terms.join(",");
            if i < args.len() {
                eq.push_str("->");
                eq.push_str(&sub(&args[i])?);
            }
            if ops.is_empty() {
                return missing();
            }
            Ok((eq, ops))
        }
        None => missing(),
    }
}

/// Merges a subscript's size with the size seen before: equal, or one of them 1 (einsum
/// broadcasts size-1 dims).
fn einsum_merge(ctx: &mut Ctx, prev: &Dim, new: &Dim, msg: String) -> Result<Dim, RuleError> {
    let mut reqs = Vec::new();
    let out = broadcast(
        &Shape::Ranked(vec![prev.clone()]),
        &Shape::Ranked(vec![new.clone()]),
        "einsum",
        &mut reqs,
    );
    for r in reqs {
        ctx.require(r.pred, msg.clone())?;
    }
    Ok(out
        .dims()
        .and_then(|d| d.first().cloned())
        .unwrap_or(Dim::Dyn))
}

/// `torch.einsum(equation, *operands)`: subscripts are letters (`[a-zA-Z]`), `...` covers
/// the remaining dims of an operand (broadcast across operands), spaces are ignored. Each
/// operand's subscript count must equal its rank (at most its rank with `...`). A subscript
/// repeated within one operand takes the diagonal (sizes must be equal); across operands the
/// sizes must be equal or 1 (broadcast). Explicit output (`->`): each output subscript must
/// appear in an input and at most once. Implicit output: the broadcast `...` dims, then the
/// subscripts appearing exactly once, in ASCII order (upper case first). The operand count
/// must match the equation.
fn einsum(ctx: &mut Ctx) -> RuleResult {
    let (eq, ops) = einsum_inputs(ctx)?;
    let eq: String = eq.chars().filter(|c| *c != ' ').collect();
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l.to_string(), Some(r.to_string())),
        None => (eq.clone(), None),
    };
    let mut terms = Vec::new();
    let mut offset = 0;
    for part in lhs.split(',') {
        terms.push(parse_term(ctx, part, offset)?);
        offset += part.len() + 1;
    }
    let out_term = match &rhs {
        Some(r) => Some(parse_term(ctx, r, lhs.len() + 2)?),
        None => None,
    };
    if terms.len() > ops.len() {
        return invalid(format!(
            "{}: einsum(): fewer operands were provided than specified in the equation",
            ctx.op
        ));
    }
    if terms.len() < ops.len() {
        return invalid(format!(
            "{}: einsum(): more operands were provided than specified in the equation",
            ctx.op
        ));
    }
    let mut sizes: BTreeMap<char, Dim> = BTreeMap::new();
    let mut counts: BTreeMap<char, usize> = BTreeMap::new();
    let mut ell: Option<Vec<Dim>> = None;
    let mut dtype = None;
    for (k, (term, op)) in terms.iter().zip(&ops).enumerate() {
        let t = match op {
            Value::Tensor(t) => t.clone(),
            Value::Unknown => return unsupported(format!("{}: unknown operand", ctx.op)),
            other => {
                return invalid(format!(
                    "{}: einsum(): operands must be tensors, got {other}",
                    ctx.op
                ))
            }
        };
        dtype = dtype.or(t.dtype);
        let Some(dims) = t.shape.dims().map(<[Dim]>::to_vec) else {
            return unsupported(format!("{}: rank of operand {k} is unknown", ctx.op));
        };
        let n = term.labels.len();
        let ok = match term.ellipsis {
            Some(_) => dims.len() >= n,
            None => dims.len() == n,
        };
        if !ok {
            return invalid(format!(
                "{}: einsum(): the number of subscripts in the equation ({n}) does not match the number of dimensions ({}) for operand {k}",
                ctx.op,
                dims.len()
            ));
        }
        let n_ell = dims.len() - n;
        let pos = term.ellipsis.unwrap_or(n);
        let ell_dims = dims[pos..pos + n_ell].to_vec();
        if term.ellipsis.is_some() {
            ell = Some(match ell {
                None => ell_dims,
                Some(prev) => broadcast_dims(ctx, &prev, &ell_dims)?,
            });
        }
        let mut own: BTreeMap<char, Dim> = BTreeMap::new();
        for (j, c) in term.labels.iter().enumerate() {
            let d = &dims[if j < pos { j } else { j + n_ell }];
            *counts.entry(*c).or_default() += 1;
            if let Some(first) = own.get(c).cloned() {
                let msg = format!(
                    "{}: einsum(): subscript {c} is repeated for operand {k} but the sizes don't match, {d} != {first}",
                    ctx.op
                );
                ctx.require_eq(&first, d, msg)?;
                continue;
            }
            own.insert(*c, d.clone());
            let merged = match sizes.get(c).cloned() {
                None => d.clone(),
                Some(prev) => {
                    let msg = format!(
                        "{}: einsum(): subscript {c} has size {d} for operand {k} which does not broadcast with previously seen size {prev}",
                        ctx.op
                    );
                    einsum_merge(ctx, &prev, d, msg)?
                }
            };
            sizes.insert(*c, merged);
        }
    }
    let ell = ell.unwrap_or_default();
    let mut out = Vec::new();
    match out_term {
        Some(term) => {
            for (j, c) in term.labels.iter().enumerate() {
                if term.ellipsis == Some(j) {
                    out.extend(ell.iter().cloned());
                }
                if term.labels[..j].contains(c) {
                    return invalid(format!(
                        "{}: einsum(): output subscript {c} appears more than once in the output",
                        ctx.op
                    ));
                }
                match sizes.get(c) {
                    Some(d) => out.push(d.clone()),
                    None => {
                        return invalid(format!(
                            "{}: einsum(): output subscript {c} does not appear in the equation for any input operand",
                            ctx.op
                        ))
                    }
                }
            }
            if term.ellipsis == Some(term.labels.len()) {
                out.extend(ell.iter().cloned());
            }
        }
        None => {
            out.extend(ell.iter().cloned());
            for (c, n) in &counts {
                if *n == 1 {
                    out.push(sizes[c].clone());
                }
            }
        }
    }
    Ok(tensor_out(out, dtype))
}
