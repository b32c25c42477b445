#!/usr/bin/env python3
"""choir's playback beside FluidSynth's own command line, in one run on the same notes.

Render: `choir render CHORALE -o x.wav` against `fluidsynth -F` given the MIDI file `choir render -o x.mid`
writes of the same mix (same SoundFont, 48 kHz, reverb and chorus off): median wall time, and peak resident
memory beside the SoundFont's size.
Live: `choir play --device pulse` and `fluidsynth -a alsa` (device pulse) each play the chorale into a private
PulseAudio null sink; CPU time over the played time is the share of one core.
Needs fluidsynth and pulseaudio (`just bench` installs them).
"""
import os, statistics, subprocess, sys, tempfile, time

from timing import pulse_server

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
choir = os.path.join(root, ".build", "release", "choir")
chorale = os.path.join(root, "Tests", "Fixtures", "corpus", "bach_bwv1.6.mxl")
soundfont = os.environ.get("CHOIR_SOUNDFONT") or "/usr/share/sounds/sf2/FluidR3_GM.sf2"


def measured(command, env=None):
    """Wall seconds, CPU seconds and peak resident bytes of one run of `command`."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{command[0]} failed: {child.stderr.read().decode()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def median_of(command, runs, env=None):
    results = [measured(command, env) for _ in range(runs)]
    return tuple(statistics.median(r[i] for r in results) for i in range(3))


with tempfile.TemporaryDirectory() as work:
    mid, ours, theirs = (os.path.join(work, name) for name in ("mix.mid", "choir.wav", "fluidsynth.wav"))
    subprocess.run([choir, "render", chorale, "-o", mid], check=True)
    sf_bytes = os.path.getsize(soundfont)
    choir_render = [choir, "render", chorale, "-o", ours, "--soundfont", soundfont]
    fluid_render = ["fluidsynth", "-ni", "-q", "-r", "48000", "-g", "0.5", "-R", "0", "-C", "0", "-F", theirs, soundfont, mid]
    # choir loads only the samples of the programs in use; FluidSynth can too, when asked.
    fluid_dynamic = fluid_render[:1] + ["-o", "synth.dynamic-sample-loading=1"] + fluid_render[1:]
    measured(choir_render), measured(fluid_render)  # warm the page cache
    ours_r, theirs_r, dynamic_r = median_of(choir_render, 7), median_of(fluid_render, 7), median_of(fluid_dynamic, 7)
    seconds = os.path.getsize(ours) / 4 / 48000
    print(f"Render {os.path.basename(chorale)} ({seconds:.1f} s of audio, SoundFont {sf_bytes / 1e6:.1f} MB), median of 7:")
    print(f"  choir render     {ours_r[0]:6.3f} s   peak RSS {ours_r[2] / 1e6:6.1f} MB ({(ours_r[2] - sf_bytes) / 1e6:+.1f} MB beside the SoundFont)")
    print(f"  fluidsynth -F    {theirs_r[0]:6.3f} s   peak RSS {theirs_r[2] / 1e6:6.1f} MB ({(theirs_r[2] - sf_bytes) / 1e6:+.1f} MB beside the SoundFont)")
    print(f"  fluidsynth -F, dynamic sample loading {dynamic_r[0]:6.3f} s   peak RSS {dynamic_r[2] / 1e6:6.1f} MB")
    print(f"  time ratio choir/fluidsynth: {ours_r[0] / theirs_r[0]:.2f}x, {ours_r[0] / dynamic_r[0]:.2f}x with dynamic loading"
          f" (goal <= 1.2x); memory goal: SoundFont + 40 MB = {(sf_bytes + 40e6) / 1e6:.1f} MB")

    runtime = tempfile.mkdtemp(dir=work)
    server, env = pulse_server(runtime, ["bench"])
    try:
        print("Live playback of the same chorale into a PulseAudio null sink, whole process:")
        for name, command in [
            ("choir play", [choir, "play", chorale, "--device", "pulse", "--soundfont", soundfont]),
            ("fluidsynth -a alsa", ["fluidsynth", "-ni", "-q", "-r", "48000", "-g", "0.5", "-R", "0", "-C", "0",
                                    "-a", "alsa", "-o", "audio.alsa.device=pulse", soundfont, mid]),
        ]:
            wall, cpu, rss = measured(command, env)
            print(f"  {name:18} {wall:5.1f} s played, CPU {cpu:5.2f} s = {100 * cpu / wall:4.1f}% of one core (goal < 5%)")
    finally:
        server.terminate()
        server.wait()
