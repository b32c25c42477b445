"""choir's engraving: the MusicXML document in the request (a JSON file named by the one argument) laid out by
Verovio in portrait pages (A4's proportions) with staves large enough to read at arm's length, every note tied to
its staff, layer, measure, onset and pitch through Verovio's MEI and time map; the engraving as JSON on stdout.
Run by ChoirView's Engraving, which reads it from choir's resources."""
import json, sys, xml.etree.ElementTree as tree
import verovio

MEI = "{http://www.music-encoding.org/ns/mei}"
ID = "{http://www.w3.org/XML/1998/namespace}id"

with open(sys.argv[1], encoding="utf-8") as file:
    request = json.load(file)
toolkit = verovio.toolkit()
options = {
    "pageWidth": 1500, "pageHeight": 2120, "scale": 50, "adjustPageHeight": False, "xmlIdSeed": 1,
    "footer": "none", "breaks": "auto",
    "svgAdditionalAttribute": ["note@pname", "note@oct", "measure@n", "staff@n", "layer@n", "verse@n"],
}
if request["transpose"]:
    options["transpose"] = "%+d" % request["transpose"]
toolkit.setOptions(options)
if not toolkit.loadData(request["document"]):
    sys.exit("the document is not MusicXML Verovio can read")
pages = [toolkit.renderToSVG(page) for page in range(1, toolkit.getPageCount() + 1)]
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
