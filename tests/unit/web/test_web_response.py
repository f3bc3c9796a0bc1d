"""The gunicorn response that sends a sized answer's headers and body in one send (service/server/web_response.py)."""
from __future__ import annotations

from types import SimpleNamespace

from gunicorn.config import Config

from service.server.web_response import OneSendResponse


class Wire:
    """A socket that records each send."""

    def __init__(self):
        self.sends = []

    def sendall(self, data):
        """Record one send."""
        self.sends.append(bytes(data))


def respond(method="POST", status="201 CREATED", headers=(("Content-Type", "application/json"),), body=(b'{"a":1}',),
            sized=True):
    """Run one response through OneSendResponse; the sends it made."""
    req = SimpleNamespace(version=(1, 1), method=method, should_close=lambda: False, headers=[])
    wire = Wire()
    resp = OneSendResponse(req, wire, Config())
    length = sum(len(b) for b in body)
    resp.start_response(status, list(headers) + ([("Content-Length", str(length))] if sized else []))
    for chunk in body:
        resp.write(chunk)
    resp.close()
    return wire.sends


def test_a_sized_json_answer_is_one_send_with_headers_then_body():
    """Status line, headers and body leave in one send, byte for byte what gunicorn would send."""
    sends = respond()
    assert len(sends) == 1
    head, _, body = sends[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 201 CREATED\r\n") and b"Content-Length: 7" in head and body == b'{"a":1}'


def test_later_chunks_and_bodiless_answers_are_still_sent():
    """A second body chunk is its own send; a HEAD or an empty body still sends its headers once."""
    sends = respond(body=(b'{"a":', b"1}"))
    assert len(sends) == 2 and sends[0].endswith(b'{"a":') and sends[1] == b"1}"
    for sends in (respond(method="HEAD"), respond(status="204 NO CONTENT", body=())):
        assert len(sends) == 1 and sends[0].endswith(b"\r\n\r\n")


def test_a_stream_without_length_is_chunked_as_gunicorn_does():
    """A response without Content-Length (a live stream) keeps gunicorn's chunked framing."""
    sends = respond(status="200 OK", headers=(("Content-Type", "text/event-stream"),), body=(b"data: 1\n\n",),
                    sized=False)
    assert b"Transfer-Encoding: chunked" in sends[0] and b"".join(sends).endswith(b"0\r\n\r\n")
    assert b"9\r\ndata: 1\n\n\r\n" in b"".join(sends)


def test_the_date_header_is_formatted_once_a_second():
    """Within one second the same text, formatted once; the next second a new one; a given time is formatted."""
    from gunicorn import util

    from service.server.web_response import SecondDate
    now, formatted = [1_700_000_000.25], []

    def format_date(timestamp):
        formatted.append(timestamp)
        return util.http_date(timestamp)

    date = SecondDate(format_date, clock=lambda: now[0])
    first = date()
    now[0] += 0.5
    assert date() == first == util.http_date(1_700_000_000) and formatted == [1_700_000_000]
    now[0] += 0.5
    assert date() == util.http_date(1_700_000_001) != first and len(formatted) == 2
    assert date(86400) == "Fri, 02 Jan 1970 00:00:00 GMT"
