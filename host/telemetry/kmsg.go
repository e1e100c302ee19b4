package telemetry

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// KmsgRecord is one record of the kernel log (/dev/kmsg).
type KmsgRecord struct {
	Seq     uint64
	T       time.Time // wall time derived from the kernel's monotonic stamp
	Message string    // first line, without continuation lines
}

// KmsgReader follows the kernel log from the moment it is opened.
type KmsgReader struct {
	f   *os.File
	buf []byte
}

// OpenKmsg opens /dev/kmsg (root, or CAP_SYSLOG) positioned at its end, so
// that only records written from now on are read.
func OpenKmsg() (*KmsgReader, error) {
	return openKmsg("/dev/kmsg")
}

func openKmsg(path string) (*KmsgReader, error) {
	// Non-blocking so that the runtime poller serves reads: read deadlines
	// and Close then interrupt a waiting Next.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("kernel log: %w", err)
	}
	if err := f.SetReadDeadline(time.Time{}); err != nil {
		f.Close() // not pollable: a blocked read could not be interrupted
		return nil, fmt.Errorf("kernel log: %s cannot be polled: %w", path, err)
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, fmt.Errorf("kernel log: seek to end: %w", err)
	}
	return &KmsgReader{f: f, buf: make([]byte, 16<<10)}, nil
}

// Next waits for the next record until deadline (zero: no deadline). A
// read gives exactly one record. When the kernel overwrote records before
// they were read, it skips them and goes on.
func (k *KmsgReader) Next(deadline time.Time) (KmsgRecord, error) {
	if err := k.f.SetReadDeadline(deadline); err != nil {
		return KmsgRecord{}, err
	}
	for {
		n, err := k.f.Read(k.buf)
		if errors.Is(err, syscall.EPIPE) {
			continue // records lost; the next read returns the oldest kept one
		}
		if err != nil {
			return KmsgRecord{}, err
		}
		if r, ok := parseKmsg(k.buf[:n], time.Now(), monotonicNow()); ok {
			return r, nil
		}
	}
}

// Close stops reading; a Next in progress returns an error.
func (k *KmsgReader) Close() error { return k.f.Close() }

// parseKmsg parses "prio,seq,usec,flags[,...];message\n[ KEY=value\n]...".
// now and mono (time since boot on the kernel's clock) place usec on the
// wall clock.
func parseKmsg(b []byte, now time.Time, mono time.Duration) (KmsgRecord, bool) {
	head, msg, ok := bytes.Cut(b, []byte{';'})
	if !ok {
		return KmsgRecord{}, false
	}
	var f [4][]byte
	n := 0
	for _, part := range bytes.SplitN(head, []byte{','}, 5) {
		if n < len(f) {
			f[n] = part
			n++
		}
	}
	if n < 3 {
		return KmsgRecord{}, false
	}
	seq, err1 := strconv.ParseUint(string(f[1]), 10, 64)
	usec, err2 := strconv.ParseUint(string(f[2]), 10, 64)
	if err1 != nil || err2 != nil {
		return KmsgRecord{}, false
	}
	if i := bytes.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	t := now.Add(time.Duration(usec)*time.Microsecond - mono)
	return KmsgRecord{Seq: seq, T: t, Message: string(msg)}, true
}

func monotonicNow() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
