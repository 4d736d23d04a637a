package processes_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/egress"
)

// A process opened to a host fetches from it; its record and its live
// output list the request (a network event).
func TestProcessNetwork(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "pong") }))
	defer srv.Close()
	eg, err := egress.New(egress.Config{Allow: []string{"127.0.0.1:*"}})
	if err != nil {
		t.Fatal(err)
	}
	e := MustEnv(t, envOpts{network: eg})
	body, _ := json.Marshal(wasmexec.SpawnRequest{Language: wasmexec.JavaScript, Network: &wasmexec.Network{Allow: []string{srv.URL}},
		Code: fmt.Sprintf(`console.log(await (await fetch(%q)).text())`, srv.URL)})
	p := e.spawn(t, string(body))
	if w := e.waitExit(t, p.PID); w["outcome"] != "exited" || w["exitCode"] != float64(0) {
		t.Fatalf("wait %v", w)
	}
	res := e.done.get(p.ExecutionID)
	if res == nil || *res.Stdout != "pong\n" || len(res.Network) != 1 || res.Network[0].Status != 200 {
		t.Fatalf("record %+v", res)
	}
	evs := e.done.evs[p.ExecutionID]
	if len(evs) != 2 || evs[0].Channel != wasmexec.NetworkChannel || evs[1].Channel != wasmexec.Stdout {
		t.Fatalf("events %+v", evs)
	}
}
