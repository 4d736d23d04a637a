//go:build !linux

package engine

import "errors"

func residentPages(mem []byte, mapped []memRange) (total, private int64, err error) {
	return 0, 0, errors.New("no page map on this system")
}

func untouchedPages(mem []byte, baseLen int, mapped []memRange) []bool { return nil }

func trimShared(mem []byte, baseLen int, mapped []memRange) int64 { return 0 }
