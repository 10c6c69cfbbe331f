"""nlp_playground: toy attention models used to exercise shapehound."""

__version__ = "0.1.0"
