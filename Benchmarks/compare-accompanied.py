#!/usr/bin/env python3
"""Real singing heard through an accompaniment: the takes of ../shared/voices (all but the one recorded with a
guitar) mixed with accompaniments that choir renders from the shared corpus, the voice alone and with the
accompaniment 12, 6 and 0 dB below it, tracked by choir (YIN, the learned tracker, and YIN guided by it, as `choir pitch` runs them)
and, in the same run, by librosa's pYIN and Praat's autocorrelation method (parselmouth), all scored by the same
code against the reference tracks (voicescore.py: raw pitch accuracy at 50 cents on the reference's valid frames).
Then the recording with a guitar in it, as it is.

The accompaniments: the piano of Handel's "Lascia ch'io pianga" and of Beach's "Prayer of a Tired Child" (GM piano),
"Lift Every Voice and Sing" on GM nylon guitar, and the first 40 measures of Beethoven's quartet op. 18 no. 1 (GM
strings). Take k gets accompaniment k mod 4, from a point 7·k seconds in. A level is the RMS over the frames the
reference calls voiced: "6 dB below" is the accompaniment's RMS 6 dB under the voice's while it sings. With
--whole-take, levels are RMS over the whole take instead (a take with silence around a note counts quieter, so the
same figure puts the accompaniment lower under the singing). --set=tuning or --set=checking keeps every other take
(in name order: the even ones tune, the odd ones check), so that what was tuned on one half is reported on the
other. $CHOIR names the choir program to run (default: the release build).

--peers=swiftf0,pesto,crepe-tiny,crepe-full adds learned trackers run from their PyPI packages on one thread, beside
choir's: the published SwiftF0 (`swift-f0`, onnxruntime, soxr's resampling: what choir's network is a port of),
PESTO (`pesto-pitch`, its mir-1k_g7 weights, 10 ms hops) and CREPE tiny or full (`torchcrepe`, Viterbi decoding,
10 ms hops on 16 kHz). Each is scored twice: with its own voicing (SwiftF0 and PESTO at a confidence of 0.5,
CREPE at a periodicity of 0.21), as choir, pYIN and Praat are, and on its pitch alone, every frame taken as voiced
(mir_eval's raw pitch accuracy when a tracker gives a pitch for unvoiced frames; for PESTO, whose voicing is weak,
the fair figure); and its CPU time per second of audio is reported. They need `python3 -m pip install swift-f0==0.3.0
pesto-pitch==2.0.1 torchcrepe==0.0.24` (a few GB with torch), which `just bench` installs to run
`--set=checking --peers=swiftf0,pesto,crepe-tiny` (docs/pitch.md's tables).

Needs librosa, praat-parselmouth, soundfile, soxr, mir_eval (`just bench` installs them) and a release build.
"""
import collections, glob, os, subprocess, sys, tempfile, time, types

import librosa
import numpy as np
import parselmouth
import soundfile
import soxr

from voicescore import ACCOMPANIMENTS, group, line, root, rows, score, voices

choir = os.environ.get("CHOIR") or os.path.join(root, ".build", "release", "choir")
corpus = os.path.join(root, "..", "shared", "corpus")
RANGE = (60.0, 1100.0)  # choir's singing range, given to every tracker
LEVELS = [None, 12, 6, 0]


def render(folder):
    signals = []
    for label, score_file, options in ACCOMPANIMENTS:
        out = os.path.join(folder, f"{len(signals)}.wav")
        subprocess.run([choir, "render", os.path.join(corpus, score_file), "-o", out, "--sample-rate", "44100"] + options,
                       check=True, capture_output=True)
        audio, _ = soundfile.read(out, dtype="float32", always_2d=True)
        signals.append(audio.mean(axis=1))
    return signals


def choir_track(path, tracker):
    options = ["--tracker", "auto", "--accompanied"] if tracker == "yin+net" else ["--tracker", tracker]
    out = subprocess.run([choir, "pitch"] + options + [path], check=True, capture_output=True, text=True).stdout
    return np.array([[float(x) for x in r.split(",")[:2]] for r in out.splitlines()[1:]])


