"""Three-handed piquet (shared/rules/piquet.md §10; §12 column ru_three; §15 item 16).

Presets: ``ru_three`` (the declaration values of two-handed ``ru_seed``: tierce 13, quart 14) and
``ru_three_seq34`` (those of ``ru_seed_seq34``: tierce 3, quart 4). Every default of §15 item 16
is an option: ``dealer_exchange`` (all or nothing; add 1 to allow a one-card exchange),
``category_tie`` (a tied best holding scores for nobody, or for every tied holder), ``pik_seat``
(only the first leader may pik, or any), ``leza`` (a unique top trick count, or 6+ tricks),
``capot_keeps_last_trick`` (the 10th trick counts 1 in a capot), ``target`` (100), ``survivors``
(the two left go on with two-handed ru_seed deals, or the game stops at the first finisher) and
``stake`` (what the loser pays each of the others).

Seats of a deal: ``dealer`` (D), ``first`` (the first leader, the dealer's left) and ``third``.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np
import pandas as pd

from .. import option_parsing as parsing
from .._core import piquet_three as core
from ..cards import PIQUET32, Cards, check_disjoint
from ..stats import histogram_moments, mean_interval, wilson
from . import Analysis, Game
from . import piquet as two
from .piquet import exact_hand_probabilities

HAND_SIZE = 10
TRICKS = 10
SEATS = ("dealer", "first", "third")
PLAYERS = ("A", "B", "C")
PLACES = ("first", "second", "last")
CATEGORIES = two.CATEGORIES

_DECLARATION_KEYS = ("seq_values", "point_tiebreak", "carte_blanche_value", "carte_blanche_when", "trio_value",
                     "quatorze_value")
_THREE = dict(
    dealer_exchange=(0, 2), category_tie="nobody", repik_threshold=20, repik_bonus=70, pik_threshold=20,
    pik_bonus=40, pik_seat="first_leader", pik_window="until_any_opponent_scores", last_trick_value=4,
    capot_keeps_last_trick=False, leza="unique_top", leza_bonus=10, capot_bonus=20, target=100,
    survivors="two_handed", stake=1,
)
# The parent two-handed preset of each three-handed one: its declaration values, and the rules the
# two survivors play.
PARENT = {"ru_three": "ru_seed", "ru_three_seq34": "ru_seed_seq34"}
PRESETS: dict[str, dict[str, Any]] = {
    name: dict({k: two.PRESETS[parent][k] for k in _DECLARATION_KEYS}, **_THREE) for name, parent in PARENT.items()
}
_CHOICES = {
    "point_tiebreak": ("pips", "none"),
    "carte_blanche_when": ("dealt", "final", "both"),
    "category_tie": ("nobody", "tied_score"),
    "pik_seat": ("first_leader", "any"),
    "pik_window": ("until_any_opponent_scores", "whole_play"),
    "leza": ("unique_top", "majority"),
    "survivors": ("two_handed", "stop"),
}
_LIMITS = {
    "carte_blanche_value": (0, 100), "trio_value": (0, 100), "quatorze_value": (0, 100),
    "repik_threshold": (1, 200), "repik_bonus": (0, 500), "pik_threshold": (1, 200), "pik_bonus": (0, 500),
    "last_trick_value": (0, 20), "leza_bonus": (0, 100), "capot_bonus": (0, 200), "target": (1, 1000),
    "stake": (1, 100),
}


def _dealer_exchange(key: str, value: Any) -> tuple:
    counts = sorted({parsing.integer(key, v, 0, 2) for v in parsing.items(key, value)})
    if 0 not in counts or len(counts) < 2:
        raise ValueError(f"option dealer_exchange must allow refusing (0) and taking 1 or 2 cards, got {value!r}")
    return tuple(counts)


def validate_option(key: str, value: Any) -> Any:
    """Check one rule option (accepts the string forms the CLI passes)."""
    return parsing.parse("piquet_three", key, value, choices=_CHOICES, flags=("capot_keeps_last_trick",),
                         limits=_LIMITS, special={"seq_values": two.validate_option, "dealer_exchange": _dealer_exchange})


def check_rules(rules: dict) -> None:
    """Checks across options (each option alone is checked by validate_option)."""
    if rules["pik_seat"] == "any" and rules["pik_window"] == "until_any_opponent_scores":
        # the first leader scores a point for his first lead before anyone else can score in play,
        # so any other seat's window is shut before it could count: only first_leader is possible
        raise ValueError("option pik_seat=any needs pik_window=whole_play: with until_any_opponent_scores the "
                         "first leader's opening lead closes every other player's window, so only he can pik")


def two_handed_rules(rules: dict[str, Any]) -> dict[str, Any]:
    """The two-handed ru_seed rules the survivors of a game play, with this game's declaration
    values (ru_seed and ru_seed_seq34 differ only in those)."""
    return two.GAME.resolve_rules("ru_seed", {k: rules[k] for k in _DECLARATION_KEYS})


# ---------------------------------------------------------------------------------------------
# Analyses

def _deal_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    return core.deal_shard(bit_generators, n_deals, rules, strategies, two_handed_rules(rules))


def _game_kernel(bit_generators, n_games: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    return core.game_shard(bit_generators, n_games, rules, strategies, two_handed_rules(rules))


def _compare_kernel(bit_generators, n_deals: int, rules: dict, strategies: dict) -> dict[str, np.ndarray]:
    return core.compare_shard(bit_generators, n_deals, rules, strategies, two_handed_rules(rules))


# Strategy names, the default first (the kernel knows them by name: core.*_STRATEGIES).
EXCHANGE = ("heuristic", "refuse", "best_expected")
PLAY = ("greedy", "random", "pimc")
DEAL_ROLES = {"dealer_exchange": EXCHANGE, "dealer_play": PLAY, "first_play": PLAY, "third_play": PLAY}
GAME_ROLES = {f"{p}_{what}": names for p in "abc" for what, names in (("exchange", EXCHANGE), ("play", PLAY))}
COMPARE_ROLES = {f"{p}_{what}": names for p in "ab" for what, names in (("exchange", EXCHANGE), ("play", PLAY))}

GAME = Game(
    name="piquet_three",
    title="Piquet for three",
    presets=PRESETS,
    validate_option=validate_option,
    analyses={
        "deal": Analysis("deal", "Three-handed deals: dealer's exchange, declarations among three, play, "
                         "pik/repik, леза, capot, deal totals by seat", _deal_kernel, streams=4,
                         strategies=DEAL_ROLES, summary=lambda counters, rules, strategies: [
                             ("deals by seat", deal_table(counters, rules)),
                             ("dealt hands beside the exact values", hand_table(counters))]),
        "game": Analysis("game", "Games to the target between players A, B, C: deals per game and the "
                         "finishing order by seat; deals = games", _game_kernel, streams=4, strategies=GAME_ROLES,
                         summary=lambda counters, rules, strategies: [
                             ("games", game_table(counters, rules["stake"]))], unit="games"),
        "compare": Analysis("compare", "Duplicate deals: each deal six times, A alone in each seat against two "
                            "B's and B alone against two A's; A's minus B's deal totals over their nine seats",
                            _compare_kernel, streams=3, strategies=COMPARE_ROLES),
    },
    report=lambda ctx: build_report(ctx),
    compare_strategies=lambda a, b: compare_strategies(a, b),
    compare_shard_size=lambda strategies: compare_shard_size(strategies),
    check_rules=check_rules,
)


def compare_strategies(a: str, b: str) -> dict[str, str]:
    """Roles of the compare analysis (a_exchange, a_play, b_exchange, b_play) for two labels.

    A label is a card-play strategy (greedy, random, pimc) with the heuristic exchange, or
    "EXCHANGE+PLAY" (e.g. "refuse+greedy") to vary the dealer's exchange too; only the strategy in
    the dealer's seat exchanges. Each deal is played six times: A alone in the dealer's, the
    first leader's and the third seat against two B's, then B alone in each seat against two A's,
    so each strategy plays every seat three times (once alone, twice as one of a pair). The
    per-deal result of a strategy is the sum of its deal totals (raw points) over its nine seats,
    and the paired difference is A's minus B's. This raw currency is used rather than "score
    minus the mean of the others at the table": that one is zero-sum at every table (A's result
    is minus B's), so the unpaired interval would equal the paired one and show nothing, and it
    is not an integer. With the nine seats balanced, the hand luck cancels in the difference."""
    roles = {}
    for side, label in (("a", a), ("b", b)):
        exchange, plus, play = label.rpartition("+")
        exchange = exchange if plus else EXCHANGE[0]
        if exchange not in EXCHANGE or play not in PLAY:
            raise ValueError(f"unknown piquet_three strategy {label!r}: write PLAY or EXCHANGE+PLAY with PLAY one "
                             f"of {', '.join(PLAY)} and EXCHANGE one of {', '.join(EXCHANGE)} (default heuristic)")
        roles.update({f"{side}_exchange": exchange, f"{side}_play": play})
    return roles


def compare_shard_size(strategies: dict) -> int:
    """Deals per shard of a comparison: each deal is played six times."""
    return max(1, shard_size_for(strategies) // 6)


# ---------------------------------------------------------------------------------------------
# Tables from merged counters

def _rate(event: str, who: str, count, n, exact=None) -> dict:
    low, high = wilson(count, n)
    return dict(event=event, seat=who, count=int(count), n=int(n), estimate=count / n if n else np.nan,
                ci_low=float(low), ci_high=float(high), exact=float(exact) if exact is not None else np.nan)


def _mean(event: str, who: str, hist) -> dict:
    count, total, total_sq = histogram_moments(hist)
    mean, low, high = mean_interval(total, total_sq, count)
    return dict(event=event, seat=who, count=pd.NA, n=count, estimate=mean, ci_low=low, ci_high=high, exact=np.nan)


def _frame(rows) -> pd.DataFrame:
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    return table


def deal_table(counters: dict[str, np.ndarray], options: dict | None = None) -> pd.DataFrame:
    """Rates (Wilson 95%) and means (normal 95%) of three-handed deals, by seat. A category
    without a single winner is "nobody"'s; under category_tie=tied_score every tied holder
    scored it, and the row says so."""
    tied_score = options is not None and options.get("category_tie") == "tied_score"
    n = int(counters["deals"][0])
    rows = []
    for p, who in enumerate(SEATS):
        rows.append(_rate("repik", who, counters["repik"][p], n))
        rows.append(_rate("pik", who, counters["pik"][p], n))
        rows.append(_rate("pik possible (both others declared nothing)", who, counters["pik_possible"][p], n))
        rows.append(_rate("pik or repik", who, counters["pik"][p] + counters["repik"][p], n))
        rows.append(_rate("capot", who, counters["capot"][p], n))
        rows.append(_rate("леза", who, counters["leza"][p], n))
        rows.append(_rate("highest deal total", who, counters["top_scorer"][p], n))
    rows.append(_rate("capot", "any", counters["capot"].sum(), n))
    rows.append(_rate("леза", "any", counters["leza"].sum(), n))
    rows.append(_rate("no леза and no capot (top trick count shared)", "all", counters["leza_shared"][0], n))
    rows.append(_rate("highest deal total shared", "all", counters["top_scorer"][3], n))
    for k in range(counters["dealer_exchanged"].size):
        rows.append(_rate(f"dealer exchanges {k} card{'s' if k != 1 else ''}", "dealer", counters["dealer_exchanged"][k], n))
    for c, category in enumerate(CATEGORIES):
        for w, who in enumerate(SEATS + ("nobody, or each tied holder" if tied_score else "nobody",)):
            rows.append(_rate(f"{category} scored by", who, counters["category_winner"][c, w], n))
    for p, who in enumerate(SEATS):
        rows.append(_mean("mean deal total", who, counters["total_hist"][p]))
        rows.append(_mean("mean declarations (after the exchange)", who, counters["decl_hist"][p]))
        rows.append(_mean("mean play points", who, counters["play_hist"][p]))
        rows.append(_mean("mean tricks", who, counters["tricks_hist"][p]))
    return _frame(rows)


def hand_table(counters: dict[str, np.ndarray], with_exact: bool = True) -> pd.DataFrame:
    """Single-hand events of the dealt 10-card hands by seat, beside their exact probabilities."""
    n = int(counters["deals"][0])
    exact = exact_hand_probabilities(HAND_SIZE) if with_exact else {}
    rows = []
    for p, who in enumerate(SEATS):
        events = dict(zip(core.HAND_EVENTS, counters["hand_events"][p]))
        events["at least one quatorze"] = counters["quatorzes"][p, 1:].sum()
        events["at least two quatorzes"] = counters["quatorzes"][p, 2:].sum()
        events.update({f"point length >= {k}": counters["point_len"][p, k:].sum() for k in range(4, 9)})
        events.update({f"sequence >= {L}": counters["seq_len"][p, L:].sum() for L in range(3, 9)})
        for event, count in events.items():
            rows.append(_rate(event, who, count, n, exact.get(event)))
    return _frame(rows)


def game_table(counters: dict[str, np.ndarray], stake: int = 1) -> pd.DataFrame:
    """Finishing places by seat in the first deal, deals per game, and each seat's mean result
    (the last pays `stake` to each of the other two)."""
    finished = int(counters["place_by_seat"][0].sum())
    rows = []
    for s, who in enumerate(SEATS):
        for place, name in enumerate(PLACES):
            rows.append(_rate(f"finishes {name}", who, counters["place_by_seat"][s, place], finished))
        last = counters["place_by_seat"][s, 2]
        low, high = wilson(last, finished)
        p_last = last / finished if finished else np.nan
        rows.append(dict(event=f"mean result (+{stake} unless last, -{2 * stake} if last)", seat=who, count=pd.NA,
                         n=finished, estimate=stake * (1 - 3 * p_last), ci_low=float(stake * (1 - 3 * high)),
                         ci_high=float(stake * (1 - 3 * low)), exact=np.nan))
    for p, who in enumerate(PLAYERS):
        rows.append(_rate("finishes first", f"player {who}", counters["place_by_player"][p, 0], finished))
    rows.append(_mean("mean deals per game", "all", counters["deals_hist"]))
    rows.append(_mean("mean three-handed deals (until the first finisher)", "all", counters["three_handed_hist"]))
    rows.append(_rate("game unfinished after the deal limit", "all", counters["unfinished"][0], int(counters["games"][0])))
    return _frame(rows)


# ---------------------------------------------------------------------------------------------
# Single-deal API

@dataclass(frozen=True)
class SeatResult:
    hand: tuple[str, ...]
    carte_blanche: int
    point: int
    sequences: int
    sets: int
    declarations: int
    repik: int                   # bonus points
    pik: int                     # bonus points
    play: int                    # leads, tricks, last trick
    tricks: int
    leza: int
    capot: int
    total: int


@dataclass(frozen=True)
class ThreeDealResult:
    rules: str
    options: dict
    dealer: SeatResult
    first: SeatResult
    third: SeatResult
    tricks: tuple[tuple[str, str, str], ...]     # in play order from each trick's leader
    leaders: tuple[str, ...]
    winners: tuple[str, ...]
    category_winners: tuple[str, ...]            # by category: a seat, "dealer and first" (two blank hands,
                                                 # or a tie under category_tie=tied_score) or "nobody"

    @property
    def seats(self) -> tuple[SeatResult, SeatResult, SeatResult]:
        return (self.dealer, self.first, self.third)

    def explain(self) -> str:
        o = self.options
        lines = [f"Rules: {self.rules} (sequences 3..8 = {'/'.join(map(str, o['seq_values']))}; repik at "
                 f"{o['repik_threshold']} +{o['repik_bonus']}; pik at {o['pik_threshold']} +{o['pik_bonus']}; "
                 f"леза {o['leza_bonus']} ({o['leza']}); capot {o['capot_bonus']})", ""]
        for who, seat in zip(SEATS, self.seats):
            lines.append(f"{who:6s} {' '.join(seat.hand)}")
        lines.append("")
        for c, category in enumerate(CATEGORIES):
            held = "; ".join(f"{who}: {two.describe_holdings(seat.hand)[category]}" for who, seat in zip(SEATS, self.seats))
            lines.append(f"{category.capitalize()}: scored by {self.category_winners[c]}  ({held})")
        lines.append("Tricks (in play order from the leader):")
        for i, (cards, leader, winner) in enumerate(zip(self.tricks, self.leaders, self.winners), 1):
            lines.append(f"  {i:2d}. {leader:6s} leads {'/'.join(cards)}  won by {winner}")
        lines += ["", f"{'':16s}" + "".join(f"{who:>8s}" for who in SEATS)]
        for field in ("declarations", "repik", "pik", "play", "tricks", "leza", "capot", "total"):
            lines.append(f"{field:16s}" + "".join(f"{getattr(seat, field):8d}" for seat in self.seats))
        return "\n".join(lines)


def _parse_tricks(tricks) -> list[tuple[str, str, str]]:
    if isinstance(tricks, str):
        tricks = [t for t in tricks.replace(",", " ").split() if t]
    out = []
    for i, trick in enumerate(tricks, 1):
        parts = trick.split("/") if isinstance(trick, str) else list(trick)
        if len(parts) != 3:
            raise ValueError(f"trick {i}: expected three cards 'a/b/c' in play order, got {trick!r}")
        out.append(tuple(PIQUET32.parse([c], 1, f"trick {i}")[0] for c in parts))
    return out


def _parse_hands(dealer: Cards, first: Cards, third: Cards, dealer_dealt: Cards | None, rules: str,
                 options: dict[str, Any]) -> tuple[list, list]:
    """The dealt and final hands of the three seats (dealer, first, third), checked: 10 valid,
    distinct cards each, and the dealer's exchange (dealt hand against final) of a size the rules
    allow. Without dealer_dealt the dealer refused the talon: dealt and final are the same."""
    names = ("dealer hand", "first hand", "third hand")
    final = [PIQUET32.parse(h, HAND_SIZE, what) for h, what in zip((dealer, first, third), names)]
    check_disjoint(final, SEATS)
    dealt = list(final)
    if dealer_dealt is not None:
        dealt[0] = PIQUET32.parse(dealer_dealt, HAND_SIZE, "dealer dealt hand")
        check_disjoint(dealt, ("dealer dealt", "first", "third"))
        k = len(set(dealt[0]) - set(final[0]))
        if k not in options["dealer_exchange"]:
            allowed = ", ".join(map(str, options["dealer_exchange"]))
            raise ValueError(f"the dealer exchanged {k} cards; the {rules} rules allow {allowed}")
    return dealt, final


def score_deal_three(dealer: Cards, first: Cards, third: Cards, tricks, rules: str = "ru_three",
                     dealer_dealt: Cards | None = None, **overrides) -> ThreeDealResult:
    """Score a whole three-handed deal: the final 10-card hands of the dealer, the first leader
    (the dealer's left) and the third player, and the ten tricks as ``"a/b/c"`` strings in play
    order from the trick's leader (the first leader leads trick 1; play goes first, third,
    dealer). ``dealer_dealt`` is the dealer's hand before his exchange (default: he refused the
    talon); carte blanche is judged on the dealt hands unless the options say otherwise.
    Malformed or duplicate cards, wrong sizes, an exchange of a size the rules do not allow and
    illegal plays raise ValueError naming the problem."""
    options = GAME.resolve_rules(rules, overrides)
    dealt, final = _parse_hands(dealer, first, third, dealer_dealt, rules, options)
    played = _parse_tricks(tricks)
    if len(played) != TRICKS:
        raise ValueError(f"a three-handed deal has {TRICKS} tricks, got {len(played)}")
    masks = [PIQUET32.mask(h) for h in final]
    # legality: each trick is led by the winner of the previous one
    hands = [set(h) for h in final]
    leader, indices = 1, []
    for i, cards in enumerate(played, 1):
        for j, card in enumerate(cards):
            seat = (leader + j) % 3
            if card not in hands[seat]:
                raise ValueError(f"trick {i}: {SEATS[seat]} plays {card}, which he does not hold")
            if j and card[1] != cards[0][1] and any(c[1] == cards[0][1] for c in hands[seat]):
                raise ValueError(f"trick {i}: {SEATS[seat]} must follow suit to {cards[0]} but plays {card}")
        for j, card in enumerate(cards):
            hands[(leader + j) % 3].discard(card)
        best = max(range(3), key=lambda j: (cards[j][1] == cards[0][1], PIQUET32.ranks.index(cards[j][0])))
        leader = (leader + best) % 3
        indices.append([PIQUET32.bit(c) for c in cards])
    out = core.score_played_deal([PIQUET32.mask(h) for h in dealt], masks, indices, options)
    decl, score = out["declarations"], out["score"]
    seats = []
    for p in range(3):
        cb, point, seqs, sets = decl["score"][p]
        seats.append(SeatResult(
            hand=tuple(PIQUET32.from_mask(masks[p])), carte_blanche=cb, point=point, sequences=seqs, sets=sets,
            declarations=score["declarations"][p], repik=score["repik"][p] * options["repik_bonus"],
            pik=score["pik"][p] * options["pik_bonus"], play=score["play"][p], tricks=score["tricks"][p],
            leza=score["leza"][p], capot=score["capot"][p], total=score["total"][p]))
    return ThreeDealResult(rules, options, *seats, tricks=tuple(played),
                           leaders=tuple(SEATS[p] for p in out["leaders"]),
                           winners=tuple(SEATS[p] for p in out["winners"]),
                           category_winners=_category_scorers(decl))


def _category_scorers(decl) -> tuple[str, ...]:
    """Who scored each category: the kernel's single winner, else every seat that scored it (the
    kernel records no winner for two blank hands, or a tie scored under category_tie=tied_score)."""
    names = []
    for c, w in enumerate(decl["winner"]):
        seats = [SEATS[w]] if w < len(SEATS) else [who for p, who in enumerate(SEATS) if decl["score"][p][c]]
        if len(seats) > 1:
            names.append(", ".join(seats[:-1]) + " and " + seats[-1])
        else:
            names.append(seats[0] if seats else "nobody")
    return tuple(names)


def score_declarations_three(dealer: Cards, first: Cards, third: Cards, rules: str = "ru_three",
                             dealer_dealt: Cards | None = None, **overrides) -> dict[str, Any]:
    """The declarations of three final 10-card hands: per seat the category scores (carte blanche,
    point, sequences, sets), the total and the repik flag, and who scored each category."""
    options = GAME.resolve_rules(rules, overrides)
    dealt, final = _parse_hands(dealer, first, third, dealer_dealt, rules, options)
    decl = core.score_played_deal([PIQUET32.mask(h) for h in dealt], [PIQUET32.mask(h) for h in final], [],
                                  options)["declarations"]
    return {"seats": {who: dict(zip(("carte_blanche", "point", "sequences", "sets"), decl["score"][p]),
                                total=decl["total"][p], repik=bool(decl["repik"][p])) for p, who in enumerate(SEATS)},
            "category_winners": dict(zip(("carte_blanche", "point", "sequences", "sets"), _category_scorers(decl)))}


def places_from_totals(deal_totals, first_leaders, rules: str = "ru_three", **overrides) -> dict[str, Any]:
    """Finishing order of players A, B, C from the raw totals of each deal (a list of three
    numbers per deal, in player order, 0 for a player already out) and the player who led first in
    each deal ("A", "B" or "C"). Returns the places (first/second/last or None) and the totals."""
    options = GAME.resolve_rules(rules, overrides)
    rows = [list(t) for t in deal_totals]
    if any(len(r) != 3 for r in rows):
        raise ValueError("each deal needs a total for each of the three players")
    leaders = [PLAYERS.index(x) if x in PLAYERS else -1 for x in first_leaders]
    if len(leaders) != len(rows) or -1 in leaders:
        raise ValueError("give one first leader (A, B or C) per deal")
    for r in rows:
        for v in r:
            parsing.integer("deal total", v, 0, 1000)
    places, totals = core.places_from_totals(rows, leaders, options["target"], options["survivors"] == "stop")
    return {"places": {p: (PLACES[x] if x >= 0 else None) for p, x in zip(PLAYERS, places)},
            "totals": dict(zip(PLAYERS, totals))}


def play_one(seed: int = 1, rules: str = "ru_three", strategies: dict | None = None, **overrides) -> str:
    """Deal and play one three-handed deal from a seed with named strategies; returns the readable
    record (the format of the golden playthroughs in tests/golden/piquet_three/)."""
    from ..runner import shard_bit_generators

    options = GAME.resolve_rules(rules, overrides)
    chosen = GAME.analysis("deal").resolve_strategies(strategies)
    d = core.sample_deals(shard_bit_generators(seed, 0, 4), 1, options, chosen, two_handed_rules(options))
    fmt = PIQUET32.format
    lines = [f"piquet for three, rules {rules}, seed {seed}",
             "strategies: " + ", ".join(f"{k}={v}" for k, v in chosen.items())]
    for p, who in enumerate(SEATS):
        lines.append(f"{who:6s} dealt: {fmt(int(d['dealt'][0, p]))}")
    lines.append(f"talon: {fmt(int(d['talon'][0]))}")
    discard = int(d["discard"][0])
    lines.append(f"dealer discards {fmt(discard)}, takes the talon" if discard else "dealer refuses the talon")
    lines.append(f"dealer final: {fmt(int(d['final'][0, 0]))}")
    for i in range(TRICKS):
        leader = int(d["leaders"][0, i])
        cards = [PIQUET32.card(int(c)) for c in d["cards"][0, i]]
        lines.append(f"trick {i + 1:2d}: {SEATS[leader]:6s} leads; " +
                     ", ".join(f"{SEATS[(leader + j) % 3]} {c}" for j, c in enumerate(cards)))
    for f, field in enumerate(core.SCORE_FIELDS):
        lines.append(f"{field:14s}" + "   ".join(f"{who} {int(d['scores'][0, f, p]):4d}" for p, who in enumerate(SEATS)))
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------------------------------------
# Report

# (dealer exchange, play of all three) and the number of deals per preset
DEAL_GRID = (("heuristic", "greedy", 1_000_000), ("refuse", "greedy", 1_000_000), ("heuristic", "random", 1_000_000),
             ("best_expected", "greedy", 20_000), ("heuristic", "pimc", 500))
REPORT_GAMES = 200_000
KEY_EVENTS = ("repik", "pik", "capot", "леза", "mean deal total")


def shard_size_for(strategies: dict) -> int:
    names = set(strategies.values())
    if "pimc" in names:
        return 25
    if "best_expected" in names:
        return 1_000
    return 200_000


def _deal_strategies(exchange: str, play: str) -> dict[str, str]:
    return {"dealer_exchange": exchange, "dealer_play": play, "first_play": play, "third_play": play}


def _game_strategies(exchange: str, play: str) -> dict[str, str]:
    return {f"{p}_{w}": v for p in "abc" for w, v in (("exchange", exchange), ("play", play))}


def build_report(ctx) -> list:
    import matplotlib.pyplot as plt
    from ..report import Section, distribution_plot, rate_bars

    key, full, hands, totals = [], [], None, {}
    for preset in PRESETS:
        for exchange, play, deals in DEAL_GRID:
            strategies = _deal_strategies(exchange, play)
            result = ctx.run("piquet_three", "deal", preset, deals, strategies=strategies,
                             shard_size=shard_size_for(strategies))
            table = deal_table(result.counters).assign(rules=preset, exchange=exchange, play=play)
            full.append(table)
            key.append(table[table.event.isin(KEY_EVENTS) & table.seat.isin(SEATS)])
            if (exchange, play) == ("heuristic", "greedy"):
                totals[preset] = result.counters["total_hist"]
                if hands is None:
                    hands = hand_table(result.counters)
    key_table = pd.concat(key, ignore_index=True)
    by_seat = key_table.pivot_table(index=["rules", "exchange", "play"], columns=["event", "seat"], values="estimate")
    by_seat.columns = [f"{e} ({s})" for e, s in by_seat.columns]
    deals = Section(
        "Three-handed deals by seat",
        "Ten cards each, a two-card talon for the dealer, declarations among three (a tied best holding "
        "scores for nobody), repik at 20 (+70), pik at 20 (+40, first leader only, until an opponent "
        "scores), леза +10 for a unique top trick count, capot +20. Dealer's exchange: `heuristic` "
        "(discard the two cards of least keep value, always take), `refuse`, `best_expected` (refusing "
        "and each discard scored by the expected declaration value over sampled layouts); play by "
        "all three: `greedy`, `random`, `pimc` (sampled hidden hands, each card scored by greedy "
        "playouts)." + ("" if ctx.deals else " Rows with `best_expected` and `pimc` use fewer deals (see n)."),
        tables=[("Key rates by seat (estimates; intervals in the next table)", by_seat.reset_index()),
                ("Key rates with intervals", key_table),
                ("Every deal statistic", pd.concat(full, ignore_index=True))])
    fig = distribution_plot({f"{preset}, {who}": hist[p] for preset, hist in totals.items() for p, who in enumerate(SEATS)},
                            "deal total (heuristic exchange, greedy play)", legend_size=7)
    deals.figures.append(("Distribution of three-handed deal totals by seat.", fig))
    fig, axes = plt.subplots(1, 3, figsize=(13, 5.5), sharey=True)
    for ax, event in zip(axes, ("repik", "pik", "capot")):
        rows = key_table[(key_table.event == event) & (key_table.rules == next(iter(PRESETS)))]
        rate_bars(rows.assign(label=rows.exchange + " + " + rows.play + ", " + rows.seat), "label", title=event, ax=ax)
    fig.tight_layout()
    deals.figures.append((f"Repik, pik and capot by seat for each exchange + play strategy ({next(iter(PRESETS))}, "
                          "95% intervals" + ("" if ctx.deals else "; pimc and best_expected rows have fewer deals")
                          + ").", fig))
    hand_section = Section(
        "Single 10-card hands: simulation beside exact values",
        "Events of the dealt 10-card hands (before the exchange), by seat, beside exact probabilities "
        "counted as rules/piquet.md §14.2 does for 12-card hands (suits independent given their sizes; "
        f"C(32, 10) = {comb(32, 10):,} hands).",
        tables=[("Hand events", hands)])
    fig, axes = plt.subplots(1, len(SEATS), figsize=(13, 6), sharey=True)
    for ax, seat in zip(axes, SEATS):
        rate_bars(hands[hands.seat == seat], "event", title=f"{seat}'s dealt hand", ax=ax)
    fig.tight_layout()
    hand_section.figures.append(("Events of the dealt 10-card hands by seat: estimates with 95% intervals, exact "
                                 "values in red.", fig))
    games = []
    for preset in PRESETS:
        result = ctx.run("piquet_three", "game", preset, REPORT_GAMES, strategies=_game_strategies("heuristic", "greedy"))
        games.append(game_table(result.counters, PRESETS[preset]["stake"]).assign(rules=preset))
    game_section = Section(
        "The game to 100",
        "Three players with the same strategies (heuristic exchange, greedy play). The first to reach "
        "100 leaves as first; the other two go on with two-handed ru_seed deals (cumulative totals) "
        "until one reaches 100 and is second; the last pays one stake to each. Seats are those of the "
        "first deal (the deal then passes to the left).",
        tables=[("Finishing order by seat and game length", pd.concat(games, ignore_index=True))])
    return [deals, hand_section, game_section]


# ---------------------------------------------------------------------------------------------
# Command line: kozyr piquet_three deals | game | explain | play | exact

def register_cli(sub) -> None:
    from .. import cli

    deals = sub.add_parser("deals", help="three-handed deals with chosen strategies: pik, repik, леза, capot by seat")
    cli.add_run_options(deals, "piquet_three", default_deals=100_000)
    cli.add_strategy_option(deals, "piquet_three", "deal")
    deals.add_argument("--hands", action="store_true", help="show the dealt-hand events beside the exact values")
    deals.set_defaults(handler=_cmd_run, analysis="deal")

    game = sub.add_parser("game", help="games to the target between A, B, C (--deals = games)")
    cli.add_run_options(game, "piquet_three", default_deals=20_000, analysis="game")
    cli.add_strategy_option(game, "piquet_three", "game")
    game.set_defaults(handler=_cmd_run, analysis="game", hands=False)

    explain = sub.add_parser("explain", help="score one given three-handed deal")
    explain.add_argument("--dealer", required=True, help='10 cards, e.g. "KH QH JH ..."')
    explain.add_argument("--first", required=True, help="10 cards of the first leader")
    explain.add_argument("--third", required=True, help="10 cards")
    explain.add_argument("--tricks", required=True, help='the 10 tricks in play order: "AS/7S/8S KS/..."')
    explain.add_argument("--dealer-dealt", help="the dealer's hand before his exchange")
    explain.add_argument("--rules", default="ru_three", choices=list(PRESETS))
    cli.add_set_option(explain)
    explain.add_argument("--json", action="store_true")
    explain.set_defaults(handler=_cmd_explain)

    play = sub.add_parser("play", help="deal and play one seeded deal with named strategies, step by step")
    play.add_argument("--seed", type=cli.seed, default=1)
    play.add_argument("--rules", default="ru_three", choices=list(PRESETS))
    cli.add_set_option(play)
    cli.add_strategy_option(play, "piquet_three", "deal")
    play.set_defaults(handler=_cmd_play)

    exact = sub.add_parser("exact", help="exact single-hand probabilities of a 10-card hand (or --cards N)")
    exact.add_argument("--cards", type=int, default=HAND_SIZE, choices=range(4, 17), metavar="N",
                       help=f"hand size, 4 to 16 (default {HAND_SIZE})")
    exact.add_argument("--json", action="store_true")
    exact.set_defaults(handler=_cmd_exact)


def _cmd_run(args) -> int:
    from .. import cli

    if args.shard_size is None:
        args.shard_size = shard_size_for(GAME.analysis(args.analysis).resolve_strategies(dict(args.strategies)))
    # --hands prints the deal analysis's second table instead of its first
    return cli.emit_summary(args, cli.execute(args, "piquet_three", args.analysis), 1 if args.hands else 0)


def _cmd_explain(args) -> int:
    import json
    from dataclasses import asdict

    result = score_deal_three(args.dealer, args.first, args.third, args.tricks, args.rules,
                              dealer_dealt=args.dealer_dealt, **dict(args.overrides))
    print(json.dumps(asdict(result), indent=2, default=str) if args.json else result.explain())
    return 0


def _cmd_play(args) -> int:
    print(play_one(args.seed, args.rules, dict(args.strategies), **dict(args.overrides)), end="")
    return 0


def _cmd_exact(args) -> int:
    import json

    table = pd.DataFrame([dict(event=e, probability=str(p), decimal=float(p))
                          for e, p in exact_hand_probabilities(args.cards).items()])
    if args.json:
        print(json.dumps({"cards": args.cards, "table": json.loads(table.to_json(orient="records"))}, indent=2))
    else:
        print(f"# exact single-hand probabilities, {args.cards} cards from 32 ({comb(32, args.cards):,} hands)")
        with pd.option_context("display.max_rows", None, "display.width", 200):
            print(table.to_string(index=False))
    return 0
