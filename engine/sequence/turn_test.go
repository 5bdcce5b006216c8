package sequence

import (
	"errors"
	"slices"
	"testing"
)

func TestWinningPlayEndsTheGameAtOnce(t *testing.T) {
	s := fixture{chips: "a5 b5 c5 d5 f5 g5 h5 i5", hands: "5H 2D|2S", deck: "4C"}.state(t)
	play(t, &s, "5H@e5")
	if got, want := s.Outcome(), (Outcome{Status: Won, Winner: 0}); got != want {
		t.Fatalf("got outcome %+v, want %+v", got, want)
	}
	if got, want := s.Turn(), 0; got != want {
		t.Errorf("got turn %d, want %d: the turn does not pass", got, want)
	}
	if got, want := s.DeckSize(), 1; got != want {
		t.Errorf("got deck size %d, want %d: a winning play draws no card", got, want)
	}
	if got, want := s.Hand(0), cards(t, "2D"); !slices.Equal(got, want) {
		t.Errorf("got hand %v, want %v", got, want)
	}
	for _, tt := range []struct {
		seat int
		m    Move
	}{{1, move(t, "2S@g9")}, {0, move(t, "2D@c3")}, {Referee, Penalize(1)}} {
		if err := Legal(&s, tt.seat, tt.m); !errors.Is(err, ErrGameOver) {
			t.Errorf("%v by seat %d after the win: got %v, want %v", tt.m, tt.seat, err, ErrGameOver)
		}
	}
	if got := LegalMoves(&s, nil); len(got) != 0 {
		t.Errorf("got legal moves %v after the win, want none", got)
	}
}

func TestRoundOfPassesDrawsTheGame(t *testing.T) {
	// One-eyed jacks with nothing to remove, and an empty hand: no legal play.
	s := fixture{hands: "JH|", deck: "4C"}.state(t)
	if got, want := LegalMoves(&s, nil), []Move{Pass()}; !slices.Equal(got, want) {
		t.Fatalf("got legal moves %v, want %v", got, want)
	}
	play(t, &s, "pass")
	if got, want := s.DeckSize(), 1; got != want {
		t.Errorf("got deck size %d, want %d: a pass draws no card", got, want)
	}
	if s.Status() != Playing {
		t.Fatalf("got %v after one pass of two, want playing", s.Status())
	}
	play(t, &s, "pass")
	if got, want := s.Outcome(), (Outcome{Status: Drawn, Winner: -1}); got != want {
		t.Fatalf("got outcome %+v, want %+v", got, want)
	}
}

func TestPlayResetsThePassCount(t *testing.T) {
	s := fixture{cfg: Config{Players: 3, Teams: 3}, hands: "JH|2S|", deck: "4C"}.state(t)
	play(t, &s, "pass", "2S@b1", "pass")
	if got, want := s.Passes(), 1; got != want || s.Status() != Playing {
		t.Fatalf("got %d passes and %v, want %d and playing", got, s.Status(), want)
	}
}

func TestPlayCapDrawsTheGame(t *testing.T) {
	cfg := Config{Players: 2, Teams: 2, Options: Options{PlayCap: 2}}
	s := fixture{cfg: cfg, hands: "2S 3S|4S 5S", deck: "6S 7S"}.state(t)
	play(t, &s, "2S@b1")
	if s.Status() != Playing {
		t.Fatalf("got %v after one play, want playing", s.Status())
	}
	play(t, &s, "4S@d1")
	if got, want := s.Outcome(), (Outcome{Status: Drawn, Winner: -1}); got != want {
		t.Fatalf("got outcome %+v, want %+v", got, want)
	}
}

