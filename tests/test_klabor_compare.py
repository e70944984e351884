"""Klabor strategy comparison on duplicate deals (issue 7): labels, the pairing identity against
ordinary single-deal runs on the same seed, separate strategy streams, the CLI."""
import json
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from analyzer._core import klabor as core
from analyzer.compare import COMPARE_COUNTERS, compare
from analyzer.games import get_game
from analyzer.games import klabor as k
from analyzer.runner import shard_bit_generators

import klabor_reference as ref
from compare_reference import compare_counters

RULES = k.PRESETS["standard"]
LAYOUT_FIELDS = ("elder_first", "dealer_first", "elder_second", "dealer_second", "turnup", "bottom")
col = {name: i for i, name in enumerate(core.ROW_FIELDS)}


def spec_for(elder: str, dealer: str, rules=RULES) -> dict:
    """Kernel spec of a single deal with the strategy labelled `elder` as player A (the elder)
    and `dealer` as player B."""
    (pa, ta), (pb, tb) = k.parse_label(elder), k.parse_label(dealer)
    spec = k.kernel_spec(rules, {"play_a": pa, "play_b": pb})
    spec["threshold_a"] = rules["threshold"] if ta == "rules" else int(ta)
    spec["threshold_b"] = rules["threshold"] if tb == "rules" else int(tb)
    return spec


def single_deals(seed: int, shard: int, n: int, elder: str, dealer: str) -> np.ndarray:
    """Rows of the ordinary single-deal kernel on a shard's dealing stream."""
    rows = np.zeros((n, len(core.ROW_FIELDS)), np.int32)
    core.deals_shard(shard_bit_generators(seed, shard, 2), n, spec_for(elder, dealer), rows)
    return rows.astype(np.int64)


def as_dict(counters) -> dict[str, int]:
    return {key: int(counters[key][0]) for key in COMPARE_COUNTERS}


