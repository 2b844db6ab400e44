package words

import (
	"strconv"
	"strings"
)

// Count is n and the noun, singular for exactly 1 and plural otherwise:
// "1 node", "0 nodes", "135 jobs", "8 runs", "2 processes", "3 bodies".
// A noun phrase counts by its first word: "1 bad record" counts
// "bad record" as a whole, so pass the phrase with the noun last.
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(n, noun)
}

// CountAs is Count with the plural given, for nouns whose plural no rule
// makes ("1 child", "2 children").
func CountAs(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Noun is the noun (its last word) in the singular for n == 1, else in
// the plural.
func Noun(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return Plural(noun)
}

// Plural is the plural of a noun phrase's last word: -s, -es after s, x,
// z, ch and sh, -ies after a consonant and y.
func Plural(noun string) string {
	switch {
	case noun == "":
		return noun
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"), strings.HasSuffix(noun, "z"),
		strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "sh"):
		return noun + "es"
	case strings.HasSuffix(noun, "y") && len(noun) > 1 && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}

// Adverb is how often per unit of time: "hourly", "daily", "weekly",
// "monthly", "yearly"; "every minute" for a minute, whose adverb nobody
// writes.
func Adverb(unit string) string {
	switch unit {
	case "day":
		return "daily"
	case "minute":
		return "minute-by-minute"
	}
	return unit + "ly"
}
