"""effattn.repro: reproducing the studies across sessions and machines: the report (`report`), the resumable campaign (`campaign`) and its cluster engines (`engines`), the GPU device window (`device` and its helpers) and the command line (`cli`, also `python -m effattn`). Importing it loads nothing: `effattn --help` needs no torch."""

from effattn import _submodules

_SUBMODULES = ('report', 'campaign', 'engines', 'xfer', 'staging', 'selfcheck', 'device', 'cli')
__getattr__, __dir__ = _submodules(__name__, _SUBMODULES)  # each module loads on first access
