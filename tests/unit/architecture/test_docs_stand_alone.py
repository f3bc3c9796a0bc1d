"""The repository stands alone: no tracked file points outside the checkout, and the docs' relative links resolve."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import unquote

import pytest

UP = "../"  # spelled apart, so this file names no folder outside the repository itself

ROOT = Path(__file__).resolve().parents[3]
SUFFIXES = (".md", ".py", ".html", ".toml", ".cfg")
SKIPPED_DIRS = {".git", ".venv", "var", "node_modules", "__pycache__", "build", "dist"}
THIS_FILE = Path(__file__).resolve()  # its own patterns would match themselves

OUTSIDE = [
    (re.compile(r"\.\./+shared\b"), "the steering folder beside the checkout (" + UP + "shared)"),
    (re.compile(r"(?<![\w./-])/work/"), "a path under /work/"),
    (re.compile(r"(?<![\w./-])/(?:home|Users)/[\w.-]+/"), "a home directory"),
]
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


def tracked_files() -> list[Path]:
    """The checkout's tracked files of the checked kinds (every such file when git cannot say)."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--", *(f"*{s}" for s in SUFFIXES)], cwd=ROOT,
                                capture_output=True, check=True).stdout.decode("utf-8").split("\0")
        return [ROOT / name for name in listed if name]
    except (OSError, subprocess.CalledProcessError):
        return [p for p in ROOT.rglob("*") if p.suffix in SUFFIXES and p.is_file()
                and not SKIPPED_DIRS.intersection(p.relative_to(ROOT).parts)]


def pointers_outside(text: str) -> list[str]:
    """What in `text` names a place outside the repository (this checkout's own absolute path included)."""
    found = [f"{why}: {m.group(0)!r}" for pattern, why in OUTSIDE for m in pattern.finditer(text)]
    if str(ROOT) != "/" and str(ROOT) in text:
        found.append(f"this checkout's absolute path {str(ROOT)!r}")
    return found


def link_targets(markdown: str) -> list[str]:
    """The targets of a page's links, inline and by reference, outside code blocks and code spans."""
    prose = CODE_SPAN.sub("", FENCE.sub("", markdown))
    return LINK.findall(prose) + REFERENCE.findall(prose)


def broken_targets(markdown: str, folder: Path, root: Path = ROOT) -> list[str]:
    """Relative link targets of a page in `folder` that name no existing file or folder inside `root`."""
    broken = []
    for target in link_targets(markdown):
        path = unquote(target.split("#", 1)[0].split("?", 1)[0])
        if not path or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("/"):
            continue  # an anchor on the page itself, a URL, or a path on the running service
        resolved = (folder / path).resolve()
        if not resolved.is_relative_to(root.resolve()) or not resolved.exists():
            broken.append(target)
    return broken


def doc_pages() -> list[Path]:
    """README.md and every page under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_no_tracked_file_points_outside_the_repository():
    offenders = {}
    for path in tracked_files():
        if path.resolve() == THIS_FILE or not path.is_file():
            continue
        found = pointers_outside(path.read_text(encoding="utf-8", errors="replace"))
        if found:
            offenders[str(path.relative_to(ROOT))] = found
    assert not offenders, ("files that point outside the repository (link the page under docs/ instead): "
                           f"{offenders}")


def test_relative_links_in_the_docs_name_files_that_exist():
    broken = {str(page.relative_to(ROOT)): links for page in doc_pages()
              if (links := broken_targets(page.read_text(encoding="utf-8"), page.parent))}
    assert not broken, f"relative links to nothing: {broken}"


@pytest.mark.parametrize("text", [f"see `{UP}shared/API.md`", "Source: /work/shared/rules/x.md",
                                  "in /home/alice/turnstream/docs", f"cd ../{UP}shared/seeds"])
def test_a_pointer_outside_is_found(text):
    assert pointers_outside(text)


@pytest.mark.parametrize("text", ["https://example.org/work/items", "docs/rules/origins.md", "a/work/b",
                                  "the shared fold", "./shared.py"])
def test_what_stays_inside_is_not_flagged(text):
    assert not pointers_outside(text)


def test_a_link_to_nothing_is_found(tmp_path):
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "here.md").write_text("x")
    (tmp_path / "README.md").write_text("x")
    page = ("[ok](here.md) [folder](rules/) [up](../README.md#links) [anchor](#layers) "
            "[web](https://example.org/x.md) [site](/api/docs) `[code](in-code.md)` "
            "[gone](no-such-page.md) [out](../../outside.md)\n\n"
            "```\n[fenced](in-a-block.md)\n```\n\n[ref]: rules/nothing.md\n")
    assert broken_targets(page, tmp_path / "docs", tmp_path) == ["no-such-page.md", "../../outside.md",
                                                                  "rules/nothing.md"]
