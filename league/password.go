package league

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"sync/atomic"

	"golang.org/x/crypto/argon2"
)

// Argon2Params are the argon2id cost parameters. They are written into every
// hash (PHC string format), so that they can be raised later and old hashes
// still verify (and are rehashed at the next successful login).
type Argon2Params struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
	SaltLen   uint32
	KeyLen    uint32
}

// DefaultArgon2Params is OWASP's first argon2id recommendation: 19 MiB,
// two passes, one lane. One lane keeps each hash on one core, so a cap of
// one hash per core uses every core while memory stays at 19 MiB per core
// (the alternative m=64 MiB t=1 p=2 would need 64 MiB per hash in flight).
var DefaultArgon2Params = Argon2Params{MemoryKiB: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// PasswordHasher hashes and verifies passwords with argon2id. At most
// Concurrency hashes run at once: each holds MemoryKiB of memory, so a flood
// of logins queues (bounded by the caller's context) instead of exhausting
// memory.
type PasswordHasher struct {
	params Argon2Params
	sem    chan struct{}
	dummy  string // a hash to spend time on when there is no real one
	count  atomic.Uint64
}

// NewPasswordHasher returns a hasher running at most concurrency hashes at
// once (at least one).
func NewPasswordHasher(params Argon2Params, concurrency int) *PasswordHasher {
	if concurrency < 1 {
		concurrency = 1
	}
	h := &PasswordHasher{params: params, sem: make(chan struct{}, concurrency)}
	h.dummy = h.encode(make([]byte, params.SaltLen), argon2.IDKey([]byte("dummy"), make([]byte, params.SaltLen), params.Time, params.MemoryKiB, params.Threads, params.KeyLen), params)
	return h
}

// Hashes is how many argon2id computations the hasher has run (tests use it
// to check that a login of an unknown user still spends one).
func (h *PasswordHasher) Hashes() uint64 { return h.count.Load() }

// Hash returns the PHC-format argon2id hash of password.
func (h *PasswordHasher) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, h.params.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key, err := h.derive(ctx, password, salt, h.params)
	if err != nil {
		return "", err
	}
	return h.encode(salt, key, h.params), nil
}

// Verify reports whether password matches encoded, and whether encoded was
// made with other parameters than the current ones (and should be
// replaced). An empty or unparsable encoded hash (a bot, say) never matches
// but still costs one hash, so that timing does not tell it apart.
func (h *PasswordHasher) Verify(ctx context.Context, encoded, password string) (ok, rehash bool, err error) {
	p, salt, want, perr := decodeHash(encoded)
	if perr != nil {
		p, salt, want, _ = decodeHash(h.dummy)
	}
	got, err := h.derive(ctx, password, salt, p)
	if err != nil {
		return false, false, err
	}
	match := subtle.ConstantTimeCompare(got, want) == 1 && perr == nil
	return match, match && p != h.params, nil
}

// Burn spends as long as a verification would, for a login whose user does
// not exist.
func (h *PasswordHasher) Burn(ctx context.Context, password string) error {
	_, _, err := h.Verify(ctx, h.dummy, password)
	return err
}

func (h *PasswordHasher) derive(ctx context.Context, password string, salt []byte, p Argon2Params) ([]byte, error) {
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, &Error{Code: ETOOMANY, Message: "the server is busy; try again shortly", RetryAfterSeconds: 1}
	}
	defer func() { <-h.sem }()
	h.count.Add(1)
	return argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, p.KeyLen), nil
}

func (h *PasswordHasher) encode(salt, key []byte, p Argon2Params) string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.MemoryKiB, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

func decodeHash(encoded string) (Argon2Params, []byte, []byte, error) {
	var p Argon2Params
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return p, nil, nil, fmt.Errorf("not an argon2id hash")
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return p, nil, nil, fmt.Errorf("unsupported argon2 version")
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil {
		return p, nil, nil, fmt.Errorf("bad argon2 parameters: %w", err)
	}
	if p.MemoryKiB == 0 || p.Time == 0 || p.Threads == 0 || p.MemoryKiB > 1<<22 || p.Time > 64 {
		return p, nil, nil, fmt.Errorf("argon2 parameters out of range")
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil {
		return p, nil, nil, err
	}
	key, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(key) < 16 || len(key) > 64 {
		return p, nil, nil, fmt.Errorf("bad argon2 key")
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}
