"""A slow, readable piquet declaration scorer, written straight from shared/rules/piquet.md §4–§7
with card strings and no tables, to cross-check the compiled kernel field by field."""

RANKS = "789TJQKA"
PIPS = {"7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 11}
SEQ_VALUES = {"ru_seed": {3: 13, 4: 14}, "ru_seed_seq34": {3: 3, 4: 4}, "classic": {3: 3, 4: 4}}


def suit_cards(hand, suit):
    return sorted((RANKS.index(c[0]) for c in hand if c[1] == suit))


def runs(hand):
    """All maximal runs of >= 3 consecutive ranks: (length, top rank index)."""
    out = []
    for suit in "SHDC":
        ranks = suit_cards(hand, suit)
        length = 0
        for i in range(len(RANKS) + 1):
            if i in ranks:
                length += 1
            else:
                if length >= 3:
                    out.append((length, i - 1))
                length = 0
    return out


def seq_value(length, preset):
    return SEQ_VALUES[preset].get(length, length + 10)


def player_holdings(hand, preset, pips_tiebreak=True):
    point_len, point_pips = max(
        (len(suit_cards(hand, s)), sum(PIPS[RANKS[r]] for r in suit_cards(hand, s))) for s in "SHDC")
    hand_runs = runs(hand)
    best_run = max(hand_runs) if hand_runs else None
    seq_points = sum(seq_value(length, preset) for length, _ in hand_runs)
    counts = {r: sum(1 for c in hand if c[0] == r) for r in "TJQKA"}
    sets = [(n, RANKS.index(r)) for r, n in counts.items() if n >= 3]
    best_set = max(sets) if sets else None
    set_points = sum(14 if n == 4 else 3 for n, _ in sets)
    blank = all(c[0] not in "KQJ" for c in hand)
    return {
        "blank": 10 if blank else 0,
        "point_key": (point_len, point_pips if pips_tiebreak else 0),
        "point_len": point_len,
        "best_run": best_run,
        "seq_points": seq_points,
        "best_set": best_set,
        "set_points": set_points,
        "uncontested": (10 if blank else 0) + point_len + seq_points + set_points,
    }


def better(a, b):
    """'a', 'b' or None for the better of two comparable holdings (None means absent)."""
    if a is None and b is None:
        return None
    if b is None or (a is not None and a > b):
        return "a"
    if a is None or b > a:
        return "b"
    return None


def declared_holdings(hand, preset, pips_tiebreak=True, declared=None):
    """Holdings as declared: each category named in `declared` (point, sequences, sets -> cards)
    is judged on those cards alone (sinking); carte blanche and the rest on the whole hand."""
    h = player_holdings(hand, preset, pips_tiebreak)
    for category, fields in (("point", ("point_key", "point_len")), ("sequences", ("best_run", "seq_points")),
                             ("sets", ("best_set", "set_points"))):
        if declared and category in declared:
            part = player_holdings(declared[category], preset, pips_tiebreak)
            h.update({f: part[f] for f in fields})
    return h


def score(elder, younger, preset="ru_seed", pips_tiebreak=True, declared=None):
    declared = declared or {}
    e = declared_holdings(elder, preset, pips_tiebreak, declared.get("elder"))
    y = declared_holdings(younger, preset, pips_tiebreak, declared.get("younger"))
    cat = {"carte_blanche": (e["blank"], y["blank"])}
    w = better(e["point_key"], y["point_key"])
    cat["point"] = (e["point_len"] if w == "a" else 0, y["point_len"] if w == "b" else 0)
    w = better(e["best_run"], y["best_run"])
    cat["sequences"] = (e["seq_points"] if w == "a" else 0, y["seq_points"] if w == "b" else 0)
    w = better(e["best_set"], y["best_set"])
    cat["sets"] = (e["set_points"] if w == "a" else 0, y["set_points"] if w == "b" else 0)
    order = ["carte_blanche", "point", "sequences", "sets"]
    result = {}
    for p, who in enumerate(("elder", "younger")):
        total = sum(cat[c][p] for c in order)
        opponent_total = sum(cat[c][1 - p] for c in order)
        if preset == "classic":
            repik, running = False, 0
            for c in order:
                if cat[c][1 - p] > 0:
                    break
                running += cat[c][p]
                if running >= 30:
                    repik = True
                    break
        else:
            repik = total >= 30 and opponent_total == 0
        result[who] = {**{c: cat[c][p] for c in order}, "total": total, "repik": int(repik),
                       "uncontested": (e, y)[p]["uncontested"]}
    return result


# ---------------------------------------------------------------------------------------------
# Play (§6, §7): the 12 tricks, play points, pik, bonuses — written out trick by trick.

CLASSIC_PLAY = {"trick_point": "follower_only", "last_trick": ("extra", 1), "capot_keeps_last": True}
SEED_PLAY = {"trick_point": "every_trick", "last_trick": ("total", 4), "capot_keeps_last": False}


def trick_winner(leader, lead, follow):
    if follow[1] == lead[1] and RANKS.index(follow[0]) > RANKS.index(lead[0]):
        return 1 - leader
    return leader


class Play:
    """Running state of the card play, from elder's lead (player 0) to the end."""

    def __init__(self, preset, decl_totals, repik, pik_window="until_opponent_scores",
                 leader=0, tricks_done=0, won=(0, 0), points=(0, 0), pik_count=None, window_open=True, pik=False,
                 capot_keeps_last=None):
        self.style = dict(CLASSIC_PLAY if preset == "classic" else SEED_PLAY)
        if capot_keeps_last is not None:        # the rule option capot_keeps_last_trick
            self.style["capot_keeps_last"] = capot_keeps_last
        self.leader, self.tricks_done = leader, tricks_done
        self.won, self.points = list(won), list(points)
        self.pik_possible = decl_totals[1] == 0 and not repik[0]
        self.count = decl_totals[0] if pik_count is None else pik_count
        self.window_open, self.pik, self.pik_window = window_open, pik, pik_window

    def score(self, player, points):
        self.points[player] += points
        if player == 1:
            self.window_open = False
        elif self.pik_possible and not self.pik and (self.window_open or self.pik_window == "whole_play"):
            self.count += points
            if self.count >= 30:
                self.pik = True

    def trick(self, lead, follow):
        leader = self.leader
        self.score(leader, 1)
        winner = trick_winner(leader, lead, follow)
        self.tricks_done += 1
        self.won[winner] += 1
        if self.style["trick_point"] == "every_trick" or winner != leader:
            points = 1
        else:
            points = 0
        if self.tricks_done == 12:
            mode, value = self.style["last_trick"]
            if mode == "extra":
                points += value
            elif not (self.won[winner] == 12 and not self.style["capot_keeps_last"]):
                points = value
        if points:
            self.score(winner, points)
        self.leader = winner
        return winner

    def bonuses(self, announced=None):
        """End-of-play points per player: леза / the cards, capot, open-capot penalty."""
        extra = [0, 0]
        for p in range(2):
            if self.won[p] == 12:
                extra[p] += 80 if announced == p else 40
            elif self.won[p] > 6:
                extra[p] += 10
        if announced is not None and self.won[announced] != 12:
            extra[1 - announced] += 80
        return extra


def score_full_deal(elder, younger, tricks, preset="ru_seed", pik_window="until_opponent_scores", announced=None,
                    declared=None):
    """Deal totals (elder, younger) for final hands and 12 (lead, follow) card pairs."""
    decl = score(elder, younger, preset, declared=declared)
    totals = [decl["elder"]["total"], decl["younger"]["total"]]
    repik = [decl["elder"]["repik"], decl["younger"]["repik"]]
    play = Play(preset, totals, repik, pik_window)
    for lead, follow in tricks:
        play.trick(lead, follow)
    extra = play.bonuses(announced)
    return [totals[p] + 60 * repik[p] + play.points[p] + extra[p] + (30 * play.pik if p == 0 else 0) for p in range(2)]


def legal(hand, lead):
    same = [c for c in hand if c[1] == lead[1]]
    return same or list(hand)


def lead_value(hands, play, lead, announced=None):
    """Plain minimax value (elder - younger points still to come) of leading `lead` now."""
    leader = play.leader
    replies = []
    for follow in sorted(legal(hands[1 - leader], lead)):
        child = Play.__new__(Play)
        child.__dict__ = {**play.__dict__, "won": list(play.won), "points": list(play.points)}
        before = (child.points[0] - child.points[1], child.pik)
        child.trick(lead, follow)
        gained = (child.points[0] - child.points[1]) - before[0] + 30 * (child.pik - before[1])
        rest = [set(hands[0]), set(hands[1])]
        rest[leader].discard(lead)
        rest[1 - leader].discard(follow)
        replies.append(gained + minimax(rest, child, announced))
    return min(replies) if leader == 0 else max(replies)


def minimax(hands, play, announced=None):
    """Plain minimax over every legal card: the best (elder - younger) points still to come."""
    if play.tricks_done == 12 or not hands[0]:
        extra = play.bonuses(announced)
        return extra[0] - extra[1]
    results = [lead_value(hands, play, lead, announced) for lead in sorted(hands[play.leader])]
    return max(results) if play.leader == 0 else min(results)
