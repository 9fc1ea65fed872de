"""Benchmarks: figures are printed and recorded, never asserted by tests."""
