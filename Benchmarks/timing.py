"""Shared by the comparison scripts: whole-command timing."""
import statistics, subprocess, time


def median_seconds(command, runs):
    """Median wall time of `command` over `runs` runs, its output discarded."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)
