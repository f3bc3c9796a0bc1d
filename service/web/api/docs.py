"""The API's own description: /api/openapi.json and an interactive reference at /api/docs (bundled Swagger UI)."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, send_from_directory
from swagger_ui_bundle import swagger_ui_path

from service.web.http import wiring
from service.web.openapi import build_document, documented, undocumented

bp = Blueprint("docs", __name__)
DOCS_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
}


def openapi_document() -> dict:
    """The app's OpenAPI document, built once from its routes on first use."""
    ext = current_app.extensions
    if "turnstream.openapi" not in ext:
        ext["turnstream.openapi"] = build_document(current_app, wiring().games)
    return ext["turnstream.openapi"]


@bp.get("/api/openapi.json")
@documented("this OpenAPI document", store=False)
def openapi():
    """The OpenAPI document generated from the routes and their marshmallow schemas."""
    return openapi_document()


@bp.get("/api/docs")
@undocumented("the HTML reference of this very document")
def docs_page():
    """The interactive API reference (Swagger UI from the swagger-ui-bundle package, no CDN)."""
    return render_template("api_docs.html"), 200, DOCS_HEADERS


@bp.get("/api/docs/assets/<path:name>")
@undocumented("static files of the API reference page")
def docs_asset(name):
    """A Swagger UI asset shipped inside the swagger-ui-bundle wheel."""
    return send_from_directory(swagger_ui_path, name, max_age=3600)
