//! Number literals of `.hys` files: recognition (with nom) and exact values.
//!
//! Accepted forms (language doc A.2), all read as exact rationals:
//! - decimal: `42`, `0.5`, `1e-3`, `1E+2`, `2.5e3`; digits are required on both sides of a
//!   decimal point (`.5` and `5.` are errors). Leading zeros are decimal (`007` is 7; there
//!   are no octal constants).
//! - C99 hexadecimal floating constants: `0x1.8p+1`, `0x1p-3`, `0XA.8P0`. As in C99, a hex
//!   constant with a fraction needs the binary exponent `p` (`0x1.8` is an error). Like
//!   iSAT3 0.02, hex digits are required on both sides of the point (`0x.8p1`, `0x1.p0` are
//!   errors).
//! - hexadecimal integers: `0x1F` is 31 (a C hexadecimal integer constant; iSAT3 0.02 reads it
//!   the same way).
//!
//! A number directly followed by a letter, digit, `_` or `.` is an error (`2x`, `1.2.3`).
//!
//! Resource limits: the written exponent is at most [`MAX_EXPONENT`] in magnitude and a number
//! has at most [`MAX_DIGITS`] mantissa digits; beyond that the literal is rejected ("number too
//! large") instead of building huge integers (`1e999999999` would otherwise need gigabytes).
//! In addition the parser lets the big numbers of one file (powers beyond
//! [`BIG_NUMBER_BITS`] bits) add up to at most [`BIG_NUMBERS_BUDGET`] bits, so that a file
//! full of `1e-20000` is refused at once instead of costing minutes and gigabytes.

use nom::bytes::complete::tag_no_case;
use nom::character::complete::{char, digit1, hex_digit1, one_of};
use nom::combinator::{opt, recognize};
use nom::{IResult, Parser};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use solver::num::Rational;

/// Largest accepted magnitude of a written exponent (`e` for decimal, `p` for hex numbers).
pub const MAX_EXPONENT: u32 = 20_000;
/// Largest accepted number of mantissa digits.
pub const MAX_DIGITS: usize = 20_000;

/// A malformed or too large number: byte offsets relative to the start of the number.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NumberError {
    pub start: usize,
    pub end: usize,
    pub message: String,
}

type R<'a> = IResult<&'a str, &'a str>;

fn err(start: usize, end: usize, message: impl Into<String>) -> NumberError {
    NumberError {
        start,
        end,
        message: message.into(),
    }
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// `[+-]? digits` of an exponent after the marker letter.
fn exponent_digits(i: &str) -> R<'_> {
    recognize((opt(one_of("+-")), digit1)).parse(i)
}

/// Checks the exponent text (`[+-]?digits`) against [`MAX_EXPONENT`].
fn check_exponent(exp: &str, start: usize, end: usize) -> Result<(), NumberError> {
    let digits = exp.trim_start_matches(['+', '-']).trim_start_matches('0');
    let too_large = digits.len() > 6 || digits.parse::<u32>().is_ok_and(|v| v > MAX_EXPONENT);
    if too_large {
        return Err(err(
            start,
            end,
            format!("number too large: its exponent exceeds the limit of ±{MAX_EXPONENT}"),
        ));
    }
    Ok(())
}

fn check_digits(count: usize, end: usize) -> Result<(), NumberError> {
    if count > MAX_DIGITS {
        return Err(err(
            0,
            end,
            format!("number too large: more than {MAX_DIGITS} digits"),
        ));
    }
    Ok(())
}

/// The rest of a malformed number (letters, digits, `_`, `.`) for the error span.
fn junk_end(input: &str, from: usize) -> usize {
    from + input[from..]
        .find(|c: char| !is_word_char(c))
        .unwrap_or(input.len() - from)
}

fn trailing_check(input: &str, rest: &str) -> Result<usize, NumberError> {
    let len = input.len() - rest.len();
    match rest.chars().next() {
        Some(c) if is_word_char(c) => {
            let end = junk_end(input, len);
            Err(err(0, end, format!("malformed number `{}`", &input[..end])))
        }
        _ => Ok(len),
    }
}

/// Recognizes the number at the start of `input`, which must start with an ASCII digit.
/// Returns its length in bytes.
pub fn scan(input: &str) -> Result<usize, NumberError> {
    debug_assert!(input.starts_with(|c: char| c.is_ascii_digit()));
    if let Ok((rest, _)) = tag_no_case::<_, _, nom::error::Error<&str>>("0x").parse(input) {
        scan_hex(input, rest)
    } else {
        scan_decimal(input)
    }
}

