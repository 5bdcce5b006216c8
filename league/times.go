package league

import "time"

// ParseTime reads a date and time in RFC 3339 form. RFC 3339 §5.6 lets the
// "T" between date and time and the "Z" of UTC be written in lower case
// ("2030-01-31t18:00:00z"), which Go's time package refuses; they are read
// here as their capitals. Anything else malformed is still an error.
func ParseTime(s string) (time.Time, error) {
	return time.Parse(time.RFC3339Nano, UpperCaseTimeLetters(s))
}

// UpperCaseTimeLetters returns s, if it has the shape of an RFC 3339 date
// and time, with a lower-case "t" separator and "z" offset in capitals, as
// encoding/json and the time package read them; any other string comes back
// as it is. The result is as long as s, byte for byte.
func UpperCaseTimeLetters(s string) string {
	if len(s) < len("2006-01-02t15:04:05z") || s[4] != '-' || s[7] != '-' || s[13] != ':' {
		return s
	}
	b := []byte(s)
	if b[10] == 't' {
		b[10] = 'T'
	}
	if last := len(b) - 1; b[last] == 'z' {
		b[last] = 'Z'
	}
	return string(b)
}
