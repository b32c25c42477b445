"use strict";
const base = location.pathname;
// The singer's line alone, as the split view's second pane shows it: the same session, another engraving.
const alone = new URLSearchParams(location.search).get("only") === "mine";
const $ = (selector) => document.querySelector(selector);
const commands = {
  " ": { command: "pause" }, ArrowLeft: { command: "step", by: -1 }, ArrowRight: { command: "step", by: 1 },
  l: { command: "loop" }, "+": { command: "tempo", by: 5 }, "=": { command: "tempo", by: 5 }, ArrowUp: { command: "tempo", by: 5 },
  "-": { command: "tempo", by: -5 }, ArrowDown: { command: "tempo", by: -5 }, m: { command: "mute" }, p: { command: "prompt" },
  q: { command: "quit" },
};
// In performance mode only these move the music; everything else is ignored.
const transportKeys = new Set([" ", "ArrowLeft", "ArrowRight"]);
let score, socket, clock = { time: 0, at: 0, rate: 0 }, state = null, verdicts = new Map(), trace = [], wakeLock = null;
let pages = [];
// The engraving fits the notation pane: one per pane size, as the server engraves it; each page's systems (their top
// and bottom as shares of its height) and each measure's system; the page the reader turned to, until the music turns.
let engravings = new Map(), engravingSize = "", systems = new Map(), measureSystem = new Map(), turned = null, report = null;
// The singer's highlight (the style sheet's), for the roll.
const mineColour = getComputedStyle(document.documentElement).getPropertyValue("--mine").trim();

function send(message) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(message)); }

function now() {
  const elapsed = (performance.now() - clock.at) / 1000;
  return clock.time + Math.min(elapsed * clock.rate, 0.1);
}

function noteAt(time) {
  let found = 0;
  for (const note of score.notes) if (note.onset <= time + 1e-6) found = note.index;
  return score.notes[found];
}

function playedMeasureAt(time) {
  let found = 0;
  score.measures.forEach((measure, index) => { if (measure.start <= time + 1e-6) found = index; });
  return found;
}

async function load() {
  score = await (await fetch(base + "score.json" + (alone ? "?only=mine" : ""), { cache: "no-store" })).json();
  document.title = [score.title, score.part, "choir"].filter(Boolean).join(" — ");
  $("#title").textContent = [score.title, score.part].filter(Boolean).join(" — ");
  // Playing without a singer: nothing is judged, and there is no line of theirs to mute or sound.
  $("#accuracy").hidden = !score.judged;
  for (const key of ["m", "p"]) $(`#bar button[data-key="${key}"]`).hidden = !score.part;
  showLegend();
  restoreLayout();
  restoreSplit();
  // The engraving at this pane's size; the session's own (A4 portrait) if the server cannot give one.
  install(await engravingFor(paneSize()).catch(() => ({ pages: score.pages })));
  connect();
  requestAnimationFrame(frame);
}

// The notation pane's size as the server engraves to it: in steps of 10 px, within what it takes.
function paneSize() {
  const pane = $("#notation").getBoundingClientRect(), step = (x, low, high) => Math.max(low, Math.min(high, Math.floor(x / 10) * 10));
  return { width: step(pane.width, 300, 4000), height: step(pane.height, 200, 4000) };
}

async function engravingFor(size) {
  const key = `${size.width}x${size.height}`;
  if (!engravings.has(key)) {
    const answer = await fetch(`${base}engraving.json?width=${size.width}&height=${size.height}${alone ? "&only=mine" : ""}`);
    if (!answer.ok) throw new Error(await answer.text());
    if (engravings.size >= 8) engravings.clear();
    engravings.set(key, await answer.json());
  }
  return engravings.get(key);
}

