// Package server is Seqleague's HTTP face: Echo routes, request and response
// types, authentication, Server-Sent Events, the mapping of league errors to
// problem+json responses, and the embedded web app. Echo stays inside this
// package so that moving to a new major version touches nothing else.
package server
