// The lobby: name suggestions for the invite fields (GET /users/suggest?name=: your recent opponents first),
// shown as "Name #short-id".
(function () {
  "use strict";
  var timer = null;

  function lastEntry(value) {
    var parts = value.split(",");
    return {head: parts.slice(0, -1).map(function (p) { return p.trim(); }).filter(Boolean), tail: parts[parts.length - 1].trim()};
  }

  function suggest(input) {
    var list = document.getElementById(input.getAttribute("list"));
    var entry = lastEntry(input.value);
    if (!list || entry.tail.length < 1 || entry.tail.indexOf("#") >= 0) { return; }
    fetch("/users/suggest?name=" + encodeURIComponent(entry.tail), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : {users: []}; })
      .then(function (data) {
        list.textContent = "";
        data.users.forEach(function (u) {
          var option = document.createElement("option");
          option.value = entry.head.concat([u.name + " #" + u.short_id]).join(", ");
          option.label = u.name + " #" + u.short_id;
          list.appendChild(option);
        });
      })
      .catch(function () { list.textContent = ""; });
  }

  var refused = document.querySelector("[data-form-error]");
  if (refused) { refused.focus(); }

  document.addEventListener("input", function (ev) {
    var input = ev.target;
    if (!input.matches || !input.matches("[data-user-search]")) { return; }
    clearTimeout(timer);
    timer = setTimeout(function () { suggest(input); }, 150);
  });
}());
