"""effattn.models: the ViT (`vit`), its per-layer layouts (`layouts`), every paper's model as a preset (`presets`), 003's ConvPerformer (`conv_performer`) and timm interop (`timm`)."""

import importlib

_SUBMODULES = ('vit', 'presets', 'timm', 'layouts', 'conv_performer')


def __getattr__(name: str):
    "A submodule (`effattn.models.vit`), loaded on first use: importing the package loads none of them."
    if name in _SUBMODULES: return importlib.import_module(f'{__name__}.{name}')
    raise AttributeError(f"module {__name__!r} has no attribute {name!r} (its modules: {', '.join(_SUBMODULES)})")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SUBMODULES))
