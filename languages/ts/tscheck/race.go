//go:build race

package tscheck

const raceEnabled = true
