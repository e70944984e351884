"""Three-handed piquet: the rules-file vector TH1 (§13.3), hand-built vectors for pik, capot, леза
and ties, the options of §15 item 16, input validation and the finishing order of a game."""
import pytest

from analyzer.games import get_game
from analyzer.games.piquet import score_deal_three as score_via_piquet
from analyzer.games.piquet_three import (PRESETS, places_from_totals, score_deal_three,
                                         score_declarations_three)
from analyzer.runner import RunConfig

# TH1 (rules §13.3): D dealer, L first leader, R third; talon 8C 7C.
TH1 = dict(dealer="KH QH JH TH 9H 8H KD QD JD TD", first="AS KS QS JS TS 9S AH AD AC 7H",
           third="KC QC JC TC 9C 9D 8D 7D 8S 7S")
# L cashes everything: spades (R follows twice, then all discard), his aces, then 7H, which nobody
# can follow because the dealer's six hearts went on the spades and R has none.
TH1_CAPOT = "AS/8S/8H KS/7S/9H QS/9D/JH JS/8D/QH TS/7D/KH 9S/TC/TH AH/9C/KD AD/JC/QD AC/QC/JD 7H/KC/TD"


@pytest.mark.parametrize("rules", list(PRESETS))
def test_th1_repik(rules):
    # Point: L 6 spades (60 pips) beats D 6 hearts (57) and R 5 -> L 6. Sequences: L's sixième
    # major 16 beats D's sixième to the king (and R's quint) -> L 16. Sets: L four aces 14.
    # L 36, D 0, R 0 -> repik at 20: 36 + 70 = 106 before play, in both presets (no tierce/quart).
    d = score_declarations_three(TH1["dealer"], TH1["first"], TH1["third"], rules)
    assert d["seats"]["first"] == dict(carte_blanche=0, point=6, sequences=16, sets=14, total=36, repik=True)
    assert d["seats"]["dealer"]["total"] == d["seats"]["third"]["total"] == 0
    assert d["category_winners"] == dict(carte_blanche="nobody", point="first", sequences="first", sets="first")
    r = score_deal_three(TH1["dealer"], TH1["first"], TH1["third"], TH1_CAPOT, rules)
    assert r.first.declarations + r.first.repik == 106


def test_th1_capot():
    # L wins all ten tricks: 10 leads + 10 tricks (the last counts 1 in a capot) = 20 play points,
    # capot 20 instead of леза; with the repik: 36 + 70 + 20 + 20 = 146; the others score nothing.
    r = score_deal_three(TH1["dealer"], TH1["first"], TH1["third"], TH1_CAPOT)
    assert (r.first.play, r.first.tricks, r.first.capot, r.first.leza, r.first.pik) == (20, 10, 20, 0, 0)
    assert [s.total for s in r.seats] == [0, 146, 0]
    assert r.winners == ("first",) * 10
    # option: the last trick keeps its 4 in a capot -> play 23, total 149
    kept = score_deal_three(TH1["dealer"], TH1["first"], TH1["third"], TH1_CAPOT, capot_keeps_last_trick=True)
    assert kept.first.play == 23 and kept.first.total == 149
    # the single-deal API is also reachable from the two-handed module
    assert score_via_piquet(TH1["dealer"], TH1["first"], TH1["third"], TH1_CAPOT) == r


def test_two_way_tie_voids_the_third():
    # TH1 with point_tiebreak = none: L and D tie at 6 cards -> nobody scores the point, R's 5 is
    # void too. L keeps 16 + 14 = 30 -> still a repik.
    d = score_declarations_three(TH1["dealer"], TH1["first"], TH1["third"], point_tiebreak="none")
    assert d["category_winners"]["point"] == "nobody"
    assert [d["seats"][s]["point"] for s in ("dealer", "first", "third")] == [0, 0, 0]
    assert d["seats"]["first"]["total"] == 30 and d["seats"]["first"]["repik"]


# T2: three equal points (4 cards, 41 pips each) and three quart majors; talon JC TD.
T2 = ("AS KS QS JS 9H 8H 7H 9D 8D 7D", "AH KH QH JH 9S 8S 7S 9C 8C 7C", "AD KD QD JD TS TH TC AC KC QC")


