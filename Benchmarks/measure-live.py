#!/usr/bin/env python3
"""A live `choir practice` measured, with no sound card: a private PulseAudio server with two null sinks, the mix
played into one, the bundled demo take played into the other, whose monitor is the microphone.

1. On a terminal (tmux, 100x30), the live view on: CPU time over the session's wall time (goal < 10% of one
   core), and the time from a captured sample to the screen that shows it, as the session measures it (goal
   <= 50 ms plus the device's latency).
2. Without a terminal, the piece looped for MINUTES (default 10) while a busy loop holds the other core:
   underruns, overruns and samples dropped (goal 0).

The session judges as choir practice does by default (YIN, the mix's echo taken out of what the microphone hears);
`--tracker net` has the learned tracker judge, beside YIN's needle.

Usage: Benchmarks/measure-live.py [MINUTES] [--tracker KIND]. Needs pulseaudio, pulseaudio-utils and tmux, and a release build.
"""
import json, os, subprocess, sys, tempfile, time

from timing import pulse_server

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
choir = os.path.join(root, ".build", "release", "choir")
example = os.path.join(root, "Resources", "ExamplePieces", "amazing_grace.musicxml")
take = os.path.join(root, "Resources", "DemoTakes", "amazing_grace_tenor.wav")
arguments = sys.argv[1:]
tracker = []
if "--tracker" in arguments:
    at = arguments.index("--tracker")
    tracker = arguments[at:at + 2]
    del arguments[at:at + 2]
minutes = float(arguments[0]) if arguments else 10


session = [choir, "practice", example, "--part", "tenor", "--no-history", "--input", "pulse:mic.monitor", "--output", "pulse:out"] + tracker

with tempfile.TemporaryDirectory() as work:
    server, env = pulse_server(work, ["out", "mic"])
    try:
        # 1. The live view, in tmux; bash's `time` gives the CPU.
        times, lag = os.path.join(work, "time.txt"), os.path.join(work, "lag.txt")
        line = " ".join(f"'{a}'" for a in session)
        script = f"TIMEFORMAT='%R %U %S'; {{ time {line} 2> {lag} ; }} 2> {times}; touch {work}/done"
        socket = f"measure-live-{os.getpid()}"
        subprocess.run(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30",
                        "bash", "-c", script], env=env, check=True)
        time.sleep(1)
        subprocess.run(["paplay", "-d", "mic", take], env=env)
        while not os.path.exists(f"{work}/done"):
            time.sleep(0.2)
        subprocess.run(["tmux", "-L", socket, "kill-server"], env=env, capture_output=True)
        wall, user, system = (float(x) for x in open(times).read().split())
        print(f"Live session on a terminal ({wall:.1f} s): CPU {user + system:.2f} s = {100 * (user + system) / wall:.1f}% of one core (goal < 10%)")
        print("  " + open(lag).read().strip().removeprefix("choir: "))

        # 2. Long, with a busy loop on the other core.
        loops = max(1, round(minutes * 60 / 37))
        report = os.path.join(work, "long.json")
        hog = subprocess.Popen(["sh", "-c", "while :; do :; done"])
        start = time.time()
        try:
            subprocess.run(session + ["--loop", str(loops), "--report", report], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)
        finally:
            hog.kill()
        audio = json.load(open(report))["audio"]
        print(f"{(time.time() - start) / 60:.1f} minutes ({loops} times through) with a busy loop on the other core: "
              f"{audio['underruns']} underruns, {audio['overruns']} overruns, {audio['dropped_samples']} samples dropped (goal 0)")
    finally:
        server.terminate()
        server.wait()
