#!/usr/bin/env python3
"""Converts SwiftF0's network (PyPI `swift-f0`, MIT, model.onnx inside the wheel) into the flat file choir's
learned pitch tracker reads (ChoirPitch/PitchNet): `swiftf0.weights` beside this script. Run once; the result is
committed with SwiftF0's licence (LICENSE.swift-f0), so choir needs no Python at run time. `just net-weights`
runs it: it downloads the pinned wheel with pip and needs the `onnx` package (installed by that task).

The file holds every number the network uses, named: the three STFT windows, each STFT's sparse map onto the
128 log-spaced bands, the convolutions' weights and biases, and the 95 pitch bins (Hz, and their natural log in
float64). Little-endian: the magic `CHPNET01`, a u32 count, then per tensor a u16 name length and the name, a u8
type (0 float32, 1 int32, 2 float64), a u8 rank, u32 dimensions, the data.
"""
import os, struct, subprocess, sys, tempfile, zipfile

import numpy as np
import onnx
from onnx import numpy_helper

VERSION = "0.3.0"
here = os.path.dirname(os.path.abspath(__file__))

# The graph's initialisers by what they are (swift-f0 0.3.0's names). Channels of the network's input: the
# 1024-sample STFT, the 2048 and the 512, in that order.
LAYERS = {
    "c0": ("v353", "v354"), "b1a": ("v357", "v358"), "b1b": ("v361", "v362"), "b2a": ("v366", "v367"),
    "b2b": ("v370", "v371"), "b3a": ("v375", "v376"), "b3b": ("v379", "v380"), "b4a": ("v384", "v385"),
    "b4b": ("v388", "v389"), "b5a": ("v393", "v394"), "b5b": ("v397", "v398"), "b6a": ("v402", "v403"),
    "b6b": ("v406", "v407"), "head": ("v413", "v414"), "salience": ("v425", "v426"), "voicing.bands": ("v417", "v418"),
    "voicing.a": ("v430", "v431"), "voicing.b": ("v434", "v435"),
}
STFTS = {1024: ("v41", "v123", "v124", 513), 2048: ("v161", "v241", "v242", 1025), 512: ("v262", "v342", "v343", 257)}


def model_path(folder):
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", folder, f"swift-f0=={VERSION}"], check=True)
    wheel = next(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".whl"))
    with zipfile.ZipFile(wheel) as z:
        z.extract("swift_f0/model.onnx", folder)
    return os.path.join(folder, "swift_f0", "model.onnx")


def main():
    with tempfile.TemporaryDirectory() as folder:
        model = onnx.load(sys.argv[1] if len(sys.argv) > 1 else model_path(folder))
    init = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    tensors = []
    for size, (window, index, value, bins) in STFTS.items():
        tensors.append((f"stft{size}.window", init[window].astype(np.float32)))
        flat = init[index].astype(np.int64)
        # ScatterElements into a (bins × 128) matrix: flat = bin · 128 + band.
        assert flat.max() < bins * 128
        tensors.append((f"stft{size}.bin", (flat // 128).astype(np.int32)))
        tensors.append((f"stft{size}.band", (flat % 128).astype(np.int32)))
        tensors.append((f"stft{size}.weight", init[value].astype(np.float32)))
    for name, (weight, bias) in LAYERS.items():
        tensors.append((f"{name}.weight", init[weight].astype(np.float32)))
        tensors.append((f"{name}.bias", init[bias].astype(np.float32)))
    tensors.append(("bins.hz", init["v438"].astype(np.float32)))
    tensors.append(("bins.log", init["v455"].astype(np.float64)))
    out = bytearray(b"CHPNET01" + struct.pack("<I", len(tensors)))
    for name, array in tensors:
        kind = {np.dtype(np.float32): 0, np.dtype(np.int32): 1, np.dtype(np.float64): 2}[array.dtype]
        out += struct.pack("<H", len(name)) + name.encode() + struct.pack("<BB", kind, array.ndim)
        out += struct.pack(f"<{array.ndim}I", *array.shape) + array.astype(array.dtype.newbyteorder("<")).tobytes()
    path = os.path.join(here, "swiftf0.weights")
    with open(path, "wb") as f:
        f.write(out)
    print(f"{path}: {len(tensors)} tensors, {len(out)} bytes, from swift-f0 {VERSION}")


main()
