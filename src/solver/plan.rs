//! The plan the search reads (`cardz_core/solver/native_plan.py`): the prunings the Python
//! analysis decided, as depot and card indices. Nothing here decides one.

use serde_json::Value;

/// A plan that does not read: what is wrong with it.
#[derive(Debug, PartialEq)]
pub struct BadPlan(pub String);

fn get<'a>(v: &'a Value, name: &str) -> Result<&'a Value, BadPlan> {
    v.get(name).ok_or_else(|| BadPlan(format!("the solver plan has no '{name}'")))
}

fn num(v: &Value, what: &str) -> Result<i64, BadPlan> {
    v.as_i64().ok_or_else(|| BadPlan(format!("'{what}' is not an integer")))
}

fn list<'a>(v: &'a Value, what: &str) -> Result<&'a [Value], BadPlan> {
    v.as_array().map(Vec::as_slice).ok_or_else(|| BadPlan(format!("'{what}' is not a list")))
}

fn nums(v: &Value, what: &str) -> Result<Vec<i64>, BadPlan> {
    list(v, what)?.iter().map(|x| num(x, what)).collect()
}

/// Indices below `bound` (depots or cards).
fn idx(v: &Value, what: &str, bound: usize) -> Result<Vec<usize>, BadPlan> {
    nums(v, what)?
        .into_iter()
        .map(|x| usize::try_from(x).ok().filter(|&i| i < bound).ok_or_else(|| BadPlan(format!("'{what}' holds {x}"))))
        .collect()
}

fn truth(v: &Value, name: &str) -> Result<bool, BadPlan> {
    get(v, name)?.as_bool().ok_or_else(|| BadPlan(format!("'{name}' is not a bool")))
}

fn mask(of: &[usize], n: usize) -> Vec<bool> {
    let mut m = vec![false; n];
    for &i in of {
        m[i] = true;
    }
    m
}

/// What the transposition key keeps (`Analysis.key`).
#[derive(Debug)]
pub struct KeyPlan {
    pub singles: Vec<usize>,
    pub classes: Vec<Vec<usize>>,
    pub sink: Vec<bool>,
    pub code_map: Option<Vec<i32>>,
    /// (stock, target, draw count): the ring of configurations taps cycle through
    pub cycle: Option<(usize, usize, usize)>,
    pub recycles: bool,
    pub redeals: bool,
    pub moves: bool,
    pub came_from: bool,
}

/// Safe moves (`SafeMoves`): the foundations, the cards that could lie on each card outside
/// them, the depots a safe move may start from.
#[derive(Debug)]
pub struct SafePlan {
    pub win: Vec<usize>,
    pub in_win: Vec<bool>,
    pub needs: Vec<Vec<usize>>,
    pub source: Vec<bool>,
    pub pile_unit: Vec<bool>,
    /// the cards of the seed rank, when cards may go onto an empty foundation
    pub seeds: Option<Vec<usize>>,
    /// the depots where a card that can go only home may lie on a card its foundation takes
    /// first, and for each card those cards (`SafeMoves.blocked`; empty: no such check)
    pub blocked: Vec<usize>,
    pub under: Vec<Vec<usize>>,
}

/// A sibling order (`Weights`).
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    pub home: f32,
    pub face_down: f32,
    pub empty: f32,
    pub depth: f32,
    pub disorder: f32,
    pub balance: f32,
    /// per card in sequence that would not move with the card below (0 in a set of six)
    pub stuck: f32,
    /// a greedy try: only moves that make progress, and only a win counts (an eighth number)
    pub greedy: bool,
}

/// The priority's tables (`GameProblem`).
#[derive(Debug)]
pub struct PriorityPlan {
    pub to_empty: Vec<usize>,
    pub others: Vec<usize>,
    pub open: Vec<usize>,
    /// per building depot, its relation: bit `below * cards + above`
    pub fits: Vec<(usize, usize)>,
    pub tables: Vec<Vec<u64>>,
    /// per relation, for each card the cards that may lie on it (lazy stock)
    pub onto: Vec<Vec<Vec<usize>>>,
    /// per depot, its relation's index
    pub relation: Vec<Option<usize>>,
    /// the pairs of a relation that the depot's eject rule would not move together: tables as
    /// `tables`, and per depot its table's index
    pub stuck_tables: Vec<Vec<u64>>,
    pub stuck: Vec<Option<usize>>,
    /// per suit-building foundation, the card it takes next above each card
    pub steps: Vec<(usize, Vec<i32>)>,
    pub seed_cards: Vec<bool>,
}

/// The series of tries (`planners/solver.py::solve`).
#[derive(Debug)]
pub struct TriesPlan {
    pub orderings: Vec<Weights>,
    pub face_down: Vec<Weights>,
    pub noise: f32,
    pub share: u64,
    pub min_states: u64,
}

