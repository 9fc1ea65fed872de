"""Reusable widgets of the curator."""
