//! The children of a position whose face-down cards are unseen, each solved on sampled deals
//! (docs/planners.md, `klondike`): the `klondike` planner's decisions, made natively so that a
//! decision can afford hundreds of small solves.
//!
//! The position is a view: a face-down column card may be `UNSEEN`, and the cards it may be are
//! given. Every sample deals those cards to the unseen places in a random order (each order
//! equally likely), and a child is worth the share of its samples the model wins within a few
//! positions. The samples are shared out by successive halving (a fixed-budget best-arm rule):
//! each round the children still in the running are solved on the same new deals (a paired
//! comparison), and the better half goes on (of equal worth, the one with more deals not proved
//! lost). The children depend only on cards the view shows
//! (a column's top, its face-up cards, the talon, which must be seen), so they are the same on
//! every sample.

use super::{Answer, Board, IN_PLACE, Position, Rules, Step, To, Tries, Unfit, splitmix, unfit};
use std::collections::{HashSet, VecDeque};
use std::time::{Duration, Instant};

use crate::solver::clock;

/// A face-down column card the player has not seen.
pub const UNSEEN: u8 = u8::MAX;
/// The most child solves one decision may make.
pub const MAX_SAMPLES: u32 = 1_000_000;
/// The most positions a decision's quiet steps may reach (`commitments`).
pub const MAX_QUIET: usize = 4_096;

/// How one child did on its samples: the child is its steps from the decision's position.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    pub steps: Vec<Step>,
    pub won: u32,
    pub lost: u32,
    pub unknown: u32,
    /// the positions its solves recorded
    pub states: u64,
}

impl Tally {
    /// The estimated share of deals won, an unknown answer counting `unknown` of a win.
    fn worth(&self, unknown: f64) -> f64 {
        self.share(f64::from(self.won) + unknown * f64::from(self.unknown))
    }

    /// `count` as a share of the deals this child was solved on (0 on none).
    fn share(&self, count: f64) -> f64 {
        let played = self.won + self.lost + self.unknown;
        if played == 0 {
            return 0.0;
        }
        count / f64::from(played)
    }

    /// Whether this child goes before `other`: the greater worth first and, of equal worth, the
    /// greater share of deals not proved lost (an unknown answer counting as 0 makes a child
    /// whose solves ran out tie with one whose solves were proved lost, which is worse).
    fn rank(&self, other: &Tally, unknown: f64) -> std::cmp::Ordering {
        let open = |t: &Tally| t.share(f64::from(t.won + t.unknown));
        other.worth(unknown).total_cmp(&self.worth(unknown)).then(open(other).total_cmp(&open(self)))
    }
}

/// What a decision comes to.
#[derive(Debug, PartialEq)]
pub enum Decided {
    /// A column top goes home without branching (the same on every sample): play it.
    Settle(Step),
    /// The children, best first (the one successive halving kept first, then those it dropped,
    /// later rounds first).
    Children(Vec<Tally>),
}

/// How much a decision may spend: `samples` child solves in all, each within `limit` positions;
/// an unknown answer counts `unknown` of a win; `seed` drives the deals. With `commit` the
/// children are the commitments (`commitments`), else the position's own children. With
/// `in_order` a sample deals the unseen cards in the order they turn up, from whichever column,
/// instead of to places (the cards dealt to the face-down places stay there unread): a solve can
/// then choose when to turn a card up knowing which comes next, but not where to dig for a card
/// it wants.
pub struct Budget {
    pub samples: u32,
    pub limit: u64,
    pub unknown: f64,
    pub seed: u64,
    pub commit: bool,
    pub in_order: bool,
}

/// A quiet step: a column's cards moved to another column, turning no card up and sending none
/// home, which a player may make without learning or giving up anything.
fn quiet(b: &Board, s: Step, settled: &[Step]) -> bool {
    match s {
        Step::Column { from, at, to: To::Column(_) } => {
            settled.is_empty() && !(at > 0 && b.down[usize::from(from)] == at)
        }
        _ => false,
    }
}

