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
# A new screen is a Screen subclass in its own module and one line in SCREENS below (its M_ number
# above it).
from fivedice.compat import const
from fivedice import features as _features
from fivedice import lazy as _lazy

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

# The registry, by M_ number: the screen's module and class. The first KEPT are built at start-up
# and kept for good (every game needs them); the others are imported as they are entered and dropped
# as they are left (fivedice.lazy: a board need not hold help, records or the self-test through a
# game). one line a screen, by M_ number: its module in fivedice.screens, its class (one str: no
# object a name)
SCREENS = """\
menu Menu
turn Turn
picker Picker
card Card
over Over
help Help
selftest SelfTest
records RecordsScreen
initials Initials
proftest ProfTestScreen
"""
KEPT = const(5)


def build(mode, w=None):
    """A new object of screen `mode` (M_*), its module imported if it is not loaded (an allocation).
    w: the registry's words, if the caller split it already (start-up builds several screens from
    one split)."""
    w = w or SCREENS.split()
    name = w[2 * mode + 1]
    # (the module itself)
    s = getattr(__import__("fivedice.screens." + w[2 * mode], None, None, (name,)), name)()
    s.top = 0  # its cursor and scroll exist from now on (a new attribute later would allocate)
    s.cursor = 0
    return s


class Screen:
    rows = 0  # rows visible at once (a list's cursor, or a page, scrolls within them)
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

    def enter(self, app):
        pass

    def leave(self, app):
        pass

    def press(self, app, b):
        return 0

    def shake(self, app, on):
        return 0

    def tick(self, app, now):
        pass

    def wait_ms(self, app, now):
        return 1 << 29  # nothing of its own to wait for

    def draw(self, fb, app):
        pass


def intern_rare():
    """Import the kept screens' modules, then load the screens the app opens now and then (help and
    its text, self-test, records, initials, the proficiency test) and drop them again, first thing
    at start-up (fdfw.start). What a load leaves for good (the names it interns, the tables it
    grows: MicroPython frees neither) is then made before the game's code, among its long-lived
    objects, not inside the free heap's largest block, where the first visit mid-game would leave it
    (docs/memory.md)."""
    w = SCREENS.split()
    # the kept screens' modules for good, first: the App builds their objects later
    for m in range(KEPT):
        __import__("fivedice.screens." + w[2 * m])
    del w
    for fs in (("help", "selftest"), ("records_screen", "initials") if _features.RECORDS else (),
               ("proftest",) if _features.PROFTEST else ()):  # each group loaded, then dropped
        for f in fs:
            _lazy.load(f)
        for f in fs:
            _lazy.drop(f)
