package sacct

import (
	"testing"
	"time"

	"github.com/schedsim/schedsim/sim"
)

func TestParseMemory(t *testing.T) {
	for _, c := range []struct {
		in    string
		mb    sim.Amount
		basis memBasis
	}{
		{"4000M", sim.Units(4000), memTotal},
		{"4G", sim.Units(4096), memTotal},
		{"1.5G", sim.Units(1536), memTotal},
		{"512K", sim.Milli / 2, memTotal},
		{"2T", sim.Units(2 << 20), memTotal},
		{"100", sim.Units(100), memTotal}, // no unit: MB
		{"2000Mc", sim.Units(2000), memPerCPU},
		{"4Gn", sim.Units(4096), memPerNode},
		{"0n", 0, memPerNode},
	} {
		m, err := parseMemory(c.in, true)
		if err != nil || m.mb != c.mb || m.basis != c.basis {
			t.Errorf("%q = %+v %v, want %v %v", c.in, m, err, c.mb, c.basis)
		}
	}
	for _, bad := range []string{"", "G", "4X", "-4G", "4Gx", "c", "1e300G", "NaNM"} {
		if _, err := parseMemory(bad, true); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if _, err := parseMemory("4Gc", false); err == nil {
		t.Error("a TRES mem with a per-CPU suffix parsed")
	}
}

func TestParseTRES(t *testing.T) {
	x, err := parseTRES("billing=4,cpu=4,mem=16G,node=1,gres/gpu=2,energy=12")
	if err != nil || x.cpu != 4 || x.node != 1 || x.gpu != 2 || !x.hasMem || x.mem.mb != sim.Units(16384) || x.empty {
		t.Errorf("got %+v %v", x, err)
	}
	x, err = parseTRES("cpu=8,gres/gpu:a100=2,gres/gpu:v100=1")
	if err != nil || x.gpu != 3 || x.node != -1 || x.hasMem {
		t.Errorf("typed GPUs: %+v %v", x, err)
	}
	if x, _ := parseTRES(""); !x.empty || x.cpu != -1 {
		t.Errorf("empty: %+v", x)
	}
	for _, bad := range []string{"cpu", "=4", "cpu=x", "cpu=", "mem=4Q", "gres/gpu=-1"} {
		if _, err := parseTRES(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestParseCalendar(t *testing.T) {
	loc := time.FixedZone("X", -5*3600)
	for _, c := range []struct {
		in    string
		unix  int64
		known bool
	}{
		{"2024-03-01T12:00:00", 1709312400, true}, // 17:00 UTC
		{"2024-03-01T12:00:00Z", 1709294400, true},
		{"2024-03-01T12:00:00+01:00", 1709290800, true},
		{"1709294400", 1709294400, true},
		{"Unknown", 0, false},
		{"None", 0, false},
		{"", 0, false},
	} {
		got, known, err := parseCalendar(c.in, loc)
		if err != nil || known != c.known || (known && got.Unix() != c.unix) {
			t.Errorf("%q = %v %v %v, want %d %v", c.in, got, known, err, c.unix, c.known)
		}
	}
	for _, bad := range []string{"2024-03-01 12:00:00", "yesterday", "2024-13-01T00:00:00", "99999999999999999999"} {
		if _, _, err := parseCalendar(bad, loc); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestParseState(t *testing.T) {
	for in, want := range map[string]string{
		"COMPLETED": "COMPLETED", "CANCELLED by 123": "CANCELLED", "CANCELLED+": "CANCELLED",
		"OUT_OF_MEMORY": "OUT_OF_MEMORY", "NODE_FAIL": "NODE_FAIL", "TIMEOUT": "TIMEOUT",
		"PENDING": "PENDING", "RUNNING": "RUNNING", "": "",
	} {
		if got, err := parseState(in); err != nil || got != want {
			t.Errorf("%q = %q %v, want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"DONE", "completed", "CD"} {
		if _, err := parseState(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestParseDependencyErrors(t *testing.T) {
	for _, bad := range []string{"afterok", "afterok:", "before:12", "afterok:1 2", "afterok::3"} {
		if _, err := parseDependency(bad, ""); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	deps, err := parseDependency("afterany:5+10,after:6", "")
	if err != nil || len(deps) != 1 || deps[0].ID != "5" || !deps[0].AfterAny {
		t.Errorf("got %v %v", deps, err)
	}
}
