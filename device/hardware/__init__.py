"""The hardware adapters: camera sources and the capture loop, buttons, keyboard, LED, voice
and the systemd watchdog. picamera2 and lgpio are imported only where a Pi has them."""
