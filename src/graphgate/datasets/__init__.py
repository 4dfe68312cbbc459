"""Converters from public benchmark formats to a graphgate corpus and question file."""
