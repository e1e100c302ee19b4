// Package alert tells people about the new change points `lab track`
// finds: once per change point and channel, to a webhook (a JSON message
// with a Slack-compatible text and the change's fields) and/or as the
// Markdown body of an issue written to a file (for `gh issue create
// --body-file`).
//
// A change point is alerted when it exceeds its runs' MDE (history's
// Alertable), is not acknowledged (`lab history ack`) and no alert of
// that channel was sent about it before: the Ledger (the store) keeps the
// alerts sent and the acknowledgements, keyed by the change point's
// history.Key (its series and commit pair), so a second `lab track` sends
// nothing new. A failed webhook post is not recorded, and is sent again
// by the next `lab track`.
//
// The webhook gets traffic only at the URL given: redirects are not
// followed, each post has a bounded timeout, and the URL, whose path may
// hold a secret token, is shown only as capability.RedactURL shows it.
package alert
