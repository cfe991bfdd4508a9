"""python -m host_sim [sim|play|score|solve|screenshot] ...: the same commands as the `fivedice` console script."""
import sys

from host_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
