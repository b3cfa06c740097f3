"""--engine ray without Ray, or ray:// without Ray Client: one line on stderr, exit 2, no traceback."""

from __future__ import annotations

import sys

import pytest

from docchunk.cli.main import main
from tests.helpers import DATA

DOC = str(DATA / "pdf__multi_page.json")


def one_line_error(capsys, *args: str) -> str:
    """Run the command as its entry point does; it must exit 2 with one line on stderr."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    err = capsys.readouterr().err
    assert exit_info.value.code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("docchunk: error: "), err
    return lines[0]


def test_engine_ray_without_ray_installed_is_one_line(capsys, monkeypatch, tmp_path):
    for name in [m for m in sys.modules if m == "ray" or m.startswith("ray.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError, as when it is not installed
    line = one_line_error(capsys, "chunk", DOC, "--engine", "ray", "-o", str(tmp_path / "out"))
    assert "'ray'" in line and 'pip install ".[ray]"' in line


def test_ray_client_address_without_grpcio_is_one_line(capsys, monkeypatch, tmp_path):
    pytest.importorskip("ray.data", reason='needs Ray: pip install ".[ray]"')
    monkeypatch.setitem(sys.modules, "grpc", None)  # as when ray[client]'s grpcio is not installed
    line = one_line_error(
        capsys, "chunk", DOC, "--engine", "ray", "--address", "ray://head-node:10001", "-o", str(tmp_path / "out")
    )
    assert "ray://head-node:10001" in line and "grpcio" in line and 'pip install ".[ray]"' in line


def test_ray_extra_installs_ray_client():
    """The documented `--address ray://...` form needs ray[client]; the ray extra must install it."""
    tomllib = pytest.importorskip("tomllib")
    from tests.helpers import ROOT

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(req.startswith("ray[") and "client" in req.split("]")[0] for req in extras["ray"])


def test_engine_ray_output_naming_a_file_is_one_line(capsys, tmp_path):
    pytest.importorskip("ray.data", reason='needs Ray: pip install ".[ray]"')
    (tmp_path / "out.jsonl").write_text("")
    assert "is a file" in one_line_error(capsys, "chunk", DOC, "--engine", "ray", "-o", str(tmp_path / "out.jsonl"))


def test_local_output_naming_a_folder_is_one_line(capsys, tmp_path):
    assert "is a folder" in one_line_error(capsys, "chunk", DOC, "-o", str(tmp_path))


def test_ray_that_cannot_start_is_one_line_naming_its_log_and_exit_1(capsys, monkeypatch, tmp_path):
    """The Ray driver raises EngineStartError (no click in docchunk.batch); the command prints it and exits 1."""
    pytest.importorskip("ray.data", reason='needs Ray: pip install ".[ray]"')
    import docchunk.batch.ray as driver

    monkeypatch.setattr(driver, "_start_ray", lambda ray, address, num_workers: "could not start a local Ray instance")
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_info:
        main(["chunk", DOC, "--engine", "ray", "-o", str(out)])
    err = capsys.readouterr().err
    assert exit_info.value.code == 1, err
    assert err.splitlines() == [f"docchunk: error: could not start a local Ray instance (Ray's log: {out}.ray.log)"]
