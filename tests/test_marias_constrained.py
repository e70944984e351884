"""Mariáš on constrained deals (analyzer/constrained.py): the Stovka experiment and its baselines
given the actor's cards and trumps, checked against exact counts."""
import json
import subprocess
import sys
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from analyzer.cards import MARIAS32
from analyzer.constrained import Sampler, popcount, resolve
from analyzer.games import marias
from analyzer.runner import RunConfig, run, shard_bit_generators

LAYOUT = marias.LAYOUT
ACTOR = "AS TS KS QS 9S AH KH QH AD TC KC QC"      # hlasy in S H C; D and the K+Q of D are free


def config(deals=20_000, seed=3, analysis="stovka", shard_size=5_000, strategies=None, **constraint):
    return RunConfig(game="marias", analysis=analysis, rules="seed", deals=deals, seed=seed, shard_size=shard_size,
                     strategies=strategies or {}, constraint=constraint)


@pytest.mark.parametrize("spec, message", [
    ({"actor": ACTOR + " 7D"}, "13 cards fixed for actor, who holds only 12"),
    ({"middle": "AS", "rear": "AS"}, "given twice: in middle and in rear"),
    ({"actor": "6S"}, "not in the 32-card mariáš pack"),
    ({"trump": "X"}, "trump must be one of S, H, D, C"),
    ({"actor": "AH KH QH JH TH 9H 8H 7H AD KD QD JD", "trump": "S"}, "hold no S"),
    ({"where": "count(talon) > 1"}, "unknown name 'talon'"),
    ({"where": "count(middle & trumps) > 1"}, "unknown name 'trumps'"),     # only with a fixed trump
])
def test_bad_constraints_are_clear_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        resolve(LAYOUT, spec)


def test_the_kernel_refuses_a_trump_without_given_deals():
    from analyzer._core import marias as core

    rules = marias.GAME.resolve_rules("seed")
    strategies = marias.GAME.analysis("stovka").resolve_strategies()
    with pytest.raises(ValueError, match="needs given deals"):
        core.stovka_shard(shard_bit_generators(1, 0, 3), 10, rules, strategies, "forced", "any_hlas", None, 0)
    rows = np.tile(np.arange(32, dtype=np.uint8), (3, 1))          # forehand: 7S..AS 7H...: no clubs
    with pytest.raises(ValueError, match="must hold a card of the trump suit"):
        core.stovka_shard(shard_bit_generators(1, 0, 3), 3, rules, strategies, "forced", "any_hlas", rows, 3)


def _brute_force_given_actor(actor: str) -> dict:
    """The same baselines by enumerating every middle hand (rear = the rest)."""
    held = MARIAS32.mask(actor)
    free = [b for b in range(32) if not held >> b & 1]
    everything = sum(1 << b for b in free)
    hl = lambda m: bin(marias.hlas_suits_of(m)).count("1")
    middle_hlas = np.zeros(5, np.int64)
    both = np.zeros(7, np.int64)
    n = 0
    for pick in combinations(free, 10):
        m = sum(1 << b for b in pick)
        a, b = hl(m), hl(everything & ~m)
        middle_hlas[a] += 1
        both[a + b] += 1
        n += 1
    return {"middle": [Fraction(int(k), n) for k in middle_hlas], "defenders >= 1": 1 - Fraction(int(both[0]), n),
            "defenders >= 2": 1 - Fraction(int(both[0] + both[1]), n)}


@pytest.mark.parametrize("actor", [ACTOR, "7S 8S 9S JS 7H 8H 9H JH 7D 8D 7C 8C", "KS QS KH QH KD QD KC QC AS AH AD AC"])
def test_exact_baselines_given_the_actor_match_enumeration(actor):
    ex = marias.exact_given_actor(actor)
    brute = _brute_force_given_actor(actor)
    assert [ex[f"a 10-card hand holds {h} hlasy"] for h in range(5)] == brute["middle"]
    assert ex["defenders hold >= 1 hlas"] == brute["defenders >= 1"]
    assert ex["defenders hold >= 2 hlasy"] == brute["defenders >= 2"]


def test_monte_carlo_baselines_given_the_actor_agree_with_the_exact_values():
    result = run(config(deals=100_000, shard_size=25_000, actor=ACTOR, trump="S"), workers=2)
    table = marias.baselines_table(result.counters, marias.exact_given_actor(ACTOR))
    rates = table[table.exact.notna()]
    assert len(rates) == 23
    se = np.sqrt(rates.exact * (1 - rates.exact) / rates.n)
    assert (abs(rates.estimate - rates.exact) <= 4.5 * se + 1e-12).all()
    c = result.counters
    assert c["fh_trumps"][5] == 100_000 and c["holdings"][0] == 100_000          # 5 spades, the trump hlas
    assert c["qualified"][0] == 100_000 and c["candidates"][0] == 100_000


