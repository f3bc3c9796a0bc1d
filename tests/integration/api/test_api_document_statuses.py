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


def test_a_name_is_documented_and_checked_as_it_is_stored(client):
    """Spaces at either end are trimmed, then 1 to 40 characters are left: the document's pattern says exactly
    that (a raw length limit would refuse on paper what the service accepts)."""
    import re
    create = client.get("/api/openapi.json").get_json()["paths"]["/api/users"]["post"]
    schema = create["requestBody"]["content"]["application/json"]["schema"]
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        schema = client.get("/api/openapi.json").get_json()["components"]["schemas"][name]
    schema = schema["properties"]["name"]
    assert "maxLength" not in schema
    pattern = re.compile(schema["pattern"])
    for raw, stored in ((" " * 3 + "a" * 40 + " " * 2, "a" * 40), ("  ann ", "ann")):
        assert pattern.match(raw)
        answer = client.post("/api/users", json={"name": raw})
        assert answer.status_code == 201 and answer.get_json()["name"] == stored
    for raw in ("a" * 41, "   ", ""):
        assert not pattern.match(raw) and client.post("/api/users", json={"name": raw}).status_code == 400
