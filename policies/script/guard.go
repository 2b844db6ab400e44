package script

import (
	"fmt"

	"go.starlark.net/syntax"
)

// guard rewrites the syntax tree of a script, before it is resolved and
// compiled, so that every operator that can build a value larger than its
// operands charges the memory budget first (memory.go, growth.go):
//
//	x + y            →  $add(x, y)
//	x * y            →  $mul(x, y)
//	x % y            →  $mod(x, y)
//	t += y           →  t += $iadd(t, y)   (likewise *= and %=)
//	r.join(a, ...)   →  $.join(r, a, ...)  (and the other growingMethods)
//	x in y           →  $in(x, y)          (and not in: linear.go)
//	s.count(a, ...)  →  $.count(s, a, ...) (and the other linearMethods)
//
// Operators that cannot grow anything keep their own bytecode: x + 1,
// x + (a - b), x * 0.5 and x * (a / b) are arithmetic or an error
// whatever x is (binaryBuiltin). The augmented forms read their target a
// second time; a target that calls a function (a[f()] += y) would call it
// twice, so it is a load error instead.
func guard(f *syntax.File) error {
	g := &guarder{}
	g.stmts(f.Stmts)
	return g.err
}

type guarder struct{ err error }

// inplaceOps are the augmented assignments that can grow their target,
// with the builtin that charges them.
var inplaceOps = map[syntax.Token]string{
	syntax.PLUS_EQ:    opInplaceAdd,
	syntax.STAR_EQ:    opInplaceMul,
	syntax.PERCENT_EQ: opInplaceMod,
}

func (g *guarder) stmts(list []syntax.Stmt) {
	for _, st := range list {
		g.stmt(st)
	}
}

func (g *guarder) stmt(st syntax.Stmt) {
	switch st := st.(type) {
	case *syntax.AssignStmt:
		if name, ok := inplaceOps[st.Op]; ok {
			target, ok := clone(st.LHS)
			if !ok {
				if g.err == nil {
					g.err = fmt.Errorf("%s: %s with a target that calls a function is not supported (it would be evaluated twice): assign the index to a variable first", st.OpPos, st.Op)
				}
				return
			}
			st.RHS = callTo(name, st.OpPos, g.expr(target), g.expr(st.RHS))
		} else {
			st.RHS = g.expr(st.RHS)
		}
		st.LHS = g.expr(st.LHS)
	case *syntax.DefStmt:
		g.exprs(st.Params)
		g.stmts(st.Body)
	case *syntax.ExprStmt:
		st.X = g.expr(st.X)
	case *syntax.IfStmt:
		st.Cond = g.expr(st.Cond)
		g.stmts(st.True)
		g.stmts(st.False)
	case *syntax.ForStmt:
		st.Vars = g.expr(st.Vars)
		st.X = g.expr(st.X)
		g.stmts(st.Body)
	case *syntax.WhileStmt:
		st.Cond = g.expr(st.Cond)
		g.stmts(st.Body)
	case *syntax.ReturnStmt:
		st.Result = g.expr(st.Result)
	}
}

func (g *guarder) exprs(list []syntax.Expr) {
	for i, e := range list {
		list[i] = g.expr(e)
	}
}

// expr returns e with its growing operations rewritten (e itself, changed
// in place, unless it is one of them).
func (g *guarder) expr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.BinaryExpr:
		e.X, e.Y = g.expr(e.X), g.expr(e.Y)
		switch e.Op {
		case syntax.IN:
			return callTo(opIn, e.OpPos, e.X, e.Y)
		case syntax.NOT_IN:
			return callTo(opNotIn, e.OpPos, e.X, e.Y)
		}
		if name := binaryBuiltin(e); name != "" {
			return callTo(name, e.OpPos, e.X, e.Y)
		}
	case *syntax.CallExpr:
		g.exprs(e.Args)
		if dot, ok := e.Fn.(*syntax.DotExpr); ok && (growingMethods[dot.Name.Name] != nil || linearMethods[dot.Name.Name]) {
			return &syntax.CallExpr{
				Fn:     &syntax.Ident{NamePos: dot.NamePos, Name: methodPrefix + dot.Name.Name},
				Lparen: e.Lparen,
				Args:   append([]syntax.Expr{g.expr(dot.X)}, e.Args...),
				Rparen: e.Rparen,
			}
		}
		e.Fn = g.expr(e.Fn)
	case *syntax.Comprehension:
		e.Body = g.expr(e.Body)
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				c.Vars, c.X = g.expr(c.Vars), g.expr(c.X)
			case *syntax.IfClause:
				c.Cond = g.expr(c.Cond)
			}
		}
	case *syntax.CondExpr:
		e.Cond, e.True, e.False = g.expr(e.Cond), g.expr(e.True), g.expr(e.False)
	case *syntax.DictExpr:
		g.exprs(e.List)
	case *syntax.DictEntry:
		e.Key, e.Value = g.expr(e.Key), g.expr(e.Value)
	case *syntax.DotExpr:
		e.X = g.expr(e.X)
	case *syntax.IndexExpr:
		e.X, e.Y = g.expr(e.X), g.expr(e.Y)
	case *syntax.LambdaExpr:
		g.exprs(e.Params)
		e.Body = g.expr(e.Body)
	case *syntax.ListExpr:
		g.exprs(e.List)
	case *syntax.TupleExpr:
		g.exprs(e.List)
	case *syntax.ParenExpr:
		e.X = g.expr(e.X)
	case *syntax.SliceExpr:
		e.X, e.Lo, e.Hi, e.Step = g.expr(e.X), g.expr(e.Lo), g.expr(e.Hi), g.expr(e.Step)
	case *syntax.UnaryExpr:
		e.X = g.expr(e.X)
	}
	return e
}