/// The commitments of the settled `root`: every step that is not quiet (it turns a card up,
/// sends one home or plays a talon card), from `root` or from a position quiet steps reach from
/// it (at most `cap` of those, nearest first), each with the quiet steps before it; two that
/// lead to the same position count once. A quiet step is judged only as part of a commitment:
/// a solve from the quiet step alone would choose the next card to turn up knowing the cards.
fn commitments(rules: &Rules, root: &Board, cap: usize) -> Vec<Vec<Step>> {
    let mut reached = HashSet::from([rules.key(root)]);
    let mut made = HashSet::new();
    let mut queue = VecDeque::from([(root.clone(), Vec::new())]);
    let (mut kids, mut places, mut out) = (Vec::new(), Vec::new(), Vec::new());
    while let Some((b, path)) = queue.pop_front() {
        kids.clear();
        rules.children(&b, &mut kids, &mut places, 0);
        for &(_, step) in &kids {
            let mut child = b.clone();
            let mut settled = Vec::new();
            rules.apply(&mut child, step, IN_PLACE);
            rules.settle(&mut child, &mut settled, IN_PLACE);
            let key = rules.key(&child);
            let line = || [path.as_slice(), &[step]].concat(); // made only when kept
            if !quiet(&b, step, &settled) {
                if made.insert(key) {
                    out.push(line());
                }
            } else if reached.len() < cap && reached.insert(key) {
                queue.push_back((child, line()));
            }
        }
    }
    out
}

/// Where the unseen cards go: the (column, place) of each `UNSEEN`.
fn unseen_places(p: &Position, unseen: &[u8]) -> Result<Vec<(usize, usize)>, Unfit> {
    if p.talon.contains(&UNSEEN) {
        return unfit("the talon holds an unseen card");
    }
    let mut places = Vec::new();
    for (i, (down, cards)) in p.columns.iter().enumerate() {
        for (j, &c) in cards.iter().enumerate() {
            if c == UNSEEN {
                if j >= *down {
                    return unfit(format!("column {i} shows an unseen card face up"));
                }
                places.push((i, j));
            }
        }
    }
    if places.len() != unseen.len() {
        return unfit(format!("{} unseen places for {} unseen cards", places.len(), unseen.len()));
    }
    Ok(places)
}

/// `p` with the unseen cards dealt to the unseen places in a random order.
fn deal(p: &Position, places: &[(usize, usize)], unseen: &mut [u8], rng: &mut u64) -> Position {
    for i in (1..unseen.len()).rev() {
        let j = (splitmix(rng) % (i as u64 + 1)) as usize;
        unseen.swap(i, j);
    }
    let mut columns = p.columns.clone();
    for (&(i, j), &c) in places.iter().zip(unseen.iter()) {
        columns[i].1[j] = c;
    }
    Position { columns, talon: p.talon.clone(), waste: p.waste, home: p.home.clone() }
}


/// `b` with the same card (any) in each of its unseen `places`, for a deal in order, where what
/// a face-down place holds is never read: then positions that differ only in which columns the
/// cards turned up came from share a key, as they share their future.
fn unread(rules: &Rules, b: &mut Board, places: &[(usize, usize)]) {
    for &(i, j) in places {
        b.cols[i][j] = 0;
    }
    for i in 0..usize::from(b.n_cols) {
        rules.set_column_key(b, i);
    }
}

