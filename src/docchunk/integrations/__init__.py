"""Framework integrations (LangChain, LlamaIndex); each loads its framework only when imported."""
