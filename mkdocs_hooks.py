"""The docs site's one hook (mkdocs.yml, `hooks:`): the repository's files beyond docs/ that
the site needs, and links that stay the repository's.

Every page is written to be read in the repository, so its relative links name repository
files: the README links `docs/web.md` and `results/analyze.json`, docs/web.md links
`../results/web-start.json`. The site lays out docs/ at its root and every other file of the
repository at its own path beside it: README.md is the home page, and a file outside docs/
that a page links to (a result, the LICENSE, a results/ README) or the nav names (a
CONTRIBUTING.md at the root) is published at its repository path, so each link leads to the
file it names. Each link is rewritten from the
page's place in the repository to its place in the site, and only then does mkdocs check it:
a link to a file the repository lacks, or an anchor a page lacks, fails `--strict` as it
would inside docs/. A link to a folder goes to its index page, or is left as its text.

The API reference (docs/reference/) reads the package's source without importing it, and
looks for a folder named `tessera`: the hook lays one out, the repository's folders as
pyproject.toml maps them (solver/ is `tessera`, kernels/ is `tessera.kernels`), in links.
"""

import posixpath
import re
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit
from xml.etree.ElementTree import Element

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

REPO = Path(__file__).resolve().parent
DOCS = "docs"
# Repository files every build publishes: the home page (README.md becomes the site's index).
ALWAYS = ("README.md",)
# The relative targets of a page's links and images, in Markdown and HTML, found in its source
# text to publish them before any page renders (a target inside a code block only publishes a
# file of the repository that is never linked).
TARGETS = re.compile(r"\]\(\s*<?([^)\s>]+)|^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)|(?:href|src)=\"([^\"]+)\"", re.M)

# pyproject.toml's package-dir: the package's folders in the repository.
PACKAGE_DIRS = {"tessera": "solver", "tessera/kernels": "kernels"}
# The page being rendered and the site's files: mkdocs renders one page at a time, right
# after its on_page_markdown.
_current: list = [None, None]


def _repo_path(file: File) -> str | None:
    """A page's path in the repository, or None for one that is not a repository file."""
    if not file.abs_src_path:
        return None
    path = Path(file.abs_src_path).resolve()
    return path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else None


def _site_path(repo_path: str) -> str:
    """Where a repository file is in the site: docs/ at the root, everything else beside it."""
    if repo_path == DOCS:
        return "."
    return repo_path[len(DOCS) + 1 :] if repo_path.startswith(DOCS + "/") else repo_path