/// Decide `p` (see the module's comment), `unseen` being the cards its `UNSEEN` places hold.
pub fn decide(rules: &Rules, p: &Position, unseen: &[u8], budget: &Budget, timeout: Duration) -> Result<Decided, Unfit> {
    if budget.samples == 0 || budget.samples > MAX_SAMPLES || budget.limit == 0 {
        return unfit(format!("a decision makes 1 to {MAX_SAMPLES} solves of at least one position"));
    }
    let places = unseen_places(p, unseen)?;
    if budget.in_order && places.len() != p.columns.iter().map(|(down, _)| down).sum::<usize>() {
        return unfit("a deal in order turns up only unseen cards: every face-down card must be unseen");
    }
    let mut pool = unseen.to_vec();
    let mut rng = budget.seed;
    let root: Board = rules.board(&deal(p, &places, &mut pool, &mut rng))?;
    let mut settled = root.clone();
    let mut first = Vec::new();
    rules.settle(&mut settled, &mut first, IN_PLACE);
    if let Some(&step) = first.first() {
        return Ok(Decided::Settle(step));
    }
    let lines = if budget.commit {
        commitments(rules, &root, MAX_QUIET)
    } else {
        let mut kids = Vec::new();
        rules.children(&root, &mut kids, &mut Vec::new(), 0);
        kids.iter().map(|&(_, step)| vec![step]).collect()
    };
    let mut tallies: Vec<Tally> = lines.into_iter().map(|steps| Tally { steps, won: 0, lost: 0, unknown: 0, states: 0 }).collect();
    let mut alive: Vec<usize> = (0..tallies.len()).collect();
    let mut dropped: Vec<usize> = Vec::new();
    let rounds = usize::BITS - (alive.len().max(2) - 1).leading_zeros(); // ceil(log2), at least 1
    let per_round = (budget.samples / rounds).max(1);
    let mut tries = Tries::new(rules, timeout);
    let deadline = Instant::now() + timeout;
    let mut late = false;
    while alive.len() > 1 {
        let deals = (per_round / alive.len() as u32).max(1);
        for _ in 0..deals {
            // the time is up, or the user stopped the command: the children are ranked on the
            // deals solved so far (a solve too short to read the clock would not stop)
            late = clock::past(deadline);
            if late {
                break;
            }
            let mut board = rules.board(&deal(p, &places, &mut pool, &mut rng))?;
            let order = if budget.in_order {
                unread(rules, &mut board, &places);
                pool.as_slice()
            } else {
                IN_PLACE
            };
            for (n, &k) in alive.iter().enumerate() {
                let mut child = board.clone();
                let mut steps = Vec::new();
                for &step in &tallies[k].steps {
                    rules.apply(&mut child, step, order);
                    rules.settle(&mut child, &mut steps, order);
                }
                // the children of one deal share the positions proved lost
                let found = tries.solve(&child, steps, budget.limit, n > 0, order);
                let t = &mut tallies[k];
                t.states += found.states;
                match found.answer {
                    Answer::Won => t.won += 1,
                    Answer::Lost => t.lost += 1,
                    Answer::Unknown => t.unknown += 1,
                }
            }
        }
        // stable: of equal worth and share open, the child the model ranks first stays first
        alive.sort_by(|&a, &b| tallies[a].rank(&tallies[b], budget.unknown));
        if late {
            break;
        }
        let keep = alive.len().div_ceil(2);
        dropped.extend(alive.drain(keep..).rev());
    }
    let order = alive.into_iter().chain(dropped.into_iter().rev());
    Ok(Decided::Children(order.map(|k| tallies[k].clone()).collect()))
}

#[cfg(test)]
mod tests {
    use super::super::tests::rules;
    use super::*;

    const LONG: Duration = Duration::from_secs(60);

