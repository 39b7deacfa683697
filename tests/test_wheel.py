"""The package built as a wheel carries its models: installed in a fresh venv, away from
the checkout, ``companion doctor`` finds the classifier and ``table scan`` reads a table.

The wheel is built from a copy of this checkout (``pip wheel`` leaves build files beside
its source; the build requirements come from the usual index or the local wheel cache)
and installed with ``--no-deps`` into a new venv whose dependencies are this
interpreter's own (a ``.pth`` line), so the test downloads no NumPy or onnxruntime. The
project's own packages come from the wheel alone: a ``.pth`` file's path line never runs
the ``.pth`` files inside it, so an editable install of the checkout stays out of sight.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP = ("engine", "vision", "device", "web")
BUILT = shutil.ignore_patterns(".*", "__pycache__", "*.egg-info", "build", "dist", "artifacts")
pytestmark = pytest.mark.xdist_group("wheel")  # one worker builds and installs it once


def test_the_wheel_lists_every_package_on_disk() -> None:
    """``pyproject.toml`` lists the packages (models/ is mapped in): none may be left out."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    on_disk = {".".join(p.parent.relative_to(ROOT).parts)
               for top in TOP for p in (ROOT / top).rglob("__init__.py")}
    assert listed == on_disk | {"vision.models"}


def _run(argv: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          check=False, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel built from this checkout; its ``bin`` folder."""
    tmp = tmp_path_factory.mktemp("wheel")
    shutil.copytree(ROOT, tmp / "src", ignore=BUILT)
    built = _run([sys.executable, "-m", "pip", "wheel", str(tmp / "src"), "--no-deps", "-q",
                  "-w", str(tmp / "dist")], tmp)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next((tmp / "dist").glob("redrising_companion-*.whl"))
    venv = tmp / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    site = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                tmp).stdout.strip()
    deps = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    (Path(site) / "_deps.pth").write_text("\n".join(sorted(deps)) + "\n", encoding="utf-8")
    put = _run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                "--no-deps", "--no-index", str(wheel)], tmp)
    assert put.returncode == 0, put.stderr[-2000:]
    return venv / "bin"


@pytest.mark.slow
def test_the_installed_package_is_the_wheel_and_doctor_finds_its_model(
        installed: Path, tmp_path: Path) -> None:
    where = _run([str(installed / "python"), "-c",
                  "import vision, device; print(vision.__file__); print(device.__file__)"],
                 tmp_path)
    assert where.returncode == 0, where.stderr
    assert all(str(installed.parent) in line for line in where.stdout.split()), where.stdout
    env_home = {"XDG_CONFIG_HOME": str(tmp_path / "config"),
                "STATE_DIRECTORY": str(tmp_path / "state"), "PATH": "/usr/bin:/bin"}
    doctor = subprocess.run([str(installed / "companion"), "doctor"], cwd=tmp_path,
                            env=env_home, capture_output=True, text=True, timeout=120,
                            check=False, stdin=subprocess.DEVNULL)
    model = next(line for line in doctor.stdout.splitlines() if "model" in line.split()[:2])
    assert model.split()[0] == "ok", doctor.stdout
    assert f"{installed.parent}/lib/" in model and "/vision/models/" in model, model
    assert "segmenter" in model


@pytest.mark.slow
def test_the_installed_package_scans_the_example_table(installed: Path, tmp_path: Path) -> None:
    scan = _run([str(installed / "companion"), "table", "scan",
                 str(ROOT / "examples" / "table.jpg"), "--json"], tmp_path)
    assert scan.returncode == 0, scan.stderr
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        from generate import TABLE  # the layout examples/table.jpg was drawn from
    finally:
        sys.path.remove(str(ROOT / "examples"))
    locations = json.loads(scan.stdout)["locations"]
    for name, stack in TABLE.items():
        assert (locations[name]["top"], locations[name]["depth"]) == (
            stack[-1] if stack else None, len(stack)), name
