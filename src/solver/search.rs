//! The depth-first search with Tarjan's components and the lost set shared across tries
//! (`cardz_core/solver/search.py::search`, step for step), and the series of tries of
//! `cardz_core/planners/solver.py::solve`.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher as StdHasher};
use std::time::{Duration, Instant};

use crate::engine::{Game, Move, State, LOST, WON};
use crate::expr::ExprError;
use crate::solver::clock;
use crate::solver::key::{Hashes, Key, Keyer};
use crate::solver::plan::{Plan, Weights};
use crate::solver::problem::{Buffers, Counts, Problem, Ranker};

/// Keys are hashes already: a table needs only their words folded together.
#[derive(Default)]
pub struct KeyHash(u64);

impl StdHasher for KeyHash {
    fn finish(&self) -> u64 {
        self.0
    }

    /// A key arrives as its 16 bytes (integer slices hash as bytes): its words, xor-ed.
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.0 ^= u64::from_le_bytes(w.try_into().expect("8 bytes"));
        }
        for &b in words.remainder() {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, w: u64) {
        self.0 ^= w;
    }

    fn write_usize(&mut self, _: usize) {} // an array's length: the same for every key
}

type Build = BuildHasherDefault<KeyHash>;
pub type KeySet = HashSet<Key, Build>;
type KeyMap<V> = HashMap<Key, V, Build>;

/// How often the clock is read: before every this many children made (reading it costs about
/// what making a child does on the smallest games).
const CLOCK_EVERY: u32 = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Won,
    Lost,
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    States,
    Seconds,
}

#[derive(Debug)]
pub struct Found {
    pub answer: Answer,
    pub line: Vec<Move>,
    /// positions recorded (the root included)
    pub states: u64,
    pub stopped_by: Option<Stop>,
    /// the largest the tables grew, in bytes (their allocated capacity)
    pub table_bytes: usize,
}

/// An expanded position on the path: its key, the lowest order it reaches, the moves from its
/// parent (where they lie in the parent's `lines`) and its children not yet searched, best
/// last (None until it is expanded). A child waiting is kept as its line and key alone, and
/// made again from this position if the search goes there: most children are never entered
/// (met again closed, or the search answers first). The lines of a frame's children lie one
/// after another in its `lines`, so that keeping a child allocates nothing. Its piles' hashes
/// (once expanded) give those of a child entered, which hashes only the piles that differ, and
/// so do the priority's counts of its piles.
/// `same` says, by depot, whether its position holds its parent's pile (`Problem::remake`): it
/// gives the hashes, and once the frame is done its board back to the parent's for the next
/// child (`Problem::keep_near`).
struct Frame {
    state: State,
    key: Key,
    hashes: Hashes,
    counts: Counts,
    same: Vec<bool>,
    low: u32,
    moves: Line,
    lines: Vec<Move>,
    children: Option<Vec<Ranked>>,
}

/// Where a child's moves lie in its parent's `lines`: (start, end).
type Line = (u32, u32);

/// A child waiting on the path: its moves and its key.
type Ranked = (Line, Key);

fn table_bytes<T>(capacity: usize) -> usize {
    capacity * (std::mem::size_of::<T>() + 1) // one control byte an entry
}

/// A try's tables, cleared for the next try (their allocations kept).
#[derive(Default)]
pub struct Tables {
    /// positions proved lost by this try, when it may not add to the lost set (streamlined)
    local: KeySet,
    /// the positions recorded, with their priorities
    seen: KeyMap<f32>,
    /// Tarjan's bookkeeping: the order of each expanded position whose component is open,
    /// and those positions in that order
    order: KeyMap<u32>,
    open: Vec<Key>,
}

struct Search<'a, 'p> {
    problem: &'p mut Problem<'a>,
    keyer: &'p mut Keyer<'a>,
    lost: &'p mut KeySet,
    record: bool,
    t: &'p mut Tables,
    deadline: Instant,
    tick: u32,
    max_states: u64,
    peak: usize,
    /// an expansion's children as they are ranked, and the frames' lists of children done
    /// with, kept for their allocations
    ranks: Vec<(f32, u32)>,
    kept: Vec<Ranked>,
    spare: Vec<Vec<Ranked>>,
    spare_hashes: Vec<Hashes>,
    spare_counts: Vec<Counts>,
    spare_same: Vec<Vec<bool>>,
}

enum Halt {
    Answer(Answer, Vec<Move>, Option<Stop>),
    Engine(ExprError),
}

impl From<ExprError> for Halt {
    fn from(e: ExprError) -> Halt {
        Halt::Engine(e)
    }
}

/// Whether `k` is proved lost: in the shared lost set, or in this try's own when it may not
/// add to that (streamlined).
fn is_closed(lost: &KeySet, local: &KeySet, record: bool, k: &Key) -> bool {
    lost.contains(k) || (!record && local.contains(k))
}