    /// Small deals of 3 suits of 4 cards: three columns of one or two unseen cards under one
    /// face-up card, the rest in the talon.
    fn views(n: usize) -> Vec<(Position, Vec<u8>)> {
        let mut seed = 11u64;
        (0..n)
            .map(|_| {
                let mut cards: Vec<u8> = (0..12).collect();
                for j in (1..12).rev() {
                    cards.swap(j, (splitmix(&mut seed) % (j as u64 + 1)) as usize);
                }
                let mut unseen = Vec::new();
                let mut rest = cards.as_slice();
                let columns = (0..3)
                    .map(|i| {
                        let down = 1 + (i + (seed as usize & 1)) % 2;
                        let (col, after) = rest.split_at(down + 1);
                        rest = after;
                        unseen.extend_from_slice(&col[..down]);
                        let mut shown = vec![UNSEEN; down];
                        shown.push(col[down]);
                        (down, shown)
                    })
                    .collect();
                (Position { columns, talon: rest.to_vec(), waste: 0, home: vec![0; 3] }, unseen)
            })
            .collect()
    }

    /// Every way of dealing `unseen` to the unseen places of `p`.
    fn every_deal(p: &Position, unseen: &[u8]) -> Vec<Position> {
        fn orders(cards: &[u8]) -> Vec<Vec<u8>> {
            if cards.len() <= 1 {
                return vec![cards.to_vec()];
            }
            (0..cards.len())
                .flat_map(|i| {
                    let mut rest = cards.to_vec();
                    let c = rest.remove(i);
                    orders(&rest).into_iter().map(move |mut o| {
                        o.insert(0, c);
                        o
                    })
                })
                .collect()
        }
        let places = unseen_places(p, unseen).expect("places");
        orders(unseen)
            .into_iter()
            .map(|order| {
                let mut columns = p.columns.clone();
                for (&(i, j), c) in places.iter().zip(order) {
                    columns[i].1[j] = c;
                }
                Position { columns, talon: p.talon.clone(), waste: p.waste, home: p.home.clone() }
            })
            .collect()
    }

    #[test]
    fn a_child_ranks_by_worth_then_by_its_deals_not_proved_lost() {
        use std::cmp::Ordering::{Greater, Less};
        let t = |won, lost, unknown| Tally { steps: Vec::new(), won, lost, unknown, states: 0 };
        let (ran_out, proved_lost) = (t(0, 2, 8), t(0, 9, 1));
        assert_eq!(ran_out.rank(&proved_lost, 0.0), Less, "of equal worth, more deals open first");
        assert_eq!(proved_lost.rank(&ran_out, 0.0), Greater);
        // worth comes first: one win in ten beats none however many ran out
        assert_eq!(t(1, 9, 0).rank(&ran_out, 0.0), Less);
        // with an unknown answer worth half a win, the open share no longer decides alone
        assert_eq!(t(0, 0, 2).rank(&t(1, 0, 0), 0.5), Greater);
    }

    #[test]
    fn a_child_is_won_on_a_sample_only_if_some_deal_wins_it_and_lost_only_if_some_deal_loses_it() {
        let r = rules(3, 4, 3);
        let mut compared = 0;
        for ((p, unseen), commit) in views(40).into_iter().zip([false, true].into_iter().cycle()) {
            let budget = Budget { samples: 400, limit: 100_000, unknown: 0.0, seed: 5, commit, in_order: false };
            let Decided::Children(tallies) = decide(&r, &p, &unseen, &budget, LONG).expect("fits") else {
                continue;
            };
            for t in &tallies {
                let (mut wins, mut losses) = (false, false);
                for deal in every_deal(&p, &unseen) {
                    let mut child = r.board(&deal).expect("a deal");
                    let mut steps = Vec::new();
                    for &step in &t.steps {
                        r.apply(&mut child, step, IN_PLACE);
                        r.settle(&mut child, &mut steps, IN_PLACE);
                    }
                    match Tries::new(&r, LONG).solve(&child, steps, 100_000, false, IN_PLACE).answer {
                        Answer::Won => wins = true,
                        Answer::Lost => losses = true,
                        Answer::Unknown => panic!("a small deal left undecided"),
                    }
                }
                assert_eq!(t.unknown, 0);
                assert!(wins || t.won == 0, "won on a sample though no deal wins it");
                assert!(losses || t.lost == 0, "lost on a sample though every deal wins it");
                compared += 1;
            }
        }
        assert!(compared >= 40, "only {compared} children compared");
    }

