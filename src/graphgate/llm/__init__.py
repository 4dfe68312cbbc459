"""Chat models behind one interface: OpenAI-compatible and Anthropic, cached and counted."""
