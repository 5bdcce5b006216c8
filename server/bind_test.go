package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/seqleague/seqleague/league"
)

// Request shapes like the API's: an embedded body, nested objects, arrays
// of objects and times.
type bindClock struct {
	TurnSeconds int `json:"turn_seconds"`
}

type bindRound struct {
	Number   int       `json:"number"`
	StartsAt time.Time `json:"starts_at"`
}

type bindSeat struct {
	User string `json:"user,omitempty"`
	Bot  string `json:"bot,omitempty"`
}

type bindBody struct {
	Clock     bindClock `json:"clock"`
	TieBreaks []string  `json:"tie_breaks"`
}

type bindRequest struct {
	Name string `json:"name"`
	bindBody
	Opens  *time.Time        `json:"registration_opens"`
	Rounds []bindRound       `json:"rounds"`
	Seats  []bindSeat        `json:"seats"`
	Labels map[string]string `json:"labels"`
}

func TestBindNamesTheFieldAtFault(t *testing.T) {
	for _, tc := range []struct {
		name, body, field, message string
	}{
		{"NUL in a top-level string", `{"name":"a\u0000b"}`, "name", "NUL"},
		{"NUL in an array of objects", `{"seats":[{"bot":"greedy"},{"user":"x\u0000"}]}`, "seats[1].user", "NUL"},
		{"NUL in an embedded body's array", `{"tie_breaks":["wins","\u0000"]}`, "tie_breaks[1]", "NUL"},
		{"NUL in a map value", `{"labels":{"colour":"re\u0000d"}}`, "labels.colour", "NUL"},
		// encoding/json decodes half a surrogate pair as U+FFFD, silently.
		{"a lone high surrogate", `{"name":"\ud800x"}`, "name", "surrogate"},
		{"a lone low surrogate in an array's object", `{"seats":[{"bot":"greedy"},{"user":"a\udc00"}]}`, "seats[1].user", "surrogate"},
		{"a high surrogate before another escape", `{"tie_breaks":["\ud83d\u0041"]}`, "tie_breaks[0]", "surrogate"},
		{"a date that is no date", `{"registration_opens":"yesterday"}`, "registration_opens", "RFC 3339"},
		{"a date out of range", `{"registration_opens":"2020-13-45T00:00:00Z"}`, "registration_opens", "RFC 3339"},
		{"a bad date in an array", `{"rounds":[{"number":1,"starts_at":"2030-01-01T00:00:00Z"},{"number":2,"starts_at":"garbage"}]}`, "rounds[1].starts_at", "RFC 3339"},
		{"a wrong type in an embedded body", `{"tie_breaks":"wins"}`, "tie_breaks", "an array"},
		{"a wrong type nested in an embedded body", `{"clock":{"turn_seconds":"ten"}}`, "clock.turn_seconds", "a whole number"},
		{"a wrong type in an array of objects", `{"seats":[{"bot":"greedy"},{"bot":"random"},{"user":5}]}`, "seats[2].user", "a string"},
		{"an unknown field lists the embedded ones too", `{"colour":"red"}`, "colour", "tie_breaks"},
		{"an unknown field of a nested object, by its path", `{"clock":{"minutes":5}}`, "clock.minutes", "accepted: turn_seconds)"},
		{"an unknown field in an array's object, by its path", `{"seats":[{"bot":"greedy"},{"usr":"me"}]}`, "seats[1].usr", "accepted: user, bot)"},
		{"an unknown field after a nested one's known fields", `{"name":"x","rounds":[{"number":1,"starts":"2030-01-01T00:00:00Z"}]}`, "rounds[0].starts", "accepted: number, starts_at)"},
		{"a number too large for any field", `{"seats":[{"user":"me"},{"bot":1e400}]}`, "seats[1].bot", "a string"},
		{"a number too large in an embedded body", `{"clock":{"turn_seconds":1e400}}`, "clock.turn_seconds", "a whole number"},
		{"a key given twice", `{"name":"Dup1","name":"Dup2"}`, "name", "more than once"},
		{"a key given twice in an array's object", `{"seats":[{"bot":"greedy"},{"user":"a","user":"b"}]}`, "seats[1].user", "more than once"},
		{"a key in another case", `{"Name":"Spring"}`, "Name", "not a field"},
		{"an array 10,001 deep for a string", `{"name":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`, "name", "a string"},
		{"an array 10,001 deep in an array's object", `{"seats":[{"bot":"greedy"},{"user":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}]}`, "seats[1].user", "a string"},
		{"objects 10,001 deep for a number", `{"clock":{"turn_seconds":` + strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001) + `}}`, "clock.turn_seconds", "a whole number"},
		{"objects 10,001 deep for a date", `{"rounds":[{"starts_at":` + strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001) + `}]}`, "rounds[0].starts_at", "RFC 3339"},
		{"arrays 10,001 deep under an unknown key", `{"colour":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`, "colour", "not a field"},
		{"a nested key in another case", `{"clock":{"TURN_SECONDS":30}}`, "clock.TURN_SECONDS", "not a field"},
		// encoding/json reads a null as the field left out: a PATCH's
		// "description": null left the description as it was, with a 200.
		{"a null for a string", `{"name":null}`, "name", "may not be null"},
		{"a null for a time", `{"registration_opens":null}`, "registration_opens", "may not be null"},
		{"a null nested in an embedded body", `{"clock":{"turn_seconds":null}}`, "clock.turn_seconds", "may not be null"},
		{"a null in an array's object", `{"seats":[{"bot":"greedy"},{"user":null}]}`, "seats[1].user", "may not be null"},
		{"a null for an item", `{"tie_breaks":["wins",null]}`, "tie_breaks[1]", "may not be null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var req bindRequest
			err := bindJSON(jsonContext(tc.body), &req)
			var le *league.Error
			if !errors.As(err, &le) || le.Code != league.EINVALID {
				t.Fatalf("error %v, want an EINVALID league error", err)
			}
			if len(le.Fields) != 1 || le.Fields[0].Field != tc.field || !strings.Contains(le.Fields[0].Message, tc.message) {
				t.Fatalf("fields %+v, want %q with a message mentioning %q", le.Fields, tc.field, tc.message)
			}
		})
	}
}

