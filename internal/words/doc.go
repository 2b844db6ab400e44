// Package words writes counts and units in English the same way in every
// message, caption and label schedsim generates: "1 job", "2 jobs",
// "1 day", "hourly", "daily". One helper per rule, so a typo or a wrong
// plural is fixed in one place.
package words
