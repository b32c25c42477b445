#!/usr/bin/env python3
"""What the published SwiftF0 package (PyPI `swift-f0` 0.3.0, its own soxr resampling and silence rule) hears in the
first 20 s of ../shared/voices' voice with a guitar (librosa_fishin, 44.1 kHz), over choir's singing range (60 to
1100 Hz), as PitchNetTests reads the same take. Writes reference-fishin.csv (frame, pitch in Hz, confidence)
beside this script. Regenerate with: python3 -m pip install swift-f0==0.3.0 soxr soundfile && python3 THIS.
"""
import os

import soundfile
import swift_f0

here = os.path.dirname(os.path.abspath(__file__))
take = os.path.join(here, "..", "..", "..", "..", "shared", "voices", "takes", "librosa_fishin.wav")
audio, rate = soundfile.read(take, dtype="float32")
result = swift_f0.SwiftF0(threads=1).detect(audio[: 20 * rate], rate, fmin=60, fmax=1100)
with open(os.path.join(here, "reference-fishin.csv"), "w") as out:
    out.write("frame,f0_hz,confidence\n")
    for i, (p, c) in enumerate(zip(result.pitch_hz, result.confidence)):
        out.write(f"{i},{p:.3f},{c:.4f}\n")
