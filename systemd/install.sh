#!/usr/bin/env bash
# Install the companion as a systemd service on Raspberry Pi OS Bookworm (64-bit).
#
#   git clone <this project> && cd <it> && sudo systemd/install.sh
#
# Run it again to update: the source is copied afresh, the venv reused, the service
# restarted. /etc/companion/config.toml and the journal in /var/lib/companion are kept.
set -euo pipefail

PREFIX=${PREFIX:-/opt/companion}
SERVICE_USER=companion
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { printf '\n== %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run it with sudo"
[ -f "$SOURCE/pyproject.toml" ] || die "run it from a checkout of the project"
. /etc/os-release
[ "${VERSION_CODENAME:-}" = bookworm ] || echo "warning: made for Bookworm, this is ${PRETTY_NAME:-unknown}"
[ "$(uname -m)" = aarch64 ] || echo "warning: made for 64-bit Raspberry Pi OS, this is $(uname -m)"

say "system packages"
# picamera2 and lgpio come from apt only (they are built against Raspberry Pi OS's
# libcamera and kernel); the venv sees them through --system-site-packages.
apt-get update -qq
apt-get install -y --no-install-recommends \
    python3-venv python3-pip python3-picamera2 python3-lgpio espeak-ng sqlite3 rsync

say "service user '$SERVICE_USER'"
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/companion --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
usermod -aG video,gpio,audio "$SERVICE_USER"

say "program in $PREFIX"
mkdir -p "$PREFIX"
rsync -a --delete --exclude .git --exclude .venv --exclude '__pycache__' \
    --exclude '*.egg-info' "$SOURCE/" "$PREFIX/src/"
[ -x "$PREFIX/.venv/bin/python" ] || python3 -m venv --system-site-packages "$PREFIX/.venv"
# Keep apt's numpy: picamera2 and simplejpeg are compiled against it, and a pip numpy of
# another major version breaks them at import.
APT_NUMPY=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')
echo "numpy==$APT_NUMPY" > "$PREFIX/constraints.txt"
"$PREFIX/.venv/bin/pip" install -q --upgrade pip
# A normal install: the package carries its models (vision/models in the wheel).
"$PREFIX/.venv/bin/pip" install -q -c "$PREFIX/constraints.txt" "$PREFIX/src[pi]"
/usr/bin/python3 -c 'import picamera2' 2>/dev/null || echo "warning: picamera2 does not import"

say "settings in /etc/companion"
install -d -m 0755 /etc/companion
if [ ! -f /etc/companion/config.toml ]; then
    cat > /etc/companion/config.toml <<'TOML'
# Settings for companion.service; the defaults are in device/defaults.toml
# (`companion config show` prints everything in use). Examples:
#
# [buttons]
# die = 17
# automa = 27
# next = 22
# undo = 23
#
# [led]
# pin = 24
#
# [web]
# pin = "2468"      # a fixed table PIN instead of a new one at every start
TOML
fi

say "systemd unit"
install -m 0644 "$PREFIX/src/systemd/companion.service" /etc/systemd/system/companion.service
systemctl daemon-reload
systemctl enable companion.service >/dev/null
systemctl restart companion.service

say "check"
runuser -u "$SERVICE_USER" -- "$PREFIX/.venv/bin/companion" doctor || true
cat <<DONE

Installed. The page is on http://$(hostname).local:8080 (or this Pi's address).
The table PIN and the QR code that unlocks a phone are printed at every start:
                                           journalctl -u companion -n 60
The QR code again:                         sudo $PREFIX/.venv/bin/companion doctor --join
Follow the log:                            journalctl -u companion -f
DONE
