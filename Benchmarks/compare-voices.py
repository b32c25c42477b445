#!/usr/bin/env python3
"""choir's pitch tracker on real recorded singing (../shared/voices), beside the peer trackers whose tracks ship
with it, all scored by mir_eval against the reference tracks (its README): raw pitch accuracy at 50 cents, voicing
recall and false alarms, octave and twelfth errors, on the reference's valid frames (for the voice with a guitar,
those above 150 Hz). choir runs as `choir pitch` does on a file, with YIN and with the learned tracker (`--tracker net`). The same figures are a test with hard floors
(ChoirPitchTests/RealVoiceTests); this is the independent scorer. Needs mir_eval (`just bench` installs it).
"""
import collections, glob, os, subprocess, tempfile

import numpy as np

from voicescore import group, line, root, rows, score, voices

choir = os.path.join(root, ".build", "release", "choir")
peers = ["librosa-pyin", "praat-ac", "crepe-full", "pesto", "aubio-yin"]


names = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(voices, "takes", "*.wav")))
totals = collections.defaultdict(collections.Counter)
with tempfile.TemporaryDirectory() as folder:
    for name in names:
        for label, tracker in [("choir", "yin"), ("choir net", "net")]:
            out = subprocess.run(
                [choir, "pitch", "--tracker", tracker, os.path.join(voices, "takes", f"{name}.wav")], check=True, capture_output=True, text=True
            ).stdout
            totals[(label, group(name))] += score(name, np.array([[float(x) for x in r.split(",")] for r in out.splitlines()[1:]]))
        for peer in peers:
            totals[(peer, group(name))] += score(name, rows(os.path.join(voices, "peers", peer, f"{name}.csv")))
print(f"Real singing ({len(names)} takes), mir_eval against the reference tracks:")
for kind in ["a cappella", "sung notes", "voice with guitar"]:
    print(f" {kind}")
    for tracker in ["choir", "choir net"] + peers:
        print(line(tracker, totals[(tracker, kind)]))
