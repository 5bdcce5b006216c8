package vectors

import "errors"

// checkStacks is replaced by the Stacks vector checker.
func checkStacks(raw []byte) error { return errors.New("stacks vectors: not implemented yet") }
