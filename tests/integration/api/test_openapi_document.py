"""The OpenAPI document covers every API route and names every status the service answers."""
from __future__ import annotations

from service import create_app
from service.web.openapi import documented_views


def test_every_api_route_is_in_the_document(wiring):
    """Each Flask route under /api (and /healthz) appears with its method, unless deliberately marked
    undocumented (the reference page's own HTML and assets)."""
    app = create_app(wiring=wiring)
    doc = app.test_client().get("/api/openapi.json").get_json()
    missing = []
    for rule, method, view in documented_views(app):
        if not (rule.rule.startswith("/api") or rule.rule in ("/healthz", "/metrics")):
            continue
        if getattr(view, "openapi_hidden", None):
            continue
        path = rule.rule.replace("<", "{").replace(">", "}")
        if method.lower() not in doc["paths"].get(path, {}):
            missing.append(f"{method} {rule.rule}")
    assert not missing, f"routes without @documented(...): {missing}"


def test_document_is_precise(client, games):
    """Game ids and command types are enums; the error statuses the service can answer are declared."""
    doc = client.get("/api/openapi.json").get_json()
    create = doc["paths"]["/api/matches"]["post"]
    body = create["requestBody"]["content"]["application/json"]["schema"]
    assert [b["properties"]["game"]["enum"] for b in body["oneOf"]] == [list(games)] * 2
    assert [b["required"] for b in body["oneOf"]] == [["game", "players"], ["game", "seats"]]
    assert {"400", "401", "413", "429", "503", "201"} <= set(create["responses"])
    command = doc["paths"]["/api/matches/{match_id}/commands"]["post"]
    assert {"400", "401", "403", "404", "409", "413", "422", "429", "503"} <= set(command["responses"])
    assert "roll" in command["requestBody"]["content"]["application/json"]["schema"]["properties"]["type"]["enum"]
    assert command["responses"]["429"]["headers"]["Retry-After"]
    assert create["responses"]["201"]["links"]["SubmitCommand"]["operationId"] == "matches.submit"
    ids = [op["operationId"] for ops in doc["paths"].values() for op in ops.values()]
    assert len(ids) == len(set(ids))
    assert "dice-race.roll" in doc["components"]["schemas"]
    assert doc["components"]["schemas"]["Error"]["required"] == ["error"]


def test_docs_page_and_assets_are_served_locally(client):
    """/api/docs names only assets served by the service itself; the bundle is there."""
    page = client.get("/api/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html
    assert "/api/docs/assets/swagger-ui-bundle.js" in html
    asset = client.get("/api/docs/assets/swagger-ui-bundle.js")
    assert asset.status_code == 200 and len(asset.get_data()) > 100_000
    assert client.get("/api/docs/assets/../../etc/passwd").status_code == 404
    assert 'href="/api/docs"' in client.get("/").get_data(as_text=True)
