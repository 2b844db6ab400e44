package slurmconf

import (
	"bufio"
	"bytes"
	"strings"
)

// pair is one Key=Value of a line, with the line it was written on.
type pair struct {
	key   string // lower-cased: Slurm's keys are case-insensitive
	name  string // as written, for messages
	value string
	line  int
}

// record is one logical line: its pairs in order. The first pair says
// what the line is (NodeName=…, PartitionName=…).
type record struct {
	pairs []pair
}

// splitRecords cuts a file into logical lines of Key=Value pairs.
//
// slurm.conf: '#' starts a comment; a line ending in '\' continues on the
// next; values may be double-quoted to hold blanks. scontrol's one-line
// output (`scontrol show node --oneliner`) has no comments but values
// with blanks unquoted (OS=Linux 5.14 #1 SMP …): a line holding one of
// its own keys (CPUTot=, CfgTRES=) is read without comments, and on every
// line a word that is not Key=Value continues the value before it.
func splitRecords(data []byte) []record {
	var out []record
	var cur record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	line := 0
	continued := false
	for sc.Scan() {
		line++
		text := sc.Text()
		if !isScontrolLine(text) {
			text = stripComment(text)
		}
		text = strings.TrimRight(text, " \t\r")
		cont := strings.HasSuffix(text, "\\")
		if cont {
			text = text[:len(text)-1]
		}
		if !continued && len(cur.pairs) > 0 {
			out = append(out, cur)
			cur = record{}
		}
		cur.pairs = appendPairs(cur.pairs, text, line)
		continued = cont
	}
	if len(cur.pairs) > 0 {
		out = append(out, cur)
	}
	return out
}

// isScontrolLine tells scontrol's output from slurm.conf by keys only
// scontrol writes.
func isScontrolLine(s string) bool {
	return strings.Contains(s, "CPUTot=") || strings.Contains(s, "CfgTRES=") || strings.Contains(s, "TotalNodes=")
}

// stripComment cuts s at the first '#' outside double quotes.
func stripComment(s string) string {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case '#':
			if !quoted {
				return s[:i]
			}
		}
	}
	return s
}

// appendPairs splits text into words at blanks outside double quotes and
// appends its Key=Value pairs; a word without a key continues the previous
// value (scontrol's unquoted blanks), or is kept as a pair without a key
// when it comes first.
func appendPairs(ps []pair, text string, line int) []pair {
	for _, w := range words(text) {
		k, v, ok := strings.Cut(w, "=")
		if ok && isKey(k) {
			ps = append(ps, pair{key: strings.ToLower(k), name: k, value: unquote(v), line: line})
			continue
		}
		if len(ps) > 0 && ps[len(ps)-1].line == line {
			ps[len(ps)-1].value += " " + unquote(w)
			continue
		}
		ps = append(ps, pair{name: w, value: w, line: line})
	}
	return ps
}

// words splits s at blanks outside double quotes.
func words(s string) []string {
	var out []string
	start := -1
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			quoted = !quoted
		}
		blank := (c == ' ' || c == '\t' || c == '\r') && !quoted
		switch {
		case blank && start >= 0:
			out = append(out, s[start:i])
			start = -1
		case !blank && start < 0:
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// isKey: a Slurm key is a letter followed by letters, digits and '_'.
func isKey(k string) bool {
	if k == "" || !isLetter(k[0]) {
		return false
	}
	for i := 1; i < len(k); i++ {
		if c := k[i]; !isLetter(c) && !(c >= '0' && c <= '9') && c != '_' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// unquote drops the double quotes of a value.
func unquote(s string) string { return strings.ReplaceAll(s, `"`, "") }
