// Package workers runs Seqleague's background work on asynq: turn timers,
// bot moves, seat fill-ins, scheduled tournament rounds and result
// settlement. Task types are constants, payloads carry IDs only, task IDs
// come from the business key so that a duplicate enqueue of a waiting task
// is a no-op (one that is over is replaced, and one backing off after a
// failure runs at once when asked for now), and every handler is
// idempotent.
package workers
