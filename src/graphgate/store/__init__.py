"""Graph, vector and full-text storage behind one interface."""
