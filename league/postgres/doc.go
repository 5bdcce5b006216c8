// Package postgres implements league's services on PostgreSQL with GORM. It
// is the only package that knows SQL: row types and their converters to and
// from league's domain types live here, and every service method runs in one
// transaction.
package postgres
