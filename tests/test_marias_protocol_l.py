"""Protocol L (§3.6, the auction) and the natural game of both protocols against the pure-Python
reference: the deal's packets, the auction, the contract at or above the rung won, the talon
rules, who leads, the card play and the money, deal by deal."""
import itertools

import numpy as np
import pytest

from analyzer._core import marias as core
from analyzer.cards import MARIAS32
from analyzer.games.marias import GAME, play_deal, settle

import marias_reference as ref

PASS, HOLD = ref.PASS, ref.HOLD


@pytest.mark.parametrize("limits,winner,rung,trace", [
    # nobody bids: the forehand wins at rung 0 (Hra, the spec's adaptation)
    ((0, 0, 0), 0, 0, [(2, PASS), (1, PASS)]),
    # the rear player passes, the middle player bids against the forehand, who holds, then drops
    ((1, 2, 0), 1, 2, [(2, PASS), (1, 1), (0, HOLD), (1, 2), (0, PASS)]),
    # rear names 1, the forehand holds; rear drops, the middle player bids 2; the forehand drops
    ((1, 2, 1), 1, 2, [(2, 1), (0, HOLD), (2, PASS), (1, 2), (0, PASS)]),
    # the forehand drops first: the middle player holds against the rear player and wins
    ((0, 3, 2), 1, 2, [(2, 1), (0, PASS), (1, HOLD), (2, 2), (1, HOLD), (2, PASS)]),
    # at equal rungs the forehand wins; the middle player then passes
    ((3, 0, 3), 0, 3, [(2, 1), (0, HOLD), (2, 2), (0, HOLD), (2, 3), (0, HOLD), (2, PASS), (1, PASS)]),
    # the last player left wins at the last rung named: rear alone after both others drop
    ((0, 0, 8), 2, 1, [(2, 1), (0, PASS), (1, PASS)]),
])
def test_auction_sequences_of_the_rules_file(limits, winner, rung, trace):
    assert core.auction(list(limits)) == (winner, rung, trace)
    assert ref.auction_l(limits) == (winner, rung, trace)


def test_auction_matches_the_reference_on_every_limit_triple():
    for limits in itertools.product(range(9), repeat=3):
        assert core.auction(list(limits)) == ref.auction_l(limits), limits


def test_auction_rejects_bad_limits():
    with pytest.raises(ValueError, match="three rungs"):
        core.auction([0, 9, 0])


def test_ladder():
    assert [ref.rung_of(g, t) for g, t in [("hra", "H"), ("sedma", "S"), ("sedma", "H"), ("stovka", "C"),
                                           ("sto_a_sedem", "D"), ("stovka", "H"), ("sto_a_sedem", "H"),
                                           ("maly", None), ("velky", None)]] == list(range(9))


def _cards(mask):
    return MARIAS32.from_mask(mask)


@pytest.mark.parametrize("protocol", ["L", "V"])
@pytest.mark.parametrize("overrides", [{}, dict(talon_allows_trumps=False, allow_proti=False, hlas_queen_first=True)])
def test_natural_game_against_the_reference(protocol, overrides, runslow):
    options = GAME.resolve_rules("seed", dict(overrides, protocol=protocol))
    n = 20_000 if runslow else 2_500
    deals = core.natural_deals([np.random.PCG64(7), np.random.PCG64(8), np.random.PCG64(9)], n, options,
                               {"actor_play": "random", "defender_play": "heuristic", "doubling": "heuristic"})
    rungs = set()
    for d in deals:
        order = [MARIAS32.card(b) for b in d["order"]]
        dealt, talon = ref.deal_packets(order, protocol)
        hands = [_cards(m) for m in d["hands"]]
        final_talon = _cards(d["talon"])
        actor, game = d["actor"], d["game"]
        trump = "SHDC"[d["trump"]] if d["trump"] >= 0 else None
        assert sorted(sum(hands, []) + final_talon) == sorted(order)
        assert all(len(h) == 10 for h in hands) and len(final_talon) == 2
        if protocol == "L":
            assert sorted(MARIAS32.cards) == sorted(sum(dealt, []) + talon)
            assert all(0 <= x <= 8 for x in d["limits"])
            winner, rung, trace = ref.auction_l(d["limits"])
            assert (actor, d["rung"], d["trace"]) == (winner, rung, trace)
            rungs.add(rung)
            assert ref.rung_of(game, trump) >= rung                      # §3.6 step 4
            for s in range(3):                                           # only the winner exchanges
                if s == actor:
                    assert sorted(hands[s] + final_talon) == sorted(dealt[s] + talon)
                else:
                    assert sorted(hands[s]) == sorted(dealt[s])
            assert d["leader"] == (0 if trump else actor)                # §3.6 step 5
        else:
            assert d["leader"] == actor                                  # §3.5
        if trump:                                                        # §3.3 and §3.4
            assert not any(c[0] in "AT" for c in final_talon)
            if options["talon_allows_trumps"] is False:
                assert not any(c[1] == trump for c in final_talon)
            if game in ("sedma", "sto_a_sedem"):
                assert "7" + trump in hands[actor]
            if game in ("stovka", "sto_a_sedem"):
                assert any("K" + s in hands[actor] and "Q" + s in hands[actor] for s in "SHDC")
        if d["proti_by"] >= 0:
            assert game in ("hra", "stovka") and options["allow_proti"]
            assert "7" + trump in hands[(actor + 1 + d["proti_by"]) % 3]
        # §5.5a: the seven-holder is the actor of an announced seven, or the defender of sedma proti
        holder = actor if game in ("sedma", "sto_a_sedem") else (actor + 1 + d["proti_by"]) % 3 if d["proti_by"] >= 0 else -1
        assert d["seven_holder"] == holder
        cards = [MARIAS32.card(b) for b in d["cards"]]
        holder = d["seven_holder"] if d["seven_holder"] >= 0 else None
        r = ref.replay(hands, actor, game, trump, cards, holder, options["hlas_queen_first"] and trump is not None,
                       leader=d["leader"])
        assert r["n_played"] == len(cards) and r["winners"] == d["trick_winners"]
        assert d["balance"] == _reference_balance(d, r, options)
    if protocol == "L":
        assert len(rungs) >= 4                     # the auction really climbs the ladder


