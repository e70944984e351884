"""A slow, readable pure-Python Semerik used to cross-check the compiled kernel: declarations (by
an exhaustive search over declaration choices when cards may not be shared), trick play with the
greedy strategy, and deal scoring. Cards are strings such as "3H"; seats 0..3, partnership = seat % 2.
It follows rules/semerik.md and the greedy rules card in csrc/semerik.pyx, written independently."""
from itertools import combinations, product

ORDER = "4567JQKA23"                 # low to high
HONOURS = set("JQKA23")
SUITS = "SHDC"
TRUMP = "H"
BABA_VALUES = [3, 6, 9, 15]          # bare, +K, +K+Q, +K+Q+J


def power(card):
    return ORDER.index(card[0])


# --------------------------------------------------------------------------------------------
# Declarations

def baba_value(suit, extension, options):
    value = BABA_VALUES[extension]
    if suit == TRUMP:
        if options["heart_baba"] == "bonus2":
            value += 2
        elif extension == 0:
            value = 5
    return value


def set_value(rank, size, with_baba, options):
    if rank == "7":
        return 4
    if rank in "32A":
        value = 4 if with_baba else 3
        if size == 4 and options["four_of_kind_bonus"]:
            value += 1
        return value
    return 1


def baba_options(hand, suit):
    """(cards, extension) for each way of declaring this suit's baba (bare, +K, ...)."""
    if not {"3" + suit, "2" + suit, "A" + suit} <= hand:
        return []
    out, cards = [], {"3" + suit, "2" + suit, "A" + suit}
    out.append((frozenset(cards), 0))
    for extension, rank in enumerate("KQJ", start=1):
        if rank + suit not in hand:
            break
        cards = cards | {rank + suit}
        out.append((frozenset(cards), extension))
    return out


def declaration_points(hand, options):
    hand = set(hand)
    babas = {s: baba_options(hand, s) for s in SUITS}
    if options["overlap"] == "allowed":
        points = 0
        for suit, choices in babas.items():
            if choices:
                points += baba_value(suit, choices[-1][1], options)
        for rank in ORDER:
            held = [c for c in hand if c[0] == rank]
            if len(held) >= 3:
                points += set_value(rank, len(held), any(babas.values()), options)
        return points
    # No card in two declarations: try every combination (each baba at any length or not at all,
    # each set of three or four cards of a rank or none) whose cards are disjoint.
    baba_choices = [[None] + [(s, c, e) for c, e in babas[s]] for s in SUITS]
    best = 0
    for chosen in product(*baba_choices):
        used = set()
        points = 0
        ok = True
        for item in chosen:
            if item:
                suit, cards, extension = item
                if used & cards:
                    ok = False
                used |= cards
                points += baba_value(suit, extension, options)
        if not ok:
            continue
        with_baba = any(chosen)
        for rank in ORDER:
            free = [c for c in hand if c[0] == rank and c not in used]
            sizes = [k for k in (3, 4) if len(free) >= k]
            if sizes:
                points += max(set_value(rank, k, with_baba, options) for k in sizes)
        best = max(best, points)
    return best


def shown_cards(hand):
    """Cards a player shows when declaring: every card of a baba (with its extension) or a set."""
    hand = set(hand)
    shown = set()
    for suit in SUITS:
        choices = baba_options(hand, suit)
        if choices:
            shown |= choices[-1][0]
    for rank in ORDER:
        held = {c for c in hand if c[0] == rank}
        if len(held) >= 3:
            shown |= held
    return shown


# --------------------------------------------------------------------------------------------
# Tricks

def trick_winner(cards):
    """Position (0 = lead) of the card that wins the trick."""
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        top = cards[best]
        if card[1] == top[1] and power(card) > power(top):
            best = i
        elif card[1] == TRUMP and top[1] != TRUMP:
            best = i
    return best


def legal_cards(hand, trick):
    if not trick:
        return sorted(hand)
    follow = [c for c in hand if c[1] == trick[0][1]]
    return sorted(follow or hand)


# --------------------------------------------------------------------------------------------
# Greedy play (rules card in csrc/semerik.pyx)

def lowest(cards):
    """Lowest-ranked card; between equal ranks the earlier suit in S H D C."""
    return min(cards, key=lambda c: (power(c), SUITS.index(c[1])))


def discard(hand):
    plain = [c for c in hand if c[1] != TRUMP]
    return lowest(plain) if plain else lowest(hand)


