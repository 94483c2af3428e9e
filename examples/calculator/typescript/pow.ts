// Powers, computed exactly or with 200 bits and then rounded once to a
// double. V8's pow is sometimes off in its last place, where the C library
// that Python uses rounds correctly; a later step can magnify that into the
// digits the calculator shows. Go's hook computes the same way (pow.go), so
// the three show the same digits.
//
// power in arith.ts has refused every power whose result would leave
// 1e-300..1e300, so exponents here stay small: |y * ln x| <= 691.

const F = 200n; // fractional bits of the fixed-point numbers below
const ONE = 1n << F;

/** A double's exact value: mant * 2**exp, mant odd (or 0). */
function decompose(x: number): { mant: bigint; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  let exp = -1074; // a subnormal's
  if (biased !== 0) {
    mant |= 1n << 52n;
    exp = biased - 1075;
  }
  while (mant > 0n && (mant & 1n) === 0n) {
    mant >>= 1n;
    exp++;
  }
  return { mant, exp };
}

function bitLength(n: bigint): number {
  return n.toString(2).length;
}

/** 2**k as a double, for k in -1022..1023: built from its bits, so exact. */
function pow2(k: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setUint32(0, (k + 1023) << 20);
  return view.getFloat64(0);
}

/**
 * n * 2**k as a double, rounded once: n is cut to 64 bits, with a sticky
 * bit for what was cut, which Number() then rounds to 53, to even on a tie.
 * The caller's result is a normal double, so the scaling is exact.
 */
function toDouble(n: bigint, k: number): number {
  const cut = Math.max(0, bitLength(n) - 64);
  let top = n >> BigInt(cut);
  if (top << BigInt(cut) !== n) top |= 1n;
  let v = Number(top);
  k += cut;
  if (k < 0) {
    v *= pow2(-64); // v <= 2**64: still normal; then k >= -1022
    k += 64;
  }
  return v * pow2(k);
}

/** 2 atanh(z) for fixed-point z, from n terms of z + z**3/3 + z**5/5 + ... */
function atanh2(z: bigint, n: number): bigint {
  const z2 = (z * z) >> F;
  let term = z;
  let sum = z;
  for (let k = 1; k <= n; k++) {
    term = (term * z2) >> F;
    sum += term / BigInt(2 * k + 1);
  }
  return 2n * sum;
}

const LN2 = atanh2(ONE / 3n, 70); // ln 2 = 2 atanh(1/3); (1/3)**140 < 2**-220

/** ln x for x > 0, fixed-point: x = m * 2**e with m in [sqrt(1/2), sqrt(2)). */
function ln(x: number): bigint {
  const { mant, exp } = decompose(x);
  const top = bitLength(mant) - 1;
  let m = mant << BigInt(Number(F) - top); // in [1, 2)
  let e = exp + top;
  if (m * m >= 2n * ONE * ONE) {
    m >>= 1n; // exact: m has F - 52 zero bits at least
    e++;
  }
  const z = ((m - ONE) << F) / (m + ONE); // |z| < 0.172
  return atanh2(z, 45) + BigInt(e) * LN2; // 0.172**90 < 2**-220
}

/** e**t for fixed-point t, |t| <= 700, as a double. */
function exp(t: bigint): number {
  let k = t / LN2;
  let r = t - k * LN2;
  if (2n * r > LN2) {
    r -= LN2;
    k++;
  } else if (2n * r < -LN2) {
    r += LN2;
    k--;
  }
  r >>= 8n; // e**r = (e**(r/256))**256, whose series is short
  let term = ONE;
  let sum = ONE;
  for (let n = 1n; n <= 24n; n++) {
    term = (term * r) >> F;
    term /= n;
    sum += term;
  }
  for (let i = 0; i < 8; i++) sum = (sum * sum) >> F;
  return toDouble(sum, Number(k) - Number(F));
}

/** exponent * ln |base|, fixed-point. */
function lnPower(base: number, exponent: number): bigint {
  const { mant, exp: e } = decompose(exponent);
  const t = ln(Math.abs(base)) * mant;
  const scaled = e >= 0 ? t << BigInt(e) : t >> BigInt(-e);
  return exponent < 0 ? -scaled : scaled;
}

/**
 * Whether base ** exponent would have more than digits digits before or
 * after the point, from |exponent * ln |base|| with 200 bits, so that the
 * three languages draw the line alike. The limit has a margin far below any
 * rounding: 100 ** 150, exactly at the bound, is allowed in each language,
 * however the last bits of its logarithm come out. base is not 0, 1 or -1.
 */
export function tooLarge(base: number, exponent: number, digits: number): boolean {
  const limit = BigInt(digits) * ln(10) + ONE / 10n ** 30n;
  const t = lnPower(base, exponent);
  return (t < 0n ? -t : t) > limit;
}

/**
 * base ** exponent for a base other than 0, 1 and -1, a negative base only
 * with an integer exponent, and a result the caller has bounded.
 */
export function accuratePow(base: number, exponent: number): number {
  const sign = base < 0 && exponent % 2 !== 0 ? -1 : 1;
  const { mant, exp: e } = decompose(base);
  const n = Math.abs(exponent);
  if (Number.isInteger(n) && n * bitLength(mant) <= 2048) {
    // Exactly, as a big integer: mant**n * 2**(e*n), rounded once, so a
    // power halfway between two doubles is rounded to even, as C's is.
    const p = mant ** BigInt(n);
    if (exponent > 0) return sign * toDouble(p, e * n);
    const shift = bitLength(p) + 64;
    let q = (1n << BigInt(shift)) / p;
    if (q * p !== 1n << BigInt(shift)) q |= 1n; // sticky: not a tie
    return sign * toDouble(q, -shift - e * n);
  }
  return sign * exp(lnPower(base, exponent));
}
