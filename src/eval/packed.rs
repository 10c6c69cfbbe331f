//! Packed sequences: `nn.utils.rnn.pack_padded_sequence` hands a recurrent module its input
//! time-major whatever the module's `batch_first`, the module's packed output is unpacked by
//! `pad_packed_sequence(..., batch_first=...)`, and its hidden state is `[layers * dirs, B, H]`
//! as usual. A packed value keeps the padded tensor time-major, so the module's own rule
//! applies after laying it out as the module expects.

use ruff_text_size::TextRange;

use super::interp::Interp;
use super::value::{TorchModule, V};
use crate::shapes::Value;

const RECURRENT: &[&str] = &["torch.nn.LSTM", "torch.nn.GRU", "torch.nn.RNN"];

/// `batch_first` among keyword arguments (positional index `pos`), default `False`.
fn batch_first<'a>(args: &[V<'a>], kwargs: &[(String, V<'a>)], pos: usize) -> Option<bool> {
    let v = kwargs
        .iter()
        .find(|(k, _)| k == "batch_first")
        .map(|(_, v)| v)
        .or(args.get(pos));
    match v {
        None => Some(false),
        Some(v) => v.truth(),
    }
}

impl<'a> Interp<'a> {
    fn swap_batch_time(&mut self, x: V<'a>, span: TextRange) -> V<'a> {
        let args = vec![x, V::Data(Value::int(0)), V::Data(Value::int(1))];
        self.apply_function("torch.Tensor.transpose", args, Vec::new(), span, &[])
    }

    /// `pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True)`.
    pub fn pack_padded(
        &mut self,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> V<'a> {
        let Some(x) = args.first().filter(|x| x.is_tensor()).cloned() else {
            return V::Unknown;
        };
        match batch_first(args, kwargs, 2) {
            Some(true) => V::Packed(Box::new(self.swap_batch_time(x, span))),
            Some(false) => V::Packed(Box::new(x)),
            None => V::Unknown,
        }
    }

    /// `pad_packed_sequence(sequence, batch_first=False, ...)`: `(padded, lengths)`.
    pub fn pad_packed(
        &mut self,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> V<'a> {
        let Some(V::Packed(x)) = args.first() else {
            return V::Unknown;
        };
        let padded = match batch_first(args, kwargs, 1) {
            Some(true) => self.swap_batch_time((**x).clone(), span),
            Some(false) => (**x).clone(),
            None => return V::Unknown,
        };
        V::Tuple(vec![padded, V::Unknown])
    }

    /// A recurrent module applied to a packed sequence: `(packed output, hidden)`. `None`
    /// when the module is not recurrent or the input is not packed.
    pub fn rnn_on_packed(
        &mut self,
        m: &TorchModule,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> Option<V<'a>> {
        let V::Packed(x) = args.first()? else {
            return None;
        };
        if !RECURRENT.contains(&m.value.class.as_str()) {
            return None;
        }
        let module_batch_first = match m.value.params.get("batch_first") {
            Some(Value::Bool(b)) => *b,
            None => Some(false),
            _ => None,
        };
        let Some(bf) = module_batch_first else {
            return Some(V::Unknown);
        };
        let input = if bf {
            self.swap_batch_time((**x).clone(), span)
        } else {
            (**x).clone()
        };
        let mut all = vec![input];
        all.extend(args[1..].iter().cloned());
        let out = self.apply_module(m, all, kwargs.to_vec(), span);
        Some(match out {
            V::Tuple(mut items) if items.len() == 2 => {
                let output = items.remove(0);
                let output = if bf {
                    self.swap_batch_time(output, span)
                } else {
                    output
                };
                V::Tuple(vec![V::Packed(Box::new(output)), items.remove(0)])
            }
            _ => V::Unknown,
        })
    }
}