@pytest.mark.parametrize("a,b", [("greedy@40", "greedy@70"), ("greedy", "greedy@90")])
def test_duplicate_deals_are_the_two_ordinary_runs_with_seats_swapped(a, b):
    # Deterministic strategies: the compare run over three shards equals, shard by shard, the
    # single-deal kernel played once with A as elder and once with B as elder on the same seed.
    n, shard_size, seed = 3000, 1000, 11
    table, runs = compare("klabor", [a, b], deals=n, seed=seed, shard_size=shard_size)
    a_res, b_res = [], []
    for shard in range(n // shard_size):
        first = single_deals(seed, shard, shard_size, a, b)
        second = single_deals(seed, shard, shard_size, b, a)
        assert np.array_equal(first[:, :6], second[:, :6])          # the same cards both times
        a_res.append(first[:, col["score_elder"]] + second[:, col["score_dealer"]])
        b_res.append(first[:, col["score_dealer"]] + second[:, col["score_elder"]])
    expected = compare_counters(np.concatenate(a_res), np.concatenate(b_res))
    assert as_dict(runs[0].counters) == {key: int(v) for key, v in expected.items()}
    row = table.iloc[0]
    assert row.mean_diff == pytest.approx(row.mean_a - row.mean_b)
    assert row.a_better + row.equal + row.b_better == pytest.approx(1.0)


def test_the_result_is_the_deal_score_with_the_bait():
    # The per-deal result is the settled score (a baited maker 0, the opponent both totals), not
    # the raw totals: check on deals where somebody was baited.
    first = single_deals(3, 0, 2000, "greedy@20", "greedy")
    baited = first[first[:, col["baited"]] == 1]
    assert len(baited) > 50
    maker = baited[:, col["maker"]]
    scores = baited[:, [col["score_elder"], col["score_dealer"]]]
    totals = baited[:, [col["total_elder"], col["total_dealer"]]]
    rows = np.arange(len(baited))
    assert (scores[rows, maker] == 0).all()
    assert (scores[rows, 1 - maker] == totals.sum(axis=1)).all()


def compare_rows(seed: int, n: int, a: str, b: str, rules=RULES):
    """Counters and rows (both plays of every deal) of one compare shard."""
    rows = np.zeros((n, 2, len(core.ROW_FIELDS)), np.int32)
    counters = core.compare_shard(shard_bit_generators(seed, 0, 3), n, spec_for(a, b, rules), rows)
    return as_dict(counters), rows.astype(np.int64)


class Draws:
    """The kernel's Rng (csrc/rng.pxd) over one stream: 32-bit halves of 64-bit draws, low half
    first, and Lemire's bounded draw."""

    def __init__(self, gen):
        self.gen, self.high = gen, None

    def next32(self) -> int:
        if self.high is not None:
            out, self.high = self.high, None
            return out
        x = int(self.gen.random_raw())
        self.high = x >> 32
        return x & 0xFFFFFFFF

    def below(self, n: int) -> int:
        product = self.next32() * n
        if product & 0xFFFFFFFF < n:
            threshold = (2 ** 32 - n) % n
            while product & 0xFFFFFFFF < threshold:
                product = self.next32() * n
        return product >> 32


def card_name(bit: int) -> str:
    return ref.NATURAL[bit % 8] + ref.SUITS[bit // 8]


def check_random_plays(rows: np.ndarray, random_player: int, draws: Draws) -> int:
    """Replay every card the random player (0 = A, 1 = B) chose, in the kernel's order (deal by
    deal, A as elder first), against the draws of one stream: its k-th lowest legal card with k
    drawn below the number of legal cards. Returns the number of cards checked."""
    checked = 0
    for deal in rows:
        for play, row in enumerate(deal):
            if row[col["void"]]:
                continue
            seat = random_player if play == 0 else 1 - random_player     # his seat in this play
            trump = ref.SUITS[row[col["trump"]]]
            hand = {card_name(c) for c in range(32) if (row[col["elder_first" if seat == 0 else "dealer_first"]] |
                                                          row[col["elder_second" if seat == 0 else "dealer_second"]]) >> c & 1}
            if row[col["swapper"]] == seat:                       # the dix: trump 7 for the turn-up
                hand = (hand - {"7" + trump}) | {card_name(row[col["turnup"]])}
            leader = 0
            for t in range(9):
                led, reply = card_name(row[col[f"play{2 * t}"]]), card_name(row[col[f"play{2 * t + 1}"]])
                if seat == leader:
                    mine, legal = led, hand
                else:
                    mine, legal = reply, ref.legal_replies(hand, led, trump, RULES["must_head_trump"])
                legal = sorted(legal, key=lambda c: ref.SUITS.index(c[1]) * 8 + ref.NATURAL.index(c[0]))
                assert mine == legal[draws.below(len(legal))]
                hand.discard(mine)
                checked += 1
                leader = row[col[f"winner{t}"]]
    return checked


@pytest.mark.parametrize("a,b,stream", [("random@40", "greedy", 1), ("greedy@60", "random", 2)])
def test_each_strategy_draws_from_its_own_stream(a, b, stream):
    # Every card of the random strategy, in both of its seats over all deals, is the one its own
    # stream (1 for A, 2 for B) gives; the other stream would give other cards.
    n, seed = 300, 5
    _, rows = compare_rows(seed, n, a, b)
    random_player = stream - 1
    assert check_random_plays(rows, random_player, Draws(shard_bit_generators(seed, 0, 3)[stream])) > 2000
    with pytest.raises(AssertionError):
        check_random_plays(rows, random_player, Draws(shard_bit_generators(seed, 0, 3)[3 - stream]))


def test_counters_are_the_sums_of_the_rows_and_the_deals_are_the_single_deals():
    n, seed = 500, 6
    counters, rows = compare_rows(seed, n, "random", "greedy@70")
    first, second = rows[:, 0], rows[:, 1]
    a = first[:, col["score_elder"]] + second[:, col["score_dealer"]]
    b = first[:, col["score_dealer"]] + second[:, col["score_elder"]]
    assert counters == {key: int(v) for key, v in compare_counters(a, b).items()}
    single = single_deals(seed, 0, n, "greedy@30", "random@90")   # other strategies, same seed
    assert np.array_equal(first[:, :6], single[:, :6]) and np.array_equal(second[:, :6], single[:, :6])


def test_bad_rows_array():
    with pytest.raises(ValueError, match="rows must be"):
        core.compare_shard(shard_bit_generators(1, 0, 3), 5, spec_for("greedy", "random"), np.zeros((5, 62), np.int32))


def test_deals_do_not_depend_on_the_strategies():
    # After a shard, the dealing stream is in the same state whatever the strategies, and as after
    # the single-deal kernel with as many deals; a deterministic side leaves its stream untouched.
    seed = 8
    for a, b, n in (("greedy", "random", 300), ("random", "random@30", 300), ("greedy@40", "greedy", 300),
                    ("pimc@60", "greedy", 20), ("random", "pimc", 20)):
        reference = shard_bit_generators(seed, 0, 2)
        core.deals_shard(reference, n, spec_for("greedy", "greedy"))
        gens, fresh = shard_bit_generators(seed, 0, 3), shard_bit_generators(seed, 0, 3)
        core.compare_shard(gens, n, spec_for(a, b, dict(RULES, pimc_samples=2)))
        assert gens[0].state == reference[0].state, (a, b)
        for stream, label in ((1, a), (2, b)):
            assert (gens[stream].state == fresh[stream].state) == label.startswith("greedy"), (a, b, label)


def test_swapping_the_labels_mirrors_the_result():
    one = as_dict(compare("klabor", ["greedy@40", "greedy"], deals=2000, seed=4)[1][0].counters)
    two = as_dict(compare("klabor", ["greedy", "greedy@40"], deals=2000, seed=4)[1][0].counters)
    assert one["diff_sum"] == -two["diff_sum"] and one["diff_sq_sum"] == two["diff_sq_sum"]
    assert (one["wins"], one["draws"], one["losses"]) == (two["losses"], two["draws"], two["wins"])
    assert (one["a_sum"], one["a_sq_sum"]) == (two["b_sum"], two["b_sq_sum"])


def test_label_without_threshold_uses_the_rule_option():
    table, _ = compare("klabor", ["greedy", "greedy@70"], deals=1000, seed=2, overrides={"threshold": 70})
    assert table.iloc[0].equal == 1.0 and table.iloc[0].mean_diff == 0
    table, _ = compare("klabor", ["greedy", "greedy@70"], deals=1000, seed=2)
    assert table.iloc[0].equal < 1.0


def test_greedy_beats_random_and_three_strategies_get_holm():
    table, runs = compare("klabor", ["greedy", "random", "random@80"], deals=5000, seed=1)
    assert list(zip(table.a, table.b)) == [("greedy", "random"), ("greedy", "random@80"), ("random", "random@80")]
    assert table.iloc[0].ci_low > 0 and table.iloc[1].ci_low > 0
    assert (table.p_holm >= table.p_value - 1e-15).all()
    assert "simultaneous" in table.attrs["interval"]
    assert dict(runs[0].config.strategies) == {"play_a": "greedy", "threshold_a": "rules", "play_b": "random",
                                         "threshold_b": "rules"}


def test_workers_and_shards_do_not_change_the_result():
    one, _ = compare("klabor", ["random", "greedy@60"], deals=4000, seed=9, shard_size=1000)
    two, _ = compare("klabor", ["random", "greedy@60"], deals=4000, seed=9, shard_size=1000, workers=2)
    assert one.equals(two)


def test_labels_and_shard_sizes():
    assert k.parse_label("greedy") == ("greedy", "rules")
    assert k.parse_label("pimc@60") == ("pimc", "60")
    assert k.parse_label("random@060") == ("random", "60")
    assert k.compare_strategies("pimc@0", "random@200") == {"play_a": "pimc", "threshold_a": "0",
                                                            "play_b": "random", "threshold_b": "200"}
    game = get_game("klabor")
    assert game.compare_shard_size(k.compare_strategies("greedy", "pimc")) == k.COMPARE_PIMC_SHARD
    assert game.compare_shard_size(k.compare_strategies("greedy", "random@60")) == k.COMPARE_SHARD


@pytest.mark.parametrize("labels,message", [
    (["greedy", "bogus"], "unknown klabor strategy 'bogus'"),
    (["greedy", "heuristic+greedy"], "unknown klabor strategy"),
    (["greedy", "greedy@"], "bad bidding threshold"),
    (["greedy", "greedy@201"], "from 0 to 200"),
    (["greedy", "random@-5"], "bad bidding threshold"),
    (["greedy", "greedy@6x"], "bad bidding threshold"),
    (["greedy"], "at least two"),
    (["greedy", "greedy"], "once"),
])
def test_bad_labels(labels, message):
    with pytest.raises(ValueError, match=message):
        compare("klabor", labels, deals=10, seed=1)


def test_cli_json_with_three_strategies():
    proc = subprocess.run([sys.executable, "-m", "analyzer", "compare", "klabor", "--strategies", "greedy", "pimc",
                           "random@60", "--deals", "30", "--seed", "3", "--set", "pimc_samples=3", "--json",
                           "--no-store"], capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=600)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [(r["a"], r["b"]) for r in data["table"]] == [("greedy", "pimc"), ("greedy", "random@60"),
                                                         ("pimc", "random@60")]
    assert all(r["deals"] == 30 for r in data["table"])
    assert data["runs"][2]["strategies"] == {"play_a": "pimc", "threshold_a": "rules", "play_b": "random",
                                             "threshold_b": "60"}


def test_cli_bad_label_exits_with_a_message():
    proc = subprocess.run([sys.executable, "-m", "analyzer", "compare", "klabor", "--strategies", "greedy", "best",
                           "--deals", "10", "--no-store"], capture_output=True, text=True,
                          cwd=tempfile.gettempdir(), timeout=300)
    assert proc.returncode != 0
    assert "unknown klabor strategy 'best'" in proc.stderr
