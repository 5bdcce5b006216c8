package competition

import "testing"

func TestKirkmanSystemsAreResolvableAndMeetEveryPairOnce(t *testing.T) {
	for v := 3; v <= 250; v += 6 {
		k := kirkman(v)
		if k == nil {
			if v <= 63 {
				t.Errorf("KTS(%d): got none, want one", v)
			}
			continue
		}
		if got, want := len(k), (v-1)/2; got != want {
			t.Fatalf("KTS(%d): got %d rounds, want %d", v, got, want)
		}
		pairs := make([]int, v*v)
		for r, class := range k {
			seen := make([]bool, v)
			if len(class) != v/3 {
				t.Fatalf("KTS(%d) round %d: got %d triples, want %d", v, r, len(class), v/3)
			}
			for _, b := range class {
				for _, p := range b {
					if p < 0 || p >= v || seen[p] {
						t.Fatalf("KTS(%d) round %d: point %d out of range or twice", v, r, p)
					}
					seen[p] = true
				}
				for i := 0; i < 3; i++ {
					for j := 0; j < 3; j++ {
						if i != j {
							pairs[b[i]*v+b[j]]++
						}
					}
				}
			}
		}
		for a := 0; a < v; a++ {
			for b := 0; b < v; b++ {
				if a != b && pairs[a*v+b] != 1 {
					t.Fatalf("KTS(%d): pair %d-%d met %d times, want 1", v, a, b, pairs[a*v+b])
				}
			}
		}
	}
}
