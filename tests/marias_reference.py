"""A slow, readable pure-Python mariáš engine (rules/marias.md §1.2, §5) used to check the compiled
kernel: legal cards, trick winners, hlasy, the seven event and the early end of Malý/Veľký.
Cards are strings such as "AS"; nothing here is shared with the kernel."""

SUIT_ORDER = "7 8 9 J Q K T A".split()        # suit games, low to high
BETL_ORDER = "7 8 9 T J Q K A".split()        # Malý / Veľký


def strength(card, betl):
    return (BETL_ORDER if betl else SUIT_ORDER).index(card[0])


def beats(card, best, trump, betl):
    if card[1] == best[1]:
        return strength(card, betl) > strength(best, betl)
    return trump is not None and card[1] == trump


def winner_index(trick, trump, betl):
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], trump, betl):
            best = i
    return best


def legal(hand, trick, trump, betl, seven_guard=False, queen_first=False):
    """§5.3 as written in the rules file."""
    if not trick:
        cand = set(hand)
    else:
        led = trick[0][1]
        win = trick[winner_index(trick, trump, betl)]
        same = {c for c in hand if c[1] == led}
        if same:
            cand = same
            if win[1] == led:
                higher = {c for c in same if strength(c, betl) > strength(win, betl)}
                if higher:
                    cand = higher
        elif trump is not None and any(c[1] == trump for c in hand):
            cand = {c for c in hand if c[1] == trump}
            if win[1] == trump:
                higher = {c for c in cand if strength(c, betl) > strength(win, betl)}
                if higher:
                    cand = higher
        else:
            cand = set(hand)
    if seven_guard and trump is not None and "7" + trump in cand and len(cand) > 1:
        cand.discard("7" + trump)
    if queen_first and not betl:
        for s in "SHDC":
            if "K" + s in cand and "Q" + s in cand:
                cand.discard("K" + s)
    return cand


def replay(hands, actor, game, trump, cards, seven_holder=None, queen_first=False, leader=None):
    """Replay a card sequence (the actor leads unless `leader` is given); check every card is
    legal and return the outcome and the legal sets faced at each play."""
    betl = game in ("maly", "velky")
    hands = [list(h) for h in hands]
    leader = actor if leader is None else leader
    tricks, winners, legal_sets = [], [], []
    taken = [0, 0, 0]
    points = [0, 0, 0]
    declared, hlasy = set(), {0: [], 1: [], 2: []}
    start = [set(h) for h in hands]
    i = 0
    while len(tricks) < 10:
        if game == "maly" and taken[actor] > 0 or game == "velky" and taken[actor] < len(tricks):
            break
        trick, seats = [], []
        for pos in range(3):
            seat = (leader + pos) % 3
            allowed = legal(hands[seat], trick, None if betl else trump, betl, seat == seven_holder, queen_first)
            legal_sets.append(allowed)
            card = cards[i]
            i += 1
            if card not in allowed:
                raise AssertionError(f"illegal {card} by seat {seat}, legal {sorted(allowed)}")
            hands[seat].remove(card)
            if not betl and card[0] in "KQ" and {"K" + card[1], "Q" + card[1]} <= start[seat] and (seat, card[1]) not in declared:
                declared.add((seat, card[1]))
                hlasy[seat].append(40 if card[1] == trump else 20)
            trick.append(card)
            seats.append(seat)
        w = seats[winner_index(trick, None if betl else trump, betl)]
        taken[w] += 1
        points[w] += 10 * sum(c[0] in "AT" for c in trick)
        tricks.append(list(zip(seats, trick)))
        winners.append(w)
        leader = w
    seven = "none"
    if not betl and len(tricks) == 10:
        last = tricks[-1]
        for seat, card in last:
            if card == "7" + trump:
                won = winners[-1] == seat
                side = "actor" if seat == actor else "def"
                seven = ("won_" if won else "killed_") + side
    return dict(tricks=tricks, winners=winners, taken=taken, points=points, hlasy=hlasy, seven=seven,
                legal_sets=legal_sets, n_played=i)


def minimax(hands, leader, actor, game, trump, seven_holder=None, trick=(), trick_seats=()):
    """Plain minimax (no pruning, no table): the units the actor collects with best play by all
    (suit games: A/T + last trick; Malý: tricks lost by the actor; Veľký: tricks won)."""
    betl = game in ("maly", "velky")
    n = len(trick)
    seat = (leader + n) % 3
    tricks_left = len(hands[seat])
    allowed = legal(hands[seat], list(trick), None if betl else trump, betl, seat == seven_holder)
    best = None
    for card in sorted(allowed):
        new_hands = [list(h) for h in hands]
        new_hands[seat].remove(card)
        t, ts = trick + (card,), trick_seats + (seat,)
        if len(t) == 3:
            w = ts[winner_index(list(t), None if betl else trump, betl)]
            if game == "maly":
                gain = int(w != actor)
            elif game == "velky":
                gain = int(w == actor)
            else:
                gain = (sum(c[0] in "AT" for c in t) + (tricks_left == 1)) if w == actor else 0
            value = gain if tricks_left == 1 else gain + minimax(new_hands, w, actor, game, trump, seven_holder)
        else:
            value = minimax(new_hands, leader, actor, game, trump, seven_holder, t, ts)
        if best is None or (value > best if seat == actor else value < best):
            best = value
    return best


# ---------------------------------------------------------------------------------------------
# The deal and protocol L's auction (§2, §3.6), from the rules text

def deal_packets(order, protocol):
    """Hands (forehand = seat 0, middle 1, rear 2) from the shuffled order of the 32 cards.
    V: 7 to the forehand, 5 middle, 5 rear, 5 forehand, 5 middle, 5 rear; no talon yet.
    L: 5 each, 2 to the talon, 5 each."""
    if protocol == "V":
        return [order[0:7] + order[17:22], order[7:12] + order[22:27], order[12:17] + order[27:32]], []
    return [order[0:5] + order[17:22], order[5:10] + order[22:27], order[10:15] + order[27:32]], order[15:17]


LADDER = [("hra", None), ("sedma", None), ("sedma", "H"), ("stovka", None), ("sto_a_sedem", None),
          ("stovka", "H"), ("sto_a_sedem", "H"), ("maly", None), ("velky", None)]


def rung_of(game, trump):
    """The ladder's rung of a contract: the hearts rung when it has one and trumps are hearts."""
    if trump == "H" and (game, "H") in LADDER:
        return LADDER.index((game, "H"))
    return LADDER.index((game, None))


PASS, HOLD = 0, 9


def auction_l(limits):
    """§3.6 step 3, each player naming one rung more while his limit allows and holding while
    the rung named is within it. Returns (winner, rung won, trace of (seat, PASS | rung | HOLD))."""
    forehand, middle, rear = 0, 1, 2
    pair = {"holder": forehand, "bidder": rear}
    middle_in = False
    rung, trace, turn = 0, [], "bidder"
    while True:
        seat = pair[turn]
        if turn == "bidder" and limits[seat] >= rung + 1:
            rung += 1
            trace.append((seat, rung))
            turn = "holder"
        elif turn == "holder" and limits[seat] >= rung:
            trace.append((seat, HOLD))
            turn = "bidder"
        else:
            trace.append((seat, PASS))
            if middle_in:                          # the other one is the last player left
                other = pair["holder" if turn == "bidder" else "bidder"]
                return other, rung, trace
            middle_in = True
            pair[turn] = middle                   # the middle player takes the place
