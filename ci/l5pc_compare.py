#!/usr/bin/env python3
"""l5pc_compare.py: one hinesbatch L5PC run (soma trace CSV, spike CSV) against NEURON's
reference (data/models/l5pc/reference): spike times within --spike-tol ms, soma voltage
within --v-tol mV away from spikes (samples more than --guard ms from every reference
spike), and, where the trace has the model file's cai probe at the soma (a column
cell0_compK_cai), the soma's calcium concentration within --cai-tol relative at every
sample; each current the reference recorded at the soma (a column NAME_soma: ina, ik, ica,
Ih.ihcn, pas.i) that the trace probed there too (cell0_compK_NAME) within --cur-tol of
its largest magnitude away from spikes. Prints one table row; exit 0 when within the
bounds, 1 when not, 2 on bad input. Standard library only."""
import argparse
import csv
import sys


def read_reference(ref_dir):
    v, cai, cur = {}, {}, {}
    with open(ref_dir + "/l5pc_soma.csv") as f:
        for r in csv.DictReader(f):
            k = round(float(r["t_ms"]) * 1000)
            v[k] = float(r["v_soma_mV"])
            cai[k] = float(r["cai_soma_mM"])
            for name, x in r.items():
                if name.endswith("_soma"):
                    cur.setdefault(name[:-5], {})[k] = float(x)
    with open(ref_dir + "/l5pc_spikes.csv") as f:
        spikes = [float(r["t_ms"]) for r in csv.DictReader(f)]
    return v, cai, cur, spikes


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ref", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--spikes", required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--spike-tol", type=float, default=0.05)
    ap.add_argument("--v-tol", type=float, default=1.0)
    ap.add_argument("--guard", type=float, default=2.0)
    ap.add_argument("--cai-tol", type=float, default=1e-3)
    ap.add_argument("--cur-tol", type=float, default=0.01)
    a = ap.parse_args()
    try:
        ref_v, ref_cai, ref_cur, ref_s = read_reference(a.ref)
        with open(a.trace) as f:
            rows = list(csv.reader(f))
        header, rows = rows[0], rows[1:]
        # The soma compartment's cai probe (the model file's first one).
        ci = next((i for i, h in enumerate(header)
                   if h.startswith("cell0_comp") and h.endswith("_cai")), None)
        # The soma's current probes that the reference has too.
        soma = header[ci].rsplit("_", 1)[0] + "_" if ci is not None else None
        cols = {n: header.index(soma + n) for n in ref_cur if soma and soma + n in header}
        with open(a.spikes) as f:
            ours_s = [float(r["spike_ms"]) for r in csv.DictReader(f) if r["cell"] == "0"]
    except (OSError, KeyError, ValueError, IndexError) as e:
        print("l5pc_compare: %s" % e, file=sys.stderr)
        return 2
    worst_v, worst_at, worst_all, worst_cai, n = 0.0, 0.0, 0.0, 0.0, 0
    cur_err, cur_big = {c: 0.0 for c in cols}, {c: 0.0 for c in cols}
    for r in rows:
        t = float(r[0])
        k = round(t * 1000)
        if k not in ref_v:
            continue
        d = abs(float(r[1]) - ref_v[k])
        if ci is not None:
            worst_cai = max(worst_cai, abs(float(r[ci]) - ref_cai[k]) / abs(ref_cai[k]))
        n += 1
        worst_all = max(worst_all, d)
        away = all(abs(t - s) > a.guard for s in ref_s)
        if away and d > worst_v:
            worst_v, worst_at = d, t
        for c, i in cols.items():
            if away:
                cur_err[c] = max(cur_err[c], abs(float(r[i]) - ref_cur[c][k]))
                cur_big[c] = max(cur_big[c], abs(ref_cur[c][k]))
    cur = {c: cur_err[c] / cur_big[c] if cur_big[c] > 0 else cur_err[c] for c in cols}
    worst_s = max((abs(x - y) for x, y in zip(ours_s, ref_s)), default=0.0)
    ok = len(ours_s) == len(ref_s) and worst_s <= a.spike_tol and worst_v <= a.v_tol and n > 0
    ok = ok and (ci is None or worst_cai <= a.cai_tol)
    ok = ok and all(e <= a.cur_tol for e in cur.values())
    print("| %-16s | %d (NEURON %d) | %s | %.3g | %.3g (at %.1f ms) | %.3g | %s | %s | %s |" % (
        a.label, len(ours_s), len(ref_s), ", ".join("%.3f" % s for s in ours_s),
        worst_s, worst_v, worst_at, worst_all,
        "%.3g" % worst_cai if ci is not None else "not probed",
        ", ".join("%s %.2g" % (c, cur[c]) for c in sorted(cur)) or "not probed",
        "pass" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
