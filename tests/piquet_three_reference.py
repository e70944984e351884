"""A slow, readable pure-Python reference of three-handed piquet (rules/piquet.md §10), written
from the rules text and independently of the compiled kernel: cards are strings, holdings are
found by looking at the cards, and the play is replayed trick by trick. Used by the tests to
cross-check the kernel field by field.

Seats: 0 dealer, 1 first leader, 2 third; play goes 1 -> 2 -> 0.
"""
from __future__ import annotations

RANKS = "789TJQKA"
SUITS = "SHDC"
PIPS = {"7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 11}


def cards_of(mask: int) -> list[str]:
    return [RANKS[b % 8] + SUITS[b // 8] for b in range(32) if mask >> b & 1]


def bit(card: str) -> int:
    return 8 * SUITS.index(card[1]) + RANKS.index(card[0])


def point_holding(hand, by_pips=True):
    """(length, pips) of the best suit; the score is the length."""
    best = (0, 0)
    for s in SUITS:
        ranks = [c[0] for c in hand if c[1] == s]
        key = (len(ranks), sum(PIPS[r] for r in ranks) if by_pips else 0)
        best = max(best, key)
    return best, best[0]


def runs(hand):
    """Every maximal run of 3+ in a suit as (length, top rank index)."""
    out = []
    for s in SUITS:
        present = [RANKS[i] + s in hand for i in range(8)] + [False]
        length = 0
        for i, here in enumerate(present):
            if here:
                length += 1
            else:
                if length >= 3:
                    out.append((length, i - 1))
                length = 0
    return out


def sequence_holding(hand, seq_values):
    rs = runs(hand)
    best = max(rs) if rs else None
    return best, sum(seq_values[length - 3] for length, _ in rs)


def set_holding(hand, trio, quatorze):
    """Best set as (4 or 3, rank index) and the value of all sets of T..A."""
    best, value = None, 0
    for i in range(3, 8):
        n = sum(c[0] == RANKS[i] for c in hand)
        if n >= 3:
            value += quatorze if n == 4 else trio
            best = max(best, (n, i)) if best else (n, i)
    return best, value


def declarations(dealt, final, o):
    """Per seat [carte blanche, point, sequences, sets], the totals, repik flags and the winner of
    each category (seat or None)."""
    seq_values = list(o["seq_values"])
    score = [[0, 0, 0, 0] for _ in range(3)]
    winners = [None] * 4
    for p in range(3):
        blank_dealt = not any(c[0] in "KQJ" for c in dealt[p])
        blank_final = not any(c[0] in "KQJ" for c in final[p])
        when = o["carte_blanche_when"]
        score[p][0] = o["carte_blanche_value"] * ((blank_dealt if when in ("dealt", "both") else 0)
                                                   + (blank_final if when in ("final", "both") else 0))
    blanks = [p for p in range(3) if score[p][0]]
    winners[0] = blanks[0] if len(blanks) == 1 else None
    holdings = [
        [point_holding(final[p], o["point_tiebreak"] == "pips") for p in range(3)],
        [sequence_holding(final[p], seq_values) for p in range(3)],
        [set_holding(final[p], o["trio_value"], o["quatorze_value"]) for p in range(3)],
    ]
    for c, held in enumerate(holdings, start=1):
        keys = [h[0] for h in held]
        present = [k for k in keys if k is not None]
        if not present:
            continue
        top = max(present)
        tops = [p for p in range(3) if keys[p] == top]
        if len(tops) == 1:
            winners[c] = tops[0]
            score[tops[0]][c] = held[tops[0]][1]
        elif o["category_tie"] == "tied_score":
            for p in tops:
                score[p][c] = held[p][1]
    totals = [sum(s) for s in score]
    repik = [totals[p] >= o["repik_threshold"] and totals[(p + 1) % 3] == 0 and totals[(p + 2) % 3] == 0
             for p in range(3)]
    return score, totals, repik, winners


def pik_player(totals, repik, o):
    if o["pik_seat"] == "first_leader" or not any(totals):
        p = 1
    else:
        p = next(q for q in range(3) if totals[q])
    if totals[(p + 1) % 3] or totals[(p + 2) % 3] or repik[p]:
        return None
    return p


def play(final, tricks, totals, repik, o):
    """Replay the tricks (lists of card strings in play order from the leader), checking that each
    card is held and follows suit. Returns play points, tricks won, the pik seat or None, the trick
    winners and the leaders."""
    hands = [set(h) for h in final]
    points, won = [0, 0, 0], [0, 0, 0]
    candidate = pik_player(totals, repik, o)
    count = totals[candidate] if candidate is not None else 0
    window, pik = True, None
    leader, winners, leaders = 1, [], []

    def score(p, n):
        nonlocal count, window, pik
        points[p] += n
        if candidate is None or pik is not None:
            return
        if p != candidate:
            window = False
        elif window or o["pik_window"] == "whole_play":
            count += n
            if count >= o["pik_threshold"]:
                pik = candidate

    for i, cards in enumerate(tricks):
        leaders.append(leader)
        suit = cards[0][1]
        for j, card in enumerate(cards):
            seat = (leader + j) % 3
            assert card in hands[seat], f"trick {i + 1}: seat {seat} does not hold {card}"
            if j:
                assert card[1] == suit or not any(c[1] == suit for c in hands[seat]), f"trick {i + 1}: revoke"
        for j, card in enumerate(cards):
            hands[(leader + j) % 3].remove(card)
        score(leader, 1)
        best = max((j for j in range(3) if cards[j][1] == suit), key=lambda j: RANKS.index(cards[j][0]))
        winner = (leader + best) % 3
        won[winner] += 1
        last = i == len(tricks) - 1
        capot = won[winner] == len(tricks)
        score(winner, o["last_trick_value"] if last and (not capot or o["capot_keeps_last_trick"]) else 1)
        winners.append(winner)
        leader = winner
    return points, won, pik, winners, leaders


def score_deal(dealt, final, tricks, o):
    """The whole deal: a dict of per-seat lists in the kernel's field order."""
    score, totals, repik, winners = declarations(dealt, final, o)
    points, won, pik, trick_winners, leaders = play(final, tricks, totals, repik, o)
    leza, capot = [0, 0, 0], [0, 0, 0]
    for p in range(3):
        if won[p] == len(tricks):
            capot[p] = o["capot_bonus"]
        elif o["leza"] == "majority":
            leza[p] = o["leza_bonus"] if 2 * won[p] > len(tricks) else 0
        elif all(won[p] > won[q] for q in range(3) if q != p):
            leza[p] = o["leza_bonus"]
    total = [totals[p] + repik[p] * o["repik_bonus"] + (o["pik_bonus"] if pik == p else 0) + points[p] + leza[p]
             + capot[p] for p in range(3)]
    return {"declarations": totals, "repik": [int(r) for r in repik], "pik": [int(pik == p) for p in range(3)],
            "play": points, "tricks": won, "leza": leza, "capot": capot, "total": total,
            "category_scores": score, "category_winners": winners, "winners": trick_winners, "leaders": leaders}


def places(deal_totals, first_leaders, target, stop_after_first=False):
    """Finishing places of players 0, 1, 2 from per-deal totals (rules §10 'Game'): after each deal
    the players still in who reached the target leave, best total first, equal totals in play
    order from that deal's first leader; when two have left the third is last."""
    totals, place, n = [0, 0, 0], [None, None, None], 0
    for deal, first in zip(deal_totals, first_leaders):
        for p in range(3):
            totals[p] += deal[p]
        order = [(first + i) % 3 for i in range(3)]
        crossed = sorted((p for p in order if place[p] is None and totals[p] >= target),
                         key=lambda p: (-totals[p], order.index(p)))
        before = n
        for p in crossed:
            if n < 2:
                place[p], n = n, n + 1
        if stop_after_first and n > before:
            for p in sorted((p for p in order if place[p] is None), key=lambda p: (-totals[p], order.index(p))):
                if n < 2:
                    place[p], n = n, n + 1
        if n == 2:
            place[place.index(None)] = 2
            break
    return place, totals
