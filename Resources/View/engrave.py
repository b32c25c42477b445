"""choir's engraving: the MusicXML document in the request (a JSON file named by the one argument) laid out by
Verovio in pages of the request's size in CSS pixels (else portrait pages in A4's proportions), staves the same size
whatever the page's, every note tied to its staff, layer, measure, onset and pitch through Verovio's MEI and time
map; the engraving as JSON on stdout. With "parts" (MusicXML part ids), those parts alone (a singer's own line beside
the full score). Run by ChoirView's Engraving, which reads it from choir's resources."""
import json, re, sys, xml.etree.ElementTree as tree
import verovio

MEI = "{http://www.music-encoding.org/ns/mei}"
ID = "{http://www.w3.org/XML/1998/namespace}id"

with open(sys.argv[1], encoding="utf-8") as file:
    request = json.load(file)
toolkit = verovio.toolkit()
width, height = request.get("width") or 750, request.get("height") or 1060
options = {
    "adjustPageHeight": False, "shrinkToFit": True, "xmlIdSeed": 1, "footer": "none", "breaks": "auto",
    "svgAdditionalAttribute": ["note@pname", "note@oct", "measure@n", "staff@n", "layer@n", "verse@n"],
}
if request["transpose"]:
    options["transpose"] = "%+d" % request["transpose"]


def lay_out(scale):
    """Pages of the request's size at `scale` (at 50 a page's CSS pixels are half Verovio's units and a staff is
    about 25 px high); how much Verovio shrank the tallest system to fit its page (1: not at all)."""
    toolkit.setOptions(dict(options, scale=scale, pageWidth=width * 100 // scale, pageHeight=height * 100 // scale))
    toolkit.redoLayout()
    pages = [toolkit.renderToSVG(page) for page in range(1, toolkit.getPageCount() + 1)]
    drawn = [float(re.search(r'class="definition-scale"[^>]*viewBox="[^"]* ([0-9.]+)"', page).group(1)) for page in pages]
    return pages, min(1, (height * 100 // scale * 10) / max(drawn))




def only(document, kept):
    """The document with the parts `kept` alone (ElementTree resolves no external entity or DTD)."""
    root = tree.fromstring(document)
    for part in root.findall("part"):
        if part.get("id") not in kept:
            root.remove(part)
    for listing in root.findall("part-list"):
        for part in listing.findall("score-part"):
            if part.get("id") not in kept:
                listing.remove(part)
    return tree.tostring(root, encoding="unicode")


toolkit.setOptions(dict(options, scale=50))
document = only(request["document"], set(request["parts"])) if request.get("parts") else request["document"]
if not toolkit.loadData(document):
    sys.exit("the document is not MusicXML Verovio can read")
# A system taller than the page is laid out again at the scale that fits it, using the page's whole width.
pages, shrunk = lay_out(50)
if shrunk < 0.99:
    pages, _ = lay_out(max(20, int(50 * shrunk)))
onsets = {}
for moment in toolkit.renderToTimemap({"includeMeasures": True, "includeRests": False}):
    for id in moment.get("on", []):
        onsets.setdefault(id, moment["qstamp"])
measures, notes = [], []
for index, measure in enumerate(tree.fromstring(toolkit.getMEI()).iter(MEI + "measure")):
    measures.append({"id": measure.get(ID), "number": measure.get("n", ""), "page": toolkit.getPageWithElement(measure.get(ID))})
    for staff in measure.iter(MEI + "staff"):
        for layer in staff.iter(MEI + "layer"):
            for note in layer.iter(MEI + "note"):
                id = note.get(ID)
                if id in onsets:
                    notes.append({
                        "id": id, "staff": int(staff.get("n")), "layer": int(layer.get("n", "1")), "measure": index,
                        "quarter": onsets[id], "midi": toolkit.getMIDIValuesForElement(id)["pitch"],
                        "page": toolkit.getPageWithElement(id)})
json.dump({"verovio": toolkit.getVersion(), "pages": pages, "measures": measures, "notes": notes}, sys.stdout)
