import pytest
from hypothesis import given, settings, strategies as st

from analyzer.cards import FULL52, PIQUET32, check_disjoint, longest_run, parse_card, tokenize
from analyzer.games.piquet import score_declarations

TV1_ELDER = "AS KS QS 9S 8S 7S AH KH AD 7C 8C 9C"
TV1_YOUNGER = "JH TH 9H 8H JS TS QD JD 9D 7D KC QC"


def test_parse_and_format_round_trip():
    cards = PIQUET32.parse("as, td 7c  10H")
    assert cards == ["AS", "TD", "7C", "TH"]
    mask = PIQUET32.mask(cards)
    assert PIQUET32.format(mask) == "AS TH TD 7C"
    assert PIQUET32.mask(PIQUET32.cards) == PIQUET32.full_mask == 0xFFFFFFFF
    assert FULL52.full_mask == 0x1FFF1FFF1FFF1FFF
    assert FULL52.bit("2S") == 0 and FULL52.bit("AC") == 48 + 12
    assert PIQUET32.bit("7S") == 0 and PIQUET32.bit("AH") == 15


@pytest.mark.parametrize("bad,fragment", [
    ("AS KX", "'KX'"), ("AS 1S", "'1S'"), ("AS A", "'A'"), ("AS ASS", "'ASS'"),
    ("AS as", "duplicate card 'AS'"), ("6S", "not in the 32-card piquet pack"),
])
def test_bad_cards_are_named(bad, fragment):
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(")):
        PIQUET32.parse(bad)


def test_wrong_hand_size_and_overlap():
    with pytest.raises(ValueError, match="has 11 cards, expected 12"):
        PIQUET32.parse(TV1_ELDER.rsplit(" ", 1)[0], 12)
    with pytest.raises(ValueError, match="'AS' is given twice: in elder and in younger"):
        check_disjoint([["AS"], ["AS"]], ["elder", "younger"])
    with pytest.raises(ValueError, match="given twice"):
        score_declarations(TV1_ELDER, TV1_ELDER)


def test_non_string_input():
    for bad in (None, 5, b"AS", [1, 2], ["AS", None]):
        with pytest.raises(ValueError):
            PIQUET32.parse(bad)
    with pytest.raises(ValueError):
        parse_card(3)


def test_from_mask_rejects_foreign_bits():
    with pytest.raises(ValueError, match="outside"):
        FULL52.from_mask(1 << 13)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(st.one_of(st.text(max_size=4), st.integers(), st.none()), max_size=14)))
def test_arbitrary_input_raises_only_value_error(data):
    for deck in (PIQUET32, FULL52):
        try:
            cards = deck.parse(data, None)
        except ValueError:
            continue
        assert len(set(cards)) == len(cards)
        assert sorted(deck.from_mask(deck.mask(cards))) == sorted(cards)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="789TJQKASHDC 10xz,", max_size=80), st.text(alphabet="789TJQKASHDC ", max_size=40))
def test_single_deal_api_raises_only_value_error(elder, younger):
    try:
        score_declarations(elder, younger)
    except ValueError:
        pass


@given(st.permutations(PIQUET32.cards))
@settings(max_examples=100, deadline=None)
def test_valid_random_deals_score(cards):
    r = score_declarations(cards[:12], cards[12:24])
    assert r.elder.total >= 0 and r.younger.total >= 0


def test_tokenize_list_strips():
    assert tokenize([" AS", "KD "]) == ["AS", "KD"]


def test_longest_run_of_a_suit_mask():
    assert longest_run(0) == 0
    assert longest_run(0b11111111) == 8
    assert longest_run(0b10111011) == 3
    assert longest_run(0b01010101) == 1
    assert longest_run(0b1_1110_0000, width=8) == 3      # bits above the width are not counted
