//go:build !linux

package engine

import (
	"errors"
	"os"
)

const canMapFile = false

var errNoMap = errors.New("mapping states from files is Linux only")

func mapFileFixed([]byte, memRange, *os.File) error { return errNoMap }

func mapAnonFixed([]byte, memRange) error { return errNoMap }

func mapView(*os.File, int64, int64) ([]byte, func(), error) { return nil, nil, errNoMap }

// fileID is not needed where states are not mapped.
func fileID(os.FileInfo) (dev, ino uint64, ok bool) { return 0, 0, false }
