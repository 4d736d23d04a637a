// Package clients holds the Python and TypeScript SDKs of the wasmexec
// API (clients/python, clients/typescript) and, in its test, the harness
// that tests them against the real binary: it starts a server, builds
// each package as it would be published (python -m build, npm pack),
// installs what was built, runs its suite (pytest, node --test) and the
// SDK's agent-loop example (examples/), installing the test dependencies
// from PyPI and npm. Where a registry can't be reached the test skips,
// saying so.
package clients
