"""CircuitPython start-up of the MacroPad's own parts (fdfw.setup_cp calls it for its profile): the
SH1106 on SPI, the encoder, outputs. A start-up module: dropped with fdfw.setup_cp once the board is
built (fivedice.lazy "startup"), and never loaded on a board without them."""
import busio
import digitalio

from fdfw.hardware import StartupError


def output(p, value):
    """A DigitalInOut output on board pin p, at value."""
    io = digitalio.DigitalInOut(p)
    io.switch_to_output(value=value)
    return io


def display(prof, hw, pin):
    """The SH1106 on SPI (fdfw.sh1106_cp, drawn by fdfw.board_cp) once displayio has let go of it
    (board.DISPLAY released first). pin(prof, p): fdfw.setup_cp's board pin of a profile pin."""
    try:
        import bitmaptools  # noqa: F401  (fdfw.board_cp draws with it)
    except ImportError:
        raise StartupError(
            "this CircuitPython build has no 'bitmaptools' module: use CircuitPython 9 or newer", hw
        )
    import displayio

    from fdfw.sh1106_cp import SH1106

    try:
        spi = busio.SPI(pin(prof, prof.OLED_SCK), MOSI=pin(prof, prof.OLED_MOSI))
    except ValueError as e:  # "SCK in use": something else holds the display's pins
        raise StartupError(
            "the display's SPI pins are in use (" + str(e) + "): reset the board", hw, "no-display"
        )
    while not spi.try_lock():
        pass
    # kept locked: the display is its only user
    spi.configure(baudrate=prof.OLED_HZ, polarity=0, phase=0)
    cs = output(pin(prof, prof.OLED_CS), True)
    dc = output(pin(prof, prof.OLED_DC), False)
    # high: the panel keeps running (SH1106's init sets it up)
    rst = output(pin(prof, prof.OLED_RESET), True)
    d = SH1106(spi, dc, cs, prof.OLED_COL, displayio)
    d.reset_pin = rst  # kept with the display
    return d


def encoder(prof, hw, pin):
    """The rotary encoder (fdfw.encoder): UP/DOWN presses, and the shake on the dice screen."""
    try:
        import rotaryio
    except ImportError:
        raise StartupError("this CircuitPython build has no 'rotaryio' module", hw)
    from fdfw.encoder import Encoder

    return Encoder(
        rotaryio.IncrementalEncoder(pin(prof, prof.ENCODER_A), pin(prof, prof.ENCODER_B))
    )
