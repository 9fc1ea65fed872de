"""Headless commands: one module each, with `register(commands)` adding its parser and handler."""
