"""How to score: the rule set's help page. This screen and its text (fivedice.help_pages) are loaded
when it opens and dropped when it closes (fivedice.lazy "help"): about 8 KB a board need not hold in a game."""
from fivedice import gfx
from fivedice import help_pages
from fivedice import lazy
from fivedice import oled_view as view
from fivedice.screens import Screen, B_BACK, B_DOWN, B_OK, B_UP


def lines(rules_i):
    """The help page of rule set rules_i (bytes lines, the first is the title)."""
    return help_pages.HELP[rules_i]


class Help(Screen):
    rows = 7

    def leave(self, app):
        lazy.drop("help")  # this module and its text: the App holds no other reference to them

    def press(self, app, b):
        if b == B_DOWN and self.top + 8 < len(lines(app.settings.rules_i)):
            self.top += 1
        elif b == B_UP and self.top > 0:
            self.top -= 1
        elif b == B_OK or b == B_BACK:
            app.back()
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
