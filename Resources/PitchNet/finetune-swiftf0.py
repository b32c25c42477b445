#!/usr/bin/env python3
"""Fine-tunes SwiftF0's network (swiftf0.weights beside this script, the published model as convert-swiftf0.py
makes it) on singing heard through an accompaniment, and writes swiftf0-accompanied.weights beside it: the weights
choir's learned tracker reads by default (ChoirPitch/PitchNet). They are derived from SwiftF0 (MIT, Lars
Nieradzik; LICENSE.swift-f0) and keep its licence. Only the network's convolutions and voicing head are trained;
the front end (windows, band maps) and the pitch bins stay as published.

The network in torch is PitchNet.swift's, layer for layer (its output equals onnxruntime's on the published model:
pitch within 0.0002 cents; the voicing differs only on the first frames, which the published package zeroes).

Training data (all at 16 kHz, 2.05 s clips of 128 frames, batches of 8):
- Singers, 65%: every line of the corpus pieces the evaluation does NOT use (../../../shared/corpus: the 22 Bach
  chorales, Monteverdi's madrigal, demos_multiple-verses; never Handel's "Lascia ch'io pianga", Beach's "Prayer of
  a Tired Child", "Lift Every Voice and Sing" or Beethoven's op. 18 no. 1, Benchmarks/compare-accompanied.py's
  four accompaniments; timpani lines left out), each rendered alone by choir twice, on two of GM (1-based) 53
  Choir Aahs, 54 Voice Oohs, 55 Synth Voice, 41 Violin, 72 Clarinet, 74 Flute, 69 Oboe. Labels: where a score
  note sounds (from 50 ms after its start to 30 ms before its end, times from `choir notes --json`), the
  published network's pitch on the clean render if it lies within 50 cents of the note, else left out;
  unvoiced where no note sounds within 50 ms before to 250 ms after and the render is 60 dB under its loudest;
  every other frame left out.
- Singers, 35%: the tuning half of ../../../shared/voices (the even-numbered takes in name order, all but the
  voice with a guitar, as compare-accompanied.py --set=tuning picks them), labelled by their consensus
  reference (valid frames only), placed at random in the clip (the rest unvoiced silence).
- Accompaniment, 85% of clips (15% clean): 30% of rendered singers get the other lines of the same piece
  (choir's own instruments, the singer's line muted), the rest one of the same pieces rendered whole on GM piano
  (1), nylon guitar (25), steel guitar (26), strings (49) or organ (20), from a random point; 6 of 24 pieces'
  renders in the same program family as the evaluation's (piano, nylon guitar, strings), but never its pieces.
  The level: from 3 dB above to 20 dB below the voice, uniform in dB, as compare-accompanied.py measures it (RMS
  over the frames the label calls voiced); then peak-normalised to 0.99 and, half the time, scaled down by up
  to 26 dB.
Loss: binary cross-entropy of the voicing logit on labelled frames; on voiced ones cross-entropy of the 95-bin
salience against a Gaussian (0.7 bins) at the label's log pitch, plus the error (cents / 100, capped at 3) of the
pitch the network reports (softmax of the best bin and its neighbours). Adam, learning rate 3e-4, seeds fixed.
Validation while training: the tuning takes under the evaluation's four accompaniments at 12, 6 and 0 dB (as
compare-accompanied.py --set=tuning mixes them) and the guitar recording; the checking takes are never seen.

Run (one thread, about 1.5 s a step on a loaded core, plus ~6 min to prepare):
    swift build -c release --product choir
    python3 Resources/PitchNet/finetune-swiftf0.py --steps 450 [--work /tmp/choir-finetune]
Needs torch (CPU), numpy, soundfile, soxr, mir_eval. Then check with
    CHOIR_PITCH_NET=Resources/PitchNet/swiftf0-accompanied.weights python3 Benchmarks/compare-accompanied.py --set=checking
"""
import argparse, collections, glob, json, os, random, struct, subprocess, sys, time

import numpy as np
import soundfile
import soxr
import torch
import torch.nn as nn
import torch.nn.functional as F

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "Benchmarks"))
import voicescore  # noqa: E402

