package main

// Arithmetic for the calculate tool: a small parser, never an evaluator of
// code. The LLM writes the expression, so it is untrusted input: only
// numbers, + - * / % ** ^ and parentheses are read, and every step is
// bounded before it is taken. The Python and TypeScript hooks implement the
// same rules with the same messages; ../cases.json is the table all three
// are tested against.
//
// Grammar, with Python's precedence (-2 ** 2 is -4, 2 ** -1 is 0.5):
//
//	sum     = product (("+" | "-") product)*
//	product = power (("*" | "/" | "%") power)*
//	power   = sign* atom (("**" | "^") sign* atom)*     right to left
//	atom    = number | "(" sum ")"
//
// Numbers are IEEE-754 doubles, as in the other two, and results are shown
// with at most 15 significant digits, as a pocket calculator shows them.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	maxLength   = 1000 // characters of an expression
	maxDepth    = 64   // nested parentheses
	maxDigits   = 300  // decimal digits a power's result may have, before or after the point
	significant = 15   // digits a result is shown with
)

// calcError is a refused expression: its text is what the LLM reads.
type calcError string

func (e calcError) Error() string { return string(e) }

func refuse(format string, args ...any) error { return calcError(fmt.Sprintf(format, args...)) }

// token is an operator or a number, and its position (1-based, in
// characters) for messages.
type token struct {
	text string
	pos  int
}

// evaluate returns the value of expr, formatted, or a calcError saying why
// there is none.
func evaluate(expr string) (string, error) {
	// The length first: every later step is linear in it.
	if utf8.RuneCountInString(expr) > maxLength {
		return "", refuse("expression too long: more than %d characters", maxLength)
	}
	tokens, err := tokenize([]rune(expr))
	if err != nil {
		return "", err
	}
	if len(tokens) == 0 {
		return "", refuse("empty expression")
	}
	p := &parser{tokens: tokens}
	v, err := p.sum()
	if err == nil {
		err = p.end()
	}
	if err != nil {
		return "", err
	}
	return formatNumber(v), nil
}

func tokenize(s []rune) ([]token, error) {
	var tokens []token
	for i := 0; i < len(s); {
		c, start := s[i], i+1
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case isDigit(c) || c == '.' && digitAt(s, i+1):
			i = numberEnd(s, i)
			tokens = append(tokens, token{string(s[start-1 : i]), start})
		case isNameChar(c):
			for i < len(s) && isNameChar(s[i]) {
				i++
			}
			return nil, refuse("names are not allowed: %q at position %d", string(s[start-1:i]), start)
		case c == '*' && i+1 < len(s) && s[i+1] == '*':
			tokens = append(tokens, token{"**", start})
			i += 2
		case strings.ContainsRune("+-*/%^()", c):
			tokens = append(tokens, token{string(c), start})
			i++
		default:
			return nil, refuse("unexpected character %s at position %d", show(c), start)
		}
	}
	return tokens, nil
}

func isDigit(c rune) bool { return '0' <= c && c <= '9' }

func isNameChar(c rune) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || isDigit(c)
}

func digitAt(s []rune, i int) bool { return i < len(s) && isDigit(s[i]) }

// numberEnd is the end of the number at i: digits, a point and digits, an
// exponent.
func numberEnd(s []rune, i int) int {
	for digitAt(s, i) {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for digitAt(s, i) {
			i++
		}
	}
	// An exponent only when digits follow: "2e" is 2 and then a name.
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if digitAt(s, j) {
			for i = j; digitAt(s, i); i++ {
			}
		}
	}
	return i
}

// show is a character for a message: quoted when printable ASCII, else
// its code point.
func show(c rune) string {
	if '!' <= c && c <= '~' && c != '"' {
		return `"` + string(c) + `"`
	}
	return fmt.Sprintf("U+%04X", c)
}

type parser struct {
	tokens []token
	i      int
	depth  int
}

func (p *parser) peek() string {
	if p.i < len(p.tokens) {
		return p.tokens[p.i].text
	}
	return ""
}

func (p *parser) unexpected() error {
	if p.i >= len(p.tokens) {
		return refuse("unexpected end of expression")
	}
	t := p.tokens[p.i]
	return refuse("unexpected %q at position %d", t.text, t.pos)
}

func (p *parser) end() error {
	if p.i < len(p.tokens) {
		if t := p.tokens[p.i]; t.text == ")" {
			return refuse(`unmatched ")" at position %d`, t.pos)
		}
		return p.unexpected()
	}
	return nil
}

func (p *parser) sum() (float64, error) {
	v, err := p.product()
	for err == nil && (p.peek() == "+" || p.peek() == "-") {
		op := p.peek()
		p.i++
		var r float64
		if r, err = p.product(); err != nil {
			break
		}
		if op == "+" {
			v, err = finite(v + r)
		} else {
			v, err = finite(v - r)
		}
	}
	return v, err
}

func (p *parser) product() (float64, error) {
	v, err := p.power()
	for err == nil && (p.peek() == "*" || p.peek() == "/" || p.peek() == "%") {
		op := p.peek()
		p.i++
		var r float64
		if r, err = p.power(); err != nil {
			break
		}
		switch {
		case op == "*":
			v, err = finite(v * r)
		case r == 0:
			err = refuse("division by zero")
		case op == "/":
			v, err = finite(v / r)
		default:
			v = modulo(v, r)
		}
	}
	return v, err
}

type operand struct {
	negative bool
	value    float64
}

