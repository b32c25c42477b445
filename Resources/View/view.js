"use strict";
const base = location.pathname;
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
let pages = [], notePlace = new Map(), measureMiddle = new Map();

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
  score = await (await fetch(base + "score.json", { cache: "no-store" })).json();
  document.title = [score.title, score.part, "choir"].filter(Boolean).join(" — ");
  $("#title").textContent = [score.title, score.part].filter(Boolean).join(" — ");
  // Playing without a singer: nothing is judged, and there is no line of theirs to mute or sound.
  $("#accuracy").hidden = !score.judged;
  for (const key of ["m", "p"]) $(`#bar button[data-key="${key}"]`).hidden = !score.part;
  for (const [index, svg] of score.pages.entries()) {
    const page = document.createElement("div");
    page.className = "page";
    page.dataset.page = index + 1;
    page.innerHTML = svg;
    $("#shelf").append(page);
    pages.push(page);
  }
  for (const [staff, layer] of score.mine) {
    for (const note of document.querySelectorAll(`g.staff[data-n="${staff}"] > g.layer[data-n="${layer}"] g.note`)) note.classList.add("mine");
  }
  for (const measure of document.querySelectorAll("g.measure")) {
    measure.addEventListener("click", () => {
      const played = nearestPlaying(measure.id);
      if (played !== undefined) send({ command: "seek", measure: played });
    });
  }
  restoreLayout();
  layout();
  connect();
  requestAnimationFrame(frame);
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
  $("#accuracy").textContent = message.accuracy;
  document.body.dataset.time = message.time.toFixed(3);
  // The paint that shows this message is reported back, so that choir can measure the view's delay.
  requestAnimationFrame(() => setTimeout(() => send({ painted: message.sequence }), 0));
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
}

// Pages: the one the cursor is on fills the stage; once the cursor passes the middle of a page, the top half
// shows the next page's top while the bottom half keeps this one.
function pagesFor(time) {
  const measure = score.measures[playedMeasureAt(time)];
  if (!measure) return [1, 1];
  const page = measure.page, lower = (measureMiddle.get(measure.id) ?? 0) > 0.5;
  return lower && page < pages.length ? [page + 1, page] : [page, page];
}

function showPages(top, bottom) {
  const stage = $("#stage");
  if (stage.dataset.top == top && stage.dataset.bottom == bottom) return;
  for (const page of pages) $("#shelf").append(page);
  if (top === bottom) $("#full").append(pages[top - 1]);
  else { $("#top").append(pages[top - 1]); $("#bottom").append(pages[bottom - 1]); }
  $("#top").hidden = $("#bottom").hidden = top === bottom;
  $("#full").hidden = top !== bottom;
  stage.dataset.top = top;
  stage.dataset.bottom = bottom;
}

function frame() {
  const time = now();
  if (score) {
    $("#stage").dataset.time = time.toFixed(3);
    const [top, bottom] = pagesFor(time);
    showPages(top, bottom);
    moveBall(time);
    drawRoll(time);
    markLyric(time);
  }
  requestAnimationFrame(frame);
}

function moveBall(time) {
  const ball = $("#ball"), note = noteAt(time);
  const element = note && note.id && document.getElementById(note.id);
  const stage = $("#stage").getBoundingClientRect();
  const place = (el) => {
    const head = (el.querySelector(".notehead") || el).getBoundingClientRect();
    const staff = el.closest("g.staff").getBoundingClientRect();
    return head.width ? { x: head.left + head.width / 2 - stage.left, y: staff.top - stage.top } : null;
  };
  const here = element && !$("#shelf").contains(element) && place(element);
  if (!here) { ball.hidden = true; return; }
  const next = score.notes[note.index + 1], nextElement = next && next.id && document.getElementById(next.id);
  const there = nextElement && !$("#shelf").contains(nextElement) && place(nextElement);
  const span = next ? next.onset - note.onset : note.duration;
  const share = Math.max(0, Math.min(1, (time - note.onset) / Math.max(span, 0.05)));
  const glide = there && Math.abs(there.y - here.y) < 5 ? there.x - here.x : 0;
  ball.hidden = false;
  ball.style.left = `${here.x + glide * share}px`;
  ball.style.top = `${here.y - 14 - 36 * Math.sin(Math.PI * share)}px`;
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
  for (const measure of score.measures) {
    g.fillStyle = "#dde2e8";
    g.fillRect(Math.round(x(measure.start)), 0, 1, height);
  }
  for (const note of score.notes) {
    const judged = verdicts.get(note.index);
    g.fillStyle = judged ? score.colours[judged.verdict] : "#9db9e8";
    g.fillRect(x(note.onset), y(note.midi) - lane / 2, Math.max(2, note.duration * perSecond - 2), lane);
  }
  g.fillStyle = "#222";
  for (const [t, midi] of trace) if (t > time - 8 && t <= time + 0.05) g.fillRect(x(t) - 1, y(midi) - 1, 3, 3);
  g.fillStyle = "#e8590c";
  g.fillRect(Math.round(x(time)), 0, 2, height);
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

function showReport(report) {
  for (const [id, accuracy] of report.measures) {
    const measure = document.getElementById(id);
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
    for (const measure of page.querySelectorAll("g.measure")) {
      const staff = measure.getBoundingClientRect();
      if (box.height) measureMiddle.set(measure.id, (staff.top + staff.height / 2 - box.top) / box.height);
    }
  }
}

addEventListener("resize", layout);

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

function press(key) {
  const performing = document.body.classList.contains("performance");
  if (key === "f" && !performing) return performance_(true);
  if (key === "Escape" && performing) return performance_(false);
  if (performing && !transportKeys.has(key)) return;
  if (commands[key]) send(commands[key]);
}

addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.altKey || event.metaKey || event.target.matches("input")) return;
  if (commands[event.key] || event.key === "f" || event.key === "Escape") {
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

load().catch((error) => status(`The view could not load: ${error}`));
