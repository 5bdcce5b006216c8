// Package testenv gives tests real PostgreSQL and Redis servers.
//
// PostgreSQL comes from TEST_DATABASE_URL if set, else the standard local
// port if it answers, else a throwaway private cluster started from the
// installed binaries. Each test gets its own freshly migrated database,
// cloned from a template that is migrated once per schema version (so a
// clone takes milliseconds) and dropped when the test ends.
//
// Redis comes from TEST_REDIS_URL, else the standard local port, else a
// redis-server started on a free port. Each test leases one of Redis's
// numbered databases (1–15), flushed before use, so that tests in different
// packages running at once never see each other's keys or queues.
//
// When CI=true a missing server fails the test; elsewhere the test is
// skipped with a message naming what is missing. Packages that use testenv
// call testenv.Main from TestMain so that throwaway servers are stopped.
package testenv
