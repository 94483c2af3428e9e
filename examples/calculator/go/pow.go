package main

// Powers, computed exactly or with 160 bits and then rounded once to a
// float64, as the Python and TypeScript hooks compute theirs (with decimal,
// and with 200-bit integers in pow.ts), so that the three show the same
// digits. Go's math.Pow would not: it is a few units in the last place off
// for fractional exponents, wrong from the 9th digit for large integer ones
// (1.0000001 ** 1e9), and from the 1st for a subnormal base on amd64
// (1e-310 ** 0.1).
//
// power in arith.go has refused (tooLarge) every power whose result would
// leave 1e-300..1e300, so exponents here stay small: |y * ln x| <= 691.

import (
	"math"
	"math/big"
)

const powPrec = 160 // bits: well over the 53 of a float64, for one rounding at the end

func newFloat() *big.Float { return new(big.Float).SetPrec(powPrec) }

// ln2 is ln 2 to powPrec bits, from 2 atanh(1/3).
var ln2 = func() *big.Float {
	third := newFloat().Quo(newFloat().SetInt64(1), newFloat().SetInt64(3))
	return atanh2(third, 60) // (1/3)**120 < 2**-190
}()

// atanh2 is 2 atanh(z) from n terms of its series, z + z**3/3 + z**5/5 + ...
func atanh2(z *big.Float, n int) *big.Float {
	z2 := newFloat().Mul(z, z)
	term, sum := newFloat().Set(z), newFloat().Set(z)
	for k := 1; k <= n; k++ {
		term.Mul(term, z2)
		sum.Add(sum, newFloat().Quo(term, newFloat().SetInt64(int64(2*k+1))))
	}
	return sum.Mul(sum, newFloat().SetInt64(2))
}

// bigLn is ln x for x > 0: x = m * 2**e with m in [sqrt(1/2), sqrt(2)),
// and ln m = 2 atanh((m-1)/(m+1)), where |(m-1)/(m+1)| < 0.172.
func bigLn(x float64) *big.Float {
	m := newFloat()
	e := newFloat().SetFloat64(x).MantExp(m) // m in [0.5, 1), exact for subnormals too
	if m.Cmp(big.NewFloat(math.Sqrt2/2)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	one := newFloat().SetInt64(1)
	z := newFloat().Quo(newFloat().Sub(m, one), newFloat().Add(m, one))
	lnm := atanh2(z, 40) // 0.172**80 < 2**-200
	return lnm.Add(lnm, newFloat().Mul(newFloat().SetInt64(int64(e)), ln2))
}

// bigExp is e**t for |t| <= 700: t = k ln 2 + r with |r| <= ln 2 / 2, and
// e**r = (e**(r/256))**256, whose series is short.
func bigExp(t *big.Float) *big.Float {
	kf, _ := newFloat().Quo(t, ln2).Float64()
	k := math.Round(kf)
	r := newFloat().Sub(t, newFloat().Mul(newFloat().SetFloat64(k), ln2))
	r.SetMantExp(r, -8)
	term, sum := newFloat().SetInt64(1), newFloat().SetInt64(1)
	for n := int64(1); n <= 20; n++ { // (0.35/256)**20 / 20! is far below 2**-160
		term.Mul(term, r)
		term.Quo(term, newFloat().SetInt64(n))
		sum.Add(sum, term)
	}
	for range 8 {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}

// accuratePow is base ** exponent for a base other than 0, 1 and -1, a
// negative base only with an integer exponent, and a result the caller has
// bounded.
func accuratePow(base, exponent float64) float64 {
	abs := math.Abs(base)
	var r *big.Float
	if exponent == math.Trunc(exponent) {
		// By squaring, exactly while the result fits in 160 bits, so that an
		// integer power exactly halfway between two float64s (3 ** 34) is
		// rounded to even. The bound keeps |exponent| below 2**63 (it is at
		// most 300 / -log10(1 - 2**-53)), so the loop squares at most 63 times.
		n := uint64(math.Abs(exponent))
		x, acc := newFloat().SetFloat64(abs), newFloat().SetInt64(1)
		for {
			if n&1 == 1 {
				acc.Mul(acc, x)
			}
			if n >>= 1; n == 0 {
				break
			}
			x.Mul(x, x)
		}
		if exponent < 0 {
			acc.Quo(newFloat().SetInt64(1), acc)
		}
		r = acc
	} else {
		t := bigLn(abs)
		r = bigExp(t.Mul(t, newFloat().SetFloat64(exponent)))
	}
	v, _ := r.Float64()
	if base < 0 && math.Mod(exponent, 2) != 0 {
		v = -v
	}
	return v
}

// powLimit is the natural logarithm of the largest power allowed,
// 10**maxDigits, with a margin far below any rounding: so that 100 ** 150,
// exactly at the bound, is allowed in each language, however the last bits
// of its logarithm come out.
var powLimit = func() *big.Float {
	margin, _ := newFloat().SetString("1e-30")
	limit := bigLn(10)
	limit.Mul(limit, newFloat().SetInt64(maxDigits))
	return limit.Add(limit, margin)
}()

// tooLarge says whether base ** exponent would have more than maxDigits
// digits before or after the point, from |exponent * ln |base||, computed
// with 160 bits, so that the three languages draw the line alike. base is
// not 0, 1 or -1.
func tooLarge(base, exponent float64) bool {
	t := bigLn(math.Abs(base))
	t.Mul(t, newFloat().SetFloat64(exponent))
	return t.Abs(t).Cmp(powLimit) > 0
}