def pyin_track(audio, rate):
    hop = int(rate * 0.01)
    f0, voiced, _ = librosa.pyin(audio, fmin=RANGE[0], fmax=RANGE[1], sr=rate, frame_length=4096 if rate > 30000 else 2048,
                                 hop_length=hop)
    return np.c_[np.arange(len(f0)) * hop / rate, np.where(voiced, np.nan_to_num(f0), 0)]


def praat_track(audio, rate):
    pitch = parselmouth.Sound(audio.astype(np.float64), rate).to_pitch_ac(time_step=0.01, pitch_floor=RANGE[0], pitch_ceiling=RANGE[1])
    return np.c_[pitch.xs(), pitch.selected_array["frequency"]]


def swiftf0_track(audio, rate):
    import swift_f0
    if "swiftf0" not in models:
        models["swiftf0"] = swift_f0.SwiftF0(threads=1)
    result = models["swiftf0"].detect(audio, rate, fmin=RANGE[0], fmax=RANGE[1])
    return np.c_[result.timestamps, np.where(result.confidence >= 0.5, result.pitch_hz, 0), result.pitch_hz]


def torch_single_thread():
    import torch
    torch.set_num_threads(1)
    return torch


def pesto_track(audio, rate):
    torch = torch_single_thread()
    try:
        import torchaudio  # noqa: F401
    except (ImportError, RuntimeError):
        # PESTO imports torchaudio only to read files, which it is not asked to here; a torchaudio wheel built for
        # another torch refuses to import at all.
        sys.modules["torchaudio"] = types.ModuleType("torchaudio")
    import pesto
    if models.get("pesto", (None, None))[1] != rate:
        models["pesto"] = (pesto.load_model("mir-1k_g7", step_size=10.0, sampling_rate=rate).eval(), rate)
    with torch.inference_mode():
        pitch, confidence, _, _ = models["pesto"][0](torch.from_numpy(audio), sr=rate, convert_to_freq=True, return_activations=True)
    pitch, confidence = pitch.numpy().ravel(), confidence.numpy().ravel()
    return np.c_[np.arange(len(pitch)) * 0.01, np.where(confidence >= 0.5, pitch, 0), pitch]


def crepe_track(model):
    def track(audio, rate):
        torch = torch_single_thread()
        import torchcrepe
        signal = soxr.resample(audio, rate, 16000).astype(np.float32) if rate != 16000 else audio
        with torch.inference_mode():
            pitch, periodicity = torchcrepe.predict(torch.from_numpy(signal)[None], 16000, 160, RANGE[0], RANGE[1], model=model,
                                                    return_periodicity=True, batch_size=256, device="cpu")
        pitch, periodicity = pitch.numpy().ravel(), periodicity.numpy().ravel()
        return np.c_[np.arange(len(pitch)) * 0.01, np.where(periodicity >= 0.21, pitch, 0), pitch]
    return track


PEERS = {"swiftf0": ("SwiftF0 (Python)", swiftf0_track), "pesto": ("PESTO", pesto_track),
         "crepe-tiny": ("CREPE tiny", crepe_track("tiny")), "crepe-full": ("CREPE full", crepe_track("full"))}
models = {}


def sung_rms(name, audio, rate):
    if "--whole-take" in sys.argv:
        return float(np.sqrt(np.mean(audio ** 2)))
    ref = rows(os.path.join(voices, "reference", f"{name}.consensus.csv"))
    sung = ref[(ref[:, 1] > 0) & (ref[:, 2] > 0), 0]
    index = np.clip((sung * rate).astype(int), 0, len(audio) - 1)
    spans = np.concatenate([np.arange(max(0, i - int(0.005 * rate)), min(len(audio), i + int(0.005 * rate))) for i in index])
    return float(np.sqrt(np.mean(audio[spans] ** 2)))


peers = [PEERS[p] for p in next((a.split("=", 1)[1].split(",") for a in sys.argv[1:] if a.startswith("--peers=")), [])]
trackers = ["choir (YIN)", "choir (net)", "choir (yin+net)", "pYIN", "Praat"] + [label for label, _ in peers]
pitch_alone = collections.defaultdict(collections.Counter)  # the peers' pitch on every frame, voicing ignored
cpu = collections.Counter()  # the peers' CPU seconds, and the seconds of audio they tracked


