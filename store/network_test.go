package store

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec"
)

// A run's network record is stored and read back; one over the cap keeps
// its first requests.
func TestNetworkRecord(t *testing.T) {
	s := MustOpen(t, Config{MaxExtraBytes: 4096})
	r := newResult("exe_net", time.Now())
	r.Network = []wasmexec.NetworkRequest{
		{Method: "GET", URL: "https://api.example.com/x?k=wasmexec-secret-K", Status: 200, Bytes: 12, Ms: 3, Secrets: []string{"K"}},
		{Method: "POST", URL: "http://10.0.0.1/", Error: "10.0.0.1 is a private address"},
	}
	MustSave(t, s, r, nil)
	if got := MustGet(t, s, "exe_net").Network; !reflect.DeepEqual(got, r.Network) {
		t.Fatalf("network = %+v, want %+v", got, r.Network)
	}
	big := newResult("exe_big", time.Now())
	for i := 0; i < 200; i++ {
		big.Network = append(big.Network, wasmexec.NetworkRequest{Method: "GET", URL: fmt.Sprintf("https://example.com/%d", i), Status: 200})
	}
	MustSave(t, s, big, nil)
	got := MustGet(t, s, "exe_big").Network
	if len(got) == 0 || len(got) >= 200 || got[0].URL != "https://example.com/0" {
		t.Fatalf("capped record: %d requests", len(got))
	}
}
