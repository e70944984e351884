"""Mariáš settlement (rules/marias.md §6): the 32 vectors of §7 from their machine-readable form
(tests/data/marias_settlement_vectors.jsonl, copied verbatim from §7.3), plus the options."""
import json
from itertools import product
from pathlib import Path

import pytest

from analyzer.games.marias import settle, steps

VECTORS = [json.loads(line) for line in
           (Path(__file__).parent / "data" / "marias_settlement_vectors.jsonl").read_text().splitlines() if line]
BASE_CENTS = 5


def _settle(inp, **options):
    return settle(**inp, **options)


def test_all_32_vectors_present():
    ids = [v["id"] for v in VECTORS]
    assert len(ids) == 32 and len(set(ids)) == 32
    assert sum(i.startswith("S") for i in ids) == 9 and sum(i.startswith("C") for i in ids) == 23


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector(vector):
    result = _settle(vector["input"])
    expect = vector["expect"]
    assert result.per_defender == (expect["per_defender_B"],) * 2
    assert result.amount * BASE_CENTS == expect["per_defender_cents"]
    assert result.winner == expect["winner"]
    assert result.actor_balance == 2 * expect["per_defender_B"]


def _vector(name):
    return next(v["input"] for v in VECTORS if v["id"] == name)


def test_steps_scale():
    assert [steps(p) for p in (100, 110, 120, 90, 70, 20, -10)] == [1, 2, 3, 2, 4, 9, 12]


def test_c17_with_scale_flag_off():
    assert _settle(_vector("C17"), stovka_scale_counts_all_hlasy=False).amount == 16


def test_c21_as_sto_a_sedem_pays_more():
    inp = dict(_vector("C21"), game="sto_a_sedem")
    assert _settle(inp).amount == 24


def test_sto_a_sedem_step_four():
    # C5: count 110 made: 6 + 4 per further step = 10 instead of 12; C7 lost at x = 60: 6 + 4*4.
    assert _settle(_vector("C5"), sto_a_sedem_step=4).amount == 10
    assert _settle(_vector("C7"), sto_a_sedem_step=4).amount == -22


def test_half_rate_quiet_hundred():
    assert _settle(_vector("S4"), ticha_stovka_rate="half").amount == 4      # 2B x 2 steps
    assert _settle(_vector("C10"), ticha_stovka_rate="half").amount == -4


def test_hlas_for_stovka_first():
    # C15 with the actor's hlasy declared 20 then 40: "first" counts 20, "highest" counts 40.
    inp = dict(_vector("S5"), hlasy_actor=[20, 40], cp_actor=50)
    assert _settle(inp).amount == 4 * steps(120)
    assert _settle(inp, hlas_for_stovka="first").amount == -4 * steps(80)


def test_flek_per_defender_pairs():
    inp = dict(_vector("S2"), k=[{"hra": 2}, {"hra": 0}])
    assert _settle(inp, flek_per_defender=True).per_defender == (4, 1)


def test_sedma_proti_only_announcer():
    result = _settle(_vector("C2"), sedma_proti_only_announcer=True, proti_by=1)
    assert result.per_defender == (1, -3)


def test_deal_cap_and_tariff():
    assert _settle(_vector("C16"), deal_cap=50).amount == 50
    assert _settle(_vector("S9"), velky_value=30).amount == 30
    assert _settle(_vector("C8"), maly_value=15).amount == 60


def test_stovka_never_beats_hra_without_doublings():
    # §6.5 on every outcome of a suit game: same cards settled as Stovka and as Hra.
    for cp in range(0, 90, 10):
        for last in ("actor", "def"):
            for ha in ([], [20], [40], [20, 20], [40, 20], [40, 20, 20]):
                for hd in ([], [20], [20, 20]):
                    if len(ha) + len(hd) > 4 or not ha:
                        continue
                    base = dict(game="hra", trump="C", cp_actor=cp, last=last, hlasy_actor=ha, hlasy_def=hd)
                    assert settle(**dict(base, game="stovka")).amount <= settle(**base).amount


def _hlas_layouts():
    """(actor's hlasy, defenders' hlasy) for every way the four K+Q pairs can lie with spades trumps
    (its hlas 40, the others 20): each pair with the actor, with the defenders, or split."""
    values = (40, 20, 20, 20)
    for owners in product(("actor", "def", "split"), repeat=4):
        yield ([v for v, o in zip(values, owners) if o == "actor"], [v for v, o in zip(values, owners) if o == "def"])


def _every_suit_outcome():
    """Keyword arguments for every card split, last-trick winner and hlas layout of a deal in spades."""
    for cp in range(0, 90, 10):
        for last in ("actor", "def"):
            for ha, hd in _hlas_layouts():
                yield dict(trump="S", cp_actor=cp, last=last, hlasy_actor=ha, hlasy_def=hd)


