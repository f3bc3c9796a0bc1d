// Every page: times in the viewer's zone, copy buttons. Exposes window.turnstream for the page scripts.
// The page scripts' words in the page's language: t(words in English); service/web/i18n.py fills #page-texts.
(function () {
  var texts = {};
  try { texts = JSON.parse((document.getElementById("page-texts") || {}).textContent || "{}"); } catch (e) { texts = {}; }
  window.t = function (text) { return Object.prototype.hasOwnProperty.call(texts, text) ? texts[text] : text; };
})();
(function () {
  "use strict";
  var pageLang = document.documentElement.lang || undefined;
  var absolute = new Intl.DateTimeFormat(pageLang, {dateStyle: "medium", timeStyle: "short"});
  var clock = new Intl.DateTimeFormat(pageLang, {hour: "2-digit", minute: "2-digit", second: "2-digit"});
  var relative = window.Intl && Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat(pageLang, {numeric: "auto"}) : null;
  var UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

  function sameDay(a, b) { return a.toDateString() === b.toDateString(); }

  function ago(date) {
    var seconds = Math.round((date.getTime() - Date.now()) / 1000);
    for (var i = 0; i < UNITS.length; i++) {
      if (Math.abs(seconds) >= UNITS[i][1] || UNITS[i][0] === "second") {
        return relative ? relative.format(Math.round(seconds / UNITS[i][1]), UNITS[i][0]) : "";
      }
    }
    return "";
  }

  // <time datetime="ISO"> shows the time in the viewer's zone: today's as a clock, older ones with the date;
  // data-relative adds "(5 minutes ago)". The ISO stays in datetime= and the full local time in the tooltip.
  function formatTimes(root) {
    (root || document).querySelectorAll("time[datetime]").forEach(function (el) {
      var date = new Date(el.getAttribute("datetime"));
      if (isNaN(date.getTime())) { return; }
      var text = sameDay(date, new Date()) && !el.hasAttribute("data-date") ? clock.format(date) : absolute.format(date);
      if (el.hasAttribute("data-relative")) { text += " (" + ago(date) + ")"; }
      el.textContent = text;
      el.title = absolute.format(date);
    });
  }

  function countdown(until) {
    var left = Math.max(0, Math.round((until.getTime() - Date.now()) / 1000));
    var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
    var fill = function (said) {  // each template below is a literal of t(), so the page carries its translation
      return said.replace("{d}", d).replace("{h}", h).replace("{m}", m).replace("{s}", s);
    };
    if (d) { return fill(t("{d} d {h} h")); }
    if (h) { return fill(t("{h} h {m} min")); }
    if (m) { return fill(t("{m} min {s} s")); }
    return fill(t("{s} s"));
  }

  // <span data-countdown="ISO"> counts down to that time, every second.
  function tickCountdowns() {
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var until = new Date(el.dataset.countdown);
      if (isNaN(until.getTime())) { return; }
      el.textContent = until.getTime() <= Date.now() ? t("now") : countdown(until);
    });
  }

  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest("[data-copy]");
    if (!btn) { return; }
    var source = document.querySelector(btn.dataset.copy);
    var status = document.querySelector("[data-copy-status]");
    var text = source ? source.textContent.trim() : "";
    function done(ok) { if (status) { status.textContent = ok ? t("Copied.") : t("Select the text and copy it by hand."); } }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
    } else {
      var range = document.createRange();
      range.selectNodeContents(source);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      done(ok);
    }
  });

  window.turnstream = {formatTimes: formatTimes, tickCountdowns: tickCountdowns};
  document.addEventListener("DOMContentLoaded", function () {
    formatTimes(document);
    tickCountdowns();
    setInterval(tickCountdowns, 1000);
  });
  // Declining an invitation cancels the match for everyone: one more tap to be sure (the lobby re-renders its
  // rows live, so the listener sits on the document).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form && /\/decline$/.test(form.getAttribute("action") || "") &&
        !window.confirm(t("Decline this invitation? The match is cancelled for every player."))) {
      event.preventDefault();
    }
  });
}());
