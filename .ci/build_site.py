#!/usr/bin/env python
"""Build effattn's documentation site from the notebooks, running none of them (Sphinx + myst-nb; config: .ci/sphinx/).

    python .ci/build_site.py          # stage the sources into _site/src, build the HTML into _site/html
    python .ci/build_site.py --check  # the same, then a link check and headless-Chromium screenshots (site_check.py)

What the site holds (all read as committed, nothing run):
- nbs/index.ipynb as the front page, with the table of contents appended;
- the library notebooks nbs/*.ipynb: markdown, code, any committed outputs; each `#| export` cell is shown as its API
  (signature, docstring and the docments of each parameter, read by fastcore.docments from this checkout's effattn), as
  nbdev's show_doc shows it; `#| hide`, `#| exporti` and `#| default_exp` cells are left out, as nbdev's docs do;
- the executed experiment notebooks that `effattn reproduce` keeps (data/results/<paper>/<name>.<profile>.ipynb, the
  `paper` copy before the `cpu` one; runs/smoke/executed/ for a checkout that only ran the smoke profile), with their
  figures, which are embedded in the outputs;
- data/REPRODUCTION.md as the report page.
"""
from __future__ import annotations

import argparse, ast, configparser, importlib, inspect, json, re, shutil, subprocess, sys, time, uuid
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
NBS, SITE, CONF = ROOT / 'nbs', ROOT / '_site', ROOT / '.ci' / 'sphinx'


def repo_url() -> str:
    "The repository's URL: settings.ini's `git_url` (the one place to change it; .ci/sphinx/conf.py reads it too)."
    cfg = configparser.ConfigParser(interpolation=None); cfg.read(ROOT / 'settings.ini')
    return cfg['DEFAULT']['git_url'].rstrip('/')


REPO_URL = repo_url()
PROFILES = ('paper', 'cpu')  # which kept executed copy an experiment page shows, best first
SECTIONS = [  # (caption, notebook-name regex) for the library notebooks, in order: one per package
    ('Core: the root modules', r'^0\d'), ('Mechanisms: effattn.attention', r'^1\d'), ('Models: effattn.models', r'^2\d'),
    ('Data and training: effattn.train', r'^3\d'), ('Benchmarks: effattn.bench', r'^4\d'),
    ("The studies: effattn.studies", r'^5\d'), ('Report, campaign, device, CLI: effattn.repro', r'^6\d'),
    ('The house: layers, imports, function sizes', r'^98')]
INTRO = ('**Results**: the reproduction report (every claim of every paper beside our number, with a verdict), then '
         "each paper's experiment notebook as it last ran, with its tables and figures. **Library**: one page per "
         'notebook of `nbs/`: the reasoning, the code and its tests, and the API (signature, docstring and parameters '
         'of everything exported). Nothing here was run to build the site.')
REPORT_FRONT = '---\nhtml_theme.sidebar_secondary.remove: true\n---\n'
DIRECTIVE = re.compile(r'^\s*#\|\s*([\w-]+):?\s*(.*?)\s*$')


def split_directives(src: str) -> tuple[dict[str, str], str]:
    "The `#| name args` lines at the top of a cell's source, and the source without them."
    lines, found = src.split('\n'), {}
    while lines and (m := DIRECTIVE.match(lines[0])):
        found[m.group(1)] = m.group(2); lines.pop(0)
    return found, '\n'.join(lines)


def md_cell(src: str) -> dict:
    return {'cell_type': 'markdown', 'id': uuid.uuid4().hex[:8], 'metadata': {}, 'source': src}


def read_nb(path: Path) -> dict:
    nb = json.loads(path.read_text(encoding='utf-8'))
    for c in nb['cells']:
        c['source'] = ''.join(c['source']) if isinstance(c['source'], list) else c['source']
        c.setdefault('id', uuid.uuid4().hex[:8])
    nb['nbformat'], nb['nbformat_minor'] = 4, max(nb.get('nbformat_minor', 5), 5)
    return nb


def write_nb(nb: dict, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps(nb, ensure_ascii=False), encoding='utf-8')


def md_escape(s: str) -> str:
    return s.replace('|', '\\|').replace('\n', ' ')


def md_text(s: str) -> str:
    """Plain text (a docstring, a docment) as markdown: each `<` outside a `code` span escaped, so that a placeholder
    such as data/results/<paper>/gpu/ stays text rather than becoming an HTML tag, which the page would drop."""
    return ''.join(part if i % 2 else part.replace('<', '\\<') for i, part in enumerate(re.split(r'(`[^`]*`)', s)))


def param_table(obj: Callable) -> str:
    "A markdown table of `obj`'s parameters (type, default, docment) as nbdev shows it; '' when none has a docment."
    from fastcore.docments import docments
    try: docs = docments(obj, full=True, returns=True)
    except Exception: return ''
    if not any(d.get('docment') for d in docs.values()): return ''
    rows = ['| | **Type** | **Default** | **Details** |', '|---|---|---|---|']
    for name, d in docs.items():
        if name == 'return' and inspect.isclass(obj): continue  # a class's "return" is its __init__'s None
        anno = '' if d['anno'] is inspect.Parameter.empty else getattr(d['anno'], '__name__', str(d['anno']))
        default = '' if d['default'] is inspect.Parameter.empty else f"`{d['default']!r}`"
        rows.append(f"| {'**Returns**' if name == 'return' else name} | {md_escape(anno)} | {md_escape(default)} "
                    f"| {md_escape(md_text(d.get('docment') or ''))} |")
    return '\n'.join(rows)


