// Package server is postgrest-mini's HTTP side: a fasthttp server answering
// PostgREST's API subset (GET/POST/DELETE on tables, GET/POST on /rpc/fn),
// an admin server (/live, /ready, /metrics), the pgx connection pool with
// PostgREST's acquisition timeout, the schema cache with its reload triggers
// (SIGUSR1 via Server.ReloadSchema, NOTIFY on the db-channel) and the access
// log.
//
// Every request runs in one transaction (a single pipelined round trip) that
// first switches to the anonymous role and sets request.method, request.path,
// request.headers, request.cookies and request.jwt.claims with set_config,
// as PostgREST does, and then runs one statement that builds the JSON body
// in PostgreSQL.
package server
