"""Eight quality gates, one per stage boundary, over the artifacts of an index run."""
