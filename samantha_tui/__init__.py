"""samantha-tui: a terminal curator for a samantha-llm memory tree."""

__version__ = "0.1.0"
