package telemetry

import (
	"fmt"
	"os"
	"strconv"
)

// cgroupProcs appends the PIDs listed in a cgroup.procs file.
func cgroupProcs(path string, buf []byte, dst []int) ([]int, error) {
	b, err := readFile(path, buf)
	if err != nil {
		return dst, err
	}
	eachInt(b, func(pid int) { dst = append(dst, pid) })
	return dst, nil
}

// treeProcs appends root and its live descendants. It follows
// /proc/<pid>/task/<tid>/children for every thread (a child forked by any
// thread is listed under that thread); without that file (kernels built
// without CONFIG_PROC_CHILDREN) it scans the parent PIDs of all of /proc.
func (fs FS) treeProcs(root int, buf []byte, dst []int) ([]int, error) {
	if _, err := os.Stat(fs.proc(strconv.Itoa(root))); err != nil {
		return dst, fmt.Errorf("root process %d: %w", root, err)
	}
	if _, err := os.Stat(fs.proc(strconv.Itoa(root), "task", strconv.Itoa(root), "children")); err != nil {
		return fs.scanTree(root, buf, dst)
	}
	start := len(dst)
	dst = append(dst, root)
	for i := start; i < len(dst); i++ {
		pid := strconv.Itoa(dst[i])
		tids, err := readDirNames(fs.proc(pid, "task"))
		if err != nil {
			continue // exited meanwhile
		}
		for _, tid := range tids {
			b, err := readFile(fs.proc(pid, "task", tid, "children"), buf)
			if err != nil {
				continue
			}
			eachInt(b, func(c int) { dst = append(dst, c) })
		}
	}
	return dst, nil
}

// scanTree is the fallback of treeProcs: read the PPid of every process.
func (fs FS) scanTree(root int, buf []byte, dst []int) ([]int, error) {
	names, err := readDirNames(fs.Proc)
	if err != nil {
		return dst, err
	}
	parent := map[int]int{}
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		b, err := readFile(fs.proc(n, "stat"), buf)
		if err != nil {
			continue
		}
		st, ok := parseStat(b)
		if !ok {
			continue
		}
		parent[pid] = st.ppid
	}
	start := len(dst)
	dst = append(dst, root)
	for i := start; i < len(dst); i++ {
		for pid, pp := range parent {
			if pp == dst[i] {
				dst = append(dst, pid)
			}
		}
	}
	return dst, nil
}

func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
