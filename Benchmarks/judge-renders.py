#!/usr/bin/env python3
"""Every SATB line of the shared corpus's chorales rendered by `choir render` (Choir Aahs, Voice Oohs, Synth Voice,
a violin and a clarinet from the default SoundFont, and Choir Aahs from TimGM6mb) and judged as the take: how many
notes in 100 are called early, late, rushed, dragged or missing (a render is in time by construction), how many
flat, sharp, wrong or octave, and the takes under 95%. Then each key of each voice rendered alone, as a crotchet at
♩ = 120 and as a semibreve, judged without alignment: the samples' own tuning, which the first table inherits.

With --held-out, the lines of the corpus's other sung pieces that choir's learned tracker never trained on (Handel's
aria, Beach's four voices, the four lines of "Lift Every Voice and Sing"; Resources/PitchNet/finetune-swiftf0.py
trained on every chorale's lines, Choir Aahs among its voices), in place of the chorales: the table to weigh
`--tracker` by. Any other option is passed to `choir practice` (e.g. `--tracker auto --accompanied`).

With --shift S, each take is judged again with S seconds of silence before it (cut S seconds from its start when S
is negative), and compared take by take with the take as rendered (judged first, with the same options): how many
score within a point of it, and where the take was aligned.

Usage: Benchmarks/judge-renders.py [CACHE] [--held-out] [--shift S] [PRACTICE OPTIONS]   (renders are kept in CACHE, given first,
default /tmp/choir-renders; run from the project after `just build`)."""
import glob, json, os, subprocess, sys, wave
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHOIR = os.path.join(ROOT, ".build", "release", "choir")
ARGUMENTS = sys.argv[1:]
CACHE = ARGUMENTS.pop(0) if ARGUMENTS and not ARGUMENTS[0].startswith("--") else "/tmp/choir-renders"
HELD_OUT = "--held-out" in ARGUMENTS
SHIFT = float(ARGUMENTS[ARGUMENTS.index("--shift") + 1]) if "--shift" in ARGUMENTS else None
OPTIONS = [a for i, a in enumerate(ARGUMENTS)
           if a not in ("--held-out", "--shift") and not (i and ARGUMENTS[i - 1] == "--shift")]
# Reports judged with other options are kept apart from the default's.
TAG = "".join(ch for ch in "-".join(OPTIONS) if ch.isalnum() or ch == "-")
HELD_OUT_LINES = [("handel_rinaldo_Lascia_chio_pianga.mxl", "Choir Aahs")] + [
    ("beach_prayer_of_a_tired_child.musicxml", part) for part in ["Soprano I", "Soprano II", "Alto I", "Alto II"]] + [
    ("johnson_j_r_lift_every_voice.mxl", part) for part in ["Soprano", "Alto", "Tenor", "Bass"]]
# By name: `--my-instrument` reads a number as General MIDI's, from 1 (Choir Aahs is 53).
VOICES = [("aahs", "Choir Aahs", None), ("oohs", "Voice Oohs", None), ("synth", "Synth Voice", None),
          ("violin", "Violin", None), ("clarinet", "Clarinet", None),
          ("timgm", "Choir Aahs", "/usr/share/sounds/sf2/TimGM6mb.sf2")]
TIMING = {"early", "late", "rushed", "dragged", "missing"}
PITCH = {"flat", "sharp", "wrong", "octave"}


def render(score, part, program, soundfont, wav):
    if not os.path.exists(wav):
        command = [CHOIR, "render", score, "--part", part, "--solo", part, "--my-instrument", str(program), "-o", wav]
        subprocess.run(command + (["--soundfont", soundfont] if soundfont else []), check=True, capture_output=True)


def judge(score, part, wav, report, extra=()):
    subprocess.run([CHOIR, "practice", score, "--part", part, "--input", wav, "--output", "none", "--no-history",
                    "--report", report, *extra, *OPTIONS], check=True, capture_output=True)
    with open(report) as file:
        return json.load(file)["notes"]


def shifted(wav, seconds):
    """The render `wav` with `seconds` of silence before it, or cut as much from its start when negative."""
    path = f"{wav[:-4]}.shift{seconds:+.2f}.wav"
    if not os.path.exists(path):
        with wave.open(wav) as source:
            frames = source.readframes(source.getnframes())
            params, width = source.getparams(), source.getsampwidth() * source.getnchannels()
        count = round(abs(seconds) * params.framerate) * width
        with wave.open(path, "wb") as target:
            target.setparams(params)
            target.writeframes(b"\0" * count + frames if seconds > 0 else frames[count:])
    return path


def judge_line(job):
    score, part, (name, program, soundfont) = job
    base = os.path.join(CACHE, f"{os.path.basename(score)}.{part.replace(' ', '_')}.{name}")
    render(score, part, program, soundfont, base + ".wav")
    judged = judge(score, part, base + ".wav", f"{base}{TAG}.json")
    if SHIFT is None:
        return os.path.basename(score), part, name, judged
    report = f"{base}{TAG}.shift{SHIFT:+.2f}.json"
    moved = judge(score, part, shifted(base + ".wav", SHIFT), report)
    with open(report) as file:
        aligned = json.load(file).get("aligned_s", 0)
    return os.path.basename(score), part, name, judged, moved, aligned


