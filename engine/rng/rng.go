// Package rng is the engines' own pseudo-random generator and shuffle.
//
// Games must replay bit for bit from their seed for years, so the generator
// and the shuffle are defined here rather than borrowed from math/rand, whose
// algorithms may change between Go releases. The generator is xoshiro256**
// seeded through SplitMix64; it is a 32-byte value, so a game state can hold
// it, copy it and compare it like any other field.
package rng

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math/bits"
)

// Seed is a game seed: 32 bytes drawn by the server from crypto/rand.
type Seed [32]byte

// Hash is the SHA-256 of the seed in hex, published when a game starts so
// that players can check the deal once the seed is revealed.
func (s Seed) Hash() string {
	h := sha256.Sum256(s[:])
	return hex.EncodeToString(h[:])
}

// String is the seed in hex.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// ParseSeed reads a seed written by String.
func ParseSeed(text string) (Seed, error) {
	var s Seed
	b, err := hex.DecodeString(text)
	if err != nil {
		return s, err
	}
	if len(b) != len(s) {
		return s, hex.InvalidByteError(0)
	}
	copy(s[:], b)
	return s, nil
}

// SeedFromUint64 expands a small number into a seed; used by self-play,
// tests and the arena, where seeds are counters.
func SeedFromUint64(n uint64) Seed {
	var s Seed
	sm := n
	for i := 0; i < 4; i++ {
		binary.LittleEndian.PutUint64(s[i*8:], splitmix(&sm))
	}
	return s
}

// Rand is a xoshiro256** generator. The zero value is not valid; use New.
type Rand struct {
	s [4]uint64
}

// New returns a generator seeded from seed.
func New(seed Seed) Rand {
	var r Rand
	for i := 0; i < 4; i++ {
		sm := binary.LittleEndian.Uint64(seed[i*8:])
		r.s[i] = splitmix(&sm)
	}
	if r.s == [4]uint64{} { // xoshiro must not start from all zeros
		r.s[0] = 1
	}
	return r
}

// NewUint64 is New(SeedFromUint64(n)).
func NewUint64(n uint64) Rand { return New(SeedFromUint64(n)) }

func splitmix(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	s := &r.s
	result := bits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = bits.RotateLeft64(s[3], 45)
	return result
}

// IntN returns a uniform integer in [0, n) without modulo bias (Lemire's
// multiply-and-reject). It panics if n <= 0, which is a programming error.
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		panic("rng: IntN with n <= 0")
	}
	bound := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), bound)
	if lo < bound {
		threshold := -bound % bound
		for lo < threshold {
			hi, lo = bits.Mul64(r.Uint64(), bound)
		}
	}
	return int(hi)
}

// Float64 returns a uniform float in [0, 1).
func (r *Rand) Float64() float64 {
	return float64(r.Uint64()>>11) / (1 << 53)
}

// Shuffle permutes s with Fisher–Yates (from the last element down).
func Shuffle[T any](r *Rand, s []T) {
	for i := len(s) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}
