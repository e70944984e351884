"""The rule-option parsers every game shares (analyzer/option_parsing.py)."""
import pytest

from analyzer import option_parsing as parsing
from analyzer.games import get_game


@pytest.mark.parametrize("text,value", [(True, True), ("on", True), ("Yes", True), ("1", True),
                                        (False, False), ("off", False), ("no", False), ("0", False)])
def test_flags_take_the_usual_spellings(text, value):
    assert parsing.flag("open_capot", text) is value


@pytest.mark.parametrize("text,value", [("42", 42), (7, 7), ("1_000", 1000), ("1e3", 1000), ("-3", -3)])
def test_integers_take_underscores_and_exponents(text, value):
    assert parsing.integer("target", text, -10, 10_000) == value


@pytest.mark.parametrize("bad", ["1.5", "1e-1", "ten", True, None, "20001", "²", "1²", "٣"])
def test_integers_refuse_fractions_words_bools_and_out_of_range(bad):
    with pytest.raises(ValueError, match="option target must be an integer from 0 to 20000"):
        parsing.integer("target", bad, 0, 20_000)


def test_choices_give_the_canonical_value_and_list_the_allowed_ones():
    assert parsing.choice("deck", "36", (32, 36, 52)) == 36
    assert parsing.choice("deal", "draw8", ("whole", "draw8")) == "draw8"
    with pytest.raises(ValueError, match="option deck must be one of 32, 36, 52, got 40"):
        parsing.choice("deck", 40, (32, 36, 52))
    with pytest.raises(ValueError):
        parsing.choice("deck", True, (1, 0))  # a bool is not the integer 1


@pytest.mark.parametrize("game", ["piquet", "piquet_three", "klabor", "semerik", "square", "vedma", "marias", "russian_bank"])
def test_an_unknown_option_names_the_game_and_the_known_options(game):
    known = ", ".join(sorted(next(iter(get_game(game).presets.values()))))
    with pytest.raises(ValueError, match=f"unknown {game} rule option 'no_such_rule'; known options: {known}$"):
        get_game(game).validate_option("no_such_rule", 1)