def accuracy(judged):
    return 100 * sum(n["verdict"] == "correct" for n in judged) / len(judged)


def compare_shifted(takes):
    """How the takes moved by SHIFT score against the takes as rendered, voice by voice."""
    print(f"{len(takes)} takes with {SHIFT:+.2f} s {'of silence before them' if SHIFT > 0 else 'cut from their start'}"
          + (f", judged with {' '.join(OPTIONS)}" if OPTIONS else ""))
    for name, _, _ in VOICES:
        mine = [(score, part, accuracy(moved) - accuracy(judged), aligned)
                for score, part, voice, judged, moved, aligned in takes if voice == name]
        within = sum(abs(change) <= 1 + 1e-9 for _, _, change, _ in mine)
        worst = min(mine, key=lambda take: -abs(take[2]))
        found = sorted(aligned for _, _, _, aligned in mine)
        print(f"  {name:9s} within a point: {within} of {len(mine)}; worst {worst[2]:+.1f} ({worst[0]} {worst[1]}); "
              f"aligned by {found[0]:+.2f} to {found[-1]:+.2f} s, median {found[len(found) // 2]:+.2f}")


def keys_score(quarters):
    """A line of every key from C2 to C6, each `quarters` long, a rest after it, at ♩ = 120."""
    steps = ["C", "C", "D", "D", "E", "F", "F", "G", "G", "A", "A", "B"]
    measures = []
    for i, midi in enumerate(range(36, 85)):
        alter = "<alter>1</alter>" if steps[midi % 12] == steps[(midi - 1) % 12] else ""
        head = ('<attributes><divisions>1</divisions><time><beats>8</beats><beat-type>4</beat-type></time></attributes>'
                '<sound tempo="120"/>') if i == 0 else ""
        measures.append(f'<measure number="{i + 1}">{head}<note><pitch><step>{steps[midi % 12]}</step>{alter}'
                        f'<octave>{midi // 12 - 1}</octave></pitch><duration>{quarters}</duration></note>'
                        f'<note><rest/><duration>{8 - quarters}</duration></note></measure>')
    return ('<?xml version="1.0"?><score-partwise version="4.0"><part-list><score-part id="P1"><part-name>Voice'
            f'</part-name></score-part></part-list><part id="P1">{"".join(measures)}</part></score-partwise>')


def main():
    os.makedirs(CACHE, exist_ok=True)
    corpus = os.path.join(ROOT, "..", "shared", "corpus")
    lines = HELD_OUT_LINES if HELD_OUT else [
        (os.path.basename(s), p) for s in sorted(glob.glob(os.path.join(corpus, "bach_*")))
        for p in ["soprano", "alto", "tenor", "bass"]]
    jobs = [(os.path.join(corpus, s), p, v) for s, p in lines for v in VOICES]
    with ThreadPoolExecutor(2) as pool:
        takes = list(pool.map(judge_line, jobs))
    if SHIFT is not None:
        return compare_shifted(takes)
    print(f"{len(takes)} takes ({len(lines)} {'held-out lines' if HELD_OUT else 'chorale lines'}, {len(VOICES)} voices)"
          + (f", judged with {' '.join(OPTIONS)}" if OPTIONS else ""))
    for name, _, _ in VOICES:
        notes = [n for _, _, voice, judged in takes if voice == name for n in judged]
        accuracies = [100 * sum(n["verdict"] == "correct" for n in judged) / len(judged)
                      for _, _, voice, judged in takes if voice == name]
        timing = sum(n["verdict"] in TIMING for n in notes)
        pitch = sum(n["verdict"] in PITCH for n in notes)
        below = sum(a < 95 for a in accuracies)
        print(f"  {name:9s} {len(notes):5d} notes: early/late/missing {100 * timing / len(notes):5.2f} in 100, "
              f"pitch {100 * pitch / len(notes):5.2f} in 100; takes under 95%: {below} of {len(accuracies)}, "
              f"worst {min(accuracies):.1f}%")
    print("Keys whose sample is more than 10 cents off (MIDI: cents), crotchets / semibreves:")
    for name, program, soundfont in VOICES:
        line = []
        for quarters in (1, 4):
            path = os.path.join(CACHE, f"keys{quarters}.musicxml")
            with open(path, "w") as file:
                file.write(keys_score(quarters))
            wav = os.path.join(CACHE, f"keys{quarters}.{name}.wav")
            render(path, "Voice", program, soundfont, wav)
            judged = judge(path, "Voice", wav, f"{wav[:-4]}{TAG}.json", ["--no-align"])
            off = [f"{n['expected_midi']}:{n['median_cents']:+.0f}" for n in judged
                   if n["median_cents"] is not None and abs(n["median_cents"]) > 10]
            line.append(" ".join(off) or "none")
        print(f"  {name:9s} {line[0]} / {line[1]}")


if __name__ == "__main__":
    main()
