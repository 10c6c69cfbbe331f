"""Message-passing graph networks in plain torch."""
