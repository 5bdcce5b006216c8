// Package vectors loads rule vectors (the JSON conformance format described in
// the README and in engine/testdata/vectors) and checks them against the
// engines. A vector names its game; this package dispatches to the checker for
// that game and reports one line per vector, exactly as `seqleague engine
// vectors` prints it.
package vectors
