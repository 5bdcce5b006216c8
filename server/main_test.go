package server

import (
	"testing"

	"github.com/seqleague/seqleague/league/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
