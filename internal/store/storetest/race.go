//go:build race

package storetest

// raceEnabled tells that the tests run under the race detector.
const raceEnabled = true