def test_card_points_and_last_trick_total_90():
    # §1.3: however the 80 card points and the last trick's 10 are split, the shares add up to 90.
    # A side's total shows in Hra only as a tichá stovka (4B x steps(total) from 100), so the actor
    # is given hlasy worth 60 and the defenders 40: then exactly one side reaches 100.
    for cp in range(0, 90, 10):
        for last in ("actor", "def"):
            actor_share = cp + (10 if last == "actor" else 0)
            defenders_share = 90 - actor_share
            amount = settle("hra", "S", cp_actor=cp, last=last, hlasy_actor=[40, 20], hlasy_def=[20, 20]).amount
            if actor_share + 60 >= 100:
                assert amount == 4 * steps(actor_share + 60), (cp, last)
            else:
                assert amount == -4 * steps(defenders_share + 40), (cp, last)


def test_the_highest_total_is_190():
    # §1.3: at most 90 + 40 + 3 x 20 = 190, which in Hra is a tichá stovka of 4B x steps(190) = 40B,
    # for the actor or (all on their side) for the defenders.
    amounts = [settle("hra", **outcome).amount for outcome in _every_suit_outcome()]
    assert max(amounts) == 40 and min(amounts) == -40
    assert settle("hra", "S", cp_actor=80, last="actor", hlasy_actor=[40, 20, 20, 20]).amount == 40
    for too_much in (dict(cp_actor=90), dict(hlasy_actor=[40, 20, 20, 20, 20]),
                     dict(hlasy_actor=[40], hlasy_def=[40])):
        with pytest.raises(ValueError):
            settle("hra", "S", **too_much)


def test_worst_lost_stovka():
    # §9 A19, before doublings and hearts. With a hlas required (A7), the worst count is 20 (one
    # side hlas, no card point, no last trick) against the defenders' other three hlasy, 80:
    # x = -60, 4B x 17 = -68B. A hopeless Stovka, no hlas, against all four (100): x = -100, -84B.
    assert settle("stovka", "S", cp_actor=0, last="def", hlasy_actor=[20], hlasy_def=[40, 20, 20]).amount == -68
    assert settle("stovka", "S", cp_actor=0, last="def", hlasy_def=[40, 20, 20, 20]).amount == -84
    # and no outcome is worse (the Stovka part alone: a quiet seven or sedma proti are parts of their own)
    lost = [(bool(o["hlasy_actor"]), settle("stovka", **o).parts["stovka"]) for o in _every_suit_outcome()]
    assert min(v for with_hlas, v in lost if with_hlas) == -68
    assert min(v for _, v in lost) == -84


@pytest.mark.parametrize("max_hlas", [40, 20, 0])
def test_lost_stovka_against_the_defenders_ticha_stovka(max_hlas):
    # §6.5: on cards where the defenders' total reaches 100 (so the hundred fails), the lost Stovka
    # is (110 - max_hlas)/10 steps more than the defenders' tichá stovka in Hra, both at 4B a step.
    # max_hlas 0 is a hopeless Stovka (A7 off).
    compared = 0
    for outcome in _every_suit_outcome():
        if max(outcome["hlasy_actor"], default=0) != max_hlas:
            continue
        defenders_total = (90 - outcome["cp_actor"] - (10 if outcome["last"] == "actor" else 0)
                           + sum(outcome["hlasy_def"]))
        if defenders_total < 100:
            continue
        quiet = settle("hra", **outcome).parts["hra"]
        lost = settle("stovka", **outcome).parts["stovka"]
        assert (quiet - lost) / 4 == (110 - max_hlas) / 10, outcome
        compared += 1
    assert compared > 0


@pytest.mark.parametrize("bad,message", [
    (dict(game="bridge"), "unknown game"),
    (dict(game="hra", trump="X"), "trump"),
    (dict(game="hra", trump="S", cp_actor=55), "cp_actor"),
    (dict(game="hra", trump="S", seven="won_def", last="actor"), "contradicts"),
    (dict(game="hra", trump="S", seven="killed_actor", last="actor"), "contradicts"),
    (dict(game="sedma", trump="S", sedma_proti=True), "sedma proti"),
    (dict(game="hra", trump="S", hlasy_actor=[30]), "hlasy_actor"),
    (dict(game="hra", trump="S", k={"hra": -1}), "doublings from 0 to 10"),
    (dict(game="hra", trump="S", k={"hra": 2 ** 70}), "doublings from 0 to 10"),   # (once hung on 2^2^70)
    (dict(game="hra", trump="S", k={"flek": 1}), "unknown parts"),
    (dict(game="maly", actor_tricks=11), "actor_tricks"),
    # the money options are checked as the rules' are (a cap of -3 once made a lost Hra pay the actor)
    (dict(game="hra", trump="S", cp_actor=10, deal_cap=-3), "deal_cap must be an integer from 0"),
    (dict(game="hra", trump="S", ticha_stovka_rate="nonsense"), "ticha_stovka_rate must be one of full, half"),
    (dict(game="hra", trump="S", sto_a_sedem_step=5), "sto_a_sedem_step"),
])
def test_bad_input(bad, message):
    with pytest.raises(ValueError, match=message):
        settle(**bad)
