// Starts the bundled Swagger UI on the service's own OpenAPI document (no CDN, works offline).
(function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-spec-url"),
    dom_id: "#swagger-ui",
    deepLinking: false,  // a deep link is an anchor inside each operation's button: a control nested in a control
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });

  // Swagger UI's request body field has no label: name it, as its section's heading does
  function nameFields() {
    root.querySelectorAll("textarea.body-param__text:not([aria-label])").forEach(function (field) {
      field.setAttribute("aria-label", "Request body");
    });
  }
  new MutationObserver(nameFields).observe(root, {childList: true, subtree: true});
})();
