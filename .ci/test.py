#!/usr/bin/env python
"""effattn's whole test suite: sync and lint checks, then every notebook under nbs/ (library notebooks with nbdev's test runner,
experiment notebooks with their default, smoke, parameters). Ends with a line `N passed, M failed`.

Usage: python .ci/test.py [--flags slow gpu] [--only PATTERN] [--workers 2] [--no-sync] [--checks-only] [--docs] [--site]
(the docs check, nbdev_proc_nbs over every notebook, takes minutes: it runs with --flags slow or --docs; the site check,
the documentation site built, link-checked and screenshot in headless Chromium, takes 1-2 minutes: --flags slow or --site)
"""
import argparse, hashlib, json, os, re, shutil, subprocess, sys, sysconfig, tempfile, time, warnings
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS, LIB = ROOT / 'nbs', ROOT / 'effattn'
HANDWRITTEN = {'__init__.py', '_modidx.py', '__main__.py'}
BIN = Path(sys.executable).parent  # nbdev's commands live beside this interpreter


def tree_digest(*dirs):
    "Content hash of every file (tracked or not) under `dirs`, ignoring caches."
    out = {}
    for d in dirs:
        for p in sorted(d.rglob('*')):
            if p.is_file() and '__pycache__' not in p.parts and '.ipynb_checkpoints' not in p.parts:
                out[str(p.relative_to(ROOT))] = hashlib.sha1(p.read_bytes()).hexdigest()
    return out


def changed(before, after):
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def sync_checks():
    "Each check: (name, ok, detail)."
    results = []
    before = tree_digest(LIB)
    r = subprocess.run([str(BIN / 'nbdev_export')], cwd=ROOT, capture_output=True, text=True)
    diff = changed(before, tree_digest(LIB))
    results.append(('sync: nbdev_export leaves effattn/ unchanged', r.returncode == 0 and not diff,
                    r.stderr[-2000:] + ('\nout of sync (run nbdev_export and commit): ' + ', '.join(diff) if diff else '')))
    before = tree_digest(NBS)
    r = subprocess.run([str(BIN / 'nbdev_clean')], cwd=ROOT, capture_output=True, text=True)
    diff = changed(before, tree_digest(NBS))
    results.append(('sync: nbdev_clean leaves nbs/ unchanged', r.returncode == 0 and not diff,
                    r.stderr[-2000:] + ('\nnot clean (run nbdev_clean and commit): ' + ', '.join(diff) if diff else '')))
    orphans = []
    for py in sorted(LIB.rglob('*.py')):
        if py.name in HANDWRITTEN: continue
        head = '\n'.join(py.read_text(encoding='utf-8').split('\n')[:6])
        m = re.search(r'File to edit: (\S+?)\.?\s*$', head, re.M)
        if not m or not (py.parent / m.group(1)).resolve().exists():
            orphans.append(str(py.relative_to(ROOT)))
    results.append(('sync: every module in effattn/ comes from a notebook that exists', not orphans,
                    'orphan modules (delete them or restore their notebook): ' + ', '.join(orphans) if orphans else ''))
    noisy = []  # a module that warns when compiled (an invalid escape, ...) warns every user who imports it
    for py in sorted(LIB.rglob('*.py')):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            compile(py.read_text(encoding='utf-8'), str(py), 'exec')
        noisy += [f"{py.relative_to(ROOT)}:{m.lineno}: {m.message}" for m in w]
    results.append(('sync: every module compiles without warnings', not noisy, '\n'.join(noisy)))
    r = subprocess.run([sys.executable, '-m', 'pip', 'check'], capture_output=True, text=True)
    results.append(('environment: pip check finds no broken requirements', r.returncode == 0, r.stdout + r.stderr))
    return results


LINT = ['--select', 'F401,F811']  # unused and repeated imports (the cell split left some behind)


