package multifactor

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/schedsim/schedsim/traces"
)

// SlurmConf is what ParseSlurmConf takes from a slurm.conf.
type SlurmConf struct {
	// Config holds the Priority* settings and the partitions' priorities.
	// Shares and QOS priorities live in Slurm's accounting database, not
	// in slurm.conf: they stay empty.
	Config Config
	// Notes lists, as file:line: text, the priority settings read but not
	// modelled (PriorityWeightTRES, PriorityFlags other than NO_FAIR_TREE…)
	// and where Slurm's defaults differ from what is modelled.
	Notes []string
}

// ReadSlurmConf reads the priority settings of a slurm.conf file.
func ReadSlurmConf(path string) (*SlurmConf, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseSlurmConf(f, path)
}

// ParseSlurmConf reads the priority settings of a slurm.conf: the
// PriorityWeightAge, PriorityWeightFairshare, PriorityWeightJobSize,
// PriorityWeightPartition and PriorityWeightQOS integers; PriorityMaxAge
// and PriorityDecayHalfLife in Slurm's time formats (min, min:sec,
// hr:min:sec, days-hr, days-hr:min, days-hr:min:sec, rounded up to whole
// minutes as Slurm does); PriorityFavorSmall; and the PartitionName lines'
// PriorityJobFactor, PriorityTier, Priority (both at once) and
// Default=YES, with PartitionName=DEFAULT lines supplying defaults to the
// lines after them (a partition's factor and tier are 1 unless set).
//
// The syntax is Slurm's: keys are case-insensitive, # starts a comment
// unless escaped (\#), a line ending in \ continues on the next, values
// may be double-quoted. Other lines and keys are skipped; an unknown
// Priority* key is an error, as in Slurm. Errors are *traces.ParseError
// naming the file, the line and the key.
func ParseSlurmConf(r io.Reader, file string) (*SlurmConf, error) {
	p := &confParser{file: file, out: &SlurmConf{}, parts: map[string]int{}}
	p.dflt = partitionSettings{factor: 1, tier: 1}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var logical strings.Builder
	lineNo, start := 0, 0
	for sc.Scan() {
		lineNo++
		if logical.Len() == 0 {
			start = lineNo
		}
		text, more := continued(stripComment(sc.Text()))
		logical.WriteString(text)
		if more {
			continue
		}
		if err := p.line(start, logical.String()); err != nil {
			return nil, err
		}
		logical.Reset()
	}
	if err := sc.Err(); err != nil {
		return nil, &traces.ParseError{File: file, Line: lineNo + 1, Err: err}
	}
	if logical.Len() > 0 {
		if err := p.line(start, logical.String()); err != nil {
			return nil, err
		}
	}
	p.finish()
	return p.out, nil
}

type confParser struct {
	file         string
	out          *SlurmConf
	dflt         partitionSettings
	parts        map[string]int // partition → line defined
	classic      bool           // PriorityFlags names NO_FAIR_TREE or DEPTH_OBLIVIOUS
	typeLine     int
	priorityType string
}

// partitionSettings are a PartitionName line's priority keys; has* say
// which the line gave.
type partitionSettings struct {
	factor, tier, both          int64
	hasFactor, hasTier, hasBoth bool
	isDefault                   bool
}

// pair is one key=value of a line.
type pair struct{ key, value string }

func (p *confParser) fail(line int, key string, format string, args ...any) error {
	return &traces.ParseError{File: p.file, Line: line, Field: key, Err: fmt.Errorf(format, args...)}
}

// note records a setting read but not modelled; line 0 is the whole file.
func (p *confParser) note(line int, format string, args ...any) {
	at := p.file
	if line > 0 {
		at = fmt.Sprintf("%s:%d", p.file, line)
	}
	p.out.Notes = append(p.out.Notes, at+": "+fmt.Sprintf(format, args...))
}

