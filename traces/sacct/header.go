package sacct

import (
	"bufio"
	"bytes"
	"errors"
	"strings"
)

// column is a field of sacct's output that the reader uses.
type column int

const (
	cJobID column = iota
	cJobIDRaw
	cSubmit
	cEligible
	cStart
	cEnd
	cElapsed
	cElapsedRaw
	cTimelimit
	cTimelimitRaw
	cNNodes
	cNCPUS
	cReqCPUS
	cReqMem
	cReqTRES
	cAllocTRES
	cPartition
	cQOS
	cPriority
	cUser
	cAccount
	cState
	cDependency
	numColumns
)

// columnNames maps sacct's field names, lower-cased (sacct accepts them
// in any case), to columns. AllocCPUS is NCPUS under another name.
var columnNames = map[string]column{
	"jobid": cJobID, "jobidraw": cJobIDRaw, "submit": cSubmit, "eligible": cEligible,
	"start": cStart, "end": cEnd, "elapsed": cElapsed, "elapsedraw": cElapsedRaw,
	"timelimit": cTimelimit, "timelimitraw": cTimelimitRaw, "nnodes": cNNodes,
	"ncpus": cNCPUS, "alloccpus": cNCPUS, "reqcpus": cReqCPUS, "reqmem": cReqMem,
	"reqtres": cReqTRES, "alloctres": cAllocTRES, "partition": cPartition, "qos": cQOS,
	"priority": cPriority, "user": cUser, "account": cAccount, "state": cState,
	"dependency": cDependency,
}

// header is the column layout of one dump.
type header struct {
	at    [numColumns]int // field index of each column, -1 when absent
	names []string        // the header's field names as written
	// trailing: written with --parsable, each line ends in '|'.
	trailing bool
}

// parseHeader reads sacct's header line: '|'-separated field names, in any
// order; names the reader does not use are skipped, and the first of a
// name written twice counts.
func parseHeader(line string) (*header, error) {
	h := &header{}
	for i := range h.at {
		h.at[i] = -1
	}
	line = strings.TrimRight(line, "\r")
	if strings.HasSuffix(line, "|") {
		h.trailing = true
		line = line[:len(line)-1]
	}
	h.names = strings.Split(line, "|")
	for i, name := range h.names {
		c, ok := columnNames[strings.ToLower(strings.TrimSpace(name))]
		if ok && h.at[c] < 0 {
			h.at[c] = i
		}
	}
	switch {
	case h.at[cJobID] < 0 && h.at[cJobIDRaw] < 0:
		return nil, errMissing("JobID (or JobIDRaw)")
	case h.at[cSubmit] < 0:
		return nil, errMissing("Submit")
	case h.at[cStart] < 0:
		return nil, errMissing("Start")
	case h.at[cEnd] < 0 && h.at[cElapsed] < 0 && h.at[cElapsedRaw] < 0:
		return nil, errMissing("End or Elapsed")
	case h.at[cNCPUS] < 0 && h.at[cReqCPUS] < 0 && h.at[cAllocTRES] < 0 && h.at[cReqTRES] < 0:
		return nil, errMissing("NCPUS (or AllocCPUS, ReqCPUS, AllocTRES, ReqTRES)")
	}
	return h, nil
}

func errMissing(what string) error {
	return errors.New("the header has no " + what + " field: write it with sacct --format")
}

// has reports whether the dump has column c.
func (h *header) has(c column) bool { return h.at[c] >= 0 }

// name is column c's field name as the header writes it ("" when absent).
func (h *header) name(c column) string {
	if !h.has(c) {
		return ""
	}
	return h.names[h.at[c]]
}

// Sniff reports whether head, the first bytes of a file, is sacct's
// parsable output: its first line that is not blank is a header of
// '|'-separated field names holding JobID (or JobIDRaw) and Submit.
func Sniff(head []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(head))
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		if t == "" {
			continue
		}
		id, submit := false, false
		for _, name := range strings.Split(strings.TrimSuffix(t, "|"), "|") {
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "jobid", "jobidraw":
				id = true
			case "submit":
				submit = true
			}
		}
		return id && submit
	}
	return false
}
