//! Binding a call's arguments to a function's parameters: positional, keyword, defaults
//! (evaluated where the function is defined), `*args` and `**kwargs`.

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use ruff_python_ast::{Expr, ParameterWithDefault, Parameters, StmtFunctionDef};

use super::interp::{Interp, MAX_DEPTH};
use super::value::V;

impl<'a> Interp<'a> {
    pub(super) fn bind_params(
        &mut self,
        def: &'a StmtFunctionDef,
        this: Option<V<'a>>,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
    ) -> HashMap<String, V<'a>> {
        self.bind_parameters(&def.parameters, this, args, kwargs)
    }

    /// [`Interp::bind_params`] for a parameter list (a function's or a lambda's).
    pub(super) fn bind_parameters(
        &mut self,
        p: &'a Parameters,
        this: Option<V<'a>>,
        args: Vec<V<'a>>,
        mut kwargs: Vec<(String, V<'a>)>,
    ) -> HashMap<String, V<'a>> {
        let mut frame = HashMap::default();
        let mut positional = this.into_iter().chain(args);
        let unknown_kwargs = kwargs.iter().any(|(k, _)| k == "**");
        for param in p.posonlyargs.iter().chain(p.args.iter()) {
            let name = param.parameter.name.id.as_str();
            let v = match positional.next() {
                Some(v) => v,
                None => self.keyword_or_default(&mut kwargs, param, unknown_kwargs),
            };
            frame.insert(name.to_string(), v);
        }
        let rest: Vec<V<'a>> = positional.collect();
        if let Some(va) = &p.vararg {
            // A unit's own entry passes nothing: its `*args` are unknown, not empty.
            let v = if unknown_kwargs {
                V::Unknown
            } else {
                V::Tuple(rest)
            };
            frame.insert(va.name.id.to_string(), v);
        }
        for param in p.kwonlyargs.iter() {
            let v = self.keyword_or_default(&mut kwargs, param, unknown_kwargs);
            frame.insert(param.parameter.name.id.to_string(), v);
        }
        if let Some(kw) = &p.kwarg {
            let known = !unknown_kwargs;
            frame.insert(
                kw.name.id.to_string(),
                if known { V::dict(kwargs) } else { V::Unknown },
            );
        }
        frame
    }

    /// Whether Python rejects binding these arguments to `p` with a `TypeError` at the call:
    /// too many positional arguments, an unexpected or repeated keyword, a required
    /// parameter not given. Never when a mapping or a sequence of unknown length was spread
    /// in (`**` among the keywords).
    pub(super) fn rejects_arguments(
        p: &Parameters,
        positional: usize,
        kwargs: &[(String, V<'a>)],
    ) -> bool {
        if kwargs.iter().any(|(k, _)| k == "**") {
            return false;
        }
        let by_position: Vec<&ParameterWithDefault> =
            p.posonlyargs.iter().chain(p.args.iter()).collect();
        if positional > by_position.len() && p.vararg.is_none() {
            return true;
        }
        let named = |name: &str| kwargs.iter().any(|(k, _)| k == name);
        for (i, param) in by_position.iter().enumerate() {
            let name = param.parameter.name.id.as_str();
            let given = i < positional;
            let posonly = i < p.posonlyargs.len();
            if given && named(name) && !posonly {
                return true;
            }
            if !given && param.default.is_none() && (posonly || !named(name)) {
                return true;
            }
        }
        for param in p.kwonlyargs.iter() {
            if param.default.is_none() && !named(param.parameter.name.id.as_str()) {
                return true;
            }
        }
        let accepts = |k: &str| {
            p.args
                .iter()
                .chain(p.kwonlyargs.iter())
                .any(|a| a.parameter.name.id.as_str() == k)
        };
        p.kwarg.is_none() && kwargs.iter().any(|(k, _)| !accepts(k))
    }

    /// A parameter not passed positionally: its keyword argument (taken out of `kwargs`),
    /// else unknown when an unknown mapping was spread in, else its default.
    fn keyword_or_default(
        &mut self,
        kwargs: &mut Vec<(String, V<'a>)>,
        param: &'a ParameterWithDefault,
        unknown_kwargs: bool,
    ) -> V<'a> {
        let name = param.parameter.name.id.as_str();
        match kwargs.iter().position(|(k, _)| k == name) {
            Some(i) => kwargs.remove(i).1,
            None if unknown_kwargs => V::Unknown,
            None => match &param.default {
                Some(d) => self.eval_in_globals(d),
                None => V::Unknown,
            },
        }
    }

    /// Defaults are evaluated where the function is defined: module level here.
    fn eval_in_globals(&mut self, e: &'a Expr) -> V<'a> {
        let saved = std::mem::take(&mut self.run.locals);
        let v = self.eval(e);
        self.run.locals = saved;
        v
    }

    /// Evaluates a lambda's body with its parameters bound, over the frame it captured.
    pub(super) fn call_lambda(
        &mut self,
        lambda: &'a ruff_python_ast::ExprLambda,
        captured: Option<Rc<super::closures::Captured<'a>>>,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
    ) -> V<'a> {
        if self.run.depth >= MAX_DEPTH {
            return V::Unknown;
        }
        let mut frame = match &lambda.parameters {
            Some(p) => self.bind_parameters(p, None, args, kwargs),
            None => HashMap::default(),
        };
        let shared = captured.and_then(|c| {
            self.bind_captured(
                || super::closures::lambda_owned_names(lambda),
                &c,
                &mut frame,
            )
        });
        self.run.depth += 1;
        self.run.locals.push(Rc::new(frame));
        let out = self.eval(&lambda.body);
        if let Some(shared) = shared {
            self.write_back_shared(shared);
        }
        self.run.locals.pop();
        self.run.depth -= 1;
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::assert_twins;

    /// A lambda bound to a name is a function: `flat(z)` reshapes as its body says, with
    /// the module-level sizes and its own parameter.
    #[test]
    fn a_named_lambda_runs_its_body() {
        let src = r#"
import torch
import torch.nn.functional as F

T, N = 16, 4
flat = lambda z, lead=T * N: z.reshape(lead, *z.shape[2:])
logits = flat(torch.randn(T, N, 6))
F.log_softmax(logits, dim=-1).sum(dim=DIM)
"#;
        assert_twins(src, "DIM", "2", "1", 8);
    }
}
