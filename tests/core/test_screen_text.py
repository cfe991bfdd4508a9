"""Screen text is bytes: drawing a str allocates on MicroPython (a 1-char str per char that is not
interned), so a frame that draws str would allocate depending on which names happen to be loaded."""
from fivedice import oled_view as view


def _all_bytes(x):
    if isinstance(x, tuple):
        for y in x:
            if not _all_bytes(y):
                return False
        return True
    return isinstance(x, bytes)


def test_every_label_message_and_help_line_is_bytes():
    for table in (view.LONG, view.SHORT, view.SHORT_TITLES, view.FIVE_NAMES, view.MESSAGES, view.ORDINALS, view.HELP, view.KEYS):
        assert _all_bytes(table)


def test_labels_fit_their_columns():
    for labels in view.LONG:
        for s in labels:
            assert len(s) <= 16, s
    for labels in view.SHORT:
        for s in labels:
            assert len(s) <= 5, s
    for lines in view.HELP:
        for s in lines:
            assert len(s) <= 21, s
    for s in view.MESSAGES:
        assert len(s) <= 21, s
