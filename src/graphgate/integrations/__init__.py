"""graphgate inside the frameworks pipelines are built in: retrievers for LangChain
(``graphgate.integrations.langchain``) and LlamaIndex (``graphgate.integrations.llama_index``),
each an optional extra, over a local workspace or a remote server."""
