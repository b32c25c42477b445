#!/usr/bin/env python3
"""What the history's check costs: the first opening of the history in a choir process runs SQLite's quick_check
(docs/history.md), whose time grows with the file. Grows a history written by choir (the migration test's fixture)
to about 30 MB and 300 MB of pitch trace (it prints how many hours of singing that holds, a session keeping a point
every 20 ms while the singer sings), and times `choir history` on each, median of three (wall time, and choir's
CPU time, which a busy machine does not stretch), beside `sqlite3`'s own quick_check of the same file.

    Benchmarks/measure-history-check.py [CHOIR]      (default: .build/release/choir)
"""
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
choir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build/release/choir"))
fixture = os.path.join(root, "Tests/Fixtures/history/written-by-3fd8bb2.sqlite")


def grow(path, megabytes):
    """Adds trace points to session 1 until the file is about `megabytes` long; returns the hours of singing they
    hold, at the point every 20 ms a session keeps while the singer sings (`PracticeJudge`)."""
    db = sqlite3.connect(path)
    rows_per_batch = 200_000
    t = 1000.0
    while os.path.getsize(path) < megabytes * 1_000_000:
        db.executemany(
            "INSERT INTO trace (session, time, midi) VALUES (1, ?, ?)",
            ((t + i * 0.005, 55.0 + (i % 100) / 50) for i in range(rows_per_batch)))
        db.commit()
        t += rows_per_batch * 0.005
    db.close()
    return (t - 1000.0) / 0.005 * 0.02 / 3600


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_seconds(run, times=3):
    """The median wall time of `run`, and the median CPU time of the processes it ran."""
    spans, cpu = [], []
    for _ in range(times):
        start, start_cpu = time.monotonic(), children_cpu()
        run()
        spans.append(time.monotonic() - start)
        cpu.append(children_cpu() - start_cpu)
    return statistics.median(spans), statistics.median(cpu)


for megabytes in (30, 300):
    with tempfile.TemporaryDirectory() as home:
        os.makedirs(os.path.join(home, "choir"))
        path = os.path.join(home, "choir", "history.sqlite")
        shutil.copy(fixture, path)
        hours = grow(path, megabytes)
        size = os.path.getsize(path) / 1_000_000
        environment = dict(os.environ, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home, XDG_CACHE_HOME=home)

        def listing():
            subprocess.run([choir, "history"], env=environment, check=True, stdout=subprocess.DEVNULL)

        def check():
            db = sqlite3.connect(path)
            assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
            db.close()

        wall, cpu = median_seconds(listing)
        print(f"history of {size:.0f} MB ({hours:.1f} hours of singing's trace): `choir history` {wall:.2f} s "
              f"({cpu:.2f} s of CPU; its first opening checks the file); sqlite3's quick_check alone "
              f"{median_seconds(check)[0]:.2f} s")
