"""Schemathesis against /api/openapi.json: every operation, valid and invalid data, and the stateful links
(create -> command -> events); schemathesis' own conformance checks plus ours find nothing."""
from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from service import create_app
from tests.invites import start_http

EXAMPLES = 10  # per operation and per mode (valid and invalid data)
CHAIN = ["matches.create_match", "matches.get_match", "matches.state", "matches.legal", "matches.submit",
         "matches.events", "history.audit"]  # the operations the create -> command -> events links join
SCHEMA_REFUSALS = {"invalid_body", "invalid_query", "malformed_json"}


def check_response(response, positive: bool) -> None:
    """No 5xx; JSON error bodies {"error": {"code": str, "message": str}}; valid data never refused as malformed."""
    assert response.status_code < 500, (response.status_code, response.text[:500])
    if not response.headers.get("Content-Type", "").startswith("application/json"):
        return
    body = response.json()
    if response.status_code >= 400:
        assert isinstance(body, dict) and isinstance(body.get("error"), dict), body
        assert isinstance(body["error"].get("code"), str) and isinstance(body["error"].get("message"), str), body
        if positive:
            assert body["error"]["code"] not in SCHEMA_REFUSALS, f"schema-valid request refused: {body}"


def fuzz_app(wiring):
    """The app, two users and a dice-race match between them."""
    app = create_app(wiring=wiring)
    client = app.test_client()
    ann = client.post("/api/users", json={"name": "ann"}).get_json()
    bob = client.post("/api/users", json={"name": "bob"}).get_json()
    match_id = start_http(client, {"Authorization": f"Bearer {ann['token']}"},
                          {"game": "dice-race", "players": [ann["id"], bob["id"]]},
                          {"Authorization": f"Bearer {bob['token']}"})
    return app, ann, bob, match_id


def test_every_operation_answers_as_documented(wiring):
    """For every operation of the served document, valid and invalid generated requests (with or without a
    real token, on the real match or a random id) answer only documented statuses, content types and
    bodies, never a 5xx, and a schema-valid request is never refused as malformed."""
    app, ann, bob, match_id = fuzz_app(wiring)
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    # the SSE stream stays open for its lifetime: its error paths are JSON, tested in test_stream_sse.py
    operations = [result.ok() for result in schema.get_all_operations() if not result.ok().path.endswith("/stream")]
    assert len(operations) >= 19
    calls = 0
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(mode), real_match=st.booleans(), authorized=st.booleans())
            @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                      phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
            def fuzz(case, real_match, authorized):
                if real_match and "match_id" in (case.path_parameters or {}):
                    case.path_parameters["match_id"] = match_id
                headers = {"Authorization": f"Bearer {(ann if real_match else bob)['token']}"} if authorized else {}
                response = case.call(headers=headers)
                try:
                    check_response(response, mode is GenerationMode.POSITIVE)
                    # schemathesis' own checks (status codes, content types, bodies, headers, negative data
                    # rejection); "valid data is accepted" is ours above: a valid body naming an unknown
                    # user, a finished match or an illegal move is rightly refused
                    case.validate_response(response, headers=headers, excluded_checks=[positive_data_acceptance])
                except (AssertionError, ValueError) as exc:
                    raise AssertionError(f"{case.method} {case.formatted_path} query={case.query} "
                                         f"body={case.body!r}: {exc}") from None

            try:
                fuzz()
            except Unsatisfiable:
                assert mode is GenerationMode.NEGATIVE, operation.label  # nothing in it can be made invalid
            calls += 1
    assert calls == 2 * len(operations)


def test_stateful_links_create_command_events(wiring):
    """Schemathesis follows the document's links: a created match's id feeds its state, legal commands,
    commands and events; a command's version feeds the events after it. Every step passes the checks."""
    app, ann, bob, _ = fuzz_app(wiring)
    client = app.test_client()
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    schema.config.generation.update(modes=[GenerationMode.POSITIVE])  # invalid data: the test above
    schema = schema.include(operation_id=CHAIN)  # every operation alone: the test above
    steps = {"links": 0, "created": 0, "commands": 0}

    class Machine(schema.as_state_machine()):
        def before_call(self, case):
            """Valid cases: seat the real users in invited matches and roll the die in them, so the links
            lead through a live match (create -> command -> events)."""
            if not (isinstance(case.body, dict) and case.meta.generation.mode.is_positive):
                return
            if case.operation.path == "/api/matches" and "players" in case.body:
                case.body.update(players=[ann["id"], bob["id"]], game="dice-race", options={})
            elif case.operation.path.endswith("/commands"):
                case.body.update(type="roll", payload={})
                case.body.pop("expected_version", None)

        def get_call_kwargs(self, case):
            """Act as the seated player whose move it is (dice-race's first mover is drawn at setup)."""
            user = ann
            match_id = (case.path_parameters or {}).get("match_id")
            if case.operation.path.endswith("/commands") and match_id:
                summary = client.get(f"/api/matches/{match_id}").get_json() or {}
                if bob["id"] in (summary.get("active_players") or []):
                    user = bob
            return {"headers": {"Authorization": f"Bearer {user['token']}"}}

        def after_call(self, response, case):
            super().after_call(response, case)
            if case.operation.path == "/api/matches" and response.status_code == 201 \
                    and response.json().get("status") == "invited":  # bob consents, as a person would
                accepted = client.post(f"/api/matches/{response.json()['id']}/accept",
                                       headers={"Authorization": f"Bearer {bob['token']}"})
                assert accepted.status_code == 200, accepted.get_json()
            steps["created"] += case.operation.path == "/api/matches" and response.status_code == 201
            steps["links"] += "{match_id}" in case.operation.path and response.status_code < 400
            steps["commands"] += case.operation.path.endswith("/commands") and response.status_code == 201

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            check_response(response, positive=False)
            case.validate_response(response, headers=kwargs.get("headers"), transport_kwargs=kwargs,
                                   excluded_checks=[positive_data_acceptance], recorder=self.recorder)

    Machine.run(settings=settings(max_examples=25, stateful_step_count=6, deadline=None, derandomize=True,
                                  database=None, suppress_health_check=list(HealthCheck)))
    assert steps["created"] > 0 and steps["links"] > 0 and steps["commands"] > 0, steps