HOP, RATE, CLIP = 256, 16000, 128
SIZES = [1024, 2048, 512]
# name, kernel over bands, kernel over frames, dilation over bands, padding over bands (PitchNet.layers)
LAYERS = [("c0", 3, 3, 1, 1), ("b1a", 7, 3, 1, 3), ("b1b", 7, 3, 1, 3), ("b2a", 7, 1, 17, 51), ("b2b", 7, 1, 17, 51),
          ("b3a", 5, 1, 27, 54), ("b3b", 5, 1, 27, 54), ("b4a", 3, 1, 40, 40), ("b4b", 3, 1, 40, 40), ("b5a", 3, 1, 48, 48),
          ("b5b", 3, 1, 48, 48), ("b6a", 7, 3, 2, 6), ("b6b", 7, 3, 2, 6), ("head", 3, 3, 1, 1), ("salience", 1, 1, 1, 0),
          ("voicing.bands", 5, 1, 1, 2)]
EVALUATED = {score for _, score, _ in voicescore.ACCOMPANIMENTS}  # never trained on
SINGERS = [53, 54, 55, 41, 72, 74, 69, 53, 54]
BACKINGS = {"piano": 1, "nylon": 25, "steel": 26, "strings": 49, "organ": 20}


def read_weights(path):
    """The tensors of a choir pitch-net file (format: convert-swiftf0.py), in order."""
    data = open(path, "rb").read()
    assert data[:8] == b"CHPNET01", path
    (count,) = struct.unpack_from("<I", data, 8)
    pos, out = 12, []
    for _ in range(count):
        (n,) = struct.unpack_from("<H", data, pos)
        name = data[pos + 2:pos + 2 + n].decode()
        pos += 2 + n
        kind, rank = struct.unpack_from("<BB", data, pos)
        shape = struct.unpack_from(f"<{rank}I", data, pos + 2)
        pos += 2 + 4 * rank
        dtype = np.dtype([np.float32, np.int32, np.float64][kind]).newbyteorder("<")
        size = int(np.prod(shape)) * dtype.itemsize
        out.append((name, np.frombuffer(data[pos:pos + size], dtype=dtype).reshape(shape).astype(dtype.newbyteorder("="))))
        pos += size
    return out


def write_weights(path, tensors):
    out = bytearray(b"CHPNET01" + struct.pack("<I", len(tensors)))
    for name, array in tensors:
        kind = {np.dtype(np.float32): 0, np.dtype(np.int32): 1, np.dtype(np.float64): 2}[array.dtype]
        out += struct.pack("<H", len(name)) + name.encode() + struct.pack("<BB", kind, array.ndim)
        out += struct.pack(f"<{array.ndim}I", *array.shape) + array.astype(array.dtype.newbyteorder("<")).tobytes()
    with open(path, "wb") as f:
        f.write(out)


