#!/usr/bin/env python3
"""What `choir scan` makes of pages before anything is sent (docs/scan.md): `choir scan PAGES --dry-run` on the
example's two A4 pages as a PDF (`Tests/Fixtures/scan`), and on its first page as a 12-megapixel JPEG (rendered by
pdftoppm at 345 dpi, 2851×4035, as a phone's camera gives). For each: the median of three runs' wall and CPU time,
and each page as it would be sent (format and size of its data URL, base64 included).

    Benchmarks/measure-scan-pages.py [CHOIR]      (default: .build/release/choir)
"""
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
choir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/release/choir"))
pdf = os.path.join(root, "Tests/Fixtures/scan/amazing-grace.pdf")


def dry_run(page, home):
    """Three dry runs of `page`: median wall and CPU seconds (pdftoppm's included), and the images listed."""
    walls, cpus = [], []
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        result = subprocess.run(
            [choir, "scan", page, "-o", os.path.join(home, "piece.musicxml"), "--dry-run"],
            env=dict(os.environ, XDG_CONFIG_HOME=home, XDG_DATA_HOME=home, OPENROUTER_API_KEY="unused"),
            capture_output=True, text=True, check=True)
        walls.append(time.monotonic() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    images = re.findall(r"\[image: [^,]+(?:, page \d+)?, (\d+×\d+ \w+)[^;]*; a data URL of ([\d,]+) bytes\]", result.stdout)
    return statistics.median(walls), statistics.median(cpus), images


with tempfile.TemporaryDirectory() as home:
    subprocess.run(["pdftoppm", "-f", "1", "-l", "1", "-r", "345", "-jpeg", "-singlefile", pdf,
                    os.path.join(home, "photo")], check=True)
    for label, page in [("the PDF's two pages", pdf), ("page 1 as a 12-megapixel JPEG", os.path.join(home, "photo.jpg"))]:
        wall, cpu, images = dry_run(page, home)
        sent = ", ".join(f"{kind} of {int(size.replace(',', '')) // 1000} KB" for kind, size in images)
        print(f"{label}: {wall:.2f} s ({cpu:.2f} s of CPU); sent as {sent}")
