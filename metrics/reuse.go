package metrics

// freeList keeps a few idle staging batches from one recorder to the next.
// A sweep runs many short replays in one process; each would otherwise
// grow its batches from empty, doubling and copying, which took about a
// twentieth of a 20,000-job run's CPU time. A batch is handed back only
// once its table's encoder has stopped, emptied, and only when it is not
// huge, so the list holds a few MB per worker at most.
type freeList[T any] struct{ idle chan *T }

func newFreeList[T any](n int) freeList[T] { return freeList[T]{make(chan *T, n)} }

// get returns an idle value, or a new one.
func (f freeList[T]) get() *T {
	select {
	case v := <-f.idle:
		return v
	default:
		return new(T)
	}
}

// put keeps v unless the list is full.
func (f freeList[T]) put(v *T) {
	select {
	case f.idle <- v:
	default:
	}
}

// maxKeptBatchBytes is the largest batch put back: a batch of huge node
// lists can reach maxBatchText, which is not worth keeping.
const maxKeptBatchBytes = 32 << 20

// Idle batches, for a few recorders at once.
var (
	idleJobBatches    = newFreeList[jobBatch](16)
	idleSeriesBatches = newFreeList[seriesBatch](16)
	idleEventBatches  = newFreeList[eventBatch](16)
)