def test_a_fixed_hand_without_trump_has_its_trump_chosen_from_a_random_first_seven():
    # 4 spades and 4 hearts (equal A/T/K/Q counts): trumps are hearts when the first seven hold
    # more hearts than spades, or as many with the tie broken at random; exact by enumerating
    # the 792 possible first sevens
    actor = "AS KS 8S 7S AH KH 8H 7H 9D 8D 9C 8C"
    cards = MARIAS32.parse(actor)
    hearts = Fraction(0)
    for first7 in combinations(cards, 7):
        keys = {}
        for suit in "SHDC":
            held = [c for c in first7 if c[1] == suit]
            if held:
                keys[suit] = 16 * len(held) + sum(c[0] in "ATKQ" for c in held)
        best = [s for s, k in keys.items() if k == max(keys.values())]
        hearts += Fraction(int("H" in best), len(best))
    hearts /= 792
    result = run(config(deals=40_000, shard_size=10_000, analysis="stovka_all", actor=actor), workers=2)
    n = int(result.counters["deals"][0])
    rate = result.counters["holdings"][9] / n          # "trumps are hearts"
    assert abs(rate - float(hearts)) < 4.5 * np.sqrt(float(hearts * (1 - hearts)) / n)
    assert 0.3 < hearts < 0.7


def test_partly_fixed_actor_with_a_trump_keeps_only_deals_where_he_holds_one():
    spec = resolve(LAYOUT, {"actor": "KD QD", "trump": "C", "where": "count(middle & aces) == 0"})
    sampler = Sampler(LAYOUT, spec)
    rows, candidates = sampler.deal(shard_bit_generators(2, 0, 1)[0], 3_000)
    masks = sampler.masks(rows)
    assert ((masks["actor"] & MARIAS32.mask("KD QD")) == MARIAS32.mask("KD QD")).all()
    assert ((masks["actor"] & (0xFF << 24)) != 0).all() and (popcount(masks["middle"] & 0x80808080) == 0).all()
    assert candidates > 3_000
    c = run(config(deals=3_000, shard_size=3_000, **spec)).counters
    assert c["fh_kq_spades"][0] <= c["deals"][0] and c["holdings"][9] == 0     # trumps are clubs, never hearts


def test_same_seed_same_result_with_any_workers():
    base = dict(deals=6_000, shard_size=1_500, actor="KS QS AS", trump="S",
                where="count(rear & hearts) >= 3 and count((middle | rear) & trumps) <= 4",
                strategies={"defender_play": "random"})
    one, two = run(config(**base), workers=1), run(config(**base), workers=2)
    assert all(np.array_equal(one.counters[k], two.counters[k]) for k in one.counters)
    assert one.counters["candidates"][0] > 6_000
    other = run(config(**{**base, "seed": 4}), workers=1)
    assert not np.array_equal(one.counters["count_hist"], other.counters["count_hist"])