fn scan_decimal(input: &str) -> Result<usize, NumberError> {
    let pos = |rest: &str| input.len() - rest.len();
    let (mut rest, int) =
        digit1::<_, nom::error::Error<&str>>(input).map_err(|_| err(0, 1, "expected a number"))?;
    let mut ndigits = int.len();
    if let Ok((r, _)) = char::<_, nom::error::Error<&str>>('.').parse(rest) {
        let dot = pos(rest);
        match digit1::<_, nom::error::Error<&str>>(r) {
            Ok((r2, frac)) => {
                ndigits += frac.len();
                rest = r2;
            }
            Err(_) => {
                return Err(err(
                    dot,
                    dot + 1,
                    format!(
                        "expected digits after the decimal point of `{}.` (write `{}.0`)",
                        int, int
                    ),
                ))
            }
        }
    }
    check_digits(ndigits, pos(rest))?;
    if let Ok((r, _)) = one_of::<_, _, nom::error::Error<&str>>("eE").parse(rest) {
        let e_pos = pos(rest);
        match exponent_digits(r) {
            Ok((r2, exp)) => {
                check_exponent(exp, 0, pos(r2))?;
                rest = r2;
            }
            Err(_) => {
                let end = junk_end(input, e_pos + 1);
                return Err(err(
                    0,
                    end.max(e_pos + 1),
                    format!(
                        "malformed number `{}`: expected digits in the exponent",
                        &input[..end.max(e_pos + 1)]
                    ),
                ));
            }
        }
    }
    trailing_check(input, rest)
}

fn scan_hex(input: &str, after_prefix: &str) -> Result<usize, NumberError> {
    let pos = |rest: &str| input.len() - rest.len();
    let (mut rest, int) = match hex_digit1::<_, nom::error::Error<&str>>(after_prefix) {
        Ok(ok) => ok,
        Err(_) => {
            let end = junk_end(input, 2);
            return Err(err(
                0,
                end,
                format!(
                    "malformed number `{}`: expected hexadecimal digits after `0x`",
                    &input[..end]
                ),
            ));
        }
    };
    let mut ndigits = int.len();
    let mut has_point = false;
    if let Ok((r, _)) = char::<_, nom::error::Error<&str>>('.').parse(rest) {
        let dot = pos(rest);
        match hex_digit1::<_, nom::error::Error<&str>>(r) {
            Ok((r2, frac)) => {
                ndigits += frac.len();
                has_point = true;
                rest = r2;
            }
            Err(_) => {
                return Err(err(
                    dot,
                    dot + 1,
                    "expected hexadecimal digits after the point of a hexadecimal constant",
                ))
            }
        }
    }
    check_digits(ndigits, pos(rest))?;
    if let Ok((r, _)) = one_of::<_, _, nom::error::Error<&str>>("pP").parse(rest) {
        let p_pos = pos(rest);
        match exponent_digits(r) {
            Ok((r2, exp)) => {
                check_exponent(exp, 0, pos(r2))?;
                rest = r2;
            }
            Err(_) => {
                let end = junk_end(input, p_pos + 1);
                return Err(err(
                    0,
                    end,
                    format!(
                        "malformed number `{}`: expected decimal digits in the binary exponent",
                        &input[..end]
                    ),
                ));
            }
        }
    } else if has_point {
        let end = pos(rest);
        return Err(err(
            0,
            end,
            format!(
                "hexadecimal floating constant `{}` needs a binary exponent, e.g. `{}p0` (C99)",
                &input[..end],
                &input[..end]
            ),
        ));
    }
    trailing_check(input, rest)
}

const POW10: [u64; 20] = {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

fn pow10(n: u64) -> BigInt {
    if (n as usize) < POW10.len() {
        BigInt::from(POW10[n as usize])
    } else {
        num_traits::pow(BigInt::from(10u32), n as usize)
    }
}

/// `digits` (ASCII digits of `radix`) as an integer.
fn mantissa(int: &str, frac: &str, radix: u32) -> BigInt {
    let n = int.len() + frac.len();
    if radix == 10 && n <= 19 {
        let v = int
            .bytes()
            .chain(frac.bytes())
            .fold(0u64, |acc, b| acc * 10 + u64::from(b - b'0'));
        return BigInt::from(v);
    }
    if radix == 16 && n <= 15 {
        let v = int.chars().chain(frac.chars()).fold(0u64, |acc, c| {
            acc * 16 + u64::from(c.to_digit(16).unwrap_or(0))
        });
        return BigInt::from(v);
    }
    let mut s = String::with_capacity(n);
    s.push_str(int);
    s.push_str(frac);
    BigInt::parse_bytes(s.as_bytes(), radix).unwrap_or_else(BigInt::zero)
}

/// Splits `text` at the first of `markers`.
fn split_exponent<'a>(text: &'a str, markers: &[char]) -> (&'a str, i64) {
    match text.find(markers) {
        Some(i) => {
            let e = text[i + 1..].parse::<i64>().unwrap_or(0);
            (&text[..i], e)
        }
        None => (text, 0),
    }
}

