package server

import (
	"fmt"
	"testing"
)

func TestACaptainCannotPutANonMemberIntoAnEntry(t *testing.T) {
	r := newCompetitionRig(t)
	id := r.tournament(t, `"format":"round-robin","team_size":2`)
	eveID, eve := r.user("eve", false)
	hankID, _ := r.user("hank", false)
	if err := r.db.Gorm.Exec("INSERT INTO club_members (club_id, user_id, role) VALUES (?, ?, 'member')", r.clubID, eveID).Error; err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"name":"EH","members":[{"user":%q},{"user":%q}]}`, eveID, hankID)
	wantProblem(t, r.call("POST", "/api/v1/tournaments/"+id+"/entries", body, eve), 400, "members[1].user")
	if n := r.count("entries"); n != 0 {
		t.Errorf("entries after a refused registration: %d", n)
	}
}
