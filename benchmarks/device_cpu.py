"""The service's CPU use and peak memory at 10 frames per second on the synthetic camera.

    .venv/bin/python benchmarks/device_cpu.py [--seconds 60] [--warmup 15] [--fps 10]
                                              [--model FILE.onnx]

Runs the whole demo appliance in this process (journal, engine thread, scripted game,
synthetic table camera → scanner → stabiliser, web server, no voice) and reports CPU
time per wall second as a percentage of one core, frames captured and scanned per
second, and the peak resident set size (a Pi Zero 2 W has 512 MB; the target is
≤ 300 MB). Start-up (model loading) is left out of the CPU figure by the warm-up.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import resource
import time

from device import config as settings
from device.appliance import Appliance


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=15.0)
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--model", default="", help="classifier (default: the installed one)")
    args = parser.parse_args()
    cfg = settings.load(system=None, user=None)
    cfg = cfg.replace("camera", source="synthetic", fps=args.fps)
    cfg = cfg.replace("web", host="127.0.0.1", port=0)
    cfg = cfg.replace("voice", enabled=False)
    cfg = cfg.replace("vision", model=args.model)
    appliance = Appliance(cfg, demo=True, out=io.StringIO(), seed=1)
    appliance.start()
    try:
        time.sleep(args.warmup)
        capture, pipeline = appliance.capture, appliance.pipeline
        assert capture is not None and pipeline is not None
        frames, scans, cpu, wall = capture.frames, pipeline.scans, cpu_seconds(), time.time()
        time.sleep(args.seconds)
        elapsed = time.time() - wall
        used = cpu_seconds() - cpu
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, "
              f"Python {platform.python_version()}")
        print(f"vision: {pipeline.failure or 'scanner loaded'}")
        print(f"measured {elapsed:.0f} s after a {args.warmup:.0f} s warm-up at "
              f"{args.fps:g} fps requested")
        print(f"frames captured: {(capture.frames - frames) / elapsed:.1f}/s, "
              f"scanned: {(pipeline.scans - scans) / elapsed:.1f}/s, "
              f"game events: {len(appliance.service.game.log)}")
        print(f"CPU: {100 * used / elapsed:.1f}% of one core")
        print(f"peak RSS: {peak_rss_mb():.0f} MB (target ≤ 300 MB)")
    finally:
        appliance.stop()


if __name__ == "__main__":
    main()
