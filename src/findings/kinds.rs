//! Finding kinds: what went wrong, in the words a user searches for. Each kind has a stable
//! code (used in JSON, SARIF rule ids and the `findings` table) and an explanation.

/// The kind of a shape bug.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum FindingKind {
    /// A convolution or normalisation layer gets a tensor whose channel dim (dim 1, or dim 0
    /// unbatched) differs from the layer's `in_channels` / `num_features`.
    ChannelMismatch,
    /// A `Linear`/`Bilinear`/`LayerNorm`/`Embedding`-fed layer gets a last dim that differs
    /// from its `in_features` (often after a `flatten` or `view` with the wrong count).
    FeatureMismatch,
    /// `matmul`/`mm`/`bmm`/`@`/`einsum`: inner dims differ, or batch dims do not broadcast.
    MatmulMismatch,
    /// An elementwise operation on shapes that do not broadcast.
    BroadcastMismatch,
    /// `view`/`reshape`/`unflatten` to a shape with a different number of elements.
    ReshapeNumel,
    /// `cat`/`stack` of tensors whose other dims differ (or a bad concatenation dim).
    ConcatMismatch,
    /// A `dim` argument outside `[-rank, rank)`: squeeze, unsqueeze, softmax, sum, transpose.
    DimOutOfRange,
    /// `permute` with the wrong number of dims, or an operation given the wrong rank.
    RankMismatch,
    /// A kernel larger than the padded input, or pooling that shrinks a dim to zero.
    EmptyOutput,
    /// A recurrent layer's `input_size` differs from the input's feature dim.
    RecurrentInput,
    /// Attention: `embed_dim` not divisible by `num_heads`, or query/key/value dims differ.
    AttentionMismatch,
    /// A loss whose target shape does not fit the input.
    LossTarget,
    /// An index outside a dim.
    IndexOutOfBounds,
    /// An `assert` on shapes that cannot hold.
    AssertionFails,
    /// Any other contradictory shape requirement.
    ShapeMismatch,
}

impl FindingKind {
    pub const ALL: [FindingKind; 15] = [
        FindingKind::ChannelMismatch,
        FindingKind::FeatureMismatch,
        FindingKind::MatmulMismatch,
        FindingKind::BroadcastMismatch,
        FindingKind::ReshapeNumel,
        FindingKind::ConcatMismatch,
        FindingKind::DimOutOfRange,
        FindingKind::RankMismatch,
        FindingKind::EmptyOutput,
        FindingKind::RecurrentInput,
        FindingKind::AttentionMismatch,
        FindingKind::LossTarget,
        FindingKind::IndexOutOfBounds,
        FindingKind::AssertionFails,
        FindingKind::ShapeMismatch,
    ];

