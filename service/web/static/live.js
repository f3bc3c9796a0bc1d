// The page's side of the browser's one live connection (live-worker.js): says which match this tab shows,
// keeps the live indicator truthful (live / reconnecting / offline), refreshes the lobby's lists when the
// player's matches or inbox change, and hands the page its messages: TurnstreamLive.on(type, fn).
(function () {
  "use strict";
  var script = document.currentScript;
  var user = (script && script.dataset.user) || null;
  var matchId = document.body.dataset.matchId || null;
  var handlers = {};
  var state = "connecting";
  var LABELS = {connecting: t("connecting…"), live: t("live"), reconnecting: t("reconnecting…"), offline: t("offline")};

  function emit(type, msg) { (handlers[type] || []).forEach(function (fn) { fn(msg); }); }

  function indicator() {
    var el = document.getElementById("live-indicator");
    if (!el) {
      var nav = document.querySelector(".topbar nav");
      if (!nav) { return null; }
      el = document.createElement("span");
      el.id = "live-indicator";
      nav.insertBefore(el, nav.firstChild);
    }
    return el;
  }

  var workerState = "connecting";

  function show(next) {
    if (next !== "offline" || !navigator.onLine) { workerState = next === "offline" ? workerState : next; }
    if (navigator.onLine === false) { next = "offline"; }  // what this browser knows beats a stale link
    state = next;
    var el = indicator();
    if (!el) { return; }
    el.textContent = LABELS[next] || next;
    el.className = "live " + (next === "live" ? "on" : "off") + " " + next;
    el.dataset.liveState = next;
    el.title = next === "live" ? t("live updates are on") : next === "offline" ? t("this browser is offline")
      : t("the live connection is down; trying again");
  }

  function receive(msg) {
    if (msg.type === "status") { show(msg.state); }
    emit(msg.type, msg);
  }

  var port;
  if (window.SharedWorker) {
    port = new SharedWorker("/static/live-worker.js", {name: "turnstream-live"}).port;
    port.onmessage = function (ev) { receive(ev.data); };
    port.start();
  } else if (window.Worker) {
    port = new Worker("/static/live-worker.js");
    port.onmessage = function (ev) { receive(ev.data); };
  } else {
    show("offline");
    return;
  }
  port.postMessage({type: "hello", user: user, matches: matchId ? [matchId] : []});
  window.addEventListener("pagehide", function () { port.postMessage({type: "bye"}); });
  window.addEventListener("pageshow", function (ev) {
    if (ev.persisted) { port.postMessage({type: "hello", user: user, matches: matchId ? [matchId] : []}); }
  });
  show(state);
  window.addEventListener("offline", function () { show("offline"); });
  window.addEventListener("online", function () { port.postMessage({type: "online"}); show(workerState); });

  window.TurnstreamLive = {
    on: function (type, fn) { (handlers[type] = handlers[type] || []).push(fn); },
    state: function () { return state; }
  };

  // -- the lobby: its lists follow the player's matches and inbox ------------------------------------
  var LOBBY_SECTIONS = ["your-move", "my-matches", "open-matches"];
  if (!matchId && document.getElementById("open-matches")) {
    var timer = null;
    var refreshLobby = function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        fetch("/", {credentials: "same-origin", cache: "no-store"})
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) {
            if (!html) { return; }
            var doc = new DOMParser().parseFromString(html, "text/html");
            LOBBY_SECTIONS.forEach(function (id) {
              var fresh = doc.getElementById(id), here = document.getElementById(id);
              if (fresh && here) { here.innerHTML = fresh.innerHTML; }
            });
            // the swapped rows' times in the viewer's zone again, as on first load
            if (window.turnstream) { window.turnstream.formatTimes(document); }
          })
          .catch(function () {});
      }, 150);
    };
    ["inbox", "summary", "reset"].forEach(function (type) { window.TurnstreamLive.on(type, refreshLobby); });
    window.TurnstreamLive.on("status", function (msg) { if (msg.state === "live") { refreshLobby(); } });
  }
}());
