"""Generate the fivedice 5x8 bitmap font from the ASCII-art table below.

Writes lib/fivedice/font.py (a `bytes` constant for chars 32..126) and
lib/fivedice/font5x8.bin (the adafruit_framebuf format: 2-byte header width, height,
then 5 column bytes for every char 0..255; chars outside 32..126 are blank).

Glyph rows are top to bottom; '#' is ink, '.' is paper. A glyph may give 7 rows
(row 7 is then blank: the line gap). Bytes are column-major, LSB = top row.
Caps are 7 rows tall, lowercase x-height is 5 rows, descenders use row 7.

Run: python tools/make_font.py   (then commit both generated files)
"""
import os

GLYPHS = r"""
[ ]
.....
.....
.....
.....
.....
.....
.....
[!]
..#..
..#..
..#..
..#..
..#..
.....
..#..
["]
.#.#.
.#.#.
.#.#.
.....
.....
.....
.....
[#]
.#.#.
.#.#.
#####
.#.#.
#####
.#.#.
.#.#.
[$]
..#..
.####
#.#..
.###.
..#.#
####.
..#..
[%]
##...
##..#
...#.
..#..
.#...
#..##
...##
[&]
.##..
#..#.
#.#..
.#...
#.#.#
#..#.
.##.#
[']
..#..
..#..
.#...
.....
.....
.....
.....
[(]
...#.
..#..
.#...
.#...
.#...
..#..
...#.
[)]
.#...
..#..
...#.
...#.
...#.
..#..
.#...
[*]
.....
..#..
#.#.#
.###.
#.#.#
..#..
.....
[+]
.....
..#..
..#..
#####
..#..
..#..
.....
[,]
.....
.....
.....
.....
.....
.##..
..#..
.#...
[-]
.....
.....
.....
.###.
.....
.....
.....
[.]
.....
.....
.....
.....
.....
.##..
.##..
[/]
.....
....#
...#.
..#..
.#...
#....
.....
[0]
.###.
#...#
#..##
#.#.#
##..#
#...#
.###.
[1]
..#..
.##..
..#..
..#..
..#..
..#..
.###.
[2]
.###.
#...#
....#
...#.
..#..
.#...
#####
[3]
#####
...#.
..#..
...#.
....#
#...#
.###.
[4]
...#.
..##.
.#.#.
#..#.
#####
...#.
...#.
[5]
#####
#....
####.
....#
....#
#...#
.###.
[6]
..##.
.#...
#....
####.
#...#
#...#
.###.
[7]
#####
....#
...#.
..#..
.#...
.#...
.#...
[8]
.###.
#...#
#...#
.###.
#...#
#...#
.###.
[9]
.###.
#...#
#...#
.####
....#
...#.
.##..
[:]
.....
.##..
.##..
.....
.##..
.##..
.....
[;]
.....
.##..
.##..
.....
.##..
..#..
.#...
[<]
...#.
..#..
.#...
#....
.#...
..#..
...#.
[=]
.....
.....
#####
.....
#####
.....
.....
[>]
.#...
..#..
...#.
....#
...#.
..#..
.#...
[?]
.###.
#...#
....#
...#.
..#..
.....
..#..
[@]
.###.
#...#
#.###
#.#.#
#.###
#....
.###.
[A]
.###.
#...#
#...#
#####
#...#
#...#
#...#
[B]
####.
#...#
#...#
####.
#...#
#...#
####.
[C]
.###.
#...#
#....
#....
#....
#...#
.###.
[D]
###..
#..#.
#...#
#...#
#...#
#..#.
###..
[E]
#####
#....
#....
####.
#....
#....
#####
[F]
#####
#....
#....
####.
#....
#....
#....
[G]
.###.
#...#
#....
#.###
#...#
#...#
.####
[H]
#...#
#...#
#...#
#####
#...#
#...#
#...#
[I]
.###.
..#..
..#..
..#..
..#..
..#..
.###.
[J]
..###
...#.
...#.
...#.
...#.
#..#.
.##..
[K]
#...#
#..#.
#.#..
##...
#.#..
#..#.
#...#
[L]
#....
#....
#....
#....
#....
#....
#####
[M]
#...#
##.##
#.#.#
#.#.#
#...#
#...#
#...#
[N]
#...#
#...#
##..#
#.#.#
#..##
#...#
#...#
[O]
.###.
#...#
#...#
#...#
#...#
#...#
.###.
[P]
####.
#...#
#...#
####.
#....
#....
#....
[Q]
.###.
#...#
#...#
#...#
#.#.#
#..#.
.##.#
[R]
####.
#...#
#...#
####.
#.#..
#..#.
#...#
[S]
.####
#....
#....
.###.
....#
....#
####.
[T]
#####
..#..
..#..
..#..
..#..
..#..
..#..
[U]
#...#
#...#
#...#
#...#
#...#
#...#
.###.
[V]
#...#
#...#
#...#
#...#
#...#
.#.#.
..#..
[W]
#...#
#...#
#...#
#.#.#
#.#.#
#.#.#
.#.#.
[X]
#...#
#...#
.#.#.
..#..
.#.#.
#...#
#...#
[Y]
#...#
#...#
.#.#.
..#..
..#..
..#..
..#..
[Z]
#####
....#
...#.
..#..
.#...
#....
#####
[[]
.###.
.#...
.#...
.#...
.#...
.#...
.###.
[\]
.....
#....
.#...
..#..
...#.
....#
.....
[]]
.###.
...#.
...#.
...#.
...#.
...#.
.###.
[^]
..#..
.#.#.
#...#
.....
.....
.....
.....
[_]
.....
.....
.....
.....
.....
.....
.....
#####
[`]
.#...
..#..
...#.
.....
.....
.....
.....
[a]
.....
.....
.###.
....#
.####
#...#
.####
[b]
#....
#....
#.##.
##..#
#...#
#...#
####.
[c]
.....
.....
.###.
#....
#....
#...#
.###.
[d]
....#
....#
.##.#
#..##
#...#
#...#
.####
[e]
.....
.....
.###.
#...#
#####
#....
.###.
[f]
..##.
.#..#
.#...
###..
.#...
.#...
.#...
[g]
.....
.....
.####
#...#
#...#
.####
....#
.###.
[h]
#....
#....
#.##.
##..#
#...#
#...#
#...#
[i]
..#..
.....
.##..
..#..
..#..
..#..
.###.
[j]
...#.
.....
..##.
...#.
...#.
...#.
#..#.
.##..
[k]
#....
#....
#..#.
#.#..
##...
#.#..
#..#.
[l]
.##..
..#..
..#..
..#..
..#..
..#..
.###.
[m]
.....
.....
##.#.
#.#.#
#.#.#
#.#.#
#.#.#
[n]
.....
.....
#.##.
##..#
#...#
#...#
#...#
[o]
.....
.....
.###.
#...#
#...#
#...#
.###.
[p]
.....
.....
####.
#...#
#...#
####.
#....
#....
[q]
.....
.....
.####
#...#
#...#
.####
....#
....#
[r]
.....
.....
#.##.
##..#
#....
#....
#....
[s]
.....
.....
.####
#....
.###.
....#
####.
[t]
.#...
.#...
###..
.#...
.#...
.#..#
..##.
[u]
.....
.....
#...#
#...#
#...#
#..##
.##.#
[v]
.....
.....
#...#
#...#
#...#
.#.#.
..#..
[w]
.....
.....
#...#
#...#
#.#.#
#.#.#
.#.#.
[x]
.....
.....
#...#
.#.#.
..#..
.#.#.
#...#
[y]
.....
.....
#...#
#...#
#...#
.####
....#
.###.
[z]
.....
.....
#####
...#.
..#..
.#...
#####
[{]
...##
..#..
..#..
.#...
..#..
..#..
...##
[|]
..#..
..#..
..#..
..#..
..#..
..#..
..#..
[}]
##...
..#..
..#..
...#.
..#..
..#..
##...
[~]
.....
.....
.#...
#.#.#
...#.
.....
.....
"""

