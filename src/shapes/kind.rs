//! Finding kinds: what went wrong, in the words a user searches for. Each kind has a stable
//! code (used in JSON, SARIF rule ids and the `findings` table) and an explanation
//! (`docs/findings.md`). A kind is declared where its requirement is made: by the rule
//! family or the rule (`crate::catalogue`), by the check that knows better (a dim index, an
//! output size, an index bound), or by the interpreter (asserts, unpacking).

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
}

/// What a check declares its violation to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Declared {
    /// This, whatever the operator: a dim index out of range, an output size below one,
    /// an index past its dim.
    Specific(FindingKind),
    /// This, unless the operator has a kind of its own: operands that do not broadcast are
    /// a broadcast mismatch in `add`, but a target that does not fit in a loss.
    Generic(FindingKind),
}

impl Declared {
    /// Operands that do not broadcast (or expand) to a common shape.
    pub const BROADCAST: Declared = Declared::Generic(FindingKind::BroadcastMismatch);

    /// The kind of a violation: what its check declared, weighed against the operator's.
    pub fn resolve(declared: Option<Declared>, operator: FindingKind) -> FindingKind {
        match declared {
            Some(Declared::Specific(k)) => k,
            Some(Declared::Generic(k)) if operator == FindingKind::ShapeMismatch => k,
            _ => operator,
        }
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
    fn a_generic_declaration_yields_to_the_operators_kind() {
        use FindingKind::*;
        let generic = Some(Declared::Generic(BroadcastMismatch));
        assert_eq!(Declared::resolve(generic, ShapeMismatch), BroadcastMismatch);
        assert_eq!(Declared::resolve(generic, LossTarget), LossTarget);
        let specific = Some(Declared::Specific(DimOutOfRange));
        assert_eq!(Declared::resolve(specific, LossTarget), DimOutOfRange);
        assert_eq!(Declared::resolve(None, LossTarget), LossTarget);
    }
}
