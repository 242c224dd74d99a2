//! What expressions read about one game (`cardz_core.expr.Tables`, handed over by
//! `cardz_core/native_expr.py`): the face-up facts of each card and the depot tables.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::parse::Prim;
use super::Host;
use crate::engine::Unsupported;

/// What a face-up card reads as: rank, suit and colour (None for a joker), value, joker.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Face {
    pub rank: Option<i64>,
    pub suit: Option<i64>,
    pub colour: Option<i64>,
    pub value: i64,
    pub joker: bool,
}

#[derive(Default)]
pub(super) struct Tables {
    faces: Vec<Face>, // by card id
    pub depot_index: HashMap<String, i64>,
    pub copies: Vec<Vec<i32>>,         // per depot, the copies of its repeated depot (empty: none)
    pub copy_index: Vec<i64>,          // per depot, its copy number (0: not a copy)
    pub covered_by: Vec<Vec<i32>>,     // per depot
    pub grid: Vec<Option<(f64, f64)>>, // per depot, (col, row) when placed on the grid
    /// per function name, the native primitive of each overload (None: it has none)
    pub functions: HashMap<String, Vec<Result<Prim, String>>>,
    /// per function name, each overload's Python call-back (an index into the host's), for
    /// the overloads without a primitive that may be called back (`plan["callbacks"]`)
    pub callbacks: HashMap<String, Vec<Option<usize>>>,
    /// what runs the call-backs (`Exprs::set_host`)
    pub host: Option<Arc<dyn Host>>,
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables").field("depot_index", &self.depot_index).field("functions", &self.functions)
            .field("callbacks", &self.callbacks).finish_non_exhaustive()
    }
}

fn bad(what: &str) -> Unsupported {
    Unsupported(format!("the plan's expression tables are malformed ({what})"))
}

fn int(v: &Value, what: &str) -> Result<i64, Unsupported> {
    v.as_i64().ok_or_else(|| bad(what))
}

fn list<'v>(v: &'v Value, what: &str) -> Result<&'v Vec<Value>, Unsupported> {
    v.as_array().ok_or_else(|| bad(what))
}

fn indices(v: &Value, what: &str) -> Result<Vec<i32>, Unsupported> {
    list(v, what)?.iter().map(|d| Ok(int(d, what)? as i32)).collect()
}

fn opt_int(v: &Value, what: &str) -> Result<Option<i64>, Unsupported> {
    if v.is_null() { Ok(None) } else { int(v, what).map(Some) }
}

impl Tables {
    pub fn from_json(plan: &Value) -> Result<Tables, Unsupported> {
        let field = |name: &str| plan.get(name).ok_or_else(|| bad(name));
        let mut faces = Vec::new();
        for card in list(field("cards")?, "cards")? {
            let f = list(card, "cards")?;
            if f.len() != 5 {
                return Err(bad("cards"));
            }
            faces.push(Face {
                rank: opt_int(&f[0], "rank")?,
                suit: opt_int(&f[1], "suit")?,
                colour: opt_int(&f[2], "colour")?,
                value: int(&f[3], "value")?,
                joker: f[4].as_bool().ok_or_else(|| bad("joker"))?,
            });
        }
        let depot_index = field("depot_index")?.as_object().ok_or_else(|| bad("depot_index"))?
            .iter().map(|(k, v)| Ok((k.clone(), int(v, "depot_index")?)))
            .collect::<Result<HashMap<_, _>, Unsupported>>()?;
        let groups = field("groups")?.as_object().ok_or_else(|| bad("groups"))?;
        let copies = list(field("group_of")?, "group_of")?.iter().map(|g| match g {
            Value::Null => Ok(Vec::new()),
            Value::String(name) => indices(groups.get(name).ok_or_else(|| bad("group_of"))?, "groups"),
            _ => Err(bad("group_of")),
        }).collect::<Result<Vec<_>, _>>()?;
        let copy_index = list(field("copy_index")?, "copy_index")?.iter()
            .map(|v| int(v, "copy_index")).collect::<Result<Vec<_>, _>>()?;
        let covered_by = list(field("covered_by")?, "covered_by")?.iter()
            .map(|v| indices(v, "covered_by")).collect::<Result<Vec<_>, _>>()?;
        let grid = list(field("grid")?, "grid")?.iter().map(|p| {
            if p.is_null() {
                return Ok(None);
            }
            let xy = list(p, "grid")?;
            match (xy.first().and_then(Value::as_f64), xy.get(1).and_then(Value::as_f64)) {
                (Some(x), Some(y)) if xy.len() == 2 => Ok(Some((x, y))),
                _ => Err(bad("grid")),
            }
        }).collect::<Result<Vec<_>, _>>()?;
        let n = copies.len();
        if copy_index.len() != n || covered_by.len() != n || grid.len() != n
            || depot_index.values().any(|&d| d < 0 || d as usize >= n)
            || copies.iter().chain(&covered_by).flatten().any(|&d| d < 0 || d as usize >= n) {
            return Err(bad("depot tables of different sizes"));
        }
        let mut functions = HashMap::new();
        for (name, overloads) in field("functions")?.as_object().ok_or_else(|| bad("functions"))? {
            let prims = list(overloads, "functions")?.iter().map(|p| match p {
                Value::Null => Err("has no native primitive".to_string()),
                Value::String(p) => Prim::named(p)
                    .ok_or_else(|| format!("names the native primitive '{p}', which this engine lacks")),
                _ => Err("names no native primitive".to_string()),
            }).collect();
            functions.insert(name.clone(), prims);
        }
        let mut callbacks = HashMap::new();
        if let Some(all) = plan.get("callbacks").and_then(Value::as_object) {
            for (name, overloads) in all {
                let ids = list(overloads, "callbacks")?.iter().map(|i| match i {
                    Value::Null => Ok(None),
                    _ => Ok(Some(int(i, "callbacks")? as usize)),
                }).collect::<Result<_, Unsupported>>()?;
                callbacks.insert(name.clone(), ids);
            }
        }
        Ok(Tables { faces, depot_index, copies, copy_index, covered_by, grid, functions, callbacks, host: None })
    }

    /// How many depots the tables describe.
    pub fn n_depots(&self) -> usize {
        self.copies.len()
    }

    /// The facts of a card code: only a face-up code of one of the game's cards has them, so
    /// no card, a face-down card and an unknown (negative) code all read as missing.
    #[inline]
    pub fn face(&self, c: i64) -> Option<&Face> {
        if c >= 0 && c & 1 == 1 { self.faces.get((c >> 1) as usize) } else { None }
    }
}