def test_three_way_tie_and_lower_holdings_void():
    # Point 4/41 for all three -> nobody. Sequences: quart major each -> nobody, and so D's and L's
    # tierces 9-8-7 and R's tierce major are void as well. Sets: only R holds one (three tens) -> 3.
    d = score_declarations_three(*T2)
    assert [d["seats"][s]["total"] for s in ("dealer", "first", "third")] == [0, 0, 3]
    assert d["category_winners"] == dict(carte_blanche="nobody", point="nobody", sequences="nobody", sets="third")
    # category_tie = tied_score: every tied holder scores: D and L 4 + (14 + 13 + 13) = 44;
    # R 4 + (14 + 13) + 3 = 34.
    tied = score_declarations_three(*T2, category_tie="tied_score")
    assert [tied["seats"][s]["total"] for s in ("dealer", "first", "third")] == [44, 44, 34]
    assert tied["category_winners"] == dict(carte_blanche="nobody", point="dealer, first and third",
                                            sequences="dealer, first and third", sets="third")


# P1: a pik. Talon KD KC (the dealer refused it).
P1 = dict(dealer="8S TS 8H TH QH 7D 9D JD 9C JC", first="AS KS QS 9S 7S AH 7H AD 8C 7C",
          third="JS 9H JH KH 8D TD QD TC QC AC")
P1_TRICKS = "AS/JS/TS KS/TC/8S QS/QC/9C AH/9H/8H AD/8D/7D 9S/AC/JC 7S/TD/9D 7H/KH/QH JH/TH/8C QD/JD/7C"


def test_pik_seq34():
    # ru_three_seq34. L: point 5 spades (47 pips; D and R hold at most 3 in a suit) 5, tierce
    # major 3 (nobody else has a run), three aces 3 -> 11; D 0, R 0, so L may pik.
    # Play: L wins tricks 1-4 as leader: 11 -> 12, 13 / 14, 15 / 16, 17 / 18, 19; his lead to
    # trick 5 makes 20 -> pik +40. L goes on to win tricks 5-7; R wins 8 (KH), 9 and 10 (the last, 4).
    # Play points: L 8 leads + 7 tricks = 15; R 2 leads + 1 + 1 + 4 = 8; D 0 (sum 23 = 10 + 9 + 4).
    # L has the top trick count (7 vs 3 vs 0): леза +10. L = 11 + 40 + 15 + 10 = 76.
    r = score_deal_three(P1["dealer"], P1["first"], P1["third"], P1_TRICKS, "ru_three_seq34")
    assert (r.first.declarations, r.first.pik, r.first.play, r.first.tricks, r.first.leza) == (11, 40, 15, 7, 10)
    assert [s.total for s in r.seats] == [0, 76, 8]
    assert [s.play for s in r.seats] == [0, 15, 8]


def test_same_pik_deal_is_a_repik_with_13():
    # ru_three: the tierce major is 13 -> L 5 + 13 + 3 = 21 >= 20 with both others at 0: repik +70,
    # so no pik. L = 21 + 70 + 15 + 10 = 116.
    r = score_deal_three(P1["dealer"], P1["first"], P1["third"], P1_TRICKS, "ru_three")
    assert (r.first.declarations, r.first.repik, r.first.pik) == (21, 70, 0)
    assert r.first.total == 116


def test_pik_and_repik_thresholds_are_separate_options():
    # ru_three_seq34: L's count is 11 + 2 per trick won (lead and trick) through tricks 1-7 = 25;
    # his lead to trick 8 makes 26 before R takes it. So a pik at 26 (reached on that lead), none
    # at 27; the repik threshold stays at 20 and plays no part.
    def pik_at(threshold):
        return score_deal_three(P1["dealer"], P1["first"], P1["third"], P1_TRICKS, "ru_three_seq34",
                                pik_threshold=threshold).first
    assert (pik_at(26).pik, pik_at(26).total) == (40, 76)
    assert (pik_at(27).pik, pik_at(27).total) == (0, 36)
    # ru_three: L declares 21. A repik at the default 20 whatever the pik threshold...
    r = score_deal_three(P1["dealer"], P1["first"], P1["third"], P1_TRICKS, "ru_three", pik_threshold=25)
    assert (r.first.repik, r.first.pik, r.first.total) == (70, 0, 116)
    # ... but not at 22: his 21 then reaches the pik threshold of 20 with his first lead
    r = score_deal_three(P1["dealer"], P1["first"], P1["third"], P1_TRICKS, "ru_three", repik_threshold=22)
    assert (r.first.repik, r.first.pik, r.first.total) == (0, 40, 86)


