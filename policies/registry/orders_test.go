package registry

import (
	"strings"
	"testing"

	"github.com/schedsim/schedsim/policies"
	"github.com/schedsim/schedsim/sim"
)

func TestRegisterQueue(t *testing.T) {
	build := func(Env) (sim.Scheduler, policies.Order, error) { return nil, nil, nil }
	for _, tc := range []struct {
		o    Order
		want string
	}{
		{Order{Name: "fcfs", Build: build}, `"fcfs" is already registered`},
		{Order{Name: "my order", Build: build}, "want a word"},
		{Order{Name: "mine"}, "Build is nil"},
	} {
		if err := RegisterQueue(tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want %q", tc.o.Name, err, tc.want)
		}
	}
	if err := RegisterQueue(Order{Name: "test-registered", Doc: "a test's", Build: build}); err != nil {
		t.Fatal(err)
	}
	if o, err := LookupOrder("test-registered"); err != nil || o.Doc != "a test's" {
		t.Errorf("lookup: %+v, %v", o, err)
	}
}
