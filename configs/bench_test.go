package configs

import (
	"os"
	"testing"
)

func BenchmarkParse(b *testing.B) {
	src, err := os.ReadFile("testdata/golden/tutorial.conf")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse("tutorial.conf", src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSet(b *testing.B) {
	src, _ := os.ReadFile("testdata/golden/tutorial.conf")
	f, _ := Parse("tutorial.conf", src)
	for b.Loop() {
		if err := f.Set("db-pool", Int(4)); err != nil {
			b.Fatal(err)
		}
	}
}
