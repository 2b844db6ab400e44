// Package seqmap is a map for integer keys that come and go roughly in
// order: job sequence numbers and the numeric ids of a trace, for the jobs
// alive at one time. Keys in a sliding window live in a slice indexed by
// key − base, which costs no hashing and keeps neighbours together; keys
// outside it (far behind, far ahead, or negative) live in a Go map. The
// window holds a new key only while it is at most Spread times the
// entries it holds plus Slack long: when long-lived entries pin its front
// while new keys keep arriving, the oldest move to the map and the window
// slides.
package seqmap
