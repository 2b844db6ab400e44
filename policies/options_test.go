package policies

import (
	"strings"
	"testing"

	"github.com/schedsim/schedsim/sim"
)

func TestOptionsValidate(t *testing.T) {
	if r, err := ParseReservations(""); err != nil || r != Keep {
		t.Errorf(`ParseReservations("") = %q, %v; want keep`, r, err)
	}
	if r, err := ParseReservations("repick"); err != nil || r != Repick {
		t.Errorf(`ParseReservations("repick") = %q, %v`, r, err)
	}
	if _, err := ParseReservations("move"); err == nil || !strings.Contains(err.Error(), "keep, repick") {
		t.Errorf(`ParseReservations("move") = %v; want an error listing keep, repick`, err)
	}
	for _, tc := range []struct {
		b    Backfill
		o    Options
		want string // "" for valid
	}{
		{Conservative, Options{}, ""},
		{Conservative, Options{Reservations: Repick, PlanningDelay: 5 * sim.Second}, ""},
		{EASY, Options{Reservations: Keep}, ""},
		{Conservative, Options{PlanningDelay: -1}, "≥ 0"},
		{Conservative, Options{Reservations: "other"}, "unknown reservations"},
		{EASY, Options{Reservations: Repick}, "conservative backfilling only"},
		{NoBackfill, Options{PlanningDelay: sim.Second}, "conservative backfilling only"},
	} {
		err := tc.o.Validate(tc.b)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s %+v: got %v, want %q", tc.b, tc.o, err, tc.want)
		}
	}
}
