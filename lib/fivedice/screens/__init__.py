"""The app's screens: each is one small object with its own press handling and drawing."""
# A screen has:
#     enter(app)        it becomes the current screen (cursor and scroll were reset to 0)
#     press(app, b)     a button: returns 0 or the refusal code of the action it asked for
#     shake(app, on)    the shake sensor started (on) or stopped shaking
#     tick(app, now)    every loop pass; set app.dirty when the screen needs a new frame
#     wait_ms(app, now) ms until the screen's own next change (the loop may sleep that long without input)
#     draw(fb, app)     the frame (the App calls fb.show())
#     leave(app)        another screen takes over
# The App routes events to the current screen and owns the shared state (game, coach, seats, settings,
# save); app.cursor and app.top are the current screen's list cursor and scroll. Presses and frames
# allocate nothing.
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


class Screen:
    rows = 0  # list rows visible at once (the cursor scrolls within them); 0: not a list

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
    """Load the screens the app opens now and then (help and its text, self-test, records, initials, the proficiency
    test) and drop them again, first thing at start-up (fdfw.start). What a load leaves for good (the names it
    interns, the tables it grows: MicroPython frees neither) is then made before the game's code, among its
    long-lived objects, not inside the free heap's largest block, where the first visit mid-game would leave it
    (docs/memory.md)."""
    _rare(("help", "selftest"))
    if _features.RECORDS:
        _rare(("records_screen", "initials"))
    if _features.PROFTEST:
        _rare(("proftest",))


def _rare(features):
    for f in features:
        _lazy.load(f)
    for f in features:
        _lazy.drop(f)
