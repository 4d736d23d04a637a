//go:build race

package ts

const raceEnabled = true