#[derive(Debug)]
pub struct Plan {
    pub depots: usize,
    pub cards: usize,
    pub draws: Vec<bool>,
    pub key: KeyPlan,
    pub tap: Option<(usize, usize)>,
    pub untapped: Vec<usize>,
    pub safe: Option<SafePlan>,
    pub lazy: bool,
    pub streamline: bool,
    pub win: Vec<usize>,
    pub in_win: Vec<bool>,
    pub priority: PriorityPlan,
    pub tries: TriesPlan,
}

fn weights(v: &Value, what: &str) -> Result<Vec<Weights>, BadPlan> {
    list(v, what)?
        .iter()
        .map(|w| {
            let (six, stuck, greedy) = match *nums(w, what)?.as_slice() {
                [a, b, c, d, e, f] => ([a, b, c, d, e, f], 0, 0),
                [a, b, c, d, e, f, g] => ([a, b, c, d, e, f], g, 0),
                [a, b, c, d, e, f, g, h] => ([a, b, c, d, e, f], g, h),
                _ => return Err(BadPlan(format!("'{what}' holds a weight set not of six to eight"))),
            };
            let [home, face_down, empty, depth, disorder, balance] = six.map(|x| x as f32);
            Ok(Weights { home, face_down, empty, depth, disorder, balance, stuck: stuck as f32, greedy: greedy != 0 })
        })
        .collect()
}

fn pair(v: &Value, what: &str, bound: usize) -> Result<Option<(usize, usize)>, BadPlan> {
    if v.is_null() {
        return Ok(None);
    }
    match idx(v, what, bound)?.as_slice() {
        &[a, b] => Ok(Some((a, b))),
        _ => Err(BadPlan(format!("'{what}' is not a pair"))),
    }
}

/// Relations as `Plan::relations` reads them: bits, rows, [depot, table] pairs, per depot.
type Relations = (Vec<Vec<u64>>, Vec<Vec<Vec<usize>>>, Vec<(usize, usize)>, Vec<Option<usize>>);

impl Plan {
    pub fn from_json(source: &str) -> Result<Plan, BadPlan> {
        let v: Value = serde_json::from_str(source).map_err(|e| BadPlan(format!("the solver plan is not JSON: {e}")))?;
        let depots = usize::try_from(num(get(&v, "depots")?, "depots")?).map_err(|_| BadPlan("depots".into()))?;
        let cards = usize::try_from(num(get(&v, "cards")?, "cards")?).map_err(|_| BadPlan("cards".into()))?;
        let key = Self::key(get(&v, "key")?, depots, cards)?;
        let win = idx(get(&v, "win")?, "win", depots)?;
        let safe = Self::safe(get(&v, "safe")?, depots, cards)?;
        let t = get(&v, "tries")?;
        let tries = TriesPlan {
            orderings: weights(get(t, "orderings")?, "orderings")?,
            face_down: weights(get(t, "face_down")?, "face_down")?,
            noise: num(get(t, "noise")?, "noise")? as f32,
            share: num(get(t, "share")?, "share")?.max(1) as u64,
            min_states: num(get(t, "min_states")?, "min_states")?.max(1) as u64,
        };
        if tries.orderings.is_empty() {
            return Err(BadPlan("no orderings".into()));
        }
        Ok(Plan {
            depots,
            cards,
            draws: mask(&idx(get(&v, "stocks")?, "stocks", depots)?, depots),
            key,
            tap: pair(get(&v, "tap")?, "tap", depots)?,
            untapped: idx(get(&v, "untapped")?, "untapped", depots)?,
            safe,
            lazy: truth(&v, "lazy")?,
            streamline: truth(&v, "streamline")?,
            in_win: mask(&win, depots),
            win,
            priority: Self::priority(get(&v, "priority")?, depots, cards)?,
            tries,
        })
    }

    fn key(k: &Value, depots: usize, cards: usize) -> Result<KeyPlan, BadPlan> {
        let code_map = match get(k, "code_map")? {
            Value::Null => None,
            m => {
                let map = nums(m, "code_map")?;
                if map.len() != 2 * cards || map.iter().any(|&c| !(0..2 * cards as i64).contains(&c)) {
                    return Err(BadPlan("'code_map' does not map every card code".into()));
                }
                Some(map.into_iter().map(|c| c as i32).collect())
            }
        };
        let cycle = match get(k, "cycle")? {
            Value::Null => None,
            c => match nums(c, "cycle")?.as_slice() {
                &[s, t, count] if count >= 1 && [s, t].iter().all(|&d| (0..depots as i64).contains(&d)) => {
                    Some((s as usize, t as usize, count as usize))
                }
                _ => return Err(BadPlan("'cycle' is not (stock, target, count)".into())),
            },
        };
        Ok(KeyPlan {
            singles: idx(get(k, "singles")?, "singles", depots)?,
            classes: list(get(k, "classes")?, "classes")?.iter().map(|c| idx(c, "classes", depots)).collect::<Result<_, _>>()?,
            sink: mask(&idx(get(k, "sinks")?, "sinks", depots)?, depots),
            code_map,
            cycle,
            recycles: truth(k, "recycles")?,
            redeals: truth(k, "redeals")?,
            moves: truth(k, "moves")?,
            came_from: truth(k, "came_from")?,
        })
    }

