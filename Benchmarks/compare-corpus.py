#!/usr/bin/env python3
"""choir's reading of many scores beside music21's: how many files agree note for note.

    python3 Benchmarks/compare-corpus.py [--choir PATH] [--show N] [FILE_OR_FOLDER...]

Without arguments it reads music21's own corpus (it ships in music21's wheel), less the files choir's tests hold
(Tests/Fixtures/corpus), and the LilyPond MusicXML test suite as LilyPond's repository has it
(Tests/Fixtures/lilypond; music21's wheel has an older copy). On the suite, music21 misreads a few pages on
purpose-built files: Tests/Fixtures/lilypond/reference gives, for those, the notes checked by hand and why, and
LilyPondSuiteTests holds choir to every reference. A file agrees when choir and music21
give the same parts and, in every part, the same notes: (onset, duration, sounding pitch), ties merged, grace
notes left out, in written order; the shape of `../shared/corpus/reference` (this script's reading of the shared
corpus equals it). It is "in step" when the notes agree once music21's measures are moved onto choir's: music21
lays each part's measures end to end by that part's own content, so one part's encoding slip (two whole rests in
one measure, say) delays that part alone for the rest of the piece, where choir keeps every part on the measures
they share. music21's readings are cached in ~/.cache/choir-corpus by content hash. Needs music21 (`just bench`
installs it).
"""
import argparse, collections, hashlib, json, os, re, subprocess, sys
from concurrent.futures import ProcessPoolExecutor

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
cache = os.path.expanduser("~/.cache/choir-corpus")
suffixes = (".mxl", ".xml", ".musicxml")
# Bumped whenever music21_reading changes, so that cached readings are made again.
reading_version = 3


def music21_reading(path):
    """music21's notes per part, as the shared corpus references give them; None when music21 cannot read it."""
    import music21
    try:
        score = music21.converter.parse(path, forceSource=True)
        if not isinstance(score, music21.stream.Score):
            return None
        parts = []
        for part in score.toSoundingPitch().parts:
            notes = []
            part = part.stripTies()
            # Each note also carries its measure's index and music21's start for that measure, so that a
            # comparison can discount music21 laying every part's measures out by that part's content alone.
            measure_starts = {id(m): (index, float(m.offset)) for index, m in enumerate(part.getElementsByClass("Measure"))}
            for element in part.flatten().notes:
                if element.duration.isGrace or isinstance(element, music21.harmony.Harmony):
                    continue
                measure = element.getContextByClass("Measure")
                index, start = measure_starts.get(id(measure), (-1, 0.0))
                for pitch in element.pitches:
                    notes.append([float(element.offset), float(element.quarterLength), float(pitch.ps), index, start])
            # music21 splits a part on several staves into one PartStaff per staff; the reference is per part.
            if isinstance(part, music21.stream.PartStaff) and parts and parts[-1]["staff_of"] == part_of(part):
                parts[-1]["notes"] += notes
            else:
                parts.append({"name": part.partName or "", "notes": notes, "staff_of": part_of(part)})
        return {"parts": parts}
    except Exception as error:  # music21 refuses some files; they are left out, as the reference does.
        return {"refused": f"{type(error).__name__}: {error}"[:200]}


def part_of(part):
    """The MusicXML part a music21 part came from: PartStaffs are named "<part id>-Staff<n>"."""
    return re.sub(r"-Staff\d+$", "", str(part.id)) if isinstance(part, __import__("music21").stream.PartStaff) else id(part)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def cached_reading(path):
    entry = os.path.join(cache, f"{digest(path)}-{reading_version}.json")
    if os.path.exists(entry):
        with open(entry) as f:
            return json.load(f)
    reading = music21_reading(path)
    os.makedirs(cache, exist_ok=True)
    with open(entry, "w") as f:
        json.dump(reading, f)
    return reading


def choir_reading(choir, path):
    result = subprocess.run([choir, "notes", "--json", "--no-repeats", path], capture_output=True, text=True,
                            timeout=120)
    if result.returncode != 0:
        return {"refused": (result.stderr or result.stdout).strip()[:300]}
    return json.loads(result.stdout)


