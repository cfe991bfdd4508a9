"""python -m host_sim [sim|play|score] ... — the simulator and the command-line tools."""
import sys


def main(argv):
    cmd = argv[0] if argv else "sim"
    if cmd == "score":
        from host_sim import oracle

        return oracle.main()
    if cmd in ("-h", "--help", "help"):
        print(__doc__.strip())
        print("  score   rules oracle: JSON requests on stdin, JSON answers on stdout")
        return 0
    print("unknown command %r; try: python -m host_sim score" % cmd, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