// A whole surrogate pair is a character, an escaped backslash before a u
// no escape of one, and a U+FFFD written by the client its own.
func TestBindTakesEscapesThatAreCharacters(t *testing.T) {
	for body, want := range map[string]string{
		`{"name":"\ud83c\udfb2 dice"}`: "🎲 dice",
		`{"name":"a\\ud800"}`:          `a\ud800`,
		`{"name":"\ufffd"}`:            "\ufffd",
		`{"name":"�"}`:                 "\ufffd",
	} {
		var req bindRequest
		if err := bindJSON(jsonContext(body), &req); err != nil || req.Name != want {
			t.Errorf("%s: %q, %v; want %q", body, req.Name, err, want)
		}
	}
}

func TestBindTakesGoodBodies(t *testing.T) {
	var req bindRequest
	body := `{"name":"Spring Open","clock":{"turn_seconds":30},"tie_breaks":["wins"],
		"registration_opens":"2030-01-01T18:00:00Z","rounds":[{"number":1,"starts_at":"2030-01-02T18:00:00+01:00"}],
		"seats":[{"user":"me"},{"bot":"strong"}],"labels":{"colour":"red"}}`
	if err := bindJSON(jsonContext(body), &req); err != nil {
		t.Fatal(err)
	}
	if req.Name != "Spring Open" || req.Clock.TurnSeconds != 30 || req.Opens == nil || len(req.Rounds) != 1 || req.Seats[1].Bot != "strong" {
		t.Fatalf("decoded %+v", req)
	}
	var empty bindRequest
	if err := bindOptionalJSON(jsonContext(" \n"), &empty); err != nil {
		t.Fatalf("an optional body of white space: %v", err)
	}
}

