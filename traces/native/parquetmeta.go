package native

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow/go/v17/parquet/metadata"

	"github.com/schedsim/schedsim/sim"
	"github.com/schedsim/schedsim/sim/clusterconfig"
	"github.com/schedsim/schedsim/traces/nodeevents"
)

// Embedded is what a Parquet trace may carry besides its jobs, so that a
// trace converted from a format that describes its own cluster (an SWF
// header, a Batsim nb_res, machine events) replays the same without other
// files. JSON Lines and CSV traces carry none of it but the calendar
// (their calendar line, calendar.go).
type Embedded struct {
	// Cluster is the trace's own cluster; nil for none. Stored as a
	// cluster file (clusterconfig.Encode) under schedsim.cluster.
	Cluster []sim.NodeSpec
	// Defaults are the cluster file's default requirements (Bistro
	// entitlements), written with the cluster.
	Defaults []sim.Quantity
	// ClusterSource says where it came from ("SWF header, pool model: …"),
	// under schedsim.cluster_source.
	ClusterSource string
	// NodeEvents are the trace's own node events, in the --node-events
	// CSV form under schedsim.node_events; nil for none.
	NodeEvents []sim.NodeEvent
	// Source names the trace it was converted from, under schedsim.source.
	Source string
	// Epoch is the calendar instant of the trace's time 0, under
	// schedsim.epoch (RFC 3339, UTC); the zero time when unknown.
	// TimeZone is the site's IANA time zone, under schedsim.time_zone;
	// "" when unknown.
	Epoch    time.Time
	TimeZone string
}

// Metadata keys besides schemaKey.
const (
	clusterKey       = "schedsim.cluster"
	clusterSourceKey = "schedsim.cluster_source"
	nodeEventsKey    = "schedsim.node_events"
	sourceKey        = "schedsim.source"
)

// keyValues returns the metadata of e, in a fixed order, schema first.
func (e *Embedded) keyValues() ([][2]string, error) {
	kv := [][2]string{{schemaKey, schemaName}}
	if e.Source != "" {
		kv = append(kv, [2]string{sourceKey, e.Source})
	}
	if len(e.Cluster) > 0 {
		data, err := clusterconfig.EncodeConfig(e.Cluster, e.Defaults, e.ClusterSource)
		if err != nil {
			return nil, err
		}
		kv = append(kv, [2]string{clusterKey, string(data)})
		if e.ClusterSource != "" {
			kv = append(kv, [2]string{clusterSourceKey, e.ClusterSource})
		}
	}
	if len(e.NodeEvents) > 0 {
		kv = append(kv, [2]string{nodeEventsKey, string(AppendNodeEvents(nil, e.NodeEvents))})
	}
	if !e.Epoch.IsZero() {
		kv = append(kv, [2]string{epochKey, e.Epoch.UTC().Format(time.RFC3339Nano)})
	}
	if e.TimeZone != "" {
		if err := checkZone(e.TimeZone); err != nil {
			return nil, fmt.Errorf("%s: %w", timeZoneKey, err)
		}
		kv = append(kv, [2]string{timeZoneKey, e.TimeZone})
	}
	return kv, nil
}

// AppendNodeEvents appends events as the CSV that --node-events reads
// (traces/nodeevents): a header time_s,node,event,deadline_s, then one
// row per event, times in exact decimal seconds.
func AppendNodeEvents(dst []byte, events []sim.NodeEvent) []byte {
	dst = append(dst, "time_s,node,event,deadline_s\n"...)
	for _, ev := range events {
		dst = append(dst, sim.FormatSeconds(ev.At)...)
		dst = append(dst, ',')
		dst = appendCSVCell(dst, ev.Node)
		dst = append(dst, ',')
		dst = append(dst, ev.Kind.String()...)
		dst = append(dst, ',')
		if ev.Deadline != 0 {
			dst = append(dst, sim.FormatSeconds(ev.Deadline)...)
		}
		dst = append(dst, '\n')
	}
	return dst
}

// appendCSVCell quotes s when CSV needs it (the node-events reader trims
// leading spaces and takes # as a comment, so those are quoted too).
func appendCSVCell(dst []byte, s string) []byte {
	if s != "" && !strings.ContainsAny(s, ",\"\r\n#") && s[0] != ' ' && s[0] != '\t' {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	dst = append(dst, strings.ReplaceAll(s, `"`, `""`)...)
	return append(dst, '"')
}

// readEmbedded checks the schema key and decodes what the file carries.
func readEmbedded(name string, kv metadata.KeyValueMetadata) (*Embedded, error) {
	get := func(key string) (string, bool) {
		if v := kv.FindValue(key); v != nil {
			return *v, true
		}
		return "", false
	}
	schema, ok := get(schemaKey)
	switch {
	case !ok:
		return nil, fmt.Errorf("%s: not a schedsim native trace: the Parquet key-value metadata has no %s key (want %q; see go doc ./traces/native)", name, schemaKey, schemaName)
	case schema != schemaName:
		return nil, fmt.Errorf("%s: schema %q (metadata key %s): this schedsim reads %q only", name, schema, schemaKey, schemaName)
	}
	e := &Embedded{}
	e.Source, _ = get(sourceKey)
	e.ClusterSource, _ = get(clusterSourceKey)
	if text, ok := get(clusterKey); ok {
		cfg, err := clusterconfig.ParseConfig([]byte(text), name+" (metadata "+clusterKey+")")
		if err != nil {
			return nil, err
		}
		e.Cluster, e.Defaults = cfg.NodeSpecs(), cfg.Defaults
	}
	if text, ok := get(nodeEventsKey); ok {
		evs, err := nodeevents.Parse([]byte(text), name+" (metadata "+nodeEventsKey+")")
		if err != nil {
			return nil, err
		}
		e.NodeEvents = evs
	}
	for _, key := range [...]string{epochKey, timeZoneKey} {
		if text, ok := get(key); ok {
			if err := e.calendarValue(key, text); err != nil {
				return nil, fmt.Errorf("%s: metadata %s %q: %w", name, key, text, err)
			}
		}
	}
	return e, nil
}
