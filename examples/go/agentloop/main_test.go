package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/client/clienttest"
)

// The loop against the real binary: the failed first try goes back to the
// model, and the answer quotes what the sandbox computed.
func TestAgentLoop(t *testing.T) {
	srv, err := clienttest.Start()
	if errors.Is(err, clienttest.ErrSkip) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var log strings.Builder
	answer, err := run(ctx, srv.URL, &log)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if answer != "The mean temperature was 21.5 °C; day 5 was the hottest." {
		t.Fatalf("answer %q\n%s", answer, log.String())
	}
	for _, want := range []string{"AttributeError: 'list' object has no attribute 'mean'", "    stdout: n = 7\n"} {
		if !strings.Contains(log.String(), want) {
			t.Fatalf("the transcript lacks %q:\n%s", want, log.String())
		}
	}
}