// Puts an engraving's pages on the shelf in place of the last one's, with the singer's lines, the verdicts and the
// report's heat map on them again (the ids are the same in every engraving).
function install(engraving) {
  for (const page of pages) page.remove();
  pages = [];
  for (const [index, svg] of engraving.pages.entries()) {
    const page = document.createElement("div");
    page.className = "page";
    page.dataset.page = index + 1;
    page.innerHTML = svg;
    $("#shelf").append(page);
    pages.push(page);
  }
  if (engraving.measures) for (const measure of score.measures) measure.page = engraving.measures[measure.id] ?? measure.page;
  engravingSize = engraving.width ? `${engraving.width}x${engraving.height}` : "";
  $("#stage").dataset.engraving = engravingSize;
  for (const [staff, layer] of score.mine) {
    for (const note of document.querySelectorAll(`g.staff[data-n="${staff}"] > g.layer[data-n="${layer}"] g.note`)) note.classList.add("mine");
  }
  for (const measure of document.querySelectorAll("g.measure")) {
    measure.addEventListener("click", () => {
      const played = nearestPlaying(measure.id);
      if (played !== undefined) send({ command: "seek", measure: played });
    });
  }
  delete $("#stage").dataset.top;
  layout();
  markMine();
  for (const index of verdicts.keys()) paintVerdict(index);
  if (report) heatMap(report);
  showLoop(state && state.loop);
}

// A highlighter's band behind each of the singer's staves, lyrics included, as high as the staff reaches anywhere
// in its system.
function markMine() {
  for (const system of document.querySelectorAll("g.system")) {
    for (const [n] of score.mine) {
      const staves = [...system.querySelectorAll(`g.staff[data-n="${n}"]`)].filter((staff) => !staff.querySelector(":scope > rect.mine-band"));
      const boxes = staves.map((staff) => staff.getBBox()), top = Math.min(...boxes.map((box) => box.y));
      const bottom = Math.max(...boxes.map((box) => box.y + box.height));
      staves.forEach((staff, index) => {
        const band = document.createElementNS("http://www.w3.org/2000/svg", "rect");
        band.setAttribute("class", "mine-band");
        for (const [key, value] of Object.entries({ x: boxes[index].x, y: top, width: boxes[index].width, height: bottom - top })) band.setAttribute(key, value);
        staff.prepend(band);
      });
    }
  }
}

// Engraves again for the pane's new size once it has kept it for a quarter of a second.
let resizing = 0;
function relayout() {
  layout();
  clearTimeout(resizing);
  resizing = setTimeout(async () => {
    const size = paneSize();
    // Before the first engraving is in, the page's load engraves for the pane as it is then.
    if (!pages.length || `${size.width}x${size.height}` === engravingSize) return;
    try {
      const engraving = await engravingFor(size), latest = paneSize();
      // Resized again meanwhile: the newer size's turn installs its own.
      if (latest.width === size.width && latest.height === size.height) install(engraving);
    } catch (error) {
      status(`Could not lay the score out again: ${error.message}`);
    }
  }, 250);
}

// What each colour and sign on the page means.
function showLegend() {
  const legend = $("#legend"), item = (className, swatch, mark, text) => {
    const span = document.createElement("span"), key = document.createElement("i");
    span.className = className;
    key.style.background = swatch;
    key.textContent = mark;
    span.append(key, text);
    legend.append(span);
  };
  if (score.mine.length) item("mine", "var(--mine)", "", "your line");
  if (score.judged) for (const [verdict, mark] of Object.entries(score.marks)) item(`verdict ${verdict}`, score.colours[verdict], mark, verdict);
}

// A measure played more than once (repeats) is sought where it comes next after the cursor.
function nearestPlaying(id) {
  const at = playedMeasureAt(now());
  const all = score.measures.map((m, i) => (m.id === id ? i : -1)).filter((i) => i >= 0);
  return all.find((i) => i >= at) ?? all[0];
}

function connect() {
  socket = new WebSocket(`ws://${location.host}${base}live`);
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") apply(message);
    else if (message.type === "report") showReport(message);
  };
  // 1013: this tab fell behind and was let go; it joins again and is sent the whole state.
  socket.onclose = (event) => {
    if (event.code === 1013) { status("Catching up…"); setTimeout(connect, 500); return; }
    status(state && state.ended ? "The session has ended." : "choir has closed the view.");
  };
  socket.onopen = () => status("");
}

function status(text) { $("#status").textContent = text; $("#status").hidden = !text; }

