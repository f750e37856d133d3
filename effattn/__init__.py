__version__ = "0.1.0"
"""effattn: efficient attention for Vision Transformers, every mechanism tested against exact attention.

Importing the package registers every mechanism, so `list_attention()` and `build_attention()` see them all."""
from .core import (AttentionSpec, MultiHeadAttention, build_attention, get_attention_spec, list_attention,
                   register_attention)
