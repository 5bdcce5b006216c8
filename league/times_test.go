package league

import (
	"testing"
	"time"
)

func TestParseTimeTakesLowerCaseTAndZ(t *testing.T) {
	want := time.Date(2030, 1, 31, 18, 0, 0, 0, time.UTC)
	for _, s := range []string{"2030-01-31T18:00:00Z", "2030-01-31t18:00:00z", "2030-01-31t18:00:00Z", "2030-01-31t19:00:00+01:00"} {
		if got, err := ParseTime(s); err != nil || !got.Equal(want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "z", "2030-01-31x18:00:00z", "2030-01-31t18:00:00", "2030-01-31 18:00:00z", "2030-01-31t18:00z00z", "ztttttttttttttttttttz"} {
		if got, err := ParseTime(s); err == nil {
			t.Errorf("ParseTime(%q) = %v; want an error", s, got)
		}
		if up := UpperCaseTimeLetters(s); len(up) != len(s) {
			t.Errorf("UpperCaseTimeLetters(%q) = %q, of another length", s, up)
		}
	}
}
