"""Check the built documentation site as a reader meets it (run by `python .ci/build_site.py --check`).

- Links: every internal `<a href>`, `<img src>`, `<link href>` and `<script src>` in every built page resolves to a file,
  and an `#anchor` to an element of that page; every page has a title; the paper page shows its figures (images of a
  real size).
- Text: every angle-bracket placeholder of a page's markdown source (`data/results/<paper>/gpu/`, `<run id>`) is on
  the page as text: written bare, Markdown passes it on as an HTML tag, which the browser drops
  ("data/results//gpu/").
- Browser: Debian's headless Chromium screenshots the index, a mechanism page (Hydra), a paper page with its figures
  (001) and the report, into a temporary folder (or `--shots`), never into the repository. A blank page fails.
"""
from __future__ import annotations

import json, re, shutil, subprocess, tempfile, time
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

PAGES = {  # name: (page, window height in px); the tall ones show what lies below the first screen
    'index': ('index.html', 1800), 'mechanism': ('16_hydra.html', 5000),
    'paper': ('experiments/001_hydra.html', 9000), 'report': ('reproduction.html', 2400)}
REF_ATTRS = {'a': 'href', 'img': 'src', 'link': 'href', 'script': 'src'}
MIN_FIGURES, MIN_FIGURE_BYTES, MIN_SHOT_BYTES = 4, 5_000, 40_000


class _Page(HTMLParser):
    "The ids of one HTML page and the references it makes: (tag, url)."
    def __init__(self) -> None:
        super().__init__(); self.ids: set[str] = set(); self.refs: list[tuple[str, str]] = []; self.h1 = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs); self.h1 += tag == 'h1'
        if a.get('id'): self.ids.add(a['id'])
        if tag == 'a' and a.get('name'): self.ids.add(a['name'])
        if (url := a.get(REF_ATTRS.get(tag, ''))) is not None: self.refs.append((tag, url))


@lru_cache(maxsize=None)
def parse(path: Path) -> _Page:
    p = _Page(); p.feed(path.read_text(encoding='utf-8', errors='replace')); return p


def broken_refs(html: Path) -> list[str]:
    "Every internal reference of the site that does not resolve: 'page: tag url (why)'."
    bad = []
    for page in sorted(html.rglob('*.html')):
        if '_static' in page.relative_to(html).parts: continue  # the theme's template fragments, not pages
        for tag, url in parse(page).refs:
            parts = urlsplit(url)
            if parts.scheme or url.startswith('//') or not url.strip(): continue  # external, data:, mailto:
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir(): target = target / 'index.html'
            why = ('no such file' if not target.is_file() else
                   'no such anchor' if parts.fragment and target.suffix == '.html'
                   and unquote(parts.fragment) not in parse(target).ids else '')
            if why: bad.append(f"{page.relative_to(html)}: <{tag}> {url} ({why})")
    return bad


def untitled_pages(html: Path) -> list[str]:
    "Content pages without a title (an empty or unrendered page has none)."
    pages = [p for p in html.rglob('*.html') if p.name not in ('genindex.html', 'search.html')
             and '_static' not in p.relative_to(html).parts]
    return [f"{p.relative_to(html)}: no <h1> title" for p in sorted(pages) if not parse(p).h1]


def figure_problems(page: Path) -> list[str]:
    "The paper page must show at least MIN_FIGURES images, each a real file of some size."
    srcs = [url for tag, url in parse(page).refs if tag == 'img' and not urlsplit(url).scheme]
    small = [s for s in srcs if (page.parent / s).is_file() and (page.parent / s).stat().st_size < MIN_FIGURE_BYTES]
    out = [f"{page.name}: {len(srcs)} images, expected at least {MIN_FIGURES}"] if len(srcs) < MIN_FIGURES else []
    return out + [f"{page.name}: image {s} is under {MIN_FIGURE_BYTES} bytes" for s in small]


PLACEHOLDER = re.compile(r'<([A-Za-z][\w .,:=/+-]*)>')  # <paper>, <run id>, <the clone>: a tag name, no quotes or '$'
VOID_TAGS = {'br', 'hr', 'img', 'wbr', 'input', 'meta', 'link', 'col', 'area', 'base', 'embed', 'source', 'track'}


class _Text(HTMLParser):
    "The text of an HTML page as a reader sees it (scripts and styles left out)."
    def __init__(self) -> None:
        super().__init__(); self.parts: list[str] = []; self.skip = 0

    def handle_starttag(self, tag: str, attrs: list) -> None: self.skip += tag in ('script', 'style')
    def handle_endtag(self, tag: str) -> None: self.skip -= tag in ('script', 'style') and self.skip > 0
    def handle_data(self, data: str) -> None:
        if not self.skip: self.parts.append(data)