def add_peers(condition, name, audio, rate):
    for label, track in peers:
        start = time.process_time()
        frames = track(audio, rate)
        cpu[label] += time.process_time() - start
        cpu[(label, "audio")] += len(audio) / rate
        totals[(label, condition)] += score(name, frames[:, :2])
        pitch_alone[(label, condition)] += score(name, frames[:, [0, 2]])


names = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(voices, "takes", "*.wav")))
mixed_names = [n for n in names if group(n) != "voice with guitar"]
chosen = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--set=")), None)
if chosen:
    mixed_names = [n for i, n in enumerate(mixed_names) if i % 2 == (0 if chosen == "tuning" else 1)]
totals = collections.defaultdict(collections.Counter)
with tempfile.TemporaryDirectory() as folder:
    accompaniments = render(folder)
    for k, name in enumerate(mixed_names):
        voice, rate = soundfile.read(os.path.join(voices, "takes", f"{name}.wav"), dtype="float32")
        backing = accompaniments[k % len(accompaniments)]
        if rate != 44100:
            backing = soxr.resample(backing, 44100, rate).astype(np.float32)
        start = int(7 * k * rate) % max(1, len(backing) - len(voice))
        part = backing[start:start + len(voice)]
        level = sung_rms(name, voice, rate)
        part_level = sung_rms(name, part, rate) or 1e-9
        for decibels in LEVELS:
            mix = voice if decibels is None else voice + part * (level / part_level * 10 ** (-decibels / 20))
            mix = mix / max(1.0, float(np.abs(mix).max()) / 0.99)
            path = os.path.join(folder, "mix.wav")
            soundfile.write(path, mix, rate, subtype="FLOAT")
            condition = "voice alone" if decibels is None else f"{decibels} dB below"
            for tracker, track in [("choir (YIN)", lambda: choir_track(path, "yin")), ("choir (net)", lambda: choir_track(path, "net")),
                                   ("choir (yin+net)", lambda: choir_track(path, "yin+net")), ("pYIN", lambda: pyin_track(mix, rate)), ("Praat", lambda: praat_track(mix, rate))]:
                totals[(tracker, condition)] += score(name, track())
            add_peers(condition, name, mix.astype(np.float32), rate)
        print(f"  {name} done", file=sys.stderr)
    guitar = [n for n in names if group(n) == "voice with guitar"]
    for name in guitar:
        path = os.path.join(voices, "takes", f"{name}.wav")
        audio, rate = soundfile.read(path, dtype="float32")
        for tracker, track in [("choir (YIN)", lambda: choir_track(path, "yin")), ("choir (net)", lambda: choir_track(path, "net")),
                               ("choir (yin+net)", lambda: choir_track(path, "yin+net")), ("pYIN", lambda: pyin_track(audio, rate)), ("Praat", lambda: praat_track(audio, rate))]:
            totals[(tracker, "recorded with a guitar")] += score(name, track())
        add_peers("recorded with a guitar", name, audio, rate)

conditions = ["voice alone", "12 dB below", "6 dB below", "0 dB below", "recorded with a guitar"]
print(f"Real singing ({len(mixed_names)} takes{', the ' + chosen + ' set' if chosen else ''}) under accompaniments choir renders; raw pitch accuracy at 50 cents:")
print("| voice + accompaniment | " + " | ".join(trackers) + " |")
print("|---|" + "---|" * len(trackers))
for condition in conditions:
    cells = [f"{totals[(t, condition)]['hits'] / max(1, totals[(t, condition)]['voiced']):.3f}" for t in trackers]
    print(f"| {condition} | " + " | ".join(cells) + " |")
print("\nIn detail:")
for condition in conditions:
    print(f" {condition}")
    for tracker in trackers:
        print(line(tracker, totals[(tracker, condition)]))
if peers:
    print("\nThe learned peers on their pitch alone (every frame taken as voiced), and their speed on one thread:")
    print("| voice + accompaniment | " + " | ".join(label for label, _ in peers) + " |")
    print("|---|" + "---|" * len(peers))
    for condition in conditions:
        cells = [f"{pitch_alone[(l, condition)]['hits'] / max(1, pitch_alone[(l, condition)]['voiced']):.3f}" for l, _ in peers]
        print(f"| {condition} | " + " | ".join(cells) + " |")
    print("| times real time (CPU) | " + " | ".join(f"{cpu[(l, 'audio')] / max(1e-9, cpu[l]):.0f}" for l, _ in peers) + " |")
