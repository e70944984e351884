"""A slow, readable pure-Python klabor engine (rules/klabor.md) for cross-checking the compiled
kernel: bidding by strength threshold, the dix, greedy card play, sequences, bella, the bait rule,
and a plain minimax for double-dummy endings. Cards are strings like "JH"."""
from __future__ import annotations

SUITS = "SHDC"
NATURAL = "789TJQKA"                      # sequence order, low to high
TRUMP_ORDER = "78QKTA9J"                  # trick order in trumps, low to high
PLAIN_ORDER = "789JQKTA"                  # trick order in plain suits, low to high
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TRUMP_BONUS = 10


def points(card, trump):
    return (TRUMP_POINTS if card[1] == trump else PLAIN_POINTS)[card[0]]


def strength(card, trump):
    if card[1] == trump:
        return 8 + TRUMP_ORDER.index(card[0])
    return PLAIN_ORDER.index(card[0])


def beats(reply, led, trump):
    if reply[1] == led[1]:
        return strength(reply, trump) > strength(led, trump)
    return reply[1] == trump


def legal_replies(hand, led, trump, must_head):
    follow = [c for c in hand if c[1] == led[1]]
    if follow:
        if led[1] == trump and must_head:
            higher = [c for c in follow if strength(c, trump) > strength(led, trump)]
            if higher:
                return higher
        return follow
    trumps = [c for c in hand if c[1] == trump]
    return trumps or list(hand)


def bit_order(card):
    """The kernel's iteration order (suit, natural rank), used to break ties the same way."""
    return SUITS.index(card[1]) * 8 + NATURAL.index(card[0])


def cheapest(cards, trump):
    return min(sorted(cards, key=bit_order), key=lambda c: points(c, trump) * 64 + strength(c, trump))


def runs(hand, long_runs="50"):
    """[(length, top index, suit)] of the maximal runs of >= 3 in the natural order."""
    out = []
    for s in SUITS:
        have = [NATURAL[i] + s in hand for i in range(8)] + [False]
        length = 0
        for i, h in enumerate(have):
            if h:
                length += 1
                continue
            if length >= 3:
                out.append((length, i - 1, s))
            length = 0
    return out


def run_value(length, long_runs):
    if length == 3:
        return 20
    if long_runs == "split" and length == 7:
        return 70
    if long_runs == "split" and length == 8:
        return 100
    return 50


def best_sequence(hand, trump):
    keys = [((1 if L == 3 else 2), top, s == trump) for L, top, s in runs(hand)]
    return max(keys) if keys else None


def bid_strength(hand, trump, dix_card=None):
    value = sum(points(c, trump) for c in hand) + TRUMP_BONUS * sum(c[1] == trump for c in hand)
    if dix_card is not None and "7" + trump in hand:
        value += TRUMP_POINTS[dix_card[0]]
    return value


def bid(first, turnup, thresholds, options):
    """(maker seat or None, round, trump, annulled by schmeiss)."""
    turned = turnup[1]
    dix_card = turnup if turnup[0] != "7" and options["dix_swap"] == "always" else None
    for seat in (0, 1):
        if bid_strength(first[seat], turned, dix_card) >= thresholds[seat]:
            if options["schmeiss"] and bid_strength(first[1 - seat], turned, dix_card) < thresholds[1 - seat]:
                return None, 1, turned, True
            return seat, 1, turned, False
    for seat in (0, 1):
        others = [s for s in SUITS if s != turned]
        best = max(others, key=lambda s: (bid_strength(first[seat], s), -SUITS.index(s)))
        if bid_strength(first[seat], best) >= thresholds[seat]:
            return seat, 2, best, False
    return None, 0, turned, False


def is_master(card, own, played, trump):
    order = TRUMP_ORDER if card[1] == trump else PLAIN_ORDER
    above = order[order.index(card[0]) + 1:]
    return all(r + card[1] in own or r + card[1] in played for r in above)


def greedy_lead(hand, played, trump):
    trumps = [c for c in hand if c[1] == trump]
    plain = [c for c in hand if c[1] != trump]
    outside = [r + trump for r in NATURAL if r + trump not in hand and r + trump not in played]
    if trumps and outside:
        for c in sorted(trumps, key=bit_order):
            if is_master(c, hand, played, trump):
                return c
    cash = [c for c in sorted(plain, key=bit_order) if PLAIN_POINTS[c[0]] >= 10 and is_master(c, hand, played, trump)]
    if cash:
        return max(cash, key=lambda c: PLAIN_POINTS[c[0]])   # first of the highest value
    return cheapest(plain or trumps, trump)


