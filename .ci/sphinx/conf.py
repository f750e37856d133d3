# Sphinx configuration of effattn's documentation site; `python .ci/build_site.py` stages the sources and builds with it.
#
# Why Sphinx + myst-nb + sphinx-book-theme (the Jupyter Book stack) rather than mkdocs-material + mkdocs-jupyter:
# - myst-nb renders a notebook's stored outputs natively (`nb_execution_mode = 'off'`: nothing is executed), text,
#   HTML tables and PNG figures alike, and its MyST markdown handles the notebooks' $math$ and tables;
# - links between notebooks (`[x](13_performer.ipynb)`) become checked document references, where mkdocs-jupyter leaves
#   `.ipynb` links inside a notebook as they are (broken on the site);
# - Sphinx reports every unresolved reference, and its autodoc remains at hand should the API pages outgrow the
#   show_doc-style sections that .ci/build_site.py writes from the docstrings and docments.
# Math is rendered to MathML at build time (latex2mathml, below), so pages show formulas offline, with no MathJax.
from __future__ import annotations

import configparser
import html as _html
from pathlib import Path

_settings = configparser.ConfigParser(interpolation=None)
_settings.read(Path(__file__).resolve().parents[2] / 'settings.ini')

project = 'effattn'
author = 'effattn developers'
copyright = '2026 onwards, effattn developers'
extensions = ['myst_nb']
nb_execution_mode = 'off'          # render the committed outputs; never run a notebook
nb_output_stderr = 'remove'        # warnings and progress bars of the executed copies are noise on a page
nb_merge_streams = True
myst_enable_extensions = ['dollarmath', 'colon_fence', 'html_image']
myst_heading_anchors = 3           # `[x](page.md#a-heading)` links resolve
suppress_warnings = ['myst.header', 'mystnb.unknown_mime_type', 'misc.highlighting_failure']
exclude_patterns = ['**.ipynb_checkpoints']
html_theme = 'sphinx_book_theme'
html_title = 'effattn'
html_copy_source = False           # no _sources/ copies of the (large) executed notebooks
html_show_sourcelink = False
html_theme_options = {
    'repository_url': _settings['DEFAULT']['git_url'],  # settings.ini's, as the build script's links
    'use_repository_button': True,
    'use_download_button': False,  # its '.ipynb' entry would link to _sources/, which is not copied (and not the source)
    'show_toc_level': 2,
    'navigation_with_keys': False,
}
html_math_renderer = 'mathml'
html_static_path = ['_static']
html_css_files = ['effattn.css']


def _mathml(latex: str, display: str) -> str:
    "MathML for `latex`, or the TeX itself in a <code> element when latex2mathml cannot convert it."
    from latex2mathml.converter import convert
    try: return convert(latex.strip(), display=display)
    except Exception: return f'<code class="tex">{_html.escape(latex)}</code>'


def _visit_math(self, node) -> None:
    from docutils import nodes
    self.body.append(_mathml(node.astext(), 'inline'))
    raise nodes.SkipNode


def _visit_displaymath(self, node) -> None:
    from docutils import nodes
    self.body.append(f'<div class="math-block notranslate">{_mathml(node.astext(), "block")}</div>')
    raise nodes.SkipNode


def setup(app) -> dict:
    app.add_html_math_renderer('mathml', (_visit_math, None), (_visit_displaymath, None))
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
