// Package ratelimit implements league.Limiter on Redis, so that every API
// instance counts against the same budgets.
package ratelimit