def test_cli_stovka_given_the_actor_and_trump(tmp_path):  # run outside the source tree
    out = subprocess.run([sys.executable, "-m", "analyzer", "marias", "baselines", "--actor", ACTOR, "--trump", "s",
                          "--deals", "20000", "--workers", "2", "--json", "--no-store"],
                         capture_output=True, text=True, check=True, cwd=tmp_path)
    data = json.loads(out.stdout)
    assert data["run"]["constraint"] == {"actor": ACTOR, "trump": "S"}
    rows = {r["event"]: r for r in data["tables"]["baselines"]}
    assert rows["defenders hold >= 1 hlas"]["exact"] == pytest.approx(float(marias.exact_given_actor(ACTOR)["defenders hold >= 1 hlas"]))
    assert rows["trumps in 12 = 5"]["estimate"] == 1.0
    out = subprocess.run([sys.executable, "-m", "analyzer", "marias", "stovka", "--actor", ACTOR, "--trump", "S",
                          "--deals", "2000", "--no-store"], capture_output=True, text=True, check=True,
                         cwd=tmp_path)
    assert "# given: actor " + ACTOR + "; trump S; 2,000 deals accepted of 2,000 dealt" in out.stdout
    # a hand without a hlas never passes the filter: a clear error, not tables of NaN
    out = subprocess.run([sys.executable, "-m", "analyzer", "marias", "stovka", "--actor",
                          "7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C 9C", "--deals", "50", "--no-store"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 2 and "passes the filter any_hlas" in out.stderr and "Traceback" not in out.stderr


def test_a_fixed_trump_overrides_the_oracle_trump_choice():
    # the oracle tries every suit of the 12 cards; a fixed trump leaves one trial a deal
    fixed = run(config(deals=500, shard_size=500, strategies={"trump_choice": "oracle"}, actor=ACTOR, trump="S"))
    tried = run(config(deals=500, shard_size=500, strategies={"trump_choice": "oracle"}, actor=ACTOR))
    assert fixed.counters["qualified"][0] == 500
    assert tried.counters["qualified"][0] > 500


def test_trumps_name_the_fixed_trump_suit_in_where():
    sampler = Sampler(LAYOUT, resolve(LAYOUT, {"actor": "AS TS KS QS 9S", "trump": "S",
                                               "where": "count(middle & trumps) == 0"}))
    rows, candidates = sampler.deal(shard_bit_generators(5, 0, 1)[0], 2_000)
    assert (sampler.masks(rows)["middle"] & 0xFF == 0).all() and candidates > 2_000


def test_the_k_q_of_spades_in_the_middle_hand_given_the_actor():
    # §8.4 given the actor's 12 cards: the middle's 10 of the other 20 cards hold both the KS and
    # the QS in C(18, 8) / C(20, 10) = 9/38 of the deals when both are free, never when the actor
    # holds either
    exact = marias.exact_given_actor("AH KH QH JH TH 9H 8H 7H AD KD QD JD")
    assert exact["a 10-card hand holds the K+Q of spades"] == Fraction(9, 38)
    for actor in ("QS KH QH JH TH 9H 8H 7H AD KD QD JD", "KS KH QH JH TH 9H 8H 7H AD KD QD JD"):
        assert marias.exact_given_actor(actor)["a 10-card hand holds the K+Q of spades"] == 0


def _pack(forehand: str, middle: str, rear: str) -> list[int]:
    """The pack that protocol V deals as these hands (7 forehand, 5 middle, 5 rear, 5 forehand, 5
    middle, 5 rear; §2 R-DEAL-2)."""
    f, m, r = (MARIAS32.parse(h) for h in (forehand, middle, rear))
    return [MARIAS32.bit(c) for c in f[:7] + m[:5] + r[:5] + f[7:] + m[5:] + r[5:]]


def _given_shard(packs, mode: str, trump: int = -1) -> dict:
    from analyzer._core import marias as core

    rows = np.array(packs, dtype=np.uint8)
    return core.stovka_shard(shard_bit_generators(1, 0, 3), len(rows), marias.GAME.resolve_rules("seed"), {}, mode,
                             "any_hlas", rows, trump)


def test_stovka_rows_of_two_deals_worked_by_hand():
    # Forced Stovka in hearts (§8.2, §8.3). Deal A: the actor discards 7D 8D and keeps 7H, AS TS
    # (a guarded ten), KS QS JS 9S 8S, TC (unguarded: the AC is out) and 7C. His only trump is the
    # 7H and the rear holds the other seven hearts, so the rear trumps every spade lead; the actor
    # regains the lead at most with his two clubs, and before trick 10 he must follow a heart or
    # trump a suit he is void in: the 7H goes before the last trick and the seven fails whatever
    # the play. Deal B: the actor discards 8C 9C and keeps KH 9H 8H (the trump K without the Q),
    # the hlas KS QS and no A or T.
    deal_a = _pack("7H AS TS KS QS JS 9S 8S TC 7C 7D 8D", "7S AD TD KD QD JD 9D AC KC QC",
                   "AH TH KH QH JH 9H 8H JC 9C 8C")
    deal_b = _pack("KH 9H 8H KS QS JS 9S 8S 7S JC 9C 8C", "AH TH QH JH 7H AS TS AC TC KC",
                   "AD TD KD QD JD 9D 8D 7D QC 7C")
    t = marias.stovka_tables(_given_shard([deal_a, deal_b], "forced", trump=1))
    assert t["overall"].qualifying_deals[0] == 2
    assert dict(zip(t["by trump honours"].trump_honours, t["by trump honours"].n)) == {"7": 1, "K": 1}
    assert dict(zip(t["by unguarded side tens"].unguarded_side_tens, t["by unguarded side tens"].n)) == {0: 1, 1: 1}
    assert dict(zip(t["by side aces"].side_aces, t["by side aces"].n)) == {0: 1, 1: 1}
    sedma = t["companion rates"].set_index("rate").loc["sedma (trump 7 wins the last trick)"]
    assert (sedma.n, sedma.successes) == (1, 0)


def test_the_rear_player_may_take_over_after_the_middle_passes():
    # §3.4 steps 2-4: the forehand (clubs and diamonds 8 to K) declares FARBA; the middle player has
    # no Malý or Veľký hand and passes; the rear holds A K Q J T 9 of hearts and A K Q J of spades,
    # a Veľký without a losing card, and takes the game over
    pack = _pack("8D 9D TD JD QD KD 8C 9C TC JC QC KC", "8H 7H TS 9S 8S 7S AD 7D AC 7C",
                 "AH KH QH JH TH 9H AS KS QS JS")
    table = marias.contracts_table(_given_shard([pack], "natural"))
    assert list(table.contract) == ["velky"] and list(table.deals) == [1]
