#!/usr/bin/env python3
"""sass_regions.py: stall samples of an Nsight Compute source page (ncu --page source --print-source sass --csv) summed over ranges of SASS lines, with each range's leading stall reasons.

Usage: sass_regions.py SASS.csv CUTS NAMES, e.g. the cell-group kernel of call 1:
  sass_regions.py call1/sass-ug256.csv 0,232,989,1336,1924,2065,4240 stage,elim,trunkgather,trunkserial,backsub,rest
(the cuts are the lines after each phase's closing BAR.SYNC in that build's SASS).
"""
import csv
import sys


def main():
    rows = list(csv.reader(open(sys.argv[1])))
    hdr, data = rows[1], rows[2:]
    ix = {h: i for i, h in enumerate(hdr)}
    stalls = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
    cuts = [int(x) for x in sys.argv[2].split(',')]
    names = sys.argv[3].split(',')
    col = ix['Warp Stall Sampling (All Samples)']
    total = sum(int(r[col] or 0) for r in data)
    for k in range(len(cuts) - 1):
        seg = data[cuts[k]:cuts[k + 1]]
        s = sum(int(r[col] or 0) for r in seg)
        reasons = {h[6:]: sum(int(r[ix[h]] or 0) for r in seg) for h in stalls}
        top = sorted(reasons.items(), key=lambda x: -x[1])[:4]
        executed = sum(int(r[ix['Instructions Executed']] or 0) for r in seg)
        print(f"{names[k]:12s} {s:6d} samples {100 * s / max(total, 1):5.1f}%  "
              f"warp instructions {executed:9d}  {top}")


if __name__ == '__main__':
    main()
