"""The built-in `greedy` piquet play, rewritten as a user would in Python against the documented
protocol (analyzer.games.piquet.PiquetPlayer); tests check it plays exactly like the compiled one."""
RANKS = "789TJQKA"


def _rank(card):
    return RANKS.index(card[0])


class GreedyPlayer:
    def choose_card(self, view):
        gone = set(view.played) | set(view.known_out)
        unknown = [c for c in (r + s for s in "SHDC" for r in RANKS) if c not in view.hand and c not in gone]
        suits = {s: sorted((c for c in view.hand if c[1] == s), key=_rank) for s in "SHDC"}
        if view.lead is None:
            # cash a master (no unknown card above it) from the longest such suit; suits in S H D C order
            best = None
            for s in "SHDC":
                if suits[s]:
                    top = suits[s][-1]
                    if not any(c[1] == s and _rank(c) > _rank(top) for c in unknown):
                        if best is None or len(suits[s]) > len(suits[best[1]]):
                            best = top
            if best:
                return best
            longest = max("SHDC", key=lambda s: (len(suits[s]), -"SHDC".index(s)))
            return suits[longest][0]
        same = suits[view.lead[1]]
        if same:
            winners = [c for c in same if _rank(c) > _rank(view.lead)]
            return (winners or same)[0]
        shortest = min((s for s in "SHDC" if suits[s]), key=lambda s: (len(suits[s]), "SHDC".index(s)))
        return suits[shortest][0]


class KeepDealt:
    """An exchange strategy in Python: always refuse the talon (like the built-in `refuse`
    where the rules allow 0; otherwise throw the lowest cards)."""

    def choose_discard(self, view):
        if 0 in view.allowed:
            return []
        return sorted(view.hand, key=_rank)[:min(view.allowed)]


class Illegal:
    def choose_card(self, view):
        return next(c for c in ("7S", "7H", "7D", "7C", "AS") if c not in view.legal)