func TestTableTalkPenalty(t *testing.T) {
	four := Config{Players: 4, Teams: 2}
	s := fixture{cfg: four, hands: "2S 9H|3S|4S 8H|5S", deck: "6S 7S 8S 9S 6D 7D"}.state(t)
	if err := s.Do(0, Penalize(0)); !errors.Is(err, ErrNotYourTurn) {
		t.Fatalf("a player penalizing: got %v, want %v", err, ErrNotYourTurn)
	}
	if err := s.Do(Referee, Penalize(0)); err != nil {
		t.Fatal(err)
	}
	// Seat 0's turn had already begun: it pays at its next turn.
	play(t, &s, "2S@b1", "3S@c1")
	if got, want := s.PenaltyDue(), 1; got != want {
		t.Fatalf("seat 2's turn: got %d discards due, want %d", got, want)
	}
	if err := Legal(&s, 2, move(t, "4S@d1")); !errors.Is(err, ErrIllegalMove) {
		t.Fatalf("a play before the penalty discard: got %v, want %v", err, ErrIllegalMove)
	}
	if got, want := LegalMoves(&s, nil), []Move{PenaltyDiscard(cards(t, "4S")[0]), PenaltyDiscard(cards(t, "8H")[0])}; !slices.Equal(got, want) {
		t.Fatalf("got legal moves %v, want %v", got, want)
	}
	play(t, &s, "d8H", "4S@d1")
	if got, want := s.Hand(2), cards(t, "8S"); !slices.Equal(got, want) {
		t.Fatalf("seat 2: got hand %v, want %v (no replacement for the penalty)", got, want)
	}
	play(t, &s, "5S@e1")
	if got, want := s.PenaltyDue(), 1; got != want || s.Turn() != 0 {
		t.Fatalf("seat %d's turn: got %d discards due, want seat 0 with %d", s.Turn(), got, want)
	}
	play(t, &s, "d9H")
	if got, want := s.HandSize(0), 1; got != want {
		t.Fatalf("seat 0: got %d cards, want %d", got, want)
	}
	if err := Legal(&s, 0, move(t, "d6S")); !errors.Is(err, ErrIllegalMove) {
		t.Fatalf("a second discard: got %v, want %v", err, ErrIllegalMove)
	}
}

