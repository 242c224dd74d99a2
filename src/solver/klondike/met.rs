//! The Klondike model's table of positions met (docs/solver.md, section 8). While it is small
//! it is a standard hash map, the quickest in the caches; past `SMALL_MOST` positions its
//! entries move to open addressing with linear probing over 16-byte slots, a key's kept 96 bits
//! and its mark side by side. A look-up there reads one slot, most often within one cache line,
//! and since a slot's place follows from the key alone the search can ask for a child's line
//! ahead of its look-up (`warm`), which a long search, whose table lies far beyond the caches,
//! waits on otherwise.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::solver::search::KeyHash;

/// A key as the table keeps it: 96 of its 128 bits, in words of 4 bytes, so that a slot (key and
/// mark) takes 16 bytes. Two positions of a search share 96 bits by chance with odds of about
/// n² in 2^97 (about 1e-14 at 50 million positions).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Kept([u32; 3]);

impl Kept {
    pub fn of(key: u128) -> Kept {
        Kept([key as u32, (key >> 32) as u32, (key >> 64) as u32])
    }

    /// Keys are random words already: the low 64 bits are the hash.
    fn low(&self) -> u64 {
        u64::from(self.0[0]) | u64::from(self.0[1]) << 32
    }
}

impl Hash for Kept {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.low());
    }
}

#[derive(Clone, Copy)]
struct Slot {
    key: Kept,
    mark: u32,
}

/// A slot's mark when it holds no position (the search's marks stay below it).
pub const FREE: u32 = u32::MAX - 1;

const EMPTY: Slot = Slot { key: Kept([0; 3]), mark: FREE };

/// Most positions the slots hold, in eighths of them, before they double: at three quarters a
/// look-up of a key not held passes over about eight slots on average, two or three cache lines
/// (and one of a key held, about two and a half slots).
const MAX_LOAD_EIGHTHS: usize = 6;

/// The most positions the standard map holds before they move to slots: with its entries of 16
/// bytes and a control byte, about 400 KiB, near what the caches nearest the core hold.
const SMALL_MOST: usize = 24_576;

/// The slots the map's entries move to: enough for them without doubling.
const FIRST_SLOTS: usize = (SMALL_MOST * 8 / MAX_LOAD_EIGHTHS + 1).next_power_of_two();

pub struct Met {
    small: HashMap<Kept, u32, BuildHasherDefault<KeyHash>>,
    /// `SMALL_MOST`, but for tests
    small_most: usize,
    /// none until the map's entries move to them; then every position, `len` of them
    slots: Vec<Slot>,
    len: usize,
}

impl Default for Met {
    fn default() -> Met {
        Met { small: HashMap::default(), small_most: SMALL_MOST, slots: Vec::new(), len: 0 }
    }
}

impl Met {
    fn home(&self, key: &Kept) -> usize {
        key.low() as usize & (self.slots.len() - 1)
    }

