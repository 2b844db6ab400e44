package batsim

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/traces/tracetest"
)

// power checks every node's watts and returns the node names.
func checkNodes(t *testing.T, nodes []sim.NodeSpec, idle, maxW float64, cores int64) []string {
	t.Helper()
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Name
		if n.Power.IdleW != idle || n.Power.MaxW != maxW || n.Power.Resource != "host" {
			t.Errorf("%s: power %+v, want idle %g max %g on host", n.Name, n.Power, idle, maxW)
		}
		h, _ := sim.Get(n.Capacity, "host")
		c, _ := sim.Get(n.Capacity, "cpu")
		if h != sim.Units(1) || c != sim.Units(cores) || len(n.Capacity) != 2 {
			t.Errorf("%s: capacity %v, want host:1 cpu:%d", n.Name, n.Capacity, cores)
		}
	}
	if _, err := sim.NewCluster(nodes); err != nil {
		t.Errorf("sim.NewCluster: %v", err)
	}
	return names
}

func seq(prefix string, lo, hi int) []string {
	var s []string
	for i := lo; i <= hi; i++ {
		s = append(s, fmt.Sprintf("%s%d", prefix, i))
	}
	return s
}

func TestMediumLatePlatform(t *testing.T) {
	// 129 <host> elements: master_host, then host0…host127 with
	// watt_per_state "95.0:95.0:190.738, …" (Idle:Epsilon:AllCores of
	// pstate 0 first) and watt_off 10.
	nodes, err := ReadPlatform(filepath.Join(sharedDir(t), "medium_late", "platform.xml"), 0)
	if err != nil {
		t.Fatal(err)
	}
	names := checkNodes(t, nodes, 95, 190.738, 1)
	if strings.Join(names, " ") != strings.Join(seq("host", 0, 127), " ") {
		t.Errorf("names = %v", names)
	}
	want := "host0 capacity=host:1,cpu:1 idle_w=95.000 max_w=190.738 power_res=host " +
		"attrs=sleep_pstates=13:14:15;speed=100.0Mf;wattage_off=10;zone=AS0"
	if got := formatNode(nodes[0]); got != want {
		t.Errorf("host0\n got %s\nwant %s", got, want)
	}

	// --max-hosts 32 keeps host0…host31 (master_host does not count).
	nodes, err = ReadPlatform(filepath.Join(sharedDir(t), "medium_late", "platform.xml"), 32)
	if err != nil {
		t.Fatal(err)
	}
	if names := checkNodes(t, nodes, 95, 190.738, 1); strings.Join(names, " ") != strings.Join(seq("host", 0, 31), " ") {
		t.Errorf("--max-hosts 32: names = %v", names)
	}
}

// TestSharedPlatforms reads every platform of ../shared.
func TestSharedPlatforms(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "platforms")
	cases := []struct {
		file      string
		names     []string
		idle, max float64
		offW      string
	}{
		// Cluster "A" a0…a511, no power properties; cluster "M" (m0) has role=master.
		{"cluster512.xml", seq("a", 0, 511), 0, 0, ""},
		// Cluster host0…host127, wattage_per_state "95.0:190.738, …" (Idle:AllCores);
		// cluster master_host0 has role=master.
		{"cluster_energy_128.xml", seq("host", 0, 127), 95, 190.738, "9.75"},
		// Like medium_late's platform, with the current property names.
		{"energy_platform_homogeneous_no_net_128.xml", seq("host", 0, 127), 95, 190.738, "10"},
		// master_host, then four hosts without power properties.
		{"small_platform.xml", []string{"Jupiter", "Fafard", "Ginette", "Bourassa"}, 0, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			nodes, err := ReadPlatform(filepath.Join(dir, c.file), 0)
			if err != nil {
				t.Fatal(err)
			}
			names := checkNodes(t, nodes, c.idle, c.max, 1)
			if strings.Join(names, " ") != strings.Join(c.names, " ") {
				t.Errorf("names = %v, want %v", names, c.names)
			}
			for _, n := range nodes {
				if n.Attributes["wattage_off"] != c.offW {
					t.Fatalf("%s: wattage_off %q, want %q", n.Name, n.Attributes["wattage_off"], c.offW)
				}
			}
		})
	}
}

func TestGoldenPlatforms(t *testing.T) {
	for _, name := range []string{"cluster_energy_128.xml", "small_platform.xml", "platform_head.xml"} {
		t.Run(name, func(t *testing.T) {
			nodes, err := ReadPlatform(filepath.Join(testdata, name), 0)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, n := range nodes {
				b.WriteString(formatNode(n) + "\n")
			}
			golden(t, strings.TrimSuffix(name, ".xml")+".nodes", b.String())
		})
	}
}

