"""Schemathesis against /api/openapi.json: never a 5xx, every error in the JSON error shape."""
from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from hypothesis import strategies as st
from schemathesis import GenerationMode

from service import create_app

EXAMPLES = 10  # per operation and per mode (valid and invalid data)


def check_response(response) -> None:
    """No 5xx; a JSON body; an error body {"error": {"code": str, "message": str}} on every 4xx."""
    assert response.status_code < 500, (response.status_code, response.text[:500])
    body = response.json()
    if response.status_code >= 400:
        assert isinstance(body, dict) and isinstance(body.get("error"), dict), body
        assert isinstance(body["error"].get("code"), str) and isinstance(body["error"].get("message"), str), body


def test_every_operation_answers_json_and_never_5xx(wiring):
    """For every operation of the served OpenAPI document, valid and invalid generated requests (with
    or without a real token, on the real match or a random id) never crash the service."""
    app = create_app(wiring=wiring)
    client = app.test_client()
    ann = client.post("/api/users", json={"name": "ann"}).get_json()
    bob = client.post("/api/users", json={"name": "bob"}).get_json()
    match_id = client.post("/api/matches", json={"game": "dice-race", "players": [ann["id"], bob["id"]]},
                           headers={"Authorization": f"Bearer {ann['token']}"}).get_json()["id"]
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    # the SSE stream answers text/event-stream and stays open: its error paths are JSON, tested elsewhere
    operations = [result.ok() for result in schema.get_all_operations() if not result.ok().path.endswith("/stream")]
    assert len(operations) >= 15
    calls = 0
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(mode), real_match=st.booleans(), authorized=st.booleans())
            @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                      phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
            def fuzz(case, real_match, authorized):
                if real_match and "match_id" in (case.path_parameters or {}):
                    case.path_parameters["match_id"] = match_id
                headers = {"Authorization": f"Bearer {(ann if real_match else bob)['token']}"} if authorized else None
                response = case.call(headers=headers)
                try:
                    check_response(response)
                except (AssertionError, ValueError) as exc:
                    raise AssertionError(f"{case.method} {case.formatted_path} query={case.query} "
                                         f"body={case.body!r}: {exc}") from None

            try:
                fuzz()
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE, operation.label  # nothing in it can be made invalid
            calls += 1
    assert calls == 2 * len(operations)
