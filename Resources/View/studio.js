// choir studio: a front end on the engine's calls, served by choir itself. It lists what the server finds and
// sends what the singer brings; every figure it shows comes from the server.
"use strict";

const base = location.pathname;
const $ = (selector) => document.querySelector(selector);
const form = $("#search");

/// Shows the server's one-line error, or clears it.
function problem(text) {
  $("#error").textContent = text || "";
  $("#error").hidden = !text;
}

function element(tag, attributes, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
  for (const child of children) made.append(child);
  return made;
}

/// One piece as `choir library list` describes it: title, composer, voicing, key, length and each line's range.
function piece(listed) {
  const voicing = listed.voicing || "instruments";
  const extra = listed.accompaniment.length ? " + " + listed.accompaniment.join(", ") : "";
  const minutes = Math.floor(listed.seconds / 60), seconds = String(Math.round(listed.seconds % 60)).padStart(2, "0");
  const item = element("li", { "data-path": listed.path },
    element("h2", {}, listed.title),
    listed.composer ? element("span", { class: "composer" }, listed.composer) : "",
    element("p", { class: "facts" }, `${voicing}${extra} · ${listed.key} · ${listed.measures} measures · ${minutes}:${seconds}`),
    element("p", { class: "ranges" }, ...listed.lines.map((line) =>
      element("span", { class: "range", "data-line": line.name }, `${line.name} ${line.lowest}–${line.highest}`))));
  if (listed.last_practised) {
    const last = listed.last_practised;
    item.append(element("p", { class: "facts" }, `last practised ${last.date} (${last.part}, ${last.accuracy_pct.toFixed(1)}%)`));
  }
  return item;
}

let asked = 0;
/// Asks the server for the pieces the form describes (the same search as `choir library search`).
async function search() {
  const query = new URLSearchParams();
  for (const name of ["text", "voicing", "part", "lowest", "highest"]) {
    const value = form.elements[name].value.trim();
    if (value) query.append(name, value);
  }
  const mine = ++asked;
  const answer = await fetch(`${base}library.json?${query}`, { cache: "no-store" });
  const body = await answer.json();
  if (mine !== asked) return;
  document.body.dataset.answered = String(mine);
  if (!answer.ok) {
    problem(body.error);
    return;
  }
  problem("");
  $("#pieces").replaceChildren(...body.map(piece));
  $("#message").textContent = body.length === 1 ? "1 piece" : `${body.length} pieces`;
  if (mine === 1) performance.mark("listed"); // The library's first paint, for the tests' figure.
}

/// Sends each file to the library, one at a time; a file choir cannot read is said in the reader's words.
async function add(files) {
  const said = [], done = [];
  for (const file of files) {
    const answer = await fetch(`${base}library?name=${encodeURIComponent(file.name)}`, { method: "POST", body: file });
    const body = await answer.json();
    if (answer.ok) done.push(`${body.change} ${body.piece.title}`);
    else said.push(body.error);
  }
  await search();
  problem(said.join("\n"));
  if (done.length) $("#message").textContent = done.join("; ");
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  search();
});
let typing;
form.addEventListener("input", () => {
  clearTimeout(typing);
  typing = setTimeout(search, 250);
});
$("#files").addEventListener("change", (event) => {
  add([...event.target.files]);
  event.target.value = "";
});
document.addEventListener("dragover", (event) => {
  event.preventDefault();
  document.body.classList.add("dragging");
});
document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
document.addEventListener("drop", (event) => {
  event.preventDefault();
  document.body.classList.remove("dragging");
  add([...event.dataTransfer.files]);
});
search();
