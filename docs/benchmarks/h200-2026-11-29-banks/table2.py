#!/usr/bin/env python3
"""table2.py: call 2's table: per point, cr, pcrmap and old times of each round, the faster cuSPARSE routine and the ratios (python3 table2.py DIR: the extracted call2 folder)."""
import csv,sys,glob,collections,statistics
d=sys.argv[1]
rows=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(d+'/*-r*-*-s*.csv')):
    b=f.split('/')[-1]; k=b.split('-r')[0]
    for r in csv.DictReader(open(f)):
        key=(r['precision'],int(r['systems']),int(r['rows_max']))
        who=k if r['backend']=='cuda' else r['backend']+'@'+k
        rows[key][who].append(float(r['time_ms_median']))
        if r['backend']=='cuda': rows[key]['f_'+k].append(float(r['fraction_of_copy']))
print('| precision | systems x rows | cr ms | pcrmap ms | old ms | best cuSPARSE ms | cuSPARSE/cr | cuSPARSE/old | cr of copy |')
print('|---|---|---|---|---|---|---|---|---|')
for key in sorted(rows):
    v=rows[key]
    m=lambda k: statistics.mean(v[k]) if v[k] else float('nan')
    cs=min(min(x) for kk,x in v.items() if kk.startswith('cusparse'))
    print(f"| {key[0]} | {key[1]:,} x {key[2]:,} | {', '.join('%.4g'%x for x in v['cr'])} | {', '.join('%.4g'%x for x in v['pcrmap'])} | {', '.join('%.4g'%x for x in v['old'])} | {cs:.4g} | {cs/m('cr'):.2f} | {cs/m('old'):.2f} | {m('f_cr'):.3f} |")