def signature(obj: Callable) -> str:
    "`obj`'s signature with its annotations evaluated (the modules use postponed annotations), one parameter a line if long."
    try: sig = inspect.signature(obj, eval_str=True)
    except Exception:
        try: sig = inspect.signature(obj)
        except (TypeError, ValueError):  # a builtin's signature: show a class's bases instead
            return '(' + ', '.join(b.__name__ for b in obj.__bases__) + ')' if inspect.isclass(obj) else '(...)'
    if inspect.isclass(obj): sig = sig.replace(return_annotation=inspect.Signature.empty)
    text = str(sig)
    if len(text) <= 80: return text
    ret = '' if sig.return_annotation is inspect.Signature.empty else ' -> ' + inspect.formatannotation(sig.return_annotation)
    return '(\n' + ''.join(f'    {p},\n' for p in sig.parameters.values()) + ')' + ret


def api_markdown(name: str, obj: Any, module: str, level: str = '###') -> str:
    "show_doc-style markdown for one exported function or class: heading, signature, docstring, parameter table."
    kind = 'class' if inspect.isclass(obj) else 'def'
    parts = [f"{level} {name}", f"```python\n{kind} {name}{signature(obj)}\n```", f"*{module}*"]
    if obj.__doc__: parts.append(md_text(inspect.cleandoc(obj.__doc__)))  # its own docstring (getdoc would inherit nn.Module's)
    if table := param_table(obj): parts.append(table)
    if inspect.isclass(obj):  # public methods documented in the class body itself
        for meth, f in vars(obj).items():
            if not meth.startswith('_') and inspect.isfunction(f) and f.__doc__:
                parts.append(api_markdown(f"{name}.{meth}", f, module, '####'))
    return '\n\n'.join(parts)


def exported_names(src: str) -> list[str]:
    "Top-level public functions and classes that a cell defines."
    try: tree = ast.parse(src)
    except SyntaxError: return []
    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return [n.name for n in tree.body if isinstance(n, defs) and not n.name.startswith('_')]


def api_cell(src: str, module: str) -> dict | None:
    "The markdown cell that documents what an `#| export` cell defines, or None if it defines no public callable."
    mod = importlib.import_module(f'effattn.{module}')
    public = getattr(mod, '__all__', None)
    docs = [api_markdown(n, getattr(mod, n), f'effattn.{module}') for n in exported_names(src)
            if hasattr(mod, n) and (public is None or n in public)]
    return md_cell('\n\n---\n\n'.join(docs) + '\n\n' + source_block(src)) if docs else None


def source_block(src: str) -> str:
    """The exported code itself, folded under a "source" toggle below its API: on the page, offline, and the code this
    checkout exports (a link to a repository would name whatever that repository holds, if it is reachable at all)."""
    fence = '`' * max(3, 1 + max((len(m) for m in re.findall(r'`{3,}', src)), default=0))
    return f'<details class="effattn-source"><summary>source</summary>\n\n{fence}python\n{src.strip()}\n{fence}\n\n</details>'



def library_nb(nb: dict) -> dict:
    "A library notebook as its docs page: export cells become their API, hidden cells go, the rest stays as committed."
    module, cells = None, []
    for c in nb['cells']:
        if c['cell_type'] != 'code': cells.append(c); continue
        d, body = split_directives(c['source'])
        if 'default_exp' in d: module = d['default_exp'].removesuffix('.__init__')
        if d.keys() & {'hide', 'default_exp', 'exporti'}: continue
        if d.keys() & {'export', 'exports'}:
            cell = api_cell(body, d.get('export') or d.get('exports') or module) if module else None
            if cell: cells.append(cell)
            if 'exports' not in d: continue
        cells.append({**c, 'source': body})
    return {**nb, 'cells': cells}


def rewrite_links(nb: dict, depth: int) -> dict:
    "Links to the report on GitHub point at the site's report page instead."
    target = '../' * depth + 'reproduction.md'
    for c in nb['cells']:
        if c['cell_type'] == 'markdown':
            c['source'] = re.sub(rf'{re.escape(REPO_URL)}/blob/main/data/REPRODUCTION\.md', target, c['source'])
    return nb


def executed_copy(nb: Path) -> tuple[Path, str]:
    "The kept executed copy of experiment notebook `nb` and its profile (the unexecuted source if none is kept)."
    sys.path.insert(0, str(ROOT))
    from effattn.repro.cli import executed_path
    for profile in PROFILES + ('smoke',):
        if (p := executed_path(nb, profile)).exists(): return p, profile
    return nb, ''


