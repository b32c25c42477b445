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
function pieceItem(listed) {
  const voicing = listed.voicing || "instruments";
  const extra = listed.accompaniment.length ? " + " + listed.accompaniment.join(", ") : "";
  const minutes = Math.floor(listed.seconds / 60), seconds = String(Math.round(listed.seconds % 60)).padStart(2, "0");
  const open = element("button", { type: "button", class: "open", "aria-label": `Open ${listed.title}` }, "Open");
  open.addEventListener("click", () => openPiece(listed.path));
  const item = element("li", { "data-path": listed.path },
    element("h2", {}, listed.title), open,
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
  $("#pieces").replaceChildren(...body.map(pieceItem));
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
showPlans();
  problem(said.join("\n"));
  if (done.length) $("#message").textContent = done.join("; ");
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  search();
showPlans();
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
// The piece screen: the mix, transposition and tempo as `choir play` takes them, sent to the server whole with each
// request; the session it starts shows in the score view's own page.
let piece = null, session = null;

function pieceProblem(text) {
  $("#piece-error").textContent = text || "";
  $("#piece-error").hidden = !text;
}

/// The piece screen's settings as the server's query: the library path, my lines, each line's volume, mute, solo
/// and instrument where they differ from the piece's own, the transposition and the tempo.
function pieceQuery() {
  const query = new URLSearchParams({ path: piece.path });
  for (const row of document.querySelectorAll("#mixer tbody tr")) {
    const line = row.dataset.line, original = piece.lines.find((l) => l.name === line);
    if (row.querySelector(".mine").checked) query.append("mine", line);
    const volume = row.querySelector(".volume").value;
    if (Number(volume) !== original.volume) query.append("volume", `${line}:${volume}`);
    if (row.querySelector(".mute").checked) query.append("mute", line);
    if (row.querySelector(".solo").checked) query.append("solo", line);
    const instrument = row.querySelector(".instrument").value;
    if (instrument !== original.instrument) query.append("instrument", `${line}:${instrument}`);
  }
  if ($("#transpose").value !== "0") query.set("transpose", $("#transpose").value);
  if ($("#tempo").value !== "100") query.set("tempo", $("#tempo").value);
  if ($("#countin").checked) query.set("countin", "1");
  if (!$("#countin-pitch").checked) query.set("countinpitch", "0");
  if ($("#click").checked) query.set("click", "1");
  if ($("#headphones").checked) query.set("headphones", "1");
  return query;
}

function settingsChanged() {
  $("#tempo-shown").textContent = `${$("#tempo").value}%`;
  $("#download").href = `${base}mix.wav?${pieceQuery()}`;
}

/// Opens the piece at `path`; from a plan, with its item's line as mine, its tempo and transposition, and what the
/// item is said above the mixer.
async function openPiece(path, item) {
  const query = new URLSearchParams({ path });
  if (item) query.set("mine", item.line);
  const answer = await fetch(`${base}piece.json?${query}`, { cache: "no-store" });
  const body = await answer.json();
  if (!answer.ok) {
    problem(body.error);
    return;
  }
  piece = body;
  $("#piece-title").textContent = piece.title;
  $("#mixer tbody").replaceChildren(...piece.lines.map((line) => {
    const named = (what) => ({ "aria-label": `${line.name} ${what}` });
    const mine = element("input", { type: "checkbox", class: "mine", "aria-label": `${line.name} is mine` });
    mine.checked = line.mine;
    const volume = element("input", { type: "range", class: "volume", min: "0", max: "100", step: "1", ...named("volume") });
    volume.value = String(line.volume);
    const instrument = element("select", { class: "instrument", ...named("instrument") },
      ...piece.instruments.map((name) => element("option", {}, name)));
    instrument.value = line.instrument;
    return element("tr", { "data-line": line.name },
      element("th", { scope: "row" }, line.name), element("td", {}, mine), element("td", {}, volume),
      element("td", {}, element("input", { type: "checkbox", class: "mute", "aria-label": `Mute ${line.name}` })),
      element("td", {}, element("input", { type: "checkbox", class: "solo", "aria-label": `Solo ${line.name}` })),
      element("td", {}, instrument));
  }));
  $("#transpose").replaceChildren(...piece.transpositions.map((n) =>
    element("option", { value: String(n) }, n === 0 ? "as written" : `${n > 0 ? "+" : "−"}${Math.abs(n)} semitones`)));
  $("#transpose").value = String(item?.transpose ?? 0);
  $("#tempo").value = String(item?.tempo ?? 100);
  $("#plan-item").textContent = item ? `${item.plan}, item ${item.number}: ${item.summary}${item.notes ? ` — ${item.notes}` : ""}` : "";
  $("#plan-item").hidden = !item;
  settingsChanged();
  pieceProblem("");
  $("#library").hidden = true;
  $("#piece").hidden = false;
  $("#piece-title").focus();
  // Asked for as the piece shows, before anything the singer can press, so that it never ends what they start.
  const held = showScore();
  await progress();
  await held;
}

/// The piece's sessions over time and its marks, as the history keeps them.
async function progress() {
  const answer = await fetch(`${base}progress.json?${new URLSearchParams({ path: piece.path })}`, { cache: "no-store" });
  const body = await answer.json();
  if (!answer.ok) {
    pieceProblem(body.error);
    return;
  }
  $("#sessions tbody").replaceChildren(...body.sessions.map((s) => {
    const bar = element("meter", { min: "0", max: "100", value: String(s.accuracy), "aria-label": `Accuracy of session ${s.id}` });
    return element("tr", { "data-session": String(s.id) },
      element("td", {}, s.date), element("td", {}, s.part), element("td", {}, `♩ = ${s.tempo}`),
      element("td", {}, bar, ` ${s.accuracy.toFixed(1)}%`),
      element("td", {}, s.sung ? `${s.correct} of ${s.notes}` : "nothing sung"));
  }));
  if (!body.sessions.length) $("#sessions tbody").append(element("tr", {}, element("td", { colspan: "5" }, "No sessions yet.")));
  showChanges(body.changes);
  shownMarks = body.marks;
  drawMarks();
  $("#marks").replaceChildren(...body.marks.map(markItem));
  if (!body.marks.length) $("#marks").append(element("li", {}, "No marks yet."));
}

/// A mark as `choir mark list` gives it, with a button that rubs it out.
function markItem(mark) {
  const said = `m. ${mark.measure}${mark.line ? ` (${mark.line})` : ""}: ${mark.text}`;
  const remove = element("button", { type: "button", class: "remove-mark", "aria-label": `Remove the mark ${said}` }, "Remove");
  remove.addEventListener("click", async () => {
    const query = new URLSearchParams({ path: piece.path, id: String(mark.id) });
    const answer = await fetch(`${base}marks/remove?${query}`, { method: "POST" });
    if (!answer.ok) pieceProblem((await answer.json()).error);
    await progress();
  });
  return element("li", { "data-mark": String(mark.id) }, element("span", {}, said), " ", remove);
}

/// Each line's measures that rose or fell in its latest session against the sessions before it, as the engine
/// compares them: a triangle and the words say which way, beside the colour.
function showChanges(changes) {
  const list = (line, kind, sign, items) => element("ul", { class: kind, "aria-label": `${line}: ${kind}` },
    ...items.map((change) => element("li", { "data-measure": change.measure }, element("span", { "aria-hidden": "true" }, sign), ` ${change.summary}`)));
  $("#changes").replaceChildren(...changes.map((line) => {
    const earlier = line.earlier === 1 ? "the session before it" : `the ${line.earlier} sessions before it`;
    const section = element("section", { "data-line": line.part },
      element("h4", {}, `${line.part}: session #${line.latest} (${line.date}) against ${earlier}`));
    if (line.improved.length) section.append(element("p", {}, "Improved"), list(line.part, "improved", "▲", line.improved));
    if (line.slipped.length) section.append(element("p", {}, "Slipped"), list(line.part, "slipped", "▼", line.slipped));
    if (!line.improved.length && !line.slipped.length) section.append(element("p", {}, "No measure rose or fell by 20 points or more."));
    return section;
  }));
  if (!changes.length) $("#changes").append(element("p", {}, "Two sessions of a line are needed to compare."));
}

// Requests that start a session, sent one after another in the order asked: the score held at its start as a
// piece opens must not reach the engine after a drill or take asked for before it was answered, and end it.
let sessionRequests = Promise.resolve();
function inOrder(request) {
  const sent = sessionRequests.then(request, request);
  sessionRequests = sent.catch(() => {});
  return sent;
}

/// Starts what `kind` says (play, take) with the piece's settings; the session's page shows beside.
function start(kind, body, paused) { return inOrder(() => startNow(kind, body, paused)); }

async function startNow(kind, body, paused) {
  const query = pieceQuery();
  if (body) query.set("name", body.name);
  if (paused) query.set("paused", "1");
  const answer = await fetch(`${base}${kind}?${query}`, { method: "POST", body: body || "" });
  const said = await answer.json();
  if (!answer.ok) {
    pieceProblem(said.error);
    return;
  }
  pieceProblem("");
  session = said.session;
  follow(session);
  $("#score").src = `${base}session/${session}/`;
  $("#score").hidden = false;
  $("#pause").disabled = $("#stop").disabled = false;
  $("#session-state").textContent = paused ? "the score, held at its start" : kind === "play" ? "playing" : body ? `judging ${body.name}` : "listening";
}

/// The piece's score as soon as it opens (and again after its starting pitch): its mix held at its start, which
/// the score's page plays, or Play starts anew with the settings as they are then.
function showScore() { return start("play", null, true); }

// The session's own events, beside the score's page: its report means the history has it.
let following = null;
function follow(id) {
  if (following) following.close();
  following = new WebSocket(`ws://${location.host}${base}session/${id}/live`);
  following.addEventListener("message", (event) => {
    if (JSON.parse(event.data).type === "report") progress();
  });
}

// Marks: with "Add a mark" pressed, a click on a measure of the score (or its number typed) and what to remember.
let measures = new Map();

function setMarking(on) {
  $("#marking").setAttribute("aria-pressed", String(on));
  $("#mark-form").hidden = !on;
  if (!on) return;
  $("#mark-measure").value = $("#mark-text").value = "";
  $("#mark-measure").focus();
}

$("#score").addEventListener("load", async () => {
  const frame = $("#score").contentDocument;
  const setup = await (await fetch(`${base}session/${session}/score.json`, { cache: "no-store" })).json();
  measures = new Map(setup.measures.map((m) => [m.id, m.number]));
  watchMarks(frame);
  frame.addEventListener("click", (event) => {
    const measure = event.target.closest && event.target.closest("g.measure");
    if ($("#marking").getAttribute("aria-pressed") !== "true" || !measure || !measures.has(measure.id)) return;
    // The mark is what the click is for: the score's page does not also go there.
    event.stopPropagation();
    event.preventDefault();
    $("#mark-measure").value = measures.get(measure.id);
    $("#mark-text").focus();
  }, true);
});
$("#marking").addEventListener("click", () => setMarking($("#marking").getAttribute("aria-pressed") !== "true"));
$("#mark-cancel").addEventListener("click", () => setMarking(false));
$("#mark-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const query = pieceQuery();
  query.set("measure", $("#mark-measure").value.trim());
  query.set("text", $("#mark-text").value);
  const answer = await fetch(`${base}marks?${query}`, { method: "POST" });
  const body = await answer.json();
  if (!answer.ok) {
    pieceProblem(body.error);
    return;
  }
  pieceProblem("");
  setMarking(false);
  await progress();
});

async function steer(command) {
  if (session !== null) await fetch(`${base}session/${session}/${command}`, { method: "POST" });
}

$("#mixer").addEventListener("input", settingsChanged);
$("#settings").addEventListener("input", settingsChanged);
$("#play").addEventListener("click", () => start("play"));
$("#pause").addEventListener("click", () => steer("pause"));
$("#stop").addEventListener("click", () => steer("stop"));
$("#take").addEventListener("click", () => start("take", $("#take-file").files[0]));
// Learn mode: the engine's drill on a passage (the loop dragged on the score, or measures typed), up a tempo ladder;
// the page shows each pass's session, and the ladder as the engine counts it.
let learnSocket = null, learnShown = null;

/// The loop on the score's page now, as its measures' printed numbers, or null.
function scoreLoop() {
  const stage = $("#score").contentDocument && $("#score").contentDocument.querySelector("#stage");
  const loop = stage && stage.dataset.loop;
  return loop ? loop.split("-") : null;
}

async function startLearning() {
  if (!$("#learn-from").value.trim()) useScoreLoop();
  const query = pieceQuery();
  for (const [name, field] of [["from", "#learn-from"], ["to", "#learn-to"], ["target", "#learn-target"], ["start", "#learn-start"], ["step", "#learn-step"]]) {
    query.set(name, $(field).value.trim());
  }
  // Each take goes ahead of the drill; the drill sings them in order, one a pass.
  for (const file of $("#learn-files").files) {
    const answer = await fetch(`${base}takes?${new URLSearchParams({ name: file.name })}`, { method: "POST", body: file });
    const said = await answer.json();
    if (!answer.ok) return pieceProblem(said.error);
    query.append("take", said.take);
  }
  const answer = await inOrder(() => fetch(`${base}learn?${query}`, { method: "POST" }));
  const said = await answer.json();
  if (!answer.ok) return pieceProblem(said.error);
  pieceProblem("");
  $("#learn-state").textContent = `Learning ${said.passage}…`;
  delete document.body.dataset.learnt;
  learnShown = session;
  $("#pause").disabled = $("#stop").disabled = false;
  if (learnSocket) learnSocket.close();
  // The engine sends the ladder each time it moves on, and the result last.
  learnSocket = new WebSocket(`ws://${location.host}${base}learn/live`);
  learnSocket.onmessage = (event) => showLearning(JSON.parse(event.data));
}

function useScoreLoop() {
  const loop = scoreLoop();
  if (!loop) return pieceProblem("No loop on the score: drag across measures there, or type them");
  pieceProblem("");
  [$("#learn-from").value, $("#learn-to").value] = loop;
}

/// The ladder as the engine has it (`learn.json`, as sent on `learn/live`): each tempo with its passes, and the pass
/// being sung on the score beside.
function showLearning(learning) {
  // Something else started from the page since: the drill has ended with it, and the score stays on that.
  if (session !== learnShown) {
    learnSocket.close();
    return;
  }
  $("#ladder").hidden = !learning.ladder.length;
  $("#ladder tbody").replaceChildren(...learning.ladder.map((step) => element("tr", { "data-tempo": String(step.tempo) },
    element("td", {}, `${step.tempo}%`), element("td", {}, String(step.passes)),
    element("td", {}, step.accuracies.map((a) => `${a}%`).join(", ")),
    element("td", {}, step.reached ? "✓ yes" : "✗ not yet"))));
  const shown = learning.current ? learning.current.session : learning.lastSession;
  if (shown !== null && shown !== session) {
    session = learnShown = shown;
    follow(session);
    $("#score").src = `${base}session/${session}/`;
    $("#score").hidden = false;
  }
  const passes = (n) => (n === 1 ? "1 pass" : `${n} passes`);
  const climbed = learning.ladder.map((step) => `${passes(step.passes)} at ${step.tempo}%`).join(", ");
  let said;
  if (learning.result === "learnt") said = `${learning.passage} learnt: ${climbed}.`;
  else if (learning.result === "moved on") said = `${learning.passage} not yet at ${learning.target}% after ${passes(learning.passes)} (${climbed}).`;
  else if (learning.result) said = `Learning ${learning.passage} stopped: ${learning.result}.`;
  else if (learning.current) said = `${learning.passage}: pass ${learning.current.number} at ${learning.current.tempo}%, until ${learning.target}%.`;
  else said = `Learning ${learning.passage}…`;
  $("#learn-state").textContent = said;
  if (learning.result) {
    learnSocket.close();
    document.body.dataset.learnt = learning.result;
    progress();
  }
}

$("#learn-loop").addEventListener("click", useScoreLoop);
$("#learn-start-button").addEventListener("click", startLearning);

$("#back").addEventListener("click", () => {
  $("#piece").hidden = true;
  $("#library").hidden = false;
  search();
showPlans();
});
search();
showPlans();

// Rehearsal plans, as setlists of the library's pieces: listed, made, reordered, noted and removed through the
// engine's plans (the server answers every change with the plans as they are then); the next item opens its piece.
function plansProblem(text) {
  $("#plans-error").textContent = text || "";
  $("#plans-error").hidden = !text;
}

/// Asks the server for a change to the plans (or for them, with no `change`), and lists them as it answers; the
/// keyboard's focus goes to the first of `focus` (names of controls) that can take it, as on the control pressed.
async function changePlans(change, query, focus = []) {
  const answer = await fetch(`${base}${change || "plans.json"}${query ? `?${new URLSearchParams(query)}` : ""}`,
    change ? { method: "POST" } : { cache: "no-store" });
  const body = await answer.json();
  if (!answer.ok) {
    plansProblem(body.error);
    return false;
  }
  plansProblem("");
  const library = await (await fetch(`${base}library.json`, { cache: "no-store" })).json();
  $("#plan-list").replaceChildren(...body.plans.map((plan) => planItem(plan, library)));
  if (!body.plans.length) $("#plan-list").append(element("li", {}, "No plans yet."));
  const next = focus.map((name) => document.querySelector(`#plans [aria-label="${CSS.escape(name)}"]`)).find((e) => e && !e.disabled);
  if (next) next.focus();
  document.body.dataset.plans = String(Number(document.body.dataset.plans || 0) + 1);
  return true;
}

function showPlans() { return changePlans(); }

function button(label, text, action) {
  const made = element("button", { type: "button", "aria-label": label }, text);
  made.addEventListener("click", action);
  return made;
}

/// One plan: its items in order, each with its notes and the controls to move, note, open and remove it; the next
/// item marked (a sign and words beside the colour); a piece of the library and its line to add.
function planItem(plan, library) {
  const of = (number) => `item ${number} of ${plan.name}`;
  const items = plan.items.map((item, index) => {
    const number = index + 1, next = plan.next === number;
    const notes = element("input", { class: "notes", size: "30", "aria-label": `Notes for ${of(number)}` });
    notes.value = item.notes || "";
    const open = { ...item, plan: plan.name, number };
    return element("li", { "data-item": String(number), class: next ? "next" : "" },
      element("span", { class: "summary" }, next ? "▶ next: " : "", item.summary),
      item.notes ? element("span", { class: "shown-notes" }, ` — ${item.notes}`) : "",
      element("span", { class: "item-controls" },
        item.path ? button(`Open ${of(number)}`, "Open", () => openPiece(item.path, open)) : element("span", {}, "(not in the library)"),
        button(`Move ${of(number)} up`, "↑", () => changePlans("plans/move", { plan: plan.name, item: number, to: number - 1 },
          [`Move ${of(number - 1)} up`, `Move ${of(number - 1)} down`])),
        button(`Move ${of(number)} down`, "↓", () => changePlans("plans/move", { plan: plan.name, item: number, to: number + 1 },
          [`Move ${of(number + 1)} down`, `Move ${of(number + 1)} up`])),
        notes,
        button(`Save the notes for ${of(number)}`, "Save notes", () => changePlans("plans/notes", { plan: plan.name, item: number, text: notes.value },
          [`Save the notes for ${of(number)}`])),
        button(`Remove ${of(number)}`, "Remove", () => changePlans("plans/remove", { plan: plan.name, item: number },
          [`Remove ${of(number)}`, `Remove ${of(number - 1)}`, `Add to ${plan.name}`]))));
  });
  for (const [index, control] of items.entries()) {
    const [up, down] = control.querySelectorAll("button[aria-label^='Move']");
    up.disabled = index === 0;
    down.disabled = index === items.length - 1;
  }
  const piece = element("select", { class: "plan-piece", "aria-label": `Piece to add to ${plan.name}` },
    ...library.map((listed) => element("option", { value: listed.path }, listed.title)));
  const line = element("select", { class: "plan-line", "aria-label": `Line to add to ${plan.name}` });
  const lines = () => {
    const chosen = library.find((listed) => listed.path === piece.value);
    line.replaceChildren(...(chosen ? chosen.lines.map((l) => element("option", {}, l.name)) : []));
  };
  piece.addEventListener("change", lines);
  lines();
  const nextItem = plan.items[plan.next - 1];
  return element("li", { "data-plan": plan.name },
    element("h3", {}, plan.name),
    nextItem?.path ? button(`Open the next piece of ${plan.name}`, `Open next: ${nextItem.title} (${nextItem.line})`,
      () => openPiece(nextItem.path, { ...nextItem, plan: plan.name, number: plan.next })) : "",
    button(`Remove the plan ${plan.name}`, "Remove plan", () => changePlans("plans/remove", { plan: plan.name })),
    items.length ? element("ol", { class: "items", "aria-label": `Items of ${plan.name}` }, ...items) : element("p", {}, "No items yet."),
    element("div", { class: "add-item" }, piece, line,
      button(`Add to ${plan.name}`, "Add to the plan", () => changePlans("plans/item", { plan: plan.name, path: piece.value, part: line.value },
        [`Add to ${plan.name}`]))));
}

$("#new-plan").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("#plan-name").value.trim();
  if (await changePlans("plans", { name }, [`Piece to add to ${name}`])) $("#plan-name").value = "";
});

