"""python -m host_sim [sim|play|score] ... — the simulator and the command-line tools."""
import sys


def main(argv):
    cmd = argv[0] if argv and not argv[0].startswith("-") else "sim"
    if cmd == "sim":
        from host_sim import sim

        return sim.main(argv[1:] if argv and argv[0] == "sim" else argv)
    if cmd == "score":
        from host_sim import oracle

        return oracle.main()
    if cmd == "play":
        from host_sim import play

        return play.main(argv[1:])
    if cmd in ("-h", "--help", "help"):
        print(__doc__.strip())
        print("  sim     (default) play in the terminal; a CPU demo when stdin is not a terminal")
        print("  play    scripted game: play --rules R --players N --faces F --script FILE [--screenshots DIR]")
        print("  score   rules oracle: JSON requests on stdin, JSON answers on stdout")
        return 0
    print("unknown command %r; try: python -m host_sim score" % cmd, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
