#!/usr/bin/env python3
"""What SwiftF0's published model (swift-f0 0.3.0's model.onnx, through onnxruntime) gives on a sung-like tone that
PitchNetTests synthesizes the same way: 16 kHz, 220 Hz then a major third and a fifth up (a second each) with a 5.5
Hz vibrato of 30 cents, six harmonics falling as 1/k, at 0.2, then 0.4 s of silence. Writes reference-tone.csv
(frame, pitch in Hz, voicing) beside this script, from the model in the wheel pip downloads (needs onnxruntime).
"""
import os, subprocess, sys, tempfile, zipfile

import numpy as np
import onnxruntime


def tone():
    rate = 16000
    t = np.arange(int(3.4 * rate)) / rate
    steps = np.where(t < 1, 0, np.where(t < 2, 4, 7))
    f = 220 * 2 ** ((steps * 100 + 30 * np.sin(2 * np.pi * 5.5 * t)) / 1200)
    phase = np.cumsum(2 * np.pi * f / rate)
    x = sum(np.sin(k * phase) / k for k in range(1, 7)) * 0.2
    x[t >= 3] = 0
    return x.astype(np.float32)


with tempfile.TemporaryDirectory() as folder:
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", folder, "swift-f0==0.3.0"], check=True)
    wheel = next(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".whl"))
    with zipfile.ZipFile(wheel) as z:
        model = z.read("swift_f0/model.onnx")
session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
x = tone()
pitch, voicing = session.run(["pitch", "confidence"], {"audio": x[None, :], "fmin": np.array(46.875, np.float32), "fmax": np.array(2093.75, np.float32)})
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference-tone.csv"), "w") as out:
    out.write("frame,f0_hz,voicing\n")
    for i, (p, v) in enumerate(zip(pitch[0], voicing[0])):
        out.write(f"{i},{p:.4f},{v:.5f}\n")
