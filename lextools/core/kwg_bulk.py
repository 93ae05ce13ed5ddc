"""The KWG encoder's bulk work in numpy: the GADDAG's lists made from the DAWG's, and the layout.

Only :mod:`lextools.core.kwg`'s encoder imports this module (lazily), so a look-up never loads numpy.

**The GADDAG.** Its keys are every reversed prefix ``rev(p)`` of a word, followed by the separator
and the DAWG list after ``p`` when ``p`` has one (see :mod:`lextools.core.kwg`). Their trie is made
a length at a time, every prefix of the DAWG at once: a row per prefix ``p``, holding the trie node
of the last ``j`` tiles of ``p`` reversed and the prefix before them; a length further, each row's
next tile is looked up among (node, tile) pairs as an array, and a row whose prefix is used up marks
its node: a word ends there, the separator leads to that list. The trie's nodes are then made lists
from the deepest up, each list interned as wolges keeps them — a chain of states, ``(node, next)``
pairs, tail first — so equal lists and equal tails are one state, and a list may equal one of the
DAWG half's.

**The same state ids as a walk.** The layout points each tail into the list of its highest-id
predecessor, so the bytes depend on the order the states get their ids. The encoder used to number
them in a depth-first walk of the GADDAG automaton (children in ascending tile order, a state
numbered when its children are, each list's tail first, a state seen before skipped). That order is
computed here without the walk: a list is first completed at its first trie node in post-order, so
a new state's rank is the least post-order index of the trie nodes whose chain holds it, then its
distance from the chain's end (shorter tails first).

**The layout** (:func:`layout`): a breadth-first order of the lists,
made a level at a time; the chain each list ends, found by following each state's highest-id
predecessor up to a state that is nobody's tail; the one loop left in Python marks which chains are
written, then the nodes are written as arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from lextools.core.errors import ExportFormatError

Ints = NDArray[np.signedinteger[Any]]

ACCEPTS = 0x800000
IS_END = 0x400000
ARC_MASK = 0x3FFFFF
MAX_NODES = 0x400000
#: Bits of a state id in an interning key: ``node << _NEXT_BITS | next``.
_NEXT_BITS = 22


def _ints(values: Sequence[int]) -> Ints:
    return np.asarray(values, dtype=np.int64)


def states(values: Sequence[int]) -> Ints:
    """An array of the encoder's (``array.array`` of node values or nexts) as numpy's int64."""
    return _ints(values)


def _too_many() -> ExportFormatError:
    return ExportFormatError(f"the graph has more nodes than a KWG can hold ({MAX_NODES:,})")


# -- the DAWG's prefixes --------------------------------------------------------------------------


def _walk_lists(node: Ints, nxt: Ints, heads: Ints) -> tuple[Ints, Ints]:
    """Every node of the lists at ``heads`` (0: none), in order: (index of its head in ``heads``, state)."""
    owners, states = [], []
    idx = np.flatnonzero(heads)
    cur = heads[idx]
    while cur.size:
        owners.append(idx)
        states.append(cur)
        cur = nxt[cur]
        keep = cur != 0
        idx, cur = idx[keep], cur[keep]
    if not owners:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    owner = np.concatenate(owners)
    order = np.argsort(owner, kind="stable")  # by head, each list in its own order
    return owner[order], np.concatenate(states)[order]


def _prefixes(node: Ints, nxt: Ints, root: int) -> tuple[Ints, Ints, Ints]:
    """The DAWG's prefixes, numbered from 1 a length at a time (0 is the empty prefix): the parent,
    tile and node value (accepts, list after) of each, index = number."""
    parent, tile, value = [_ints([0])], [_ints([0])], [_ints([0])]
    heads, first = _ints([root]), 0
    while True:
        owner, states = _walk_lists(node, nxt, heads)
        if not owner.size:
            break
        v = node[states]
        parent.append(owner + first)
        tile.append(v >> 24)
        value.append(v)
        first += heads.size
        heads = v & ARC_MASK
    return np.concatenate(parent), np.concatenate(tile), np.concatenate(value)


# -- the GADDAG's trie ----------------------------------------------------------------------------


class _Trie:
    """The GADDAG's keys as a trie, a level per length: each node's parent (in the level above) and
    tile, and what a prefix that ends on it says: a word (``accepts``), the separator's list (``sep``)."""

    def __init__(self) -> None:
        self.parent: list[Ints] = [np.zeros(1, np.int32)]
        self.tile: list[Ints] = [np.zeros(1, np.int32)]
        self.accepts: list[Ints] = []
        self.sep: list[Ints] = []


