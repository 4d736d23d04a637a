# wasmexec — the two commands are `make run` and `make test`.
#
# Slow artifacts live outside the clone, keyed by a hash of their inputs:
# guest images in $(CACHE)/images/NAME-HASH (build/images/NAME links there),
# compiled modules in $(CACHE)/modules. Delete $(CACHE) to start over.

SHELL := /bin/bash
# A failing benchmark fails make bench, though its output is filtered.
.SHELLFLAGS := -o pipefail -ec
CACHE ?= $(or $(WASMEXEC_CACHE_DIR),$(HOME)/.cache/wasmexec)
export WASMEXEC_CACHE_DIR := $(CACHE)
export WASMEXEC_IMAGES_DIR := $(CURDIR)/build/images
GUESTS := js $(if $(wildcard guest-images/python/build.sh),python) $(if $(wildcard guest-images/pylibs/build.sh),pylibs) $(if $(wildcard guest-images/typescript/build.sh),typescript)
BIN := bin/wasmexec
GO_TEST_FLAGS ?=

.PHONY: all build run test bench check fuzz guest-images prepare postgres clean FORCE

all: build

build: $(BIN)

$(BIN): FORCE
	@mkdir -p bin
	go build -o $(BIN) ./cmd/wasmexec

guest-images:
	@for g in $(GUESTS); do guest-images/build-cached.sh $$g || exit 1; done

# prepare compiles each guest image once per engine configuration into the
# module cache, so neither the server nor the tests compile on a request.
prepare: build guest-images
	$(BIN) prepare --images-dir build/images

# postgres installs Debian's PostgreSQL server when it is missing (apt-get,
# as root; scripts/install-postgres.sh says what it does): the tests and
# the benchmark of the PostgreSQL store start a throwaway cluster of it.
# Where it cannot be installed those tests skip, saying why.
postgres:
	@scripts/install-postgres.sh

# run serves what is ready: the server binary and the js image first (the
# TypeScript checker's beside them), then the server starts while the
# Python image builds in the background (scripts/run.sh; progress on
# stderr and in /readyz, logs in build/logs).
run:
	@BIN=$(BIN) scripts/run.sh

# test runs the race detector where our code runs concurrently in the test
# process, and plain tests elsewhere: cmd/wasmexec (its tests drive the real
# binary, a separate plain process), guest-images (shell scripts) and vfs (no
# goroutines). The plain tests share the compiled packages of make build and
# run alongside the race pass, whose slowest package (tscheck: TypeScript
# compiles in worker processes) is listed first so it starts first. go vet
# runs in make check, not here.
PLAIN_PKGS := ./cmd/wasmexec ./guest-images ./vfs
FIRST_PKGS := ./languages/ts/tscheck ./store
TEST := WASMEXEC_REQUIRE_IMAGES=1 go test -vet=off -count=1 -timeout 40m $(GO_TEST_FLAGS)
RACE_PKGS = $(FIRST_PKGS) $(filter-out $(FIRST_PKGS) $(PLAIN_PKGS),$(patsubst github.com/wasmexec/wasmexec/%,./%,$(shell go list ./...)))
test: prepare postgres
	@plain=$$(mktemp); \
	echo "$(TEST) $(PLAIN_PKGS), alongside:"; \
	$(TEST) $(PLAIN_PKGS) >$$plain 2>&1 & pid=$$!; \
	echo "$(TEST) -race $(RACE_PKGS)"; \
	rc=0; $(TEST) -race $(RACE_PKGS) || rc=$$?; \
	wait $$pid || rc=$$?; cat $$plain; rm -f $$plain; exit $$rc

# bench prints Go micro-benchmarks (guest start, transpile, checker worker
# start, store, the front door open vs with keys) and then the load run's
# table against the real server (BENCH_FLAGS='-only authcost': one section).
bench: prepare postgres
	go test -run '^$$' -bench 'GuestStart|Transpile$$' -benchtime 200x ./engine/ ./languages/ts/ | grep -E '^Benchmark'
	go test -run '^$$' -bench 'Hibernate' -benchtime 20x ./engine/ | grep -E '^Benchmark'
	go test -run '^$$' -bench 'WorkerColdStart|Sweep100k' -benchtime 1x ./languages/ts/tscheck/ ./store/ | grep -E '^Benchmark'
	go test -run '^$$' -bench 'PythonIdleContextPrivateMemory' -benchtime 2x ./contexts/ | grep -E '^Benchmark'
	go test -run '^$$' -bench 'FrontDoor' -benchtime 20000x -cpu 1 ./server/ | grep -E '^Benchmark'
	go run ./cmd/wasmexec-bench $(BENCH_FLAGS)

# fuzz runs every fuzz target for FUZZTIME each (make test runs their seed
# corpora only). FUZZTIME=5m make fuzz for a longer run.
FUZZTIME ?= 30s
fuzz:
	@for pkg in $$(go list ./...); do \
	  for t in $$(go test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$t ($(FUZZTIME))"; \
	    go test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

check:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	go vet ./...
	go test -count=1 -run 'TestLayering|TestNoWasmtimeOutsideEngine|TestLargePackagesSayWhy|TestMapNamesWhatExists' .
	cd guest-images/js && GOOS=wasip1 GOARCH=wasm go vet ./...
	go mod tidy && git diff --exit-code go.mod go.sum

clean:
	rm -rf bin build