P1_WINDOW_CLOSED = "7H/KH/QH JH/TH/AH AS/JS/TS KS/TC/8S QS/QC/9C AD/8D/7D 9S/AC/JC 7S/TD/9D 8C/9H/8H 7C/QD/JD"


def test_pik_window_closes_when_an_opponent_scores():
    # Same hands; L leads 7H and R wins with KH: L's count 11 -> 12 (lead), then R scores -> window
    # closed, no pik. L then wins tricks 2-10: play L 9 leads + 8 + 4 (last) = 21; R 1 lead + 1 = 2.
    # L 9 tricks -> леза. L = 11 + 21 + 10 = 42.
    r = score_deal_three(P1["dealer"], P1["first"], P1["third"], P1_WINDOW_CLOSED, "ru_three_seq34")
    assert (r.first.pik, r.first.play, r.first.tricks, r.first.leza) == (0, 21, 9, 10)
    assert [s.total for s in r.seats] == [0, 42, 2]
    # whole_play: 12 after trick 1; +1 (wins 2) 13; 14, 15; 16, 17; 18, 19; lead to trick 6 -> 20: pik.
    w = score_deal_three(P1["dealer"], P1["first"], P1["third"], P1_WINDOW_CLOSED, "ru_three_seq34",
                         pik_window="whole_play")
    assert w.first.pik == 40 and w.first.total == 82


# L1: леза with a shared top (a greedy deal, re-checked by hand).
L1 = dict(dealer="8S TS 8H TH JH QH 9D KD 8C KC", first="JS QS 7H KH 8D TD QD TC QC AC",
          third="7S KS AS 9H 7D JD AD 7C 9C JC")
L1_TRICKS = "AC/7C/8C 8D/JD/KD KC/TC/9C 8H/KH/9H QC/JC/9D JS/KS/8S AS/TS/QS AD/TH/TD 7S/JH/7H 7D/QH/QD"


def test_leza_needs_a_unique_top():
    # Winners: 1 L (AC), 2 D (KD), 3 D (KC), 4 L (KH), 5 L (QC; D shows out), 6 R (KS), 7 R (AS),
    # 8 R (AD), 9 R (7S: the only spade), 10 L (QD) -> D 2, L 4, R 4: the top is shared, no леза.
    # Declarations: D point 4 hearts 4 + tierce T-J-Q of hearts 13 = 17; L three queens 3; R 0.
    # Play: D 2 leads + 2 = 4; L 4 leads + 3 + 4 (last) = 11; R 4 leads + 4 = 8.
    r = score_deal_three(L1["dealer"], L1["first"], L1["third"], L1_TRICKS)
    assert [s.tricks for s in r.seats] == [2, 4, 4]
    assert [s.leza for s in r.seats] == [0, 0, 0]
    assert [s.declarations for s in r.seats] == [17, 3, 0]
    assert [s.play for s in r.seats] == [4, 11, 8]
    assert [s.total for s in r.seats] == [21, 14, 8]
    # leza = majority (6+ of 10): still nobody
    assert [s.leza for s in score_deal_three(L1["dealer"], L1["first"], L1["third"], L1_TRICKS,
                                             leza="majority").seats] == [0, 0, 0]


# L2: леза with a unique top of four tricks (a greedy deal, re-checked by hand).
L2 = dict(dealer="7S 8S JS KS 8H TH JD KD 8C TC", first="TS 9H KH AH 7D QD 9C JC QC AC",
          third="9S QS AS 7H JH QH 9D TD 7C KC")
L2_TRICKS = "AC/7C/8C AH/7H/8H KH/JH/TH 9C/KC/TC AS/7S/TS QH/JD/9H 9S/JS/7D KS/QD/QS 8S/JC/9D KD/QC/TD"


def test_leza_unique_top_below_majority():
    # Winners: 1-3 L (AC, AH, KH), 4 R (KC), 5 R (AS), 6 R (QH; D shows out), 7 D (JS; L shows out),
    # 8 D (KS), 9 D (8S: the only spade), 10 D (KD) -> D 4, L 3, R 3: D has the unique top -> леза.
    # Declarations: L's point, clubs 9-J-Q-A (4, 40 pips) beats D's spades (4, 35) -> 4; no
    # sequence anywhere, no three of a rank T..A. Play: D 3 leads + 3 + 4 = 10; L 4 + 3 = 7;
    # R 3 + 3 = 6. Totals D 10 + 10 = 20, L 11, R 6.
    r = score_deal_three(L2["dealer"], L2["first"], L2["third"], L2_TRICKS)
    assert [s.tricks for s in r.seats] == [4, 3, 3]
    assert [s.leza for s in r.seats] == [10, 0, 0]
    assert [s.play for s in r.seats] == [10, 7, 6]
    assert [s.total for s in r.seats] == [20, 11, 6]
    # leza = majority asks for 6+ tricks: nobody here
    majority = score_deal_three(L2["dealer"], L2["first"], L2["third"], L2_TRICKS, leza="majority")
    assert [s.leza for s in majority.seats] == [0, 0, 0]