    /// Where `key` lies (Ok) or where it would go (Err); the table has a free slot.
    fn find(&self, key: &Kept) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut at = self.home(key);
        loop {
            let slot = &self.slots[at];
            if slot.mark == FREE {
                return Err(at);
            }
            if slot.key == *key {
                return Ok(at);
            }
            at = (at + 1) & mask;
        }
    }

    #[inline]
    pub fn get(&self, key: &Kept) -> Option<u32> {
        if !self.large() {
            return self.small.get(key).copied();
        }
        self.find(key).ok().map(|at| self.slots[at].mark)
    }

    /// `key` with `mark` (below `FREE`), in place of its mark if it is held.
    #[inline]
    pub fn insert(&mut self, key: Kept, mark: u32) {
        debug_assert!(mark != FREE, "FREE marks a free slot");
        if self.large() {
            self.insert_slot(key, mark);
        } else {
            self.small.insert(key, mark);
            if self.small.len() > self.small_most {
                self.move_to_slots();
            }
        }
    }

    /// The map's entries into slots, which then take every position.
    #[cold]
    fn move_to_slots(&mut self) {
        self.len = 0;
        for (key, mark) in std::mem::take(&mut self.small) {
            self.insert_slot(key, mark);
        }
    }

    fn insert_slot(&mut self, key: Kept, mark: u32) {
        if (self.len + 1) * 8 > self.slots.len() * MAX_LOAD_EIGHTHS {
            self.grow();
        }
        match self.find(&key) {
            Ok(at) => self.slots[at].mark = mark,
            Err(at) => {
                self.slots[at] = Slot { key, mark };
                self.len += 1;
            }
        }
    }

    fn grow(&mut self) {
        let slots = (self.slots.len() * 2).max(FIRST_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; slots]);
        for slot in old.into_iter().filter(|s| s.mark != FREE) {
            let at = self.find(&slot.key).expect_err("each key once");
            self.slots[at] = slot;
        }
    }

    /// `key` taken out; the slots after it that would be found past its place move back, so
    /// that every key held is still reached from its home without a free slot between.
    pub fn remove(&mut self, key: &Kept) {
        if !self.large() {
            self.small.remove(key);
            return;
        }
        let Ok(mut hole) = self.find(key) else { return };
        let mask = self.slots.len() - 1;
        self.len -= 1;
        let mut at = hole;
        loop {
            at = (at + 1) & mask;
            let slot = self.slots[at];
            if slot.mark == FREE {
                break;
            }
            // the slot may fill the hole unless its home lies cyclically in (hole, at]
            let home = self.home(&slot.key);
            if (at.wrapping_sub(home) & mask) >= (at.wrapping_sub(hole) & mask) {
                self.slots[hole] = slot;
                hole = at;
            }
        }
        self.slots[hole] = EMPTY;
    }

    /// Every position forgotten; a table in slots stays in them, its allocation kept.
    pub fn clear(&mut self) {
        self.small.clear();
        self.slots.fill(EMPTY);
        self.len = 0;
    }

    /// Whether the table is in slots: past the caches nearest the core, where a look-up that is
    /// not asked for ahead (`warm`) waits on a slower one or on memory.
    #[inline]
    pub fn large(&self) -> bool {
        !self.slots.is_empty()
    }

    /// Asks for the cache line of `key`'s home slot and the line after it, so that a look-up
    /// of it soon after does not wait on memory: a look-up passes over a few slots, and from a
    /// home in a line's last slots it runs on into the next line. Only a hint: it reads and
    /// changes nothing.
    pub fn warm(&self, key: &Kept) {
        #[cfg(target_arch = "x86_64")]
        if self.large() {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot: *const Slot = &self.slots[self.home(key)];
            // SAFETY: every x86_64 target has SSE, and a prefetch reads and writes nothing, even
            // of an address past the slots (the home's line is the last)
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(slot.cast());
                _mm_prefetch::<_MM_HINT_T0>(slot.cast::<u8>().wrapping_add(64).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn a_slot_is_16_bytes_and_a_key_its_low_96_bits() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        let mut met = Met::default();
        let key = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
        met.insert(Kept::of(key), 7);
        for bit in [0, 31, 32, 63, 64, 95] {
            assert_eq!(met.get(&Kept::of(key ^ 1 << bit)), None, "bit {bit} is kept");
        }
        assert_eq!(met.get(&Kept::of(key ^ 1 << 96 ^ 1 << 127)), Some(7), "the top 32 bits are not");
    }

    /// Inserts, new marks, removals and clears agree with a standard map at every step: over
    /// keys that crowd a few homes (so that runs wrap and removals shift them back) and keys
    /// spread over the table, through the move to slots and their growth; and below the move.
    #[test]
    fn the_table_holds_what_a_map_holds() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for (crowded, small_most) in [(true, 100), (false, 2_000), (false, SMALL_MOST)] {
            let (mut met, mut map) = (Met { small_most, ..Met::default() }, HashMap::new());
            let mut keys = Vec::new();
            for step in 0..if crowded { 4_000u32 } else { 20_000 } {
                let r = next();
                if r % 7 == 0 && !keys.is_empty() {
                    let k: Kept = keys[(r >> 8) as usize % keys.len()];
                    met.remove(&k);
                    map.remove(&k.0);
                } else {
                    // crowded keys have one of four hashes (bits 0-63) and one home, the
                    // last slot: their run wraps to the first
                    let low = if crowded { ((r >> 32) % 4) << 40 | 0xffff_ffff } else { r };
                    let k = Kept::of(u128::from(low) | u128::from(next()) << 64);
                    let mark = step % 1_000;
                    met.insert(k, mark);
                    map.insert(k.0, mark);
                    keys.push(k);
                }
                if step % 1_500 == 1_499 && crowded {
                    met.clear();
                    map.clear();
                }
                let held = if met.large() { met.len } else { met.small.len() };
                assert_eq!(held, map.len());
            }
            assert_eq!(met.large(), small_most < SMALL_MOST, "the entries moved to slots");
            for k in &keys {
                assert_eq!(met.get(k), map.get(&k.0).copied());
            }
        }
    }
}
