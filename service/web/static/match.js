// The match page: live updates over SSE, legal-action buttons, replay slider, take-back and disputes.
(function () {
  "use strict";
  var body = document.body;
  var matchId = body.dataset.matchId;
  if (!matchId) { return; }
  var csrf = body.dataset.csrf || "";
  // a refused sign-in answers the form's POST with this page: its address becomes the match's, so a reload or a
  // shared link reads the match instead of sending the form again
  if (location.pathname === "/signin" && document.querySelector("[data-sign-in-refusal]") && window.history.replaceState) {
    window.history.replaceState(null, "", "/matches/" + encodeURIComponent(matchId));
  }
  var versionEl = document.getElementById("match-version");
  var boardEl = document.getElementById("board");
  var slider = document.getElementById("replay-slider");
  var sliderOut = document.getElementById("replay-output");
  var liveBtn = document.getElementById("replay-live");
  var badge = document.getElementById("replay-badge");
  var messageEl = document.getElementById("message");
  var indicator = document.getElementById("live-indicator");
  var replaying = false;
  var wanted = null;  // the version the viewer asked to see; null while following live
  var liveBoard = null;
  var refreshTimer = null;
  var refreshing = false;
  var refreshAgain = false;

  function currentVersion() { return parseInt(versionEl.dataset.matchVersion, 10) || 0; }

  function say(text, kind) {
    if (kind !== "error") { delete messageEl.dataset.rule; }
    messageEl.textContent = text;
    messageEl.className = "flash " + (kind || "");
    messageEl.hidden = !text;
  }

  function setVersion(v) {
    versionEl.dataset.matchVersion = String(v);
    versionEl.textContent = String(v);
    slider.max = String(Math.max(v, 1));
    if (!replaying && wanted === null) { slider.value = String(v); sliderOut.textContent = "v" + v; }
    var disputeVersion = document.querySelector("#dispute-form input[name=version]");
    if (disputeVersion) {
      if (disputeVersion.value === disputeVersion.max) { disputeVersion.value = String(v); }
      disputeVersion.max = String(v);
    }
  }

  var NOT_STARTED = ["invited", "open", "cancelled"];
  function started() { return NOT_STARTED.indexOf(body.dataset.matchStatus) < 0; }

  // The match's status from a live update: the board appears when the match starts, and the controls
  // of a running match (take-back, notifications) go when it ends.
  function setStatus(status) {
    if (!status) { return; }
    body.dataset.matchStatus = status;
    var card = document.querySelector(".board-card");
    if (card) { card.classList.toggle("not-started", !started()); }
    if (status === "finished" || status === "cancelled") {
      document.querySelectorAll("[data-while-running]").forEach(function (el) { el.remove(); });
    }
  }

  // "Take back my last move" exactly when the take-back policy allows it: the server marks the actions it renders.
  function updateTakeback() {
    var row = document.querySelector("[data-undo-row]");
    if (!row) { return; }
    row.hidden = !(body.dataset.matchStatus === "active" && document.querySelector("#section-actions [data-can-take-back]"));
  }

  // New markup for a live section; the groups of actions the player had opened stay open.
  function replaceKeepingOpen(el, html) {
    var open = Array.prototype.map.call(el.querySelectorAll("details[data-kind][open]"), function (d) { return d.dataset.kind; });
    el.innerHTML = html;
    open.forEach(function (kind) {
      var again = el.querySelector('details[data-kind="' + CSS.escape(kind) + '"]');
      if (again) { again.open = true; }
    });
  }

  function applyLive(data) {
    // an update of the version shown changes nothing (the answer to one's own move and the live message both
    // bring it): applying it again would fold the group of actions the player just opened
    if (data.version <= currentVersion() && started()) { return; }
    document.dispatchEvent(new CustomEvent("turnstream:before-update"));
    setStatus(data.status);
    Object.keys(data.html).forEach(function (key) {
      if (key === "board") {
        if (!started()) { return; }
        liveBoard = data.html.board;
        if (!replaying) { boardEl.innerHTML = liveBoard; boardEl.dataset.boardVersion = String(data.version); }
        return;
      }
      var el = document.querySelector('[data-live="' + key + '"]');
      if (el) { replaceKeepingOpen(el, data.html[key]); }
    });
    setVersion(data.version);
    updateTakeback();
    offerUndo();
    document.dispatchEvent(new CustomEvent("turnstream:updated", {detail: {version: data.version}}));
  }

  function refresh() {
    if (refreshing) { refreshAgain = true; return; }
    refreshing = true;
    fetch("/matches/" + encodeURIComponent(matchId) + "/live", {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) { applyLive(data); } })
      .catch(function () { say(t("Could not refresh the match; retrying…"), "error"); })
      .then(function () {
        refreshing = false;
        if (refreshAgain) { refreshAgain = false; refresh(); }
      });
  }

  function scheduleRefresh() {
    if (refreshTimer) { return; }
    refreshTimer = setTimeout(function () { refreshTimer = null; refresh(); }, 30);
  }

  // The refusal in words; the rule id stays out of the sentence (it is kept in data-rule for support).
  function errorText(err) {
    messageEl.dataset.rule = (err && err.error && err.error.rule) || "";
    if (!err || !err.error) { return t("The request failed."); }
    var text = err.error.message || err.error.code || t("The request was refused.");
    text = text.charAt(0).toUpperCase() + text.slice(1);
    return /[.!?]$/.test(text) ? text : text + ".";
  }

  // A refusal citing one of this game's rules links that rule on the game's rules page.
  function linkRule(err) {
    var rule = (err && err.error && err.error.rule) || "";
    var prefix = (body.dataset.gameId || "") + ":";
    if (!body.dataset.rulesUrl || rule.indexOf(prefix) !== 0) { return; }
    var link = document.createElement("a");
    link.href = body.dataset.rulesUrl + "#rule-" + rule.slice(prefix.length);
    link.textContent = body.dataset.ruleLinkText || t("What does this rule say?");
    link.setAttribute("data-rule-link", rule);
    messageEl.appendChild(document.createTextNode(" "));
    messageEl.appendChild(link);
  }

  function act(path, payload, done) {
    return fetch("/matches/" + encodeURIComponent(matchId) + "/act/" + path, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
      body: JSON.stringify(payload)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) { say(errorText(data), "error"); linkRule(data); return; }
        say(done, "ok");
        refresh();
      });
    }).catch(function () { say(t("The server could not be reached."), "error"); });
  }

  function commandId() {
    var a = new Uint32Array(2);
    window.crypto.getRandomValues(a);
    return "page-" + a[0].toString(36) + a[1].toString(36);
  }

  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest("[data-command]");
    if (btn && replaying) {
      say(t("You are looking at an earlier move: go back to live to act."), "error");
      return;
    }
    if (btn && btn.dataset.ask) { askFirst(btn.dataset.ask, btn, function () { send(btn); }); return; }
    if (btn) { send(btn); return; }
    if (ev.target.closest("[data-confirm-yes]")) { answer(true); return; }
    if (ev.target.closest("[data-confirm-no]")) { answer(false); return; }
    var vote = ev.target.closest("[data-vote]");
    if (vote) {
      act("vote/" + encodeURIComponent(vote.dataset.vote), {accept: vote.dataset.accept === "true"}, t("Vote recorded."));
      return;
    }
    var rulesVote = ev.target.closest("[data-rules-vote]");  // the proposed rules (parts/rules_vote.html)
    if (rulesVote) {
      act("rules_vote", {accept: rulesVote.dataset.accept === "true"}, t("Vote recorded."));
      return;
    }
    var undo = ev.target.closest("#takeback, [data-undo-now]");
    if (undo) {  // match_view.js keeps the focus on a control when the Undo pressed is gone
      document.dispatchEvent(new CustomEvent("turnstream:acting", {detail: {from: undo}}));
      act("takeback", {}, t("Your last move was taken back.")).then(function () {
        document.dispatchEvent(new CustomEvent("turnstream:acted", {detail: {from: undo}}));
      });
    }
    if (ev.target.id === "concede") {
      askFirst(t("Concede this match? You are ranked last, and it cannot be undone."), ev.target, function () {
        document.getElementById("concede").disabled = true;
        act("concede", {}, t("You conceded."));
      });
    }
    if (ev.target.id === "rematch") { rematch(ev.target); }
    if (ev.target.closest("[data-suggest]")) { suggest(ev.target.closest("[data-suggest]")); return; }
    if (ev.target.id === "replay-live" || ev.target.closest("[data-back-to-live]")) { showLive(); return; }
    var seekTo = ev.target.closest("[data-seek]");
    var entry = ev.target.closest("li[data-event-version]");
    // a move's text moves the board too, also inside a round's group (only its own further events are left out)
    if (seekTo || (entry && !ev.target.closest("button, a, time, summary, details.consequences"))) {
      seek(parseInt((seekTo || entry).dataset.seek || entry.dataset.eventVersion, 10));
      if (ev.target.closest("#section-log")) { boardInView(); }
    }
  });

  // -- learning by playing: the move the greedy bot would make, its reason, and its button highlighted --------
  function canonical(value) {  // a command as text with sorted keys, however its JSON was spaced
    if (Array.isArray(value)) { return "[" + value.map(canonical).join(",") + "]"; }
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(function (k) { return JSON.stringify(k) + ":" + canonical(value[k]); }).join(",") + "}";
    }
    return JSON.stringify(value);
  }
  function commandKey(cmd) { return canonical({type: cmd.type, payload: cmd.payload || {}}); }

  function suggest(btn) {
    btn.disabled = true;
    fetch("/matches/" + encodeURIComponent(matchId) + "/act/suggestion", {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}, body: "{}"
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) { say(errorText(data), "error"); return; }
        showSuggestion(data);
      });
    }).catch(function () { say(t("The server could not be reached."), "error"); })
      .then(function () {
        btn.disabled = false;
        if (document.body.contains(btn) && (document.activeElement === document.body || !document.activeElement)) { btn.focus(); }
      });
  }

  function showSuggestion(data) {
    var box = document.getElementById("suggestion");
    if (!box) { return; }
    box.querySelector("[data-suggestion-text]").textContent = data.text;
    box.querySelector("[data-suggestion-why]").textContent = data.why;
    box.dataset.version = String(data.version);
    box.hidden = false;
    markSuggested(data.command);
  }

  function clearSuggested() {
    document.querySelectorAll(".suggested, .place-suggested").forEach(function (el) {
      el.classList.remove("suggested", "place-suggested");
    });
  }

  function markSuggested(cmd) {
    clearSuggested();
    var key = commandKey(cmd);
    var found = Array.prototype.filter.call(document.querySelectorAll("#section-actions [data-command]"), function (b) {
      return commandKey(JSON.parse(b.dataset.command)) === key;
    })[0];
    if (!found) { return; }
    if (found.hidden || found.closest("details[hidden]")) {  // the board's place filter hides it: show every action
      var all = document.querySelector("[data-show-all-actions]");
      if (all) { all.click(); }
    }
    var group = found.closest("details");
    if (group) { group.open = true; }
    found.classList.add("suggested");
    if (found.dataset.place) {
      var place = document.querySelector('#board [data-choice="' + CSS.escape(found.dataset.place) + '"]');
      if (place) { place.classList.add("place-suggested"); }
    }
    found.scrollIntoView({block: "nearest"});
  }

  // a suggestion is for the version it was made at: the next move makes it stale
  document.addEventListener("turnstream:updated", function (ev) {
    var box = document.getElementById("suggestion");
    if (box && !box.hidden && box.dataset.version !== String(ev.detail.version)) { box.hidden = true; clearSuggested(); }
  });

  // -- a move that gives something up asks first, in the page (not a browser dialog) -----------------
  var pending = null;  // {go, from}: what "Yes" does and the control to return to
  function askFirst(question, from, go) {
    var box = document.getElementById("confirm-step");
    if (!box) { go(); return; }
    pending = {go: go, from: from};
    box.querySelector("#confirm-question").textContent = question;
    box.hidden = false;
    box.querySelector("[data-confirm-no]").focus();
  }

  function answer(yes) {
    var box = document.getElementById("confirm-step");
    var was = pending;
    pending = null;
    if (box) { box.hidden = true; }
    if (!was) { return; }
    if (yes) { was.go(); return; }  // the move's own focus handling (turnstream:acting) takes it from here
    var back = was.from && document.body.contains(was.from) ? was.from : document.getElementById("actions-title");
    back.focus();
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && pending) { ev.preventDefault(); answer(false); }
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey) && ev.target.id === "chat-text") {  // Ctrl+Enter sends chat
      ev.preventDefault();
      ev.target.form.requestSubmit();
    }
  });

  // Sends a button's (or a board place's) command; match_view.js keeps the focus near it afterwards.
  function send(btn) {
    var cmd = JSON.parse(btn.dataset.command);
    document.dispatchEvent(new CustomEvent("turnstream:acting", {detail: {from: btn}}));
    btn.disabled = true;
    undoSince = Date.now();
    act("command", {type: cmd.type, payload: cmd.payload || {}, command_id: commandId()}, (btn.getAttribute("aria-label") || btn.textContent).trim() + t(": done."))
      .then(function () {
        btn.disabled = false;
        // whatever came first (the live update, the answer), match_view.js now checks the focus was not lost
        document.dispatchEvent(new CustomEvent("turnstream:acted", {detail: {from: btn}}));
      });
  }

  // For a few seconds after a move that may be taken back, its "done" message offers to undo it at once.
  var UNDO_OFFER_MS = 10000;
  var undoSince = 0;
  var undoTimer = null;
  function offerUndo() {
    var row = document.querySelector("[data-undo-row]");
    var old = messageEl.querySelector("[data-undo-now]");
    if (old && (!row || row.hidden)) { old.remove(); }
    if (!undoSince || Date.now() - undoSince > 3000 || !row || row.hidden || messageEl.hidden || old) { return; }
    undoSince = 0;
    var undo = document.createElement("button");
    undo.type = "button";
    undo.className = "small warn";
    undo.setAttribute("data-undo-now", "");
    undo.textContent = t("Undo");
    messageEl.appendChild(document.createTextNode(" "));
    messageEl.appendChild(undo);
    clearTimeout(undoTimer);
    undoTimer = setTimeout(function () { if (undo.parentNode) { undo.remove(); } }, UNDO_OFFER_MS);
  }

  function rematch(btn) {
    btn.disabled = true;
    fetch("/matches/" + encodeURIComponent(matchId) + "/act/rematch", {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}, body: "{}"
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) { say(errorText(data), "error"); btn.disabled = false; return; }
        window.location.assign("/matches/" + encodeURIComponent(data.id));
      });
    }).catch(function () { say(t("The server could not be reached."), "error"); btn.disabled = false; });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form.id === "dispute-form") {
      ev.preventDefault();
      act("dispute", {version: parseInt(form.version.value, 10), reason: form.reason.value}, t("Dispute opened."));
      if (form.closest("dialog")) { form.closest("dialog").close(); }
    } else if (form.id === "chat-form") {
      ev.preventDefault();
      var text = form.text.value;
      if (!text.trim()) { return; }
      act("chat", {text: text}, "").then(function () { form.text.value = ""; form.text.focus(); });
    }
  });

  // -- replay ---------------------------------------------------------------------------------
  function setReplaying(on) {
    replaying = on;
    body.classList.toggle("replaying", on);
    var actions = document.getElementById("actions-card");
    if (actions) { actions.inert = on; }
    document.getElementById("replay-note").hidden = !on;
    document.querySelectorAll("li[data-event-version]").forEach(function (li) {
      li.classList.toggle("seeked", on && li.dataset.eventVersion === slider.value);
    });
  }

  // On a narrow screen the log is below the board: a move chosen there brings the board into view.
  function boardInView() {
    var card = boardEl.closest(".board-card") || boardEl;
    var box = card.getBoundingClientRect();
    if (box.bottom <= 0 || box.top >= window.innerHeight) { card.scrollIntoView({block: "start"}); }
  }

  function seek(v) {
    if (!v) { return; }
    wanted = v;
    slider.value = String(v);
    sliderOut.textContent = "v" + v;
    loadReplay(v);
  }

  function showLive() {
    wanted = null;
    setReplaying(false);
    badge.hidden = true;
    liveBtn.hidden = true;
    slider.value = String(currentVersion());
    sliderOut.textContent = "v" + currentVersion();
    boardEl.dataset.boardVersion = String(currentVersion());
    if (liveBoard !== null) { boardEl.innerHTML = liveBoard; } else { refresh(); }
  }

  var replayTimer = null;
  slider.addEventListener("input", function () {
    var v = parseInt(slider.value, 10);
    wanted = v;
    sliderOut.textContent = "v" + v;
    clearTimeout(replayTimer);
    replayTimer = setTimeout(function () { loadReplay(v); }, 120);
  });

  function loadReplay(v) {
    if (v >= currentVersion()) { showLive(); return; }
    if (!replaying) { liveBoard = boardEl.innerHTML; }
    fetch("/matches/" + encodeURIComponent(matchId) + "/board?version=" + v, {credentials: "same-origin"})
      .then(function (r) { return r.json().then(function (data) { return {ok: r.ok, data: data}; }); })
      .then(function (res) {
        if (!res.ok) { say(errorText(res.data), "error"); return; }
        if (wanted !== v) { return; }  // the viewer has since asked for another version, or for live
        setReplaying(true);
        badge.hidden = false;
        badge.textContent = t("replay") + " v" + res.data.version;
        liveBtn.hidden = false;
        boardEl.innerHTML = res.data.html;
        boardEl.dataset.boardVersion = String(res.data.version);
      })
      .catch(function () { say(t("The replay could not be loaded."), "error"); });
  }

  // -- live updates -----------------------------------------------------------------------------
  function connect() {  // the browser's one shared connection (live.js) also drives the indicator
    var live = window.TurnstreamLive;
    if (!live) { indicator.textContent = t("no live updates"); return; }
    live.on("view", function (msg) { if (msg.match === matchId) { applyLive(msg.data); } });
    live.on("view-failed", function (msg) { if (msg.match === matchId) { scheduleRefresh(); } });
    live.on("status", function (msg) { if (msg.state === "live") { scheduleRefresh(); } });
    live.on("reset", scheduleRefresh);
  }
  connect();
  updateTakeback();
}());
