package words

import "strings"

// Thousands puts commas between the thousands of a decimal number's
// integer part, as the summaries print energy: "163670" → "163,670",
// "-1234.5" → "-1,234.5"; other text is returned as is.
func Thousands(s string) string {
	sign, rest := "", s
	if strings.HasPrefix(rest, "-") {
		sign, rest = "-", rest[1:]
	}
	whole, frac, hasFrac := strings.Cut(rest, ".")
	for _, c := range whole {
		if c < '0' || c > '9' {
			return s
		}
	}
	var b strings.Builder
	b.WriteString(sign)
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return b.String()
}