/// `k` proved lost: into the shared lost set when the try may add to it, else its own.
fn close_in(lost: &mut KeySet, local: &mut KeySet, record: bool, k: Key) {
    if record {
        lost.insert(k);
    } else {
        local.insert(k);
    }
}

impl Search<'_, '_> {
    fn closed(&self, k: &Key) -> bool {
        is_closed(self.lost, &self.t.local, self.record, k)
    }

    fn close(&mut self, k: Key) {
        close_in(self.lost, &mut self.t.local, self.record, k);
    }

    fn late(&mut self) -> bool {
        self.tick += 1;
        self.tick.is_multiple_of(CLOCK_EVERY) && clock::past(self.deadline)
    }

    fn bytes(&self) -> usize {
        table_bytes::<(Key, f32)>(self.t.seen.capacity()) + table_bytes::<Key>(self.lost.capacity())
            + table_bytes::<Key>(self.t.local.capacity()) + table_bytes::<(Key, u32)>(self.t.order.capacity())
    }

    /// The children of the last frame, ranked: those closed, open or lost skipped, a won one
    /// ending the search. Returns the lowest order the frame reaches through open positions.
    /// Each child is keyed and ranked as the problem makes it, on the problem's board.
    fn expand(&mut self, path: &[Frame], lines: &mut Vec<Move>) -> Result<(Vec<Ranked>, u32), Halt> {
        let here = self.t.order.len() as u32;
        let frame = path.last().expect("a frame");
        self.t.order.insert(frame.key, here);
        self.t.open.push(frame.key);
        let mut low = here;
        match path.len().checked_sub(2).map(|i| &path[i]) {
            Some(up) => self.keyer.parent_near(&up.hashes, &up.state, &frame.state, &frame.same),
            None => self.keyer.parent(&frame.state),
        }
        let (mut ranks, mut kept) = (std::mem::take(&mut self.ranks), std::mem::take(&mut self.kept));
        ranks.clear();
        kept.clear();
        let parent = &frame.state;
        let (keyer, t, record, max_states) = (&mut *self.keyer, &mut *self.t, self.record, self.max_states);
        let lost = &mut *self.lost;
        let (tick, deadline) = (&mut self.tick, self.deadline);
        let mut visit = |ranker: &mut Ranker<'_>, line: &[Move], state: &State, same: &[bool]| {
            *tick += 1;
            if tick.is_multiple_of(CLOCK_EVERY) && clock::past(deadline) {
                return Err(Halt::Answer(Answer::Unknown, Vec::new(), Some(Stop::Seconds)));
            }
            let k = keyer.child(parent, state, same);
            if is_closed(lost, &t.local, record, &k) {
                return Ok(());
            }
            if let Some(&at) = t.order.get(&k) {
                low = low.min(at);
                return Ok(());
            }
            let rank = match t.seen.get(&k) {
                Some(&rank) => rank,
                None => {
                    if t.seen.len() as u64 >= max_states {
                        return Err(Halt::Answer(Answer::Unknown, Vec::new(), Some(Stop::States)));
                    }
                    if state.status == WON {
                        let mut won = path_line(path);
                        won.extend_from_slice(line);
                        return Err(Halt::Answer(Answer::Won, won, None));
                    }
                    if state.status == LOST {
                        t.seen.insert(k, 0.0);
                        close_in(lost, &mut t.local, record, k);
                        return Ok(());
                    }
                    let rank = ranker.priority(state, same);
                    t.seen.insert(k, rank);
                    rank
                }
            };
            ranks.push((rank, kept.len() as u32));
            let start = lines.len() as u32;
            lines.extend_from_slice(line);
            kept.push(((start, lines.len() as u32), k));
            Ok(())
        };
        let near = path.len().checked_sub(2).map(|i| (&path[i].counts, frame.same.as_slice()));
        self.problem.successors(parent, near, &mut visit)?;
        // best last; ties keep the successor order (the earlier is searched first)
        ranks.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        let mut children = self.spare.pop().unwrap_or_default();
        children.clear();
        children.extend(ranks.iter().map(|&(_, i)| kept[i as usize]));
        (self.ranks, self.kept) = (ranks, kept);
        Ok((children, low))
    }

    /// A frame done with: its buffers kept for the next ones; its board, when `near` (its
    /// parent is the last frame now), kept to be made the parent's next child.
    fn recycle(&mut self, frame: Frame, near: bool) {
        self.problem.recycle_line(frame.lines);
        if near {
            self.problem.keep_near(frame.state, &frame.same);
        } else {
            self.problem.recycle_state(frame.state);
        }
        if let Some(children) = frame.children {
            self.spare.push(children);
        }
        self.spare_hashes.push(frame.hashes);
        self.spare_counts.push(frame.counts);
        self.spare_same.push(frame.same);
    }

    /// Search from `root`; the path's positions go back to the problem's buffers whatever
    /// the answer.
    fn run(&mut self, root: &State) -> Result<Answer, Halt> {
        let mut path = Vec::new();
        let answer = self.walk(root, &mut path);
        for frame in path {
            self.recycle(frame, false);
        }
        answer
    }

    /// A frame for `state`, reached by `moves` (in its parent's lines), `same` its depots
    /// that hold its parent's piles.
    fn frame(&mut self, state: State, key: Key, moves: Line, same: Vec<bool>) -> Frame {
        let mut lines = self.problem.spare_line();
        lines.clear();
        let hashes = self.spare_hashes.pop().unwrap_or_default();
        let counts = self.spare_counts.pop().unwrap_or_default();
        Frame { state, key, hashes, counts, same, low: 0, moves, lines, children: None }
    }

    fn walk(&mut self, root: &State, path: &mut Vec<Frame>) -> Result<Answer, Halt> {
        let root_key = self.keyer.key(root);
        self.t.seen.insert(root_key, 0.0);
        if self.closed(&root_key) {
            return Ok(Answer::Lost);
        }
        if root.status == WON {
            return Err(Halt::Answer(Answer::Won, Vec::new(), None));
        }
        if root.status == LOST {
            self.close(root_key);
            return Ok(Answer::Lost);
        }
        let first = self.frame(root.clone(), root_key, (0, 0), Vec::new());
        path.push(first);
        while !path.is_empty() {
            if self.late() {
                return Err(Halt::Answer(Answer::Unknown, Vec::new(), Some(Stop::Seconds)));
            }
            if path.last().is_some_and(|f| f.children.is_none()) {
                let mut lines = std::mem::take(&mut path.last_mut().expect("a frame").lines);
                let expanded = self.expand(path, &mut lines);
                let top = path.last_mut().expect("a frame");
                top.lines = lines;
                let (children, low) = expanded?;
                self.keyer.save(&mut top.hashes);
                self.problem.save_counts(&mut top.counts);
                top.children = Some(children);
                top.low = low;
                self.peak = self.peak.max(self.bytes());
            }
            // the next child not expanded meanwhile below a sibling
            let mut next = None;
            let top = path.last_mut().expect("a frame");
            let children = top.children.as_mut().expect("expanded");
            while let Some((moves, k)) = children.pop() {
                if self.closed(&k) {
                    continue;
                }
                match self.t.order.get(&k) {
                    None => {
                        next = Some((moves, k));
                        break;
                    }
                    Some(&at) => top.low = top.low.min(at),
                }
            }
            match next {
                Some((moves, key)) => {
                    let line = &top.lines[moves.0 as usize..moves.1 as usize];
                    let mut same = self.spare_same.pop().unwrap_or_default();
                    let state = self.problem.remake(&top.state, line, &mut same)?;
                    let frame = self.frame(state, key, moves, same);
                    path.push(frame);
                }
                None => {
                    let done = path.pop().expect("a frame");
                    let (done_low, done_key) = (done.low, done.key);
                    self.recycle(done, !path.is_empty());
                    if Some(&done_low) == self.t.order.get(&done_key) {
                        // the first of a component searched to the end: every member is lost
                        while let Some(k) = self.t.open.pop() {
                            self.t.order.remove(&k);
                            self.close(k);
                            if k == done_key {
                                break;
                            }
                        }
                    } else if let Some(parent) = path.last_mut() {
                        parent.low = parent.low.min(done_low);
                    }
                }
            }
        }
        Ok(Answer::Lost)
    }
}

