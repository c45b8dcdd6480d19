// The replay page (templates/replay.html): steps, seeks and follows the keys. The board
// after each event is drawn by the server (/replay/<game>/board.svg?...&event=N, kept in
// memory there) and cached here; this script only asks for it, marks the log and writes
// the standing the server sent for each step (data.steps[i].standing). Steps are indexed
// from 0 here; events are numbered from 1 on the page and in its address (event=N). A
// static copy (manoeuvre-sim site) has every board in the page's data instead (data.boards).
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const n = data.n;
  const starts = data.turns.map((t) => t[1]); // the first step of each game turn
  const board = document.getElementById("board");
  const slider = document.getElementById("slider");
  const position = document.getElementById("position");
  const log = document.getElementById("log");
  const items = log.querySelectorAll("li[data-step]");
  const svgs = new Map();
  let cur = data.step;
  let want = cur;
  svgs.set(cur, board.innerHTML);

  function fetchSvg(i) {
    if (svgs.has(i)) return Promise.resolve(svgs.get(i));
    if (data.boards) { // packed: runs [first part, count, ...] of data.parts
      if (i < data.boards.length) {
        const runs = data.boards[i];
        let svg = "";
        for (let j = 0; j < runs.length; j += 2) {
          svg += data.parts.slice(runs[j], runs[j] + runs[j + 1]).join("");
        }
        return Promise.resolve(svg);
      }
      return Promise.reject(new Error("board " + i + " is not in this static copy"));
    }
    return fetch(data.board + "&event=" + (i + 1)).then((r) => {
      if (!r.ok) throw new Error("board " + i + ": HTTP " + r.status);
      return r.text();
    }).then((t) => { svgs.set(i, t); return t; });
  }

  function go(i) {
    i = Math.max(0, Math.min(n - 1, i));
    if (items[cur]) items[cur].classList.remove("current");
    cur = i;
    want = i;
    const li = items[i];
    li.classList.add("current");
    scrollTo(li);
    slider.value = String(i);
    position.textContent = "event " + (i + 1) + " of " + n + ", turn " + data.steps[i].turn;
    showStanding(data.steps[i].standing);
    board.setAttribute("aria-busy", "true");
    fetchSvg(i).then((t) => {
      if (want !== i) return; // a later step was asked for meanwhile
      board.innerHTML = t;
      board.dataset.step = String(i);
      board.removeAttribute("aria-busy");
      if (i + 1 < n) fetchSvg(i + 1).catch(() => {});
    }).catch((e) => { position.textContent += " (" + e.message + ")"; });
    if (data.page) history.replaceState(null, "", data.page + "&event=" + (i + 1));
  }

  function showStanding(st) { // the values as the server gave them (the replay library's)
    if (!st) return;
    document.getElementById("st-turn").textContent = String(st.turn);
    document.getElementById("st-phase").textContent = st.phase;
    document.getElementById("st-active").textContent = st.active;
    st.values.forEach((pair, r) => {
      pair.forEach((v, side) => {
        const cell = document.getElementById("st-" + r + "-" + side);
        if (cell) cell.textContent = String(v);
      });
    });
  }

  function scrollTo(li) { // the current entry in the middle of the log, the page unmoved
    log.scrollTop = li.offsetTop - log.offsetTop - log.clientHeight / 2 + li.clientHeight / 2;
  }

  function turnStart(i) { // the first step of the turn holding step i
    let s = 0;
    for (const t of starts) { if (t <= i) s = t; }
    return s;
  }
  function nextTurn() {
    for (const t of starts) { if (t > cur) return go(t); }
    go(n - 1);
  }
  function prevTurn() {
    const s = turnStart(cur);
    if (s < cur) return go(s);
    go(turnStart(Math.max(0, cur - 1)));
  }

  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("last").addEventListener("click", () => go(n - 1));
  document.getElementById("prev").addEventListener("click", () => go(cur - 1));
  document.getElementById("next").addEventListener("click", () => go(cur + 1));
  document.getElementById("prev-turn").addEventListener("click", prevTurn);
  document.getElementById("next-turn").addEventListener("click", nextTurn);
  slider.addEventListener("input", () => go(parseInt(slider.value, 10)));
  log.addEventListener("click", (e) => {
    const li = e.target.closest("li[data-step]");
    if (li) go(parseInt(li.dataset.step, 10));
  });
  document.addEventListener("keydown", (e) => {
    const tag = (e.target.tagName || "").toLowerCase();
    if ((tag === "input" && e.target !== slider) || tag === "select" || tag === "textarea") return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const k = e.key;
    if (k === "ArrowRight" && e.shiftKey) nextTurn();
    else if (k === "ArrowLeft" && e.shiftKey) prevTurn();
    else if (k === "ArrowRight") go(cur + 1);
    else if (k === "ArrowLeft") go(cur - 1);
    else if (k === "ArrowDown" || k === "PageDown") nextTurn();
    else if (k === "ArrowUp" || k === "PageUp") prevTurn();
    else if (k === "Home") go(0);
    else if (k === "End") go(n - 1);
    else return;
    e.preventDefault();
  });
  board.dataset.step = String(cur);
  if (items[cur]) scrollTo(items[cur]);
})();