WIDTH = 5
HEIGHT = 8
FIRST = 32
LAST = 126

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse(table):
    """Return {char: [8 row strings]} from the table; checks shape and coverage."""
    glyphs = {}
    cur = None
    for line in table.splitlines():
        if not line:
            continue
        if len(line) == 3 and line[0] == "[" and line[2] == "]":
            cur = line[1]
            if cur in glyphs:
                raise ValueError("duplicate glyph %r" % cur)
            glyphs[cur] = []
            continue
        if len(line) != WIDTH or line.strip(".#"):
            raise ValueError("bad row %r in glyph %r" % (line, cur))
        glyphs[cur].append(line)
    for ch, rows in glyphs.items():
        if not 7 <= len(rows) <= HEIGHT:
            raise ValueError("glyph %r has %d rows" % (ch, len(rows)))
        rows.extend(["." * WIDTH] * (HEIGHT - len(rows)))
    missing = [chr(c) for c in range(FIRST, LAST + 1) if chr(c) not in glyphs]
    if missing:
        raise ValueError("missing glyphs: %r" % missing)
    return glyphs


def columns(rows):
    """Column-major bytes for one glyph, LSB = top row."""
    out = []
    for x in range(WIDTH):
        b = 0
        for y in range(HEIGHT):
            if rows[y][x] == "#":
                b |= 1 << y
        out.append(b)
    return bytes(out)


