#!/usr/bin/env python3
"""Writes the reference notes of the LilyPond MusicXML test suite (Tests/Fixtures/lilypond/reference).

    python3 Benchmarks/lilypond-references.py [--check]

Each file's reference is music21's reading of it, in the shape of the shared corpus references (notes only),
and, per part, where music21 starts each measure (`measure_starts`, in quarter notes): rests are left out of the
notes, so a file of rests is held to its measures. Where a reference already there gives a `reason`, it was
checked by hand against the file because music21 does not read the page as a musician does, and is kept. For
those the script prints what music21 reads instead, so that a newer music21 that reads them right shows up. With
--check it writes nothing and says which references differ from music21's reading today. Needs music21 (`just
bench` installs it).
"""
import collections, importlib.util, json, os, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
suite = os.path.join(root, "Tests", "Fixtures", "lilypond")
spec = importlib.util.spec_from_file_location("compare_corpus", os.path.join(root, "Benchmarks", "compare-corpus.py"))
compare_corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare_corpus)


def reading(path):
    """music21's notes per part, as [onset, duration, midi] rows in quarter notes, sorted."""
    theirs = compare_corpus.cached_reading(path)
    if theirs is None or "refused" in theirs:
        return None
    return [{"name": part["name"],
             "notes": sorted([round(n[0], 9), round(n[1], 9), round(n[2], 3)] for n in part["notes"])}
            for part in theirs["parts"]]


def measure_starts(path):
    """music21's measure starts per part (a part on several staves once), in quarter notes."""
    import music21
    score = music21.converter.parse(path, forceSource=True)
    starts, owners = [], []
    for part in score.parts:
        owner = compare_corpus.part_of(part)
        if isinstance(part, music21.stream.PartStaff) and owners and owners[-1] == owner:
            continue
        owners.append(owner)
        starts.append([round(float(m.offset), 9) for m in part.getElementsByClass("Measure")])
    return starts


def rows(parts):
    return [collections.Counter(tuple(note) for note in part["notes"]) for part in parts]


def layout(parts):
    return [(part["name"], part.get("measure_starts")) for part in parts]


def main():
    check = "--check" in sys.argv
    import music21
    source = f"music21 {music21.__version__}"
    os.makedirs(os.path.join(suite, "reference"), exist_ok=True)
    for name in sorted(os.listdir(suite)):
        if not name.endswith((".xml", ".mxl")):
            continue
        target = os.path.join(suite, "reference", name + ".json")
        kept = None
        if os.path.exists(target):
            with open(target) as f:
                kept = json.load(f)
        parts = reading(os.path.join(suite, name))
        if parts is not None:
            for part, starts in zip(parts, measure_starts(os.path.join(suite, name))):
                part["measure_starts"] = starts
        if kept and kept.get("reason"):
            same = parts is not None and rows(parts) == rows(kept["parts"]) and layout(parts) == layout(kept["parts"])
            print(f"{name}: checked by hand; music21 {'now agrees' if same else 'reads it otherwise'}")
            continue
        if parts is None:
            print(f"{name}: music21 cannot read it; write its reference by hand, with a reason")
            continue
        if check:
            if kept is None or rows(kept["parts"]) != rows(parts) or layout(kept["parts"]) != layout(parts):
                print(f"{name}: the reference differs from music21's reading today")
            continue
        with open(target, "w") as f:
            json.dump({"file": name, "source": source, "reason": None, "parts": parts}, f)
            f.write("\n")


if __name__ == "__main__":
    main()
