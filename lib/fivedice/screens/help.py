"""How to score: the rule set's help page. This screen and its text (fivedice.help_pages) are loaded
when it opens and dropped when it closes: about 8 KB a board need not hold during a game."""
from fivedice.compat import const, unload
from fivedice import gfx
from fivedice import oled_view as view
from fivedice.screens import Screen, B_BACK, B_DOWN, B_OK, B_UP, M_MENU


_text = [None]  # the help_pages module while it is loaded


def lines(rules_i):
    """The help page of rule set rules_i (bytes lines, the first is the title); loads the text."""
    mod = _text[0]
    if mod is None:
        from fivedice import help_pages as mod

        _text[0] = mod
    return mod.HELP[rules_i]


def drop():
    """Forget the help text so the heap can reclaim it (it is imported again when next needed)."""
    if _text[0] is not None:
        _text[0] = None
        unload("fivedice", "help_pages")


class Help(Screen):
    rows = 7

    def enter(self, app):
        lines(app.settings.rules_i)

    def leave(self, app):
        drop()
        unload("fivedice.screens", "help")  # this module too: the App holds no other reference to it

    def press(self, app, b):
        if b == B_DOWN and self.top + 8 < len(lines(app.settings.rules_i)):
            self.top += 1
        elif b == B_UP and self.top > 0:
            self.top -= 1
        elif b == B_OK or b == B_BACK:
            app.enter(M_MENU)
        return 0

    def draw(self, fb, app):
        fb.fill(0)
        ls = lines(app.settings.rules_i)
        view.header(fb, ls[0])
        for r in range(self.rows):
            i = self.top + 1 + r
            if i >= len(ls):
                break
            gfx.text(fb, ls[i], 0, (r + 1) * 8, 1)
