"""The API's error answers as the tests check them: a JSON error object with a code and a message, no traceback."""
from __future__ import annotations


def error_of(resp, status, code=None):
    """Assert a JSON error response and return its error object."""
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True))
    assert resp.is_json, resp.get_data(as_text=True)
    err = resp.get_json()["error"]
    assert isinstance(err["code"], str) and isinstance(err["message"], str) and err["message"]
    assert "Traceback" not in resp.get_data(as_text=True)
    if code:
        assert err["code"] == code, err
    return err
