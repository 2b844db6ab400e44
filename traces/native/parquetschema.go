package native

import (
	"github.com/apache/arrow/go/v17/arrow"
)

// The Parquet encoding of schedsim-native v1: one row per job, one column
// per field, typed. Times are whole microseconds (int64, the engine's own
// unit, so they are exact without a decimal type) and carry _us in their
// names; requirements are DECIMAL(18, 3) in the resource's unit, one
// req_<resource> column each, null when the job does not request the
// resource; the structured fields are Parquet lists, maps and structs.
// The key-value metadata names the schema and its version
// (schemaKey = schemaName) and may carry the cluster, node events and
// provenance of the trace a converter read (parquetmeta.go).

// Key-value metadata of a Parquet trace.
const (
	// schemaKey names the schema and its version; the reader refuses a
	// file without it or with another value.
	schemaKey  = "schedsim.schema"
	schemaName = "schedsim-native v1"
)

// Parquet column names that differ from the text encodings'.
const (
	colSubmitUS   = "submit_us"
	colRuntimeUS  = "runtime_us"
	colWalltimeUS = "walltime_us"
	colRecordedUS = "recorded_start_us"
	memThinkUS    = "think_us"
)

// pqName is the Parquet column of a field.
func pqName(f field) string {
	switch f {
	case fSubmit:
		return colSubmitUS
	case fRuntime:
		return colRuntimeUS
	case fWalltime:
		return colWalltimeUS
	case fRecordedStart:
		return colRecordedUS
	}
	return f.String()
}

// pqField finds the field of a Parquet column name (not req_ columns).
func pqField(name string) (field, bool) {
	for f := range numFields {
		if f != fRequest && pqName(f) == name {
			return f, true
		}
	}
	return 0, false
}

// amountType is the type of a req_ column: thousandths of a unit, exact.
var amountType = &arrow.Decimal128Type{Precision: 18, Scale: 3}

// element is the item of a Parquet list, named as the Parquet spec's
// three-level lists name it.
func listOf(t arrow.DataType) *arrow.ListType {
	return arrow.ListOfField(arrow.Field{Name: "element", Type: t})
}

func strField(name string) arrow.Field {
	return arrow.Field{Name: name, Type: arrow.BinaryTypes.String}
}

// The members of the structs in list columns, in order.
var (
	tolerationStruct = arrow.StructOf(strField("key"), strField("value"), strField("effect"))
	constraintStruct = arrow.StructOf(strField("kind"), strField("attribute"), strField("value"),
		arrow.Field{Name: "groups", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "soft", Type: arrow.FixedWidthTypes.Boolean})
	depStruct = arrow.StructOf(strField("job"), strField("condition"),
		arrow.Field{Name: memThinkUS, Type: arrow.PrimitiveTypes.Int64})
)

// labelsType is selector's and labels': a map of string → string, whose
// entries keep their order.
func labelsType() *arrow.MapType {
	m := arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String)
	m.SetItemNullable(false)
	return m
}

// pqType is the Arrow type a writer gives field f, and whether it may be
// null (an optional field left out).
func pqType(f field) (arrow.DataType, bool) {
	switch f {
	case fSubmit, fRuntime, fTasks, fPriority, fRequestedProcs:
		return arrow.PrimitiveTypes.Int64, false
	case fWalltime, fRecordedStart:
		return arrow.PrimitiveTypes.Int64, true
	case fGang:
		return arrow.FixedWidthTypes.Boolean, false
	case fID, fUser, fGroup, fQueue, fPartition, fQOS:
		return arrow.BinaryTypes.String, false
	case fArchitecture, fMemberGroup, fProject:
		return arrow.BinaryTypes.String, true
	case fImmunities, fAversionGroups:
		return listOf(arrow.BinaryTypes.String), true
	case fSelector, fLabels:
		return labelsType(), true
	case fTolerations:
		return listOf(tolerationStruct), true
	case fConstraints:
		return listOf(constraintStruct), true
	case fDependsOn:
		return listOf(depStruct), true
	}
	panic("native: no Parquet type for " + f.String())
}

// parquetSchema is the Arrow schema of a trace with these columns: the
// job's own fields with the req_ columns after tasks, as in CSV, then
// the recorded, trait and depends_on columns some job uses.
func parquetSchema(cols *Columns) *arrow.Schema {
	var fs []arrow.Field
	add := func(f field) {
		t, null := pqType(f)
		fs = append(fs, arrow.Field{Name: pqName(f), Type: t, Nullable: null})
	}
	for f := fID; f <= fTasks; f++ {
		add(f)
	}
	for _, r := range cols.Resources {
		fs = append(fs, arrow.Field{Name: reqPrefix + r, Type: amountType, Nullable: true})
	}
	for f := fUser; f <= fGang; f++ {
		add(f)
	}
	for _, f := range cols.optional() {
		add(f)
	}
	return arrow.NewSchema(fs, nil)
}
