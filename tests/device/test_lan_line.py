"""What `companion demo` and `run` print about reaching the page from a phone."""

from __future__ import annotations

import socket

from device.appliance import lan_line


def test_listening_everywhere_names_the_address_phones_use() -> None:
    line = lan_line("0.0.0.0", 8080, everywhere=True)
    assert f"http://{socket.gethostname()}.local:8080/" in line and "/join" in line


def test_loopback_only_says_how_to_let_phones_in() -> None:
    line = lan_line("127.0.0.1", 8080, everywhere=False)
    assert "cannot reach" in line and "--host 0.0.0.0" in line


def test_one_address_is_given_as_it_is() -> None:
    assert "http://192.168.1.5:8080/" in lan_line("192.168.1.5", 8080, everywhere=False)


def test_the_demo_says_once_when_the_voice_is_off() -> None:
    import io

    from device import config as settings
    from device.appliance import Appliance

    out = io.StringIO()
    cfg = settings.load(None, system=False, user=False)
    cfg = cfg.replace("voice", command=["no-such-speaker"])
    Appliance(cfg, demo=True, out=out)._start_voice()
    said = out.getvalue().splitlines()
    assert len(said) == 1 and "voice off" in said[0] and "espeak-ng" in said[0]
