"""A small asyncio Server-Sent Events client on raw HTTP/1.1 sockets, cheap enough to hold thousands of streams
(the `bench --streams` client; the load tests use it too)."""
from __future__ import annotations

import asyncio
import json


class StreamRefused(Exception):
    """The server answered the stream request with a status other than 200."""

    def __init__(self, status: int, headers: dict, body: str):
        super().__init__(f"HTTP {status}: {body[:200]}")
        self.status, self.headers, self.body = status, headers, body


async def _read_headers(reader) -> tuple[int, dict]:
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("the server closed the connection")
    status = int(status_line.split()[1])
    headers = {}
    while True:
        line = (await reader.readline()).decode("latin-1").strip()
        if not line:
            return status, headers
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()


class SseStream:
    """One open stream: `await open()` sends the request; `async for msg in stream` yields parsed messages
    ({"event", "id", "data"}; data decoded from JSON); comments are counted, not yielded."""

    def __init__(self, host: str, port: int, path: str, headers: dict | None = None, source: str | None = None):
        self.host, self.port, self.path = host, port, path
        self.source = source  # the local address to connect from (a loopback address of 127.0.0.0/8)
        self.headers = dict(headers or {})
        self.reader = self.writer = None
        self.chunked = False
        self.comments = 0
        self.last_id = None

    async def open(self) -> "SseStream":
        """Connect and send the request; raise StreamRefused for a non-200 answer."""
        self.reader, self.writer = await asyncio.open_connection(
            self.host, self.port, limit=1 << 20, local_addr=(self.source, 0) if self.source else None)
        lines = [f"GET {self.path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept: text/event-stream"]
        lines += [f"{k}: {v}" for k, v in self.headers.items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await self.writer.drain()
        status, headers = await _read_headers(self.reader)
        self.chunked = headers.get("transfer-encoding", "").lower() == "chunked"
        if status != 200:
            body = await self._rest(headers)
            self.close()
            raise StreamRefused(status, headers, body)
        return self

    async def _rest(self, headers: dict) -> str:
        if "content-length" in headers:
            return (await self.reader.readexactly(int(headers["content-length"]))).decode(errors="replace")
        chunks = []
        async for piece in self._pieces():
            chunks.append(piece)
        return "".join(chunks)

    async def _pieces(self):
        """The body's text as it arrives (chunked transfer decoding when used)."""
        while True:
            if self.chunked:
                size_line = await self.reader.readline()
                if not size_line:
                    return
                size = int(size_line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    return
                data = await self.reader.readexactly(size + 2)
                yield data[:-2].decode()
            else:
                data = await self.reader.read(65536)
                if not data:
                    return
                yield data.decode()

    async def __aiter__(self):
        buffer = ""
        async for piece in self._pieces():
            buffer += piece
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                msg = self._parse(block)
                if msg is not None:
                    yield msg

    async def ids(self):
        """The id of each data message as it arrives, its data not decoded: a cheap reader for a crowd."""
        buffer = ""
        async for piece in self._pieces():
            buffer += piece
            if "\n\n" not in buffer:
                continue
            *blocks, buffer = buffer.split("\n\n")
            for block in blocks:
                if "data:" in block:
                    found = next((line[3:].strip() for line in block.split("\n") if line.startswith("id:")), None)
                    self.last_id = found or self.last_id
                    yield found

    def _parse(self, block: str) -> dict | None:
        msg: dict = {"event": "message"}
        data = []
        for line in block.split("\n"):
            if line.startswith(":"):
                self.comments += 1
            elif line.startswith("id:"):
                msg["id"] = self.last_id = line[3:].strip()
            elif line.startswith("event:"):
                msg["event"] = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
        if not data:
            return None
        msg["data"] = json.loads("\n".join(data))
        return msg

    def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()
