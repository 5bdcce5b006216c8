package sequence

import (
	"encoding/binary"
	"testing"

	"github.com/seqleague/seqleague/engine/rng"
)

// FuzzApply applies arbitrary moves from arbitrary seats to random states:
// nothing may panic, a refused move must leave the state as it was, and an
// accepted one must keep every invariant.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(10), []byte{0x81, 0, 0, 0, 0, 0, 0, 0, 0, 1, 12, 45, 0, 0, 0, 0, 0, 0})
	f.Add(uint64(7), uint8(200), []byte("an arbitrary move list of some length"))
	f.Add(uint64(3), uint8(0), []byte{6, 0, 0, 1, 0, 0, 0, 0, 0xff, 0x85, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8, data []byte) {
		cfg := allConfigs[seed%uint64(len(allConfigs))]
		cfg.Variant = Variant(seed / uint64(len(allConfigs)) % 2)
		s, err := NewGame(cfg, rng.SeedFromUint64(seed))
		if err != nil {
			t.Fatal(err)
		}
		cards := fullDeckCounts(cfg.Variant)
		r := rng.NewUint64(seed)
		for i := 0; i < int(plies) && s.Status() == Playing; i++ {
			moves := LegalMoves(&s, nil)
			s.Do(s.Turn(), moves[r.IntN(len(moves))])
		}
		const chunk = 9
		for ; len(data) >= chunk; data = data[chunk:] {
			prev := s
			seat := int(int8(data[8])) % (MaxPlayers + 2)
			var m Move
			if data[0]&0x80 != 0 { // a listed move, to get somewhere
				moves := LegalMoves(&s, nil)
				if len(moves) == 0 {
					continue
				}
				m, seat = moves[int(data[1])%len(moves)], s.Turn()
			} else {
				m = Move{Kind: Kind(data[0]), Card: Card(data[1]), Cell: Cell(int8(data[2])), Team: int8(data[3]),
					Windows: WindowSet(binary.LittleEndian.Uint32(data[4:8]))}
			}
			_ = m.String()
			legal := Legal(&s, seat, m)
			next, err := Apply(s, seat, m)
			if (err == nil) != (legal == nil) {
				t.Fatalf("Legal says %v, Apply says %v for %+v", legal, err, m)
			}
			if s != prev {
				t.Fatalf("Apply changed its argument")
			}
			if err != nil {
				if s.Do(seat, m) == nil || s != prev {
					t.Fatalf("Do accepted %+v or changed the state while refusing it", m)
				}
				continue
			}
			if err := checkInvariants(&next, &prev, cards); err != nil {
				t.Fatalf("after %v by seat %d: %v", m, seat, err)
			}
			s = next
		}
	})
}