def test_dealer_exchange_and_carte_blanche():
    # The dealer of TH1 held 8C 7C instead of KH QH: exchanging 2 is allowed, 1 only with the option.
    dealt = "8C 7C JH TH 9H 8H KD QD JD TD"
    r = score_deal_three(TH1["dealer"], TH1["first"], TH1["third"], TH1_CAPOT, dealer_dealt=dealt)
    assert r.dealer.declarations == 0
    with pytest.raises(ValueError, match="exchanged 1 cards"):
        score_deal_three(TH1["dealer"], TH1["first"], TH1["third"], TH1_CAPOT,
                         dealer_dealt="8C QH JH TH 9H 8H KD QD JD TD")
    one = score_deal_three(TH1["dealer"], TH1["first"], TH1["third"], TH1_CAPOT,
                           dealer_dealt="8C QH JH TH 9H 8H KD QD JD TD", dealer_exchange="0,1,2")
    assert one.first.total == 146
    # the declarations alone check the exchange the same way
    with pytest.raises(ValueError, match="exchanged 1 cards"):
        score_declarations_three(TH1["dealer"], TH1["first"], TH1["third"],
                                 dealer_dealt="8C QH JH TH 9H 8H KD QD JD TD")
    assert score_declarations_three(TH1["dealer"], TH1["first"], TH1["third"], dealer_exchange="0,1,2",
                                    dealer_dealt="8C QH JH TH 9H 8H KD QD JD TD")["seats"]["first"]["total"] > 0


def test_carte_blanche_scores_and_blocks_the_repik():
    # D holds no K, Q or J: carte blanche 10 (dealt hand). L's 36 no longer faces two zeros: no
    # repik (his sixième major, quatorze of aces and point still win every category).
    d = score_declarations_three("8S 7S TH 9H 8H TD 9D 8D 7D 8C", TH1["first"], "KH QH JH KD QD JD KC QC JC TC")
    assert d["seats"]["dealer"]["carte_blanche"] == 10 and d["seats"]["dealer"]["total"] == 10
    assert d["seats"]["first"]["total"] == 36 and not d["seats"]["first"]["repik"]


def test_two_blank_hands_both_score():
    # With three hands two can be blank: D and L share the twenty non-court cards, R holds ten of
    # the twelve courts. D and L score 10 each (not a contest: both are named); their points
    # (5 cards, 45 pips) and quarts to the ten tie -> nobody, R's tierces void too. Sets: R's quatorze of kings 14 + trios of queens and jacks 3 + 3 = 20,
    # which is not a repik: both others declared 10.
    d = score_declarations_three("7S 8S 9S TS AS 7H 8H 9H TH AH", "7D 8D 9D TD AD 7C 8C 9C TC AC",
                                 "KS QS JS KH QH JH KD QD JD KC")
    assert [d["seats"][s]["carte_blanche"] for s in ("dealer", "first", "third")] == [10, 10, 0]
    assert [d["seats"][s]["total"] for s in ("dealer", "first", "third")] == [10, 10, 20]
    assert not d["seats"]["third"]["repik"]
    assert d["category_winners"] == dict(carte_blanche="dealer and first", point="nobody", sequences="nobody",
                                         sets="third")


