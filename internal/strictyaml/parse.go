package strictyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Parse reads data as one YAML document and returns its root node, nil
// for an empty file. A syntax error is the library's words after the file
// name (the library gives no line apart from its text); a second
// document is refused at its line.
func Parse(file string, data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: bad YAML: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, fmt.Errorf("%s: bad YAML: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
	default:
		return nil, Problems{{File: file, Line: next.Line, Msg: "a second YAML document; the file holds one"}}
	}
	return Resolve(&doc), nil
}