// binaryBuiltin is the builtin that stands for e's operator, "" when e
// cannot grow a value.
func binaryBuiltin(e *syntax.BinaryExpr) string {
	switch e.Op {
	case syntax.PLUS:
		if !isNumeric(e.X) && !isNumeric(e.Y) {
			return opAdd
		}
	case syntax.STAR:
		if !isFloat(e.X) && !isFloat(e.Y) && !(isNumber(e.X) && isNumber(e.Y)) {
			return opMul
		}
	case syntax.PERCENT:
		if !isNumeric(e.X) {
			return opMod
		}
	}
	return ""
}

// isNumber reports whether e is a number literal.
func isNumber(e syntax.Expr) bool {
	l, ok := unparen(e).(*syntax.Literal)
	return ok && (l.Token == syntax.INT || l.Token == syntax.FLOAT)
}

// isNumeric reports whether e, if it has a value, is a number or (for
// a - b) a set, neither of which + or % can grow: a number literal, a
// difference, a quotient, or a sign applied to one of those.
func isNumeric(e syntax.Expr) bool {
	switch e := unparen(e).(type) {
	case *syntax.BinaryExpr:
		return e.Op == syntax.MINUS || e.Op == syntax.SLASH || e.Op == syntax.SLASHSLASH
	case *syntax.UnaryExpr:
		return (e.Op == syntax.MINUS || e.Op == syntax.PLUS) && isNumeric(e.X)
	}
	return isNumber(e)
}

// isFloat reports whether e, if it has a value, is a float: a float
// literal or a quotient (/), so that e * x is arithmetic.
func isFloat(e syntax.Expr) bool {
	switch e := unparen(e).(type) {
	case *syntax.Literal:
		return e.Token == syntax.FLOAT
	case *syntax.BinaryExpr:
		return e.Op == syntax.SLASH
	case *syntax.UnaryExpr:
		return (e.Op == syntax.MINUS || e.Op == syntax.PLUS) && isFloat(e.X)
	}
	return false
}

func unparen(e syntax.Expr) syntax.Expr {
	for {
		p, ok := e.(*syntax.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// callTo is name(args...) at pos.
func callTo(name string, pos syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: name}, Lparen: pos, Args: args, Rparen: pos}
}

// clone copies an assignment target made of names, literals, attribute
// reads, indexing and operators, so that it can be read once more; false
// when it calls a function (or has a form a target cannot have).
func clone(e syntax.Expr) (syntax.Expr, bool) {
	switch e := e.(type) {
	case *syntax.Ident:
		return &syntax.Ident{NamePos: e.NamePos, Name: e.Name}, true
	case *syntax.Literal:
		c := *e
		return &c, true
	case *syntax.ParenExpr:
		x, ok := clone(e.X)
		return &syntax.ParenExpr{Lparen: e.Lparen, X: x, Rparen: e.Rparen}, ok
	case *syntax.DotExpr:
		x, ok := clone(e.X)
		return &syntax.DotExpr{X: x, Dot: e.Dot, NamePos: e.NamePos, Name: &syntax.Ident{NamePos: e.Name.NamePos, Name: e.Name.Name}}, ok
	case *syntax.IndexExpr:
		x, ok1 := clone(e.X)
		y, ok2 := clone(e.Y)
		return &syntax.IndexExpr{X: x, Lbrack: e.Lbrack, Y: y, Rbrack: e.Rbrack}, ok1 && ok2
	case *syntax.UnaryExpr:
		x, ok := clone(e.X)
		return &syntax.UnaryExpr{OpPos: e.OpPos, Op: e.Op, X: x}, ok
	case *syntax.BinaryExpr:
		x, ok1 := clone(e.X)
		y, ok2 := clone(e.Y)
		return &syntax.BinaryExpr{X: x, OpPos: e.OpPos, Op: e.Op, Y: y}, ok1 && ok2
	}
	return nil, false
}
