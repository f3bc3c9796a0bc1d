"""The API document lists every status an answer may have (a request line longer than the server reads: 414,
whatever the operation; a malformed URL or query: 400), and query values are scalars: a parameter given twice is
a 400 naming it, never one of its values picked silently."""
from __future__ import annotations


def test_every_operation_lists_400_and_414(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "responses" in operation:
                assert {"400", "414"} <= set(operation["responses"]), (method, path)


def test_a_query_parameter_given_twice_is_refused(client, make_user):
    _ann, ha = make_user("ann")
    for path in ("/api/matches?status=open&status=finished", "/api/users?name=an&name=bo",
                 "/api/stream?watch=m_a&watch=m_b"):
        answer = client.get(path, headers=ha)
        assert answer.status_code == 400, path
        error = answer.get_json()["error"]
        assert error["code"] == "invalid_query" and list(error["fields"]) == [path.split("?")[1].split("=")[0]]
    assert client.get("/api/matches?status=open&game=uchronia", headers=ha).status_code == 200
