"""Check the built documentation site as a reader meets it (run by `python .ci/build_site.py --check`).

- Links: every internal `<a href>`, `<img src>`, `<link href>` and `<script src>` in every built page resolves to a file,
  and an `#anchor` to an element of that page; every page has a title; the paper page shows its figures (images of a
  real size).
- Browser: Debian's headless Chromium screenshots the index, a mechanism page (Hydra), a paper page with its figures
  (001) and the report, into a temporary folder (or `--shots`), never into the repository. A blank page fails.
"""
from __future__ import annotations

import shutil, subprocess, tempfile, time
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


def check(html: Path, shots: str | None = None) -> bool:
    "Run every check on the built site in `html`; print each result; True when all pass."
    t0, ok = time.time(), True
    bad = broken_refs(html) + untitled_pages(html) + figure_problems(html / PAGES['paper'][0])
    print(f"{'FAIL' if bad else 'ok  '}  links, images and titles of {len(list(html.rglob('*.html')))} pages")
    for b in bad[:50]: print('    ' + b)
    ok &= not bad
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
