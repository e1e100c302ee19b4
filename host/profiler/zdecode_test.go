package profiler

import "testing"

func TestZDecodeTable(t *testing.T) {
	cases := map[string]string{
		"zz": "z", "ZZ": "Z", "zi": ".", "zm": "-", "zd": "$", "zu": "_", "zq": "'", "zp": "+",
		"ZL": "(", "ZR": ")", "ZM": "[", "ZN": "]", "ZC": ":", "za": "&", "zb": "|", "zc": "^",
		"ze": "=", "zg": ">", "zh": "#", "zl": "<", "zn": "!", "zr": `\`, "zs": "/", "zt": "*", "zv": "%",
		"Z0T": "()", "Z2T": "(,)", "Z3T": "(,,)", "Z0H": "(##)", "Z1H": "(# #)", "Z2H": "(#,#)", "Z3H": "(#,,#)",
		"z3bbU": "λ", "z20U": " ", "z7eU": "~",
		"postgrestzm13zi0zi8": "postgrest-13.0.8", "zdwescapeIdent": "$wescapeIdent", "zgzgze": ">>=",
		"plain": "plain", "": "",
	}
	for in, want := range cases {
		got, ok := ZDecode(in)
		if !ok || got != want {
			t.Errorf("ZDecode(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"z", "Z", "zx", "ZQ", "z12", "Z3", "z1fffffffffU", "Z99999T", "Zab"} {
		if got, ok := ZDecode(bad); ok {
			t.Errorf("ZDecode(%q) = %q, true; want a malformed encoding", bad, got)
		}
	}
}

func TestDecodeGHC(t *testing.T) {
	cases := map[string]string{
		"postgrestzm13zi0zi8zminplace_PostgRESTziQueryziSqlFragment_zdwescapeIdent_info":      "PostgREST.Query.SqlFragment.$wescapeIdent",
		"postgrestzm13zi0zi8zminplace_PostgRESTziQueryziSqlFragment_escapeIdentList1_closure": "PostgREST.Query.SqlFragment.escapeIdentList1",
		"HTTPzm4000zi3zi16zm5JQ4dibOZZDuImmVajEpOjR_NetworkziHTTPziBase_CONNECT_con_info":     "Network.HTTP.Base.CONNECT",
		"HTTPzm4000zi3zi16zm5JQ4dibOZZDuImmVajEpOjR_NetworkziHTTPziBase64_char3zuint4_info":   "Network.HTTP.Base64.char3_int4",
		"ghczmprim_GHCziClasses_zeze_info":                                                    "GHC.Classes.==",
		"base_GHCziBase_zgzgze_info":                                                          "GHC.Base.>>=",
		"ghczmprim_GHCziTuple_Z3T_con_info":                                                   "GHC.Tuple.(,,)",
		"PostgRESTziApp_zdwpostgrestResponse_info":                                            "PostgREST.App.$wpostgrestResponse",
		"hasqlzm1zi8_HasqlziDecodersziResult_zdwrow_info":                                     "Hasql.Decoders.Result.$wrow",
		"stg_upd_frame_info": "stg_upd_frame_info",
		"stg_ap_p_fast":      "stg_ap_p_fast",
		"pthread_mutex_lock": "pthread_mutex_lock",
		"memcpy":             "memcpy",
		"GarbageCollect":     "GarbageCollect",
		"runtime.mallocgc":   "runtime.mallocgc",
		"ghczuwrapperZC18ZCpostgresqlzmlibpqzm0zi10zi1zi0zminplaceZCDatabaseziPostgreSQLziLibPQziFFIZCPQescapeIdentifier": "ghczuwrapperZC18ZCpostgresqlzmlibpqzm0zi10zi1zi0zminplaceZCDatabaseziPostgreSQLziLibPQziFFIZCPQescapeIdentifier",
		"sXyz_info":            "sXyz_info",
		"a_b_c_d_info":         "a_b_c_d_info",
		"pkg_lowercase_f_info": "pkg_lowercase_f_info",
		"pkg_Mod_zx_info":      "pkg_Mod_zx_info",
	}
	for in, want := range cases {
		if got := DecodeGHC(in); got != want {
			t.Errorf("DecodeGHC(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzZDecode(f *testing.F) {
	for _, s := range []string{"zdwescapeIdent", "Z3T", "z3bbU", "zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = ZDecode(s)
		_ = DecodeGHC(s)
	})
}