def test_bad_input():
    with pytest.raises(ValueError, match="10"):
        score_deal_three("AS KS", TH1["first"], TH1["third"], TH1_CAPOT)
    with pytest.raises(ValueError):
        score_deal_three(TH1["first"], TH1["first"], TH1["third"], TH1_CAPOT)
    with pytest.raises(ValueError, match="10 tricks"):
        score_deal_three(TH1["dealer"], TH1["first"], TH1["third"], TH1_CAPOT.rsplit(" ", 1)[0])
    with pytest.raises(ValueError, match="must follow suit"):
        score_deal_three(TH1["dealer"], TH1["first"], TH1["third"], "AS/9D/8H" + TH1_CAPOT[8:])
    with pytest.raises(ValueError, match="does not hold"):
        score_deal_three(TH1["dealer"], TH1["first"], TH1["third"], "AS/8S/AC" + TH1_CAPOT[8:])
    with pytest.raises(ValueError, match="three cards"):
        score_deal_three(TH1["dealer"], TH1["first"], TH1["third"], "AS/8S " + TH1_CAPOT[9:])
    with pytest.raises(ValueError, match="XX|token|card"):
        score_deal_three(TH1["dealer"].replace("KH", "XX"), TH1["first"], TH1["third"], TH1_CAPOT)
    # the dealer's dealt hand may not hold the first leader's AS KS (a 2-card exchange in size only)
    with pytest.raises(ValueError, match="'AS' is given twice"):
        score_deal_three(TH1["dealer"], TH1["first"], TH1["third"], TH1_CAPOT,
                         dealer_dealt="AS KS JH TH 9H 8H KD QD JD TD")


def test_options_validated():
    game = get_game("piquet_three")
    assert game.resolve_rules("ru_three")["seq_values"] == (13, 14, 15, 16, 17, 18)
    assert game.resolve_rules("ru_three_seq34")["seq_values"] == (3, 4, 15, 16, 17, 18)
    assert game.resolve_rules("ru_three", {"dealer_exchange": "0,1,2"})["dealer_exchange"] == (0, 1, 2)
    for key, value in (("dealer_exchange", "2"), ("dealer_exchange", "0,3"), ("dealer_exchange", "1,2"),
                       ("category_tie", "share"),
                       ("pik_seat", "dealer"), ("leza", "most"), ("target", "0"), ("survivors", "three"),
                       ("stake", "x"), ("open_capot", True)):
        with pytest.raises(ValueError, match=key):
            game.resolve_rules("ru_three", {key: value})
    # the first leader's opening lead closes the others' window unless the window is the whole play
    with pytest.raises(ValueError, match="pik_seat=any needs pik_window=whole_play"):
        RunConfig("piquet_three", "deal", "ru_three", 10, 1, overrides={"pik_seat": "any"})
    with pytest.raises(ValueError, match="pik_seat=any needs pik_window=whole_play"):
        score_declarations_three(TH1["dealer"], TH1["first"], TH1["third"], pik_seat="any")
    RunConfig("piquet_three", "deal", "ru_three", 10, 1, overrides={"pik_seat": "any", "pik_window": "whole_play"})


# ---------------------------------------------------------------------------------------------
# The game: finishing order

def test_first_finisher_then_second_then_loser():
    # A reaches 100 after deal 2 (60 + 50); B and C go on; C reaches 100 in deal 4 (45 + 30 + 30).
    deals = [(60, 40, 45), (50, 20, 30), (0, 10, 10), (0, 20, 30)]
    out = places_from_totals(deals, ["B", "C", "A", "B"])
    assert out["places"] == {"A": "first", "B": "last", "C": "second"}
    assert out["totals"] == {"A": 110, "B": 90, "C": 115}


def test_two_cross_in_one_deal_and_equal_totals():
    # B and C both pass 100 in deal 2: C has more (120 vs 105) -> C first, B second, A last.
    out = places_from_totals([(30, 50, 60), (10, 55, 60)], ["A", "B"])
    assert out["places"] == {"A": "last", "B": "second", "C": "first"}
    # equal totals: the one earlier in play order from the deal's first leader (C leads: C, A, B).
    out = places_from_totals([(100, 100, 20)], ["C"])
    assert out["places"] == {"A": "first", "B": "second", "C": "last"}
    out = places_from_totals([(100, 100, 20)], ["B"])
    assert out["places"] == {"A": "second", "B": "first", "C": "last"}


def test_survivors_stop_option_ranks_by_total():
    out = places_from_totals([(60, 40, 45), (50, 20, 30)], ["B", "C"], survivors="stop")
    assert out["places"] == {"A": "first", "B": "last", "C": "second"}
    out = places_from_totals([(50, 40, 45)], ["B"], target=200)
    assert out["places"] == {"A": None, "B": None, "C": None}


def test_places_input_checked():
    with pytest.raises(ValueError, match="deal total"):
        places_from_totals([(60, -5, 45)], ["B"])
    with pytest.raises(ValueError, match="each of the three players"):
        places_from_totals([(60, 40)], ["B"])
    with pytest.raises(ValueError, match="one first leader"):
        places_from_totals([(60, 40, 45)], ["D"])
