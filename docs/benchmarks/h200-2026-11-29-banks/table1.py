#!/usr/bin/env python3
"""table1.py: call 1's table: per point, new (pcrmap.diff and fork.diff) and old times of each round, old / new, the faster cuSPARSE routine (python3 table1.py DIR: the extracted call1 folder)."""
import csv,sys,glob,collections,statistics
d=sys.argv[1]
rows=collections.defaultdict(dict)
for f in sorted(glob.glob(d+'/*-r*-thomas*.csv'))+sorted(glob.glob(d+'/*-r*-cell.csv')):
    k=f.split('/')[-1].split('-r')[0]; rnd=f.split('-r')[1][0]
    for r in csv.DictReader(open(f)):
        key=(r['kind'],r['precision'],int(r['systems']),int(r['rows_max']),r['backend'] if r['backend']!='cuda' else 'ours')
        rows[key].setdefault(k,[]).append(float(r['time_ms_median']))
        if r['backend']=='cuda': rows[key].setdefault('strat',[]).append(r['strategy']+' '+r.get('fraction_of_copy',''))
print('| kind | prec | systems | rows | new ms (r1, r2) | old ms (r1, r2) | old/new | best cuSPARSE ms | ratio new |')
print('|---|---|---|---|---|---|---|---|---|')
for key in sorted(k for k in rows if k[4]=='ours'):
    v=rows[key]; n=v.get('new',[]); o=v.get('old',[])
    cs=[min(rows.get(key[:4]+(b,),{}).get('new',[1e9])) for b in ('cusparse-interleaved','cusparse-strided')]
    c=min(cs)
    print(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {', '.join('%.4g'%x for x in n)} | {', '.join('%.4g'%x for x in o)} | {statistics.mean(o)/statistics.mean(n):.3f} | {('%.4g' % c) if c<1e8 else '-'} | {('%.2f' % (c/statistics.mean(n))) if c<1e8 else '-'} |")
