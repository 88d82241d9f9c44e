# sass_profile.py: totals of an Nsight Compute source-page CSV (--page source --csv --print-source sass, gzipped): warp instructions executed, stall samples and their reasons, per SASS offset range given as LO-HI hex arguments.
import csv,gzip,sys,collections
rows=list(csv.reader(gzip.open(sys.argv[1],'rt')))
hdr=rows[1]; data=rows[2:]
ci={h:i for i,h in enumerate(hdr)}
base=int(data[0][0],16)
recs=[]
for r in data:
    try: a=int(r[0],16)-base
    except: continue
    recs.append(dict(off=a,src=r[1].strip(),samp=int(r[ci['Warp Stall Sampling (All Samples)']] or 0),ex=int(r[ci['Instructions Executed']] or 0),th=int(r[ci['Thread Instructions Executed']] or 0),
      stalls={h:int(r[ci[h]] or 0) for h in hdr if h.startswith('stall_') and 'Not Issued' not in h}))
T=sum(x['ex'] for x in recs); S=sum(x['samp'] for x in recs)
print('instructions executed (warp):',T,' samples:',S, 'thread-inst', sum(x['th'] for x in recs))
st=collections.Counter()
for x in recs:
    for k,v in x['stalls'].items(): st[k]+=v
print('stalls:',[(k,round(v/S,3)) for k,v in st.most_common(10)])
# regions: windows of the local loop list given as args
regs=[tuple(int(v,16) for v in a.split('-')) for a in sys.argv[2:]]
for lo,hi in regs:
    sel=[x for x in recs if lo<=x['off']<=hi]
    e=sum(x['ex'] for x in sel); s=sum(x['samp'] for x in sel)
    sc=collections.Counter()
    for x in sel:
        for k,v in x['stalls'].items(): sc[k]+=v
    print(f'{lo:#x}-{hi:#x}: inst {e/T:.3f} samples {s/S:.3f} top stalls',[(k[6:],round(v/max(s,1),2)) for k,v in sc.most_common(4)])
