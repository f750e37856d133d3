__version__ = "0.1.0"
"""effattn: efficient attention for Vision Transformers, every mechanism tested against exact attention.

The package by role: `effattn.attention` (the mechanisms, their registry, `testing`, `flops`), `effattn.models` (the
ViT, layouts, presets, timm interop), `effattn.train` (data, augmentation, the loop, one run's specification),
`effattn.bench`, `effattn.studies` (one module per paper) and `effattn.repro` (campaign, device window, report, CLI);
the base modules (`registry`, `core`, `runtime`, `compact`, `measure`) sit at the root.

Importing the package is cheap: the names below load on first use (so `effattn --help` needs no torch). The registry's
names come from `effattn.attention`, which imports every mechanism module, so `list_attention()` and
`build_attention()` see them all.

The module paths from before that layout (`effattn.hydra`, `effattn.papers.p002`, `effattn.cli`, ...) still import, for
one release: `_MOVED` maps each old path to its new one, and a finder on `sys.meta_path` imports the new module, registers
it under the old name too (one module object, so nothing is loaded or registered twice) and warns once per old path."""
import importlib
import importlib.abc
import importlib.util
import sys
import warnings

_NAMES = {'AttentionSpec': 'attention', 'MultiHeadAttention': 'attention', 'build_attention': 'attention',
          'get_attention_spec': 'attention', 'list_attention': 'attention', 'register_attention': 'attention',
          'ViT': 'models.vit', 'resolve_attention': 'models.vit', 'create_model': 'models.presets',
          'list_presets': 'models.presets', 'preset': 'models.presets'}
__all__ = list(_NAMES)


def __getattr__(name: str):
    "Load a public name, or a submodule (`effattn.attention`), on first access."
    try: value = getattr(importlib.import_module(f'{__name__}.{_NAMES[name]}'), name) if name in _NAMES else \
        importlib.import_module(f'{__name__}.{name}')
    except ModuleNotFoundError as e:
        if e.name != f'{__name__}.{name}': raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_NAMES))


def _submodules(package: str, names: tuple[str, ...]):
    "A subpackage's `__getattr__` and `__dir__` that load its modules `names` on first access, so importing it loads none."
    def __getattr__(name: str):
        if name in names: return importlib.import_module(f'{package}.{name}')
        raise AttributeError(f"module {package!r} has no attribute {name!r} (its modules: {', '.join(names)})")
    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(names))
    return __getattr__, __dir__


_MOVED = {  # every module path before the move (issue 39) -> its module now; the old paths go in the next release
    'effattn.softmax': 'effattn.attention.softmax',
    'effattn.flash': 'effattn.attention.flash',
    'effattn.linformer': 'effattn.attention.linformer',
    'effattn.performer': 'effattn.attention.performer',
    'effattn.performer_kernels': 'effattn.attention.performer_kernels',
    'effattn.nystrom': 'effattn.attention.nystrom',
    'effattn.hydra': 'effattn.attention.hydra',
    'effattn.linear': 'effattn.attention.linear',
    'effattn.sparse': 'effattn.attention.sparse',
    'effattn.focused': 'effattn.attention.focused',
    'effattn.agent': 'effattn.attention.agent',
    'effattn.litemla': 'effattn.attention.litemla',
    'effattn.polaformer': 'effattn.attention.polaformer',
    'effattn.inline': 'effattn.attention.inline',
    'effattn.mlla': 'effattn.attention.mlla',
    'effattn.testing': 'effattn.attention.testing',
    'effattn.flops': 'effattn.attention.flops',
    'effattn.vit': 'effattn.models.vit',
    'effattn.presets': 'effattn.models.presets',
    'effattn.timm': 'effattn.models.timm',
    'effattn.layouts': 'effattn.models.layouts',
    'effattn.conv_performer': 'effattn.models.conv_performer',
    'effattn.data': 'effattn.train.data',
    'effattn.augment': 'effattn.train.augment',
    'effattn.experiment': 'effattn.train.experiment',
    'effattn.bench_peers': 'effattn.bench.peers',
    'effattn.papers': 'effattn.studies',
    'effattn.papers.verdict': 'effattn.studies.verdict',
    'effattn.papers.base': 'effattn.studies.base',
    'effattn.papers.p000': 'effattn.studies.efficient_attention',
    'effattn.papers.p001': 'effattn.studies.hydra',
    'effattn.papers.p002': 'effattn.studies.hybrid_performer',
    'effattn.papers.p003': 'effattn.studies.cifar_performers',
    'effattn.papers.p004': 'effattn.studies.efficient_transformers',
    'effattn.papers.attention_error': 'effattn.studies.attention_error',
    'effattn.papers.zoo': 'effattn.studies.zoo',
    'effattn.report': 'effattn.repro.report',
    'effattn.campaign': 'effattn.repro.campaign',
    'effattn.engines': 'effattn.repro.engines',
    'effattn.xfer': 'effattn.repro.xfer',
    'effattn.staging': 'effattn.repro.staging',
    'effattn.selfcheck': 'effattn.repro.selfcheck',
    'effattn.device': 'effattn.repro.device',
    'effattn.cli': 'effattn.repro.cli',
}
_WARNED: set[str] = set()


def _moved_to(name: str) -> str | None:
    "The module now at old path `name` (a module under a moved package moves with it), or None if `name` did not move."
    if name in _MOVED: return _MOVED[name]
    parent, _, leaf = name.rpartition('.')
    new = _moved_to(parent) if parent.startswith('effattn.') else None
    return f'{new}.{leaf}' if new else None


def _caller_level() -> int:
    "The `stacklevel` that points a warning at the code that imported the old path (the import machinery skipped)."
    frame, level = sys._getframe(1), 1  # exec_module, which calls warnings.warn, is level 1
    while frame.f_back is not None and (frame.f_code.co_filename == __file__ or 'importlib' in frame.f_code.co_filename):
        frame = frame.f_back
        name = frame.f_code.co_filename
        if not ('importlib' in name and '_bootstrap' in name): level += 1  # warnings.warn skips these frames itself
    return level


class _MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    "Imports an old module path as its new module: the same object under both names, with a warning once per old path."

    def find_spec(self, name, path=None, target=None):
        if not name.startswith('effattn.') or _moved_to(name) is None: return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec): return None  # a placeholder: exec_module puts the new module in its place

    def exec_module(self, module) -> None:
        old = module.__name__; new = _moved_to(old)
        sys.modules[old] = importlib.import_module(new)  # the import system returns what sys.modules holds after this
        if old not in _WARNED:
            _WARNED.add(old)
            warnings.warn(f"{old} moved to {new}; import that: the old path goes in the next release", DeprecationWarning,
                          stacklevel=_caller_level())

    def get_code(self, name):
        "`python -m <old path>` runs the new module as the main module."
        new = _moved_to(name)
        return compile(f"import runpy, warnings\nwarnings.warn({name + ' moved to ' + new + '; run python -m ' + new!r}, "
                       f"DeprecationWarning)\nrunpy.run_module({new!r}, run_name='__main__', alter_sys=True)\n", f'<{name}>', 'exec')

    def is_package(self, name) -> bool: return False


if not any(isinstance(f, _MovedFinder) for f in sys.meta_path): sys.meta_path.insert(0, _MovedFinder())
