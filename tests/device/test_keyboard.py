"""Keys as buttons: read from a pipe (the same code reads a terminal in cbreak mode)."""

from __future__ import annotations

import os
import threading

from device.hardware.keyboard import Keyboard


def test_keys_map_to_buttons_and_q_quits() -> None:
    read, write = os.pipe()
    buttons: list[str] = []
    quit_ = threading.Event()
    keyboard = Keyboard(read, buttons.append, quit_.set)
    keyboard.start()
    os.write(write, b"dAnxu?q")
    assert quit_.wait(2)
    keyboard.close()
    os.close(read)
    os.close(write)
    assert buttons == ["die", "automa", "next", "undo"]


def test_close_stops_a_reader_waiting_for_keys() -> None:
    read, write = os.pipe()
    keyboard = Keyboard(read, lambda button: None, lambda: None)
    keyboard.start()
    thread = keyboard._thread
    keyboard.close()
    assert thread is not None and not thread.is_alive()
    os.close(read)
    os.close(write)
