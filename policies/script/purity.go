package script

import (
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Purity: the pipeline's score index (placement/index.go) re-scores only
// the nodes whose state changed since the last placement of a task of the
// same shape (its request, immunities and traits). A script's score and
// filter may use it only when their verdict is a pure function of that
// shape and of the node's state in the ledger. Starlark freezes a module's
// globals after load, so a script cannot carry state from call to call;
// what remains is what a call reads and does, and pure checks it on the
// syntax tree, conservatively (a false "impure" only costs the index):
//
//   - the file names none of the builtins that read beyond the node or the
//     shape or that have an effect: rand (seeded by the job, the task and
//     the node), get_cluster_member_state and get_cluster_member_resources
//     (any member), set_target, log_* and print (their lines would appear
//     once per re-score instead of once per placement);
//   - in score and filter, the task parameter is only ever read as
//     task.f or task["f"] for a field f the shape determines (pureTaskFields):
//     not passed on, stored, iterated, printed or indexed by a computed key,
//     since task.name, task.reason, task.index and the like differ between
//     tasks of one shape.
//
// The node parameter is unrestricted: everything a Node shows is static or
// read from that node's ledger entry, which logs every change.

// impureNames are the predeclared names that make a script impure.
var impureNames = map[string]bool{
	"rand":                         true,
	"get_cluster_member_state":     true,
	"get_cluster_member_resources": true,
	"set_target":                   true,
	"log_info":                     true,
	"log_warn":                     true,
	"log_error":                    true,
	"print":                        true,
}

// pureTaskFields are the fields of the task object fixed by the task's
// shape: the request (Need), the traits (project, architecture, labels in
// config) and placed, which is empty whenever the index is used (it skips
// tasks with co-tasks).
var pureTaskFields = map[string]bool{
	"project":      true,
	"request":      true,
	"config":       true,
	"architecture": true,
	"placed":       true,
}

// pure reports whether the entry points fns, defined in file f, are pure
// as described above.
func pure(f *syntax.File, fns ...*starlark.Function) bool {
	ok := true
	walk(f, func(n syntax.Node) bool {
		if id, is := n.(*syntax.Ident); is && impureNames[id.Name] {
			ok = false
		}
		return ok
	})
	if !ok {
		return false
	}
	for _, fn := range fns {
		if fn == nil {
			continue
		}
		body := definition(f, fn)
		if body == nil {
			return false
		}
		param, _ := fn.Param(0)
		if !taskReadsArePure(body, param) {
			return false
		}
	}
	return true
}

// walk is syntax.Walk, except that the attribute name of a dot expression
// (the f of x.f) is not visited: it names a field, not a variable.
func walk(n syntax.Node, visit func(syntax.Node) bool) {
	var f func(syntax.Node) bool
	f = func(n syntax.Node) bool {
		if d, is := n.(*syntax.DotExpr); is {
			if visit(d) {
				syntax.Walk(d.X, f)
			}
			return false
		}
		return visit(n)
	}
	syntax.Walk(n, f)
}

// definition returns the def statement or lambda expression that defined
// fn (matched by the position of its def or lambda token), or nil.
func definition(f *syntax.File, fn *starlark.Function) syntax.Node {
	pos := fn.Position()
	var found syntax.Node
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.DefStmt:
			if n.Def == pos {
				found = n
			}
		case *syntax.LambdaExpr:
			if n.Lambda == pos {
				found = n
			}
		}
		return found == nil
	})
	return found
}

// taskReadsArePure reports whether every use of the identifier param in
// the function def (its body, default values and nested functions
// included, whatever they bind the name to) reads a pure task field.
func taskReadsArePure(def syntax.Node, param string) bool {
	ok := true
	var body []syntax.Node
	switch d := def.(type) {
	case *syntax.DefStmt:
		for _, s := range d.Body {
			body = append(body, s)
		}
		for _, p := range d.Params {
			if b, is := p.(*syntax.BinaryExpr); is { // a default value
				body = append(body, b.Y)
			}
		}
	case *syntax.LambdaExpr:
		body = append(body, d.Body)
		for _, p := range d.Params {
			if b, is := p.(*syntax.BinaryExpr); is {
				body = append(body, b.Y)
			}
		}
	}
	isParam := func(e syntax.Expr) bool {
		id, is := e.(*syntax.Ident)
		return is && id.Name == param
	}
	for _, n := range body {
		walk(n, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.DotExpr:
				if isParam(n.X) {
					ok = ok && pureTaskFields[n.Name.Name]
					return false
				}
			case *syntax.IndexExpr:
				if isParam(n.X) {
					ok = ok && pureKey(n.Y)
					return false
				}
			case *syntax.Ident:
				if n.Name == param {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

// pureKey reports whether e is a string literal naming a pure task field.
func pureKey(e syntax.Expr) bool {
	lit, is := e.(*syntax.Literal)
	if !is {
		return false
	}
	s, is := lit.Value.(string)
	return is && pureTaskFields[s]
}