def lint_check():
    "ruff's F401/F811 on the exported package; fixed at the source notebook (a name kept only to re-export goes in `__all__`)."
    name = 'lint: ruff F401/F811 (unused or repeated imports) on effattn/'
    try: r = subprocess.run([sys.executable, '-m', 'ruff', 'check', *LINT, '--output-format', 'concise', str(LIB)],
                            cwd=ROOT, capture_output=True, text=True)
    except OSError as e: return name, False, f"could not run ruff ({e})"
    if r.returncode and 'No module named ruff' in r.stderr:
        return name, False, 'ruff is not installed: pip install -e ".[dev]" (settings.ini dev_requirements has it)'
    fix = ('\nfix each at its source notebook in nbs/ (remove the import, or move it to a test cell if only tests use it), '
           'then nbdev_export; never edit effattn/*.py by hand')
    return name, r.returncode == 0, r.stdout + r.stderr + (fix if r.returncode else '')


WHEEL_SMOKE = r"""
import os, sys, effattn, effattn.train.data as d
where = os.path.dirname(effattn.__file__)
assert 'site-packages' in where, f"effattn imported from {where}, not from the installed wheel"
for name in ('mnist', 'cifar10', 'imagenette'):
    x = d.load_dataset(name, 'train', source='sample')
    assert x.source.startswith('sample:') and len(x) > 0, (name, x.source)
x = d.load_dataset('cifar10', 'test')  # 'auto' falls back to the sample shipped in the wheel
assert x.source.startswith('sample:' + where), x.source
print('wheel ok:', where)
"""