    fn safe(s: &Value, depots: usize, cards: usize) -> Result<Option<SafePlan>, BadPlan> {
        if s.is_null() {
            return Ok(None);
        }
        let win = idx(get(s, "win")?, "win", depots)?;
        let needs: Vec<Vec<usize>> = list(get(s, "needs")?, "needs")?.iter().map(|n| idx(n, "needs", cards)).collect::<Result<_, _>>()?;
        if needs.len() != cards {
            return Err(BadPlan("'needs' is not one list per card".into()));
        }
        let ranks = nums(get(s, "ranks")?, "ranks")?;
        let seeds = get(s, "seed_rank")?.as_i64().map(|seed| (0..cards).filter(|&c| ranks.get(c) == Some(&seed)).collect());
        let blocked = idx(get(s, "blocked")?, "blocked", depots)?;
        let under: Vec<Vec<usize>> = list(get(s, "under")?, "under")?.iter().map(|u| idx(u, "under", cards)).collect::<Result<_, _>>()?;
        if !blocked.is_empty() && under.len() != cards {
            return Err(BadPlan("'under' is not one list per card".into()));
        }
        Ok(Some(SafePlan {
            in_win: mask(&win, depots),
            win,
            needs,
            source: mask(&idx(get(s, "sources")?, "sources", depots)?, depots),
            pile_unit: mask(&idx(get(s, "pile_unit")?, "pile_unit", depots)?, depots),
            seeds,
            blocked,
            under,
        }))
    }

    /// Relations given as one table per distinct rule (`tables_at`: for each card, the cards that
    /// may lie on it) and [depot, table] pairs (`of`): the tables as bits (`below * cards +
    /// above`) and as rows, the pairs, and per depot its table's index.
    fn relations(p: &Value, tables_at: &str, of: &str, depots: usize, cards: usize) -> Result<Relations, BadPlan> {
        let mut tables = Vec::new();
        let mut onto = Vec::new();
        for t in list(get(p, tables_at)?, tables_at)? {
            let rows: Vec<Vec<usize>> = list(t, tables_at)?.iter().map(|r| idx(r, tables_at, cards)).collect::<Result<_, _>>()?;
            if rows.len() != cards {
                return Err(BadPlan("a relation is not one list per card".into()));
            }
            let mut bits = vec![0u64; (cards * cards).div_ceil(64)];
            for (below, row) in rows.iter().enumerate() {
                for &above in row {
                    let at = below * cards + above;
                    bits[at / 64] |= 1 << (at % 64);
                }
            }
            tables.push(bits);
            onto.push(rows);
        }
        let mut pairs = Vec::new();
        let mut relation = vec![None; depots];
        for f in list(get(p, of)?, of)? {
            match nums(f, of)?.as_slice() {
                &[d, t] if (0..depots as i64).contains(&d) && (0..tables.len() as i64).contains(&t) => {
                    pairs.push((d as usize, t as usize));
                    relation[d as usize] = Some(t as usize);
                }
                _ => return Err(BadPlan(format!("'{of}' holds a bad pair"))),
            }
        }
        Ok((tables, onto, pairs, relation))
    }

    fn priority(p: &Value, depots: usize, cards: usize) -> Result<PriorityPlan, BadPlan> {
        let (tables, onto, fits, relation) = Self::relations(p, "tables", "fits", depots, cards)?;
        let (stuck_tables, _, _, stuck) = Self::relations(p, "stuck_tables", "stuck", depots, cards)?;
        let mut steps = Vec::new();
        for s in list(get(p, "steps")?, "steps")? {
            match list(s, "steps")? {
                [d, nexts] => {
                    let d = idx(&Value::Array(vec![d.clone()]), "steps", depots)?[0];
                    let nexts = nums(nexts, "steps")?;
                    if nexts.len() != cards || nexts.iter().any(|&c| !(-1..cards as i64).contains(&c)) {
                        return Err(BadPlan("a foundation's next cards are not one per card".into()));
                    }
                    steps.push((d, nexts.into_iter().map(|c| c as i32).collect()));
                }
                _ => return Err(BadPlan("'steps' holds a bad pair".into())),
            }
        }
        Ok(PriorityPlan {
            to_empty: idx(get(p, "to_empty")?, "to_empty", depots)?,
            others: idx(get(p, "others")?, "others", depots)?,
            open: idx(get(p, "open")?, "open", depots)?,
            fits,
            tables,
            onto,
            relation,
            stuck_tables,
            stuck,
            steps,
            seed_cards: mask(&idx(get(p, "seed_cards")?, "seed_cards", cards)?, cards),
        })
    }
}
