package postgres

import (
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/seqleague/seqleague/league"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Helpers shared by the services of this package.

// validID reports whether s is a well-formed ID. IDs are UUIDs; anything
// else cannot name a row, and is answered ENOTFOUND without asking the
// database (which would refuse the cast).
func validID(s string) bool {
	if len(s) != 36 {
		return false
	}
	_, err := uuid.Parse(s)
	return err == nil
}

// parentExists answers notFound unless table has a row of that id. Lists
// under a parent (a user's games, a club's leagues, a game's moves) ask it
// of an empty page only: that is all a parent that does not exist could
// give, and a page with items proves its parent.
func parentExists(db *gorm.DB, table, id string, notFound func() error) error {
	var found bool
	if err := db.Raw("SELECT EXISTS (SELECT 1 FROM "+table+" WHERE id = ?)", id).Scan(&found).Error; err != nil {
		return err
	}
	if !found {
		return notFound()
	}
	return nil
}

func noSuchUser() error { return league.Errorf(league.ENOTFOUND, "no such user") }

// uniqueViolation returns the name of the unique index or constraint err
// violated, or "" if err is no unique violation.
func uniqueViolation(err error) string {
	if !errors.Is(err, gorm.ErrDuplicatedKey) {
		return ""
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.ConstraintName
	}
	return "unknown"
}

func notFound(err error) bool { return errors.Is(err, gorm.ErrRecordNotFound) }

// secretToken returns n random bytes as unpadded base64url text.
func secretToken(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// hashSecret is how refresh tokens and invite codes are stored: a SHA-256
// of the secret (they are random and long, so no salt or slow hash is
// needed; a leaked table yields nothing usable).
func hashSecret(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// Cursors are opaque to clients: "k:" and the sort key, base64url.
func encodeCursor(key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("k:" + key))
}

func decodeCursor(c string) (string, error) {
	if c == "" {
		return "", nil
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), "k:") || !utf8.Valid(b) || strings.ContainsRune(string(b), 0) {
		return "", league.Invalid("the cursor is not valid", league.FieldError{Field: "cursor", Message: "is not a cursor this server issued"})
	}
	return string(b[2:]), nil
}

// badCursor is the refusal of a cursor this server did not issue.
func badCursor() error {
	return league.Invalid("the cursor is not valid", league.FieldError{Field: "cursor", Message: "is not a cursor this server issued"})
}

// encodeKeyCursor continues a list ordered by a text key with the id as
// tie-breaker. The id (a UUID, never holding "|") goes first so that the
// key may hold anything.
func encodeKeyCursor(key, id string) string {
	return encodeCursor(id + "|" + key)
}

// decodeKeyCursor reads an encodeKeyCursor cursor.
func decodeKeyCursor(c string) (key, id string, err error) {
	s, err := decodeCursor(c)
	if err != nil {
		return "", "", err
	}
	id, key, ok := strings.Cut(s, "|")
	if !ok || !validID(id) {
		return "", "", badCursor()
	}
	return key, id, nil
}

// encodeTimeCursor continues a list ordered by (created_at, id); see
// decodeTimeCursor.
func encodeTimeCursor(at time.Time, id string) string {
	return encodeCursor(at.UTC().Format(time.RFC3339Nano) + "|" + id)
}

// keyset is a list's paging order: a key and the id that breaks its ties
// (SQL expressions, qualified as the query needs), ascending or newest
// first. One description gives both the ORDER BY and the condition that
// continues after a cursor, so the two cannot disagree.
type keyset struct {
	key, id string
	desc    bool
	byTime  bool // the key is a timestamp (encodeTimeCursor), else text (encodeKeyCursor)
}

var (
	newestFirst = keyset{key: "created_at", id: "id", desc: true, byTime: true}
	oldestFirst = keyset{key: "created_at", id: "id", byTime: true}
	byName      = keyset{key: "name", id: "id"}
)

// page limits q to the page p asks for, plus one row to tell whether more
// follow (see morePages).
func (k keyset) page(q *gorm.DB, p league.PageRequest) (*gorm.DB, error) {
	dir, after := "", ">"
	if k.desc {
		dir, after = " DESC", "<"
	}
	if p.Cursor != "" {
		var key any
		var id string
		var err error
		if k.byTime {
			key, id, err = decodeTimeCursor(p.Cursor)
		} else {
			key, id, err = decodeKeyCursor(p.Cursor)
		}
		if err != nil {
			return nil, err
		}
		q = q.Where("("+k.key+", "+k.id+") "+after+" (?, ?)", key, id)
	}
	return q.Order(k.key + dir + ", " + k.id + dir).Limit(p.Limit + 1), nil
}

// findPage reads the page p asks for of q in the order k, and the cursor
// of the page after it ("" on the last page); cursorOf makes a row's.
func findPage[R any](q *gorm.DB, k keyset, p league.PageRequest, cursorOf func(*R) string) ([]R, string, error) {
	return readPage(q, k, p, cursorOf, func(q *gorm.DB, rows *[]R) error { return q.Find(rows).Error })
}

// scanPage is findPage for a query that names its tables and columns
// (a join read into a struct of its own), which GORM reads by Scan.
func scanPage[R any](q *gorm.DB, k keyset, p league.PageRequest, cursorOf func(*R) string) ([]R, string, error) {
	return readPage(q, k, p, cursorOf, func(q *gorm.DB, rows *[]R) error { return q.Scan(rows).Error })
}

func readPage[R any](q *gorm.DB, k keyset, p league.PageRequest, cursorOf func(*R) string, read func(*gorm.DB, *[]R) error) ([]R, string, error) {
	q, err := k.page(q, p)
	if err != nil {
		return nil, "", err
	}
	var rows []R
	if err := read(q, &rows); err != nil {
		return nil, "", err
	}
	rows, more := morePages(rows, p.Limit)
	if !more {
		return rows, "", nil
	}
	return rows, cursorOf(&rows[len(rows)-1]), nil
}

// morePages cuts the extra row of a LIMIT n+1 query: the rows of the page
// and whether a next page exists.
func morePages[R any](rows []R, limit int) ([]R, bool) {
	if len(rows) > limit {
		return rows[:limit], true
	}
	return rows, false
}

// likeContains is a LIKE pattern matching s anywhere, with s's own
// wildcards escaped.
func likeContains(s string) string {
	return "%" + likeEscaped(s) + "%"
}

// likeEscaped escapes a LIKE pattern's wildcards (and its escape, \).
func likeEscaped(s string) string {
	return likeEscapes.Replace(s)
}

var likeEscapes = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// readOnly marks transactions that only read.
var readOnly = &sql.TxOptions{ReadOnly: true}

// lockingUpdate is the FOR UPDATE clause.
func lockingUpdate() clause.Locking { return clause.Locking{Strength: "UPDATE"} }

// lockingShare is the FOR SHARE clause.
func lockingShare() clause.Locking { return clause.Locking{Strength: "SHARE"} }
