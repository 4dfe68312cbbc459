"""Retrieval modes and answer generation over a loaded index."""