/// Splits a literal accepted by [`scan`] into radix, mantissa digits (integer and fraction
/// part) and written exponent.
fn parts(text: &str) -> (u32, &str, &str, i64) {
    let (radix, body) = match text.get(..2) {
        Some("0x") | Some("0X") => (16u32, &text[2..]),
        _ => (10u32, text),
    };
    let markers: &[char] = if radix == 16 {
        &['p', 'P']
    } else {
        &['e', 'E']
    };
    let (mant, exp) = split_exponent(body, markers);
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    (radix, int, frac, exp)
}

/// Roughly the number of bits of the power of the radix that the value of a literal accepted
/// by [`scan`] needs (|decimal exponent| · log2(10), or |binary exponent|). The parser limits
/// the sum of this over the big numbers of a file (see [`BIG_NUMBER_BITS`]).
pub fn exponent_bits(text: &str) -> u64 {
    let (radix, _, frac, exp) = parts(text);
    if radix == 16 {
        (exp - 4 * frac.len() as i64).unsigned_abs()
    } else {
        (exp - frac.len() as i64).unsigned_abs() * 10 / 3
    }
}

/// A number is big when its power of the radix needs more than this many bits
/// ([`exponent_bits`]); 1500 bits cover every binary64 value (2^-1074 ... 2^1024).
pub const BIG_NUMBER_BITS: u64 = 1500;
/// The most [`exponent_bits`] that the big numbers of one file may add up to: a few dozen
/// numbers with exponents near the limit, but not a file full of `1e-20000` (which would
/// cost gigabytes and minutes).
pub const BIG_NUMBERS_BUDGET: u64 = 1_000_000;

