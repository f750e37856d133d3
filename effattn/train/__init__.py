"""effattn.train: datasets (`data`), augmentation on the device (`augment`), the training loop (`loop`) and one
run's specification and record (`experiment`).

The loop's names load from here on first use, as they did before the move (`from effattn.train import fit, TrainConfig`),
and importing the package loads nothing, so `effattn.train.experiment` stays torch-free at import."""
import importlib

_SUBMODULES = ('data', 'augment', 'loop', 'experiment')


def __getattr__(name: str):
    "A submodule, or a name of the training loop (`effattn.train.loop`), loaded on first use."
    if name in _SUBMODULES: return importlib.import_module(f'{__name__}.{name}')
    if name.startswith('__'): raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    loop = importlib.import_module('effattn.train.loop')
    try: value = getattr(loop, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r} (nor has effattn.train.loop)") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SUBMODULES) | set(importlib.import_module('effattn.train.loop').__all__))
