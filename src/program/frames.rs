//! Binding a call's arguments to a function's parameters: positional, keyword, defaults
//! (evaluated where the function is defined), `*args` and `**kwargs`.

use std::collections::HashMap;

use ruff_python_ast::{Expr, ParameterWithDefault, StmtFunctionDef};

use super::interp::Interp;
use super::value::V;

impl<'a> Interp<'a> {
    pub(super) fn bind_params(
        &mut self,
        def: &'a StmtFunctionDef,
        this: Option<V<'a>>,
        args: Vec<V<'a>>,
        mut kwargs: Vec<(String, V<'a>)>,
    ) -> HashMap<String, V<'a>> {
        let p = &def.parameters;
        let mut frame = HashMap::new();
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
                if known { V::Dict(kwargs) } else { V::Unknown },
            );
        }
        frame
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
        let saved = std::mem::take(&mut self.locals);
        let v = self.eval(e);
        self.locals = saved;
        v
    }
}