def page_text(html: str) -> str:
    "The reader's text of an HTML page, its whitespace runs as single spaces."
    p = _Text(); p.feed(html); return ' '.join(''.join(p.parts).split())


def placeholders(markdown: str) -> set[str]:
    """The angle-bracket placeholders that a markdown source means as text, each with the path-like text just before
    it (`tensorboard/<run id>`, so that one kept elsewhere on the page does not hide one that vanished): `<name ...>`
    that is no HTML element of the source (an element is closed by a `</name>` there, or is void, like `<br>`)."""
    markdown = re.sub(r'^(`{3,}|:{3,})\{.*?^\1', '', markdown, flags=re.S | re.M)  # directives ({toctree}: `title <doc>`)
    out = set()
    for m in PLACEHOLDER.finditer(markdown):
        name = re.match(r'[\w-]+', m[1])[0].lower()
        if name not in VOID_TAGS and f'</{name}' not in markdown.lower() and '=' not in m[1]:
            before = re.search(r'[\w/.-]*$', markdown[:m.start()].removesuffix('\\'))[0]
            out.add(before + ' '.join(m[0].split()))
    return out


def markdown_of(source: Path) -> str:
    "The markdown of a staged page source: a .md file, or the markdown cells of a notebook."
    if source.suffix == '.md': return source.read_text(encoding='utf-8')
    cells = json.loads(source.read_text(encoding='utf-8'))['cells']
    return '\n\n'.join(''.join(c['source']) for c in cells if c['cell_type'] == 'markdown')


def vanished_text(src: Path, html: Path) -> list[str]:
    "Each placeholder of a page's source (in `src`) missing from the built page's text (in `html`): 'page: <x> (...)'."
    bad = []
    for source in sorted(p for p in src.rglob('*') if p.suffix in ('.md', '.ipynb')):
        page = html / source.relative_to(src).with_suffix('.html')
        if not page.is_file(): continue
        text = page_text(page.read_text(encoding='utf-8', errors='replace'))
        bad += [f"{page.relative_to(html)}: {t!r} is in the source, not on the page: Markdown passed its "
                f"{t[t.index('<'):]} on as an HTML tag (write it as code, or escape it: \\{t[t.index('<'):]})"
                for t in sorted(placeholders(markdown_of(source))) if t not in text]
    return bad


def chromium() -> str | None:
    return next((b for b in ('chromium', 'chromium-browser', 'google-chrome') if shutil.which(b)), None)


def screenshot(browser: str, page: Path, out: Path, height: int) -> str:
    "Screenshot `page` at 1400 x `height` px into `out`; '' when it worked, else why not."
    cmd = [browser, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', f'--window-size=1400,{height}',
           '--virtual-time-budget=3000', f'--screenshot={out}', page.as_uri()]
    try: r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired: return 'timed out after 120 s'
    if not out.is_file(): return f'no screenshot (exit {r.returncode}): {r.stderr[-500:]}'
    size = out.stat().st_size
    return f'{size} bytes: a blank page?' if size < MIN_SHOT_BYTES else ''


def check(html: Path, shots: str | None = None, src: Path | None = None) -> bool:
    "Run every check on the built site in `html` (built from the staged sources in `src`); print each result; True when all pass."
    t0, ok = time.time(), True
    bad = broken_refs(html) + untitled_pages(html) + figure_problems(html / PAGES['paper'][0])
    print(f"{'FAIL' if bad else 'ok  '}  links, images and titles of {len(list(html.rglob('*.html')))} pages")
    for b in bad[:50]: print('    ' + b)
    ok &= not bad
    if src is not None:
        gone = vanished_text(src, html)
        print(f"{'FAIL' if gone else 'ok  '}  every placeholder of the sources is on its page as text")
        for b in gone[:50]: print('    ' + b)
        ok &= not gone
    browser = chromium()
    if browser is None:
        print("FAIL  no Chromium: install Debian's package (apt-get install chromium)"); return False
    folder = Path(shots) if shots else Path(tempfile.mkdtemp(prefix='effattn-site-'))
    folder.mkdir(parents=True, exist_ok=True)
    for name, (page, height) in PAGES.items():
        why = screenshot(browser, html / page, folder / f'{name}.png', height)
        print(f"{'FAIL' if why else 'ok  '}  screenshot of {page}: {folder / f'{name}.png'} {why}")
        ok &= not why
    print(f"site checks {'passed' if ok else 'failed'} in {time.time() - t0:.0f}s; screenshots in {folder}")
    return ok
