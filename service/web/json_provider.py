"""Flask's JSON through orjson: responses and request bodies are the hot JSON of every request."""
from __future__ import annotations

import orjson
from flask.json.provider import DefaultJSONProvider

from service.app.state_views import OPTIONS, response_body, str_keys


class OrjsonProvider(DefaultJSONProvider):
    """Compact UTF-8 JSON by orjson, keys sorted (one answer, the same bytes in any process); whatever orjson
    refuses (an integer beyond 64 bits, a formatting option) goes through Flask's default provider, so the
    output is valid JSON either way."""

    sort_keys = True

    def dumps(self, obj, **kwargs) -> str:
        """Serialise to a str (templates' `tojson` passes options: those use the default provider)."""
        if kwargs:
            return super().dumps(obj, **kwargs)
        try:
            return orjson.dumps(obj, default=self.default, option=OPTIONS).decode()
        except TypeError:
            return super().dumps(str_keys(obj), separators=(",", ":"))

    def loads(self, s, **kwargs):
        """Parse JSON text or bytes (orjson refuses lone surrogates and nesting beyond 1,024 levels)."""
        if kwargs:
            return super().loads(s, **kwargs)
        return orjson.loads(s)

    def response(self, *args, **kwargs):
        """A JSON response built from orjson's bytes without an intermediate str."""
        obj = self._prepare_response_obj(args, kwargs)
        if self._app.debug:
            return super().response(obj)
        data = response_body(obj, self.default, lambda o: super(OrjsonProvider, self).dumps(o, separators=(",", ":")))
        return self._app.response_class(data, mimetype=self.mimetype)
