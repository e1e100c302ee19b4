// Package gate decides whether a run's verdicts should fail a CI job:
// rules such as "throughput<-3%,p99>+10%" fire only on a significant
// change (the verdict's own test) beyond their threshold. It is pure logic
// on stats.Verdicts; `lab run --gate` turns a fired gate into exit code 3.
package gate
