package postgres

import (
	"slices"

	"gorm.io/gorm"

	"github.com/seqleague/seqleague/league"
)

// holdLiveAccount share-locks the account row of userID until tx ends, and
// refuses an account closed meanwhile (401: the session is over, not a bad
// seat or entry). Everything that puts a person somewhere
// (a seat, an entry, a club) takes it before the row it changes, so that
// closing the account, which updates this row first and then releases
// what it finds (releaseClosedAccount), is ordered with it: the close
// waits for a join in flight and then finds its seat, or the join waits
// for the close and is refused. Without it a join whose request passed
// the sign-in check just before the close committed its seat after the
// close had looked, and a closed account held the seat for good.
func holdLiveAccount(tx *gorm.DB, userID string) error {
	live, err := holdIfLive(tx, userID)
	if err == nil && !live {
		err = league.Errorf(league.EUNAUTHORIZED, "this account no longer exists")
	}
	return err
}

// holdIfLive share-locks userID's account row until tx ends if the account
// is live (not closed), and says whether it is: the check of holdLiveAccount
// for an account other than the caller's.
func holdIfLive(tx *gorm.DB, userID string) (bool, error) {
	if !validID(userID) {
		return false, nil
	}
	var ids []string
	if err := tx.Raw("SELECT id FROM users WHERE id = ? AND deleted_at IS NULL FOR SHARE", userID).Scan(&ids).Error; err != nil {
		return false, err
	}
	return len(ids) == 1, nil
}

// holdAccounts share-locks the account rows of userIDs (those that are
// well-formed ids), in id order so that two callers naming the same people
// cannot deadlock, until tx ends; it refuses nothing: the caller checks
// each account as before (requireHuman), now that none can be closed under
// it. See holdLiveAccount.
func holdAccounts(tx *gorm.DB, userIDs ...string) error {
	var ids []string
	for _, id := range userIDs {
		if validID(id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var locked []string
	return tx.Raw("SELECT id FROM users WHERE id IN ? ORDER BY id FOR SHARE", ids).Scan(&locked).Error
}
