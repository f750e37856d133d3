__version__ = "0.1.0"
"""effattn: efficient attention for Vision Transformers, every mechanism tested against exact attention.

Importing the package is cheap: the names below load on first use (so `effattn --help` needs no torch). The registry's
names come from `effattn.attention`, which imports every mechanism module, so `list_attention()` and
`build_attention()` see them all."""
import importlib

_NAMES = {'AttentionSpec': 'attention', 'MultiHeadAttention': 'attention', 'build_attention': 'attention',
          'get_attention_spec': 'attention', 'list_attention': 'attention', 'register_attention': 'attention',
          'ViT': 'vit', 'resolve_attention': 'vit', 'create_model': 'presets', 'list_presets': 'presets', 'preset': 'presets'}
__all__ = list(_NAMES)


def __getattr__(name: str):
    "Load a public name, or a submodule (`effattn.hydra`), on first access."
    try: value = getattr(importlib.import_module(f'{__name__}.{_NAMES[name]}'), name) if name in _NAMES else \
        importlib.import_module(f'{__name__}.{name}')
    except ModuleNotFoundError as e:
        if e.name != f'{__name__}.{name}': raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_NAMES))
