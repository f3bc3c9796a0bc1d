// The board's own controls: zoom buttons, keyboard activation of board places, and a place that several
// actions share opening the choice among the matching buttons (match.js sends any [data-command] click).
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board) { return; }
  var LEVELS = [1, 1.5, 2, 3];
  var KEY = "turnstream.boardZoom";

  // -- zoom ----------------------------------------------------------------------------------------
  var tools = document.createElement("div");
  tools.className = "board-tools";
  tools.setAttribute("role", "group");
  tools.setAttribute("aria-label", t("Board zoom"));
  tools.innerHTML = '<button type="button" class="small" data-zoom-step="-1"></button>' +
    '<span class="zoom-level" aria-live="polite"></span>' +
    '<button type="button" class="small" data-zoom-step="1"></button>' +
    '<button type="button" class="small" data-zoom-fit></button>' +
    '<span class="muted small"></span>';
  var zoomOut = tools.querySelector('[data-zoom-step="-1"]');
  zoomOut.textContent = "−";
  zoomOut.setAttribute("aria-label", t("Zoom out"));
  var zoomIn = tools.querySelector('[data-zoom-step="1"]');
  zoomIn.textContent = "+";
  zoomIn.setAttribute("aria-label", t("Zoom in"));
  tools.querySelector("[data-zoom-fit]").textContent = t("Whole board");
  tools.querySelector(".muted.small").textContent = t("Drag or scroll to pan.");
  board.parentNode.insertBefore(tools, board);
  var levelEl = tools.querySelector(".zoom-level");

  function setZoom(level) {
    if (level === "fit") {
      board.dataset.zoom = "fit";
      levelEl.textContent = t("whole");
    } else {
      level = Math.min(Math.max(level, LEVELS[0]), LEVELS[LEVELS.length - 1]);
      delete board.dataset.zoom;
      board.style.setProperty("--board-zoom", String(level));
      levelEl.textContent = Math.round(level * 100) + "%";
    }
    try { window.localStorage.setItem(KEY, String(level)); } catch (e) { /* private mode */ }
  }

  function currentZoom() {
    if (board.dataset.zoom === "fit") { return "fit"; }
    return parseFloat(board.style.getPropertyValue("--board-zoom")) || 1;
  }

  tools.addEventListener("click", function (ev) {
    var step = ev.target.closest("[data-zoom-step]");
    if (step) {
      var now = currentZoom();
      var i = now === "fit" ? -1 : LEVELS.indexOf(now);
      var next = i + parseInt(step.dataset.zoomStep, 10);
      setZoom(LEVELS[Math.min(Math.max(next, 0), LEVELS.length - 1)]);
    } else if (ev.target.closest("[data-zoom-fit]")) {
      setZoom("fit");
    }
  });
  var saved = null;
  try { saved = window.localStorage.getItem(KEY); } catch (e) { saved = null; }
  setZoom(saved === "fit" ? "fit" : (parseFloat(saved) || 1));

  // -- on opening, a board wider or taller than its frame shows the viewer's own piece ----------------
  // (a board marks it with [data-mine]: a ship, a home system); later live updates keep where the player panned
  function showMine() {
    var mine = board.querySelector("[data-mine]");
    if (!mine || (board.scrollWidth <= board.clientWidth && board.scrollHeight <= board.clientHeight)) { return; }
    var frame = board.getBoundingClientRect();
    var spot = mine.getBoundingClientRect();
    var margin = 80;  // the least scroll that shows it with some room around: the header stays in view if it can
    if (spot.right > frame.left + board.clientWidth - margin) {
      board.scrollLeft += spot.right - frame.left - board.clientWidth + margin;
    }
    if (spot.bottom > frame.top + board.clientHeight - margin) {
      board.scrollTop += spot.bottom - frame.top - board.clientHeight + margin;
    }
  }
  showMine();

  // -- a place several actions share: show just those buttons ---------------------------------------
  function actionsBox() { return document.getElementById("section-actions"); }

  function showAll() {
    var box = actionsBox();
    if (!box) { return; }
    box.querySelectorAll("button.action").forEach(function (b) { b.hidden = false; });
    box.querySelectorAll("details.action-group").forEach(function (d) { d.hidden = false; });
    var bar = box.querySelector("[data-action-filter]");
    if (bar) { bar.hidden = true; }
    board.querySelectorAll(".place-chosen").forEach(function (p) { p.classList.remove("place-chosen"); });
  }

  function choose(place) {
    var box = actionsBox();
    if (!box) { return; }
    showAll();
    var key = place.dataset.choice;
    var first = null;
    box.querySelectorAll("details.action-group").forEach(function (group) {
      var any = false;
      group.querySelectorAll("button.action").forEach(function (b) {
        var match = b.dataset.place === key;
        b.hidden = !match;
        if (match) { any = true; if (!first) { first = b; } }
      });
      group.hidden = !any;
      if (any) { group.open = true; }
    });
    place.classList.add("place-chosen");
    var bar = box.querySelector("[data-action-filter]");
    if (bar) {
      var title = place.querySelector("title");
      bar.querySelector("[data-filter-label]").textContent =
        t("Choices for") + " " + (title ? title.textContent : t("this place")) + ":";
      bar.hidden = false;
    }
    if (first) { first.scrollIntoView({block: "nearest"}); first.focus({preventScroll: true}); }
  }

  document.addEventListener("click", function (ev) {
    var place = ev.target.closest && ev.target.closest("#board [data-choice]");
    if (place) { choose(place); return; }
    if (ev.target.closest && ev.target.closest("[data-show-all-actions]")) { showAll(); }
  });

  // -- keyboard: Enter or Space on a focused board place acts like a click --------------------------------
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" && ev.key !== " ") { return; }
    var place = ev.target.closest && ev.target.closest("#board [role=button]");
    if (!place || place !== ev.target) { return; }
    ev.preventDefault();
    place.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));
  });
}());
