"""GRU encoder-decoder for toy translation."""
