"""Files of Hugging Face Hub models: from the local cache, or downloaded once, failing fast offline.

huggingface_hub retries an unreachable Hub for about 20 s per file before it falls back
to its cache; a model that needs several files then takes minutes to fail. Here the
cache is read first, the Hub is asked once (no retries, a short timeout) and, when it
cannot be reached, one :class:`~docchunk.errors.TokenizerError` says how to get the files.

With ``HF_HUB_OFFLINE`` set and no cache folder for the model, the error comes before
huggingface_hub's download code is even imported (a second or more on a busy machine).
The one probe runs under a deadline of its own: a resolver that does not answer (no
network, DNS unreachable) cannot hold it longer than ``PROBE_TIMEOUT``, which the
timeout of the HTTP request alone does not bound.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from docchunk._extras import require
from docchunk.errors import TokenizerError

__all__ = ["cached_hub_file", "how_to_get", "hub_file", "optional_hub_file"]

PROBE_TIMEOUT = 5.0
"""Seconds to wait for the Hub's answer to the one probe request (``HF_HUB_ETAG_TIMEOUT`` overrides it)."""


def _hub():
    # a dependency of tokenizers, so of docchunk itself: no extra to name
    return require("huggingface_hub", None, "Loading a model by its Hugging Face Hub name")


def how_to_get(repo_id: str, what: str = "a local directory holding its files") -> str:
    """The ways to make a hub model's files available offline, as one sentence."""
    return (
        f"download it while online (it is then cached; e.g. `huggingface-cli download {repo_id}`, "
        f"or `hf download {repo_id}`), or pass {what}; with HF_HUB_OFFLINE=1 only the local cache is read"
    )


def _offline() -> bool:
    """Whether huggingface_hub is in offline mode (``HF_HUB_OFFLINE``)."""
    # imported by name: the package exposes its submodules lazily, ``constants`` only once imported
    import huggingface_hub.constants as constants

    offline = constants.is_offline_mode() if hasattr(constants, "is_offline_mode") else bool(constants.HF_HUB_OFFLINE)
    # huggingface_hub reads the variable once, at its import; it may have been set since
    set_now = os.environ.get("HF_HUB_OFFLINE") or os.environ.get("TRANSFORMERS_OFFLINE") or ""
    return offline or set_now.upper() in ("1", "ON", "YES", "TRUE")


def _no_cache_folder(repo_id: str) -> bool:
    """Whether the Hugging Face cache holds no folder at all for the model ``repo_id``.

    A directory test only (huggingface_hub's ``models--<org>--<name>`` layout, in its
    ``HF_HUB_CACHE``); the files inside are looked up by huggingface_hub itself.
    """
    import huggingface_hub.constants as constants  # light: no HTTP client

    folder = constants.REPO_ID_SEPARATOR.join(["models", *repo_id.split("/")])
    return not (Path(constants.HF_HUB_CACHE) / folder).is_dir()


def _offline_error(repo_id: str) -> TokenizerError:
    return TokenizerError(
        f"the Hugging Face model {repo_id!r} is not in the local cache and HF_HUB_OFFLINE is set, so it cannot "
        f"be downloaded: {how_to_get(repo_id)}"
    )


def _cached(hub, repo_id: str, filename: str) -> Path | None:
    try:
        found = hub.try_to_load_from_cache(repo_id, filename)
    except Exception:  # an invalid repo id: the probe below reports it
        return None
    return Path(found) if isinstance(found, str) else None


def _ask(hub, repo_id: str, filename: str, timeout: float) -> None:
    """One metadata request for the file, without retries."""
    url = hub.hf_hub_url(repo_id, filename)
    try:
        hub.get_hf_file_metadata(url, timeout=timeout, retry_on_errors=False)
    except TypeError:  # huggingface_hub < 1.0: no retries on this call anyway
        hub.get_hf_file_metadata(url, timeout=timeout)


def _ask_within(hub, repo_id: str, filename: str, timeout: float) -> None:
    """:func:`_ask` in a daemon thread, given up after ``timeout`` seconds in all (DNS included)."""
    outcome: list[BaseException | None] = []

    def ask() -> None:
        try:
            _ask(hub, repo_id, filename, timeout)
            outcome.append(None)
        except BaseException as exc:  # handed to the caller below
            outcome.append(exc)

    worker = threading.Thread(target=ask, name="docchunk-hub-probe", daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        raise TimeoutError(f"no answer from the Hub within {timeout:g} s")
    if outcome[0] is not None:
        raise outcome[0]


def cached_hub_file(repo_id: str, filename: str) -> Path | None:
    """``filename`` of the hub model ``repo_id`` in the local Hugging Face cache, or None (no network)."""
    return _cached(_hub(), repo_id, filename)


def _probe(hub, repo_id: str, filename: str) -> None:
    """Ask the Hub once for the file's metadata; raise a TokenizerError when that fails."""
    timeout = float(os.environ.get("HF_HUB_ETAG_TIMEOUT") or PROBE_TIMEOUT)
    try:
        _ask_within(hub, repo_id, filename, timeout)
    except Exception as exc:
        kind = type(exc).__name__
        if kind in ("RepositoryNotFoundError", "GatedRepoError", "HFValidationError"):
            raise TokenizerError(
                f"the Hugging Face Hub has no model {repo_id!r} that this machine may read ({kind}); check the "
                "name, run `huggingface-cli login` for a gated or private model, or pass a local directory"
            ) from exc
        if kind in ("EntryNotFoundError", "RemoteEntryNotFoundError", "RevisionNotFoundError"):
            raise TokenizerError(f"the Hugging Face model {repo_id!r} has no file {filename!r}") from exc
        raise TokenizerError(
            f"the Hugging Face model {repo_id!r} is not in the local cache and the Hub cannot be reached "
            f"({kind}: {' '.join(str(exc).split())[:200]}): {how_to_get(repo_id)}"
        ) from exc


def hub_file(repo_id: str, filename: str) -> tuple[Path, bool]:
    """The local path of ``filename`` in the hub model ``repo_id``, and whether the Hub was reached.

    Reads the local Hugging Face cache first (no network). With ``HF_HUB_OFFLINE``
    set and no cache folder for the model, fails at once, before importing
    huggingface_hub's download code. When the file is not cached, the Hub is asked
    once, without retries, and given up after ``PROBE_TIMEOUT`` seconds in all (name
    resolution included); the file is downloaded only when that answers.

    Raises:
        TokenizerError: The file is not cached and ``HF_HUB_OFFLINE`` is set, or the Hub
            cannot be reached, or it has no such model or file. The message says how to
            get the files.
        MissingDependencyError: huggingface_hub is not installed.
    """
    hub = _hub()
    offline = _offline()
    if offline and _no_cache_folder(repo_id):
        raise _offline_error(repo_id)
    found = _cached(hub, repo_id, filename)
    if found is not None:
        return found, False
    if offline:
        raise _offline_error(repo_id)
    _probe(hub, repo_id, filename)
    try:
        return Path(hub.hf_hub_download(repo_id, filename)), True
    except Exception as exc:
        raise TokenizerError(f"could not download {filename!r} of the Hugging Face model {repo_id!r}: {exc}") from exc


def optional_hub_file(repo_id: str, filename: str, online: bool) -> Path | None:
    """``filename`` of ``repo_id`` when cached, or downloaded when ``online``; None when absent."""
    hub = _hub()
    found = _cached(hub, repo_id, filename)
    if found is not None or not online:
        return found
    try:
        return Path(hub.hf_hub_download(repo_id, filename, etag_timeout=PROBE_TIMEOUT))
    except Exception:  # the model simply lacks this optional file
        return None