    #[test]
    fn the_best_child_is_first_and_a_seed_gives_the_same_decision() {
        let r = rules(3, 4, 3);
        let budget = |seed| Budget { samples: 300, limit: 1000, unknown: 0.5, seed, commit: seed % 2 == 0, in_order: seed % 3 == 0 };
        let mut decided = 0;
        for ((p, unseen), seed) in views(20).into_iter().zip(1..) {
            let a = decide(&r, &p, &unseen, &budget(seed), LONG).expect("fits");
            assert_eq!(a, decide(&r, &p, &unseen, &budget(seed), LONG).expect("fits"));
            if let Decided::Children(t) = &a {
                let solves: u32 = t.iter().map(|t| t.won + t.lost + t.unknown).sum();
                assert!(solves <= 300 + t.len() as u32, "{solves} solves for a budget of 300");
                for t in t {
                    // each solve records its start and at most its limit of positions
                    let solves = u64::from(t.won + t.lost + t.unknown);
                    assert!((solves..=solves * 1000).contains(&t.states), "{} positions in {solves} solves", t.states);
                }
                if t.len() > 1 {
                    // the first was kept through the last round, where it was worth the most
                    assert!(t[0].worth(0.5) >= t[1].worth(0.5));
                    decided += 1;
                }
            }
        }
        assert!(decided > 0);
    }

    #[test]
    fn a_card_that_goes_home_without_branching_is_played_before_any_sampling() {
        let r = rules(2, 3, 1);
        // the ace of suit 0 on top of a column, over an unseen card
        let p = Position { columns: vec![(1, vec![UNSEEN, 0]), (0, vec![5])], talon: vec![3, 4, 2], waste: 0, home: vec![0, 0] };
        let d = decide(&r, &p, &[1], &Budget { samples: 10, limit: 10, unknown: 0.0, seed: 1, commit: true, in_order: false }, LONG);
        assert_eq!(d, Ok(Decided::Settle(Step::Column { from: 0, at: 1, to: super::super::To::Home })));
    }

    #[test]
    fn a_deal_in_order_turns_up_its_cards_in_that_order_from_any_column() {
        let r = rules(2, 3, 1);
        // two kings (2 and 5) over one unseen two each (1 and 4), two empty columns, the aces in the talon
        let p = Position {
            columns: vec![(1, vec![UNSEEN, 2]), (1, vec![UNSEEN, 5]), (0, vec![]), (0, vec![])],
            talon: vec![0, 3],
            waste: 0,
            home: vec![0, 0],
        };
        let places = unseen_places(&p, &[1, 4]).expect("places");
        let king_off = |from: u8, to: u8| Step::Column { from, at: 1, to: To::Column(to) };
        for order in [[1, 4], [4, 1]] {
            for (first, second) in [(0, 1), (1, 0)] {
                // the deal puts 1 and 4 in the places; the order decides what turns up
                let mut b = r.board(&deal(&p, &places, &mut [1, 4], &mut 3)).expect("a deal");
                for (n, (from, to)) in [(first, 2), (second, 3)].into_iter().enumerate() {
                    let step = king_off(from, to);
                    let worked_out = r.child_key(&b, r.key(&b), step, &order);
                    r.apply(&mut b, step, &order);
                    assert_eq!(worked_out, Some(r.key(&b)), "the key of a child that turns a card up");
                    let i = usize::from(from);
                    assert_eq!((b.cols[i][0], b.down[i], b.up[i]), (order[n], 0, 1 << order[n]));
                }
                // the key is that of the same position dealt to places
                let kings = [2, 5];
                let mut columns = vec![(0, vec![]); 4];
                columns[usize::from(first)] = (0, vec![order[0]]);
                columns[usize::from(second)] = (0, vec![order[1]]);
                columns[2] = (0, vec![kings[usize::from(first)]]);
                columns[3] = (0, vec![kings[usize::from(second)]]);
                let placed = Position { columns, talon: vec![0, 3], waste: 0, home: vec![0, 0] };
                assert_eq!(r.key(&b), r.key(&r.board(&placed).expect("a position")));
            }
        }
    }

