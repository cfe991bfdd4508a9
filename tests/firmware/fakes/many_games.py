"""Many games in one MicroPython process (issue #8, part 5): the perfect CPU (a strategy table) against the
good CPU, game after game with "New game" each time, on a heap no bigger than one game needs. A new game
must reuse the last one's big buffers, so game 200 fits wherever game 1 did.

    micropython -X heapsize=N many_games.py GAMES TABLES_DIR [RULES_ID]
Prints one JSON line: games finished, MemoryErrors (the run stops at the first), peak live bytes.
"""
import gc
import json
import sys

try:
    from fivedice import app as A
    from fivedice import rules
except MemoryError:  # a heap too small even to load the app: no game, said as JSON like any other failure
    print(json.dumps({"games": 0, "memory_errors": 1, "peak_live": 0, "coach": False}))
    sys.exit(0)


class Display:
    """No pixels: the proof is about the game's buffers, not the frame's."""

    def fill(self, c):
        pass

    def fill_rect(self, x, y, w, h, c):
        pass

    def pixel(self, x, y, c=None):
        return 0

    def rect(self, x, y, w, h, c):
        pass

    def vline(self, x, y, h, c):
        pass

    def hline(self, x, y, w, c):
        pass

    def show(self):
        pass


games = int(sys.argv[1])
tables = sys.argv[2]
rid = sys.argv[3] if len(sys.argv) > 3 else "yacht"
done = errors = peak = 0
app = None
try:
    app = A.App(Display(), tables=tables, cpu_step_ms=0)
    app.settings.rules_i = rules.get(rid).index
    app.settings.players = 2
    app.settings.seats[0] = 3  # perfect
    app.settings.seats[1] = 2  # good
    for n in range(games):
        app.session.new_game()
        g = app.session.game
        while not g.over:
            app.session._cpu_step()
            if app.session.tumbling:
                app.session.land()
        done += 1
        gc.collect()
        if gc.mem_alloc() > peak:
            peak = gc.mem_alloc()
except MemoryError:
    errors += 1
print(json.dumps({"games": done, "memory_errors": errors, "peak_live": peak,
                  "coach": app is not None and app.seats.coach is not None}))