def greedy_lead(hand, played):
    others = [c for c in (r + s for s in SUITS for r in ORDER) if c not in played and c not in hand]
    masters = []
    for suit in SUITS:
        mine = [c for c in hand if c[1] == suit]
        theirs = [c for c in others if c[1] == suit]
        if mine and theirs and max(map(power, mine)) > max(map(power, theirs)):
            masters.append(max(mine, key=power))
    if masters:
        top = max(power(c) for c in masters)
        return next(c for c in sorted(masters, key=lambda c: SUITS.index(c[1])) if power(c) == top)
    plain_suits = [s for s in SUITS if s != TRUMP and any(c[1] == s for c in hand)]
    if plain_suits:
        longest = max(sum(c[1] == s for c in hand) for s in plain_suits)
        suit = next(s for s in plain_suits if sum(c[1] == s for c in hand) == longest)
        return lowest([c for c in hand if c[1] == suit])
    return lowest(hand)


def greedy_card(seat, hand, trick, trick_seats, played, options):
    if not trick:
        return greedy_lead(hand, played)
    led = trick[0][1]
    w = trick_winner(trick)
    win_card, win_seat = trick[w], trick_seats[w]
    partner_winning = win_seat % 2 == seat % 2
    honours = sum(c[0] in HONOURS for c in trick)
    lifts = len(trick) == 3 and partner_winning and honours in (2, 3)
    follow = [c for c in hand if c[1] == led]
    if follow:
        if partner_winning:
            if lifts and any(c[0] in HONOURS for c in follow):
                return lowest([c for c in follow if c[0] in HONOURS])
            return lowest(follow)
        if win_card[1] == led:
            higher = [c for c in follow if power(c) > power(win_card)]
            if higher:
                return lowest(higher)
        return lowest(follow)
    if partner_winning:
        plain_honours = [c for c in hand if c[0] in HONOURS and c[1] != TRUMP]
        if lifts and plain_honours:
            return lowest(plain_honours)
        return discard(hand)
    trumps = [c for c in hand if c[1] == TRUMP]
    if trumps and honours >= options["ruff_min_honours"]:
        if win_card[1] == TRUMP:
            higher = [c for c in trumps if power(c) > power(win_card)]
            if higher:
                return lowest(higher)
        else:
            return lowest(trumps)
    return discard(hand)


# --------------------------------------------------------------------------------------------
# Deals

def score_tricks(tricks, options):
    """Trick points of partnerships 0 and 1 from (cards, winner seat) of the ten tricks."""
    honours, points, count = [0, 0], [0, 0], [0, 0]
    for cards, winner in tricks:
        side = winner % 2
        h = sum(c[0] in HONOURS for c in cards)
        honours[side] += h
        points[side] += {3: 1, 4: 2}.get(h, 0)
        count[side] += 1
    if options["honour_count"] == "aggregate":
        points = [h // 3 for h in honours]
    if len(tricks) == 10:
        points[tricks[-1][1] % 2] += options["last_trick_point"]
    for side in (0, 1):
        if count[side] == 10:
            points[side] = 4 if options["capot"] == "replaces" else points[side] + 4
    return points


def play(hands, dealer, options, choose=None, plays=None):
    """Play a deal: with `plays` (40 cards) replay them, checking legality; otherwise every seat
    plays greedily. Returns dict(plays, winners, trick_points, declarations, totals)."""
    step = 1 if options["direction"] == "clockwise" else 3
    hands = [set(h) for h in hands]
    declarations = [declaration_points(h, options) for h in hands]
    seat = (dealer + step) % 4
    played, sequence, winners, tricks = set(), [], [], []
    for _ in range(10):
        trick, seats = [], []
        for _ in range(4):
            if plays is not None:
                card = plays[len(sequence)]
                if card not in legal_cards(hands[seat], trick):
                    raise ValueError(f"illegal {card}")
            else:
                card = greedy_card(seat, hands[seat], trick, seats, played, options)
                assert card in legal_cards(hands[seat], trick)
            hands[seat].remove(card)
            played.add(card)
            trick.append(card)
            seats.append(seat)
            sequence.append(card)
            seat = (seat + step) % 4
        seat = seats[trick_winner(trick)]
        winners.append(seat)
        tricks.append((trick, seat))
    points = score_tricks(tricks, options)
    totals = [points[p] + declarations[p] + declarations[p + 2] for p in (0, 1)]
    return dict(plays=sequence, winners=winners, trick_points=points, declarations=declarations, totals=totals)


def game_status(a, b, options):
    """(winner partnership or None, value 1/2) of the end-of-deal check."""
    if max(a, b) < options["target"] or a == b:
        return None, 0
    winner = 0 if a > b else 1
    loser = b if winner == 0 else a
    return winner, 2 if loser < options["double_below"] else 1
