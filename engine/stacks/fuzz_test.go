package stacks

import (
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// FuzzApply feeds arbitrary moves (and, to reach deep positions, legal ones
// chosen by the input) to Apply: it must never panic, a refused move must
// leave the state as it was, and an applied one must keep every invariant.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(4), []byte{1, 0, 1, 0, 0xff, 0, 0, 0, 0x80, 2, 0x80, 7})
	f.Add(uint64(7), uint8(2), []byte{0x81, 0x82, 0x83, 4, 1, 16, 0, 0, 0, 0, 0, 6, 0xff, 17, 1, 0, 1, 1, 1})
	f.Fuzz(func(t *testing.T, seed uint64, players uint8, data []byte) {
		s, err := New(Config{Players: 2 + int(players%5)}, rng.SeedFromUint64(seed))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > 1024 { // longer inputs make the fuzzer minimize for minutes
			data = data[:1024]
		}
		var buf [MaxLegalMoves]Move
		for len(data) > 0 && !s.Over() {
			var m Move
			if data[0]&0x80 != 0 { // a legal move, picked by the byte
				moves := LegalMoves(&s, buf[:0])
				m = moves[int(data[0]&0x7f)%len(moves)]
				data = data[1:]
			} else {
				var b [8]byte
				n := copy(b[:], data)
				data = data[n:]
				m = Move{Kind: MoveKind(b[0] % 8), Seat: int8(b[1]), Card: Card(b[2]), FromDiscard: b[3]&1 != 0,
					Pile: int8(b[4]), Target: int8(b[5]), Take: Take(b[6]), Color: Color(b[7])}
			}
			before := s
			if err := s.Apply(m); err != nil {
				if s != before {
					t.Fatalf("%+v refused (%v) but the state changed", m, err)
				}
				continue
			}
			if err := conserved(&s); err != nil {
				t.Fatalf("after %+v: %v", m, err)
			}
		}
	})
}