def build(glyphs):
    return b"".join(columns(glyphs[chr(c)]) for c in range(FIRST, LAST + 1))


def font_py(data):
    lines = [
        '"""The fivedice 5x8 font: GENERATED by tools/make_font.py (edit the table there, not this file).',
        "",
        "FONT holds 5 column bytes per char for chars FIRST..LAST (32..126), LSB = top row.",
        "Caps are 7 rows high, lowercase x-height 5 rows, descenders use row 7. Read it",
        "through fivedice.gfx; chars outside FIRST..LAST draw as '?'.",
        '"""',
        "from fivedice.compat import const",
        "",
        "WIDTH = const(%d)" % WIDTH,
        "HEIGHT = const(%d)" % HEIGHT,
        "FIRST = const(%d)" % FIRST,
        "LAST = const(%d)" % LAST,
        "ADVANCE = const(%d)  # columns a char takes: WIDTH and a one-column gap" % (WIDTH + 1),
        "UNKNOWN = const(%d)  # the char a code outside FIRST..LAST draws: '?'" % ord("?"),
        "",
        "# fmt: off",
        "FONT = (",
    ]
    for c in range(FIRST, LAST + 1):
        i = (c - FIRST) * WIDTH
        chunk = "".join("\\x%02x" % b for b in data[i : i + WIDTH])
        label = chr(c) if chr(c) not in "\\" else "backslash"
        lines.append('    b"%s"  # %d %s' % (chunk, c, label))
    lines.append(")")
    lines.append("# fmt: on")
    return "\n".join(lines) + "\n"


def font_bin(data):
    out = bytearray([WIDTH, HEIGHT])
    out += bytes(WIDTH * FIRST)
    out += data
    out += bytes(WIDTH * (256 - LAST - 1))
    assert len(out) == 2 + 256 * WIDTH
    return bytes(out)


def main():
    data = build(parse(GLYPHS))
    with open(os.path.join(ROOT, "lib", "fivedice", "font.py"), "w") as f:
        f.write(font_py(data))
    with open(os.path.join(ROOT, "lib", "fivedice", "font5x8.bin"), "wb") as f:
        f.write(font_bin(data))
    print("wrote %d glyphs" % (LAST - FIRST + 1))


if __name__ == "__main__":
    main()
