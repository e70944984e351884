"""A slow, readable reference of the Russian Bank duel rules (shared/rules/russian_bank.md §4-6),
written independently of csrc/russian_bank.pyx, for the cross-implementation tests.

A position is the dict of ``DuelState.piles()``: stock/hand/waste (per player, lists of card kinds
bottom -> top), houses (8 lists), foundations (per suit two pile heights), player, up, redeals.
Kinds: 13*suit + rank, suits S H D C, rank 0 = ace. Actions use the engine's codes:
source*16 + destination (+256*(run length - 1)), sources 0 stock, 1 hand, 2 waste, 3+h house h;
destinations 0 foundation, 1+h house h, 9 opponent's stock, 10 opponent's waste.
"""
from __future__ import annotations

import copy

DISCARD, PASS, TURN = 8192, 8193, 8194
STOCK, HAND, WASTE, HOUSE = 0, 1, 2, 3
FOUNDATION, OPP_STOCK, OPP_WASTE = 0, 9, 10


def suit(k):
    return k // 13


def rank(k):
    return k % 13


def is_red(k):
    return suit(k) in (1, 2)


def fits_foundation(pos, card):
    return rank(card) in pos["foundations"][suit(card)]


def fits_house(card, top):
    return rank(card) == rank(top) - 1 and is_red(card) != is_red(top)


def fits_load(card, top, wrap):
    if suit(card) != suit(top):
        return False
    gap = abs(rank(card) - rank(top))
    return gap == 1 or (wrap and gap == 12)


def sources(pos, rules):
    """(source code, card, run length) of every available card."""
    me = pos["player"]
    out = []
    if pos["stock"][me]:
        out.append((STOCK, pos["stock"][me][-1], 1))
    if pos["up"][me] and pos["hand"][me]:
        out.append((HAND, pos["hand"][me][-1], 1))
    if rules["own_waste_playable"] and pos["waste"][me]:
        out.append((WASTE, pos["waste"][me][-1], 1))
    for h, house in enumerate(pos["houses"]):
        if house:
            out.append((HOUSE + h, house[-1], 1))
            if rules["sequence_moves"]:
                for count in range(2, len(house) + 1):
                    out.append((HOUSE + h, house[-count], count))
    return out


def card_moves(pos, rules):
    """All MOVEs of §4 before the priority rules of §6."""
    me, opp = pos["player"], 1 - pos["player"]
    moves = []
    for src, card, count in sources(pos, rules):
        from_house = src - HOUSE if src >= HOUSE else None
        if count == 1 and fits_foundation(pos, card):
            moves.append(src * 16 + FOUNDATION)
        for h, house in enumerate(pos["houses"]):
            if h == from_house:
                continue
            if not house:
                if rules["empty_house_rule"] != "any" and pos["stock"][me] and src != STOCK:
                    continue
                if count > 1 and count == len(pos["houses"][from_house]):
                    continue
            elif not fits_house(card, house[-1]):
                continue
            moves.append((count - 1) * 256 + src * 16 + 1 + h)
        if count > 1:
            continue
        kind_of_source = {STOCK: "stock", HAND: "hand", WASTE: "hand"}.get(src, "house")
        if kind_of_source not in rules["load_sources"]:
            continue
        for target, dst in (("stock", OPP_STOCK), ("waste", OPP_WASTE)):
            pile = pos[target][opp]
            if target in rules["load_targets"] and pile and fits_load(card, pile[-1], rules["load_wrap"]):
                moves.append(src * 16 + dst)
    return moves


def can_redeal(pos, rules, p):
    return rules["redeal_limit"] is None or pos["redeals"][p] < rules["redeal_limit"]


def legal_actions(pos, rules, compliant=True):
    me = pos["player"]
    moves = card_moves(pos, rules)
    to_foundation = [m for m in moves if m % 16 == FOUNDATION]
    if compliant and rules["foundation_priority"] == "strict" and to_foundation:
        from_stock = [m for m in to_foundation if (m % 256) // 16 == STOCK]
        if rules["stock_first_to_foundation"] and from_stock:
            return set(from_stock)
        return set(to_foundation)
    has_empty = any(not h for h in pos["houses"])
    if compliant and rules["empty_house_rule"] == "stock_forced" and has_empty and pos["stock"][me]:
        return {m for m in moves if m % 16 == FOUNDATION or (
            (m % 256) // 16 == STOCK and 1 <= m % 16 <= 8 and not pos["houses"][m % 16 - 1])}
    actions = set(moves)
    hand_moves = any((m % 256) // 16 == HAND for m in moves)
    stock_moves = any((m % 256) // 16 == STOCK for m in moves)
    if pos["up"][me] and pos["hand"][me]:
        policy = rules["discard_policy"] if compliant else "free"
        if policy == "free" or (policy == "hand_unplayable" and not hand_moves) or (
                policy == "no_own_card_move" and not hand_moves and not stock_moves):
            actions.add(DISCARD)
    elif not rules["auto_turn"] and (pos["hand"][me] or (pos["waste"][me] and can_redeal(pos, rules, me))):
        if not (compliant and rules["stock_before_hand"] and stock_moves):
            actions.add(TURN)
    else:
        actions.add(PASS)
    return actions


def redeal_if_needed(pos, rules, p):
    if not pos["hand"][p] and pos["waste"][p] and can_redeal(pos, rules, p):
        pos["hand"][p] = pos["waste"][p][::-1]       # first discard on top
        pos["waste"][p] = []
        pos["redeals"][p] += 1
    pos["up"][p] = bool(pos["hand"][p])


def apply(pos, rules, action):
    """The position after a legal action (a new dict); 'winner' is set when the mover went out."""
    pos = copy.deepcopy(pos)
    me, opp = pos["player"], 1 - pos["player"]
    if action in (DISCARD, PASS):
        if action == DISCARD:
            pos["waste"][me].append(pos["hand"][me].pop())
            pos["up"][me] = False
        pos["player"] = opp
        if rules["auto_turn"]:
            redeal_if_needed(pos, rules, opp)
        return pos
    if action == TURN:
        redeal_if_needed(pos, rules, me)
        return pos
    src, dst, count = (action % 256) // 16, action % 16, action // 256 + 1
    if src == STOCK:
        run = [pos["stock"][me].pop()]
    elif src == HAND:
        run = [pos["hand"][me].pop()]
        pos["up"][me] = False
    elif src == WASTE:
        run = [pos["waste"][me].pop()]
    else:
        house = pos["houses"][src - HOUSE]
        run = house[len(house) - count:]
        del house[len(house) - count:]
    if dst == FOUNDATION:
        piles = pos["foundations"][suit(run[0])]
        piles[piles.index(rank(run[0]))] += 1
    elif dst == OPP_STOCK:
        pos["stock"][opp].append(run[0])
    elif dst == OPP_WASTE:
        pos["waste"][opp].append(run[0])
    else:
        pos["houses"][dst - 1].extend(run)
    if not pos["stock"][me] and not pos["hand"][me] and not pos["waste"][me]:
        pos["winner"] = me
        return pos
    if src == HAND and rules["auto_turn"]:
        redeal_if_needed(pos, rules, me)
    return pos