def _gaddag_trie(node: Ints, nxt: Ints, root: int, pause: Callable[[], None]) -> _Trie:
    """The trie of the GADDAG's keys (see the module docstring): a row per DAWG prefix."""
    parent, tile, value = _prefixes(node, nxt, root)
    trie = _Trie()
    width = int(tile.max()) + 1
    # int32 rows: this loop reads and writes a row per prefix per tile, memory is what it costs
    parent32, tile32 = parent.astype(np.int32), tile.astype(np.int32)
    rows = np.arange(1, parent.size, dtype=np.int32)  # the prefix each row ends with
    before = rows.copy()  # the prefix before the tiles read so far
    at = np.zeros(rows.size, np.int32)  # the trie node of the tiles read so far
    size = 1
    while rows.size:
        pause()
        key = at * width + tile32[before]
        mark = np.zeros(size * width, np.bool_)
        mark[key] = True
        found = np.flatnonzero(mark)
        number = np.empty(size * width, np.int32)
        number[found] = np.arange(found.size, dtype=np.int32)
        at, size = number[key], found.size
        trie.parent.append((found // width).astype(np.int32))
        trie.tile.append((found % width).astype(np.int32))
        before = parent32[before]
        done = before == 0
        accepts, sep = np.zeros(size, np.int32), np.zeros(size, np.int32)
        v = value[rows[done]]
        accepts[at[done]] = v & ACCEPTS
        sep[at[done]] = v & ARC_MASK
        trie.accepts.append(accepts)
        trie.sep.append(sep)
        keep = ~done
        rows, before, at = rows[keep], before[keep], at[keep]
    trie.accepts.insert(0, np.zeros(1, np.int32))
    trie.sep.insert(0, np.zeros(1, np.int32))
    return trie


# -- the lists, interned --------------------------------------------------------------------------


def groups(owner: Ints) -> tuple[Ints, Ints, Ints]:
    """Rows grouped by ``owner`` (equal owners adjacent): where each group starts, each row's group
    number and its distance from its group's last row."""
    start = np.ones(owner.size, np.bool_)
    start[1:] = owner[1:] != owner[:-1]
    group = np.cumsum(start) - 1
    starts = np.flatnonzero(start)
    last = np.append(starts[1:], owner.size) - 1
    return starts, group, last[group] - np.arange(owner.size)


def _post_order(trie: _Trie) -> list[Ints]:
    """Each trie node's index in a post-order walk, children in ascending tile order."""
    levels = len(trie.parent)
    size = [np.ones(p.size, np.int64) for p in trie.parent]
    for j in range(levels - 1, 0, -1):
        size[j - 1] += np.bincount(trie.parent[j], weights=size[j], minlength=size[j - 1].size).astype(np.int64)
    pre = [np.zeros(1, np.int64)]
    for j in range(1, levels):
        parent = trie.parent[j]
        before = np.cumsum(size[j]) - size[j]  # the sizes of the earlier nodes of the level
        starts, group, _ = groups(parent)
        pre.append(pre[j - 1][parent] + 1 + before - before[starts][group])
    return [pre[j] - j + size[j] - 1 for j in range(levels)]


class _Items:
    """Every node of every list of the trie, grouped by trie node (numbered across the levels, the
    root 0), each group in tile order, the separator first: its value is ``base`` and the state of
    the list of trie node ``child`` (``dummy``, whose list is empty, for a separator). With each, what
    orders the interning: the height of the tail it starts (the most nodes from it to a list's end,
    through its siblings and its children) and its distance from its list's end; and the post-order
    index of its trie node, which orders the ids."""

    def __init__(self, trie: _Trie) -> None:
        self.offset = np.cumsum([0, *(p.size for p in trie.parent)])
        self.dummy = int(self.offset[-1])
        post = _post_order(trie)
        parts: list[list[Ints]] = [[] for _ in range(6)]
        below = np.zeros(0, np.int64)  # the height of each node one level down
        for level in range(len(trie.parent) - 1, -1, -1):
            level_parts, below = self._level(trie, level, below)
            level_parts.append(post[level][level_parts[0]])
            level_parts[0] = self.offset[level] + level_parts[0]
            for part, values in zip(parts, level_parts, strict=True):
                part.append(values.astype(np.int32))  # six values a list node, millions: all under 2**31
        self.owner, self.base, self.child, self.from_end, self.height, self.post = map(np.concatenate, parts)

    def _level(self, trie: _Trie, level: int, below: Ints) -> tuple[list[Ints], Ints]:
        """The items of one level (owner in the level, base, child, distance from the end, height),
        and the height of each of its nodes' lists (0: empty)."""
        sep = trie.sep[level]
        has_sep = np.flatnonzero(sep)
        owner, base = [has_sep], [sep[has_sep]]
        child, height = [np.full(has_sep.size, self.dummy)], [np.ones(has_sep.size, np.int64)]
        if level + 1 < len(trie.parent):
            owner.append(trie.parent[level + 1])
            base.append(trie.tile[level + 1] << 24 | trie.accepts[level + 1])
            child.append(self.offset[level + 1] + np.arange(below.size))
            height.append(1 + below)
        order = np.argsort(np.concatenate(owner), kind="stable")
        owners = np.concatenate(owner)[order]
        starts, group, from_end = groups(owners)
        # each tail's height, the greatest of its nodes' read from the list's end, group by group
        rank = (group[-1] - group[::-1]) << 16 if group.size else group
        tail = (np.maximum.accumulate(rank | np.concatenate(height)[order][::-1]) - rank)[::-1]
        heights = np.zeros(trie.parent[level].size, np.int64)
        heights[owners[starts]] = tail[starts]
        return [owners, np.concatenate(base)[order], np.concatenate(child)[order], from_end, tail], heights


def _intern(items: _Items, node: Ints, nxt: Ints) -> tuple[Ints, Ints, Ints]:
    """Each item's state, tails interned before the lists they end, each tail after the tails of
    less height: equal tails have the same height and length, so each batch of one height and
    length is interned on its own, against the DAWG half's states. New states get provisional ids
    from ``node.size`` on; returns the items' states, each trie node's, and the keys (``node << 22 |
    next``) of the new ones."""
    known = node[1:] << _NEXT_BITS | nxt[1:]
    by_key = np.argsort(known)
    known = known[by_key]
    head = np.zeros(items.dummy + 1, np.int64)  # each trie node's state
    state = np.zeros(items.owner.size + 1, np.int64)
    batch = (items.height << 8 | items.from_end).astype(np.uint16)  # a radix sort's keys
    order = np.argsort(batch, kind="stable")
    bounds = np.flatnonzero(np.diff(batch[order])) + 1
    new_keys, fresh = [], node.size
    for rows in np.split(order, bounds):
        after = state[rows + 1] if items.from_end[rows[0]] else 0
        keys = (items.base[rows] | head[items.child[rows]]) << _NEXT_BITS | after
        by_value = np.argsort(keys)
        ordered = keys[by_value]
        first = np.ones(keys.size, np.bool_)
        first[1:] = ordered[1:] != ordered[:-1]
        unique = ordered[first]
        at = np.searchsorted(known, unique).clip(max=max(known.size - 1, 0))
        ids = np.where(known[at] == unique, by_key[at] + 1, 0) if known.size else np.zeros(unique.size, np.int64)
        fresh_keys = unique[ids == 0]
        ids[ids == 0] = np.arange(fresh, fresh + fresh_keys.size)
        fresh += fresh_keys.size
        new_keys.append(fresh_keys)
        state[rows[by_value]] = ids[np.cumsum(first) - 1]
        head[items.owner[rows]] = state[rows]  # the last written for a trie node is its list's first node
    if fresh - 1 > ARC_MASK:  # ids live in the arc field until the layout
        raise _too_many()
    return state[:-1], head, np.concatenate(new_keys)


def _renumber(items: _Items, state: Ints, keys: Ints, first: int) -> tuple[Ints, Ints, Ints]:
    """The new states numbered as the depth-first walk numbers them (module docstring): the final
    id of every provisional one, and the node value and next of each new state in final order."""
    count = keys.size
    least = np.full(first + count, np.iinfo(np.int32).max, np.int32)  # as the posts: ufunc.at's fast path
    np.minimum.at(least, state, items.post)
    tail = np.zeros(first + count, np.int64)
    tail[state] = items.from_end
    provisional = np.arange(first, first + count)
    rank = np.empty(count, np.int64)
    rank[np.lexsort((tail[provisional], least[provisional]))] = np.arange(count)
    final = np.arange(first + count, dtype=np.int64)
    final[provisional] = first + rank
    value = np.empty(count, np.int64)
    after = np.empty(count, np.int64)
    value[rank] = keys >> _NEXT_BITS
    after[rank] = final[keys & ARC_MASK]
    return final, (value & ~ARC_MASK) | final[value & ARC_MASK], after


def gaddag_states(node: Ints, nxt: Ints, root: int, pause: Callable[[], None]) -> tuple[Ints, Ints, int]:
    """The GADDAG of the DAWG whose lists are the states ``node``/``nxt`` (root list ``root``): the
    node values and nexts of the DAWG's states and the GADDAG's after them, and the GADDAG's root."""
    if not root:  # no words: the GADDAG is the empty list too
        return node, nxt, 0
    trie = _gaddag_trie(node, nxt, root, pause)
    pause()
    items = _Items(trie)
    del trie  # the items hold all the rest needs
    pause()
    state, head, keys = _intern(items, node, nxt)
    pause()
    final, value, after = _renumber(items, state, keys, node.size)
    return np.concatenate((node, value)), np.concatenate((nxt, after)), int(final[head[0]])


# -- the layout -----------------------------------------------------------------------------------


def _breadth_first(node: Ints, nxt: Ints, roots: Ints) -> Ints:
    """The lists in breadth-first order from ``roots``, each list's children in its order, each list
    once (where first reached), the empty list (0) never."""
    seen = np.zeros(node.size, np.bool_)
    seen[0] = True
    levels = []
    frontier = roots
    while frontier.size:
        frontier = frontier[~seen[frontier]]
        _, first = np.unique(frontier, return_index=True)
        frontier = frontier[np.sort(first)]
        seen[frontier] = True
        levels.append(frontier)
        _, states = _walk_lists(node, nxt, frontier)
        frontier = node[states] & ARC_MASK
    return np.concatenate(levels)


def _tops(nxt: Ints) -> Ints:
    """Each state's chain: following its highest-id predecessor (the state whose next it is) up to
    a state that is nobody's next."""
    count = nxt.size
    prev = np.zeros(count, np.int64)
    np.maximum.at(prev, nxt[1:], np.arange(1, count, dtype=np.int64))
    prev[0] = 0
    top = np.arange(count, dtype=np.int64)
    active = np.flatnonzero(prev)
    while active.size:
        top[active] = prev[top[active]]
        active = active[prev[top[active]] != 0]
    return top


def _chains(order: Ints, top: Ints, nxt: Ints) -> list[int]:
    """The chains written, in order: for each list of ``order`` not yet written, the chain it ends.
    A chain written makes every state of it written, and each state after a written one is."""
    written = bytearray(nxt.size)
    written[0] = 1
    after, chains = nxt.tolist(), []
    for state, chain in zip(order.tolist(), top[order].tolist(), strict=True):
        if written[state]:
            continue
        chains.append(chain)
        while not written[chain]:
            written[chain] = 1
            chain = after[chain]
    return chains


def layout(node_a: Ints, nxt_a: Ints, roots: Sequence[int]) -> NDArray[np.uint32]:
    """The node array: a header node per root, then the lists in breadth-first order from the roots.

    A list is written as the whole chain it is the tail of (found through one predecessor per
    state, the highest-id one, up to a state that is nobody's tail), so a tail already written is
    pointed into, not written again; a chain whose tail is also another chain's is written in full,
    since a list must be contiguous — the same node count as wolges' buildlex for the same states.
    """
    roots_a = _ints(roots)
    chains = _ints(_chains(_breadth_first(node_a, nxt_a, roots_a), _tops(nxt_a), nxt_a))
    length = np.zeros(chains.size, np.int64)
    cur, idx = chains, np.arange(chains.size)
    while idx.size:
        length[idx] += 1
        cur = nxt_a[cur]
        keep = cur != 0
        cur, idx = cur[keep], idx[keep]
    size = roots_a.size + int(length.sum())
    if size > MAX_NODES:
        raise ExportFormatError(f"the graph needs {size:,} nodes; a KWG holds at most {MAX_NODES:,}")
    start = roots_a.size + np.cumsum(length) - length
    states = np.zeros(size, np.int64)
    cur, idx, step = chains, np.arange(chains.size), 0
    while idx.size:
        states[start[idx] + step] = cur
        cur = nxt_a[cur]
        keep = cur != 0
        cur, idx, step = cur[keep], idx[keep], step + 1
    states = states[roots_a.size :]
    position = np.zeros(node_a.size, np.int64)
    unique, first = np.unique(states, return_index=True)
    position[unique] = first + roots_a.size
    value = node_a[states]
    body = (value & ~ARC_MASK & 0xFFFFFFFF) | position[value & ARC_MASK] | np.where(nxt_a[states] == 0, IS_END, 0)
    return np.concatenate((IS_END | position[roots_a], body)).astype(np.uint32)
