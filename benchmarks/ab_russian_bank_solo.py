"""A/B check of two SOLO solver settings on the same layouts, deal by deal (§10.5, §10.9).

    python benchmarks/ab_russian_bank_solo.py --deals 10000 --budget 1e5 \
        --a "k=None priority=none" --b "k=None priority=none d3=False"

Each setting is a list of SoloPosition.solve keywords (k, priority, model, budget, dominance, d3,
stuck_prune, relaxation, free_cycling; values are Python literals or words). Layouts are SoloPosition.deal(seed)
for seeds from --first on. A contradiction is a deal that both settings decide differently; it is
printed with its seed. With --check-losses, B only re-examines the deals A loses (with its own
--b-budget): the check that matters for a reduction, which can only lose lines. With --weaker, a wins-only comparison: every win of A must be a win of B (for
F3 pairs such as strict ⊆ none, or k ⊆ k + 1), and a loss of B a loss of A.
"""
import argparse
import ast
import time

from analyzer.games import russian_bank as rb


def setting(text: str) -> dict:
    kw = {}
    for item in text.split():
        key, _, value = item.partition("=")
        try:
            kw[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            kw[key] = value                  # a word: priority=none, model=literal
    return kw


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--budget", type=float, default=1e5)
    parser.add_argument("--tt-bits", type=int, default=20)
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    parser.add_argument("--b-budget", type=float, help="node budget of B (default: --budget)")
    parser.add_argument("--check-losses", action="store_true", help="run B only where A loses")
    parser.add_argument("--weaker", action="store_true", help="A is a weaker game than B (F3)")
    args = parser.parse_args()
    a, b = setting(args.a), setting(args.b)
    budget = int(args.budget)
    b_budget = int(args.b_budget or args.budget)
    counts = {name: {"win": 0, "loss": 0, "unresolved": 0} for name in ("A", "B")}
    bad, both = [], 0
    start = time.time()
    for seed in range(args.first, args.first + args.deals):
        pos = rb.SoloPosition.deal(seed)
        ra = pos.solve(budget=budget, tt_bits=args.tt_bits, **a).outcome
        counts["A"][ra] += 1
        if args.check_losses and ra != "loss":
            continue
        rb_ = pos.solve(budget=b_budget, tt_bits=args.tt_bits, **b).outcome
        counts["B"][rb_] += 1
        if "unresolved" in (ra, rb_):
            continue
        both += 1
        if (args.weaker and ra == "win" and rb_ == "loss") or (not args.weaker and ra != rb_):
            bad.append((seed, ra, rb_))
    print(f"seeds {args.first}..{args.first + args.deals - 1}, budget {budget:,} (B: {b_budget:,}"
          f"{', only where A loses' if args.check_losses else ''}), {time.time() - start:.0f} s")
    print(f"A ({args.a}): {counts['A']}")
    print(f"B ({args.b}): {counts['B']}")
    print(f"decided by both: {both}; contradictions: {len(bad)} {bad[:20]}")


if __name__ == "__main__":
    main()
