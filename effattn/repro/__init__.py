"""effattn.repro: reproducing the studies across sessions and machines: the report (`report`), the resumable campaign (`campaign`) and its cluster engines (`engines`), the GPU device window (`device` and its helpers) and the command line (`cli`, also `python -m effattn`). Importing it loads nothing: `effattn --help` needs no torch."""

import importlib

_SUBMODULES = ('report', 'campaign', 'engines', 'xfer', 'staging', 'selfcheck', 'device', 'cli')


def __getattr__(name: str):
    "A submodule (`effattn.repro.report`), loaded on first use: importing the package loads none of them."
    if name in _SUBMODULES: return importlib.import_module(f'{__name__}.{name}')
    raise AttributeError(f"module {__name__!r} has no attribute {name!r} (its modules: {', '.join(_SUBMODULES)})")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SUBMODULES))
