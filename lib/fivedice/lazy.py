"""What loads late and goes again, per feature: the one table of the memory policy (docs/memory.md).
Owners call load(feature) when a feature is needed and drop(feature) when it is done; the screens'
registry (fivedice.screens) has forget() drop a screen that is left; no other module forgets
modules."""
# A feature is its modules, dotted names apart by spaces: load() imports the first (which imports
# the others it needs) and returns it; drop() forgets them all, and the heap reclaims their code
# once nothing else refers to it (the next load() imports them again). "boards.*": every module of
# the package boards. The names are one string each (a dict of strings, as micropython-async's
# _attrs: a tuple of names would cost the board a heap string per name, ~2 KB for this table) and
# forget() reads them in place: it allocates nothing, for it runs under heap_lock (a screen left
# inside a locked test). A module dropped while a function, closure or class of it is still referred
# to stays in the heap (tests/firmware/test_startup_unload.py checks start-up's).
import sys

_PARTS = {
    # the coaches' big arrays' makers: App.__init__ makes the arrays (kept for good), drops this
    # code last
    "coach_buffers": "fivedice.coach_buffers",
    # a CPU level's code, while a seat or the game in progress names it (Seats.need_levels)
    "easy": "fivedice.cpu",
    "good": "fivedice.good_valuer",
    # reading a save back and its checks (Session._load), dropped once the save is read
    "save_decode": "fivedice.savefile.decode",
    # the records, read for the best score to beat and for a finished proficiency test
    "records": "fivedice.records",
    # a rule set's proficiency-test positions: read, then the module (every rule set's) goes
    "positions": "fivedice.proftest_data",
    # CircuitPython's save log read back (NvmStore._scan: at boot, and after a failed write),
    # dropped once read
    "nvm_scan": "fdfw.store.nvm_scan_cp",
    # the firmware's start-up: board profile -> hardware; dropped before the app is built
    # (fdfw.loop)
    "startup": "fdfw.start fdfw.hardware fdfw.profile fdfw.setup_cp fdfw.setup_spi_cp "
    "fdfw.setup_mp fdfw.i2cmem_cp board_config boards boards.*",
}


def load(feature):
    """The feature's first module, imported now if it is not loaded (it imports the rest it needs).
    """
    full = _PARTS[feature].split()[0]
    if full not in sys.modules:
        __import__(full)
    return sys.modules[full]


def drop(feature):
    """Forget the feature's modules (forget)."""
    forget(_PARTS[feature])


def forget(v):
    """Forget the modules v names (full names apart by spaces: a row of the table, or a screen's
    from its registry line, fivedice.screens.parts; one not loaded is skipped) and their packages'
    references to them (a module that imported one keeps its own: it goes with it, or it is named
    too). Allocates nothing, but for a "pkg.*"."""
    mods = sys.modules
    # "pkg.*": its prefixes, once a call (not a name built per module and pass)
    stars = [w[:-1] for w in v.split() if w[-1] == "*"] if "*" in v else None
    again = True
    while again:  # one module a pass: sys.modules must not change under its own iteration
        again = False
        for k in mods:
            if (k in v and _named(v, k)) or (stars and _starred(stars, k)):
                sub = mods[k]
                del mods[k]
                n = len(k)
                for p in mods:  # its package refers to it (an imported submodule is its attribute)
                    e = len(p)
                    if (
                        e < n
                        and k.startswith(p)
                        and k.startswith(".", e)
                        and k.find(".", e + 1) < 0
                    ):
                        d = mods[p].__dict__
                        for a in d:
                            if d[a] is sub:
                                del d[a]
                                break
                        break
                again = True
                break


def _starred(stars, k):
    """k is a module right inside one of the packages `stars` names ("boards." for "boards.*")."""
    for p in stars:
        if k.startswith(p) and k.find(".", len(p)) < 0:
            return True
    return False


def _named(v, k):
    """k is in v as a whole name, not as part of a longer one."""
    n = len(k)
    i = v.find(k)
    while i >= 0:
        if (i == 0 or v.startswith(" ", i - 1)) and (i + n == len(v) or v.startswith(" ", i + n)):
            return True
        i = v.find(k, i + 1)
    return False
