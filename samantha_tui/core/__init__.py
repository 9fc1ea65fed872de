"""The Textual-free core: reading, checking and writing a samantha-llm memory tree."""
