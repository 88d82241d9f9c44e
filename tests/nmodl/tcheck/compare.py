"""compare.py: one run of ci/t-compare.sh against NEURON's committed run: the same times, and each column after t within its bound (absolute); prints one table row and exits 1 past a bound."""
import csv
import sys


def rows(path):
    r = list(csv.reader(open(path)))
    return [[float(x) for x in row] for row in r[1:]]


def main():
    ours, ref, tag = sys.argv[1:4]
    bounds = [float(b) for b in sys.argv[4:]]
    x, n = rows(ours), rows(ref)
    ok = len(x) == len(n) and all(abs(a[0] - b[0]) < 1e-9 for a, b in zip(x, n))
    worst = [max((abs(a[c] - b[c]) for a, b in zip(x, n)), default=float("inf"))
             for c in range(1, len(bounds) + 1)]
    ok = ok and all(w <= b for w, b in zip(worst, bounds))
    cells = " | ".join("%.3g" % w for w in worst)
    print(f"| {tag} | {len(x)} of {len(n)} | {cells} | {'yes' if ok else 'NO'} |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
