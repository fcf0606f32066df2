"""Is a pysolfc transfer class an interval of centre heights?  (Evidence for the next encoding.)

For foundation counts per rank F (F_r = rank-r cards home), the configurations are the
heights h with k = F - centre(h) a valid king vector (4 >= k_R >= ... >= k_1 >= 0); a
transfer moves h by one between two valid heights (symbolic.py, rules 5 and 6).  This
samples random valid (h, k), and checks over ALL heights whether the valid ones are
consecutive; prints the class sizes seen.

python -m research.windmill_symbolic.transfer_interval [samples] [ranks]
"""
import random
import sys
from collections import Counter


def centre(h, R):
    c = [0] * (R + 1)
    for j in range(h):
        c[j % R + 1] += 1
    return c


def valid_heights(F, R):
    out = []
    for h in range(1, 4 * R + 1):
        c = centre(h, R)
        k = [F[r] - c[r] for r in range(R + 1)]
        if all(0 <= k[r] <= 4 for r in range(1, R + 1)) and all(k[r] <= k[r + 1] for r in range(1, R)):
            out.append(h)
    return out


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    R = int(sys.argv[2]) if len(sys.argv) > 2 else 13
    rng = random.Random(1)
    sizes, gaps = Counter(), 0
    for _ in range(n):
        h = rng.randrange(1, 4 * R + 1)
        lengths = [rng.randrange(0, R + 1) for _ in range(4)]
        k = [0] + [sum(1 for L in lengths if L >= R - r + 1) for r in range(1, R + 1)]
        c = centre(h, R)
        F = [c[r] + k[r] for r in range(R + 1)]
        if any(x > 8 for x in F):
            continue
        hs = valid_heights(F, R)
        assert h in hs
        sizes[len(hs)] += 1
        if hs != list(range(hs[0], hs[-1] + 1)):
            gaps += 1
    tot = sum(sizes.values())
    print(f"ranks {R}: {tot} samples, valid heights not consecutive in {gaps}; class sizes (heights: samples):",
          dict(sorted(sizes.items())), f"mean {sum(s * v for s, v in sizes.items()) / tot:.2f}")


if __name__ == "__main__":
    main()