    #[test]
    fn views_and_budgets_outside_the_model_are_refused() {
        let r = rules(2, 3, 1);
        let p = |columns: Vec<(usize, Vec<u8>)>, talon: Vec<u8>| Position { columns, talon, waste: 0, home: vec![0, 0] };
        let ok = Budget { samples: MAX_SAMPLES, limit: 1, unknown: 0.0, seed: 1, commit: false, in_order: false };
        let fine = p(vec![(1, vec![UNSEEN, 2])], vec![0, 3, 4, 5]);
        assert!(decide(&r, &fine, &[1], &ok, LONG).is_ok());
        for bad in [Budget { samples: 0, ..ok }, Budget { samples: MAX_SAMPLES + 1, ..ok }, Budget { limit: 0, ..ok }] {
            assert!(decide(&r, &fine, &[1], &bad, LONG).is_err());
        }
        assert!(decide(&r, &fine, &[1, 0], &ok, LONG).is_err(), "two cards for one place");
        let talon = p(vec![(0, vec![2])], vec![UNSEEN, 0, 3, 4, 5]);
        assert!(decide(&r, &talon, &[1], &ok, LONG).is_err(), "an unseen talon card");
        let face_up = p(vec![(0, vec![UNSEEN])], vec![0, 2, 3, 4, 5]);
        assert!(decide(&r, &face_up, &[1], &ok, LONG).is_err(), "an unseen face-up card");
        let seen_down = p(vec![(2, vec![UNSEEN, 3, 2])], vec![0, 4, 5]);
        assert!(decide(&r, &seen_down, &[1], &ok, LONG).is_ok());
        let in_order = Budget { in_order: true, ..ok };
        assert!(decide(&r, &seen_down, &[1], &in_order, LONG).is_err(), "in order, a face-down card seen");
        assert!(decide(&r, &fine, &[1], &in_order, LONG).is_ok());
    }

    /// Positions of a Klondike of 4 suits of 7 cards drawn 3 at a time, in 5 columns: deals and
    /// the positions a few random children lead to, settled.
    fn positions(n: usize) -> (Rules, Vec<Board>) {
        let r = rules(4, 7, 3);
        let mut seed = 7u64;
        let mut out = Vec::new();
        while out.len() < n {
            let mut cards: Vec<u8> = (0..28).collect();
            for j in (1..28).rev() {
                cards.swap(j, (splitmix(&mut seed) % (j as u64 + 1)) as usize);
            }
            let mut rest = cards.as_slice();
            let columns = (0..5)
                .map(|i| {
                    let (col, after) = rest.split_at(i + 1);
                    rest = after;
                    (i, col.to_vec())
                })
                .collect();
            let p = Position { columns, talon: rest.to_vec(), waste: 0, home: vec![0; 4] };
            let mut b = r.board(&p).expect("a deal");
            let mut kids = Vec::new();
            for _ in 0..splitmix(&mut seed) % 12 {
                r.settle(&mut b, &mut Vec::new(), IN_PLACE);
                kids.clear();
                r.children(&b, &mut kids, &mut Vec::new(), 0);
                if kids.is_empty() || b.out == 0 {
                    break;
                }
                r.apply(&mut b, kids[(splitmix(&mut seed) % kids.len() as u64) as usize].1, IN_PLACE);
            }
            r.settle(&mut b, &mut Vec::new(), IN_PLACE);
            out.push(b);
        }
        (r, out)
    }