    pub fn code(self) -> &'static str {
        match self {
            FindingKind::ChannelMismatch => "channel-mismatch",
            FindingKind::FeatureMismatch => "feature-mismatch",
            FindingKind::MatmulMismatch => "matmul-mismatch",
            FindingKind::BroadcastMismatch => "broadcast-mismatch",
            FindingKind::ReshapeNumel => "reshape-numel",
            FindingKind::ConcatMismatch => "concat-mismatch",
            FindingKind::DimOutOfRange => "dim-out-of-range",
            FindingKind::RankMismatch => "rank-mismatch",
            FindingKind::EmptyOutput => "empty-output",
            FindingKind::RecurrentInput => "recurrent-input",
            FindingKind::AttentionMismatch => "attention-mismatch",
            FindingKind::LossTarget => "loss-target",
            FindingKind::IndexOutOfBounds => "index-out-of-bounds",
            FindingKind::AssertionFails => "assertion-fails",
            FindingKind::ShapeMismatch => "shape-mismatch",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            FindingKind::ChannelMismatch => "channel count does not match the layer",
            FindingKind::FeatureMismatch => "feature size does not match the layer",
            FindingKind::MatmulMismatch => "matrix product of incompatible shapes",
            FindingKind::BroadcastMismatch => "shapes do not broadcast",
            FindingKind::ReshapeNumel => "reshape changes the number of elements",
            FindingKind::ConcatMismatch => "concatenated tensors do not fit together",
            FindingKind::DimOutOfRange => "dimension out of range",
            FindingKind::RankMismatch => "wrong number of dimensions",
            FindingKind::EmptyOutput => "kernel or pooling larger than the input",
            FindingKind::RecurrentInput => "recurrent layer input size mismatch",
            FindingKind::AttentionMismatch => "attention dimensions do not fit",
            FindingKind::LossTarget => "loss target does not fit the input",
            FindingKind::IndexOutOfBounds => "index out of bounds",
            FindingKind::AssertionFails => "shape assertion cannot hold",
            FindingKind::ShapeMismatch => "contradictory shape requirements",
        }
    }

    /// Classifies a failing obligation by its operator and message.
    pub fn classify(operator: &str, message: &str) -> FindingKind {
        let m = message.to_ascii_lowercase();
        let short = operator.rsplit('.').next().unwrap_or(operator);
        if operator == "assert" {
            return FindingKind::AssertionFails;
        }
        if m.contains("dimension out of range") {
            return FindingKind::DimOutOfRange;
        }
        if m.contains("kernel size can't be greater")
            || m.contains("output size is too small")
            || m.contains("output size is 0")
            || m.contains("pad should be at most half")
            || (m.contains("calculated") && m.contains("output size"))
        {
            return FindingKind::EmptyOutput;
        }
        if m.contains("out of bounds") || m.contains("out of range in self") {
            return FindingKind::IndexOutOfBounds;
        }
        let lower = short.to_ascii_lowercase();
        if operator.contains("Loss")
            || operator.contains("_loss")
            || lower.contains("cross_entropy")
        {
            return FindingKind::LossTarget;
        }
        if matches!(
            short,
            "RNN" | "LSTM" | "GRU" | "RNNCell" | "LSTMCell" | "GRUCell"
        ) {
            return FindingKind::RecurrentInput;
        }
        if lower.contains("attention")
            || short == "MultiheadAttention"
            || short.starts_with("Transformer")
        {
            return FindingKind::AttentionMismatch;
        }
        if lower.starts_with("conv")
            || lower.contains("batchnorm")
            || lower.contains("instancenorm")
            || lower.contains("groupnorm")
            || lower == "batch_norm"
            || lower == "group_norm"
        {
            // `Expected 3D (unbatched) or 4D (batched) input to conv2d`: the rank.
            if m.contains("(unbatched)") {
                return FindingKind::RankMismatch;
            }
            if m.contains("channels")
                || m.contains("running_mean")
                || m.contains("num_features")
                || m.contains("weight of size")
                || m.contains("expected input")
            {
                return FindingKind::ChannelMismatch;
            }
            if m.contains("expected") && m.contains("d input") {
                return FindingKind::RankMismatch;
            }
            return FindingKind::ChannelMismatch;
        }
        if matches!(
            short,
            "Linear" | "Bilinear" | "linear" | "bilinear" | "LayerNorm" | "layer_norm"
        ) {
            return FindingKind::FeatureMismatch;
        }
        if matches!(
            short,
            "matmul" | "mm" | "bmm" | "baddbmm" | "addmm" | "einsum" | "imatmul" | "mv" | "dot"
        ) {
            return FindingKind::MatmulMismatch;
        }
        if matches!(
            short,
            "view" | "reshape" | "unflatten" | "view_as" | "reshape_as"
        ) {
            return FindingKind::ReshapeNumel;
        }
        if matches!(
            short,
            "cat" | "concat" | "concatenate" | "stack" | "hstack" | "vstack"
        ) {
            return FindingKind::ConcatMismatch;
        }
        if matches!(short, "permute" | "transpose" | "flatten") || m.contains("number of dims") {
            return FindingKind::RankMismatch;
        }
        if lower.contains("pool") || lower.contains("interpolate") {
            return FindingKind::EmptyOutput;
        }
        if m.contains("must match the size") || m.contains("broadcast") {
            return FindingKind::BroadcastMismatch;
        }
        if m.contains("index") {
            return FindingKind::IndexOutOfBounds;
        }
        FindingKind::ShapeMismatch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique() {
        let mut codes: Vec<&str> = FindingKind::ALL.iter().map(|k| k.code()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), FindingKind::ALL.len());
    }

    #[test]
    fn classification_reads_message_before_operator() {
        assert_eq!(
            FindingKind::classify(
                "torch.Tensor.squeeze",
                "Dimension out of range (expected ...)"
            ),
            FindingKind::DimOutOfRange
        );
        assert_eq!(
            FindingKind::classify(
                "torch.nn.Linear",
                "mat1 and mat2 shapes cannot be multiplied"
            ),
            FindingKind::FeatureMismatch
        );
        assert_eq!(
            FindingKind::classify(
                "operator.add",
                "The size of tensor a (3) must match the size of tensor b (4)"
            ),
            FindingKind::BroadcastMismatch
        );
    }
}
