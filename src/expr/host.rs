//! A call of a function overload with no native primitive, made through the game's `Host`
//! (a Python call-back), as the Python engine's closure makes it (`op_call`): the plain
//! arguments worked out first, left to right; a per-item argument (`Each`) not worked out but
//! handed over as something the implementation calls per item (`Items`), which runs the
//! argument's body natively on the evaluation's own slots, exactly as `op_each`'s `f(item)`.

use std::borrow::Cow;

use super::eval::{eval, Cx, Fault, Seq, Val};
use super::parse::{HostCall, Node};
use super::{Arg, ExprError, Items};

type R<T> = Result<T, Fault>;

/// The value of the call `h`: the call-back's result.
pub(super) fn call<'a>(h: &'a HostCall, cx: &mut Cx<'a, '_>) -> R<Val<'a>> {
    let mut args = Vec::with_capacity(h.args.len());
    let mut bodies = Vec::new();
    for a in &h.args {
        args.push(match a {
            Node::Each(slot, body) => {
                bodies.push((*slot, &**body));
                Arg::Each(bodies.len() - 1)
            }
            a => Arg::Val(eval(a, cx)?),
        });
    }
    let t = cx.t;
    let host = t.host.as_ref().ok_or_else(|| Fault::Host("no Python call-back is attached".into()))?;
    let s = cx.s;
    host.call(h.index, s, &args, &mut Bodies { cx, bodies, ptr: &h.ptr }).map_err(Fault::Host)
}

/// The per-item arguments of one call: each one's slot and body, run on the call's context.
struct Bodies<'c, 'a, 'v> {
    cx: &'c mut Cx<'a, 'v>,
    bodies: Vec<(usize, &'a Node)>,
    ptr: &'a str,
}

impl Items for Bodies<'_, '_, '_> {
    fn item(&mut self, k: usize, item: Val<'static>) -> Result<Val<'static>, ExprError> {
        let &(slot, body) = self.bodies.get(k)
            .ok_or_else(|| Fault::Host(format!("the call has no per-item argument {k}")).at(self.ptr))?;
        self.cx.vars[slot] = item;
        eval(body, self.cx).map(owned).map_err(|fault| fault.at(self.ptr))
    }
}

/// `v` owning what it holds (a pile's cards copied, a name made a string).
fn owned(v: Val<'_>) -> Val<'static> {
    match v {
        Val::Null => Val::Null,
        Val::Bool(b) => Val::Bool(b),
        Val::Int(i) => Val::Int(i),
        Val::Text(t) => Val::Text(Cow::Owned(t.into_owned())),
        Val::List(Seq::One(x)) => Val::List(Seq::One(x)),
        Val::List(s) => Val::List(Seq::Owned(s.to_vec())),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::{json, Value};

    use super::super::{Arg, ExprError, Exprs, Host, Items, Scope, Stepped, Val};
    use crate::engine::State;

    /// Call-back 0, `someOf(items, each)`: whether the per-item argument holds for an item (the
    /// items asked in order, stopping at the first); call-back 1, `nameOf(depot)`: `"d<depot>"`.
    struct Backs;

    impl Host for Backs {
        fn call(&self, index: usize, _: &State, args: &[Arg<'_>], items: &mut dyn Items)
                -> Result<Val<'static>, String> {
            match (index, args) {
                (0, [Arg::Val(Val::List(xs)), Arg::Each(k)]) => {
                    for &x in xs.iter() {
                        if items.item(*k, Val::Int(i64::from(x))).map_err(|e| e.message)?.truthy() {
                            return Ok(Val::Bool(true));
                        }
                    }
                    Ok(Val::Bool(false))
                }
                (1, [Arg::Val(Val::Int(d))]) => Ok(Val::Text(format!("d{d}").into())),
                _ => Err(format!("unexpected call {index} {args:?}")),
            }
        }

        fn step(&self, _: usize, _: &State, _: i32) -> Result<Stepped, String> {
            Err("no steps".into())
        }
    }

    fn value(root: Value) -> Result<String, ExprError> {
        let mut e = Exprs::from_json(&json!({
            "cards": [[1, 0, 0, 1, false]], "depot_index": {"d0": 0, "d1": 1}, "groups": {}, "types": {},
            "group_of": [null, null], "copy_index": [0, 0], "covered_by": [[], []], "grid": [null, null],
            "functions": {"someOf": [null], "nameOf": [null], "depot": ["depot_named"]},
            "callbacks": {"someOf": [0], "nameOf": [1]}
        })).expect("tables");
        e.set_host(Arc::new(Backs));
        let id = e.add(&json!({"ptr": "/x", "program": {"program": {"format": 1, "slots": 1, "root": root}}}))
            .expect("loads");
        let s = State { piles: vec![vec![1, 0], vec![]], ..State::default() };
        e.value(id, &s, &Scope::default()).map(|v| format!("{v:?}"))
    }

    #[test]
    fn a_per_item_argument_runs_natively_per_item_the_call_back_asks() {
        let face_up = json!(["each", 0, ["prop", "faceUp", ["var", 0]]]);
        assert_eq!(value(json!(["call", "someOf", 0, [["cards", ["const", 0]], face_up]])).unwrap(), "Bool(true)");
        assert_eq!(value(json!(["call", "someOf", 0, [["cards", ["const", 1]], face_up]])).unwrap(), "Bool(false)");
        // the item's error, at the program's pointer, is the call's
        let past = json!(["each", 0, ["arith", ["+"], [["var", 0], ["const", super::super::MAX_EXPR_INT]], false]]);
        let err = value(json!(["call", "someOf", 0, [["cards", ["const", 0]], past]])).unwrap_err();
        assert!(err.message.starts_with("this expression works out to a number past"), "{err:?}");
    }

    #[test]
    fn a_call_backs_text_names_a_depot() {
        let named = |d: i64| value(json!(["call", "depot", 0, [["call", "nameOf", 0, [["const", d]]]]]));
        assert_eq!(named(1).unwrap(), "Int(1)");
        let err = named(7).unwrap_err();
        assert_eq!((err.message.as_str(), err.no_depot.as_deref(), err.ptr.as_str()),
                   ("no depot is named 'd7'", Some("d7"), "/x"));
    }
}
