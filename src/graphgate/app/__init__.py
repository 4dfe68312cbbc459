"""The composition root and what it serves: the workspace that wires the parts, the
background work it starts, and the read models (history, status, explore) the CLI, the HTTP
API and MCP show.
"""
