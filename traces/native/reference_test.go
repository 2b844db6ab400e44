package native

// The first JSON Lines decoder, built on encoding/json's Token API. It was
// correct but slow (about 140 allocations per record); it stays here as the
// reference the hand-written scanner is fuzzed against (FuzzJSONLScanner).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/schedsim/schedsim/traces"
)

// record decodes one JSON object into rec, keeping the order of the keys of
// request.
func (d *jsonlDecoder) refRecord(rec *record, text []byte) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return d.refSyntax(err)
	}
	if tok != json.Delim('{') {
		return d.bad("", errNotObject)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return d.refSyntax(err)
		}
		key, _ := tok.(string) // the decoder only yields strings as keys
		f, ok := lookupField(key)
		if !ok {
			return fatalError{&traces.ParseError{File: d.name, Line: d.line, Field: key, Err: errUnknown}}
		}
		if rec.seen[f] {
			return d.bad(key, errTwice)
		}
		if f == fRequest {
			if err := d.refRequest(rec, dec); err != nil {
				return err
			}
			rec.seen[f] = true
			continue
		}
		tok, err = dec.Token()
		if err != nil {
			return d.refSyntax(err)
		}
		var text string
		switch v := tok.(type) {
		case nil:
			continue // null: absent
		case string:
			if f.kind() != kString {
				return d.bad(key, wantErr(f))
			}
			text = v
		case json.Number:
			if f.kind() != kNumber {
				return d.bad(key, wantErr(f))
			}
			text = string(v)
		case bool:
			if f.kind() != kBool {
				return d.bad(key, wantErr(f))
			}
			text = "false"
			if v {
				text = "true"
			}
		default: // an array or object
			return d.bad(key, wantErr(f))
		}
		if err := rec.setText(f, text); err != nil {
			return d.bad(key, err)
		}
		rec.seen[f] = true
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return d.refSyntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return d.refSyntax(err)
		}
		return d.bad("", errTrailing)
	}
	if f, err := rec.finish(); err != nil {
		return d.bad(f.String(), err)
	}
	return nil
}

// request decodes the request object: resource name → number; null means
// absent.
func (d *jsonlDecoder) refRequest(rec *record, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return d.refSyntax(err)
	}
	if tok == nil {
		return nil
	}
	if tok != json.Delim('{') {
		return d.bad("request", errWantObject)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return d.refSyntax(err)
		}
		res, _ := tok.(string)
		f := "request." + res
		tok, err = dec.Token()
		if err != nil {
			return d.refSyntax(err)
		}
		switch v := tok.(type) {
		case nil:
			continue
		case json.Number:
			if err := rec.addRequest(res, string(v)); err != nil {
				return d.bad(f, err)
			}
		default:
			return d.bad(f, errWantNumber)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return d.refSyntax(err)
	}
	return nil
}

// refSyntax turns an encoding/json error into a bad record.
func (d *jsonlDecoder) refSyntax(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return &traces.ParseError{File: d.name, Line: d.line, Err: fmt.Errorf("bad JSON: %w", err)}
}
