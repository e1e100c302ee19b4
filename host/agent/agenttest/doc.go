// Package agenttest gives tests of the agent what they need: a throwaway
// certificate authority with server and client certificates, and a token
// file with the right permissions.
package agenttest