function apply(message) {
  state = message;
  clock = { time: message.time, at: performance.now(), rate: score.live && !message.paused && !message.ended ? message.percent / 100 : 0 };
  for (const [index, pass, verdict, said] of message.results) {
    verdicts.set(index, { verdict, said, pass });
    paintVerdict(index);
  }
  for (const point of message.trace) if (!trace.length || point[0] > trace[trace.length - 1][0]) trace.push(point);
  if (trace.length > 4000) trace = trace.slice(-2000);
  $("#where").textContent = message.time < 0 ? "count-in" : `m. ${message.measure}:${message.beat}`;
  $("#tempo").textContent = `♩ = ${message.tempo}` + (message.percent === 100 ? "" : ` (${message.percent}%)`);
  // The engine's words for what differs from playing on, as the terminal shows them.
  const flags = [...message.flags];
  if (message.ended) flags.push("ended");
  $("#flags").textContent = flags.join(", ");
  $('#bar button[data-key=" "]').textContent = message.paused ? "play" : "pause";
  $('#bar button[data-key=" "]').setAttribute("aria-label", message.paused ? "Play" : "Pause");
  $("#accuracy").textContent = message.accuracy;
  if (String(message.loop) !== String(looped)) showLoop(message.loop);
  document.body.dataset.time = message.time.toFixed(3);
  // The paint that shows this message is reported back with its moment on the wall clock (choir's, on this
  // machine), so that choir can measure the view's delay without the report's own trip back.
  requestAnimationFrame(() => setTimeout(() => send({ painted: message.sequence, at: performance.timeOrigin + performance.now() }), 0));
}

function paintVerdict(index) {
  const note = score.notes[index], judged = verdicts.get(index);
  if (!note || !note.id || !judged) return;
  const element = document.getElementById(note.id);
  if (!element) return;
  element.classList.add("judged");
  element.dataset.verdict = judged.verdict;
  element.style.setProperty("--verdict", score.colours[judged.verdict]);
  let title = element.querySelector(":scope > title");
  if (!title) { title = document.createElementNS("http://www.w3.org/2000/svg", "title"); element.prepend(title); }
  title.textContent = judged.said;
  // The verdict's sign over the note, above its stem when the stem goes up.
  let mark = element.querySelector(":scope > text.verdict-mark");
  if (!mark) {
    const head = (element.querySelector(".notehead") || element).getBBox(), stem = element.querySelector(":scope > .stem");
    const top = Math.min(head.y, stem ? stem.getBBox().y : head.y);
    mark = document.createElementNS("http://www.w3.org/2000/svg", "text");
    mark.setAttribute("class", "verdict-mark");
    mark.setAttribute("x", head.x + head.width / 2);
    mark.setAttribute("y", top - head.height * 0.4);
    mark.setAttribute("font-size", head.height * 2);
    element.append(mark);
  }
  mark.textContent = score.marks[judged.verdict];
}

// Pages: the one the cursor is on fills the stage; once the cursor leaves a page's first system, the stage is split
// at the edge of the cursor's system: below, this page from that system on; above, the next page's systems that fit.
// The third number is the cursor's system on its page.
function pagesFor(time) {
  const measure = score.measures[playedMeasureAt(time)];
  if (!measure) return [1, 1, 0];
  const page = measure.page, system = measureSystem.get(measure.id) ?? 0;
  return system > 0 && page < pages.length ? [page + 1, page, system] : [page, page, 0];
}

function showPages(top, bottom, system = 0) {
  const stage = $("#stage");
  if (stage.dataset.top == top && stage.dataset.bottom == bottom && stage.dataset.system == system) return;
  for (const page of pages) $("#shelf").append(page);
  if (top === bottom) $("#full").append(pages[top - 1]);
  else {
    // Split halfway between the cursor's system and the one above it; the next page shows whole systems only.
    const here = systems.get(bottom) || [], next = systems.get(top) || [];
    const split = here[system] ? (here[system - 1].bottom + here[system].top) / 2 : 0.5;
    const fitting = next.filter((s) => s.bottom <= split), after = next[fitting.length];
    const fit = fitting.length ? Math.min(split, after ? (fitting[fitting.length - 1].bottom + after.top) / 2 : split) : 0;
    stage.style.setProperty("--split", split);
    stage.style.setProperty("--fit", fit);
    $("#top").append(pages[top - 1]);
    $("#bottom").append(pages[bottom - 1]);
  }
  $("#top").hidden = $("#bottom").hidden = top === bottom;
  $("#full").hidden = top !== bottom;
  stage.dataset.top = top;
  stage.dataset.bottom = bottom;
  stage.dataset.system = system;
  $("#pageno").textContent = `page ${bottom} of ${pages.length}`;
}

