package contexts_test

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/contexts"
)

// BenchmarkPythonIdleContextPrivateMemory is BenchmarkIdleContextMemory for
// Python with the private part split out: VmRSS also counts the pages of the
// snapshot's memory image a guest has only read, which are mapped from the
// compiled module (the page cache) and shared by every guest, while RssAnon
// is what each guest copied or allocated (the goal: at most 3 MiB).
func BenchmarkPythonIdleContextPrivateMemory(b *testing.B) {
	if !hasPython() {
		b.Skip("python: guest image not built")
	}
	const n = 16
	m := MustManager(b, contexts.Config{MaxContexts: n + 1}, 0)
	warm := MustCreate(b, m, wasmexec.ContextSpec{Language: wasmexec.Python})
	MustRun(b, m, warm.ContextID, wasmexec.Request{Language: wasmexec.Python, Code: "1"})
	var rss, anon float64
	for range b.N {
		runtime.GC()
		debug.FreeOSMemory()
		rss0, anon0 := procStatus(b, "VmRSS:"), procStatus(b, "RssAnon:")
		ids := make([]string, n)
		for i := range n {
			ids[i] = MustCreate(b, m, wasmexec.ContextSpec{Language: wasmexec.Python}).ContextID
			MustRun(b, m, ids[i], wasmexec.Request{Language: wasmexec.Python, Code: "1"})
		}
		runtime.GC()
		rss = float64(procStatus(b, "VmRSS:")-rss0) / n / (1 << 20)
		anon = float64(procStatus(b, "RssAnon:")-anon0) / n / (1 << 20)
		for _, id := range ids {
			m.Delete(context.Background(), id)
		}
	}
	b.ReportMetric(rss, "MiB-rss/idle-context")
	b.ReportMetric(anon, "MiB-private/idle-context")
}

func procStatus(tb testing.TB, field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		tb.Skip("no /proc/self/status")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			kb, err := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return kb << 10
		}
	}
	tb.Skipf("no %s in /proc/self/status", field)
	return 0
}
