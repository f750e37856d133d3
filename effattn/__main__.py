"`python -m effattn ...` is the `effattn` command (useful where the console script is not installed, e.g. on a lent GPU machine)."
from .repro.cli import console

if __name__ == '__main__': console()
