//! What a program reads of the position, worked out from its tree at load: the piles it may
//! read (each named by a constant depot, the program's own depot, or a loop's item over a
//! constant list of depots), the depots whose `cameFrom` it reads (named the same ways), and
//! whether it reads the bound group or source. A program that reads anything else of the
//! position (a pile at a depot worked out from the board, a counter, `cameFrom` of such a
//! depot, a Python call-back) has no footprint: only the whole position says
//! what it gives. With the same bound card and top card, a program gives the same value (or
//! the same error) on two positions whose footprint piles and `cameFrom`s are the same.
//!
//! The footprint is taken before `loops::rewrite`, which changes how a loop runs and never what
//! its value reads, so the program as it runs reads no pile outside it.

use super::fold::kids;
use super::parse::{Binding, Const, Node, Prim};

/// What a program with a footprint reads besides the bound card and top card.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Footprint {
    /// the depots whose piles it may read, in order, each once
    pub depots: Vec<usize>,
    /// it reads the bound group (`pile`)
    pub pile: bool,
    /// it reads the bound source depot
    pub source: bool,
    /// the depots whose `cameFrom` it reads, in order, each once
    pub came_from: Vec<usize>,
}

/// The footprint of `root`, a program of `slots` slots run with `depot` bound to `own`
/// (None: any depot); None when it reads what no footprint names.
pub(super) fn footprint(root: &Node, own: Option<i32>, slots: usize) -> Option<Footprint> {
    let mut walk = Walk { own, slots: vec![None; slots], out: Footprint::default() };
    walk.node(root)?;
    let mut out = walk.out;
    once_each(&mut out.depots);
    once_each(&mut out.came_from);
    Some(out)
}

/// `ds` without its repeats, in the order each first comes.
fn once_each(ds: &mut Vec<usize>) {
    let mut seen = Vec::new();
    ds.retain(|&d| {
        let first = !seen.contains(&d);
        seen.push(d);
        first
    });
}

struct Walk {
    own: Option<i32>,
    slots: Vec<Option<Vec<i32>>>, // per slot, the depots it holds while the walk is in its scope
    out: Footprint,
}

impl Walk {
    /// The depots the value of `n` may be, when the tree says: None when only the board does.
    fn depots(&self, n: &Node) -> Option<Vec<i32>> {
        match n {
            Node::Const(Const::Int(d)) => Some(vec![i32::try_from(*d).unwrap_or(-1)]),
            Node::Const(Const::List(ds)) => Some(ds.clone()),
            Node::Var(slot) => self.slots.get(*slot).cloned().flatten(),
            Node::Bind(Binding::Depot) => self.own.map(|d| vec![d]),
            Node::Depots(x) => self.depots(x),
            // one of its items, or none (-1)
            Node::Call(Prim::FirstDepot, args) => self.depots(args.first()?),
            _ => None,
        }
    }

    /// The piles at the depots `n` may be (no depot, a negative one, reads no pile).
    fn read(&mut self, n: &Node) -> Option<()> {
        let ds = self.depots(n)?;
        self.out.depots.extend(ds.into_iter().filter_map(|d| usize::try_from(d).ok()));
        Some(())
    }

    fn node(&mut self, n: &Node) -> Option<()> {
        match n {
            Node::Counter(_) | Node::Host(_) | Node::Sieved(..) | Node::In(..) => return None,
            Node::Call(Prim::CameFrom, args) => {
                let ds = self.depots(args.first()?)?;
                self.out.came_from.extend(ds.into_iter().filter_map(|d| usize::try_from(d).ok()));
            }
            Node::Bind(Binding::Pile) | Node::BoundPile(_) => self.out.pile = true,
            Node::Bind(Binding::Source) => self.out.source = true,
            Node::CardsAt(d) => self.out.depots.push(*d),
            Node::Pile(_, d) | Node::Cards(d) | Node::CardsOf(d) => self.read(d)?,
            Node::Let(slot, value, body) => {
                self.node(value)?;
                return self.scoped(*slot, self.depots(value), body);
            }
            Node::Call(_, args) => {
                if let [items, Node::Each(slot, body)] = &**args {
                    self.node(items)?;
                    return self.scoped(*slot, self.depots(items), body);
                }
            }
            _ => {}
        }
        kids(n).into_iter().try_for_each(|k| self.node(k))
    }

    /// `body` walked with `slot` holding one of `depots` (None: a value the board gives).
    fn scoped(&mut self, slot: usize, depots: Option<Vec<i32>>, body: &Node) -> Option<()> {
        let held = self.slots.get_mut(slot)?;
        let before = std::mem::replace(held, depots);
        let walked = self.node(body);
        self.slots[slot] = before;
        walked
    }
}