func (p *parser) power() (float64, error) {
	// Read the whole chain first, then fold it from the right: a loop, not
	// a recursion, however long the chain or the run of signs.
	first, err := p.signed()
	if err != nil {
		return 0, err
	}
	operands := []operand{first}
	for p.peek() == "**" || p.peek() == "^" {
		p.i++
		o, err := p.signed()
		if err != nil {
			return 0, err
		}
		operands = append(operands, o)
	}
	last := operands[len(operands)-1]
	v := last.value
	if last.negative {
		v = -v
	}
	for i := len(operands) - 2; i >= 0; i-- {
		if v, err = power(operands[i].value, v); err != nil {
			return 0, err
		}
		if operands[i].negative {
			v = -v
		}
	}
	return v, nil
}

// signed reads the signs before an atom, as one: whether they negate it.
func (p *parser) signed() (operand, error) {
	negative := false
	for p.peek() == "+" || p.peek() == "-" {
		negative = negative != (p.peek() == "-")
		p.i++
	}
	v, err := p.atom()
	return operand{negative, v}, err
}

func (p *parser) atom() (float64, error) {
	if p.i >= len(p.tokens) {
		return 0, p.unexpected()
	}
	t := p.tokens[p.i]
	switch {
	case t.text == "(":
		if p.depth == maxDepth {
			return 0, refuse("too many nested parentheses: more than %d", maxDepth)
		}
		p.depth++
		p.i++
		v, err := p.sum()
		if err != nil {
			return 0, err
		}
		switch {
		case p.peek() == ")":
			p.i++
		case p.i >= len(p.tokens):
			return 0, refuse(`missing ")" for the "(" at position %d`, t.pos)
		default:
			return 0, p.unexpected()
		}
		p.depth--
		return v, nil
	case isDigit(rune(t.text[0])) || t.text[0] == '.':
		p.i++
		// The tokenizer let only digits, a point and an exponent through:
		// ParseFloat's one possible failure is a number out of range.
		v, _ := strconv.ParseFloat(t.text, 64)
		if math.IsInf(v, 0) {
			return 0, refuse("number too large: %q", t.text)
		}
		return v, nil
	}
	return 0, p.unexpected()
}

func finite(v float64) (float64, error) {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, refuse("result too large")
	}
	return v, nil
}

// modulo is a % b as Python has it for floats: the result takes the
// divisor's sign.
func modulo(a, b float64) float64 {
	r := math.Mod(a, b)
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

// power is base ** exponent, refused before it is computed when too large.
func power(base, exponent float64) (float64, error) {
	if base == 0 {
		switch {
		case exponent < 0:
			return 0, refuse("division by zero")
		case exponent == 0:
			return 1, nil
		}
		return 0, nil
	}
	shown := operandText(base) + " ** " + operandText(exponent)
	if base < 0 && exponent != math.Trunc(exponent) {
		return 0, refuse("no real result: %s", shown)
	}
	// The digits the result would have, from logarithms: 9 ** 9 ** 9 is
	// refused here, and never computed.
	if math.Abs(base) == 1 {
		return math.Pow(base, exponent), nil // exact: 1, or -1 for an odd exponent
	}
	if tooLarge(base, exponent) {
		return 0, refuse("exponent too large: %s", shown)
	}
	return finite(accuratePow(base, exponent))
}

func operandText(x float64) string {
	if x < 0 {
		return "(" + formatNumber(x) + ")"
	}
	return formatNumber(x)
}

// formatNumber writes x with at most 15 significant digits, as the other
// two hooks write it: from the shortest digits that read back as x (which
// Python's repr and JavaScript's toExponential give alike), rounded half
// up to 15 digits, in positional notation from 1e-6 to below 1e15.
func formatNumber(x float64) string {
	if x == 0 {
		return "0"
	}
	sign := ""
	if x < 0 {
		sign, x = "-", -x
	}
	mantissa, exp, _ := strings.Cut(strconv.FormatFloat(x, 'e', -1, 64), "e")
	point, _ := strconv.Atoi(exp)
	digits, point := roundDigits(strings.Replace(mantissa, ".", "", 1), point)
	return sign + layout(digits, point)
}

// roundDigits rounds digits (x = d.ddd times 10**point) half up to 15,
// without trailing zeros.
func roundDigits(digits string, point int) (string, int) {
	if len(digits) > significant {
		up := digits[significant] >= '5'
		digits = digits[:significant]
		if up {
			kept := strings.TrimRight(digits, "9")
			if kept == "" { // 999...9 rounds up to 1 at the next power of ten
				digits, point = "1", point+1
			} else {
				digits = kept[:len(kept)-1] + string(kept[len(kept)-1]+1)
			}
		}
	}
	if digits = strings.TrimRight(digits, "0"); digits == "" {
		digits = "0"
	}
	return digits, point
}

func layout(digits string, point int) string {
	if -6 <= point && point < significant {
		if point < 0 {
			return "0." + strings.Repeat("0", -point-1) + digits
		}
		whole, frac := digits, ""
		if len(digits) > point+1 {
			whole, frac = digits[:point+1], digits[point+1:]
		} else {
			whole += strings.Repeat("0", point+1-len(digits))
		}
		if frac != "" {
			return whole + "." + frac
		}
		return whole
	}
	mantissa := digits[:1]
	if len(digits) > 1 {
		mantissa += "." + digits[1:]
	}
	if point >= 0 {
		return fmt.Sprintf("%se+%d", mantissa, point)
	}
	return fmt.Sprintf("%se-%d", mantissa, -point)
}
