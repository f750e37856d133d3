"`python -m effattn.bench ...`: the benchmarks' command line (`effattn.bench.main`; a package runs as its __main__)."
from . import main

if __name__ == '__main__': main()