func TestPenaltyOnAnEmptyHandLapses(t *testing.T) {
	s := fixture{hands: "2S|", deck: ""}.state(t)
	if err := s.Do(Referee, Penalize(1)); err != nil {
		t.Fatal(err)
	}
	play(t, &s, "2S@b1")
	// Seat 0's 2S was reshuffled back into its hand; seat 1 has nothing to lose.
	if got := s.PenaltyDue(); got != 0 {
		t.Fatalf("got %d discards due from an empty hand, want 0", got)
	}
	if got, want := LegalMoves(&s, nil), []Move{Pass()}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestEmptyDrawPileIsRefilledFromEveryDiscardPile(t *testing.T) {
	s := fixture{hands: "2S 9H|4S", deck: "", disc: "|3S"}.state(t)
	cardsBefore := cardCounts(&s)
	play(t, &s, "2S@b1")
	if got, want := s.DeckSize(), 1; got != want {
		t.Fatalf("got deck size %d, want %d (2S and 3S reshuffled, one drawn)", got, want)
	}
	if d0, d1 := s.Discards(0), s.Discards(1); len(d0)+len(d1) != 0 || len(s.DiscardLog()) != 0 {
		t.Fatalf("got discard piles %v %v and log %v, want all empty", d0, d1, s.DiscardLog())
	}
	if got := cardCounts(&s); got != cardsBefore {
		t.Fatal("cards not conserved by the reshuffle")
	}
}

func TestDeadCardExchange(t *testing.T) {
	// 7H's cells are i5 and d6.
	dead := fixture{chips: "i5 b:d6", hands: "7H JC 2S|3S", deck: "4C 5C"}
	tests := []struct {
		name    string
		f       fixture
		moves   []string // made first
		m       string
		wantErr error
	}{
		{name: "a dead card is exchanged", f: dead, m: "x7H"},
		{name: "a second exchange in one turn is refused", f: fixture{chips: "i5 b:d6 d5 b:i6", hands: "7H 6H|3S", deck: "4C 5C"}, moves: []string{"x7H"}, m: "x6H", wantErr: ErrIllegalMove},
		{name: "an exchange after the turn's play is the next turn's", f: dead, moves: []string{"2S@b1", "3S@c1"}, m: "x7H"},
		{name: "a live card is not dead", f: fixture{chips: "i5", hands: "7H|3S", deck: "4C"}, m: "x7H", wantErr: ErrIllegalMove},
		{name: "a jack is never dead", f: dead, m: "xJC", wantErr: ErrIllegalMove},
		{name: "a card not held is refused", f: dead, m: "x6H", wantErr: ErrNotInHand},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.f.state(t)
			play(t, &s, tt.moves...)
			err := s.Do(s.Turn(), move(t, tt.m))
			if !errors.Is(err, tt.wantErr) && !(err == nil && tt.wantErr == nil) {
				t.Fatalf("got %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestExchangeWithAnEmptyDrawPileGetsTheDeadCardBack(t *testing.T) {
	s := fixture{chips: "i5 b:d6", hands: "7H 2S|3S", deck: ""}.state(t)
	play(t, &s, "x7H")
	if got, want := s.Hand(0), cards(t, "2S 7H"); !slices.Equal(got, want) {
		t.Fatalf("got hand %v, want %v", got, want)
	}
	if !s.Exchanged() {
		t.Fatal("the exchange was not recorded")
	}
}

func TestPassAfterExchangeWithNoPlay(t *testing.T) {
	s := fixture{chips: "i5 d6", hands: "7H JH|3S", deck: "5C"}.state(t)
	// 5C's cells b2 and d4 are empty, but it arrives only after the
	// exchange: before it, seat 0 may pass or exchange.
	if got, want := LegalMoves(&s, nil), []Move{Exchange(cards(t, "7H")[0]), Pass()}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	play(t, &s, "x7H")
	if err := Legal(&s, 0, Pass()); !errors.Is(err, ErrIllegalMove) {
		t.Fatalf("a pass with 5C playable: got %v, want %v", err, ErrIllegalMove)
	}
}

func TestOneEyedJackRemovesOnlyUnlockedOpponentChips(t *testing.T) {
	s := fixture{cfg: Config{Players: 3, Teams: 3, Options: Options{SequencesToWin: 2}}, chips: "b1 b:c1 c:d1 b:b6 b:c6 b:d6 b:e6 b:f6", hands: "JS|2S|3S", deck: "4C",
		seqs: map[string][]Window{"b": {window(t, "b6-f6")}}}.state(t)
	var got []string
	for _, m := range LegalMoves(&s, nil) {
		if m.Kind == KindRemove {
			got = append(got, m.String())
		}
	}
	if want := []string{"JSxc1", "JSxd1"}; !slices.Equal(got, want) {
		t.Fatalf("got removals %v, want %v", got, want)
	}
}

func TestDiscardLogRecordsWhereEachCardWent(t *testing.T) {
	// 7H's cells are i5 and d6, both taken: seat 0 turns it in, then plays.
	s := fixture{chips: "i5 b:d6 b:e5", hands: "7H 2S|JS 4S", deck: "4C 5C 6C"}.state(t)
	play(t, &s, "x7H", "2S@b1", "JSxb1")
	want := []Discard{
		{Seat: 0, Card: cards(t, "7H")[0], Cell: NoCell},
		{Seat: 0, Card: cards(t, "2S")[0], Cell: mustCell("b1")},
		{Seat: 1, Card: cards(t, "JS")[0], Cell: mustCell("b1")},
	}
	if got := s.DiscardLog(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	v := s.ViewFor(0)
	if got := v.DiscardLog(); !slices.Equal(got, want) {
		t.Fatalf("seat 0's view: got %v, want %v", got, want)
	}
}
