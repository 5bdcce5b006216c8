package vectors

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Exit codes of a run, as the vector specification fixes them.
const (
	ExitPassed     = 0
	ExitFailed     = 1
	ExitUnreadable = 2
)

// Result is the outcome of checking one vector.
type Result struct {
	File string
	Name string
	Err  error // nil when the vector passed
}

// header holds the fields every vector has, read before dispatching on game.
type header struct {
	Name string `json:"name"`
	Game string `json:"game"`
}

// FileError reports a file that could not be read or parsed as a vector.
type FileError struct {
	File string
	Err  error
}

func (e *FileError) Error() string { return e.File + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// Check checks one vector given as raw JSON. A returned *FileError means the
// document is not a valid vector; any other error is a failed check.
func Check(raw []byte) (name string, err error) {
	var h header
	if err := json.Unmarshal(raw, &h); err != nil {
		return "", &FileError{Err: fmt.Errorf("not a vector: %w", err)}
	}
	if h.Name == "" {
		return "", &FileError{Err: errors.New(`missing "name"`)}
	}
	switch h.Game {
	case "sequence":
		return h.Name, checkSequence(raw)
	case "stacks":
		return h.Name, checkStacks(raw)
	default:
		return h.Name, &FileError{Err: fmt.Errorf("unknown game %q", h.Game)}
	}
}

// Files expands paths (files or folders, folders searched recursively for
// *.json) into a sorted list of vector files.
func Files(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, &FileError{File: p, Err: err}
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".json") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, &FileError{File: p, Err: err}
		}
	}
	sort.Strings(files)
	return files, nil
}

// CheckFile reads and checks one vector file.
func CheckFile(path string) Result {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Result{File: path, Err: &FileError{File: path, Err: err}}
	}
	name, err := Check(raw)
	var fe *FileError
	if errors.As(err, &fe) {
		fe.File = path
	}
	if name == "" {
		name = path
	}
	return Result{File: path, Name: name, Err: err}
}

// Run checks every vector under paths, writes `PASS name` / `FAIL name: why`
// lines and the closing `N passed, N failed` line to w, and returns the exit
// code: 0 all passed, 1 some failed, 2 some file could not be read or parsed.
// A path that cannot be read is reported and the others are still checked.
func Run(paths []string, w io.Writer) int {
	passed, failed, unreadable := 0, 0, 0
	var files []string
	for _, p := range paths {
		found, err := Files([]string{p})
		if err != nil {
			unreadable++
			fmt.Fprintf(w, "ERROR %v\n", err)
		}
		files = append(files, found...)
	}
	sort.Strings(files)
	if len(files) == 0 && unreadable == 0 {
		// A mistyped or empty directory must not pass as a suite that holds.
		fmt.Fprintf(w, "ERROR no vector files in %s\n", strings.Join(paths, " "))
		unreadable++
	}
	for _, f := range files {
		r := CheckFile(f)
		var fe *FileError
		switch {
		case r.Err == nil:
			passed++
			fmt.Fprintf(w, "PASS %s\n", r.Name)
		case errors.As(r.Err, &fe):
			unreadable++
			fmt.Fprintf(w, "ERROR %s\n", fe.Error())
		default:
			failed++
			fmt.Fprintf(w, "FAIL %s: %v\n", r.Name, r.Err)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	switch {
	case unreadable > 0:
		return ExitUnreadable
	case failed > 0:
		return ExitFailed
	}
	return ExitPassed
}
