package procbench

import "testing"

func TestChunkInfo(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		seq        uint64
		n          int
	}{
		{"plain", `{"pid":1,"sequence":42,"channel":"stdout","chunk":"xxxx","timestampMs":1}`, 42, 4},
		{"escapes", `{"pid":1,"sequence":7,"channel":"stdout","chunk":"a\"b\n\u00e9","timestampMs":1}`, 7, 6},
		{"base64", `{"pid":1,"sequence":9,"channel":"stdout","chunk":"//79","encoding":"base64","timestampMs":1}`, 9, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seq, n, err := chunkInfo([]byte(tc.data))
			if err != nil || seq != tc.seq || n != tc.n {
				t.Fatalf("got %d %d %v, want %d %d", seq, n, err, tc.seq, tc.n)
			}
		})
	}
	if _, _, err := chunkInfo([]byte(`{"sequence":`)); err == nil {
		t.Fatal("malformed event accepted")
	}
}
