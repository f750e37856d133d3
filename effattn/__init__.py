__version__ = "0.1.0"
"""effattn: efficient attention for Vision Transformers, every mechanism tested against exact attention.

Importing the package registers every mechanism, so `list_attention()` and `build_attention()` see them all."""
from .core import (AttentionSpec, MultiHeadAttention, build_attention, get_attention_spec, list_attention,
                   register_attention)
# importing the mechanism modules registers them
from . import softmax, flash, linformer, performer, performer_kernels, nystrom, hydra, linear, sparse
from . import focused, agent, litemla
from .vit import ViT, resolve_attention
from .presets import create_model, list_presets, preset


def __getattr__(name: str):
    "`effattn.timm` (timm interop: `attn_layer`, `swap_attention`) imports timm only when first used."
    if name == 'timm':
        import importlib
        return importlib.import_module('.timm', __name__)
    raise AttributeError(f"module 'effattn' has no attribute {name!r}")