class FrontEnd:
    """The log band energies (frames, 3, 128) of 16 kHz audio, frame i centred on sample 256·i, as PitchNet takes them."""

    def __init__(self, tensors):
        t = dict(tensors)
        self.maps = []
        for s in SIZES:
            m = np.zeros((s // 2 + 1, 128), np.float32)
            np.add.at(m, (t[f"stft{s}.bin"], t[f"stft{s}.band"]), t[f"stft{s}.weight"])
            self.maps.append((s, t[f"stft{s}.window"], m))

    def __call__(self, audio):
        n = max(1, len(audio) // HOP)
        padded = np.concatenate([np.zeros(1024, np.float32), audio.astype(np.float32), np.zeros(n * HOP + 2048, np.float32)])
        channels = []
        for s, window, m in self.maps:
            index = 1024 - s // 2 + np.arange(n)[:, None] * HOP + np.arange(s)[None]
            spectrum = np.abs(np.fft.rfft(padded[index] * window, axis=1)).astype(np.float32)
            channels.append(np.log(spectrum @ m + 1e-8))
        return np.stack(channels, 1)


class Net(nn.Module):
    """PitchNet's body and heads: (batch, frames, 3, 128) in, pitch-bin salience (batch, frames, 95) and voicing
    logit (batch, frames) out."""

    def __init__(self, tensors):
        super().__init__()
        t = dict(tensors)
        self.convs = nn.ModuleDict()
        for name, width, frames, dilation, pad in LAYERS:
            w = torch.tensor(t[f"{name}.weight"])  # [out][in][band][frame]
            conv = nn.Conv2d(w.shape[1], w.shape[0], (width, frames), dilation=(dilation, 1), padding=(pad, frames // 2))
            conv.weight.data.copy_(w)
            conv.bias.data.copy_(torch.tensor(t[f"{name}.bias"]))
            self.convs[name.replace(".", "_")] = conv
        self.va = nn.Conv1d(5, 16, 3, padding=1)
        self.vb = nn.Conv1d(16, 1, 1)
        for layer, name in [(self.va, "voicing.a"), (self.vb, "voicing.b")]:
            layer.weight.data.copy_(torch.tensor(t[f"{name}.weight"]))
            layer.bias.data.copy_(torch.tensor(t[f"{name}.bias"]))
        self.register_buffer("binlog", torch.tensor(t["bins.log"]))
        self.binhz = t["bins.hz"]

    def forward(self, x):
        c = self.convs
        mean = x.mean(dim=(2, 3))
        h = F.relu(c["c0"](x.permute(0, 2, 3, 1)))
        for a, b in [("b1a", "b1b"), ("b2a", "b2b"), ("b3a", "b3b"), ("b4a", "b4b"), ("b5a", "b5b"), ("b6a", "b6b")]:
            h = F.relu(c[b](F.relu(c[a](h))) + h)
        head = F.relu(c["head"](h))[:, :, :95]
        salience = c["salience"](head)[:, 0]
        features = torch.cat([c["voicing_bands"](head).amax(dim=2), mean[:, None]], 1)
        logit = self.vb(F.relu(self.va(features)))[:, 0]
        return salience.permute(0, 2, 1), logit

    def export(self, tensors, path):
        out = []
        for name, array in tensors:
            base, kind = name.rsplit(".", 1)
            layer = self.convs[base.replace(".", "_")] if base.replace(".", "_") in self.convs else \
                {"voicing.a": self.va, "voicing.b": self.vb}.get(base)
            if layer is not None and kind in ("weight", "bias"):
                array = getattr(layer, kind).detach().numpy().astype(np.float32)
            out.append((name, array))
        write_weights(path, out)


def decode(salience, logit, binhz, binlog, fmin=60.0, fmax=1100.0):
    """Pitch (Hz) and voicing per frame, as PitchNet.decide gives them."""
    inside = (binhz >= fmin) & (binhz <= fmax)
    best = np.where(inside, salience, -np.inf).argmax(1)
    pitch = np.zeros(len(salience))
    for i, b in enumerate(best):
        near = [k for k in (b - 1, b, b + 1) if 0 <= k < 95 and inside[k]]
        e = np.exp(salience[i, near].astype(np.float64) - salience[i, b])
        pitch[i] = np.exp((e * binlog[near]).sum() / e.sum())
    return pitch, np.where(inside[salience.argmax(1)], 1 / (1 + np.exp(-logit.astype(np.float64))), 0)


def render_all(choir, work):
    """Every line alone on two singing-like programs, the other lines of each, and each piece on the backing
    programs (16 kHz mono), with the notes; returns the pieces' names."""
    random.seed(1)
    corpus = os.path.join(root, "..", "shared", "corpus")
    pieces = sorted(p for p in glob.glob(os.path.join(corpus, "*")) if os.path.basename(p) not in EVALUATED and p.endswith(("mxl", "xml")))

    def render(path, options, name):
        wav = os.path.join(work, name + ".wav")
        if not os.path.exists(wav):
            subprocess.run([choir, "render", path, "-o", wav, "--sample-rate", str(RATE)] + options, capture_output=True, check=True)
            audio, _ = soundfile.read(wav, dtype="float32", always_2d=True)
            soundfile.write(wav, audio.mean(1), RATE, subtype="FLOAT")

    names = []
    for path in pieces:
        base = os.path.basename(path).rsplit(".", 1)[0]
        notes = json.loads(subprocess.run([choir, "notes", path, "--json"], capture_output=True, text=True, check=True).stdout)
        json.dump(notes, open(os.path.join(work, base + ".notes.json"), "w"))
        parts = [p["name"] for p in notes["parts"]]
        for i, part in enumerate(parts):
            for program in random.sample(SINGERS, 2):
                render(path, ["--solo", part, f"--instrument={part}={program}"], f"{base}__solo{i}__{program}")
            render(path, ["--mute", part], f"{base}__others{i}")
        for label, program in BACKINGS.items():
            render(path, [f"--instrument={p}={program}" for p in parts], f"{base}__{label}")
        names.append(base)
        print(f"rendered {base}", file=sys.stderr, flush=True)
    return set(names)


class Trainer:
    def __init__(self, work, pieces, choir):
        self.work, self.choir = work, choir
        self.tensors = read_weights(os.path.join(here, "swiftf0.weights"))
        self.front = FrontEnd(self.tensors)
        self.net, self.published = Net(self.tensors), Net(self.tensors).eval()
        self.binhz, self.binlog = self.net.binhz, self.net.binlog.numpy()
        self.logbins = np.log(self.binhz.astype(np.float64))
        self.voices = os.path.join(root, "..", "shared", "voices")
        names = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(self.voices, "takes", "*.wav")))
        mixed = [n for n in names if voicescore.group(n) != "voice with guitar"]
        self.tuning = [n for i, n in enumerate(mixed) if i % 2 == 0]
        self.singers = self.rendered_singers(work, pieces)
        self.reals = [self.real(n) for n in self.tuning]
        self.backings, self.others = [], {}
        for wav in sorted(glob.glob(os.path.join(work, "*__*.wav"))):
            piece, kind = os.path.basename(wav)[:-4].split("__")[:2]
            if "solo" in kind or piece not in pieces:
                continue
            audio, _ = soundfile.read(wav, dtype="float32")
            if kind.startswith("others"):
                self.others[(piece, int(kind[6:]))] = audio
            else:
                self.backings.append(audio)
        self.validation = self.validation_set()

    def track(self, net, audio):
        with torch.no_grad():
            salience, logit = net(torch.tensor(self.front(audio))[None])
        return salience[0].numpy(), logit[0].numpy()

    def rendered_singers(self, work, pieces):
        out = []
        for wav in sorted(glob.glob(os.path.join(work, "*__solo*__*.wav"))):
            base, part, _ = os.path.basename(wav)[:-4].split("__")
            if base not in pieces:
                continue
            i = int(part[4:])
            notes = json.load(open(os.path.join(work, f"{base}.notes.json")))
            if notes["parts"][i]["name"].startswith("Timpan"):
                continue
            # Quarter notes to seconds, from every note's onset (past the last, at the first tempo).
            points = np.array([(n[0], n[3]) for p in notes["parts"] for n in p["notes"]])
            points = points[np.argsort(points[:, 0])]
            per_quarter = 60.0 / (notes.get("first_tempo_qpm") or 100.0)
            seconds = lambda q: np.interp(q, points[:, 0], points[:, 1]) if q <= points[-1, 0] else points[-1, 1] + (q - points[-1, 0]) * per_quarter
            audio, _ = soundfile.read(wav, dtype="float32")
            n = max(1, len(audio) // HOP)
            t = np.arange(n) * HOP / RATE
            note, near = np.zeros(n), np.zeros(n, bool)
            for q, d, midi, s, *_ in notes["parts"][i]["notes"]:
                end = seconds(q + d)
                note[(t >= s + 0.05) & (t <= end - 0.03)] = 440 * 2 ** ((midi - 69) / 12)
                near[(t >= s - 0.05) & (t <= end + 0.25)] = True
            pitch, _ = decode(*self.track(self.published, audio), self.binhz, self.binlog, 46.875, 2093.75)
            rms = np.array([np.sqrt(np.mean(audio[max(0, k * HOP - 256):k * HOP + 256] ** 2) + 1e-20) for k in range(n)])
            label = np.full(n, -1.0)
            agree = (note > 0) & (np.abs(1200 * np.log2(np.maximum(pitch, 1) / np.maximum(note, 1))) < 50)
            label[agree] = pitch[agree]
            label[~near & (rms < 1e-3 * rms.max())] = 0
            out.append(dict(audio=audio, label=label, piece=base, part=i))
        return out

    def real(self, name):
        audio, rate = soundfile.read(os.path.join(self.voices, "takes", f"{name}.wav"), dtype="float32")
        audio = soxr.resample(audio, rate, RATE).astype(np.float32) if rate != RATE else audio
        ref = voicescore.rows(os.path.join(self.voices, "reference", f"{name}.consensus.csv"))
        t = np.arange(max(1, len(audio) // HOP)) * HOP / RATE
        k = np.clip(np.round(t / 0.01).astype(int), 0, len(ref) - 1)
        sure = (np.abs(ref[k, 0] - t) < 0.006) & (ref[k, 2] > 0)
        return dict(audio=audio, label=np.where(sure, ref[k, 1], -1.0), piece=None, part=None)

    @staticmethod
    def sung_rms(audio, label):
        frames = np.where(label > 0)[0]
        if len(frames) == 0:
            return None
        spans = np.concatenate([np.arange(max(0, k * HOP - 80), min(len(audio), k * HOP + 80)) for k in frames])
        return float(np.sqrt(np.mean(audio[spans] ** 2))) if len(spans) else None

    def sample(self):
        s = random.choice(self.reals) if random.random() < 0.35 else random.choice(self.singers)
        length = CLIP * HOP
        voice, label = np.zeros(length, np.float32), np.zeros(CLIP)
        audio, labels = s["audio"], s["label"]
        if len(audio) >= length:
            start = random.randrange(0, (len(audio) - length) // HOP + 1) * HOP
            voice[:] = audio[start:start + length]
            label[:] = np.r_[labels[start // HOP:], -np.ones(CLIP)][:CLIP]
        else:
            offset = random.randrange(0, (length - len(audio)) // HOP + 1) * HOP
            voice[offset:offset + len(audio)] = audio
            label[offset // HOP:offset // HOP + len(labels)] = labels[:CLIP - offset // HOP]
        mix = voice.copy()
        if random.random() > 0.15:
            if s["piece"] is not None and random.random() < 0.3 and (s["piece"], s["part"]) in self.others:
                backing = self.others[(s["piece"], s["part"])]
                start = min(start, max(0, len(backing) - length)) if len(audio) >= length else random.randrange(0, max(1, len(backing) - length))
            else:
                backing = random.choice(self.backings)
                start = random.randrange(0, max(1, len(backing) - length))
            part = np.zeros(length, np.float32)
            segment = backing[start:start + length]
            part[:len(segment)] = segment
            voice_level = self.sung_rms(voice, label)
            part_level = self.sung_rms(part, label) if voice_level else None
            decibels = random.uniform(-3, 20)
            if voice_level and part_level:
                mix = voice + part * (voice_level / part_level * 10 ** (-decibels / 20))
            else:
                mix = voice + part * random.uniform(0.1, 1.0)
        mix = mix / max(1.0, float(np.abs(mix).max()) / 0.99)
        mix = mix * (10 ** random.uniform(-1.3, 0) if random.random() < 0.5 else 1.0)
        return self.front(mix.astype(np.float32))[:CLIP], label

    def losses(self, salience, logit, label):
        label = torch.tensor(label, dtype=torch.float32)
        keep = torch.zeros_like(label, dtype=torch.bool)
        keep[:, 3:-8] = True  # the clip's edges see zeros past them
        voiced, known = (label > 0) & keep, (label >= 0) & keep
        voicing = F.binary_cross_entropy_with_logits(logit[known], voiced[known].float()) if known.any() else logit.sum() * 0
        if not voiced.any():
            return voicing, salience.sum() * 0, salience.sum() * 0
        s, f = salience[voiced], torch.log(label[voiced].double())
        position = torch.tensor(np.interp(f.numpy(), self.logbins, np.arange(95)))
        target = torch.exp(-0.5 * ((torch.arange(95)[None] - position[:, None]) / 0.7) ** 2).float()
        bins = -(target / target.sum(1, keepdim=True) * F.log_softmax(s, 1)).sum(1).mean()
        best = s.argmax(1).clamp(1, 93)
        near = torch.stack([best - 1, best, best + 1], 1)
        estimate = (F.softmax(torch.gather(s, 1, near).double(), 1) * self.net.binlog[near]).sum(1)
        cents = torch.clamp(torch.abs(estimate - f) * 1200 / np.log(2) / 100, max=3).mean()
        return voicing, bins, cents.float()

    def validation_set(self):
        """The tuning takes under compare-accompanied.py's accompaniments, mixed as it mixes them, and the guitar recording."""
        choir_renders = [self.accompaniment(score, options) for _, score, options in voicescore.ACCOMPANIMENTS]
        out = []
        for k, name in enumerate(self.tuning):
            audio, rate = soundfile.read(os.path.join(self.voices, "takes", f"{name}.wav"), dtype="float32")
            backing = choir_renders[k % len(choir_renders)]
            backing = soxr.resample(backing, 44100, rate).astype(np.float32) if rate != 44100 else backing
            start = int(7 * k * rate) % max(1, len(backing) - len(audio))
            part = backing[start:start + len(audio)]
            ref = voicescore.rows(os.path.join(self.voices, "reference", f"{name}.consensus.csv"))
            sung = ref[(ref[:, 1] > 0) & (ref[:, 2] > 0), 0]

            def level(x):
                index = np.clip((sung * rate).astype(int), 0, len(x) - 1)
                spans = np.concatenate([np.arange(max(0, j - int(0.005 * rate)), min(len(x), j + int(0.005 * rate))) for j in index])
                return float(np.sqrt(np.mean(x[spans] ** 2)))
            voice_level, part_level = level(audio), level(part) or 1e-9
            for decibels in [None, 12, 6, 0]:
                mix = audio if decibels is None else audio + part * (voice_level / part_level * 10 ** (-decibels / 20))
                mix = mix / max(1.0, float(np.abs(mix).max()) / 0.99)
                mix = soxr.resample(mix, rate, RATE).astype(np.float32) if rate != RATE else mix.astype(np.float32)
                out.append((name, "voice alone" if decibels is None else f"{decibels} dB below", self.front(mix)))
        audio, rate = soundfile.read(os.path.join(self.voices, "takes", "librosa_fishin.wav"), dtype="float32")
        out.append(("librosa_fishin", "recorded with a guitar", self.front(soxr.resample(audio, rate, RATE).astype(np.float32))))
        return out

    def accompaniment(self, score, options):
        wav = os.path.join(self.work, "evaluation-" + score.rsplit(".", 1)[0] + ".wav")
        if not os.path.exists(wav):
            subprocess.run([self.choir, "render", os.path.join(root, "..", "shared", "corpus", score), "-o", wav, "--sample-rate", "44100"] + options,
                           check=True, capture_output=True)
        audio, _ = soundfile.read(wav, dtype="float32", always_2d=True)
        return audio.mean(axis=1)

    def evaluate(self, net):
        totals = collections.defaultdict(collections.Counter)
        for name, condition, features in self.validation:
            with torch.no_grad():
                salience, logit = net(torch.tensor(features)[None])
            pitch, voicing = decode(salience[0].numpy(), logit[0].numpy(), self.binhz, self.binlog)
            totals[condition] += voicescore.score(name, np.c_[np.arange(len(pitch)) * HOP / RATE, np.where(voicing >= 0.5, pitch, 0)])
        return {c: round(totals[c]["hits"] / max(1, totals[c]["voiced"]), 4) for c in totals}

    def train(self, steps, out):
        print("published:", self.evaluate(self.published), flush=True)
        optimiser = torch.optim.Adam(self.net.parameters(), lr=3e-4)
        for step in range(1, steps + 1):
            batch = [self.sample() for _ in range(8)]
            self.net.train()
            salience, logit = self.net(torch.tensor(np.stack([f for f, _ in batch])))
            voicing, bins, cents = self.losses(salience, logit, np.stack([l for _, l in batch]))
            optimiser.zero_grad()
            (voicing + bins + cents).backward()
            optimiser.step()
            if step % 25 == 0:
                print(f"step {step}: voicing {voicing.item():.3f} bins {bins.item():.3f} cents {cents.item():.3f}", flush=True)
            if step % 150 == 0 or step == steps:
                self.net.eval()
                print(f"tuning set at step {step}:", self.evaluate(self.net), flush=True)
        self.net.export(self.tensors, out)
        print(f"{out}: {steps} steps from swiftf0.weights", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=450)
    parser.add_argument("--work", default="/tmp/choir-finetune", help="where the renders go (kept, reused)")
    parser.add_argument("--choir", default=os.path.join(root, ".build", "release", "choir"))
    parser.add_argument("--out", default=os.path.join(here, "swiftf0-accompanied.weights"))
    options = parser.parse_args()
    torch.set_num_threads(1)
    os.makedirs(options.work, exist_ok=True)
    pieces = render_all(options.choir, options.work)
    trainer = Trainer(options.work, pieces, options.choir)
    random.seed(0)
    trainer.train(options.steps, options.out)


main()