// Turns `by` pages from the one read now; the music takes the stage back when it turns a page itself.
function turnPage(by) {
  if (!score || !pages.length) return;
  const following = pagesFor(now());
  const from = turned ? turned.page : following[1];
  turned = { page: Math.max(1, Math.min(pages.length, from + by)), following: following.join("/") };
}

function frame() {
  const time = now();
  if (score) {
    $("#stage").dataset.time = time.toFixed(3);
    const following = pagesFor(time);
    if (turned && turned.following !== following.join("/")) turned = null;
    // A page turned to stays in sight, if the pane's new engraving has fewer pages, as its last.
    if (turned) showPages(Math.min(turned.page, pages.length), Math.min(turned.page, pages.length));
    else showPages(...following);
    moveBall(time);
    drawRoll(time);
    markLyric(time);
  }
  requestAnimationFrame(frame);
}

// The ball lands on each note's head and bounces to the next one in the same system, never higher than the staff
// above it reaches (its lyrics included), so that it is always seen on the singer's own staff.
function moveBall(time) {
  const ball = $("#ball"), note = noteAt(time);
  const element = note && note.id && document.getElementById(note.id);
  const stage = $("#stage").getBoundingClientRect();
  const place = (el) => {
    const head = (el.querySelector(".notehead") || el).getBoundingClientRect(), staff = el.closest("g.staff");
    const staves = [...staff.parentNode.querySelectorAll(":scope > g.staff")], above = staves[staves.indexOf(staff) - 1];
    const ceiling = above ? above.getBoundingClientRect().bottom : staff.getBoundingClientRect().top - 40;
    return head.width ? { x: head.left + head.width / 2 - stage.left, y: head.top - 9 - stage.top, ceiling: ceiling + 9 - stage.top, system: el.closest("g.system") } : null;
  };
  const here = element && !$("#shelf").contains(element) && place(element);
  if (!here) { ball.hidden = true; return; }
  const next = score.notes[note.index + 1], nextElement = next && next.id && document.getElementById(next.id);
  const there = nextElement && !$("#shelf").contains(nextElement) && place(nextElement);
  const span = next ? next.onset - note.onset : note.duration;
  const share = Math.max(0, Math.min(1, (time - note.onset) / Math.max(span, 0.05)));
  const glide = there && there.system === here.system && there.x > here.x;
  const x = glide ? here.x + (there.x - here.x) * share : here.x, y = glide ? here.y + (there.y - here.y) * share : here.y;
  ball.hidden = false;
  ball.style.left = `${x}px`;
  ball.style.top = `${Math.max(Math.min(y, glide ? Math.max(here.ceiling, there.ceiling) : here.ceiling), y - 36 * Math.sin(Math.PI * share))}px`;
  ball.dataset.note = note.index;
  ball.dataset.id = note.id;
  for (const syllable of document.querySelectorAll("g.syl.now")) syllable.classList.remove("now");
  const verse = element.querySelector(`g.verse[data-n="${score.verse}"] g.syl`) || element.querySelector("g.syl");
  if (verse) verse.classList.add("now");
}

function drawRoll(time) {
  const canvas = $("#roll canvas");
  if ($("#roll").hidden) return;
  const width = canvas.clientWidth, height = canvas.clientHeight, ratio = devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const g = canvas.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  const pitches = score.notes.map((n) => n.midi);
  const low = Math.min(...pitches) - 3, high = Math.max(...pitches) + 3;
  const y = (midi) => height - ((midi - low) / (high - low)) * height;
  const perSecond = width / 10, x = (t) => width * 0.3 + (t - time) * perSecond;
  const lane = Math.max(3, height / (high - low) - 1);
  labelLanes(y, height);
  labelBars(x, width);
  // A faint line along each pitch the line sings, a firmer one at each barline.
  g.fillStyle = "#eef1f5";
  for (const midi of new Set(pitches)) g.fillRect(0, Math.round(y(midi)), width, 1);
  for (const measure of score.measures) {
    g.fillStyle = "#b9c2cd";
    g.fillRect(Math.round(x(measure.start)), 0, 1, height);
  }
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.font = `bold ${Math.min(14, Math.max(9, lane))}px system-ui, sans-serif`;
  for (const note of score.notes) {
    const judged = verdicts.get(note.index), left = x(note.onset), length = Math.max(2, note.duration * perSecond - 2);
    if (left > width || left + length < 0) continue;
    g.fillStyle = judged ? score.colours[judged.verdict] : mineColour;
    g.fillRect(left, y(note.midi) - lane / 2, length, lane);
    if (!judged) {
      g.strokeStyle = "#8d7a1c";
      g.strokeRect(left + 0.5, y(note.midi) - lane / 2 + 0.5, length - 1, lane - 1);
    } else if (length > lane) {
      g.fillStyle = "#fff";
      g.fillText(score.marks[judged.verdict], left + lane / 2 + 1, y(note.midi));
    }
  }
  g.fillStyle = "#222";
  for (const [t, midi] of trace) if (t > time - 8 && t <= time + 0.05) g.fillRect(x(t) - 1, y(midi) - 1, 3, 3);
  g.fillStyle = "#e8590c";
  g.fillRect(Math.round(x(time)), 0, 2, height);
}