// The starting pitch: my lines' first notes through the engine's synthesizer, one after another, said as they are
// sent; the score on the page stays as it is.
async function startingPitch() {
  const answer = await inOrder(() => fetch(`${base}pitch?${pieceQuery()}`, { method: "POST" }));
  const said = await answer.json();
  if (!answer.ok) {
    pieceProblem(said.error);
    return;
  }
  pieceProblem("");
  const sounding = session = said.session;
  $("#pause").disabled = $("#stop").disabled = false;
  $("#session-state").textContent = `Starting pitch: ${said.notes.map((n) => `${n.line} ${n.note}`).join(", then ")}`;
  // The score comes back once the notes have sounded, unless something else has started meanwhile.
  const seconds = Math.max(0, ...said.notes.map((n) => n.start + n.seconds));
  setTimeout(() => { if (session === sounding && !$("#piece").hidden) showScore(); }, seconds * 1000 + 300);
}

$("#starting-pitch").addEventListener("click", startingPitch);

// The piece's marks drawn on the score's engraving, at their measures: a pencil, the measure and the words (the
// words tell what it is, not a colour), on every engraving the score's page installs (a resize lays it out anew).
let shownMarks = [];
function drawMarks() {
  const frame = $("#score").contentDocument;
  if (!frame || !measures.size) return;
  const svg = "http://www.w3.org/2000/svg";
  for (const [id, number] of measures) {
    const measure = frame.getElementById(id);
    if (!measure) continue;
    const here = shownMarks.filter((mark) => mark.measure === number);
    const drawn = [...measure.querySelectorAll(":scope > g.practice-mark")];
    if (drawn.map((g) => g.dataset.mark).join() === here.map((mark) => String(mark.id)).join()) continue;
    drawn.forEach((g) => g.remove());
    const staff = measure.querySelector("g.staff") || measure, box = staff.getBBox(), size = box.height * 0.45;
    here.forEach((mark, index) => {
      const group = frame.createElementNS(svg, "g"), text = frame.createElementNS(svg, "text"), title = frame.createElementNS(svg, "title");
      group.setAttribute("class", "practice-mark");
      group.dataset.mark = String(mark.id);
      title.textContent = `Mark at m. ${mark.measure}${mark.line ? ` (${mark.line})` : ""}: ${mark.text}`;
      text.setAttribute("x", box.x);
      text.setAttribute("y", box.y - size * (0.4 + 1.1 * index));
      text.setAttribute("font-size", size);
      text.setAttribute("fill", "#6b4fa0");
      text.setAttribute("font-style", "italic");
      text.textContent = `✎ ${mark.text}`;
      group.append(title, text);
      measure.append(group);
    });
  }
}

/// Draws the marks again whenever the score's page puts new pages on its shelf or stage.
function watchMarks(frame) {
  const observer = new MutationObserver(drawMarks);
  for (const selector of ["#shelf", "#full", "#top", "#bottom"]) {
    const node = frame.querySelector(selector);
    if (node) observer.observe(node, { childList: true });
  }
  drawMarks();
}
