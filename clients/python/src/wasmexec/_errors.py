from __future__ import annotations

from typing import Any, Optional

__all__ = ["WasmexecError"]


class WasmexecError(Exception):
    """Every failure of a call: an error the API answered, or the transport's.

    ``code`` is the API's stable code (invalid_argument, not_found,
    context_not_found, conflict, overloaded, unauthorized, ...), or
    ``connection_error`` when the server could not be reached or the
    connection broke; ``status`` is the HTTP status (None for a connection
    error); ``retry_after`` is seconds from Retry-After on 429 and 503.
    A guest failure is not an error: it is a Result with outcome failed.
    """

    def __init__(
        self,
        code: str,
        message: str,
        status: Optional[int] = None,
        *,
        retry_after: Optional[float] = None,
        request_id: Optional[str] = None,
    ) -> None:
        super().__init__(f"{code}: {message}" + (f" (HTTP {status})" if status else ""))
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.request_id = request_id

    @classmethod
    def _from_response(cls, status: int, headers: Any, body: bytes) -> "WasmexecError":
        import json

        code, message = f"http_{status}", body.decode("utf-8", "replace").strip()
        try:
            data = json.loads(body)
            if isinstance(data, dict) and data.get("code"):
                code, message = data["code"], data.get("message", "")
        except ValueError:
            pass
        retry = headers.get("retry-after")
        try:
            retry_after = float(retry) if retry is not None else None
        except ValueError:
            retry_after = None
        return cls(code, message, status, retry_after=retry_after, request_id=headers.get("x-request-id"))
