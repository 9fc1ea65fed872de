"""Screens and modals of the curator."""
