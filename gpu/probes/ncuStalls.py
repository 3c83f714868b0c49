#!/usr/bin/env python3
# Warp stall reasons of an Nsight Compute source page (ncu -i R --page source --csv --print-source sass):
# the share of each reason over all samples, and the instructions with the most samples.
# Usage: python3 gpu/probes/ncuStalls.py <kernel>.sass.csv ...
import collections, csv, signal, sys

signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
for name in sys.argv[1:]:
    rows = list(csv.reader(open(name)))
    # find header row
    hi = next(i for i, r in enumerate(rows) if r and r[0] == 'Address')
    h = rows[hi]
    kernels = 0
    tot = collections.Counter(); top = []
    for r in rows[hi+1:]:
        if not r or r[0] in ('Kernel Name', 'Address'):
            continue
        if len(r) < len(h): continue
        d = dict(zip(h, r))
        s = int(d['Warp Stall Sampling (All Samples)'] or 0)
        for k in h:
            if k.startswith('stall_') and 'Not Issued' not in k:
                try: tot[k] += int(d[k] or 0)
                except ValueError: pass
        top.append((s, d['Source'].strip(), {k[6:]: int(d[k]) for k in h if k.startswith('stall_') and 'Not Issued' not in k and d[k] not in ('', '0')}))
    n = sum(tot.values())
    print('==', name, 'samples', n)
    print('  ', ', '.join(f'{k[6:]} {v/n*100:.1f}%' for k, v in tot.most_common(8)))
    top.sort(key=lambda t: -t[0])
    for s, src, st in top[:8]:
        print(f'   {s/n*100:5.1f}%  {src[:60]:60s} {dict(sorted(st.items(), key=lambda kv:-kv[1])[:3])}')