    /// How many positions quiet steps reach from `b` (itself included).
    fn quiet_reach(r: &Rules, b: &Board) -> usize {
        let mut reached = HashSet::from([r.key(b)]);
        let mut todo = vec![b.clone()];
        while let Some(b) = todo.pop() {
            let mut kids = Vec::new();
            r.children(&b, &mut kids, &mut Vec::new(), 0);
            for (_, step) in kids {
                let (mut child, mut settled) = (b.clone(), Vec::new());
                r.apply(&mut child, step, IN_PLACE);
                r.settle(&mut child, &mut settled, IN_PLACE);
                if quiet(&b, step, &settled) && reached.insert(r.key(&child)) {
                    todo.push(child);
                }
            }
        }
        reached.len()
    }

    #[test]
    fn a_commitment_is_quiet_steps_then_one_that_is_not_and_each_leads_somewhere_else() {
        let (r, boards) = positions(300);
        let mut through_quiet = 0;
        for b in &boards {
            let lines = commitments(&r, b, MAX_QUIET);
            let mut ends = HashSet::new();
            for line in &lines {
                let mut at = b.clone();
                for (n, &step) in line.iter().enumerate() {
                    let mut kids = Vec::new();
                    r.children(&at, &mut kids, &mut Vec::new(), 0);
                    assert!(kids.iter().any(|&(_, k)| k == step), "{step:?} is not a child");
                    let (before, mut settled) = (at.clone(), Vec::new());
                    r.apply(&mut at, step, IN_PLACE);
                    r.settle(&mut at, &mut settled, IN_PLACE);
                    assert_eq!(quiet(&before, step, &settled), n + 1 < line.len(), "{line:?}");
                }
                assert!(ends.insert(r.key(&at)), "two commitments lead to one position");
                through_quiet += usize::from(line.len() > 1);
            }
            // every child of the position that is not quiet is a commitment (or leads where one does)
            let mut kids = Vec::new();
            r.children(b, &mut kids, &mut Vec::new(), 0);
            for (_, step) in kids {
                let (mut child, mut settled) = (b.clone(), Vec::new());
                r.apply(&mut child, step, IN_PLACE);
                r.settle(&mut child, &mut settled, IN_PLACE);
                if !quiet(b, step, &settled) {
                    assert!(ends.contains(&r.key(&child)), "{step:?} missing from {lines:?}");
                }
            }
        }
        assert!(through_quiet > 20, "only {through_quiet} commitments after quiet steps");
    }

    #[test]
    fn quiet_steps_reach_at_most_the_cap() {
        let (r, boards) = positions(300);
        let mut cut = 0;
        for b in &boards {
            let reach = quiet_reach(&r, b);
            let all = commitments(&r, b, MAX_QUIET);
            assert_eq!(commitments(&r, b, reach), all, "at the cap, every commitment");
            let fewer = commitments(&r, b, reach - 1);
            assert!(fewer.iter().all(|line| all.contains(line)));
            cut += usize::from(fewer.len() < all.len());
            if reach > 1 {
                assert!(fewer.len() <= all.len());
            }
        }
        assert!(cut > 5, "the cap cut the commitments of only {cut} positions");
    }

    #[test]
    fn every_order_of_the_unseen_cards_is_dealt_about_equally_often() {
        let p = Position { columns: vec![(3, vec![UNSEEN, UNSEEN, UNSEEN, 9])], talon: vec![], waste: 0, home: vec![] };
        let places = unseen_places(&p, &[1, 2, 3]).expect("places");
        let mut pool = vec![1, 2, 3];
        let mut rng = 3u64;
        let mut seen = std::collections::HashMap::new();
        for _ in 0..6000 {
            *seen.entry(deal(&p, &places, &mut pool, &mut rng).columns[0].1.clone()).or_insert(0) += 1;
        }
        assert_eq!(seen.len(), 6);
        assert!(seen.values().all(|&n| (850..1150).contains(&n)), "{seen:?}");
    }
}
