"""Mariáš settlement (rules/marias.md §6): the 32 vectors of §7 from their machine-readable form
(tests/data/marias_settlement_vectors.jsonl, copied verbatim from §7.3), plus the options."""
import json
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


@pytest.mark.parametrize("bad,message", [
    (dict(game="bridge"), "unknown game"),
    (dict(game="hra", trump="X"), "trump"),
    (dict(game="hra", trump="S", cp_actor=55), "cp_actor"),
    (dict(game="hra", trump="S", seven="won_def", last="actor"), "contradicts"),
    (dict(game="sedma", trump="S", sedma_proti=True), "sedma proti"),
    (dict(game="hra", trump="S", hlasy_actor=[30]), "hlasy_actor"),
    (dict(game="hra", trump="S", k={"hra": -1}), "non-negative"),
    (dict(game="hra", trump="S", k={"flek": 1}), "unknown parts"),
    (dict(game="maly", actor_tricks=11), "actor_tricks"),
])
def test_bad_input(bad, message):
    with pytest.raises(ValueError, match=message):
        settle(**bad)
