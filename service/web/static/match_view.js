// The match page for a person: times in the viewer's zone, entries new since the last visit, "(n) Your move"
// in the tab title, an optional notification, the dispute dialog, and focus kept across live updates.
(function () {
  "use strict";
  var body = document.body;
  var matchId = body.dataset.matchId;
  if (!matchId) { return; }
  var viewer = body.dataset.viewer || "";
  var seenKey = "turnstream:seen:" + matchId + ":" + (viewer || "spectator");
  var notifyKey = "turnstream:notify";
  var baseTitle = document.title;
  var versionEl = document.getElementById("match-version");

  function version() { return parseInt(versionEl.dataset.matchVersion, 10) || 0; }
  function numberOr(text, fallback) { var n = parseInt(text, 10); return isNaN(n) ? fallback : n; }
  function stored(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } }
  function store(key, value) { try { window.localStorage.setItem(key, value); } catch (e) { /* private mode */ } }

  // -- new since the last visit ----------------------------------------------------------------
  // the last version shown: to this account on any browser (the server's), or on this one (if further on)
  var lastVisit = Math.max(numberOr(stored(seenKey), -1), numberOr(body.dataset.seenVersion, -1));
  var highlightAfter = lastVisit < 0 ? version() : lastVisit;  // a first visit highlights nothing
  var seen = highlightAfter;  // what the viewer has had a chance to see (moves on while the tab is visible)
  var told = lastVisit;  // the version the account was last told of

  // Log entries after `after` that someone else caused. An entry without an actor (the platform's "the match
  // is over", a revealed seed) stamped with the same moment as the entry before it is that move's consequence:
  // it counts as that move's actor's, so the viewer's own finishing move marks nothing new for them.
  function othersEntries(after) {
    var entries = Array.prototype.slice.call(document.querySelectorAll("li[data-event-version]")).reverse();
    var prevActor = "";
    var prevAt = null;
    return entries.filter(function (li) {
      var time = li.querySelector("time[datetime]");
      var at = time ? time.getAttribute("datetime") : null;
      var actor = li.dataset.actor || (at !== null && at === prevAt ? prevActor : "");
      prevActor = actor;
      prevAt = at;
      return parseInt(li.dataset.eventVersion, 10) > after && actor && actor !== viewer;  // moves, not the platform's
    }).reverse();
  }

  function markNew() {
    othersEntries(highlightAfter).forEach(function (li) {
      if (li.classList.contains("is-new")) { return; }
      li.classList.add("is-new");
      var tag = document.createElement("span");
      tag.className = "new-tag";
      tag.textContent = t("new");
      li.insertBefore(tag, li.querySelector(".text"));
    });
  }

  function markSeen() {
    if (document.hidden) { return; }
    seen = version();
    store(seenKey, String(seen));
    tellAccount(seen);
  }

  // A signed-in viewer's account remembers it too, so another browser of theirs shows the same entries as new.
  function tellAccount(v) {
    var csrf = body.dataset.csrf;
    if (!csrf || v <= told) { return; }
    told = v;
    fetch("/matches/" + encodeURIComponent(matchId) + "/act/seen", {
      method: "POST", credentials: "same-origin", keepalive: true,
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}, body: JSON.stringify({version: v})
    }).catch(function () { told = -1; });  // offline: told again with the next version shown
  }

  // -- the tab title and notifications ---------------------------------------------------------
  var wasMyMove = !!document.querySelector("[data-your-turn]");

  function updateTitle() {
    var unseen = document.hidden ? othersEntries(seen).length : 0;
    var mine = !!document.querySelector("[data-your-turn]");
    document.title = (unseen ? "(" + unseen + ") " : "") + (mine ? t("Your move") + " · " : "") + baseTitle;
    if (mine && !wasMyMove) { notify(); }
    wasMyMove = mine;
  }

  function notify() {
    if (!("Notification" in window) || Notification.permission !== "granted" || stored(notifyKey) !== "on") { return; }
    if (!document.hidden) { return; }
    var latest = document.querySelector("li[data-event-version] .text");
    var note = new Notification("Your move in " + (body.dataset.gameTitle || "turnstream"),
                                {body: latest ? latest.textContent : "", tag: "turnstream-" + matchId});
    note.onclick = function () { window.focus(); note.close(); };
  }

  function showNotifyState() {
    var btn = document.getElementById("notify-toggle");
    var state = document.getElementById("notify-state");
    if (!btn || !("Notification" in window)) { return; }
    var on = Notification.permission === "granted" && stored(notifyKey) === "on";
    btn.hidden = Notification.permission === "denied";
    btn.textContent = on ? t("Stop notifications") : t("Notify me when it is my move");
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    state.textContent = Notification.permission === "denied" ? t("Notifications are blocked in this browser.") :
      (on ? t("You will be notified while this tab is in the background.") : "");
  }

  document.addEventListener("click", function (ev) {
    if (ev.target.id !== "notify-toggle") { return; }
    if (stored(notifyKey) === "on" && Notification.permission === "granted") {
      store(notifyKey, "off");
      showNotifyState();
      return;
    }
    Notification.requestPermission().then(function (permission) {
      store(notifyKey, permission === "granted" ? "on" : "off");
      showNotifyState();
    });
  });

  // -- disputes from the log ---------------------------------------------------------------------
  var dialog = document.getElementById("dispute-dialog");
  var opener = null;
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest("[data-dispute-version]");
    if (btn && dialog) {
      opener = btn;
      dialog.querySelector("#dispute-quote").textContent = btn.dataset.quote;
      dialog.querySelector("input[name=version]").value = btn.dataset.disputeVersion;
      dialog.querySelector("textarea[name=reason]").value = "";
      dialog.showModal();
      dialog.querySelector("textarea[name=reason]").focus();
      return;
    }
    if (ev.target.closest("[data-close-dialog]") && dialog) { dialog.close(); }
  });
  if (dialog) {
    dialog.addEventListener("close", function () {
      var again = opener && document.querySelector('[data-dispute-version="' + opener.dataset.disputeVersion + '"]');
      // the message is hidden when it has nothing to say: then the actions take the focus, not the body
      if (!takesFocus(again) && !takesFocus(document.getElementById("message"))) { keepFocus(null); }
    });
  }

  // -- focus kept across live updates -----------------------------------------------------------
  var focusKey = null;
  var restoring = false;  // an update may drop the focus: put it back (on focusKey, else near it)
  function keyOf(el) {
    if (!el || el === document.body) { return null; }
    if (el.id) { return "#" + el.id; }
    if (el.hasAttribute("data-undo-now")) { return "#takeback"; }  // the message's Undo goes with its message
    // the same command is both a board place and a button: a key says which one it was
    var onBoard = el.closest("#board") ? "#board " : (el.closest("#actions-card") ? "#actions-card " : "");
    var attrs = ["data-command", "data-choice", "data-vote", "data-seek", "data-dispute-version"];
    for (var i = 0; i < attrs.length; i++) {
      if (el.hasAttribute(attrs[i])) {
        var sel = "[" + attrs[i] + '="' + CSS.escape(el.getAttribute(attrs[i])) + '"]';
        if (attrs[i] === "data-vote") { sel += '[data-accept="' + el.dataset.accept + '"]'; }
        return onBoard + sel;
      }
    }
    if (onBoard === "#board ") { return "#board"; }
    // a group of actions opened from the keyboard is found again by its kind (not sent to the board)
    var group = el.matches("summary") && el.closest("details[data-kind]");
    if (group) { return '#section-actions details[data-kind="' + CSS.escape(group.dataset.kind) + '"] > summary'; }
    return el.closest("[data-live]") ? "#" + el.closest("[data-live]").id : null;
  }

  // A keyboard action disables its button while it is sent, which drops the focus to the body: remember it.
  var actedFrom = null;
  var sentFrom = null;  // the control of the move in flight, until its answer has come (turnstream:acted)
  document.addEventListener("click", function (ev) {
    var el = ev.target.closest && ev.target.closest("button, [data-command]");
    actedFrom = el && el.closest("[data-live], #actions-card") ? keyOf(el) : null;
  }, true);
  // A move sent from the board keeps the focus on the board; from a button, near the actions (match.js says which).
  document.addEventListener("turnstream:acting", function (ev) {
    var from = ev.detail && ev.detail.from;
    if (!from) { return; }
    actedFrom = sentFrom = keyOf(from);
  });
  // The answer came (the button is enabled again): a focus the disabled button lost and no update brought back
  // (a refused move, or an update that came while the button still had it) goes back to it.
  document.addEventListener("turnstream:acted", function () {
    if (focusLost()) { keepFocus(sentFrom); }
    sentFrom = null;
  });

  // The focus is on nothing a person can see or use: the body, a removed, disabled or hidden control.
  function focusLost() {
    var active = document.activeElement;
    if (!active || active === document.body) { return true; }
    return !active.isConnected || active.matches(":disabled") || !visible(active);
  }

  // On screen: not hidden, nor in a closed group of actions (getClientRects alone says yes to those).
  function visible(el) {
    if (el.checkVisibility) { return el.checkVisibility({visibilityProperty: true}); }
    return el.getClientRects().length > 0 && !el.closest("details:not([open]) > :not(summary)");
  }

  // Focuses `el` if it can take the focus; says whether it did (a hidden or inert element ignores .focus()).
  function takesFocus(el) {
    if (!el || el.matches(":disabled") || !visible(el)) { return false; }
    el.focus();
    return document.activeElement === el;
  }

  // Puts the focus on the control `key` names, else on the first of its fallbacks that can take it.
  function keepFocus(key) {
    [key && document.querySelector(key)].concat(fallbacks(key)).some(takesFocus);
  }

  // Where the focus goes when the control it was on is gone: the board it acted on, else the expected move,
  // else an action, else a group of actions, else the actions' heading, else the board, else the log's heading.
  function fallbacks(key) {
    var board = all("#board [data-command][tabindex], #board [data-choice][tabindex]").concat(byId("board"));
    var actions = all("#section-actions button.action.primary").concat(all("#section-actions button.action"),
      all("#section-actions summary"), heading("actions-title"));
    var last = heading("log-title");
    return key && key.indexOf("#board") === 0 ? board.concat(actions, last) : actions.concat(board, last);
  }

  function all(selector) { return Array.prototype.slice.call(document.querySelectorAll(selector)); }
  function byId(id) { return document.getElementById(id); }

  // A heading the focus may rest on: focusable by script only (tabindex=-1), so it adds no Tab stop.
  function heading(id) {
    var el = byId(id);
    if (el && !el.hasAttribute("tabindex")) { el.tabIndex = -1; }
    return el;
  }

  document.addEventListener("turnstream:before-update", function () {
    var active = document.activeElement;
    var lost = focusLost();
    var inside = !lost && active.closest && active.closest("[data-live], #actions-card, #board");
    // a pressed button, disabled while its move is sent, has lost the focus (or is about to): it is actedFrom
    focusKey = inside ? keyOf(active) : (lost ? actedFrom || sentFrom : null);
    restoring = !!(inside || focusKey);
    actedFrom = null;
  });

  document.addEventListener("turnstream:updated", function () {
    window.turnstream.formatTimes(document);
    window.turnstream.tickCountdowns();
    markNew();
    markSeen();
    updateTitle();
    if (restoring && focusLost()) { keepFocus(focusKey); }
    focusKey = null;
    restoring = false;
  });

  document.addEventListener("visibilitychange", function () { markSeen(); updateTitle(); });

  // -- the log is one stop for Tab: arrow keys move between its entries (a roving tabindex), so the
  // "Dispute this move" of an older move is a few arrow presses away, not a Tab through the whole log ----------
  var CONTROLS = "button, summary, a";
  function entriesShown() {
    return Array.prototype.filter.call(document.querySelectorAll(".log li[data-event-version]"), function (li) {
      return li.getClientRects().length > 0;
    });
  }

  function rove(current) {
    var entries = entriesShown();
    if (!entries.length) { return; }
    current = current && entries.indexOf(current) >= 0 ? current : entries[0];
    document.querySelectorAll(".log li[data-event-version]").forEach(function (li) {
      li.querySelectorAll(CONTROLS).forEach(function (el) {
        if (el.closest("li[data-event-version]") === li) { el.tabIndex = li === current ? 0 : -1; }
      });
    });
  }

  document.addEventListener("focusin", function (ev) {
    var li = ev.target.closest && ev.target.closest(".log li[data-event-version]");
    if (li) { rove(li); }
  });

  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") { return; }
    var li = ev.target.closest && ev.target.closest(".log li[data-event-version]");
    if (!li || ev.target.closest("details.consequences ol")) { return; }
    var entries = entriesShown();
    var next = entries[entries.indexOf(li) + (ev.key === "ArrowDown" ? 1 : -1)];
    if (!next) { return; }
    ev.preventDefault();
    var kind = ev.target.classList.contains("dispute-move") ? ".dispute-move" : "button.seek";
    rove(next);
    (next.querySelector(kind) || next.querySelector("button.seek")).focus();
  });
  document.addEventListener("turnstream:updated", function () {
    var active = document.activeElement;
    rove(active && active.closest ? active.closest(".log li[data-event-version]") : null);
  });
  document.addEventListener("toggle", function (ev) {
    if (ev.target.classList && ev.target.classList.contains("log-round")) {
      var active = document.activeElement;
      rove(active && active.closest ? active.closest(".log li[data-event-version]") : null);
    }
  }, true);

  // -- a table wider than its box (the final standings) says it scrolls sideways --------------------
  function markOverflow() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      wrap.classList.toggle("overflows", wrap.scrollWidth > wrap.clientWidth + 1);
    });
  }
  document.addEventListener("turnstream:updated", markOverflow);
  window.addEventListener("resize", markOverflow);

  // -- chat stays scrolled to the newest message -------------------------------------------------
  function scrollChat() {
    var box = document.getElementById("section-chat");
    if (box) { box.scrollTop = box.scrollHeight; }
  }
  document.addEventListener("turnstream:updated", scrollChat);

  markNew();
  markSeen();
  updateTitle();
  rove(null);
  showNotifyState();
  scrollChat();
  markOverflow();
}());
