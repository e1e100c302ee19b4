package agent

import (
	"net"
	"testing"
	"testing/synctest"
)

// TestLimitListener: with n connections open, Accept waits until one
// closes (the cap of Options.MaxConnections). It runs in a synctest bubble
// on an in-memory listener: synctest.Wait returns once every goroutine is
// blocked, so "the third connection is not accepted" is checked exactly
// instead of by watching for 200 ms.
func TestLimitListener(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := newPipeListener()
		ln := limitListener(inner, 2)
		defer ln.Close()
		accepted := make(chan net.Conn, 3)
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				accepted <- c
			}
		}()
		for i := 0; i < 3; i++ {
			c := inner.dial()
			defer c.Close()
		}
		synctest.Wait()
		if len(accepted) != 2 {
			t.Fatalf("%d connections accepted of 3 dialled, want the cap of 2", len(accepted))
		}
		first, second := <-accepted, <-accepted
		first.Close()
		synctest.Wait()
		if len(accepted) != 1 {
			t.Fatal("the third connection was not accepted after one closed")
		}
		(<-accepted).Close()
		second.Close()
	})
}
