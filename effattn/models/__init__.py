"""effattn.models: the ViT (`vit`), its per-layer layouts (`layouts`), every paper's model as a preset (`presets`), 003's ConvPerformer (`conv_performer`) and timm interop (`timm`)."""
