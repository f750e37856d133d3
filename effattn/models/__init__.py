"""effattn.models: the ViT (`vit`), its per-layer layouts (`layouts`), every paper's model as a preset (`presets`), 003's ConvPerformer (`conv_performer`) and timm interop (`timm`)."""

from effattn import _submodules

_SUBMODULES = ('vit', 'presets', 'timm', 'layouts', 'conv_performer')
__getattr__, __dir__ = _submodules(__name__, _SUBMODULES)  # each module loads on first access
