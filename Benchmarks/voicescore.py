"""Scoring pitch tracks of ../shared/voices against its reference tracks, as its README asks: mir_eval's raw pitch
accuracy at 50 cents, voicing recall and false alarms, octave and twelfth errors, on the reference's valid frames
(for the voice with a guitar, those above 150 Hz). Shared by compare-voices.py and compare-accompanied.py.
"""
import collections, os

import mir_eval
import numpy as np

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
voices = os.path.join(root, "..", "shared", "voices")
# compare-accompanied.py's accompaniments: (label, corpus file, `choir render` options). The pitch net's fine-tuning
# (Resources/PitchNet/finetune-swiftf0.py) never trains on these pieces.
ACCOMPANIMENTS = [
    ("piano (Handel)", "handel_rinaldo_Lascia_chio_pianga.mxl", ["--solo", "Piano"]),
    ("piano (Beach)", "beach_prayer_of_a_tired_child.musicxml", ["--solo", "Piano"]),
    ("guitar", "johnson_j_r_lift_every_voice.mxl", [f"--instrument={line}=25" for line in ["Soprano", "Alto", "Tenor", "Bass"]]),
    ("strings", "beethoven_opus18no1_movement1.mxl", ["--to", "40"]),
]


def rows(path):
    return np.array([[float(x) for x in line.split(",")[:3]] for line in open(path) if line[0] not in "#t" and line.strip()])


def group(name):
    return "sung notes" if name.startswith("vocobox") else "voice with guitar" if name.startswith("librosa") else "a cappella"


def score(name, estimate):
    ref = rows(os.path.join(voices, "reference", f"{name}.consensus.csv"))
    times, truth, valid = ref[:, 0], ref[:, 1], ref[:, 2] > 0
    if group(name) == "voice with guitar":
        valid &= ~((truth > 0) & (truth < 150))
    t, f = estimate[:, 0], np.maximum(estimate[:, 1], 0)
    keep = t >= 0
    t, f = t[keep], f[keep]
    if t[0] > times[0]:
        t, f = np.r_[times[0], t], np.r_[0, f]
    if t[-1] < times[-1]:
        t, f = np.r_[t, times[-1]], np.r_[f, 0]
    freq, voicing = mir_eval.melody.resample_melody_series(t, f, (f > 0).astype(float), times, kind="linear")
    voiced, heard = (truth > 0)[valid], (voicing > 0.5)[valid]
    cents = np.abs(mir_eval.melody.hz2cents(np.where(voicing > 0.5, freq, 1))[valid] - mir_eval.melody.hz2cents(np.maximum(truth, 1))[valid])
    both = voiced & heard
    return collections.Counter(
        voiced=voiced.sum(), unvoiced=(~voiced).sum(), hits=(both & (cents <= 50)).sum(), recalled=both.sum(),
        false_alarms=(~voiced & heard).sum(), octaves=(both & ((np.abs(cents - 1200) <= 50) | (np.abs(cents - 2400) <= 50))).sum(),
        twelfths=(both & (np.abs(cents - 1902) <= 50)).sum())


def line(label, c):
    v, u = max(1, c["voiced"]), max(1, c["unvoiced"])
    return (f"  {label:13} RPA {100 * c['hits'] / v:5.1f}%  recall {100 * c['recalled'] / v:5.1f}%  false alarms "
            f"{100 * c['false_alarms'] / u:5.1f}%  octave {c['octaves']:3d}  twelfth {c['twelfths']:3d}")
