// Package traces holds what every trace reader shares: the ParseError that
// names file, line and field, the strict/lenient Options, and Open, which
// picks a reader by extension or content. Each format lives in its own
// sub-package (swf, batsim, native, …); all of them yield sim.Jobs through
// the sim.Source interface, streaming, in submit order. Every CSV reader
// goes through NewCSVReader, which refuses a row longer than MaxRecord
// (16 MiB) instead of holding it whole, as the JSON-lines reader refuses
// a longer line. OpenFile opens a trace file gunzipped when its content
// is gzip, whatever its name; CSVTable reads a headerless CSV table row by
// row, counting and passing over malformed rows in lenient mode.
package traces