// Each pitch the line sings named at its lane's height (as the engine spells it), on the roll's left edge.
function labelLanes(y, height) {
  const lanes = $("#lanes");
  if (lanes.dataset.height === String(height)) return;
  lanes.dataset.height = height;
  lanes.replaceChildren();
  const names = new Map();
  for (const note of score.notes) if (!names.has(note.midi)) names.set(note.midi, note.name);
  for (const [midi, name] of [...names].sort((a, b) => a[0] - b[0])) {
    const label = document.createElement("span");
    label.textContent = name;
    label.dataset.midi = midi;
    label.style.top = `${y(midi)}px`;
    lanes.append(label);
  }
}

// The number of each measure in sight, at its barline.
function labelBars(x, width) {
  const bars = $("#bars"), shown = new Map([...bars.children].map((label) => [label.dataset.measure, label]));
  score.measures.forEach((measure, index) => {
    const left = x(measure.start), key = String(index);
    if (left < 0 || left > width - 20) return;
    let label = shown.get(key);
    if (!label) {
      label = document.createElement("span");
      label.dataset.measure = key;
      label.textContent = measure.number;
      bars.append(label);
    }
    shown.delete(key);
    label.style.left = `${left}px`;
  });
  for (const label of shown.values()) label.remove();
}

function markLyric(time) {
  const pane = $("#lyrics");
  if (!pane.childElementCount && score.lyrics.length) {
    score.lyrics.forEach(([start, text, continues]) => {
      const span = document.createElement("span");
      span.textContent = text + (continues ? "-" : " ");
      span.dataset.start = start;
      span.addEventListener("click", () => send({ command: "seek", measure: playedMeasureAt(start) }));
      pane.append(span);
    });
  }
  let current = null;
  for (const span of pane.children) if (Number(span.dataset.start) <= time + 1e-6) current = span;
  const previous = pane.querySelector("span.now");
  if (previous !== current) {
    if (previous) previous.classList.remove("now");
    if (current) { current.classList.add("now"); current.scrollIntoView({ block: "nearest" }); }
  }
}

function showReport(message) {
  report = message;
  heatMap(report);
  showSummary(report);
}

function heatMap(report) {
  for (const [engraved, accuracy, number] of report.measures) {
    const id = alone ? (score.measures.find((m) => m.number === number) || {}).id : engraved;
    const measure = id && document.getElementById(id);
    if (!measure || measure.querySelector(":scope > rect.heat")) continue;
    const box = measure.getBBox();
    const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    rect.setAttribute("class", "heat");
    for (const [key, value] of Object.entries({ x: box.x, y: box.y, width: box.width, height: box.height })) rect.setAttribute(key, value);
    rect.setAttribute("fill", `hsl(${(120 * accuracy) / 100}, 75%, 50%)`);
    rect.setAttribute("fill-opacity", "0.22");
    rect.dataset.accuracy = accuracy;
    measure.prepend(rect);
  }
}

