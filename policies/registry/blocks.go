package registry

// Block is a spec block of typed arguments: a queue order's or a
// backfill's that takes some, under its registered name.
type Block struct {
	Name    string
	NewArgs func() Args
	// Flat are the block's keys a spec also gives at its top level.
	Flat []string
	// After is the top-level key the flat keys follow in run.yaml (the
	// policy's own: queue, backfill).
	After string
}

// Blocks returns the argument blocks: the queue orders', then the
// backfills', in registry order.
func Blocks() []Block {
	var out []Block
	for _, o := range orders {
		if o.NewArgs != nil {
			out = append(out, Block{o.Name, o.NewArgs, o.Flat, "queue"})
		}
	}
	for _, b := range backfills {
		if b.NewArgs != nil {
			out = append(out, Block{string(b.Kind), b.NewArgs, b.Flat, "backfill"})
		}
	}
	return out
}

// LookupBlock returns the block called name.
func LookupBlock(name string) (Block, bool) {
	for _, b := range Blocks() {
		if b.Name == name {
			return b, true
		}
	}
	return Block{}, false
}