/// The moves from the root to the last frame of `path`.
fn path_line(path: &[Frame]) -> Vec<Move> {
    path.windows(2).flat_map(|w| w[0].lines[w[1].moves.0 as usize..w[1].moves.1 as usize].iter().copied()).collect()
}

/// One try: search `root` until a won position, exhaustion, or a budget runs out, skipping
/// the positions of `lost` and adding those it proves lost when `record`.
#[allow(clippy::too_many_arguments)]
pub fn search<'a>(problem: &mut Problem<'a>, keyer: &mut Keyer<'a>, tables: &mut Tables, root: &State, max_states: u64,
                  deadline: Instant, lost: &mut KeySet, record: bool) -> Result<Found, ExprError> {
    tables.local.clear();
    tables.seen.clear();
    tables.order.clear();
    tables.open.clear();
    let mut s = Search { problem, keyer, lost, record, t: tables, deadline, tick: 0, max_states: max_states.max(1), peak: 0,
                        ranks: Vec::new(), kept: Vec::new(), spare: Vec::new(), spare_hashes: Vec::new(), spare_counts: Vec::new(),
                        spare_same: Vec::new() };
    let (answer, line, stopped_by) = match s.run(root) {
        Ok(answer) => (answer, Vec::new(), None),
        Err(Halt::Answer(answer, line, stop)) => (answer, line, stop),
        Err(Halt::Engine(e)) => return Err(e),
    };
    let table_bytes = s.peak.max(s.bytes());
    Ok(Found { answer, line, states: s.t.seen.len() as u64, stopped_by, table_bytes })
}