func TestMaxHosts(t *testing.T) {
	path := filepath.Join(testdata, "cluster512.xml")
	for _, c := range []struct{ max, want int }{{0, 512}, {-1, 512}, {1, 1}, {10, 10}, {512, 512}, {600, 512}} {
		nodes, err := ReadPlatform(path, c.max)
		if err != nil {
			t.Fatal(err)
		}
		if len(nodes) != c.want || nodes[0].Name != "a0" || nodes[len(nodes)-1].Name != fmt.Sprintf("a%d", c.want-1) {
			t.Errorf("maxHosts %d: %d nodes (%s…%s), want %d", c.max, len(nodes), nodes[0].Name, nodes[len(nodes)-1].Name, c.want)
		}
	}
}

func platform(body string) string {
	return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n" + body + "\n</zone>\n</platform>\n"
}

func TestPlatformFeatures(t *testing.T) {
	doc := `<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="top" routing="Full">
    <host id="boss" speed="1Gf"><prop id="role" value="master"/></host>
    <host id="disk" speed="1Gf"><prop id="role" value="storage"/></host>
    <host id="big" speed="2Gf, 1Gf" core="16" pstate="1">
      <prop id="wattage_per_state" value="100:120:300, 90.5:110:200.25"/>
      <prop id="watt_per_state" value="1:2"/>
      <prop id="wattage_off" value="12.5"/>
      <prop id="role" value="compute_node"/>
      <prop id="rack" value="r1"/>
    </host>
    <zone id="inner" routing="Full">
      <cluster id="c" prefix="n-" suffix=".lan" radical="0-2, 5,9-10" speed="1Gf" core="4" bw="1GBps" lat="1us">
        <prop id="watt_per_state" value="10:20"/>
        <prop id="watt_off" value="1"/>
        <prop id="zone" value="eu-1"/>
      </cluster>
    </zone>
    <AS id="old" routing="Full">
      <host id="legacy" power="5Mf"/>
    </AS>
  </zone>
</platform>`
	nodes, err := ParsePlatform("p.xml", []byte(doc), 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range nodes {
		got = append(got, formatNode(n))
	}
	want := []string{
		// pstate 1: "90.5:110:200.25" → idle 90.5, max 200.25; wattage_per_state wins over watt_per_state.
		"big capacity=host:1,cpu:16 idle_w=90.500 max_w=200.250 power_res=host attrs=rack=r1;role=compute_node;speed=1Gf;wattage_off=12.5;zone=top",
		// radical "0-2, 5,9-10" → 0,1,2,5,9,10; the cluster's own "zone" prop wins.
		"n-0.lan capacity=host:1,cpu:4 idle_w=10.000 max_w=20.000 power_res=host attrs=cluster=c;speed=1Gf;wattage_off=1;zone=eu-1",
		"n-1.lan capacity=host:1,cpu:4 idle_w=10.000 max_w=20.000 power_res=host attrs=cluster=c;speed=1Gf;wattage_off=1;zone=eu-1",
		"n-2.lan capacity=host:1,cpu:4 idle_w=10.000 max_w=20.000 power_res=host attrs=cluster=c;speed=1Gf;wattage_off=1;zone=eu-1",
		"n-5.lan capacity=host:1,cpu:4 idle_w=10.000 max_w=20.000 power_res=host attrs=cluster=c;speed=1Gf;wattage_off=1;zone=eu-1",
		"n-9.lan capacity=host:1,cpu:4 idle_w=10.000 max_w=20.000 power_res=host attrs=cluster=c;speed=1Gf;wattage_off=1;zone=eu-1",
		"n-10.lan capacity=host:1,cpu:4 idle_w=10.000 max_w=20.000 power_res=host attrs=cluster=c;speed=1Gf;wattage_off=1;zone=eu-1",
		// DTD 3 "power" attribute, no energy properties.
		"legacy capacity=host:1,cpu:1 idle_w=0.000 max_w=0.000 power_res=host attrs=speed=5Mf;zone=old",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Each node owns its maps and slices.
	nodes[1].Attributes["x"] = "y"
	nodes[1].Capacity[0].Amount = 0
	if _, ok := nodes[2].Attributes["x"]; ok || nodes[2].Capacity[0].Amount != sim.Units(1) {
		t.Error("cluster hosts share their attributes or capacity")
	}
}

func TestPlatformErrors(t *testing.T) {
	cases := []struct {
		name, doc string
		line      int // the first four lines are the prologue of platform()
		field     string
		msg       string
	}{
		{"bad core", platform(`<host id="h" speed="1f" core="0"/>`), 4, "core", `host "h": "0" is not a positive number of cores`},
		{"bad pstate", platform(`<host id="h" speed="1f" pstate="x"/>`), 4, "pstate", "not a power state index"},
		{"pstate past speeds", platform(`<host id="h" speed="1f, 2f" pstate="2"/>`), 4, "pstate", "power state 2 but only 2 speeds"},
		{"pstate past watts", platform("<host id=\"h\" speed=\"1f,2f\" pstate=\"1\">\n<prop id=\"wattage_per_state\" value=\"1:2\"/></host>"), 5, "wattage_per_state", "power state 1 but only 1 power states"},
		{"four watts", platform("<host id=\"h\" speed=\"1f\">\n<prop id=\"watt_per_state\" value=\"1:2:3:4\"/></host>"), 5, "watt_per_state", "want Idle:AllCores or Idle:Epsilon:AllCores"},
		{"one watt", platform("<host id=\"h\" speed=\"1f\">\n<prop id=\"wattage_per_state\" value=\"100\"/></host>"), 5, "wattage_per_state", "want Idle:AllCores"},
		{"idle above busy", platform("<host id=\"h\" speed=\"1f\">\n<prop id=\"watt_per_state\" value=\"10:0\"/></host>"), 5, "watt_per_state", "the idle host draws 10 W, more than with every core busy (0 W)"},
		{"bad watt", platform("<host id=\"h\" speed=\"1f\">\n<prop id=\"wattage_per_state\" value=\"1:x\"/></host>"), 5, "wattage_per_state", `"x" is not a number of watts`},
		{"negative watt", platform("<host id=\"h\" speed=\"1f\">\n<prop id=\"wattage_per_state\" value=\"-1:3\"/></host>"), 5, "wattage_per_state", "not a number of watts"},
		{"bad off", platform("<host id=\"h\" speed=\"1f\">\n<prop id=\"wattage_off\" value=\"off\"/></host>"), 5, "wattage_off", "not a number of watts"},
		{"no host id", platform(`<host speed="1f"/>`), 4, "id", "a host has no id"},
		{"prop without id", platform("<host id=\"h\" speed=\"1f\">\n<prop value=\"1\"/></host>"), 5, "prop", "no id"},
		{"duplicate host", platform("<host id=\"h\" speed=\"1f\"/>\n<host id=\"h\" speed=\"1f\"/>"), 5, "id", `host "h" already defined on line 4`},
		{"cluster clash", platform("<host id=\"n3\" speed=\"1f\"/>\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-5\" speed=\"1f\" bw=\"1Bps\" lat=\"0\"/>"), 5, "id", `host "n3" already defined on line 4`},
		{"reversed radical", platform(`<cluster id="c" prefix="n" suffix="" radical="5-1" speed="1f"/>`), 4, "radical", `cluster "c": "5-1" is not a number or a range`},
		{"bad radical", platform(`<cluster id="c" prefix="n" suffix="" radical="a-b" speed="1f"/>`), 4, "radical", "not a number or a range"},
		{"no radical", platform(`<cluster id="c" prefix="n" suffix="" speed="1f"/>`), 4, "radical", "missing"},
		{"huge radical", platform(`<cluster id="c" prefix="n" suffix="" radical="0-99999999" speed="1f"/>`), 4, "radical", "more than 1048576 hosts"},
		{"no compute hosts", platform(`<host id="master_host" speed="1f"/>`), 0, "", "no compute hosts"},
		{"empty file", "", 0, "", "no <platform> element"},
		{"wrong root", "<?xml version='1.0'?>\n<html><body/></html>", 2, "", "root element is <html>"},
		{"syntax error", platform("<host id=\"h\" speed=\"1f\">\n</zone>"), 5, "", "bad XML"},
		{"unclosed", "<platform>\n<zone id=\"z\">\n<host id=\"h\" speed=\"1f\"/>", 3, "", "bad XML"},
		{"two roots", "<platform/>\n<platform/>", 2, "", "more than one root"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParsePlatform("p.xml", []byte(c.doc), 0)
			if err == nil {
				t.Fatal("no error")
			}
			pe := tracetest.ParseErr(t, err)
			if pe.File != "p.xml" || pe.Line != c.line || pe.Field != c.field || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %q (line %d, field %q), want line %d, field %q, message with %q",
					err, pe.Line, pe.Field, c.line, c.field, c.msg)
			}
		})
	}
}

func TestReadPlatformMissingFile(t *testing.T) {
	if _, err := ReadPlatform(filepath.Join(t.TempDir(), "none.xml"), 0); err == nil {
		t.Error("no error for a missing file")
	}
}
