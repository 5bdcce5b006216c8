package server

import (
	"encoding/json"
	"io"
)

func jsonEncode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	return enc.Encode(v)
}