/// Whether `line` is legal move after move from `root` and ends on a won board, each move
/// judged afresh by the engine (listed, or legal alone) and played as `Game::apply_legal`
/// plays it: a won line checked without the search's keys or its own making of children.
pub fn replays_to_win(game: &Game, root: &State, line: &[Move]) -> Result<bool, ExprError> {
    let mut s = root.clone();
    let mut listed = Vec::new();
    for &m in line {
        listed.clear();
        game.list_moves(&s, &mut listed)?;
        if !listed.contains(&m) && !game.legal(&s, m)? {
            return Ok(false);
        }
        s = game.apply_legal(&s, m)?;
    }
    Ok(s.status == WON)
}

/// (weights, streamlined, noise seed) of try `i`: the orders without noise, the streamlined
/// try after the first round if there is one, then the orders again and again with new noise.
fn tries(orders: &[Weights], first: Weights, streamlined: bool) -> impl Iterator<Item = (Weights, bool, u64)> + '_ {
    (0..).flat_map(move |i: usize| {
        let extra = (i == orders.len() && streamlined).then_some((first, true, 0));
        extra.into_iter().chain(std::iter::once((orders[i % orders.len()], false, (i / orders.len()) as u64)))
    })
}

/// `planners/solver.py::solve` on the native engine: the series of short tries sharing the
/// positions proved lost. `states` in the answer adds up every try's and never exceeds
/// `max_states`. `buffers`: the boards and lines of an earlier call, handed back for the next
/// one (a caller solving deal after deal allocates them once).
pub fn solve(game: &Game, plan: &Plan, root: &State, max_states: u64, timeout: Duration, buffers: &mut Buffers)
             -> Result<Found, ExprError> {
    let start = Instant::now();
    let hidden = root.piles.iter().enumerate().any(|(i, p)| !plan.draws[i] && p.iter().any(|&c| c & 1 == 0));
    let t = &plan.tries;
    let mut orders = t.orderings.clone();
    if hidden {
        orders.extend_from_slice(&t.face_down);
    }
    let (mut size_states, mut size_seconds) = (max_states / t.share, timeout / t.share as u32);
    if size_states < t.min_states {
        (size_states, size_seconds) = (max_states, timeout);
    }
    let mut keyer = Keyer::new(&plan.key);
    let mut lost = KeySet::default();
    let kept = buffers;
    let mut buffers = std::mem::take(kept);
    let mut tables = Tables::default();
    let (mut spent, mut peak) = (0u64, 0usize);
    let mut found: Option<Found> = None;
    // a greedy try searched its whole graph without a win: the greedy orders search exactly
    let mut greedy_spent = false;
    for (weights, streamline, noise) in tries(&orders, t.orderings[0], plan.streamline) {
        let states = size_states.min(max_states - spent);
        let seconds = size_seconds.min(timeout.saturating_sub(start.elapsed()));
        if states < 1 || seconds.is_zero() {
            break;
        }
        let weights = Weights { greedy: weights.greedy && !greedy_spent, ..weights };
        let before = lost.len() as u64;
        // a streamlined or greedy try reads the positions proved lost, adds none, counts if won
        let exact = !streamline && !weights.greedy;
        let mut problem = Problem::new(game, plan, weights, streamline, noise, std::mem::take(&mut buffers));
        let got = search(&mut problem, &mut keyer, &mut tables, root, states, Instant::now() + seconds, &mut lost, exact)?;
        buffers = problem.buffers();
        spent += got.states;
        peak = peak.max(got.table_bytes);
        let answered = got.answer == Answer::Won || (got.answer != Answer::Unknown && exact);
        let proved = lost.len() as u64 - before;
        greedy_spent |= weights.greedy && !streamline && got.answer != Answer::Unknown;
        found = if !exact && !answered { None } else { Some(got) };
        if answered {
            break;
        }
        if exact && 2 * proved < found.as_ref().map_or(0, |f| f.states) {
            (size_states, size_seconds) = (2 * size_states, 2 * size_seconds);
        }
    }
    let (answer, line) = match found {
        Some(f) => (f.answer, f.line),
        None => (Answer::Unknown, Vec::new()),
    };
    let stopped_by = (answer == Answer::Unknown).then_some(if spent >= max_states { Stop::States } else { Stop::Seconds });
    *kept = buffers;
    Ok(Found { answer, line, states: spent, stopped_by, table_bytes: peak })
}
