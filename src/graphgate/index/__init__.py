"""Indexing stages: pure functions over typed tables, and the pipeline that runs them."""