def greedy_reply(hand, led, trump, must_head):
    legal = legal_replies(hand, led, trump, must_head)
    winners = [c for c in legal if beats(c, led, trump)]
    if winners:
        w = cheapest(winners, trump)
        ruff_for_nothing = w[1] == trump and led[1] != trump and PLAIN_POINTS[led[0]] == 0 and len(hand) > 1
        if not ruff_for_nothing:
            return w
    return cheapest(legal, trump)


def play_deal(first, second, turnup, options):
    """Bid and play with greedy play; returns a dict of the kernel's row fields."""
    thresholds = (options["threshold"], options["threshold"])
    maker, rnd, trump, annulled = bid(first, turnup, thresholds, options)
    out = dict(void=int(maker is None), maker=-1 if maker is None else maker, round=rnd,
               schmeiss_annulled=int(annulled))
    if maker is None:
        return out
    hands = [set(first[p]) | set(second[p]) for p in (0, 1)]
    swapper = -1
    if rnd == 1 and options["dix_swap"] == "always" and turnup[0] != "7":
        for p in (0, 1):
            if "7" + trump in hands[p]:
                hands[p] = (hands[p] - {"7" + trump}) | {turnup}
                swapper = p
    held = [set(h) for h in hands]
    played, cards, tricks, plays, winners = set(), [0, 0], [0, 0], [], []
    leader = 0
    for _ in range(9):
        a = greedy_lead(hands[leader], played, trump)
        hands[leader].discard(a)
        played.add(a)
        follower = 1 - leader
        b = greedy_reply(hands[follower], a, trump, options["must_head_trump"])
        assert b in legal_replies(hands[follower] , a, trump, options["must_head_trump"])
        hands[follower].discard(b)
        played.add(b)
        w = follower if beats(b, a, trump) else leader
        cards[w] += points(a, trump) + points(b, trump)
        tricks[w] += 1
        plays += [a, b]
        winners.append(w)
        leader = w
    out.update(trump=SUITS.index(trump), swapper=swapper, plays=plays, winners=winners, last_winner=leader)
    out.update(score_played(held, trump, maker, cards, tricks, leader, swapper, options))
    return out


def score_played(held, trump, maker, cards, tricks, last, swapper, options):
    keys = [best_sequence(h, trump) for h in held]
    if keys[0] is not None and (keys[1] is None or keys[0] > keys[1]):
        seq_winner = 0
    elif keys[1] is not None and (keys[0] is None or keys[1] > keys[0]):
        seq_winner = 1
    elif keys[0] is not None and options["seq_tie"] == "elder":
        seq_winner = 0
    else:
        seq_winner = -1
    seq = [0, 0]
    if seq_winner >= 0 and not (options["no_trick_no_melds"] and tricks[seq_winner] == 0):
        seq[seq_winner] = sum(run_value(L, options["long_runs"]) for L, _, _ in runs(held[seq_winner]))
    bella = [20 if {"K" + trump, "Q" + trump} <= held[p] else 0 for p in (0, 1)]
    dix = [options["dix_value"] if swapper == p else 0 for p in (0, 1)]
    total = [cards[p] + (10 if last == p else 0) + seq[p] + bella[p] + dix[p] for p in (0, 1)]
    m, o = maker, 1 - maker
    if options["bella_policy"] == "strategic" and bella[m] and total[m] <= total[o]:   # baited anyway
        bella[m] = 0
        total[m] -= 20
    score, carried = [0, 0], 0
    if total[m] > total[o]:
        score = list(total)
        baited = 0
    else:
        baited = 1
        if total[m] == total[o] and options["tie"] in ("half", "carry"):
            score[o] = total[o]
            carried = total[m] if options["tie"] == "carry" else 0
        else:
            score[o] = total[m] + total[o]
    return dict(seq_winner=seq_winner, seq=seq, bella=bella, dix=dix, cards=cards, tricks=tricks,
                total=total, score=score, baited=baited, carried=carried)


def dd_minimax(me, opp, me_leads, trump, must_head=True):
    """Points `me` takes from the remaining tricks with best play by both, by full minimax."""
    if not me:
        return 0
    lead_hand, follow_hand = (me, opp) if me_leads else (opp, me)
    bonus = 10 if len(me) == 1 else 0
    results = []
    for a in lead_hand:
        inner = []
        for b in legal_replies(follow_hand, a, trump, must_head):
            me_wins = beats(b, a, trump) != me_leads
            gain = points(a, trump) + points(b, trump) + bonus if me_wins else 0
            if me_leads:
                value = gain + dd_minimax(me - {a}, opp - {b}, me_wins, trump, must_head)
            else:
                value = gain + dd_minimax(me - {b}, opp - {a}, me_wins, trump, must_head)
            inner.append(value)
        results.append(min(inner) if me_leads else max(inner))
    return max(results) if me_leads else min(results)
