"""Framework integrations (LangChain, LlamaIndex, Ray) and embedding adapters, each loaded only when imported."""
