package script

import "time"

// processStart anchors wallClock.
var processStart = time.Now()

// wallClock is the time since the package was loaded, monotonic.
func wallClock() time.Duration { return time.Since(processStart) }