func (p *confParser) line(n int, text string) error {
	pairs, err := splitPairs(text)
	if err != nil {
		return p.fail(n, "", "%v", err)
	}
	if len(pairs) == 0 {
		return nil
	}
	switch strings.ToLower(pairs[0].key) {
	case "partitionname":
		return p.partition(n, pairs)
	case "nodename", "nodeset", "downnodes", "frontendname", "switchname", "include":
		return nil
	}
	for _, kv := range pairs {
		if err := p.global(n, kv); err != nil {
			return err
		}
	}
	return nil
}

// global handles one key=value of a line of global settings.
func (p *confParser) global(n int, kv pair) error {
	c := &p.out.Config
	lower := strings.ToLower(kv.key)
	weight := func(w *int64) error {
		v, err := strconv.ParseUint(kv.value, 10, 32)
		if err != nil {
			return p.fail(n, kv.key, "want an unsigned 32-bit integer, got %q", kv.value)
		}
		*w = int64(v)
		return nil
	}
	switch lower {
	case "priorityweightage":
		return weight(&c.Weights.Age)
	case "priorityweightfairshare":
		return weight(&c.Weights.FairShare)
	case "priorityweightjobsize":
		return weight(&c.Weights.JobSize)
	case "priorityweightpartition":
		return weight(&c.Weights.Partition)
	case "priorityweightqos":
		return weight(&c.Weights.QOS)
	case "prioritymaxage":
		secs, err := parseSlurmMinutes(kv.value)
		if errors.Is(err, errUnlimited) {
			return p.fail(n, kv.key, "%s: the age factor needs a finite maximum age", kv.value)
		}
		if err != nil {
			return p.fail(n, kv.key, "%v", err)
		}
		v := float64(secs)
		c.MaxAgeS = &v
	case "prioritydecayhalflife":
		secs, err := parseSlurmMinutes(kv.value)
		if errors.Is(err, errUnlimited) {
			secs, err = 0, nil
			p.note(n, "PriorityDecayHalfLife=%s: usage never decays (as 0)", kv.value)
		}
		if err != nil {
			return p.fail(n, kv.key, "%v", err)
		}
		v := float64(secs)
		c.DecayHalfLifeS = &v
	case "priorityfavorsmall":
		b, err := parseBool(kv.value)
		if err != nil {
			return p.fail(n, kv.key, "%v", err)
		}
		c.FavorSmall = b
	case "priorityflags":
		for _, f := range strings.Split(kv.value, ",") {
			switch flag := strings.ToUpper(strings.TrimSpace(f)); flag {
			case "":
			case "NO_FAIR_TREE", "DEPTH_OBLIVIOUS":
				p.classic = true
			default:
				p.note(n, "PriorityFlags=%s is not modelled: ignored", flag)
			}
		}
	case "prioritytype":
		p.priorityType, p.typeLine = kv.value, n
	case "priorityweightassoc", "priorityweighttres", "prioritycalcperiod", "priorityusageresetperiod",
		"priorityparameters", "prioritysitefactorplugin", "prioritysitefactorparameters":
		p.note(n, "%s is not modelled: ignored", kv.key)
	default:
		if strings.HasPrefix(lower, "priority") {
			return p.fail(n, kv.key, "unknown priority setting")
		}
	}
	return nil
}