def rows(notes, starts=None):
    """Notes as comparable rows; with `starts` (choir's measure starts), music21's onsets moved onto them."""
    def onset(n):
        return n[0] if starts is None or not 0 <= n[3] < len(starts) else n[0] - n[4] + starts[n[3]]
    return collections.Counter((round(onset(n), 5), round(n[1], 5), round(n[2], 3)) for n in notes)


def checked_reference(path):
    """The notes checked by hand for a file of the suite that music21 misreads, and why; None for the others."""
    entry = os.path.join(os.path.dirname(path), "reference", os.path.basename(path) + ".json")
    if not os.path.exists(entry):
        return None
    with open(entry) as f:
        reference = json.load(f)
    return reference if reference.get("reason") else None


def compare(choir, path):
    theirs = cached_reading(path)
    if theirs is None or "refused" in theirs:
        return path, "skipped", (theirs or {}).get("refused", "not a score")
    ours = choir_reading(choir, path)
    if "refused" in ours:
        return path, "refused", ours["refused"]
    checked = checked_reference(path)
    if checked:
        agrees = [rows(part["notes"]) for part in ours["parts"]] == [rows(part["notes"]) for part in checked["parts"]]
        return path, "checked" if agrees else "differs", "" if agrees else "differs from the notes checked by hand"
    if len(ours["parts"]) != len(theirs["parts"]):
        return path, "differs", f"{len(ours['parts'])} parts, music21 {len(theirs['parts'])}"
    layout_only = False
    for index, (our, their) in enumerate(zip(ours["parts"], theirs["parts"])):
        a, b = rows(our["notes"]), rows(their["notes"])
        if a != b and a == rows(their["notes"], ours["measure_starts"]):
            layout_only = True
        elif a != b:
            only_ours = sorted((a - b).elements())[:3]
            only_theirs = sorted((b - a).elements())[:3]
            return path, "differs", (f"part {index + 1} ({their['name']}): {sum((a - b).values())} ours only "
                                     f"{only_ours}, {sum((b - a).values())} music21 only {only_theirs}")
    return path, "in step" if layout_only else "agrees", ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--choir", default=os.path.join(root, ".build", "release", "choir"))
    parser.add_argument("--show", type=int, default=40, help="disagreements to print")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    args = parser.parse_args()
    groups = {}
    if args.paths:
        for path in args.paths:
            groups.setdefault(path, []).extend(files_under(path))
    else:
        import music21
        base = os.path.dirname(music21.__file__)
        tested = {digest(path) for path in files_under(os.path.join(root, "Tests", "Fixtures", "corpus"))}
        groups["music21 corpus"] = [path for path in files_under(os.path.join(base, "corpus")) if digest(path) not in tested]
        groups["LilyPond test suite"] = files_under(os.path.join(root, "Tests", "Fixtures", "lilypond"))
    with ProcessPoolExecutor(args.jobs) as pool:
        for group, files in groups.items():
            results = list(pool.map(compare, [args.choir] * len(files), files))
            tally = collections.Counter(status for _, status, _ in results)
            read = len(results) - tally["skipped"]
            in_step = tally["agrees"] + tally["in step"]
            # Files whose page music21 misreads are held to the notes checked by hand (Tests/Fixtures/lilypond).
            checked = f"; {tally['checked']} more agree with the notes checked by hand" if tally["checked"] else ""
            print(f"{group}: {tally['agrees']} of {read} agree ({100 * tally['agrees'] / max(read, 1):.1f}%); "
                  f"{in_step} ({100 * in_step / max(read, 1):.1f}%) once music21's part-by-part measure layout is "
                  f"set aside{checked}; {tally['refused']} refused by choir, {tally['skipped']} unread by music21")
            shown = 0
            for path, status, detail in results:
                if status in ("differs", "refused") and shown < args.show:
                    print(f"  {status}: {os.path.relpath(path, os.path.dirname(files[0]) if len(files) else '.')}: {detail}")
                    shown += 1


def files_under(path):
    if os.path.isfile(path):
        return [path]
    return sorted(os.path.join(folder, name) for folder, _, names in os.walk(path) for name in names
                  if name.endswith(suffixes))


if __name__ == "__main__":
    main()
