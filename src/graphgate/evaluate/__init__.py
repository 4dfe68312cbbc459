"""The retrieval evaluation harness: test sets, metrics, attribution, comparison and reports."""
