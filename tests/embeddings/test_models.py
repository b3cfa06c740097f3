"""The embedding models' names and limits: written once, in ``docchunk.embeddings.models``, read by every room."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

import docchunk
from docchunk import get_tokenizer
from docchunk.embeddings.models import DEFAULT_MODEL, HUB_DEFAULT_MODEL, INPUT_LIMITS

SRC = Path(docchunk.__file__).resolve().parent


def _string_values(tree: ast.AST) -> set[str]:
    """The string constants of a module, and the constant parts of its f-strings, docstrings left out."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    }


def test_the_default_model_name_is_written_once():
    """It was written in 5 places (evaluation, index, CLI, tokenizers, integrations), free to drift apart."""
    names = {DEFAULT_MODEL, HUB_DEFAULT_MODEL, "sentence-transformers/"}
    writers = sorted(
        path.relative_to(SRC).as_posix()
        for path in SRC.rglob("*.py")
        if names & _string_values(ast.parse(path.read_text(encoding="utf-8")))
    )
    assert writers == ["embeddings/models.py"]


def test_the_check_finds_a_name_written_in_code():
    assert DEFAULT_MODEL in _string_values(ast.parse(f"MODEL = {DEFAULT_MODEL!r}"))
    assert DEFAULT_MODEL not in _string_values(ast.parse(f'"""The default is {DEFAULT_MODEL}."""'))


@pytest.mark.parametrize("spec", [None, f"hf:{HUB_DEFAULT_MODEL}", f"hf:{DEFAULT_MODEL}"])
def test_the_default_tokenizer_has_the_tables_limit(spec):
    assert get_tokenizer(spec).max_tokens == INPUT_LIMITS[HUB_DEFAULT_MODEL] == 256


@pytest.mark.parametrize("model", ["text-embedding-3-small", "text-embedding-ada-002"])
def test_an_openai_models_tokenizer_has_the_tables_limit(model, cl100k):
    assert get_tokenizer(f"tiktoken:{model}").max_tokens == INPUT_LIMITS[model] == 8192


def test_the_old_home_of_the_sentence_transformers_adapter_warns_and_gives_the_same_class():
    from docchunk.embeddings.sentence_transformers import SentenceTransformerEmbeddings
    from docchunk.integrations import embeddings as old

    with pytest.warns(DeprecationWarning, match=r"docchunk\.embeddings\.sentence_transformers"):
        assert old.SentenceTransformerEmbeddings is SentenceTransformerEmbeddings
    with warnings.catch_warnings(), pytest.raises(AttributeError):
        warnings.simplefilter("error")
        old.CachedEmbedder  # noqa: B018 - never lived there


@pytest.mark.parametrize("name", ["DEFAULT_MODEL", "CachedEmbedder", "default_cache_dir", "load_model"])
def test_the_evaluations_old_embedding_names_warn_and_give_the_rooms(name):
    import docchunk.embeddings
    import docchunk.evaluation

    with pytest.warns(DeprecationWarning, match=rf"docchunk\.embeddings\.{name}"):
        assert getattr(docchunk.evaluation, name) is getattr(docchunk.embeddings, name)
