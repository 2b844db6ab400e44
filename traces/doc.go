// Package traces holds what every trace reader shares: the ParseError that
// names file, line and field, the strict/lenient Options, and Open, which
// picks a reader by extension or content. Each format lives in its own
// sub-package (swf, batsim, native, …); all of them yield sim.Jobs through
// the sim.Source interface, streaming, in submit order. Every CSV reader
// goes through NewCSVReader, which refuses a row longer than MaxRecord
// (16 MiB) instead of holding it whole, as the JSON-lines reader refuses
// a longer line.
package traces