def _resolve(page_repo_path: str, url: str) -> str | None:
    """The repository path a relative link of the page at ``page_repo_path`` names, or None."""
    scheme, netloc, path, _, _ = urlsplit(url)
    if scheme or netloc or not path or path.startswith("/"):
        return None
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page_repo_path), unquote(path)))
    return None if target == ".." or target.startswith("../") else target


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Publish README.md, the nav's repository files, and every repository file outside docs/
    that a published page links to (following the links of the Markdown ones)."""
    nav_paths = []

    def walk(entry):
        if isinstance(entry, str):
            nav_paths.append(entry)
        elif isinstance(entry, dict):
            for value in entry.values():
                walk(value)
        elif isinstance(entry, list):
            for value in entry:
                walk(value)

    walk(config.nav or [])
    wanted = [*ALWAYS, *(path for path in nav_paths if files.get_file_from_path(path) is None)]
    pages = list(files.documentation_pages())
    while wanted or pages:
        for repo_path in wanted:
            if repo_path.startswith(DOCS + "/") or files.get_file_from_path(repo_path) is not None:
                continue
            source = REPO / repo_path
            if not source.is_file():
                continue  # mkdocs names the missing target where a page or the nav links it
            if (REPO / DOCS / repo_path).exists():
                raise PluginError(f"{repo_path} is both a repository file and docs/{repo_path}")
            in_nav = repo_path in ALWAYS or repo_path in nav_paths
            inclusion = InclusionLevel.UNDEFINED if in_nav else InclusionLevel.NOT_IN_NAV
            file = File.generated(config, repo_path, abs_src_path=str(source), inclusion=inclusion)
            files.append(file)
            if file.is_documentation_page():
                pages.append(file)
        wanted = []
        for page in pages:
            page_repo_path = _repo_path(page)
            if page_repo_path is None:
                continue
            for match in TARGETS.finditer(page.content_string):
                target = _resolve(page_repo_path, next(group for group in match.groups() if group))
                if target is not None:
                    wanted.append(target)
        pages = []
    return files


class _RepositoryLinks(Treeprocessor):
    """Rewrites each relative link of the page being rendered from its place in the
    repository to its place in the site (before mkdocs' own link check, priority 0)."""

    def run(self, root: Element) -> None:
        page, files = _current
        page_repo_path = page and _repo_path(page.file)
        if page_repo_path is None:
            return
        for parent in list(root.iter()):
            for index, element in reversed(list(enumerate(parent))):
                attribute = {"a": "href", "img": "src"}.get(element.tag)
                url = element.get(attribute) if attribute else None
                target = _resolve(page_repo_path, url) if url else None
                if target is None:
                    continue
                site = _site_path(target)
                if (REPO / target).is_dir():
                    names = (posixpath.normpath(posixpath.join(site, name)) for name in ("index.md", "README.md"))
                    site = next((name for name in names if files.get_file_from_path(name)), None)
                    if site is None or site == page.file.src_uri:
                        _unwrap(parent, index, element)  # no page of its own: the link's text stays
                        continue
                _, _, _, query, anchor = urlsplit(url)
                relative = posixpath.relpath(site, posixpath.dirname(page.file.src_uri) or ".")
                element.set(attribute, urlunsplit(("", "", relative, query, anchor)))


def _unwrap(parent: Element, index: int, element: Element) -> None:
    """Replace ``element`` (a link) inside ``parent`` by its text and children."""
    parent.remove(element)
    children = list(element)
    text = element.text or ""
    tail = element.tail or ""
    if index == 0:
        parent.text = (parent.text or "") + text
    else:
        before = parent[index - 1]
        before.tail = (before.tail or "") + text
    for offset, child in enumerate(children):
        parent.insert(index + offset, child)
    if children:
        last = children[-1]
        last.tail = (last.tail or "") + tail
    elif index == 0:
        parent.text += tail
    else:
        before = parent[index - 1]
        before.tail = (before.tail or "") + tail


class _RepositoryLinksExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.treeprocessors.register(_RepositoryLinks(md), "tessera_repository_links", 1)


def _lay_out_package() -> str:
    """A new folder holding `tessera` as an installed package lays it out, made of links to
    the repository's folders."""
    root = Path(tempfile.mkdtemp(prefix="tessera-docs-"))
    for package, folder in PACKAGE_DIRS.items():
        (root / package).mkdir()
        for entry in (REPO / folder).iterdir():
            if entry.name != "__pycache__" and not (root / package / entry.name).exists():
                (root / package / entry.name).symlink_to(entry)
    return str(root)


def _remove_package() -> None:
    while _package_root:
        root = _package_root.pop()
        if root in sys.path:
            sys.path.remove(root)
        shutil.rmtree(root)  # the folder and its links: rmtree follows none


# The folder of the build running (each build of `mkdocs serve` lays out its own).
_package_root: list = []


@event_priority(100)  # before mkdocstrings' own, which reads sys.path
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    config.markdown_extensions.append(_RepositoryLinksExtension())
    # The source reader (griffe, under mkdocstrings) searches sys.path after mkdocs.yml's paths.
    _remove_package()
    _package_root.append(_lay_out_package())
    sys.path.insert(0, _package_root[0])
    return config


def on_post_build(config: MkDocsConfig) -> None:
    _remove_package()  # every page is rendered: the source has been read


def on_build_error(error: Exception) -> None:
    _remove_package()


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    _current[:] = [page, files]
    return markdown
