package main

import (
	"fmt"
	"io"

	"github.com/seqleague/seqleague/engine/vectors"
)

func engineCommand(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: seqleague engine vectors PATH… | engine selfplay [flags]")
	}
	switch args[0] {
	case "vectors":
		if len(args) < 2 {
			return fmt.Errorf("usage: seqleague engine vectors PATH…")
		}
		if code := vectors.Run(args[1:], stdout); code != 0 {
			return exitError{code}
		}
		return nil
	}
	return fmt.Errorf("unknown engine command %q", args[0])
}
