// The board's own controls: zoom buttons, keyboard activation of board places, a place's words in a caption on tap
// and focus, the arrow keys moving among all places (the board's places one Tab stop), and a place that several
// actions share opening the choice among the matching buttons (match.js sends any [data-command] click).
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board) { return; }
  var LEVELS = [1, 1.5, 2, 3];
  var KEY = "turnstream.boardZoom";

  // -- zoom: only a map pans and zooms (list boards reflow to the page's width) --------------------------
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

  function hasMap() { return !!board.querySelector("[data-map-frame]"); }
  function showTools() { tools.hidden = !hasMap(); }

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
  showTools();

  // -- a map opens on the viewer's own piece ([data-mine]: a ship, a home system), centred in its frame;
  // a live update redraws the map, which then keeps where the player panned
  var panned = null;
  function frame() { return board.querySelector("[data-map-frame]"); }

  function showMine() {
    var box = frame();
    var mine = box && box.querySelector("[data-mine]");
    if (!mine) { return; }
    var outer = box.getBoundingClientRect();
    var spot = mine.getBoundingClientRect();
    var room = 60;  // already in view with some room around: the map stays as drawn
    if (spot.left >= outer.left + room && spot.right <= outer.left + box.clientWidth - room &&
        spot.top >= outer.top + room && spot.bottom <= outer.top + box.clientHeight - room) { return; }
    box.scrollLeft += spot.left + spot.width / 2 - outer.left - box.clientWidth / 2;
    box.scrollTop += spot.top + spot.height / 2 - outer.top - box.clientHeight / 2;
  }

  function keepPan() {
    var box = frame();
    if (!box) { return; }
    if (panned) { box.scrollLeft = panned[0]; box.scrollTop = panned[1]; } else { showMine(); }
    box.addEventListener("scroll", function () { panned = [box.scrollLeft, box.scrollTop]; }, {passive: true});
  }
  keepPan();

  // -- glossary terms are one Tab stop: the list of the board's terms below it (each term still explains itself on
  // hover and tap); a term that is also a place to act on stays a stop as that place
  var terms = document.createElement("details");
  terms.className = "board-terms";
  terms.setAttribute("data-board-terms", "");
  terms.appendChild(document.createElement("summary"));
  terms.appendChild(document.createElement("ul"));
  board.parentNode.insertBefore(terms, board.nextSibling);

  function listTerms() {
    var seen = {};
    var list = terms.querySelector("ul");
    list.textContent = "";
    board.querySelectorAll("[data-tip]").forEach(function (el) {
      if (el.tabIndex >= 0 && !el.matches("[data-command], [data-choice]")) { el.tabIndex = -1; }
      var key = el.dataset.term || el.dataset.tip;
      if (seen[key]) { return; }
      seen[key] = true;
      var item = document.createElement("li");
      var split = el.dataset.tip.indexOf(": ");  // "term: explanation", the term set off
      if (split > 0) {
        var word = document.createElement("dfn");
        word.textContent = el.dataset.tip.slice(0, split);
        item.appendChild(word);
      }
      item.appendChild(document.createTextNode(split > 0 ? el.dataset.tip.slice(split) : el.dataset.tip));
      if (el.dataset.rule) {
        var link = document.createElement("a");
        link.href = el.dataset.rule;
        link.textContent = t("What does this rule say?");
        item.appendChild(document.createTextNode(" "));
        item.appendChild(link);
      }
      list.appendChild(item);
    });
    terms.querySelector("summary").textContent = t("Terms on this board") + " (" + list.children.length + ")";
    terms.hidden = !list.children.length;
  }
  listTerms();
  new MutationObserver(function () { showTools(); keepPan(); reanchorTip(); recaption(); listTerms(); })
    .observe(board, {childList: true});

  // -- terms: their explanation on hover, focus and tap ([data-tip], with a link to the rule) -------------
  var tip = document.createElement("div");
  tip.className = "board-tip";
  tip.id = "board-tip";
  tip.setAttribute("role", "tooltip");
  tip.hidden = true;
  document.body.appendChild(tip);
  var tipFor = null;
  var tipIndex = 0;

  function showTip(el) {
    if (tipFor) { tipFor.removeAttribute("aria-describedby"); }
    tipFor = el;
    tipIndex = Array.prototype.indexOf.call(board.querySelectorAll('[data-term="' + el.dataset.term + '"]'), el);
    tip.textContent = el.dataset.tip;
    if (el.dataset.rule) {
      var link = document.createElement("a");
      link.href = el.dataset.rule;
      link.textContent = t("What does this rule say?");
      tip.appendChild(document.createElement("br"));
      tip.appendChild(link);
    }
    tip.hidden = false;
    el.setAttribute("aria-describedby", "board-tip");
    var r = el.getBoundingClientRect();
    var page = document.documentElement.clientWidth;
    var left = Math.max(8, Math.min(r.left, page - tip.offsetWidth - 8));
    tip.style.left = (left + window.scrollX) + "px";
    tip.style.top = (r.bottom + window.scrollY + 6) + "px";
  }

  // a live update redraws the board: the open tip moves to the same term in the new drawing (or closes)
  function reanchorTip() {
    if (!tipFor || board.contains(tipFor)) { return; }
    var same = board.querySelectorAll('[data-term="' + tipFor.dataset.term + '"]');
    var again = same[Math.min(tipIndex, same.length - 1)];
    if (again) { showTip(again); } else { hideTip(); }
  }

  function hideTip() {
    if (tipFor) { tipFor.removeAttribute("aria-describedby"); }
    tipFor = null;
    tip.hidden = true;
  }

  function termOf(target) { return target.closest && target.closest("#board [data-tip]"); }
  board.addEventListener("mouseover", function (ev) { var el = termOf(ev.target); if (el && el !== tipFor) { showTip(el); } });
  board.addEventListener("mouseout", function (ev) {
    var el = termOf(ev.target);
    if (el && el === tipFor && !el.contains(ev.relatedTarget) && document.activeElement !== el) { hideTip(); }
  });
  board.addEventListener("focusin", function (ev) { var el = termOf(ev.target); if (el) { showTip(el); } });
  board.addEventListener("focusout", function (ev) {
    if (!tip.contains(ev.relatedTarget) && termOf(ev.target) === tipFor) { hideTip(); }
  });
  document.addEventListener("click", function (ev) {
    var el = termOf(ev.target);
    if (el) { if (el === tipFor && ev.pointerType !== "mouse") { return; } showTip(el); return; }
    if (!tip.contains(ev.target)) { hideTip(); }
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape" && tipFor) { hideTip(); } });

  // -- a place's words (its tooltip, the SVG <title>) in a caption under the board on tap and focus: a phone has
  // no hover; a tap on a live place still acts; a tap on empty board or Escape hides it
  var caption = document.createElement("p");
  caption.className = "board-caption";
  caption.setAttribute("data-board-caption", "");
  caption.setAttribute("aria-live", "polite");
  board.parentNode.insertBefore(caption, board.nextSibling);
  var captioned = null;

  // the nearest group with its own <title> around `el` in the board; none for a term (its tip explains it)
  function titledOf(el) {
    for (; el && el !== board && el.matches; el = el.parentNode) {
      if (el.matches("[data-tip]")) { return null; }
      if (el.matches("g") && el.querySelector(":scope > title")) { return el; }
    }
    return null;
  }

  // a place nobody may act on lets a tap through (board.css): a probe that lets it be hit finds it under the finger
  function titledAt(ev) {
    var found = titledOf(ev.target);
    if (found || (!ev.clientX && !ev.clientY)) { return found; }  // a keyboard's click has no point to probe
    board.classList.add("board-probe");
    var under = document.elementsFromPoint(ev.clientX, ev.clientY);
    board.classList.remove("board-probe");
    for (var i = 0; i < under.length && !found; i++) { found = board.contains(under[i]) && titledOf(under[i]); }
    return found || null;
  }

  function showCaption(el) {
    var words = el.querySelector(":scope > title").textContent;
    if (el === captioned && caption.textContent === words) { return; }  // said once, not again on focus then tap
    if (captioned) { captioned.classList.remove("place-shown"); }
    captioned = el;
    el.classList.add("place-shown");
    caption.textContent = "";
    var split = words.indexOf(": ");  // "name: what it does", the name set off
    if (split > 0) {
      var name = document.createElement("strong");
      name.textContent = words.slice(0, split);
      caption.appendChild(name);
    }
    caption.appendChild(document.createTextNode(split > 0 ? words.slice(split) : words));
  }

  function hideCaption() {
    if (captioned) { captioned.classList.remove("place-shown"); }
    captioned = null;
    caption.textContent = "";
  }

  // a live update or a replay redraws the board: the caption follows its place into the new drawing (or closes)
  function recaption() {
    if (!captioned || board.contains(captioned)) { return; }
    var key = captioned.getAttribute("data-place");
    var again = key !== null && board.querySelector('[data-place="' + CSS.escape(key) + '"]');
    if (again && again.querySelector(":scope > title")) { showCaption(again); } else { hideCaption(); }
  }

  document.addEventListener("click", function (ev) {
    if (caption.contains(ev.target)) { hideCaption(); return; }  // a tap on it uncovers what it hid
    if (!board.contains(ev.target) || termOf(ev.target)) { return; }
    var el = titledAt(ev);
    if (el) { showCaption(el); } else { hideCaption(); }
  });
  // a keyboard's focus only: one a press gives would show the caption over the place before the press ends (the
  // click then missing it); its click shows it
  board.addEventListener("focusin", function (ev) {
    var el = ev.target.matches(":focus-visible") && titledOf(ev.target);
    if (el) { showCaption(el); }
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape" && captioned) { hideCaption(); } });

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

  // -- keyboard: Enter or Space on a focused board place acts like a click; on a place nobody may act on it shows
  // its words again (and scrolls nothing) ----------------------------------------------------------------------
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" && ev.key !== " ") { return; }
    var place = ev.target.closest && ev.target.closest("#board [role=button]");
    if (!place || place !== ev.target) {
      if (isPlace(ev.target)) { ev.preventDefault(); showCaption(ev.target); }
      return;
    }
    ev.preventDefault();
    place.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));
  });

  // -- the board's places are one Tab stop (a roving tabindex): the arrow keys move among all of them, those to act
  // on and those that only have words, to the nearest in that direction, Home and End to the first and last; the
  // stop is the place last moved to, else the first to act on, else the board itself ---------------------------
  var roved = null;  // the place holding the board's Tab stop
  var roveFocus = false;  // the focus is on a board place: a redraw puts it back on the same place

  // a place: one to act on ([role=button]) or a group with its own <title> (also its accessible name), not a term
  function isPlace(el) {
    if (!el || !el.matches || el === board || !board.contains(el) || el.closest("[data-tip]")) { return false; }
    return el.matches("[role=button]") || titledOf(el) === el;
  }

  function wordsOf(el) { var title = el.querySelector(":scope > title"); return title ? title.textContent : ""; }

  // every place drawn on screen, in reading order: rows (places that begin above the middle of the lower half of
  // a row's first place), each left to right
  function places() {
    var all = Array.prototype.filter.call(board.querySelectorAll("g, [role=button]"), isPlace).map(function (el) {
      var r = el.getBoundingClientRect();
      return {el: el, r: r, x: r.left + r.width / 2, y: r.top + r.height / 2};
    }).filter(function (p) { return p.r.width > 0 || p.r.height > 0; });
    all.sort(function (a, b) { return a.y - b.y; });
    var rows = [];
    all.forEach(function (p) {
      var row = rows[rows.length - 1];
      if (row && p.r.top < (row[0].y + row[0].r.bottom) / 2) { row.push(p); } else { rows.push([p]); }
    });
    return [].concat.apply([], rows.map(function (row) { return row.sort(function (a, b) { return a.x - b.x; }); }));
  }

  // the place after (before) `from` in reading order for right (left); for down (up) the nearest further that
  // way, one in its column first
  function nearest(list, from, dir) {
    var i = list.findIndex(function (p) { return p.el === from; });
    if (i < 0) { return list[0].el; }  // not drawn (hidden): start over
    var sign = dir[0] + dir[1];
    if (dir[0]) { return list[i + sign] ? list[i + sign].el : null; }
    var a = list[i], best = null, score = Infinity;
    list.forEach(function (b, j) {
      var along = (b.y - a.y) * sign, across = Math.abs(b.x - a.x);
      if (along < -1 || (along <= 1 && (across > 1 || (j - i) * sign <= 0))) { return; }  // one centre: reading order
      var inColumn = b.r.left < a.r.right && b.r.right > a.r.left;
      var s = (inColumn ? 0 : 1e6) + along + (inColumn ? 1 : 2) * across;
      if (s < score) { best = b; score = s; }
    });
    return best && best.el;
  }

  // the board's Tab stop on `place` (none given: the first place to act on; none: the board itself keeps it)
  function rove(place) {
    roved = place || board.querySelector("[role=button]");
    board.querySelectorAll("[role=button], g[tabindex]").forEach(function (el) {
      if (isPlace(el)) { el.tabIndex = el === roved ? 0 : -1; }
    });
    if (roved) { roved.tabIndex = 0; }
  }

  // the caption sticks to the screen's bottom: a place moved to under it scrolls up above it
  function uncover(place) {
    var under = place.getBoundingClientRect().bottom - caption.getBoundingClientRect().top;
    if (under > 0 && caption.textContent) { window.scrollBy(0, under + 8); }
  }

  function moveTo(place) {
    rove(place);
    place.focus();
    uncover(place);
  }

  var MOVES = {ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1]};
  board.addEventListener("keydown", function (ev) {
    var from = isPlace(ev.target) ? ev.target : null;
    if ((!from && ev.target !== board) || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) { return; }
    if (!MOVES[ev.key] && ev.key !== "Home" && ev.key !== "End") { return; }
    var list = places();
    if (!list.length) { return; }
    ev.preventDefault();
    var to = null;
    if (ev.key === "Home" || ev.key === "End") {
      to = list[ev.key === "Home" ? 0 : list.length - 1].el;
    } else {
      to = from ? nearest(list, from, MOVES[ev.key]) : (board.contains(roved) ? roved : list[0].el);
    }
    if (to) { moveTo(to); }
  });

  document.addEventListener("focusin", function (ev) {
    if (roved && !roved.isConnected) { return; }  // a redraw's focus fix-up (match_view.js): rerove() decides
    roveFocus = isPlace(ev.target);
    if (roveFocus && ev.target !== roved) { rove(ev.target); }
  });
  // focus given to nothing (a click on the page) lets the board go; a redraw removing the focused place does not
  // (chromium says focusout just before the removal: the place is still in the page then, no longer after)
  document.addEventListener("focusout", function (ev) {
    if (ev.relatedTarget || !document.hasFocus()) { return; }
    window.queueMicrotask(function () { if (ev.target.isConnected) { roveFocus = false; } });
  });

  // a redraw keeps the Tab stop (and the focus, when it had it) on the same place: its data-place, else its words
  function rerove() {
    if (roved && board.contains(roved)) { return; }
    var old = roved, key = old && old.getAttribute("data-place"), words = old && wordsOf(old);
    var again = old && places().map(function (p) { return p.el; }).filter(function (el) {
      return key !== null ? el.getAttribute("data-place") === key : wordsOf(el) === words;
    })[0];
    rove(again || null);
    var active = document.activeElement;
    if (again && roveFocus && (!active || active === document.body || board.contains(active))) {
      again.focus({preventScroll: true});
    }
  }
  rove(null);
  new MutationObserver(rerove).observe(board, {childList: true});
}());
