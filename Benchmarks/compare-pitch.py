#!/usr/bin/env python3
"""choir's pitch tracker beside aubio's yinfast (`aubiopitch`), in one run on the same files.

Accuracy: on the singing-like signals of ChoirPitchTests (written by make-singing-signals), raw pitch
accuracy as mir_eval defines it (share of truly voiced frames estimated within 50 cents) and the median error.
Speed: both command lines, each with its own defaults and a hop of 256, on a minute of synthetic singing and on
the real recorded singing of ../shared/voices (its 44.1 kHz takes end to end), median of several runs.
Needs aubio-tools (`just bench` installs it).
"""
import bisect, math, os, statistics, subprocess, tempfile, wave

from timing import median_seconds

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
choir = os.path.join(root, ".build", "release", "choir")


def truth_at(truth, t):
    i = bisect.bisect_left(truth[0], t)
    i = min(max(i, 0), len(truth[0]) - 1)
    return truth[1][i]


def score(track, truth):
    hits = total = 0
    errors = []
    for t, f in track:
        ref = truth_at(truth, t)
        if ref <= 0:
            continue
        total += 1
        if f > 0:
            cents = abs(1200 * math.log2(f / ref))
            errors.append(cents)
            hits += cents <= 50
    return hits / total, statistics.median(errors) if errors else float("nan")


def aubio(path, window=2048, hop=256):
    out = subprocess.run(["aubiopitch", "-p", "yinfast", "-B", str(window), "-H", str(hop), "-u", "Hz", path],
                         check=True, capture_output=True, text=True).stdout
    return [(float(t), float(f)) for t, f in (line.split() for line in out.splitlines())]


def best_aligned(track, truth):
    """aubio's time stamps do not mark its windows' centres; give it the shift (±60 ms) that suits it best."""
    return max((score([(t + ms / 1000, f) for t, f in track], truth) + (ms,) for ms in range(-60, 61)),
               key=lambda result: result[0])


def ours(path, hop=256):
    out = subprocess.run([choir, "pitch", "--hop", str(hop), path],
                         check=True, capture_output=True, text=True).stdout
    return [(float(t), float(f)) for t, f, _ in (line.split(",") for line in out.splitlines()[1:])]


with tempfile.TemporaryDirectory() as folder:
    subprocess.run(["swift", "run", "-c", "release", "--package-path", os.path.join(root, "Benchmarks"),
                    "make-singing-signals", folder], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={**os.environ, "CHOIR_BENCHMARKS": "1"})
    print("Singing-like signals, hop 256, each tracker's own window: raw pitch accuracy / median error")
    print(f"  {'signal':10} {'choir':>18} {'aubio yinfast':>20}")
    for name in ["bass", "tenor", "alto", "soprano", "breathy"]:
        rows = [line.split(",") for line in open(os.path.join(folder, name + ".truth.csv")).read().splitlines()[1:]]
        truth = ([float(r[0]) for r in rows], [float(r[1]) for r in rows])
        wav = os.path.join(folder, name + ".wav")
        a, b = score(ours(wav), truth), best_aligned(aubio(wav), truth)
        print(f"  {name:10} {a[0] * 100:7.1f}% {a[1]:6.2f} ¢   {b[0] * 100:7.1f}% {b[1]:6.2f} ¢  (shifted {b[2]:+d} ms)")

    # The real voices end to end, as one file.
    voices = os.path.join(root, "..", "shared", "voices", "takes")
    real = os.path.join(folder, "voices.wav")
    with wave.open(real, "wb") as out:
        out.setnchannels(1), out.setsampwidth(2), out.setframerate(44100)
        for name in sorted(os.listdir(voices)):
            with wave.open(os.path.join(voices, name)) as take:
                if take.getframerate() == 44100 and take.getnchannels() == 1 and take.getsampwidth() == 2:
                    out.writeframes(take.readframes(take.getnframes()))
    with wave.open(real) as check:
        real_seconds = check.getnframes() / 44100

    for label, path, seconds in [("A minute of synthetic singing (48 kHz)", os.path.join(folder, "minute.wav"), 60),
                                 (f"The real voices end to end ({real_seconds:.0f} s at 44.1 kHz)", real, real_seconds)]:
        t_ours = median_seconds([choir, "pitch", "--hop", "256", path], 7)
        t_aubio = median_seconds(["aubiopitch", "-p", "yinfast", "-B", "2048", "-H", "256", path], 7)
        print(f"{label}, whole command lines, median of 7:")
        print(f"  choir pitch   {t_ours * 1000:7.1f} ms  {seconds / t_ours:6.0f}x real time")
        print(f"  aubiopitch    {t_aubio * 1000:7.1f} ms  {seconds / t_aubio:6.0f}x real time")
        print(f"  speed-up      {t_aubio / t_ours:.2f}x (goal at least 2x)")
