# sass_dump.py: one line per SASS instruction of an Nsight Compute source-page CSV (gzipped) between two hex offsets: offset, warp instructions executed, stall samples, average active threads, instruction.
import csv,gzip,sys
rows=list(csv.reader(gzip.open(sys.argv[1],'rt')))
hdr=rows[1]; data=rows[2:]; ci={h:i for i,h in enumerate(hdr)}
base=int(data[0][0],16); lo=int(sys.argv[2],16); hi=int(sys.argv[3],16)
for r in data:
    a=int(r[0],16)-base
    if lo<=a<=hi:
        print(f"{a:#07x} {int(r[ci['Instructions Executed']] or 0):>11} {int(r[ci['Warp Stall Sampling (All Samples)']] or 0):>7} {float(r[ci['Avg. Threads Executed']] or 0):5.1f}  {r[1].strip()[:90]}")
