package store

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/wasmexec/wasmexec/internal/pgtest"
)

func TestDbgURL(t *testing.T) {
	url := pgtest.NewDatabase(t)
	fmt.Println("URL", url)
	os.WriteFile("/tmp/pgurl", []byte(url), 0o644)
	for {
		if _, err := os.Stat("/tmp/pgdone"); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}
