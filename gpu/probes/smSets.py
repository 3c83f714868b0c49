#!/usr/bin/env python3
# The sets of SMs that h200Batch.sh's l2Partitions steps stream from, one "name SM,SM,…" line each
# (lines starting with # are notes). SM 0's partition is the SMs whose first pass of `smmap` is
# nearer the fastest first pass than the slowest; TPC t is SMs 2t and 2t + 1; a GPC is the SMs
# that `gpcmap`'s clusters ever put together.
# Usage: python3 gpu/probes/smSets.py partitions|tpcs <smMap.jsonl>
#        python3 gpu/probes/smSets.py gpcs <smMap.jsonl> <gpcMap.jsonl>
import json, signal, sys


def partition_of_sm0(sm_map):
    rows = [json.loads(line) for line in open(sm_map)]
    first = {r["sm"]: r["firstPassCyclesPerLoad"] for r in rows if r["firstPassCyclesPerLoad"] > 0}
    cut = (min(first.values()) + max(first.values())) / 2
    return sorted(first), {sm for sm, c in first.items() if c < cut}


def partitions(sm_map):
    sms, near = partition_of_sm0(sm_map)
    near_sms = [sm for sm in sms if sm in near]
    far_sms = [sm for sm in sms if sm not in near]
    return {"all": sms, "near": near_sms, "far": far_sms, "half": sorted(near_sms[::2] + far_sms[::2])}


def tpcs(sm_map):
    sms, near = partition_of_sm0(sm_map)
    tpcs = sorted({sm // 2 for sm in sms})
    split = [t for t in tpcs if (2 * t in near) != (2 * t + 1 in near)]
    if split:
        sys.exit(f"smSets.py: TPCs {split} have their SMs in both partitions")
    near_tpcs = [t for t in tpcs if 2 * t in near]
    far_tpcs = [t for t in tpcs if 2 * t not in near]
    both = lambda ts: sorted(sm for t in ts for sm in (2 * t, 2 * t + 1))
    return {
        "all": sms,
        "near": both(near_tpcs),
        "nearOnePerTpc": [2 * t for t in near_tpcs],
        "pairsOfBoth": both(near_tpcs[::2] + far_tpcs[1::2]),
        "onePerTpc": [2 * t for t in tpcs],
        "oneSm": [2 * near_tpcs[0]],
        "oneTpc": both(near_tpcs[:1]),
        "twoTpcsOneSmEach": [2 * near_tpcs[0], 2 * near_tpcs[1]],
        "twoTpcsFarOneSmEach": [2 * near_tpcs[0], 2 * far_tpcs[0]],
        "twoTpcs": both(near_tpcs[:2]),
    }


def gpcs(sm_map, gpc_map):
    parent = {}

    def find(a):
        while parent.setdefault(a, a) != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for line in open(gpc_map):
        row = json.loads(line)
        sms, size = row.get("sms", []), row["cluster"]
        for c in range(0, len(sms), size):
            for sm in sms[c + 1 : c + size]:
                parent[find(sm)] = find(sms[c])
    sms, near = partition_of_sm0(sm_map)
    groups = {}
    for sm in sms:
        groups.setdefault(find(sm), []).append(sm)
    groups = sorted(groups.values(), key=lambda g: g[0])
    for i, g in enumerate(groups):
        print(f"# gpc{i} sms {len(g)} near {sum(sm in near for sm in g)}: {','.join(map(str, g))}")
    sets = {}
    for i, g in enumerate(groups):
        sets[f"gpc{i}"] = g
        sets[f"gpc{i}OnePerTpc"] = [sm for sm in g if sm % 2 == 0]
    big = [g for g in groups if len(g) >= 8]
    sets["halfOfGpcs"] = sorted(sm for g in big[::2] for sm in g)
    sets["nearGpcs"] = sorted(sm for g in groups for sm in g if sm in near)
    sets["oneSmPerGpc"] = [g[0] for g in groups]
    return sets


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (`| head`) ends the script quietly
    kinds = {"partitions": partitions, "tpcs": tpcs, "gpcs": gpcs}
    if len(sys.argv) < 3 or sys.argv[1] not in kinds:
        sys.exit("usage: smSets.py partitions|tpcs <smMap.jsonl> | gpcs <smMap.jsonl> <gpcMap.jsonl>")
    for name, sms in kinds[sys.argv[1]](*sys.argv[2:]).items():
        print(name, ",".join(map(str, sms)))