def experiment_nb(src: Path) -> dict:
    "An experiment page: the executed copy, hidden cells left out, a note saying which copy it is after the title."
    path, profile = executed_copy(src)
    nb = read_nb(path)
    nb['cells'] = [c for c in nb['cells'] if 'hide' not in split_directives(c['source'])[0]]
    rel = path.relative_to(ROOT)
    note = (f"> This page is the executed copy kept at `{rel}` (profile `{profile}`), as `effattn reproduce` left it; "
            f"the notebook's source is `nbs/experiments/{src.name}`." if profile else
            f"> No executed copy of `nbs/experiments/{src.name}` is kept: this page shows the notebook without outputs.")
    nb['cells'].insert(1, md_cell(note))
    return rewrite_links(nb, 1)


def toc_markdown(lib: list[Path], exps: list[Path]) -> str:
    "The front page's table of contents: the results first, then the library notebooks by section."
    def toctree(caption: str, docs: list[str]) -> str:
        return '```{toctree}\n:caption: ' + caption + '\n:maxdepth: 1\n\n' + '\n'.join(docs) + '\n```'
    titles = {'report_reproduction': 'The report notebook (writes the report) <experiments/report_reproduction>'}
    parts = ['## Contents', INTRO,
             toctree('Results', ['reproduction'] + [titles.get(p.stem, f'experiments/{p.stem}') for p in exps])]
    for caption, pattern in SECTIONS:
        parts.append(toctree(caption, [p.stem for p in lib if re.search(pattern, p.stem)]))
    return '\n\n'.join(parts)


def site_report(report: str, src: Path) -> str:
    """data/REPRODUCTION.md as the site's page: the figures it links are copied beside it (`figures/`, as in the
    checkout, one folder up), and its "(more)" links to the reasons' raw-HTML anchors become HTML links, which MyST
    would otherwise try, and fail, to resolve as cross-references."""
    figs = sorted({m for m in re.findall(r'\]\(\.\./figures/([^)\s]+)\)', report)})
    for rel in figs:
        (src / 'figures' / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / 'figures' / rel, src / 'figures' / rel)
    report = report.replace('](../figures/', '](figures/')
    return re.sub(r'\[([^\]]*)\]\(#(r-[^)\s]+)\)', r'<a href="#\2">\1</a>', report)


def stage(src: Path) -> int:
    "Write the site's sources into `src`; return how many pages."
    shutil.rmtree(src, ignore_errors=True); src.mkdir(parents=True)
    sys.path.insert(0, str(ROOT))  # document this checkout's effattn, whichever one is installed
    lib = [p for p in sorted(NBS.glob('*.ipynb'))
           if any(re.search(pat, p.stem) for _, pat in SECTIONS)]  # not index, nor 99_readme (README's own test)
    for p in lib: write_nb(rewrite_links(library_nb(read_nb(p)), 0), src / p.name)
    exps = sorted((NBS / 'experiments').glob('*.ipynb'))
    for p in exps: write_nb(experiment_nb(p), src / 'experiments' / p.name)
    report = site_report((ROOT / 'data' / 'REPRODUCTION.md').read_text(encoding='utf-8'), src)
    (src / 'reproduction.md').write_text(REPORT_FRONT + report, encoding='utf-8')  # its tables need the in-page TOC's width
    index = rewrite_links(library_nb(read_nb(NBS / 'index.ipynb')), 0)
    index['cells'].append(md_cell(toc_markdown(lib, exps)))
    write_nb(index, src / 'index.ipynb')
    return len(lib) + len(exps) + 2


def build(jobs: int = 2) -> Path:
    "Stage and build the site from scratch; return the HTML folder. Sphinx's warnings go to _site/warnings.txt."
    t0 = time.time()
    pages = stage(SITE / 'src')
    print(f"staged {pages} pages in {time.time() - t0:.0f}s", flush=True)
    html, warnings = SITE / 'html', SITE / 'warnings.txt'
    shutil.rmtree(html, ignore_errors=True); shutil.rmtree(SITE / 'doctrees', ignore_errors=True)
    cmd = [sys.executable, '-m', 'sphinx', '-b', 'html', '-q', '-j', str(jobs), '-c', str(CONF),
           '-d', str(SITE / 'doctrees'), '-w', str(warnings), str(SITE / 'src'), str(html)]
    r = subprocess.run(cmd, cwd=ROOT)
    n = sum(1 for l in warnings.read_text().splitlines() if 'WARNING' in l) if warnings.exists() else 0
    if r.returncode: sys.exit(f"sphinx-build failed (exit {r.returncode}); see {warnings}")
    print(f"built {html / 'index.html'} in {time.time() - t0:.0f}s ({n} Sphinx warnings, in {warnings})", flush=True)
    return html


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--jobs', type=int, default=2, help='Sphinx worker processes')
    ap.add_argument('--check', action='store_true', help='then check links and images and take Chromium screenshots')
    ap.add_argument('--shots', default=None, help='folder for the screenshots (default: a new temporary folder)')
    args = ap.parse_args()
    html = build(args.jobs)
    if args.check:
        sys.path.insert(0, str(Path(__file__).parent))
        from site_check import check
        sys.exit(0 if check(html, args.shots, SITE / 'src') else 1)


if __name__ == '__main__':
    main()