function showSummary(report) {
  const section = $("#report");
  section.replaceChildren();
  const heading = document.createElement("h2");
  heading.textContent = `Accuracy ${report.accuracy}% (${report.correct} of ${report.notes} notes)`;
  const legend = document.createElement("p");
  legend.className = "legend";
  for (const [verdict, count] of Object.entries(report.verdicts)) {
    if (!count) continue;
    const item = document.createElement("span"), swatch = document.createElement("i");
    swatch.style.background = score.colours[verdict];
    swatch.textContent = score.marks[verdict];
    item.append(swatch, `${verdict} ${count}`);
    legend.append(item);
  }
  section.append(heading, legend);
  if (report.workOn.length) {
    const title = document.createElement("h2"), list = document.createElement("ol");
    title.textContent = "Work on";
    list.id = "workon";
    for (const passage of report.workOn) {
      const item = document.createElement("li"), code = document.createElement("code");
      code.textContent = passage.suggestion;
      item.append(`${passage.summary} — `, code);
      list.append(item);
    }
    section.append(title, list);
  }
  section.hidden = false;
}

// Layout: each pane's share of the height and which panes show, kept in this browser.
function restoreLayout() {
  const saved = JSON.parse(localStorage.getItem("choir.layout") || "{}");
  for (const id of ["notation", "roll", "lyrics"]) $("#" + id).style.flex = `${saved[id] ?? { notation: 6, roll: 2.5, lyrics: 1.5 }[id]} 1 0`;
  for (const box of document.querySelectorAll("input[data-pane]")) {
    box.checked = !(saved.hidden || []).includes(box.dataset.pane);
    box.addEventListener("change", () => { showPanes(); saveLayout(); });
  }
  showPanes();
}

function showPanes() {
  for (const box of document.querySelectorAll("input[data-pane]")) $("#" + box.dataset.pane).hidden = !box.checked;
  for (const divider of document.querySelectorAll(".divider")) divider.hidden = divider.dataset.between.split(" ").some((id) => $("#" + id).hidden);
  layout();
}

function saveLayout() {
  const saved = { hidden: [...document.querySelectorAll("input[data-pane]")].filter((b) => !b.checked).map((b) => b.dataset.pane) };
  for (const id of ["notation", "roll", "lyrics"]) saved[id] = parseFloat($("#" + id).style.flex);
  localStorage.setItem("choir.layout", JSON.stringify(saved));
}

for (const divider of document.querySelectorAll(".divider")) {
  divider.addEventListener("pointerdown", (down) => {
    const [above, below] = divider.dataset.between.split(" ").map((id) => $("#" + id));
    const total = above.getBoundingClientRect().height + below.getBoundingClientRect().height;
    const shares = parseFloat(above.style.flex) + parseFloat(below.style.flex), start = above.getBoundingClientRect().height;
    divider.setPointerCapture(down.pointerId);
    const move = (event) => {
      const height = Math.max(40, Math.min(total - 40, start + event.clientY - down.clientY));
      above.style.flex = `${(shares * height) / total} 1 0`;
      below.style.flex = `${(shares * (total - height)) / total} 1 0`;
      layout();
    };
    divider.addEventListener("pointermove", move);
    divider.addEventListener("pointerup", () => { divider.removeEventListener("pointermove", move); saveLayout(); }, { once: true });
  });
}

// The page is as large as the notation pane allows, in the engraving's proportions.
function layout() {
  const pane = $("#notation").getBoundingClientRect();
  const svg = pages[0] && pages[0].querySelector("svg");
  const aspect = svg ? parseFloat(svg.getAttribute("width")) / parseFloat(svg.getAttribute("height")) : 1500 / 2120;
  const height = Math.max(100, Math.min(pane.height, pane.width / aspect));
  document.body.style.setProperty("--page-width", `${height * aspect}px`);
  document.body.style.setProperty("--page-height", `${height}px`);
  for (const page of pages) {
    const box = page.getBoundingClientRect();
    if (!box.height) continue;
    const found = [...page.querySelectorAll("g.system")].map((system, index) => {
      for (const measure of system.querySelectorAll("g.measure")) measureSystem.set(measure.id, index);
      const edge = system.getBoundingClientRect();
      return { top: (edge.top - box.top) / box.height, bottom: (edge.bottom - box.top) / box.height };
    });
    systems.set(Number(page.dataset.page), found);
  }
  if ($("#stage").dataset.system !== "0") delete $("#stage").dataset.top;
}

// The window, a divider, a pane shown or hidden, the report or performance mode: whatever resizes the notation pane.
new ResizeObserver(relayout).observe($("#notation"));

