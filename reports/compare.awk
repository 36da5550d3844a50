# compare.awk EXPECTED ACTUAL: judges what a repro program printed.
# EXPECTED (expected.txt) has one line per output element:
#   OUTPUT ELEMENT DTYPE EXPECTED ALLOWED ALSO
# EXPECTED is the value ("nan", "inf", "-inf" when not finite), ALLOWED the
# absolute error accepted, ALSO another accepted result ("-" when none; for
# floats the class "finite", "nan", "inf" or "-inf" of a result that is
# accepted too, or "exact": the value itself, the sign of a zero included). ACTUAL has what the program printed, one number a line:
# integers as values, floats as their bit pattern (f64 as two 32-bit
# halves). Prints expected versus actual; exit status 1 when an element
# differs, 0 when all match.
function decode(hi, lo, ebits, mbits,   sign, e, m, bias, top) {
  top = 2 ^ (ebits + mbits)
  if (ebits == 11) { sign = hi >= 2 ^ 31; hi = hi % 2 ^ 31; e = int(hi / 2 ^ 20); m = (hi % 2 ^ 20) * 2 ^ 32 + lo }
  else { sign = hi >= top; hi = hi % top; e = int(hi / 2 ^ mbits); m = hi % 2 ^ mbits }
  bias = 2 ^ (ebits - 1) - 1
  negative = sign
  if (e == 2 ^ ebits - 1) return m != 0 ? "nan" : (sign ? "-inf" : "inf")
  if (e == 0) return (sign ? -1 : 1) * m * 2 ^ (1 - bias - mbits)
  return (sign ? -1 : 1) * (1 + m / 2 ^ mbits) * 2 ^ (e - bias)
}
function cls(v) { return (v == "nan" || v == "inf" || v == "-inf") ? v : "finite" }
function absf(x) { return x < 0 ? -x : x }
NR == FNR { if ($1 !~ /^#/ && NF) { n++; out[n] = $1; idx[n] = $2; kind[n] = $3; want[n] = $4; tol[n] = $5; alt[n] = $6 }; next }
{ got[++m] = $1 }
END {
  line = 0; bad = 0; shown = 0
  printf "%-8s %-8s %-24s %-24s %s\n", "output", "element", "expected", "actual", "allowed error"
  for (i = 1; i <= n; i++) {
    k = kind[i]
    if (k == "f64") { hi = got[++line]; lo = got[++line] } else { hi = got[++line]; lo = 0 }
    if (hi == "") { print "BUG: the program printed fewer values than the outputs have"; exit 1 }
    if (k == "f32") a = decode(hi, 0, 8, 23)
    else if (k == "f16") a = decode(hi, 0, 5, 10)
    else if (k == "bf16") a = decode(hi, 0, 8, 7)
    else if (k == "f64") a = decode(hi, lo, 11, 52)
    else a = hi
    if (k ~ /^(f16|bf16|f32|f64)$/) {
      ac = cls(a); ec = cls(want[i])
      # awk's -0 equals 0: the sign of an exact zero is compared apart.
      if (alt[i] == "exact") wrong = ac != ec || ac == "finite" && (a != want[i] || a == 0 && negative != (want[i] ~ /^-/))
      else if (ac != "finite" || ec != "finite") wrong = (ac != ec && ac != alt[i])
      else if (alt[i] != "finite") wrong = 0
      else wrong = absf(a - want[i]) > tol[i] + 0
      as = ac == "finite" ? (a == 0 && negative ? "-0" : sprintf("%.9g", a)) : a
    } else {
      wrong = (a "" != want[i] "") && (a "" != alt[i] "")
      as = a
    }
    if (wrong) bad++
    if (wrong && shown < 10 || !bad && i <= 4 && !wrong) {
      printf "%-8s %-8s %-24s %-24s %s%s\n", out[i], idx[i], want[i], as, tol[i], wrong ? "   <-- MISMATCH" : ""
      if (wrong) shown++
    }
  }
  if (bad) { printf "BUG: %d of %d output elements differ from the expected values\n", bad, n; exit 1 }
  printf "OK: all %d output elements match the expected values\n", n
  exit 0
}