def test_play_deal_protocol_l_forehand_leads_a_suit_game():
    hands = ["AC TC KC QC 9C 8C AS KS 7D 8D", "7C JC TS QS 9S 8S AH TH KH QH", "JS 7S 9H 8H 7H AD TD KD QD 9D"]
    # the middle player is the actor of Hra in hearts; under L the forehand (seat 0) leads
    r = play_deal(hands, "JD JH", "hra", "H", actor=1, protocol="L")
    assert r.tricks[0][0][0] == 0
    with pytest.raises(ValueError, match="under protocol V the actor of a suit game is the forehand"):
        play_deal(hands, "JD JH", "hra", "H", actor=1)        # §3.5
    # Malý: the actor leads under both protocols
    assert play_deal(hands, "JD JH", "maly", actor=2, protocol="L").tricks[0][0][0] == 2
    # a given sequence is checked from the forehand's lead
    with pytest.raises(ValueError, match="trick 1, card 1: forehand does not hold AH"):
        play_deal(hands, "JD JH", "hra", "H", tricks="AH", actor=1, protocol="L")


def test_forced_stovka_refuses_protocol_l():
    with pytest.raises(ValueError, match="protocol V"):
        core.stovka_shard([np.random.PCG64(1), np.random.PCG64(2), np.random.PCG64(3)], 10, GAME.resolve_rules("seed", {"protocol": "L"}), {})


def _reference_balance(d, r, options):
    """The actor's balance that settle() gives a natural deal d (with its money options), from r,
    the reference replay of its play."""
    actor, game = d["actor"], d["game"]
    trump = "SHDC"[d["trump"]] if d["trump"] >= 0 else None
    money_options = {key: options[key] for key in ("flek_per_defender", "sedma_proti_only_announcer")}
    k = [dict(zip(("hra", "sedma", "main", "sedma_proti"), kd)) for kd in d["k"]]
    if trump:
        last = "actor" if r["winners"][-1] == actor else "def"
        money = settle(game, trump, k, d["proti_by"] >= 0, r["points"][actor], last, r["hlasy"][actor],
                       [v for s in range(3) if s != actor for v in r["hlasy"][s]], r["seven"],
                       proti_by=max(d["proti_by"], 0), **money_options)
    else:
        money = settle(game, k=k, actor_tricks=r["taken"][actor], **money_options)
    return money.actor_balance


def _natural_balances_against_settle(overrides, n=3000):
    """(deals, deals with sedma proti, mismatches): the kernel's balance of each natural deal
    against settle() with the same options on the reference replay of its play."""
    options = GAME.resolve_rules("seed", overrides)
    deals = core.natural_deals([np.random.PCG64(7), np.random.PCG64(8), np.random.PCG64(9)], n, options,
                               {"actor_play": "random", "defender_play": "heuristic", "doubling": "heuristic"})
    proti = bad = 0
    for d in deals:
        hands = [_cards(m) for m in d["hands"]]
        trump = "SHDC"[d["trump"]] if d["trump"] >= 0 else None
        holder = d["seven_holder"] if d["seven_holder"] >= 0 else None
        r = ref.replay(hands, d["actor"], d["game"], trump, [MARIAS32.card(b) for b in d["cards"]], holder,
                       leader=d["leader"])
        proti += d["proti_by"] >= 0
        bad += d["balance"] != _reference_balance(d, r, options)
    return len(deals), proti, bad


def test_natural_game_settles_flek_per_defender_like_settle():
    # §9 A2 flag flek_per_defender: each defender settles his own doublings (k differs between them)
    deals, proti, bad = _natural_balances_against_settle({"flek_per_defender": True})
    assert proti > 100 and bad == 0


def test_natural_game_settles_sedma_proti_only_announcer_like_settle():
    # §9 flag sedma_proti_only_announcer: only the announcer settles sedma proti, but the defence
    # announced the seven, so neither defender is paid a tichá sedma on it (§6.3); the kernel once
    # settled one with the other defender
    deals, proti, bad = _natural_balances_against_settle({"sedma_proti_only_announcer": True})
    assert proti > 100 and bad == 0