async function performance_(on) {
  document.body.classList.toggle("performance", on);
  $('#bar button[data-key="f"]').setAttribute("aria-pressed", on);
  layout();
  try {
    if (on && "wakeLock" in navigator) { wakeLock = await navigator.wakeLock.request("screen"); document.body.dataset.wakeLock = "held"; }
    else if (!on && wakeLock) { await wakeLock.release(); wakeLock = null; document.body.dataset.wakeLock = "released"; }
  } catch (error) {
    document.body.dataset.wakeLock = `refused: ${error.name}`;
  }
}

// Turning pages only changes what this tab shows: it works in performance mode too.
const pageKeys = { PageUp: -1, PageDown: 1 };

function press(key) {
  const performing = document.body.classList.contains("performance");
  if (key in pageKeys) return turnPage(pageKeys[key]);
  if (key === "f" && !performing) return performance_(true);
  if (key === "Escape" && performing) return performance_(false);
  if (performing && !transportKeys.has(key)) return;
  if (commands[key]) send(commands[key]);
}

addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey || event.target.matches("input, select")) return;
  if (commands[event.key] || event.key in pageKeys || event.key === "f" || event.key === "Escape") {
    event.preventDefault();
    press(event.key);
  }
});
for (const button of document.querySelectorAll("#bar button")) button.addEventListener("click", () => press(button.dataset.key));
$("#roll canvas").addEventListener("click", (event) => {
  const canvas = event.currentTarget, box = canvas.getBoundingClientRect();
  const time = now() + ((event.clientX - box.left) - box.width * 0.3) / (box.width / 10);
  send({ command: "seek", measure: playedMeasureAt(time) });
});

// A loop of measures, the engine's: chosen by dragging across the score from one measure to another, or by Shift and
// the arrows; shown as a band behind the looped measures, as the session last said it.
let looped = null, dragging = null, dragged = false;

// The measure on the stage under a point (a system's measures do not overlap): the engraving paints only part of a
// measure, so the pointer is matched to its box rather than to what it touches.
function measureAt(x, y) {
  for (const measure of document.querySelectorAll("#stage g.measure")) {
    const box = measure.getBoundingClientRect();
    if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) return measure;
  }
  return null;
}

// Of the places a measure is played (repeats), the one nearest `near`.
function playedNear(id, near) {
  const all = score.measures.map((m, i) => (m.id === id ? i : -1)).filter((i) => i >= 0);
  return all.reduce((best, i) => (Math.abs(i - near) < Math.abs(best - near) ? i : best), all[0]);
}

// Played measures `first` to `last` by printed number: the first from where the music is on (else from the top),
// the last the first of its number from there.
function playedSpan(first, last) {
  const at = playedMeasureAt(now()), numbered = (number, from) => score.measures.findIndex((m, i) => i >= from && m.number === number);
  let from = numbered(first, at);
  if (from < 0) from = numbered(first, 0);
  const to = from < 0 ? -1 : numbered(last, from);
  return from < 0 || to < 0 ? null : [from, to];
}

// Bands behind played measures `span` ([first, last]); `preview` while the pointer is still down.
function band(span, preview) {
  for (const old of document.querySelectorAll(preview ? "rect.loop-band.preview" : "rect.loop-band:not(.preview)")) old.remove();
  if (!span) return;
  const ids = new Set(score.measures.slice(Math.min(...span), Math.max(...span) + 1).map((m) => m.id));
  for (const id of ids) {
    const measure = document.getElementById(id);
    if (!measure) continue;
    const box = measure.getBBox(), rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    rect.setAttribute("class", preview ? "loop-band preview" : "loop-band");
    for (const [key, value] of Object.entries({ x: box.x, y: box.y, width: box.width, height: box.height })) rect.setAttribute(key, value);
    measure.prepend(rect);
  }
}

// The loop as the session says it ([first, last] printed numbers, or null).
function showLoop(loop) {
  looped = loop || null;
  const span = looped && playedSpan(looped[0], looped[1]);
  band(span, false);
  // A loop set otherwise (dragged, the phrase's) is the one the keys move next, and none once it has ended; one the
  // keys set comes back a moment after them, and the keys pressed meanwhile go on from theirs.
  const keyed = selecting && [Math.min(selecting.anchor, selecting.focus), Math.max(selecting.anchor, selecting.focus)];
  if (!span || (selecting && performance.now() - selecting.at > 1000 && String(keyed) !== String(span))) selecting = null;
  $("#stage").dataset.loop = looped ? looped.join("-") : "";
}

