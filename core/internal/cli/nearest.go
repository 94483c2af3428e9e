package cli

import "strings"

// DidYouMean is ` (did you mean "X"?)` for the known word nearest to word,
// or "" when none is near enough to be a slip: a word within a third of
// its length in edits (one at least), or the known word with a prefix or a
// suffix the user left out (before_tool for hook.before_tool, claude for
// claude-code).
func DidYouMean(word string, known []string) string {
	best, bestDist := "", len(word)/3+1
	for _, k := range known {
		if strings.HasSuffix(k, "."+word) || strings.HasSuffix(k, "_"+word) || strings.HasPrefix(k, word+"-") {
			return ` (did you mean "` + k + `"?)`
		}
		if d := editDistance(word, k); d > 0 && d <= bestDist && (best == "" || d < bestDist) {
			best, bestDist = k, d
		}
	}
	if best == "" {
		return ""
	}
	return ` (did you mean "` + best + `"?)`
}

// editDistance is the Levenshtein distance of a and b, by bytes: the
// fewest insertions, deletions and substitutions that turn one into the
// other.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
