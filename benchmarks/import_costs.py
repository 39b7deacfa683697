"""What importing a module costs a fresh process: the figures behind each lazy import.

    .venv/bin/python benchmarks/import_costs.py [--runs 5] [MODULE ...]

For each module, the median CPU time (user + system) of a fresh ``python -c "import M"``
less that of a bare interpreter, after ``device.cli`` is loaded (what every
``companion`` command has already paid). A module that costs little is imported at the
top of the file; one that costs much stays inside the command that needs it, with this
figure in a comment.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["cv2", "numpy", "onnxruntime", "onnx", "flask", "PIL.Image", "web.app", "web.service",
           "vision.locate", "vision.classifier", "vision.scanner", "vision.enroll",
           "device.appliance", "device.commands.demo", "engine.automa", "engine.simulate"]


def cpu(code: str) -> float:
    """CPU seconds of a fresh interpreter running ``code`` (children's times)."""
    before = os.times()
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
    after = os.times()
    return (after.children_user - before.children_user
            + after.children_system - before.children_system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("modules", nargs="*", default=MODULES)
    args = parser.parse_args()
    base = "import device.cli"
    floor = statistics.median(cpu(base) for _ in range(args.runs))
    print(f"import device.cli: {floor:.3f} s of CPU (the floor)")
    for module in args.modules:
        cost = statistics.median(cpu(f"{base}\nimport {module}") for _ in range(args.runs))
        print(f"{module}: +{cost - floor:.3f} s")


if __name__ == "__main__":
    main()