def package_check():
    """Build a wheel from the checkout's package files, install it (no dependencies) into a fresh venv that borrows this
    interpreter's installed packages (torch etc.; no download), and use it outside the checkout: import it, load the
    embedded sample, run the console script. Offline and a few seconds, apart from importing torch."""
    name = 'package: the wheel installs into a fresh venv and works outside the checkout (embedded sample, CLI)'
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp); src = tmp / 'src'
        skip = shutil.ignore_patterns('__pycache__', '*.pyc')
        for item in ('effattn', 'data/sample'): shutil.copytree(ROOT / item, src / item, ignore=skip)
        for f in ('setup.py', 'settings.ini', 'README.md', 'MANIFEST.in'): shutil.copy(ROOT / f, src / f)
        build = [sys.executable, '-m', 'pip', 'wheel', '-q', '--no-deps', '-w', str(tmp / 'dist'), str(src)]
        r = subprocess.run(build[:4] + ['--no-build-isolation'] + build[4:], capture_output=True, text=True)
        if r.returncode:  # this venv lacks setuptools/wheel: let pip fetch the build backend (needs the package index)
            r = subprocess.run(build, capture_output=True, text=True)
        wheels = sorted((tmp / 'dist').glob('effattn-*.whl'))
        if r.returncode or not wheels: return name, False, 'building the wheel failed:\n' + r.stdout + r.stderr
        subprocess.run([sys.executable, '-m', 'venv', '--without-pip', str(tmp / 'venv')], check=True)
        py = tmp / 'venv' / 'bin' / 'python'
        site = subprocess.run([str(py), '-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
                              capture_output=True, text=True, check=True).stdout.strip()
        # lines of a .pth are plain path entries: the borrowed folders' own .pth files (our editable install) stay inert
        borrowed = dict.fromkeys([sysconfig.get_paths()['purelib'], sysconfig.get_paths()['platlib']])
        Path(site, '_borrowed.pth').write_text('\n'.join(borrowed) + '\n')
        env = {k: v for k, v in os.environ.items() if k not in ('EFFATTN_DATA', 'PYTHONPATH')}
        env['EFFATTN_CACHE'] = str(tmp / 'cache')
        log = ''
        for cmd in ([str(py), '-m', 'pip', 'install', '-q', '--no-deps', '--no-index', str(wheels[0])],
                    [str(py), '-c', WHEEL_SMOKE],
                    [str(tmp / 'venv' / 'bin' / 'effattn'), '--help']):
            r = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
            log += f"$ {' '.join(cmd[:3])} ...\n{r.stdout}{r.stderr}"
            if r.returncode: return name, False, log
        return name, True, log


def proc_one(src, dst):
    "Child process: nbdev's docs processor on one notebook (what `nbdev_proc_nbs` runs on each); exit 1 on an error."
    import warnings
    import nbdev.serve_drv
    from nbdev.processors import FilterDefaults
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        nbdev.serve_drv.main((Path(src), Path(dst), FilterDefaults))
    mixed = [str(m.message).split('---')[1].strip() for m in w if 'containing imports and other code' in str(m.message)]
    for m in mixed: print("a cell mixes imports with other code (make it imports only):\n    " + m.replace('\n', '\n    '))
    sys.exit(1 if mixed else 0)


def proc_docs(workers):
    """Child process: nbdev's docs step before Quarto (`nbdev_proc_nbs`) on every notebook nbdev's docs take, into the
    ignored `_proc/`. Each notebook runs on its own so that every failure is reported, and a cell mixing imports with
    other code counts as a failure. Then nbdev's own `_pre_docs` (what `nbdev_proc_nbs` calls) runs over the result:
    it writes nbs/nbdev.yml and nbs/sidebar.yml (ignored by git), `_modidx.py`, and anything not yet processed.
    `nbdev_proc_nbs` itself would first try to install Quarto (sudo, download) and `pip install -e` this checkout when
    Quarto is missing; that step is skipped here."""
    import nbdev.quarto
    from nbdev.config import get_config
    from nbdev.doclinks import nbglob
    cfg = get_config(); cache, path = cfg.config_path / '_proc', cfg.nbs_path
    if (path / cfg.readme_nb).exists():  # nbdev_docs would overwrite the hand-written README.md with its rendering
        sys.exit(f"settings.ini's readme_nb ({cfg.readme_nb}) exists: README.md is hand-written, name no notebook there")
    if not (path / 'index.ipynb').exists(): sys.exit('nbs/index.ipynb (the docs front page) is missing')
    shutil.rmtree(cache, ignore_errors=True)
    files = [p for p in nbglob(path, func=Path, file_glob='', file_re='') if p.suffix == '.ipynb']
    jobs = []
    for src in files:
        dst = cache / src.relative_to(path); dst.parent.mkdir(parents=True, exist_ok=True)
        jobs.append((str(src), str(dst)))
    def one(job):
        r = subprocess.run([sys.executable, __file__, '--proc-one', *job], cwd=ROOT, capture_output=True, text=True)
        return job[0], r.returncode, (r.stdout + r.stderr)[-3000:]
    t0, bad = time.time(), 0
    with ThreadPoolExecutor(max_workers=workers) as ex:
        for src, rc, log in ex.map(one, jobs):
            bad += rc != 0
            print(f"{'FAIL' if rc else 'ok  '}  {os.path.relpath(src, ROOT)}", flush=True)
            if rc: print('    ' + log.strip().replace('\n', '\n    '), flush=True)
    cache.touch()
    if not bad:
        nbdev.quarto._ensure_quarto = lambda: None
        nbdev.quarto._pre_docs(n_workers=1)
    done = [p for p in files if (cache / p.relative_to(path)).exists()]
    print(f"processed {len(done)} of {len(files)} notebooks, {bad} with errors, in {time.time() - t0:.0f}s")
    sys.exit(1 if bad or len(done) != len(files) else 0)


def docs_check(timeout=1200):
    name = 'docs: nbdev_proc_nbs processes every notebook, and no cell mixes imports with other code'
    try:
        r = subprocess.run([sys.executable, __file__, '--proc-docs'], cwd=ROOT, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return name, False, f"timed out after {timeout}s\n" + (e.stdout or b'').decode(errors='replace')[-3000:]
    out = r.stdout + r.stderr
    last = [l for l in r.stdout.splitlines() if l.startswith('processed ')]
    return name + (f" ({last[-1]})" if last else ''), r.returncode == 0, out


def site_text_check():
    """The site check's vanished-text detector (.ci/site_check.py's `vanished_text`) on tiny synthetic pages, no Sphinx
    needed: it must flag each placeholder that Markdown passed on as an HTML tag (gone from the page's text), in a .md
    page and in a notebook's markdown cell, and pass the same pages once the placeholders are escaped or code."""
    name = 'docs: the site check catches a placeholder that vanished from its page (synthetic pages)'
    sys.path.insert(0, str(ROOT / '.ci'))
    from site_check import vanished_text
    with tempfile.TemporaryDirectory() as d:
        src, html = Path(d, 'src'), Path(d, 'html'); src.mkdir(); html.mkdir()
        (src / 'report.md').write_text('fills data/results/<paper>/gpu/ (`effattn device`); see '
                                       '<details><summary>why</summary>x</details> and `tensorboard/<run id>`')
        cell = {'cell_type': 'markdown', 'metadata': {}, 'source': ['writes into runs_dir/<run id>, one per run']}
        (src / 'nb.ipynb').write_text(json.dumps({'cells': [cell], 'metadata': {}, 'nbformat': 4, 'nbformat_minor': 5}))
        (html / 'report.html').write_text('<p>fills data/results//gpu/ (<code>effattn device</code>); see <details><summary>'
                                          'why</summary>x</details> and <code>tensorboard/&lt;run id&gt;</code></p>')
        (html / 'nb.html').write_text('<p>writes into runs_dir/, one per run</p><script>"runs_dir/<run id>"</script>')
        gone = vanished_text(src, html)
        (html / 'report.html').write_text('<p>fills data/results/&lt;paper&gt;/gpu/ ... <code>tensorboard/&lt;run id&gt;</code></p>')
        (html / 'nb.html').write_text('<p>writes into runs_dir/<span>&lt;</span>run id&gt;, one per run</p>')
        kept = vanished_text(src, html)
    ok = ([g.split(':')[0] for g in gone] == ['nb.html', 'report.html'] and "'data/results/<paper>'" in gone[1]
          and "'runs_dir/<run id>'" in gone[0] and kept == [])
    return name, ok, f"flagged {gone}; after the fix {kept}"


def site_check(timeout=1200):
    """The documentation site as a reader meets it: `python .ci/build_site.py --check` builds it from the notebooks
    (Sphinx + myst-nb, running none), checks that every internal link and image of every page resolves and that every
    angle-bracket placeholder of a page's source (`data/results/<paper>/gpu/`) is in the page's text, and screenshots
    the index, a mechanism page, a paper page with its figures and the report with Debian's headless Chromium (into a
    temporary folder). Needs the `docs` extra and `apt-get install chromium`. Measured with `python .ci/test.py
    --checks-only --site`: 55 s on a quiet 2-core machine, 93 s under load (load average 6); `python .ci/build_site.py
    --check` alone 46 s quiet (build 34 s, link check and screenshots 12 s) to 130 s at load average 10."""
    name = 'docs: the site builds without running a notebook, no broken internal link or missing image, Chromium renders it'
    t0 = time.time()
    try:
        r = subprocess.run([sys.executable, str(ROOT / '.ci' / 'build_site.py'), '--check'], cwd=ROOT,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return name, False, f"timed out after {timeout}s\n" + (e.stdout or b'').decode(errors='replace')[-3000:]
    return name + f" ({time.time() - t0:.0f}s)", r.returncode == 0, r.stdout + r.stderr


def notebooks(only=None):
    nbs = [p for p in sorted(NBS.rglob('*.ipynb'))
           if not any(part.startswith(('_', '.')) for part in p.relative_to(NBS).parts)]
    if only: nbs = [p for p in nbs if re.search(only, str(p.relative_to(NBS)))]
    return nbs


def run_one(path, flags):
    "Child process: run one notebook with nbdev's runner; exit 0 on success."
    from nbdev.test import test_nb
    from nbdev.config import get_config
    skip = [f for f in get_config().tst_flags.split() if f not in flags]
    ok, _ = test_nb(Path(path), skip_flags=skip, force_flags=flags, showerr=True)
    sys.exit(0 if ok else 1)


def experiment_key(path):
    "The `effattn reproduce --papers` key of an experiment notebook, or None for a library notebook."
    rel = Path(path).resolve().relative_to(NBS)
    if rel.parts[0] != 'experiments': return None
    stem = rel.stem
    if stem[:3].isdigit(): return stem[:3]
    return 'attention_error' if stem.startswith('attention_error') else stem.split('_')[0]


def run_notebook(path, flags, threads, timeout):
    """Run one notebook in a fresh process (isolated state, a time limit); return (path, ok, seconds, log).
    Experiment notebooks run through the README's main job, `effattn reproduce --profile smoke` (papermill)."""
    env = {**os.environ, 'OMP_NUM_THREADS': str(threads), 'MKL_NUM_THREADS': str(threads)}
    key = experiment_key(path)
    cmd = ([str(BIN / 'effattn'), 'reproduce', '--profile', 'smoke', '--papers', key] if key else
           [sys.executable, __file__, '--run-one', str(path), '--flags', *flags])
    t0 = time.time()
    try:
        r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
        ok, log = r.returncode == 0, r.stdout + r.stderr
    except subprocess.TimeoutExpired as e:
        ok, log = False, f"timed out after {timeout}s\n" + (e.stdout or b'').decode(errors='replace')[-3000:]
    return str(path), ok, time.time() - t0, log


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--flags', nargs='*', default=[], help='test flags to run (e.g. slow gpu)')
    ap.add_argument('--only', default=None, help='regex: run only notebooks whose path matches')
    ap.add_argument('--workers', type=int, default=int(os.environ.get('EFFATTN_TEST_WORKERS', 2)))
    ap.add_argument('--no-sync', action='store_true', help='skip the notebook/library sync checks')
    ap.add_argument('--checks-only', action='store_true', help='run only the sync and package checks, no notebooks')
    ap.add_argument('--timeout', type=int, default=1800, help='seconds allowed per notebook')
    ap.add_argument('--docs', action='store_true', help='run the docs check (nbdev_proc_nbs over every notebook; minutes, '
                    'so otherwise only with --flags slow)')
    ap.add_argument('--site', action='store_true', help='run the site check (build the documentation site, check its '
                    'links, screenshot it in headless Chromium; 1-2 minutes, so otherwise only with --flags slow)')
    ap.add_argument('--run-one', default=None, help=argparse.SUPPRESS)
    ap.add_argument('--proc-docs', action='store_true', help=argparse.SUPPRESS)
    ap.add_argument('--proc-one', nargs=2, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.run_one: return run_one(args.run_one, args.flags)
    if args.proc_docs: return proc_docs(args.workers)
    if args.proc_one: return proc_one(*args.proc_one)
    threads = max(1, (os.cpu_count() or 2) // max(1, args.workers))
    t0 = time.time()
    passed = failed = 0
    failures = []
    if not args.no_sync:
        slow = 'slow' in args.flags
        checks = (sync_checks() + [lint_check(), package_check(), site_text_check()] + ([docs_check()] if args.docs or slow else [])
                  + ([site_check()] if args.site or slow else []))
        for name, ok, detail in checks:
            print(f"{'PASS' if ok else 'FAIL'}  {name}", flush=True)
            if ok: passed += 1
            else: failed += 1; failures.append((name, detail))
    nbs = [] if args.checks_only else notebooks(args.only)
    last = [p for p in nbs if experiment_key(p) == 'report']  # the report reads the other notebooks' claims
    def record(result):
        nonlocal passed, failed
        path, ok, secs, err = result
        rel = os.path.relpath(path, ROOT)
        print(f"{'PASS' if ok else 'FAIL'}  {rel}  ({secs:.1f}s)", flush=True)
        if ok: passed += 1
        else: failed += 1; failures.append((rel, err))
    with ThreadPoolExecutor(max_workers=args.workers) as ex:
        futs = [ex.submit(run_notebook, p, args.flags, threads, args.timeout) for p in nbs if p not in last]
        for f in as_completed(futs): record(f.result())
    for p in last: record(run_notebook(p, args.flags, threads * args.workers, args.timeout))
    for name, detail in failures:
        print(f"\n===== FAILED: {name} =====\n{detail[-6000:]}")
    print(f"\nfinished in {time.time() - t0:.0f}s")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
