// One live connection per browser: a SharedWorker that every tab shares (a dedicated worker per tab where
// SharedWorker is missing). It holds GET /api/stream?watch=<the matches the tabs show> (the session cookie
// adds all of the player's matches and inbox), resumes with Last-Event-ID, and tells every tab the truth
// about the connection: "live", "reconnecting" or "offline".
"use strict";

var tabs = [];            // {port, user, matches}
var cursor = null;        // the last SSE id: where a new connection resumes
var user = null;          // whose stream the cursor belongs to
var state = "connecting";
var controller = null;
var retryTimer = null;
var changeTimer = null;
var failures = 0;
var lastData = 0;
var WATCHDOG_MS = 40000;  // the server sends a keep-alive every 15 s: silence this long means a dead link

function watched() {
  var all = {};
  tabs.forEach(function (t) { (t.matches || []).forEach(function (m) { all[m] = true; }); });
  return Object.keys(all).sort();
}

function tell(msg) { tabs.forEach(function (t) { t.port.postMessage(msg); }); }

function setState(next) {
  state = next;
  tell({type: "status", state: next});
}

function dispatch(block) {
  var msg = {event: "message", data: ""}, id = null;
  block.split("\n").forEach(function (line) {
    if (line.indexOf("id:") === 0) { id = line.slice(3).trim(); }
    else if (line.indexOf("event:") === 0) { msg.event = line.slice(6).trim(); }
    else if (line.indexOf("data:") === 0) { msg.data += line.slice(5).trim(); }
  });
  if (id !== null) { cursor = id; }
  if (!msg.data) { return; }
  var data = JSON.parse(msg.data);
  if (msg.event === "match") {
    tell({type: "match", match: data.match, event: data.event});
    if (watched().indexOf(data.match) >= 0) { refreshView(data.match); }
  }
  else if (msg.event === "inbox") { tell({type: "inbox", matches: data.matches}); }
  else if (msg.event === "summary") { tell({type: "summary", match: data.match, version: data.version, status: data.status}); }
  else if (msg.event === "reset" || msg.event === "reload") { tell({type: "reset"}); }  // reload: the stream ends
}

// A match's page parts are the same for every tab of this browser (one session, one viewer): fetch them
// once per change and hand them to all the tabs showing the match, instead of one request per tab.
var views = {};  // match id -> {busy, again, version told}
function refreshView(matchId) {
  var view = views[matchId] = views[matchId] || {busy: false, again: false, version: -1};
  if (view.busy) { view.again = true; return; }
  view.busy = true;
  fetch("/matches/" + encodeURIComponent(matchId) + "/live", {credentials: "same-origin", cache: "no-store"})
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (data) {
      if (data && data.version > view.version) {
        view.version = data.version;
        tell({type: "view", match: matchId, data: data});
      }
    })
    .catch(function () { tell({type: "view-failed", match: matchId}); })
    .then(function () {
      view.busy = false;
      if (view.again) { view.again = false; refreshView(matchId); }
    });
}

function read(body, ctrl) {
  var reader = body.getReader(), decoder = new TextDecoder(), buffer = "";
  function pump() {
    return reader.read().then(function (part) {
      if (part.done || ctrl !== controller) { return; }
      lastData = Date.now();
      buffer += decoder.decode(part.value, {stream: true}).replace(/\r\n/g, "\n");
      var end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
      return pump();
    });
  }
  return pump();
}

function retry(afterMs) {
  failures += 1;
  setState(self.navigator && self.navigator.onLine === false ? "offline" : "reconnecting");
  var backoff = Math.min(500 * Math.pow(2, failures - 1), 10000) * (0.75 + Math.random() / 2);
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, afterMs || backoff);
}

function connect() {
  clearTimeout(retryTimer);
  if (controller) { controller.abort(); }
  if (!tabs.length) { controller = null; return; }
  var ctrl = controller = new AbortController();
  var ids = watched();
  var headers = {"Accept": "text/event-stream"};
  if (cursor) { headers["Last-Event-ID"] = cursor; }
  fetch("/api/stream" + (ids.length ? "?watch=" + encodeURIComponent(ids.join(",")) : ""),
        {headers: headers, credentials: "same-origin", cache: "no-store", signal: ctrl.signal})
    .then(function (r) {
      if (!r.ok) {
        var seconds = parseInt(r.headers.get("Retry-After") || "", 10);
        throw {retryMs: seconds > 0 ? seconds * 1000 : 0};
      }
      failures = 0;
      lastData = Date.now();
      if (state !== "live") { setState("live"); }
      return read(r.body, ctrl);
    })
    .then(function () { if (ctrl === controller) { connect(); } })  // the server ended the stream: resume now
    .catch(function (err) { if (ctrl === controller) { retry(err && err.retryMs); } });
}

function changed() {
  clearTimeout(changeTimer);
  changeTimer = setTimeout(connect, 30);  // tabs opening together share one reconnection
}

setInterval(function () {
  if (controller && state === "live" && Date.now() - lastData > WATCHDOG_MS) { retry(0); }
}, 5000);
self.addEventListener("offline", function () { if (controller) { controller.abort(); retry(1000); } });
self.addEventListener("online", function () { connect(); });

function attach(port) {
  var tab = {port: port, matches: []};
  port.onmessage = function (ev) {
    var msg = ev.data || {};
    if (msg.type === "hello") {
      if (tabs.indexOf(tab) < 0) { tabs.push(tab); }
      tab.matches = msg.matches || [];
      if ((msg.user || null) !== user) { user = msg.user || null; cursor = null; }
      port.postMessage({type: "status", state: state});
      changed();
    } else if (msg.type === "online") {
      if (state !== "live") { connect(); }
    } else if (msg.type === "bye") {
      tabs = tabs.filter(function (t) { return t !== tab; });
      changed();
    }
  };
  if (port.start) { port.start(); }
}

if (typeof SharedWorkerGlobalScope !== "undefined" && self instanceof SharedWorkerGlobalScope) {
  self.onconnect = function (ev) { attach(ev.ports[0]); };
} else {
  attach(self);  // a dedicated worker: the page itself is the one tab
}
