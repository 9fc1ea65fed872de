"""The words every room shares: kinds and records (model), what a change is (plans), errors,
digests, the clock, JSON read with limits, and how values are worded. Imports no other room."""
