"""Shared by the comparison scripts: whole-command timing, and a private PulseAudio server."""
import os, statistics, subprocess, time


def median_seconds(command, runs):
    """Median wall time of `command` over `runs` runs, its output discarded."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def pulse_server(runtime, sinks):
    """Starts a PulseAudio server in `runtime` with a null sink of each name (the first is the default); returns
    it and the environment its clients need."""
    server = subprocess.Popen(
        ["pulseaudio", "--daemonize=no", "-n", "--exit-idle-time=-1", "--log-level=error", "--load=module-native-protocol-unix"]
        + [f"--load=module-null-sink sink_name={sink} rate=48000" for sink in sinks],
        env={**os.environ, "XDG_RUNTIME_DIR": runtime})
    env = {**os.environ, "XDG_RUNTIME_DIR": runtime, "PULSE_SERVER": f"unix:{runtime}/pulse/native"}
    for _ in range(100):
        if subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0:
            break
        time.sleep(0.05)
    subprocess.run(["pactl", "set-default-sink", sinks[0]], env=env, check=True)
    return server, env
