// Package league is Seqleague's domain: the types and service interfaces of
// accounts, clubs, competitions, games and ratings, the error codes every
// layer shares, and the pure logic that needs no storage. It imports neither
// Echo, GORM nor asynq: league/postgres implements its services on
// PostgreSQL, server exposes them over HTTP and workers runs their
// background tasks.
package league
