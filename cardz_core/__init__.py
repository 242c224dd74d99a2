"""cardz: solitaire card games written as data."""

__version__ = "0.1.0"
