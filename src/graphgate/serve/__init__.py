"""Serving graphgate: the HTTP API, the MCP server and Prometheus metrics, over one Workspace."""
