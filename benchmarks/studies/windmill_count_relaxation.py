"""Probe (issue 11): Windmill with the foundations relaxed to their card counts.

The relaxation: a card of rank r may be played whenever SOME arrangement of the cards
already on the foundations (the centre A..K cyclic, four king piles K..A, the counts per
rank fixed) accepts r.  Every real play (pysolfc or strict; transfers change no count)
is a relaxed play, so a deal lost here is lost for real; and the state no longer holds
the foundation configuration, only (stock, waste, cells).  This pure-Python probe counts
its states above a stock level, to compare with the exact game's counts in
results/windmill-search-space.md (section 3), and checks its verdicts against the
reference engine on reduced decks.

    python benchmarks/studies/windmill_count_relaxation.py levels 2 70 60 50 45
    python benchmarks/studies/windmill_count_relaxation.py check 4 2 100

Results: results/windmill-search-space.md, section 5.
"""
import sys, time
from functools import lru_cache
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
from solver.games.windmill.deals import windmill_deal
from solver.games.windmill.position import WindmillRules
from solver.games.windmill import reference as R


def accepts(n, RK):
    """Ranks some arrangement of the foundation cards (counts n[1..RK]) accepts."""
    out = set()
    total = sum(n)
    for c in range(1, 4 * RK + 1):
        k = []
        ok = True
        for r in range(1, RK + 1):
            cr = (c - r) // RK + 1 if c >= r else 0
            kr = n[r] - cr
            if not 0 <= kr <= 4:
                ok = False
                break
            k.append(kr)
        if not ok:
            continue
        # k[r-1] non-decreasing in r (pile holds RK..RK-h+1)
        if any(k[i] > k[i + 1] for i in range(RK - 1)):
            continue
        if c < 4 * RK:
            out.add(c % RK + 1)
        heights = [sum(1 for j in range(1, RK + 1) if k[RK - j] >= i) for i in range(1, 5)]
        for h in heights:
            if h < RK:
                out.add(RK - h)
    return out


def relaxed_solve(p, max_states=2_000_000, level=0):
    RK = p.ranks
    n = [0] * (RK + 1)
    for c in p.centre:
        n[c.rank] += 1
    for k in p.kings:
        for c in k:
            n[c.rank] += 1
    start = (tuple(c.rank for c in p.stock), tuple(c.rank for c in p.waste),
             tuple(sorted(0 if c is None else c.rank for c in p.cells)), tuple(n))
    goal = 8 * RK
    acc_cache = {}
    seen = {start}
    stack = [start]
    while stack:
        stock, waste, cells, n = stack.pop()
        if sum(n) == goal:
            return True, len(seen)
        acc = acc_cache.get(n)
        if acc is None:
            acc = acc_cache[n] = accepts(n, RK)
        kids = []
        if stock:
            kids.append((stock[:-1], waste + (stock[-1],), cells, n))
        # plays
        srcs = set()
        for i, r in enumerate(cells):
            if r and r in acc and ("c", r) not in srcs:
                srcs.add(("c", r))
                nn = list(n); nn[r] += 1
                cl = list(cells); cl.pop(i)
                w, s = waste, stock
                if w:
                    cl.append(w[-1]); w = w[:-1]
                else:
                    cl.append(0)
                if not w and s:
                    w = (s[-1],); s = s[:-1]
                kids.append((s, w, tuple(sorted(cl)), tuple(nn)))
        if waste and waste[-1] in acc:
            r = waste[-1]
            nn = list(n); nn[r] += 1
            w, s = waste[:-1], stock
            cl = list(cells)
            # empty cells take the waste top (only when waste/stock were empty earlier)
            while 0 in cl and w:
                cl.remove(0); cl.append(w[-1]); w = w[:-1]
            if not w and s:
                w = (s[-1],); s = s[:-1]
            kids.append((s, w, tuple(sorted(cl)), tuple(nn)))
        for kid in kids:
            if len(kid[0]) < level:
                continue
            if kid not in seen:
                if len(seen) >= max_states:
                    return None, len(seen)
                seen.add(kid)
                stack.append(kid)
    return False, len(seen)


if __name__ == "__main__":
    if sys.argv[1] == "levels":
        seed = int(sys.argv[2])
        for L in map(int, sys.argv[3:]):
            t = time.time()
            v, n = relaxed_solve(windmill_deal(seed), max_states=5_000_000, level=L)
            verdict = {True: "won", False: "exhausted", None: "over 5,000,000 states"}[v]
            print(f"seed {seed}, positions with at least {L} stock cards: {n:,} ({verdict}, {time.time() - t:.1f} s)",
                  flush=True)
        sys.exit(0)
    RK, C, N = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rules = WindmillRules("pysolfc")
    stats = {"real lost": 0, "relaxed lost": 0, "both won": 0, "unsound": 0, "undecided": 0}
    t = time.time()
    for seed in range(1, N + 1):
        p = windmill_deal(seed, ranks=RK, cells=C)
        real = R.solve_exhaustive(p, rules, max_states=300_000)
        rel, states = relaxed_solve(p)
        if real is None or rel is None:
            stats["undecided"] += 1
            continue
        if rel is False and real is True:
            stats["unsound"] += 1
            print("UNSOUND", seed)
        if real is False:
            stats["real lost"] += 1
            if rel is False:
                stats["relaxed lost"] += 1
        elif rel:
            stats["both won"] += 1
    print(RK, C, N, stats, "%.1f s" % (time.time() - t))