/// The exact value of a number literal accepted by [`scan`], in lowest terms. Reduction is
/// done by stripping factors 2 and 5 (no gcd on huge numbers).
pub fn value(text: &str) -> Rational {
    let (radix, int, frac, exp) = parts(text);
    let m = mantissa(int, frac, radix);
    if m.is_zero() {
        return Rational::zero();
    }
    if radix == 16 {
        let e2 = exp - 4 * frac.len() as i64;
        if e2 >= 0 {
            return Rational::from_integer(m << e2 as usize);
        }
        let k = e2.unsigned_abs();
        let a = m.trailing_zeros().unwrap_or(0).min(k);
        return Rational::new_raw(m >> a as usize, BigInt::one() << (k - a) as usize);
    }
    let e10 = exp - frac.len() as i64;
    if e10 >= 0 {
        return Rational::from_integer(m * pow10(e10 as u64));
    }
    // m / (2^k 5^k): cancel the factors 2 and 5 that m has
    let k = e10.unsigned_abs();
    let a = m.trailing_zeros().unwrap_or(0).min(k);
    let mut m = m >> a as usize;
    let mut b = 0u64;
    const FIVE27: u64 = 7_450_580_596_923_828_125; // 5^27
    while k - b >= 27 && (&m % FIVE27).is_zero() {
        m /= FIVE27;
        b += 27;
    }
    while k > b && (&m % 5u64).is_zero() {
        m /= 5u64;
        b += 1;
    }
    let den =
        (BigInt::one() << (k - a) as usize) * num_traits::pow(BigInt::from(5u32), (k - b) as usize);
    Rational::new_raw(m, den)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Rational {
        Rational::new(BigInt::from(n), BigInt::from(d))
    }

    fn ok(text: &str) -> Rational {
        assert_eq!(scan(text), Ok(text.len()), "scan {text}");
        value(text)
    }

    #[test]
    fn decimal_values() {
        assert_eq!(ok("42"), q(42, 1));
        assert_eq!(ok("0.5"), q(1, 2));
        assert_eq!(ok("1e-3"), q(1, 1000));
        assert_eq!(ok("1E+2"), q(100, 1));
        assert_eq!(ok("2.5e3"), q(2500, 1));
        assert_eq!(ok("007"), q(7, 1));
        assert_eq!(ok("0.000"), q(0, 1));
        assert_eq!(ok("12.340e-1"), q(1234, 1000));
    }

    #[test]
    fn hex_values() {
        assert_eq!(ok("0x1.8p+1"), q(3, 1));
        assert_eq!(ok("0x1p-3"), q(1, 8));
        assert_eq!(ok("0xA.8p0"), q(21, 2));
        assert_eq!(ok("0X1P0"), q(1, 1));
        assert_eq!(ok("0x1F"), q(31, 1));
        assert_eq!(ok("0xffffffffffffffffff"), {
            let v: BigInt = (BigInt::one() << 72usize) - 1;
            Rational::from_integer(v)
        });
        assert_eq!(ok("0x1.fffffffffffffp1023"), {
            let m = (BigInt::one() << 53usize) - 1;
            Rational::from_integer(m << 971usize)
        });
    }

    #[test]
    fn values_are_in_lowest_terms() {
        // `Ratio`'s `==` does not notice unreduced fractions: compare the parts
        let cases = [
            "0.50",
            "12.340e-1",
            "1e-3",
            "2.5",
            "0.000",
            "0.125",
            "6.25e-2",
            "1000e-3",
            "0.3125e1",
            "5e-30",
            "3.90625e-3",
            "120e-2",
            "0x1.8p-1",
            "0x10p-4",
            "0x0.4p0",
            "0x1p-3",
            "0x18p-8",
            "0x0p-9",
            "78125e-7",
            "1e-40",
            "762939453125e-20",
        ];
        for text in cases {
            assert_eq!(scan(text), Ok(text.len()), "{text}");
            let v = value(text);
            let reduced = Rational::new(v.numer().clone(), v.denom().clone());
            assert_eq!(
                (v.numer(), v.denom()),
                (reduced.numer(), reduced.denom()),
                "{text}"
            );
        }
        assert_eq!(value("0.50").denom(), &BigInt::from(2));
        assert_eq!(value("1000e-3").denom(), &BigInt::one());
        assert_eq!(value("762939453125e-20").numer(), &BigInt::one()); // 5^17 / 10^20
        assert!(value("0e-5").is_zero() && value("0e-5").denom().is_one());
        // 5^40 / 10^40 = 1 / 2^40, through the 5^27 chunks
        let five40 = num_traits::pow(BigInt::from(5), 40).to_string();
        let v = value(&format!("{five40}e-40"));
        assert_eq!(
            (v.numer(), v.denom()),
            (&BigInt::one(), &(BigInt::one() << 40usize))
        );
    }

    #[test]
    fn exponent_sizes() {
        assert_eq!(exponent_bits("1e-3"), 10);
        assert_eq!(exponent_bits("1.25e2"), 0);
        assert_eq!(exponent_bits("0x1p-1074"), 1074);
        assert_eq!(exponent_bits("0x1.8p4"), 0);
        assert_eq!(exponent_bits("1e20000"), 66666);
        assert!(exponent_bits("4.9406564584124654e-324") < BIG_NUMBER_BITS);
    }

    #[test]
    fn long_decimals_are_exact() {
        let int = "1234567890".repeat(12);
        let text = format!("{int}.5");
        let expect = Rational::new(
            BigInt::parse_bytes(format!("{int}5").as_bytes(), 10).unwrap(),
            BigInt::from(10),
        );
        assert_eq!(ok(&text), expect);
        assert_eq!(text.len(), 122);
    }

    #[test]
    fn stops_before_operators() {
        assert_eq!(scan("1+2"), Ok(1));
        assert_eq!(scan("1e5*x"), Ok(3));
        assert_eq!(scan("0x1F)"), Ok(4));
        assert_eq!(scan("3;"), Ok(1));
        assert_eq!(scan("3'"), Ok(1));
    }

    #[test]
    fn malformed_numbers() {
        let e = scan("5.").unwrap_err();
        assert_eq!((e.start, e.end), (1, 2));
        assert!(e.message.contains("`5.0`"), "{}", e.message);
        assert!(scan("5.;").is_err());
        assert!(scan("1e").unwrap_err().message.contains("exponent"));
        assert!(scan("1e+").is_err());
        assert!(scan("2x").unwrap_err().message.contains("`2x`"));
        assert!(scan("1.2.3").is_err());
        assert!(scan("0x").is_err());
        assert!(scan("0xg").is_err());
        assert!(scan("0x1.8")
            .unwrap_err()
            .message
            .contains("binary exponent"));
        assert!(scan("0x.8p1").is_err());
        assert!(scan("0x1.p0").is_err());
        assert!(scan("0x1p").is_err());
    }

    #[test]
    fn limits() {
        let e = scan("1e999999999").unwrap_err();
        assert!(e.message.contains("number too large"), "{}", e.message);
        assert_eq!((e.start, e.end), (0, 11));
        assert!(scan("1e-20001").unwrap_err().message.contains("too large"));
        assert!(scan("0x1p99999").unwrap_err().message.contains("too large"));
        assert!(scan("1e00000000000000000000000000000000007").is_ok());
        assert_eq!(ok("1e20000").numer().to_string().len(), 20001);
        assert_eq!(ok("1e-20000").denom().to_string().len(), 20001);
        let many = "9".repeat(MAX_DIGITS + 1);
        assert!(scan(&many).unwrap_err().message.contains("too large"));
        assert!(scan(&"9".repeat(MAX_DIGITS)).is_ok());
    }
}
