//! Whole-number arithmetic as Python computes it: exact, `%` floored (the result takes the
//! divisor's sign) and `x % 0` = 0 (`_ARITH` in `cardz_core/expr/closure.py`). A chain
//! `x0 op x1 op x2 …` folds from the left in i128; only its result is held to `MAX_EXPR_INT`,
//! as the Python engine checks only the result. A chain whose running value leaves i128 (a
//! product of many large operands) is still exact: past that point it is kept as the ring
//! operations since the last exact value, which a later `% m` reduces modulo m (and `* 0`
//! makes 0); a chain that ends there is past the limit whatever the rest does.

use super::parse::Arith;

/// Python's `a % b`, and 0 for `b` = 0.
pub(super) fn floor_rem(a: i128, b: i128) -> i128 {
    if b == 0 {
        return 0; // Python's `_ARITH`: x % 0 is 0
    }
    if b == 1 || b == -1 {
        return 0; // and i128::MIN % -1 would overflow
    }
    let r = a % b;
    if r != 0 && (r < 0) != (b < 0) { r + b } else { r }
}

/// `floor_rem` in i64, for one operator of two 64-bit operands.
pub(super) fn floor_rem64(a: i64, b: i64) -> i64 {
    if b == 0 || b == 1 || b == -1 {
        return 0; // as `floor_rem`; i64::MIN % -1 would overflow
    }
    let r = a % b;
    if r != 0 && (r < 0) != (b < 0) { r + b } else { r }
}

/// The running value of a chain.
#[derive(Debug, Default)]
pub(super) struct Chain {
    exact: i128,
    /// set once the value left i128: the operations applied to `exact` since
    beyond: Option<Vec<(Arith, i64)>>,
}

impl Chain {
    pub fn new(first: i64) -> Chain {
        Chain { exact: i128::from(first), beyond: None }
    }

    pub fn apply(&mut self, op: Arith, v: i64) {
        if let Some(ops) = &mut self.beyond {
            match op {
                Arith::Mul if v == 0 => self.reset(0),
                Arith::Rem if v == 0 => self.reset(0),
                Arith::Rem => {
                    let m = u128::from(v.unsigned_abs());
                    let r = residue(self.exact, ops, m) as i128;
                    self.reset(if r == 0 || v > 0 { r } else { r - m as i128 });
                }
                _ => ops.push((op, v)),
            }
            return;
        }
        let b = i128::from(v);
        let next = match op {
            Arith::Add => self.exact.checked_add(b),
            Arith::Sub => self.exact.checked_sub(b),
            Arith::Mul => self.exact.checked_mul(b),
            Arith::Rem => Some(floor_rem(self.exact, b)),
        };
        match next {
            Some(n) => self.exact = n,
            None => self.beyond = Some(vec![(op, v)]),
        }
    }

    fn reset(&mut self, exact: i128) {
        self.exact = exact;
        self.beyond = None;
    }

    /// The chain's value, or None past `limit` either way.
    pub fn result(&self, limit: i64) -> Option<i64> {
        match self.beyond {
            None if self.exact.unsigned_abs() <= limit.unsigned_abs() as u128 => Some(self.exact as i64),
            _ => None,
        }
    }
}

/// `(exact ops…) mod m`, in 0..m, for m >= 2: ring operations commute with reduction.
fn residue(exact: i128, ops: &[(Arith, i64)], m: u128) -> u128 {
    let red = |x: i128| x.rem_euclid(m as i128) as u128;
    let mut r = red(exact);
    for &(op, v) in ops {
        let x = red(i128::from(v));
        r = match op {
            Arith::Add => (r + x) % m,
            Arith::Sub => (r + m - x) % m,
            Arith::Mul => (r * x) % m, // both below 2^63
            Arith::Rem => unreachable!("a remainder ends the part past i128"),
        };
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::MAX_EXPR_INT;

    fn fold(first: i64, rest: &[(Arith, i64)]) -> Option<i64> {
        let mut c = Chain::new(first);
        for &(op, v) in rest {
            c.apply(op, v);
        }
        c.result(MAX_EXPR_INT)
    }

    #[test]
    fn remainder_is_floored_as_in_python() {
        use Arith::Rem;
        assert_eq!(fold(7, &[(Rem, 3)]), Some(1));
        assert_eq!(fold(-7, &[(Rem, 3)]), Some(2));
        assert_eq!(fold(7, &[(Rem, -3)]), Some(-2));
        assert_eq!(fold(-7, &[(Rem, -3)]), Some(-1));
        assert_eq!(fold(-6, &[(Rem, 3)]), Some(0));
        assert_eq!(fold(5, &[(Rem, 0)]), Some(0));
        assert_eq!(fold(5, &[(Rem, -1)]), Some(0));
        for (a, b) in [(7, 3), (-7, 3), (7, -3), (-7, -3), (-6, 3), (5, 0), (5, -1), (i64::MIN, -1), (i64::MIN, 7)] {
            assert_eq!(i128::from(floor_rem64(a, b)), floor_rem(i128::from(a), i128::from(b)), "{a} % {b}");
        }
    }

    #[test]
    fn only_the_result_is_held_to_the_limit() {
        use Arith::*;
        assert_eq!(fold(MAX_EXPR_INT, &[]), Some(MAX_EXPR_INT));
        assert_eq!(fold(MAX_EXPR_INT, &[(Add, 1)]), None);
        assert_eq!(fold(-MAX_EXPR_INT, &[(Sub, 1)]), None);
        assert_eq!(fold(MAX_EXPR_INT, &[(Add, 1), (Sub, 2)]), Some(MAX_EXPR_INT - 1));
        assert_eq!(fold(MAX_EXPR_INT, &[(Mul, MAX_EXPR_INT), (Rem, 10)]),
                   Some(((MAX_EXPR_INT as i128 * MAX_EXPR_INT as i128) % 10) as i64));
    }

    #[test]
    fn a_chain_past_i128_stays_exact() {
        use Arith::*;
        let big = MAX_EXPR_INT;
        // big^3 leaves i128; Python's big**3 % m and big**3 * 0
        let m: i128 = 1_000_000_007;
        let want = (big as i128 % m).pow(3) % m;
        assert_eq!(fold(big, &[(Mul, big), (Mul, big), (Rem, m as i64)]), Some(want as i64));
        assert_eq!(fold(big, &[(Mul, big), (Mul, -big), (Rem, 7)]),
                   Some((-(big as i128 % 7).pow(3)).rem_euclid(7) as i64));
        assert_eq!(fold(big, &[(Mul, big), (Mul, big), (Rem, -7)]),
                   Some({ let r = (big as i128 % 7).pow(3) % 7; if r == 0 { 0 } else { r as i64 - 7 } }));
        assert_eq!(fold(big, &[(Mul, big), (Mul, big), (Add, 5), (Mul, 0)]), Some(0));
        assert_eq!(fold(big, &[(Mul, big), (Mul, big), (Rem, 0)]), Some(0));
        assert_eq!(fold(big, &[(Mul, big), (Mul, big), (Sub, 1)]), None);
        assert_eq!(fold(big, &[(Mul, big), (Mul, big), (Rem, 10), (Mul, 3)]),
                   Some(((big as i128 % 10).pow(3) % 10 * 3) as i64));
    }
}
