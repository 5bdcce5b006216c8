// Package postgres implements league's services on PostgreSQL with GORM. It
// is the only package that knows SQL: row types and their converters to and
// from league's domain types live here. Changes are made in transactions
// (transact), each leaving its rows consistent; reads run as plain queries
// outside any transaction, so a read made of several queries may see a
// commit land between them.
package postgres
