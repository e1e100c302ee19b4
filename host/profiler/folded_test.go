package profiler

import (
	"strconv"
	"strings"
	"testing"
)

const scriptOut = `  1234 
	          812a88 postgrestzm13zi0zi8zminplace_PostgRESTziQueryziSqlFragment_zdwescapeIdent_info (/usr/bin/postgrest)
	          812a00 base_GHCziBase_zgzgze_info (/usr/bin/postgrest)

1234 
	          812a88 postgrestzm13zi0zi8zminplace_PostgRESTziQueryziSqlFragment_zdwescapeIdent_info (/usr/bin/postgrest)
	          812a00 base_GHCziBase_zgzgze_info (/usr/bin/postgrest)

   77/78 
	           83244 _IO_default_xsputn (/usr/lib/x86_64-linux-gnu/libc.so.6)
	      1040000000 [unknown] (/usr/lib/postgresql/15/bin/postgres)
	      1040000001 [unknown] (/usr/lib/postgresql/15/bin/postgres)
	      1040000002 [unknown] (/usr/lib/postgresql/15/bin/postgres)
	ffffffff8100 [unknown] ([unknown])

99 
	ffffffff821faa94 __schedule ([kernel.kallsyms])

  5 4290 _setjmp@plt (/usr/bin/dash)
`

func TestParseScript(t *testing.T) {
	services := map[int]string{1234: "postgrest", 77: "postgresql", 5: "other"} // 99: not tracked
	p, err := ParseScript(strings.NewReader(scriptOut), func(pid int) string { return services[pid] })
	if err != nil {
		t.Fatal(err)
	}
	if p.Samples != 4 || len(p.Stacks) != 3 {
		t.Fatalf("samples %d, stacks %+v", p.Samples, p.Stacks)
	}
	want := []string{"postgrest;GHC.Base.>>=;PostgREST.Query.SqlFragment.$wescapeIdent 2",
		"other;_setjmp@plt 1",
		"postgresql;[unknown];[postgres];_IO_default_xsputn 1"}
	for i, s := range p.Stacks {
		if got := strings.Join(s.Frames, ";") + " " + itoa(s.Count); got != want[i] {
			t.Errorf("stack %d = %q, want %q", i, got, want[i])
		}
	}
}

func TestParseScriptBadHeader(t *testing.T) {
	_, err := ParseScript(strings.NewReader("notapid\n\tabc f (x)\n"), func(int) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "no PID") {
		t.Fatalf("err = %v", err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestRenameFrames(t *testing.T) {
	st := []Stack{{Frames: []string{"postgrest", "[pg-a]", "[libc.so.6]", "[pg-a]"}, Count: 1}}
	renameFrames(st, map[string]string{"[pg-a]": "[postgrest executable]"})
	if got := strings.Join(st[0].Frames, ";"); got != "postgrest;[postgrest executable];[libc.so.6];[postgrest executable]" {
		t.Errorf("renamed %q", got)
	}
}