$("#stage").addEventListener("pointerdown", (event) => {
  const measure = event.button === 0 && score && measureAt(event.clientX, event.clientY);
  // A drag let go off the score had no click to end it.
  dragged = false;
  if (!measure) return;
  const from = nearestPlaying(measure.id);
  dragging = { from, to: from, x: event.clientX, y: event.clientY, moved: false };
});
$("#stage").addEventListener("pointermove", (event) => {
  if (!dragging) return;
  // Held only once it is a drag: a click keeps its measure as its target (to go there, or mark it).
  if (!dragging.moved && Math.hypot(event.clientX - dragging.x, event.clientY - dragging.y) > 8) {
    dragging.moved = true;
    $("#stage").setPointerCapture(event.pointerId);
  }
  const measure = measureAt(event.clientX, event.clientY);
  if (measure) dragging.to = playedNear(measure.id, dragging.from);
  if (dragging.moved) band([dragging.from, dragging.to], true);
});
$("#stage").addEventListener("pointerup", () => {
  if (!dragging) return;
  const { from, to, moved } = dragging;
  dragging = null;
  band(null, true);
  // A press that did not move is a click: it goes to the measure, as before.
  if (!moved) return;
  dragged = true;
  send({ command: "loop", from: Math.min(from, to), to: Math.max(from, to) });
});
$("#stage").addEventListener("pointercancel", () => { dragging = null; band(null, true); });
// The click that ends a drag does not also go to the measure it ended on.
$("#stage").addEventListener("click", (event) => {
  if (dragged) { event.stopPropagation(); dragged = false; }
}, true);
// By keyboard, as text is selected: Shift+→ and Shift+← move the loop's last measure from its first (from the measure
// playing, without a loop); "l" ends it. Ahead of the arrows' own steps.
let selecting = null;
addEventListener("keydown", (event) => {
  if (!event.shiftKey || event.ctrlKey || event.altKey || event.metaKey || !score || event.target.matches("input, select")) return;
  if ((event.key !== "ArrowLeft" && event.key !== "ArrowRight") || document.body.classList.contains("performance")) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  if (!selecting) {
    const span = looped && playedSpan(looped[0], looped[1]), here = playedMeasureAt(now());
    selecting = span ? { anchor: span[0], focus: span[1] } : { anchor: here, focus: here };
  }
  selecting.at = performance.now();
  selecting.focus = Math.max(0, Math.min(score.measures.length - 1, selecting.focus + (event.key === "ArrowRight" ? 1 : -1)));
  send({ command: "loop", from: Math.min(selecting.anchor, selecting.focus), to: Math.max(selecting.anchor, selecting.focus) });
}, true);

// The split view, chosen on the bar and kept in this browser: the full score beside the singer's line alone (this page
// again, in a frame, following the same session), or the notation beside the roll. Each pane engraves or draws at its
// own width, and follows the session's clock itself.
function restoreSplit() {
  if (alone) {
    document.body.classList.add("embedded");
    return;
  }
  // Without a line of the singer's there is nothing to show alone.
  $('#split option[value="mine"]').disabled = !score.part;
  const saved = localStorage.getItem("choir.split") || "";
  split(saved === "mine" && !score.part ? "" : saved);
}

function split(kind) {
  document.body.classList.toggle("split", kind !== "");
  document.body.classList.toggle("split-mine", kind === "mine");
  document.body.classList.toggle("split-roll", kind === "roll");
  let pane = $("#alone");
  if (kind === "mine" && !pane) {
    pane = document.createElement("iframe");
    pane.id = "alone";
    pane.className = "pane";
    pane.title = "My line alone";
    pane.src = base + "?only=mine";
    $("#notation").after(pane);
  }
  if (kind !== "mine" && pane) pane.remove();
  const roll = $('input[data-pane="roll"]');
  if (kind === "roll" && !roll.checked) {
    roll.checked = true;
    showPanes();
  }
  $("#split").value = kind;
  localStorage.setItem("choir.split", kind);
  layout();
}

$("#split").addEventListener("change", (event) => split(event.target.value));

load().catch((error) => status(`The view could not load: ${error}`));
