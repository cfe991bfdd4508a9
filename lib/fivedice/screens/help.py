"""How to score: the rule set's help page. This screen and its text (fivedice.help_pages) are loaded
when it opens and dropped when it closes (its line in fivedice.screens.SCREENS): about 8 KB a board
need not hold in a game."""
from fivedice import gfx
from fivedice import help_pages
from fivedice import oled_view as view
from fivedice.screens import Screen, B_BACK, B_DOWN, B_OK, B_UP


def lines(rules_i):
    """The help page of rule set rules_i: (title, the page's lines joined by newlines)."""
    return help_pages.HELP[rules_i]


class Help(Screen):
    rows = 7

    def press(self, app, b):
        if b == B_DOWN and self.top + self.rows <= lines(app.settings.rules_i)[1].count(b"\n"):
            self.top += 1
        elif b == B_UP and self.top > 0:
            self.top -= 1
        elif b == B_OK or b == B_BACK:
            app.back()
        return 0

    def draw(self, fb, app):
        fb.fill(0)
        page = lines(app.settings.rules_i)
        view.header(fb, page[0])
        r = -self.top  # the page's line drawn now, from the top row shown
        x = 0
        for code in page[1]:  # glyph by glyph: a line sliced out of the page would be a new object
            if code == 10:
                r += 1
                x = 0
                if r >= self.rows:
                    break
            elif r >= 0:
                x = gfx.glyph(fb, code, x, (r + 1) * 8, 1)