func TestBindRefusesBodiesThatAreNoJSONObjectInUTF8(t *testing.T) {
	for name, body := range map[string]string{"null": "null", "invalid UTF-8": "{\"name\":\"ab\xffcd\"}"} {
		var req bindRequest
		if err := bindJSON(jsonContext(body), &req); league.ErrorCode(err) != league.EINVALID {
			t.Errorf("%s: error %v, want EINVALID", name, err)
		}
	}
	c := jsonContext(`{"name":"x"}`)
	c.Request().Header.Set(echo.HeaderContentType, "application/json; charset=utf-16")
	var he *echo.HTTPError
	if err := bindJSON(c, &bindRequest{}); !errors.As(err, &he) || he.Code != http.StatusUnsupportedMediaType {
		t.Errorf("a body said to be UTF-16: %v, want 415", err)
	}
	c = jsonContext(`{"name":"x"}`)
	c.Request().Header.Set(echo.HeaderContentType, "application/json; charset=UTF-8")
	if err := bindJSON(c, &bindRequest{}); err != nil {
		t.Errorf("a body said to be UTF-8: %v", err)
	}
	// A compressed body is refused as compressed, not as "not UTF-8".
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(`{"name":"x"}`))
	w.Close()
	c = jsonContext(gz.String())
	c.Request().Header.Set(echo.HeaderContentEncoding, "gzip")
	if err := bindJSON(c, &bindRequest{}); !errors.As(err, &he) || he.Code != http.StatusUnsupportedMediaType || !strings.Contains(fmt.Sprint(he.Message), "uncompressed") {
		t.Errorf("a gzipped body: %v, want 415 saying to send it uncompressed", err)
	}
	if got := c.Response().Header().Get(echo.HeaderAcceptEncoding); got != "identity" {
		t.Errorf("Accept-Encoding = %q, want identity", got)
	}
	c = jsonContext(`{"name":"x"}`)
	c.Request().Header.Set(echo.HeaderContentEncoding, "identity")
	if err := bindJSON(c, &bindRequest{}); err != nil {
		t.Errorf("a body said to be uncompressed: %v", err)
	}
}

func jsonContext(body string) echo.Context {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	return echo.New().NewContext(req, httptest.NewRecorder())
}

// A body that trickles in is cut off after bodyReadTimeout with a 408,
// instead of holding the request (and a graceful shutdown) open.
func TestABodyThatTricklesInTimesOut(t *testing.T) {
	old := bodyReadTimeout
	bodyReadTimeout = 200 * time.Millisecond
	t.Cleanup(func() { bodyReadTimeout = old })
	e := echo.New()
	e.HTTPErrorHandler = errorHandler(quietLogger, nil)
	e.POST("/", func(c echo.Context) error {
		var req bindRequest
		if err := bindJSON(c, &req); err != nil {
			return err
		}
		return c.NoContent(http.StatusNoContent)
	})
	srv := httptest.NewServer(e)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{")
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	if res.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", res.StatusCode)
	}
}

// BenchmarkBindABodyNearTheLimit reads bodies of about 60 KB, under the
// 64 KiB body limit: a flat one (a long array of small objects), and two
// nested 30,000 levels deep, past encoding/json's 10,000, which are refused
// naming the field where their shape leaves the request's. The figure to
// watch is the ratio of the nested to the flat, measured in one run:
// 1.3–1.8 (arrays) and 3.3–3.7 (objects), where writing out every level's
// path made it 25 and 22 (README, "Bad input").
func BenchmarkBindABodyNearTheLimit(b *testing.B) {
	const depth = 30000
	for _, bc := range []struct{ name, body string }{
		{"flat", `{"seats":[` + strings.TrimSuffix(strings.Repeat(`{"user":"u"},`, 4600), ",") + `]}`},
		{"nested arrays", `{"name":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`},
		{"nested objects", `{"seats":[` + strings.Repeat(`{"user":`, depth) + "1" + strings.Repeat("}", depth) + `]}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				var req bindRequest
				err := bindJSON(jsonContext(bc.body), &req)
				if bc.name != "flat" && league.ErrorCode(err) != league.EINVALID {
					b.Fatalf("a nested body: %v, want it refused as invalid", err)
				}
			}
		})
	}
}
