package league

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// cheap keeps the tests fast; the real parameters are exercised once below.
var cheap = Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

func TestPasswordHashVerifiesOnlyTheRightPassword(t *testing.T) {
	ctx := context.Background()
	h := NewPasswordHasher(DefaultArgon2Params, 2)
	enc, err := h.Hash(ctx, "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if want := "$argon2id$v=19$m=19456,t=2,p=1$"; !strings.HasPrefix(enc, want) {
		t.Fatalf("hash = %q, want PHC string starting %q", enc, want)
	}
	for _, tc := range []struct {
		password string
		want     bool
	}{
		{"correct horse battery", true},
		{"correct horse batterY", false},
		{"", false},
	} {
		ok, rehash, err := h.Verify(ctx, enc, tc.password)
		if err != nil || ok != tc.want || rehash {
			t.Errorf("Verify(%q) = %v, %v, %v; want %v, false, nil", tc.password, ok, rehash, err, tc.want)
		}
	}
	again, _ := h.Hash(ctx, "correct horse battery")
	if again == enc {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
}

func TestPasswordHashWithOldParametersAsksForARehash(t *testing.T) {
	ctx := context.Background()
	old := NewPasswordHasher(cheap, 1)
	enc, _ := old.Hash(ctx, "password1")
	ok, rehash, err := NewPasswordHasher(DefaultArgon2Params, 1).Verify(ctx, enc, "password1")
	if err != nil || !ok || !rehash {
		t.Fatalf("Verify with new parameters = %v, %v, %v; want true, true, nil", ok, rehash, err)
	}
}

func TestPasswordVerifyOfNoHashStillSpendsAHash(t *testing.T) {
	ctx := context.Background()
	h := NewPasswordHasher(cheap, 1)
	for _, enc := range []string{"", "garbage", "$argon2id$v=19$m=99999999,t=1,p=1$AAAA$AAAA"} {
		before := h.Hashes()
		ok, _, err := h.Verify(ctx, enc, "password1")
		if err != nil || ok {
			t.Errorf("Verify(%q) = %v, %v; want false, nil", enc, ok, err)
		}
		if h.Hashes() != before+1 {
			t.Errorf("Verify(%q) ran %d hashes, want 1", enc, h.Hashes()-before)
		}
	}
	before := h.Hashes()
	if err := h.Burn(ctx, "x"); err != nil || h.Hashes() != before+1 {
		t.Errorf("Burn ran %d hashes (err %v), want 1", h.Hashes()-before, err)
	}
}

func TestPasswordHashingIsCappedAtTheConcurrency(t *testing.T) {
	const limit = 2
	h := NewPasswordHasher(Argon2Params{MemoryKiB: 4 * 1024, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, limit)
	var running, peak atomic.Int32
	// Watch the semaphore while many hashes are asked for at once.
	stop := make(chan struct{})
	var watcher sync.WaitGroup
	watcher.Add(1)
	go func() {
		defer watcher.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			n := int32(len(h.sem))
			running.Store(n)
			if n > peak.Load() {
				peak.Store(n)
			}
			time.Sleep(50 * time.Microsecond)
		}
	}()
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := h.Hash(context.Background(), "password1"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	close(stop)
	watcher.Wait()
	if got := peak.Load(); got > limit || got == 0 {
		t.Fatalf("peak concurrent hashes = %d, want 1..%d", got, limit)
	}
}

func TestPasswordHashWaitingPastTheDeadlineIsTooMany(t *testing.T) {
	h := NewPasswordHasher(cheap, 1)
	h.sem <- struct{}{} // the only slot is busy
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := h.Hash(ctx, "password1")
	if code := ErrorCode(err); code != ETOOMANY {
		t.Fatalf("error code = %q, want %q", code, ETOOMANY)
	}
}
