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


def score(elder, younger, preset="ru_seed", pips_tiebreak=True):
    e = player_holdings(elder, preset, pips_tiebreak)
    y = player_holdings(younger, preset, pips_tiebreak)
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
