"""The app's screens: each is one small object with its own press handling, drawing, cursor and
scroll."""
# A screen has:
#     enter(app)        it becomes the current screen (open() reset its cursor and scroll first)
#     press(app, b)     a button: returns 0 or the refusal code of the action it asked for
#     shake(app, on)    the shake sensor started (on) or stopped shaking
#     tick(app, now)    every loop pass; set app.dirty when the screen needs a new frame
#     wait_ms(app, now) ms until the screen's own next change (the loop may sleep that long without
#     input)
#     draw(fb, app)     the frame (the App calls fb.show())
#     leave(app)        another screen takes over
# The App routes events to the current screen (app.screen); the state they share is on it, each part
# with its owner (the game in progress: fivedice.session, the seats, the settings). Presses and
# frames allocate nothing.
#
# A new screen is a Screen subclass in its own module and one line in SCREENS below, which numbers
# it (the M_ names above are the app's and the menu's).
from fivedice.compat import const
from fivedice import features as _features
from fivedice import lazy as _lazy
from fivedice import oled_view as _view

# Buttons (the App's press() codes; firmware maps its pins to them by name, fivedice.app.B_*)
B_HOLD1 = const(0)
B_HOLD2 = const(1)
B_HOLD3 = const(2)
B_HOLD4 = const(3)
B_HOLD5 = const(4)
B_ROLL = const(5)
B_UP = const(6)
B_DOWN = const(7)
B_OK = const(8)
B_BACK = const(9)

# Screens, by number (app.mode)
M_MENU = const(0)
M_TURN = const(1)
M_PICK = const(2)
M_CARD = const(3)
M_OVER = const(4)
M_HELP = const(5)
M_TEST = const(6)
M_RECORDS = const(7)
M_INITIALS = const(8)
M_PROF = const(9)

# The registry: one line a screen, by M_ number: its module in fivedice.screens and its class, then,
# for a screen that is not kept, the other modules of fivedice it loads (dropped with it) and the
# flag of fivedice.features it needs (upper case). The first KEPT are built at start-up and kept
# (every game needs them); the others are imported as they are entered, dropped as they are left
# (fivedice.lazy.forget) and loaded once at start-up (intern_rare): a new screen is its module and
# one line here, its number the line's (a kept screen would renumber the ones after it).
SCREENS = """\
menu Menu
turn Turn
picker Picker
card Card
over Over
help Help help_pages
selftest SelfTest
records RecordsScreen records RECORDS
initials Initials records RECORDS
proftest ProfTestScreen proftest PROFTEST
"""
KEPT = const(5)

# a list's layout (ListScreen): rows of 8 pixels from right under the title bar
_LIST_Y = const(9)
_ROW_H = const(8)


def build(mode, lines=None):
    """A new object of screen `mode` (M_*), its module imported if it is not loaded (an allocation).
    lines: the registry's lines, if the caller split it already (start-up builds several)."""
    w = (lines or SCREENS.split("\n"))[mode].split()
    s = getattr(__import__("fivedice.screens." + w[0], None, None, (w[1],)), w[1])()
    s.top = 0  # its cursor and scroll exist from now on (a new attribute later would allocate)
    s.cursor = 0
    if mode >= KEPT:
        s.parts = parts(w)  # what leaving it forgets, made now: leaving allocates nothing
    return s


def parts(w):
    """The modules a screen's registry line `w` (its words) names: its own, then the others it
    loads, full names apart by spaces (fivedice.lazy.forget)."""
    p = "fivedice.screens." + w[0]
    for m in w[2:]:
        if not m.isupper():
            p += " fivedice." + m
    return p


def left(screen, mode):
    """Screen `mode` was left (App): a screen that is not kept goes with the modules it loaded."""
    if mode >= KEPT:
        _lazy.forget(screen.parts)


def _nothing(self, a, b=None):
    return 0  # press() and shake(): no refusal


class Screen:
    rows = 0  # rows visible at once (a list's cursor, or a page, scrolls within them)
    # a screen that draws only what changed since its frame before draws all of itself while whole
    # (its enter sets it; so does App.draw's retry); one drawn whole every frame ignores it
    whole = False
    # top (the first row shown) and cursor (a list's line under the cursor): set by build() and
    # open()

    def open(self, app):
        """The App makes this the current screen: it starts at its top, then enters."""
        self.top = 0
        self.cursor = 0
        self.enter(app)

    def scroll(self):
        """Keep a list's cursor inside the rows shown."""
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + self.rows:
            self.top = self.cursor - self.rows + 1

    # by default a screen does nothing on these (one function object for all six)
    enter = leave = press = shake = tick = draw = _nothing

    def wait_ms(self, app, now):
        return 1 << 29  # nothing of its own to wait for


class ListScreen(Screen):
    """A list of `n` lines with a cursor (menu, picker, the proficiency test's picker): UP and DOWN
    move it round the list and the rows shown follow it; draw_rows() draws the rows shown (the
    cursor's inverted), each line by row(fb, app, i, y, c) (line i at y, in colour c: 0 on the
    cursor's bar), and a scroll bar when the list is longer. A subclass keeps its n lines."""

    rows = 6
    list_y = _LIST_Y  # the first row's y

    def move(self, b):
        """UP or DOWN: the cursor a line round the list, True; another button: False."""
        if b == B_UP:
            self.cursor = (self.cursor - 1) % self.n
        elif b == B_DOWN:
            self.cursor = (self.cursor + 1) % self.n
        else:
            return False
        self.scroll()
        return True

    def draw_rows(self, fb, app, shown=None):
        """The rows shown, or with `shown` (per row: its line * 2 + 1 under the cursor, as on the
        panel) only the rows that changed, cleared first; the scroll bar goes over them."""
        n = self.n
        top = self.top
        rows = self.rows
        drew = False
        for r in range(rows):
            i = top + r
            if i >= n:
                break
            y = self.list_y + r * _ROW_H
            c = 0 if i == self.cursor else 1
            if shown is not None:
                if shown[r] == i * 2 + 1 - c:
                    continue
                shown[r] = i * 2 + 1 - c
                if c:
                    fb.fill_rect(0, y, _view.W, _ROW_H, 0)
            if not c:
                _view.row_bar(fb, y)
            self.row(fb, app, i, y, c)
            drew = True
        if drew and (top > 0 or top + rows < n):  # the bar: where the rows shown sit in the list
            y = self.list_y
            x = _view.W - 2
            fb.vline(x + 1, y, rows * _ROW_H, 1)
            fb.fill_rect(x, y + top * rows * _ROW_H // n, 2, rows * rows * _ROW_H // n, 1)


def intern_rare():
    """Import the kept screens' modules, then load the screens the app opens now and then (the
    registry's other lines) and drop them again, first thing at start-up (fdfw.start). What a load
    leaves for good (the names it interns, the tables it grows: MicroPython frees neither) is then
    made before the game's code, not inside the free heap's largest block (docs/memory.md)."""
    # lines in a row that need the same feature load together, then drop; a feature the install
    # left out is skipped
    lines = SCREENS.split("\n")
    # the kept screens' modules for good, first: the App builds their objects later
    for m in range(KEPT):
        __import__("fivedice.screens." + lines[m].split()[0])
    group = []
    need = None
    for m in range(KEPT, len(lines)):
        w = lines[m].split()
        f = w[-1] if w and w[-1].isupper() else ""
        if group and (not w or f != need):  # the group before this line: loaded, then dropped
            for p in group:
                __import__(p.split()[0])
            for p in group:
                _lazy.forget(p)
            group = []
        need = f
        if w and (not f or getattr(_features, f)):
            group.append(parts(w))
