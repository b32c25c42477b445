#!/usr/bin/env python3
"""Reading the 29 shared corpus files: choir beside music21 and `xmllint --stream --noout`, in one run.

Prints each tool's median wall time over several runs, the ratios, and choir's peak memory on the largest
file against its budget (5 x the largest file's XML). Needs music21 (pip) and xmllint (libxml2-utils);
`just bench` installs both.
"""
import os, subprocess, sys, tempfile, zipfile

from timing import median_seconds

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "Tests", "Fixtures", "corpus")
files = sorted(os.path.join(corpus, f) for f in os.listdir(corpus) if f.endswith((".mxl", ".xml", ".musicxml")))
choir = os.path.join(root, ".build", "release", "choir")
assert len(files) == 29, files


def peak_kib(command):
    """Peak resident memory of a fresh process, in KiB, measured by a child Python that waits for it."""
    probe = ("import resource,subprocess,sys;subprocess.run(sys.argv[1:],check=True,stdout=subprocess.DEVNULL);"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    return int(subprocess.run([sys.executable, "-c", probe, *command], check=True, capture_output=True,
                              text=True).stdout)


with tempfile.TemporaryDirectory() as unzipped:
    xml_files = []
    for path in files:
        if path.endswith(".mxl"):
            with zipfile.ZipFile(path) as archive:
                container = archive.read("META-INF/container.xml").decode()
                name = container.split('full-path="')[1].split('"')[0]
                target = os.path.join(unzipped, os.path.basename(path) + ".xml")
                with open(target, "wb") as out:
                    out.write(archive.read(name))
                xml_files.append(target)
        else:
            xml_files.append(path)
    largest_xml = max(os.path.getsize(f) for f in xml_files)

    ours = median_seconds([choir, "info", "--json", *files], 15)
    startup = median_seconds([choir, "--version"], 15)
    xmllint = median_seconds(["xmllint", "--stream", "--noout", *xml_files], 15)
    music21_script = ("import sys,music21\n"
                      "for f in sys.argv[1:]: music21.converter.parse(f, forceSource=True)")
    music21 = median_seconds([sys.executable, "-c", music21_script, *files], 3)

    peak = peak_kib([choir, "info", os.path.join(corpus, "beethoven_opus18no1_movement1.mxl")])
    baseline = peak_kib([choir, "--version"])

print("Reading the 29 corpus files (median wall time, whole processes):")
print(f"  choir info --json        {ours * 1000:8.1f} ms   (of which process start {startup * 1000:.1f} ms)")
print(f"  xmllint --stream --noout {xmllint * 1000:8.1f} ms   choir/xmllint = {ours / xmllint:.2f}")
print(f"  music21 converter.parse  {music21 * 1000:8.1f} ms   music21/choir = {music21 / ours:.0f}x")
print(f"Peak memory reading the largest file: {(peak - baseline) / 1024:.1f} MiB above choir's own "
      f"{baseline / 1024:.1f} MiB; budget 5 x {largest_xml / 1024 / 1024:.2f} MiB = {5 * largest_xml / 1024 / 1024:.1f} MiB")