// partition handles a PartitionName line.
func (p *confParser) partition(n int, pairs []pair) error {
	name := pairs[0].value
	if !validName(name) {
		return p.fail(n, pairs[0].key, "want a partition name without blanks or commas, got %q", name)
	}
	var s partitionSettings
	value := func(kv pair, v *int64, has *bool) error {
		x, err := strconv.ParseUint(kv.value, 10, 16)
		if err != nil || x > maxPartitionValue {
			return p.fail(n, kv.key, "want an integer in 0…%d, got %q", maxPartitionValue, kv.value)
		}
		*v, *has = int64(x), true
		return nil
	}
	for _, kv := range pairs[1:] {
		var err error
		switch strings.ToLower(kv.key) {
		case "priorityjobfactor":
			err = value(kv, &s.factor, &s.hasFactor)
		case "prioritytier":
			err = value(kv, &s.tier, &s.hasTier)
		case "priority":
			err = value(kv, &s.both, &s.hasBoth)
		case "default":
			if s.isDefault, err = parseBool(kv.value); err != nil {
				err = p.fail(n, kv.key, "%v", err)
			}
		}
		if err != nil {
			return err
		}
	}
	if strings.EqualFold(name, "DEFAULT") {
		if s.hasFactor {
			p.dflt.factor, p.dflt.hasFactor = s.factor, true
		}
		if s.hasTier {
			p.dflt.tier, p.dflt.hasTier = s.tier, true
		}
		if s.hasBoth {
			p.dflt.both, p.dflt.hasBoth = s.both, true
		}
		return nil
	}
	if first, ok := p.parts[name]; ok {
		return p.fail(n, pairs[0].key, "partition %q is already defined on line %d", name, first)
	}
	p.parts[name] = n
	// As Slurm reads it: the line's value, else the DEFAULT line's; and
	// Priority (the line's, else the DEFAULT line's) sets both.
	factor, tier := p.dflt.factor, p.dflt.tier
	if s.hasFactor {
		factor = s.factor
	}
	if s.hasTier {
		tier = s.tier
	}
	switch {
	case s.hasBoth:
		factor, tier = s.both, s.both
	case p.dflt.hasBoth:
		factor, tier = p.dflt.both, p.dflt.both
	}
	c := &p.out.Config
	if c.PartitionPriorities == nil {
		c.PartitionPriorities, c.PartitionTiers = map[string]int64{}, map[string]int64{}
	}
	c.PartitionPriorities[name], c.PartitionTiers[name] = factor, tier
	if s.isDefault {
		c.DefaultPartition = name
	}
	return nil
}

// finish adds the notes that depend on the whole file.
func (p *confParser) finish() {
	if p.priorityType != "" && !strings.EqualFold(p.priorityType, "priority/multifactor") {
		p.note(p.typeLine, "PriorityType=%s: Slurm would not use these priorities; the multifactor order computes them anyway", p.priorityType)
	}
	if !p.classic {
		p.note(0, "PriorityFlags lacks NO_FAIR_TREE: Slurm would compute fair-share with Fair Tree; this order uses the classic formula")
	}
}

// stripComment cuts a line at its first # not escaped by an odd number
// of backslashes.
func stripComment(s string) string {
	bs := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#':
			if bs%2 == 0 {
				return s[:i]
			}
			bs = 0
		case '\\':
			bs++
		default:
			bs = 0
		}
	}
	return s
}

// continued reports whether a line ends in an odd number of backslashes
// (trailing blanks aside): it continues on the next, without them.
func continued(s string) (string, bool) {
	t := strings.TrimRight(s, " \t\r")
	bs := len(t) - len(strings.TrimRight(t, `\`))
	if bs%2 == 1 {
		return t[:len(t)-1], true
	}
	return s, false
}

// splitPairs splits a logical line into key=value pairs: blank-separated,
// values optionally double-quoted, backslash escapes removed. A word
// without = is a pair with an empty value (Include path).
func splitPairs(s string) ([]pair, error) {
	var out []pair
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		var word strings.Builder
		quoted := false
		for ; i < len(s); i++ {
			ch := s[i]
			if ch == '\\' && i+1 < len(s) {
				i++
				word.WriteByte(s[i])
				continue
			}
			if ch == '"' {
				quoted = !quoted
				continue
			}
			if !quoted && (ch == ' ' || ch == '\t' || ch == '\r') {
				break
			}
			word.WriteByte(ch)
		}
		if quoted {
			return nil, errors.New("unterminated quote")
		}
		k, v, _ := strings.Cut(word.String(), "=")
		out = append(out, pair{key: k, value: v})
	}
}

// parseBool reads a slurm.conf boolean.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "yes", "true", "up", "1":
		return true, nil
	case "no", "false", "down", "0":
		return false, nil
	}
	return false, fmt.Errorf("want YES or NO, got %q", s)
}
