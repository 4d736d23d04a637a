import os
import uuid

import pytest

from wasmexec import AsyncSandbox, Sandbox


@pytest.fixture(scope="session")
def url() -> str:
    u = os.environ.get("WASMEXEC_URL")
    if not u:
        pytest.skip("WASMEXEC_URL is not set: these tests run against a real server (clients/clients_test.go starts one)")
    return u


@pytest.fixture
def sb(url):
    with Sandbox(url) as s:
        yield s


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
async def asb(url):
    async with AsyncSandbox(url) as s:
        yield s


@pytest.fixture
def name():
    return "py-" + uuid.uuid4().hex[:12]


OFFLINE = ("dial tcp", "no such host", "connection refused", "network is unreachable", "i/o timeout", "tls handshake")


def skip_offline(res):
    """Skip when an install failed because the registry was unreachable."""
    if res.outcome != "succeeded" and res.error and any(s in res.error.message.lower() for s in OFFLINE):
        pytest.skip(f"the package registry is unreachable: {res.error.message}")
