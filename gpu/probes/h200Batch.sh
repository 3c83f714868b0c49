#!/usr/bin/env bash
# One device batch of the H200 probes (gpu/probes/README.md, "Runs of 2026-12-02").
#   probes   build both probes, run the stream / chase / blockmap loops into $OUT/probes.jsonl;
#            meanwhile build the paper's harness (copied to .harness/, built for sm_90 with
#            -lineinfo so that Nsight Compute can attribute stalls to source lines)
#   harness  spmm_perf on the calibration shapes and on large-K shapes, into $OUT/harness.txt
#   ncu      Nsight Compute (warp states, stall reasons by SASS line) on the harness's kernels
#   parity   Nsight Compute (throughput, grid) of cuBLAS and the STC proxy on three more shapes
#   burst    tileBurst (Flash-LLM's burst of tile loads by blocks per SM, burst and shared memory),
#            the device's cache properties, the SASS of the probes' loops; meanwhile builds the harness
#   splitk   the harness at split-K 4 … 14 (1 to 3 Flash-LLM blocks per SM) and Nsight Compute on
#            Flash-LLM with one block per SM
#   winners  the harness's calibration cells run three times each (how far cuBLAS and Flash-LLM move
#            between runs at the near-parity cells), Nsight Compute on Flash-LLM at those cells, and
#            the probes' one-load-in-flight stream by footprint and warps, the chase by 1 MiB at 24–36 MiB;
#            meanwhile builds the harness
#   winners2 what the first winners call had no time left for: the third run of 9216² at 40–70 % and
#            Nsight Compute on Flash-LLM at the two near-parity cells
#   stalls   l2Replacement (which lines a walk keeps from pass to pass, 16–64 MiB, two permutations)
#            and Nsight Compute's stall reasons by SASS line on Flash-LLM at 9216² and 7168² 60 %
#            (three blocks on the busiest SMs against two); meanwhile builds the harness
#   clocks   smClock (the SM clock a block sees under FMA spins and streams, by blocks per SM) and the
#            harness's ten 7168² / 9216² cells, with nvidia-smi sampling the clocks and power every
#            50 ms throughout; meanwhile builds the harness
#   bursts   smClock's bursts (short launches after the GPU idled, as the harness times them) and
#            smClock under Nsight Compute (its SM Frequency against the blocks' own clock)
#   tensor   smClock's mma.sync chains by blocks per SM, and Nsight Compute's SM Frequency for them,
#            for the FMA spin and for cuBLAS and Flash-LLM in the harness (7168², 50 %)
#   drain    gridBurst (the whole grid's burst of tile loads, then an idle gap, by grid size, vectors
#            per thread and gap) with its SASS; l2Partitions gather (random sectors of an L2-resident
#            footprint from 16 … 132 SMs: the line rate an SM's misses get, by how many SMs ask)
#   l2fill   Nsight Compute's L2 and DRAM sector counts for the probe's stream at 24–64 MiB (where the
#            L2 starts to lose a footprint it could hold)
#   stcscale the harness and Nsight Compute's duration for the STC proxy by rows (32 … 128 blocks:
#            how many SMs share the L2's lookups) and by K (its iterations per block: the fixed part of
#            a block's time against the per-iteration part); the probe's stream counts at one load in
#            flight per SM (does the L2 lose a footprint by its size alone, or by the rate?)
#   stcstart the STC proxy's own cycles with 1, 2 and 4 iterations per block on 32 … 1024 blocks
#            (what a block's start and end cost, by the grid's size)
#   stclife  stcLifetime (the STC proxy with marks: each block's prologue, loop and epilogue, its SM,
#            start and end; the API's call, its main kernel alone and an empty grid, event-timed) on
#            32 … 1024 blocks at 1 and 4 iterations and on the near-parity and calibration shapes;
#            Nsight Compute's duration of the marked kernel, the reduction and the empty grid, with
#            and without its cache flush; the per-block rows come back as blocks.tgz
#   stcsms   stcLifetime on one matrix with 64 and 128 blocks, one per SM (split-K 4 and 8, and half the
#            rows at split-K 8): what a loop iteration costs by how many SMs ask the L2 at once
#   stciters stcLifetime with every K-loop iteration's end marked (and the plain build beside it) on
#            64 and 128 blocks of one per SM, on 7168² (one block on 40 SMs beside two on 92; and
#            M 5120 / 8192: 104 / 8 lone SMs), 9216² and 14336 × 4096: is the iteration's growth with the SMs a start-up transient of blocks
#            in lockstep, and do the lone blocks at 7168² keep with the grid's burst?
#            (iterationPhases.py reads the archives)
#   mixes    the harness at K 7168, split-K 8, 50 % with M from 4096 to 8448 (one block per SM, then
#            more and more SMs with two), three rounds: does Flash-LLM's time follow every block of the
#            grid (the whole grid's burst) or only the SMs with two?
#   residency Nsight Compute's warp states (stall reasons), scheduler, speed-of-light and occupancy
#            sections for Flash-LLM, the Coruscant kernel and the STC proxy at K 7168, split-K 8, 50 %,
#            M 4096 (one block on every SM) and 8448 (two): what an SM's second block waits for
#   extractmio stsScatter (Flash-LLM's extract replayed) at 30 / 50 / 70 %, both orders, 1–3 blocks per
#            SM, alone and after each warp's 20 ldmatrix.x4 of the tile (the MMAs' reads): how much
#            longer the extract's chain gets when a second block's LDSM share the MIO queue
#   residencysites the same launches with the source counters (stall samples per SASS instruction): at
#            which instructions the second block's warps wait (stallGrowth.py --sites)
#   residencythree the same at M 12544 (three blocks on 128 SMs): the Algorithm 1 step with a third
#            block (stallGrowth.py --per FLO)
#   residencysparsity residencysites at 30 % and 70 %: the SM's own part of an iteration by sparsity
#            and blocks per SM, beside its waits on memory and at barriers (stallGrowth.py --parts)
#   residencythreesparsity residencythree at 30 % and 70 % (three blocks per SM)
#   flashiters flashLifetime (Flash-LLM with marks) and stcLifetime, each K-loop iteration's end
#            marked, at K 7168, split-K 8, 50 %, M 4096 … 12544 (one block on every SM, then more and
#            more SMs with two, then three), and Flash-LLM's plain build beside it: how long an
#            iteration takes on an SM with one block and on one with two, in a light grid and a full one
#   flashgrid the same two marked kernels with one block per SM on 16, 32, 64, 96 and 128 SMs (M 512 …
#            4096, split-K 8): how an iteration grows with the grid where no SM holds two
#   flashcopies the flashgrid launches on 16, 32 and 64 SMs with the harness's four copies of the weights
#            and with sixteen (LIFETIME_COPIES: no grid's copies stay in the L2 between their turns),
#            both kernels marked by iteration; all of it in $OUT/copies.tgz: is the small grids'
#            short iteration the L2 keeping their four copies? COPIES_LIST="16" COPIES_ROWS="512 …
#            4096" reads every flashgrid grid cold; COPIES_LIST="1 16" COPIES_K=3584 reads every grid from
#            the L2 (one copy, 7 iterations a block: at most 30 MB) and cold
#   gridsites residencysites with one block per SM on 16, 32, 64, 96 and 128 SMs (M 512 … 4096), every
#            launch cold (Nsight Compute flushes the caches): which part of a lone block's iteration
#            (memory, barriers, the SM's own work; stallGrowth.py --parts) grows with the grid
#   burstgrid gridBurst with one block per SM on 16, 32, 64, 96 and 128 SMs, 10 and 16 vectors a
#            thread (the STC proxy's and Flash-LLM's bytes of a block-iteration), no gap and gaps of
#            700 and 2,400 cycles (their SM's own work), two rounds: does a synthetic burst from DRAM
#            grow with the grid as the lone kernels' blocks do (flat to 32 SMs, longer from 64)?
#   gridk    the harness with one block per SM on 32, 64, 96 and 128 SMs (M 1024 … 4096, split-K 8,
#            50 %) at K 7168 and 28672, three rounds with the shapes interleaved: does a kernel's time
#            at one block per SM follow how many SMs ask (the model's burst) at large K too? About
#            14 s a harness call on the H200, so ≈ 6 minutes for the 24 (the twenty-sixth batch's
#            230 s held two rounds); GRIDK_ROUNDS="3" runs the third alone
#   l2sms    l2Partitions smmap (which SMs share SM 0's partition), then the fixed stream at 24–64 MiB
#            read by all SMs, by one partition's SMs, by the other's, and by half of each (as many SMs
#            as one partition has), timed and with Nsight Compute's L2 and DRAM sector counts: does
#            the L2 lose a stream by its size, or by which partitions read it?
#   tpc      l2Partitions smmap, then the fixed stream at 24 MiB (L2-resident) and 1 GiB (DRAM) read by
#            sets of SMs that tell a TPC's shared path from a partition's slices: both SMs of half of
#            each partition's TPCs against one SM of every TPC, one partition's SMs against one SM of
#            each of its TPCs, and one SM, one TPC, two TPCs; Nsight Compute's sector counts for two
#            of them: is one partition's half rate its slices', or its TPCs'?
#   passes   the fixed stream at 48–60 MiB by passes per launch (1 … 108; the warps start together at
#            each launch and drift apart over its passes) and relaunched once per pass, with Nsight
#            Compute's DRAM and L2 sector counts at 56 MiB after 3, 8 and 36 passes per launch; at 24
#            and 40 MiB by 1, 3 and 36 passes; one partition's SMs and half of each at 40 / 56 MiB by
#            3 and 36: does silicon's stream keep more of a footprint the longer its warps run free?
#   partpasses one partition's SMs (either partition) streaming 24–56 MiB in launches of 1, 3, 8 and 36
#            passes, twice over, with Nsight Compute's DRAM, L2-miss and fabric sector counts at 40 and
#            56 MiB after 3 and 36 passes: where one partition's stream gains over a launch's passes
#            (40 MiB: +9 % from 3 to 36 in the thirteenth batch, one run), and from which source
#   partwarps one partition's SMs (SM 0's) streaming 24, 40, 48 and 56 MiB in launches of 1, 3 and 36
#            passes, each warp's SM, start and end in the last launch (warps.tgz: warps/MiB-passes.csv):
#            do some warps run ahead and keep their lines near while the rest miss?
#   partlines one partition's SMs (SM 0's) streaming 24–56 MiB in launches of 3 and 36 passes (40 MiB
#            also of 1), all SMs at 40–56 MiB; after each of three rounds SM 0 reads every line once in
#            address order, timed (l2Partitions streamkeep: lines.txz, lines/SMs-MiB-passes-round.hex and
#            .csv, lines/SMs-MiB-passes-home.hex): which lines the partition keeps, the same ones each
#            round or not, by home partition, by warp and by address
#   linepasses partlines again for SM 0's partition alone (32–56 MiB, launches of 3 and 36 passes,
#            40 MiB also of 1), now with each pass's end per warp in the last round's CSV: the times
#            gpu/probes/replayLru.py replays the stream with, pass by pass
#   homeorders SM 0's partition streaming 24–48 MiB with each warp's chunks dealt by their 4 KiB
#            blocks' home partitions (l2Partitions streamkeep's orders: fixed, natural, split, halves),
#            each row two rounds with the walk after each (lines.txz, lines/near-MiB-passes-order-*):
#            do warps whose lines are all homed near run away from the rest and keep them, and does
#            the stream keep a quarter of 40 MiB when every warp's lines are half near?
#   homeonly SM 0's partition streaming only the lines of a 40–56 MiB footprint homed in its own
#            partition (`near`: its misses from its own DRAM) or only those homed in the other (`far`:
#            its misses across the link), launches of 3 and 36 passes, with each warp's pass ends:
#            what one home's lines read alone (20–29 MiB: about what the partition holds)
#   ordersteps the orders again with each warp's steps (its four loads issued until their values are
#            in) counted by cycles in the last launch (lines/…-steps.csv): what a near-only warp's
#            step costs on silicon against a far-only one's, and against the model's
#   loopsass the stream kernels' SASS (cuobjdump) of l2Partitions.cu as checked out, and of every other
#            l2Partitions source listed in $SASS_SOURCES (paths in the working tree, e.g. older
#            revisions written out with git show), one file each: loadWindow.py reads how many loads
#            each loop keeps out
#   orderncu Nsight Compute's DRAM, L2-miss and fabric sector counts for one launch of each order at
#            40 MiB (3 and 36 passes) and 48 MiB (36): how many of the split stream's reads hit near,
#            against what LRU fed silicon's warp times (replayLru.py) keeps
#   smcap    l2Partitions smstream by one SM and by one TPC, from DRAM (1 GiB) and from the L2 (24 MiB),
#            with 1, 2, 4 and 8 blocks of 256 threads and 1, 2, 4 and 8 loads in flight: where one SM's
#            rate stops growing with the bytes it asks for, and whether that is the same bytes at
#            either level (a miss queue) or the same rate (its load/store units)
#   smdepth  l2Partitions smdepth on SM 0, 4 … 64 warps × 1 … 16 loads out (whole steps, all issued before
#            any is used), from DRAM (1 GiB) and from the L2 (24 MiB), smstream's loops (smcap's) beside
#            each: a warp's round trip by its loads out, up to a Flash-LLM warp's ≈ 12 per round
#   smconst  on SM 0, 8 / 32 / 64 warps × 1 … 8 loads out, from DRAM and from the L2, two rounds: the
#            whole-step loop (smdepth), the same with an LDC of the buffer's address before each load
#            (smconst) and the bounds-tested loop (smstream), side by side: do the LDCs, which only
#            the bounds-tested loops have, make the one read as the other?
#   gpc      l2Partitions gpcmap (which SMs share a GPC, from thread block clusters) and smmap, then the
#            fixed stream at 24 MiB read by each GPC's SMs alone, by one SM of each of its TPCs, and by
#            sets of GPCs: is the L2 rate that a set of SMs gets its GPCs' ports?
#   spread   l2Partitions smdepth (whole steps, 4 loads out a warp, or each count in SPREAD_OUT) from
#            DRAM (1 GiB) and from the L2 (24 MiB), two rounds: a fixed total of 128, 256 or 512 warps
#            spread over 8 … 128 SMs (in blocks of at most 8 warps), and 4 warps an SM on 8 … 128 SMs:
#            does a load's round trip grow with the SMs that ask at the same total in flight, or only
#            with the total?
#   spreadsteps l2Partitions smsteps (smdepth's loop with every step timed) from DRAM, 4 warps an SM on
#            8 … 128 SMs, 1, 2 and 4 loads out, two rounds: how a step's round trip spreads as the
#            grid grows, where the spread step has only its mean
#   spacing  l2Partitions smsteps from DRAM, 4 warps an SM on 8, 32 and 128 SMs, 2 and 4 loads out, a
#            warp's loads 512 B … 256 KiB apart (each spacing that divides the grid's), two rounds:
#            does a step's fast tenth follow how far apart its loads lie at the same traffic, and
#            the traffic at the same spacing?
#   lonewarp l2Partitions smsteps on all 132 SMs with one warp (and four) each, 1, 2 and 4 loads out,
#            from DRAM and from the L2: the calibration table's lone-warp rows in whole steps, timed
#   spacingbits l2Partitions smsteps on 128 SMs, 2 loads out a warp 512 B … 1 MiB apart (each power of
#            two: 4 warps an SM up to 256 KiB, 16 up to 1 MiB), from DRAM (1 GiB) and from the L2
#            (24 MiB), two rounds: which address bits part a warp's two loads, and at which level
#   homemap  l2Partitions streamkeep by SM 0's partition at 40 and 32 MiB, launches of one pass, one
#            round: the map of lines homed near and far that homeMap.py reads, on a card whose L2
#            partitions hold less than the sixteenth batch's 56 MiB run needs (an H100's 25 MB)
#   dramclock dramClock (one thread reads fresh lines one at a time and records each read's issue
#            cycle and latency) over 1 GiB from DRAM, scattered within each 2 MiB page (three rounds,
#            and two in another order) and in line order (two rounds), and over an L2-resident 16 MiB:
#            do DRAM's slow reads come in windows at a period (refresh), and does their phase follow
#            the address?
#   dramclockpair dramClock with 2 threads (three rounds) and 8 (two), each on its own SM over its own
#            share of 1 GiB at the same time, issue times from the globaltimer: do reads far apart,
#            on other SMs, wait in the same windows?
#   dramclockwide dramClock with 32 threads (two rounds of 16,384 reads), each on its own SM: how
#            many of the other SMs' reads wait in one read's window, window by window? (With 128
#            threads the reads contend: half of them vary by over 64 cycles between rounds.)
#   dramclockpages dramClock with 32 and 128 threads (two rounds of 16,384 reads), each on its own SM
#            over one 2 MiB page of its own: do the reads still contend when each SM's reads stay
#            in one page (dramclockwide's 32 read 32 MiB each)?
#   dramclockstagger dramclockpages with thread b starting at read b × 512 (32 threads) or b × 128
#            (128) of its page's order: do the reads stop contending when the SMs read other
#            offsets at once (dramclockpages' threads all read the same offset of their pages)?
#   footprints l2Partitions stream past the L2, 128 MiB … 2 GiB, in the fixed, rotating and relaunch
#            mappings, 2 and 4 GiB a run, two rounds: does the probe's stream read 256 MiB slower than
#            1 and 2 GiB, as the calibration table's harness does (4,050 against 4,499 GB/s)?
#   l2long   Nsight Compute's L2 and DRAM sector counts for the stream past the L2 over launches of
#            2 GiB (56, 80, 128 MiB; fixed and rotating) and of 512 MiB (80 MiB): how much of a pass
#            the L2 serves in long launches, by mapping, and whether the far partition's copies last
#   rotsteps l2Partitions rotsteps (the rotating stream in whole steps, each warp's steps by cycles,
#            its start, end and SM) at 24, 56, 80, 128 and 1024 MiB over 2 GiB, and 80 MiB over
#            512 MiB, each beside the untimed rotating stream: do the hits that the rotating mapping
#            gets past the L2's size go to some warps throughout, or to every warp a little?
#   rotshift l2Partitions stream rotating at 56, 80 and 128 MiB and 64 KiB more each, over 2 GiB, two
#            rounds: does the next reader's L2 partition, which the extra 64 KiB moves in the model's
#            grid, change silicon's rate?
#   rotpart  l2Partitions rotpart (the rotating stream with its warps ordered by L2 partition,
#            alternately) at 24, 56, 80 and 128 MiB and 512 B more each, over 2 GiB, beside the
#            probe's own rotating stream, two rounds: does a line's next reader gain from the copy
#            its own partition made, as the model's does (80 MiB: 7,864 against 5,762 GB/s)?
#   rotruns  rotpart in runs of 4 warps a partition at 48, 56, 64 and 80 MiB and 512, 1,024 and
#            2,048 B more (100, 75, 50 and 0 % of the next readers in the same partition), in runs
#            of 2 at 512 B more (50 %), beside the probe's own rotating stream, two rounds: how much
#            of the same-partition gain is left when only some next readers share the partition?
#   rotpartncu Nsight Compute's L2 and DRAM sector counts for rotpart (runs of one) at 40–128 MiB
#            and 512 B more, and for the plain rotating stream, the third launch of each: where a
#            placed launch's reads come from (near hits, across the fabric, DRAM) with every next
#            reader in the own partition or every one in the other (sectorShares.py reads it).
#   rotrunsncu Nsight Compute's sector counts for rotpart in runs of 4 warps at 48, 56, 64 and 80 MiB
#            and 512, 1,024 and 2,048 B more (100, 75, 50 and 0 % of the next readers in the own
#            partition): whether a share's small part of the gain is in what the partitions keep
#            (its DRAM share) or in the steps' timing
#   rothome  l2Partitions rothome (the rotating stream with each partition's warps reading only the
#            4 KiB blocks homed in it: no far read, so no copies) and its `mixed` walk (every warp
#            every block through the same list) beside the plain rotating stream, at 24–128 MiB over
#            2 GiB, two rounds: does a partition keep its own lines past the L2's size as the model's
#            LRU does, where no copy competes for its sets?
#   rothomencu Nsight Compute's sector counts for rothome's two walks and the plain rotating stream at
#            24–128 MiB, the third launch of each (sectorShares.py reads it)
#   rotfar   rothome's `far` walk (each partition's warps reading only the blocks homed in the other:
#            every read crosses the fabric, so what a partition keeps for its SMs is copies) beside
#            its `home` walk, at 24–128 MiB over 2 GiB, two rounds: are copies kept as home lines are?
#   rotfarncu Nsight Compute's sector counts for the `far` and `home` walks at 24–128 MiB
#   rotoneway rothome's `oneway` walk (only the listed partition's warps read, the blocks homed in the
#            other: one partition holds only copies, the other only the home lines it fetched for
#            them) beside the `far` walk, at 24–128 MiB over 2 GiB, two rounds: does a partition keep
#            more copies when it holds no home lines for the other?
#   rotonewayncu Nsight Compute's sector counts for the `oneway` and `far` walks at 24–128 MiB
#   replaypasses Nsight Compute's DRAM reads alone, the L2's lookups alone and the whole sector set
#            for rothome's `home` and `far` walks at 24, 40 and 48 MiB, with how many replays each
#            took: at 24 MiB the whole set counted one footprint from DRAM where every lookup hit
#   dramalone Nsight Compute's DRAM reads alone (one replay, so the launch starts from the L2 the
#            launches before it left) for rothome's `home`, `far` and `oneway` walks, the plain
#            rotating stream and rotpart (runs of one, F and F + 512 B) at 24–128 MiB
#   dramhistory Nsight Compute's DRAM reads alone in a run's first, third and sixth launch of
#            rothome's walks (40, 56 and 80 MiB `far`, 80 MiB `home` and `oneway`) and of the plain
#            rotating stream at 80 MiB: does silicon keep more past the L2 the more launches before?
#            (rothome makes four launches, so only the plain stream has a sixth)
#   hitsunder hitsUnderLoad: one thread on SM 0 walks 1, 2 or 16 KiB, 4 MiB or 1 GiB of lines, one
#            load at a time, each timed, while the other SMs stream nothing, 16 MiB (the L2's hits)
#            or 1 GiB (DRAM): does a load that hits the L2 wait behind the misses around it? Then the
#            4 MiB and 1 GiB walks with their SM streaming too (`shared`)
#   hitsphases hitsUnderLoad with every step timed from the launch's start (65,536 of them) and noted
#            every 1,024 with the globaltimer, the SM clock and the stream's bytes: 4 MiB of hits beside
#            the L2-bound stream and alone, 1 GiB from DRAM beside either stream, the 16 KiB walk beside
#            the L2-bound one; then the 1 KiB walk timed after 32,768 untimed steps, as the 4 MiB walk
#            was; with nvidia-smi sampling clocks, power and throttle reasons every 20 ms: when in a
#            launch does the walk's wait change, and what changes with it?
#   h100walk l2Replacement on an H100 (50 MiB of L2, two partitions of 25): which lines the single
#            walk keeps from pass to pass at 8–56 MiB, the stalls step's walk at the H100's sizes,
#            for an H100 profile's partition sizes (the H200's `setShares` came from its walk)
# The harness is dhjoo98/coruscant at 1b715b1, with the one change that times print to 10 ns.
set -u
OUT=${OUT:-/tmp/h200-out}
mkdir -p "$OUT"
ROOT=$(pwd)
PROBES=$(cd "$(dirname "$0")" && pwd)
NVCC="nvcc -O3 -gencode arch=compute_90,code=sm_90"

buildHarness() {
  (cd .harness/kernel_sources && source init_env_vars.sh &&
    for k in flash_llm coruscant_kernel coruscant_stc; do make -C $k/build SMS=90 NVCCFLAGS="-m64 -lineinfo" || exit 1; done &&
    cd ../kernel_comparison && make SMS=90 NVCCFLAGS="-m64 -lineinfo")
}

# The L2 and DRAM sector counters named here that this card's Nsight Compute has, comma-separated
# (its whole list into $OUT/metrics.txt)
sectorMetrics() {
  local wanted="dram__bytes_read lts__t_sectors_srcunit_tex_op_read lts__t_sectors_srcunit_tex_op_read_lookup_hit
    lts__t_sectors_srcunit_tex_op_read_lookup_miss lts__t_sectors_srcunit_ltcfabric lts__t_sectors_srcunit_ltcfabric_op_read
    lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit lts__t_sectors_srcunit_ltcfabric_op_read_lookup_miss
    lts__t_sectors_lookup_hit lts__t_sectors_lookup_miss lts__t_sectors lts__t_requests_srcunit_ltcfabric
    lts__t_sectors_srcnode_gpc lts__t_sectors_srcnode_gpc_lookup_hit lts__t_sectors_srcnode_gpc_lookup_miss gpu__time_duration"
  ncu --query-metrics --chip gh100 >"$OUT/metrics.txt" 2>&1
  local metrics m
  metrics=$(for m in $wanted; do grep -qE "^$m[[:space:]]" "$OUT/metrics.txt" && echo -n "$m.sum,"; done)
  echo "${metrics%,}"
}

# Nsight Compute's counts of METRICS for launch SKIP + 1 of the program after them (of kernel
# KERNEL, a name or regex:…, where one is given), its record and metric lines and the replays the
# counts took ("- 7 passes"; none printed for one: a set's DRAM is counted in a replay that starts
# cold, results/2026-12-07r); --cache-control none, so the L2 keeps what the launches before left:
# launchAt SKIP METRICS KERNEL|"" PROGRAM ARGS…
launchAt() {
  local skip=$1 metrics=$2 kernel=$3
  shift 3
  timeout 120 ncu --clock-control none --cache-control none --metrics "$metrics" --launch-skip "$skip" --launch-count 1 \
    ${kernel:+--kernel-name "$kernel"} "$@" | grep -E "^\{|^  [a-z]|__| passes$"
}

# The third launch: thirdLaunch METRICS KERNEL|"" PROGRAM ARGS…
thirdLaunch() {
  launchAt 2 "$@"
}

# l2Partitions rothome's WALKS (e.g. "home mixed") at 24–128 MiB over 2 GiB, two rounds, into
# $OUT/FILE; with "plain", each footprint's walks are followed by the plain rotating stream:
# homeWalks FILE WALKS [plain]
homeWalks() {
  local file=$1 walks=$2 plain=${3:-} list round mib walk
  mapPartitions || return 1
  list=$(nearSms)
  for round in 1 2; do
    for mib in 24 40 56 80 128; do
      for walk in $walks; do /tmp/l2Partitions rothome $mib 2048 "$list" $walk; done
      if [ -n "$plain" ]; then /tmp/l2Partitions stream $mib rotating 2048; fi
    done
  done >"$OUT/$file" 2>&1
}

# Nsight Compute's sector counts (sectorMetrics, the third launch of each) for the same walks at
# 24–128 MiB, into $OUT/FILE (sectorShares.py reads it): homeWalksNcu FILE WALKS [plain]
homeWalksNcu() {
  local file=$1 walks=$2 plain=${3:-} list metrics mib walk
  mapPartitions || return 1
  list=$(nearSms)
  metrics=$(sectorMetrics)
  echo "metrics: $metrics" >"$OUT/$file"
  for mib in 24 40 48 56 64 80 96 128; do
    for walk in $walks; do
      echo "== rothome $mib MiB $walk"
      thirdLaunch "$metrics" streamRotatingByHome /tmp/l2Partitions rothome $mib 2048 "$list" $walk
    done
    if [ -n "$plain" ]; then
      echo "== stream $mib MiB rotating 2048"
      thirdLaunch "$metrics" regex:^streamRotating /tmp/l2Partitions stream $mib rotating 2048
    fi
  done >>"$OUT/$file" 2>&1
}

# Nsight Compute's L2 and DRAM sector counts (sectorMetrics) for the third launch of l2Partitions
# stream, once per "MiB mapping totalMiB"; --cache-control none, so the L2 keeps what the launches
# before left.
streamSectors() {
  local metrics
  metrics=$(sectorMetrics)
  echo "metrics: $metrics"
  for run in "$@"; do
    set -- $run
    echo "== stream $1 MiB $2 $3"
    thirdLaunch "$metrics" "" /tmp/l2Partitions stream $1 $2 $3
  done
}

# Nsight Compute with $SECTIONS into FOLDER/NAME.{log,details.txt,sass.csv}: prof FOLDER NAME ncu-arguments… program…
prof() {
  local folder=$1 name=$2
  shift 2
  timeout 240 ncu --clock-control none $SECTIONS -f -o "/tmp/$name" "$@" >"$folder/$name.log" 2>&1
  ncu -i "/tmp/$name.ncu-rep" --page details >"$folder/$name.details.txt" 2>&1
  ncu -i "/tmp/$name.ncu-rep" --page source --csv --print-source sass >"$folder/$name.sass.csv" 2>&1
}

# The harness's three register-staged kernels at K 7168, split-K 8, 50 % (or SPARSITY %), profiled
# with the given sections at the given M (256 rows a block: 4096 puts one block on each SM, 8448 two,
# 12544 three on 128 of the 132): per kernel and M the details, the SASS page and the raw page, into
# $OUT/<name>.tgz.
# [SPARSITY=S] residencyProfiles NAME SECTIONS M…
SITE_SECTIONS="--section WarpStateStats --section SourceCounters --section InstructionStats"
residencyProfiles() {
  local name=$1 m k
  SECTIONS=$2
  shift 2
  recordGpu
  [ -x .harness/kernel_comparison/spmm_perf ] || buildHarness >"$OUT/harness-build.log" 2>&1 || return 1
  harnessEnv
  mkdir -p "/tmp/$name"
  for m in "$@"; do
    for k in FlashLLM_SpMM_Kernel SpMM_Kernel Coruscant_STC_SpMM_Kernel; do
      prof "/tmp/$name" "$k-$m" --kernel-name-base function --kernel-name $k --launch-skip 4 --launch-count 1 \
        ./spmm_perf $m 7168 8 "${SPARSITY:-50}" 8
      ncu -i "/tmp/$k-$m.ncu-rep" --page raw --csv >"/tmp/$name/$k-$m.raw.csv" 2>&1
    done
  done
  tar czf "$OUT/$name.tgz" -C /tmp "$name"
}

# A register-staged kernel with marks (blockLifetime.cuh), built against the harness's kernel as
# markKernel.sh marks it: buildLifetime stc|flashllm [iterations] builds stcLifetime.cu or
# flashLifetime.cu into /tmp/<kernel>Lifetime, and with "iterations" also the build that marks each
# K-loop iteration's end, into /tmp/<kernel>LifetimeIterations
buildLifetime() {
  local kernel=$1 source csrc program
  case $kernel in
  stc) source='STC_KERNEL_SOURCE="/tmp/stcMarked/Coruscant_STC_SpMM_API.cu"' csrc=coruscant_stc program=stcLifetime ;;
  flashllm) source='FLASH_KERNEL_SOURCE="/tmp/flashllmMarked/FlashLLM_SpMM_API.cu"' csrc=flash_llm program=flashLifetime ;;
  esac
  local flags=(--use_fast_math -maxrregcount=255 "-D$source" "-DLIFETIME_COPIES=${LIFETIME_COPIES:-4}")
  bash "$PROBES/markKernel.sh" "$kernel" ".harness/kernel_sources/$csrc/csrc" "/tmp/${kernel}Marked" || return 1
  $NVCC "${flags[@]}" -o "/tmp/${kernel}Lifetime" "$PROBES/$program.cu" || return 1
  [ "${2:-}" != iterations ] ||
    $NVCC "${flags[@]}" -DBLOCK_ITERATION_MARKS -o "/tmp/${kernel}LifetimeIterations" "$PROBES/$program.cu"
}

# lifetimeRuns KERNEL NAME SPLIT_IN_NAME ITERATIONS ARCHIVE "M K sparsity split-K"…: the lifetime
# program's JSON lines into $OUT/NAME.jsonl, its rows per block packed into $OUT/ARCHIVE
# (blocks/MxK-sparsity[-splitS].csv); with ITERATIONS 1 the build that marks each K-loop iteration,
# whose rows per iteration go beside them (iterations/MxK-sparsity[-splitS].csv)
lifetimeRuns() {
  local kernel=$1 name=$2 splitInName=$3 iterations=$4 archive=$5 run csv folders=blocks
  local program=/tmp/${kernel}Lifetime
  shift 5
  [ "$iterations" = 1 ] && program=/tmp/${kernel}LifetimeIterations folders="blocks iterations"
  (cd "$OUT" && rm -rf blocks iterations && mkdir -p $folders)
  for run in "$@"; do
    set -- $run
    csv="$1x$2-$3"
    [ "$splitInName" = 1 ] && csv="$csv-split$4"
    # The iteration build's sixth argument; the plain build takes five
    timeout 120 $program $1 $2 $3 $4 "$OUT/blocks/$csv.csv" $([ "$iterations" = 1 ] && echo "$OUT/iterations/$csv.csv")
  done >"$OUT/$name.jsonl" 2>&1
  (cd "$OUT" && tar czf "$archive" $folders && rm -rf $folders)
}

# The GPU's name and clocks, and hitsUnderLoad built into /tmp (the hitsunder steps)
buildHitsUnderLoad() {
  recordGpu
  $NVCC -o /tmp/hitsUnderLoad "$PROBES/hitsUnderLoad.cu"
}

recordGpu() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv >"$OUT/gpu.txt"
}

# nvidia-smi's clocks, power, temperature and throttle reasons every $1 ms into $OUT/clocks.csv, in
# the background until `kill $sampler`
sampleClocks() {
  local fields=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active
  nvidia-smi --query-gpu=$fields --format=csv -lms "$1" >"$OUT/clocks.csv" 2>&1 &
  sampler=$!
}

# A line with the time to the nanosecond, to place what follows among sampleClocks' samples
mark() { echo "== $(date '+%Y/%m/%d %H:%M:%S.%N') $*"; }

# The GPU's name and clocks, l2Partitions built, and its smmap into $OUT/smMap.jsonl (smSets.py reads it)
# Nsight Compute's sector counts for the partition steps: DRAM, the SMs' L2 reads, their tag misses, the fabric.
PARTITION_METRICS="dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric_op_read.sum,gpu__time_duration.sum"

# mapSms, then the partitions' SM sets (all, near, far, half) into $OUT/smSets.txt
mapPartitions() {
  mapSms || return 1
  python3 "$PROBES/smSets.py" partitions "$OUT/smMap.jsonl" >"$OUT/smSets.txt"
}

# SM 0's partition as an SM list, from mapPartitions' smSets.txt
nearSms() {
  grep -E "^near " "$OUT/smSets.txt" | cut -d' ' -f2
}

# The stream kernels' SASS of a built l2Partitions (streamLoopsSass BINARY FILE): loadWindow.py reads
# how many loads each loop keeps out, which a change elsewhere in a kernel can change (eighteenth batch)
streamLoopsSass() {
  cuobjdump -sass "$1" |
    awk '/Function : /{p = ($0 ~ /streamOnSms|streamOrdered|streamListed.*LoadKind0|streamDeep|streamFixedILi4EL8LoadKind0|streamRotatingILi4EL8LoadKind0/)} p' >"$2"
}

# l2Partitions built into /tmp/l2Partitions, its stream loops' SASS into $OUT/streamLoops.sass
buildL2Partitions() {
  $NVCC -o /tmp/l2Partitions "$PROBES/l2Partitions.cu" && streamLoopsSass /tmp/l2Partitions "$OUT/streamLoops.sass"
}

# l2Partitions built for the whole-step loops' steps, and loadWindow.py on their SASS: how many loads
# each loop keeps out (smdepth, smconst, spreadsteps)
buildDeepLoops() {
  recordGpu
  buildL2Partitions || return 1
  python3 "$PROBES/loadWindow.py" "$OUT/streamLoops.sass" >"$OUT/loadWindow.txt" 2>&1
}

# dramClock built, the SASS of one of its timed kernels (mangled name) into $OUT/$2, and $OUT/traces made
buildDramClock() {
  recordGpu
  $NVCC -o /tmp/dramClock "$PROBES/dramClock.cu" || return 1
  cuobjdump -sass -fun "$1" /tmp/dramClock >"$OUT/$2" 2>&1
  mkdir -p "$OUT/traces"
}

# $OUT/traces packed into $OUT/traces.txz (one file to bring back, as dramClock.py reads it)
packTraces() {
  (cd "$OUT" && tar cJf traces.txz traces && rm -rf traces)
}

# dramClock with several threads at once, each a block on its own SM over its own share of MIB (1 GiB
# unless given), thread b from read b × STAGGER of its order (0 unless given), issue times from the
# globaltimer, into $OUT/dramClock.jsonl and traces.txz: clockedThreads "THREADS READS ROUND [MIB [STAGGER]]"…
clockedThreads() {
  buildDramClock _Z11readClockedILb1EEvPKjmjjjbP5uint2PyPj dramClockPair.sass || return 1
  for run in "$@"; do
    read -r threads reads round mib stagger <<<"$run"
    mib=${mib:-1024}
    stagger=${stagger:-0}
    /tmp/dramClock $mib $reads scattered cold "$OUT/traces/threads$threads-$mib-$stagger-cold-$round.bin" 6781 $threads $stagger
  done >"$OUT/dramClock.jsonl" 2>&1
  packTraces
}

mapSms() {
  recordGpu
  buildL2Partitions || return 1
  /tmp/l2Partitions smmap 4096 >"$OUT/smMap.jsonl"
}

# The SASS of l2Partitions' timed line walk (its loop: clock, load, the store that waits, clock)
lineTimesSass() {
  cuobjdump -sass -fun _Z9lineTimesPKjjjjPjPhS1_S1_ /tmp/l2Partitions >"$OUT/lineTimes.sass" 2>&1
}

# orderRuns NAME "ORDERS" "OPTIONS" "MiB passes launches"…: l2Partitions streamkeep by SM 0's
# partition, two rounds of each run in each order (OPTIONS after the order: "" or steps), into
# $OUT/NAME.jsonl and lines.txz (lines/near-MiB-passes-order-*)
orderRuns() {
  local name=$1 orders=$2 options=$3 order run mib passes launches list
  shift 3
  mapPartitions || return 1
  mkdir -p "$OUT/lines"
  list=$(nearSms)
  for order in $orders; do
    for run in "$@"; do
      read -r mib passes launches <<<"$run"
      timeout 120 /tmp/l2Partitions streamkeep "$mib" "$list" "$passes" "$launches" 0 \
        "$OUT/lines/near-$mib-$passes-$order" 2 "$order" $options
    done
  done >"$OUT/$name.jsonl" 2>&1
  (cd "$OUT" && tar cJf lines.txz lines && rm -rf lines)
}

# spreadList S: S SMs, one per TPC while there are TPCs enough (SM 2t and 2t + 1 share TPC t), else
# SMs 0 … S-1 (the spread and spreadsteps steps)
spreadList() {
  python3 -c "import sys; s = int(sys.argv[1]); print(','.join(str(2 * (i * 66 // s) if s <= 66 else i) for i in range(s)))" "$1"
}

harnessEnv() {
  cd "$ROOT/.harness/kernel_sources" && source init_env_vars.sh && cd ../kernel_comparison
}

case "${1:-}" in
probes)
  recordGpu
  buildHarness >"$OUT/harness-build.log" 2>&1 &
  build=$!
  buildL2Partitions && $NVCC -o /tmp/stsScatter gpu/probes/stsScatter.cu || exit 1
  P=/tmp/l2Partitions
  {
    for mib in 4 8 12 16 20 24 28 32 36 40 44 48 52 56 64 80 128; do
      for mapping in fixed rotating; do $P stream $mib $mapping; done
    done
    for mib in 24 40 56; do
      for blocks in 1 2 4 8; do
        for inflight in 1 2 4 8; do $P stream $mib fixed 2048 $blocks 256 $inflight cg; done
      done
    done
    for mib in 4 8 16 24 32 40 56 80; do $P stream $mib fixed 2048 8 256 4 ca; $P stream $mib rotating 2048 8 256 4 ca; done
    for mib in 8 12 16 20 24 26 28 30 32 36 40 48 56; do $P chase $((mib * 1024)); done
    $P blockmap
    for blocks in 1 2 3; do /tmp/stsScatter 50 $blocks scan 16 4000; done
  } >"$OUT/probes.jsonl" 2>"$OUT/probes.err"
  wait $build
  echo "harness build: $?"
  ;;
harness)
  harnessEnv
  {
    for s in "7168 7168 30" "7168 7168 50" "7168 7168 70" "9216 9216 50" \
      "4096 14336 50" "4096 14336 70" "2048 28672 50" "2048 28672 70" "14336 4096 50" "14336 4096 70" "4096 28672 50"; do
      set -- $s
      echo "== M $1 K $2 N 8 sparsity $3 split-K 8"
      timeout 120 ./spmm_perf $1 $2 8 $3 8 | grep -E "Time/ms"
    done
  } >"$OUT/harness.txt" 2>&1
  ;;
ncu)
  [ -x .harness/kernel_comparison/spmm_perf ] || buildHarness >"$OUT/harness-build.log" 2>&1 || exit 1
  harnessEnv
  mkdir -p /tmp/ncu
  SECTIONS="--section WarpStateStats --section SourceCounters --section SchedulerStats --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats"
  for k in FlashLLM_SpMM_Kernel SpMM_Kernel Coruscant_STC_SpMM_Kernel; do
    prof /tmp/ncu "$k-7168" --kernel-name-base function --kernel-name $k --launch-skip 4 --launch-count 1 ./spmm_perf 7168 7168 8 50 8
  done
  prof /tmp/ncu cublas-7168 --launch-skip 4 --launch-count 2 ./spmm_perf 7168 7168 8 50 8
  prof /tmp/ncu stc-4096x14336 --kernel-name-base function --kernel-name Coruscant_STC_SpMM_Kernel --launch-skip 4 --launch-count 1 ./spmm_perf 4096 14336 8 50 8
  prof /tmp/ncu cublas-4096x14336 --launch-skip 4 --launch-count 2 ./spmm_perf 4096 14336 8 50 8
  tar czf "$OUT/ncu.tgz" -C /tmp ncu
  ;;
burst)
  recordGpu
  [ -x .harness/kernel_comparison/spmm_perf ] || { buildHarness >"$OUT/harness-build.log" 2>&1 & }
  build=$!
  $NVCC -o /tmp/tileBurst "$PROBES/tileBurst.cu" && $NVCC -o /tmp/stsScatter "$PROBES/stsScatter.cu" || exit 1
  T=/tmp/tileBurst
  {
    $T props
    for shared in 1024 69632; do
      for kind in ca cg; do
        for blocks in 1 2 3; do
          for v in 4 8 16 24; do $T $v $blocks $shared $kind; done
        done
      done
    done
    for shared in 16384 32768 49152 100000; do $T 16 2 $shared ca; done
    for blocks in 1 2 3; do /tmp/stsScatter 50 $blocks scan 16 4000; done
  } >"$OUT/burst.jsonl" 2>"$OUT/burst.err"
  { cuobjdump -sass /tmp/tileBurst | grep -A60 "Function : _Z5burstILi16ELb0" | head -90
    cuobjdump -sass /tmp/stsScatter | head -400; } >"$OUT/probes.sass" 2>&1
  wait $build
  echo "harness build: $?"
  ;;
splitk)
  [ -x .harness/kernel_comparison/spmm_perf ] || buildHarness >"$OUT/harness-build.log" 2>&1 || exit 1
  harnessEnv
  {
    for s in "7168 7168 50 4" "7168 7168 50 8" "7168 7168 50 12" "7168 7168 50 14" "7168 7168 30 4" "7168 7168 70 4" \
      "7168 7168 30 14" "7168 7168 70 14" "9216 9216 50 4"; do
      set -- $s
      echo "== M $1 K $2 N 8 sparsity $3 split-K $4"
      timeout 120 ./spmm_perf $1 $2 8 $3 $4 | grep -E "Time/ms"
    done
  } >"$OUT/splitk.txt" 2>&1
  timeout 200 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
    --section LaunchStats --section Occupancy --kernel-name-base function --kernel-name FlashLLM_SpMM_Kernel \
    --launch-skip 4 --launch-count 1 ./spmm_perf 7168 7168 8 50 4 >"$OUT/flashllm-splitk4.txt" 2>&1
  ;;
mixes)
  # K 7168, split-K 8, 50 %, M from 4096 to 8448: 128 to 264 blocks, one per SM, then more and more
  # SMs with two; three rounds, the M values interleaved
  [ -x .harness/kernel_comparison/spmm_perf ] || buildHarness >"$OUT/harness-build.log" 2>&1 || exit 1
  harnessEnv
  {
    for round in 1 2 3; do
      for m in 4096 4352 5120 6144 7168 8192 8448; do
        echo "== round $round M $m K 7168 N 8 sparsity 50 split-K 8"
        timeout 120 ./spmm_perf $m 7168 8 50 8 | grep -E "Time/ms"
      done
    done
  } >"$OUT/mixes.txt" 2>&1
  ;;
parity)
  # cuBLAS's DRAM rate and the STC proxy's grid on more shapes (near parity), light sections only
  [ -x .harness/kernel_comparison/spmm_perf ] || buildHarness >"$OUT/harness-build.log" 2>&1 || exit 1
  harnessEnv
  for s in "9216 9216" "2048 28672" "14336 4096"; do
    set -- $s
    for k in cublas Coruscant_STC_SpMM_Kernel; do
      filter=(--launch-skip 4 --launch-count 2)
      [ $k = cublas ] || filter=(--kernel-name-base function --kernel-name $k --launch-skip 4 --launch-count 1)
      echo "== $k M $1 K $2 N 8 sparsity 50 split-K 8"
      timeout 120 ncu --clock-control none --section SpeedOfLight --section LaunchStats "${filter[@]}" ./spmm_perf $1 $2 8 50 8 |
        grep -E "^  [a-zA-Z_]|Elapsed Cycles|Duration|DRAM Throughput|Grid Size|Block Size"
    done
  done >"$OUT/parity.txt" 2>&1
  ;;
winners)
  recordGpu
  [ -x .harness/kernel_comparison/spmm_perf ] || { buildHarness >"$OUT/harness-build.log" 2>&1 & }
  build=$!
  buildL2Partitions || exit 1
  P=/tmp/l2Partitions
  {
    for mib in 4 8 16 24 32 40 1024; do
      for threads in 32 256; do $P stream $mib fixed 2048 1 $threads 1 cg; done
    done
    for mib in 24 25 26 27 28 29 30 31 32 33 34 35 36; do $P chase $((mib * 1024)); done
  } >"$OUT/winners.jsonl" 2>"$OUT/winners.err"
  wait $build
  echo "harness build: $?"
  harnessEnv
  {
    for run in 1 2 3; do
      for s in "7168 30" "7168 40" "7168 50" "7168 60" "7168 70" "9216 30" "9216 40" "9216 50" "9216 60" "9216 70"; do
        set -- $s
        echo "== run $run M $1 K $1 N 8 sparsity $2 split-K 8"
        timeout 120 ./spmm_perf $1 $1 8 $2 8 | grep -E "Time/ms"
      done
    done
  } >"$OUT/repeats.txt" 2>&1
  for s in "7168 70" "9216 60"; do
    set -- $s
    timeout 150 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
      --section LaunchStats --section Occupancy --kernel-name-base function --kernel-name FlashLLM_SpMM_Kernel \
      --launch-skip 4 --launch-count 1 ./spmm_perf $1 $1 8 $2 8 >"$OUT/flashllm-$1-$2.txt" 2>&1
  done
  ;;
winners2)
  [ -x .harness/kernel_comparison/spmm_perf ] || buildHarness >"$OUT/harness-build.log" 2>&1 || exit 1
  harnessEnv
  for s in "9216 40" "9216 50" "9216 60" "9216 70"; do
    set -- $s
    echo "== run 3 M $1 K $1 N 8 sparsity $2 split-K 8"
    timeout 60 ./spmm_perf $1 $1 8 $2 8 | grep -E "Time/ms"
  done >"$OUT/repeats2.txt" 2>&1
  for s in "9216 60" "7168 70"; do
    set -- $s
    timeout 100 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section LaunchStats \
      --section Occupancy --kernel-name-base function --kernel-name FlashLLM_SpMM_Kernel \
      --launch-skip 4 --launch-count 1 ./spmm_perf $1 $1 8 $2 8 >"$OUT/flashllm-$1-$2.txt" 2>&1
  done
  ;;
stalls)
  recordGpu
  [ -x .harness/kernel_comparison/spmm_perf ] || { buildHarness >"$OUT/harness-build.log" 2>&1 & }
  build=$!
  $NVCC -o /tmp/l2Replacement "$PROBES/l2Replacement.cu" || exit 1
  R=/tmp/l2Replacement
  {
    # threshold 400 cycles: near partition (≈ 290) against far (≈ 530); 600: far against DRAM (≈ 670)
    for mib in 16 20 24 26 27 28 29 30 31 32 33 34 36 40; do $R $((mib * 1024)) 400 3 1; done
    for mib in 28 30 32; do $R $((mib * 1024)) 400 3 2; done
    for mib in 44 48 52 54 56 60 64; do $R $((mib * 1024)) 600 3 1; done
  } >"$OUT/replacement.jsonl" 2>"$OUT/replacement.err"
  cuobjdump -sass /tmp/l2Replacement | grep -A70 "Function : _Z4walk" >"$OUT/l2Replacement.sass" 2>&1
  wait $build
  echo "harness build: $?"
  harnessEnv
  mkdir -p "$OUT/ncu"
  SECTIONS="--section WarpStateStats --section SourceCounters --section SchedulerStats --section SpeedOfLight --section Occupancy --section LaunchStats --section InstructionStats"
  for s in "9216 60" "7168 60"; do
    set -- $s
    prof "$OUT/ncu" "flashllm-$1-$2" --kernel-name-base function --kernel-name FlashLLM_SpMM_Kernel --launch-skip 4 --launch-count 1 \
      ./spmm_perf $1 $1 8 $2 8
  done
  ;;
clocks)
  recordGpu
  [ -x .harness/kernel_comparison/spmm_perf ] || { buildHarness >"$OUT/harness-build.log" 2>&1 & }
  build=$!
  $NVCC -o /tmp/smClock "$PROBES/smClock.cu" || exit 1
  sampleClocks 50
  {
    for mode in spin stream; do
      for blocks in 1 2 4 8; do mark "$mode $blocks"; /tmp/smClock $mode $blocks 300; done
    done
    mark "stream 8 40 MiB"; /tmp/smClock stream 8 300 40
  } >"$OUT/smClock.txt" 2>&1
  wait $build
  echo "harness build: $?"
  harnessEnv
  for s in "7168 30" "7168 40" "7168 50" "7168 60" "7168 70" "9216 30" "9216 40" "9216 50" "9216 60" "9216 70"; do
    set -- $s
    mark "M $1 K $1 N 8 sparsity $2 split-K 8"
    timeout 60 ./spmm_perf $1 $1 8 $2 8 | grep -E "Time/ms"
    mark "end"
  done >"$OUT/harnessClocks.txt" 2>&1
  kill $sampler
  ;;
bursts)
  $NVCC -o /tmp/smClock "$PROBES/smClock.cu" || exit 1
  {
    for run in 1 2 3; do /tmp/smClock burst 1000 60 14; done
    /tmp/smClock burst 3000 60 14
    /tmp/smClock burst 100 60 14
    /tmp/smClock burst 1000 10 14
  } >"$OUT/bursts.jsonl" 2>&1
  for s in "spin 2 5" "stream 2 5 64" "stream 8 5 2048"; do
    echo "== ncu smClock $s"
    timeout 120 ncu --clock-control none --section SpeedOfLight /tmp/smClock $s |
      grep -E "^\{|SM Frequency|DRAM Frequency|Elapsed Cycles|Duration|^  [a-z]"
  done >"$OUT/smClockNcu.txt" 2>&1
  ;;
tensor)
  [ -x .harness/kernel_comparison/spmm_perf ] || { buildHarness >"$OUT/harness-build.log" 2>&1 & }
  build=$!
  $NVCC -o /tmp/smClock "$PROBES/smClock.cu" || exit 1
  { for blocks in 1 2 4 8; do /tmp/smClock mma $blocks 300; done; /tmp/smClock spin 2 300; } >"$OUT/smClockMma.jsonl" 2>&1
  wait $build
  echo "harness build: $?"
  frequency() { grep -E "^\{|SM Frequency|Elapsed Cycles|Duration|^  [a-zA-Z_]"; }
  {
    for mode in mma spin; do
      echo "== ncu smClock $mode 2 5"
      timeout 120 ncu --clock-control none --section SpeedOfLight /tmp/smClock $mode 2 5 | frequency
    done
    harnessEnv
    echo "== ncu cuBLAS 7168 50"
    timeout 120 ncu --clock-control none --section SpeedOfLight --launch-skip 4 --launch-count 2 ./spmm_perf 7168 7168 8 50 8 | frequency
    echo "== ncu Flash-LLM 7168 50"
    timeout 120 ncu --clock-control none --section SpeedOfLight --kernel-name-base function --kernel-name FlashLLM_SpMM_Kernel \
      --launch-skip 4 --launch-count 3 ./spmm_perf 7168 7168 8 50 8 | frequency
  } >"$OUT/tensorNcu.txt" 2>&1
  ;;
drain)
  recordGpu
  $NVCC -o /tmp/gridBurst "$PROBES/gridBurst.cu" || exit 1
  cuobjdump -sass /tmp/gridBurst | grep -A120 "Function : _Z9gridBurstILi13" >"$OUT/gridBurst.sass" 2>&1
  # Flash-LLM's grids at split-K 4, 8, 12, 14 on 7168² and 8 on 9216² (112 … 392 blocks), and three per SM on all
  {
    for blocks in 112 224 288 336 392 396; do
      for v in 8 13 16 24; do
        for gap in 0 1300 2600; do /tmp/gridBurst $blocks $v $gap; done
      done
    done
  } >"$OUT/gridBurst.jsonl" 2>"$OUT/gridBurst.err"
  # How many lines an SM's misses reach the L2 with, by how many SMs ask (the STC proxy's value loads)
  buildL2Partitions || exit 1
  {
    for blocks in 16 33 66 99 132; do for threads in 128 384; do /tmp/l2Partitions gather $blocks $threads; done; done
    /tmp/l2Partitions gather 1056 256
  } >"$OUT/gather.jsonl" 2>"$OUT/gather.err"
  ;;
l2fill)
  recordGpu
  buildL2Partitions || exit 1
  streamSectors "40 fixed 512" "48 fixed 512" "52 fixed 512" "54 fixed 512" "56 fixed 512" "60 fixed 512" \
    "64 fixed 512" "56 rotating 512" "24 fixed 512" >"$OUT/streamNcu.txt" 2>&1
  ;;
l2long)
  recordGpu
  buildL2Partitions || exit 1
  streamSectors "56 fixed 2048" "56 rotating 2048" "80 fixed 2048" "80 rotating 2048" "128 fixed 2048" \
    "128 rotating 2048" "80 fixed 512" "80 rotating 512" >"$OUT/longNcu.txt" 2>&1
  ;;
stcscale)
  recordGpu
  [ -x .harness/kernel_comparison/spmm_perf ] || { buildHarness >"$OUT/harness-build.log" 2>&1 & }
  build=$!
  buildL2Partitions || exit 1
  # The stream's L2 and DRAM sectors with one block of 256 threads and one load in flight per SM
  # (≈ 1/30 of the rate of l2fill's 8 × 4), and the footprints l2fill skipped
  metrics=$PARTITION_METRICS
  for run in "48 1 1" "56 1 1" "64 1 1" "44 8 4" "46 8 4" "50 8 4"; do
    set -- $run
    echo "== stream $1 MiB fixed, $2 blocks per SM × 256 threads × $3 in flight"
    thirdLaunch "$metrics" "" /tmp/l2Partitions stream $1 fixed 512 $2 256 $3
  done >"$OUT/streamRateNcu.txt" 2>&1
  wait $build || exit 1
  harnessEnv
  shapes="1024 7168|1024 14336|1024 28672|2048 7168|2048 14336|2048 28672|4096 7168|4096 14336|4096 28672"
  {
    IFS='|'
    for s in $shapes; do
      IFS=' '
      set -- $s
      echo "== M $1 K $2 N 8 sparsity 50 split-K 8"
      timeout 120 ./spmm_perf $1 $2 8 50 8 | grep -E "Time/ms"
    done
    IFS=' '
    for s in "4096 14336 50 4" "4096 14336 50 16" "4096 28672 70 8"; do
      set -- $s
      echo "== M $1 K $2 N 8 sparsity $3 split-K $4"
      timeout 120 ./spmm_perf $1 $2 8 $3 $4 | grep -E "Time/ms"
    done
  } >"$OUT/stcScale.txt" 2>&1
  # The STC proxy's own duration and cycles (no launch, no reduction kernel) at the same shapes
  {
    IFS='|'
    for s in $shapes; do
      IFS=' '
      set -- $s
      echo "== Coruscant_STC_SpMM_Kernel M $1 K $2 N 8 sparsity 50 split-K 8"
      timeout 120 ncu --clock-control none --section SpeedOfLight --section LaunchStats --kernel-name-base function \
        --kernel-name Coruscant_STC_SpMM_Kernel --launch-skip 4 --launch-count 1 ./spmm_perf $1 $2 8 50 8 |
        grep -E "Elapsed Cycles|Duration|DRAM Throughput|L2 Cache Throughput|Grid Size|SM Frequency"
    done
  } >"$OUT/stcScaleNcu.txt" 2>&1
  ;;
stcstart)
  recordGpu
  [ -x .harness/kernel_comparison/spmm_perf ] || buildHarness >"$OUT/harness-build.log" 2>&1 || exit 1
  harnessEnv
  {
    for m in 1024 4096 16384 32768; do
      for k in 512 1024 2048; do
        echo "== Coruscant_STC_SpMM_Kernel M $m K $k N 8 sparsity 50 split-K 8"
        timeout 120 ncu --clock-control none --section SpeedOfLight --section LaunchStats --kernel-name-base function \
          --kernel-name Coruscant_STC_SpMM_Kernel --launch-skip 4 --launch-count 1 ./spmm_perf $m $k 8 50 8 |
          grep -E "Elapsed Cycles|Duration|DRAM Throughput|Grid Size|SM Frequency|Waves Per SM"
      done
    done
  } >"$OUT/stcStartNcu.txt" 2>&1
  ;;
stclife)
  recordGpu
  buildLifetime stc || exit 1
  lifetimeRuns stc stcLifetime 0 0 blocks.tgz "1024 512 50 8" "1024 2048 50 8" "4096 512 50 8" "4096 2048 50 8" "16384 512 50 8" \
    "16384 2048 50 8" "32768 512 50 8" "32768 2048 50 8" "14336 4096 50 8" "14336 4096 70 8" "4096 14336 50 8" \
    "4096 14336 70 8" "2048 28672 50 8" "7168 7168 50 8" "7168 7168 70 8" "9216 9216 50 8"
  {
    for m in 1024 4096 16384 32768; do
      # Nsight Compute flushes the caches before a profiled kernel unless told not to (the ninth
      # batch's durations were flushed); the harness's rotating copies of a small A stay in the L2
      for kernel in Coruscant_STC_SpMM_Kernel Coruscant_STC_SplitK_Reduction emptyBlock; do
        for cache in all none; do
          echo "== $kernel M $m K 512 sparsity 50 split-K 8 cache-control $cache"
          timeout 120 ncu --clock-control none --cache-control $cache --metrics gpu__time_duration.sum,smsp__cycles_elapsed.avg.per_second \
            --kernel-name-base function --kernel-name $kernel --launch-skip 10 --launch-count 1 /tmp/stcLifetime $m 512 50 8 |
            grep -E "^\{|__"
        done
      done
    done
  } >"$OUT/stcLifetimeNcu.txt" 2>&1
  ;;
stcsms)
  recordGpu
  buildLifetime stc || exit 1
  lifetimeRuns stc stcSms 1 0 blocks.tgz "4096 14336 50 4" "4096 14336 50 8" "2048 14336 50 8" "4096 14336 70 4" "4096 14336 70 8" \
    "2048 14336 70 8" "2048 28672 50 8" "4096 28672 50 8"
  ;;
residency)
  residencyProfiles residency "--section WarpStateStats --section SchedulerStats --section SpeedOfLight --section Occupancy --section LaunchStats" 4096 8448
  ;;
residencysites)
  residencyProfiles residencySites "$SITE_SECTIONS" 4096 8448
  ;;
gridsites)
  residencyProfiles gridSites "$SITE_SECTIONS" 512 1024 2048 3072 4096
  ;;
burstgrid)
  recordGpu
  $NVCC -o /tmp/gridBurst "$PROBES/gridBurst.cu" || exit 1
  for round in 1 2; do
    for blocks in 16 32 64 96 128; do
      for v in 10 16; do
        for gap in 0 700 2400; do /tmp/gridBurst $blocks $v $gap; done
      done
    done
  done >"$OUT/burstGrid.jsonl" 2>"$OUT/burstGrid.err"
  ;;
residencythree)
  residencyProfiles residencyThree "$SITE_SECTIONS" 12544
  ;;
residencysparsity)
  # Each in a subshell: harnessEnv enters the harness's folder.
  (SPARSITY=30 residencyProfiles residencySites30 "$SITE_SECTIONS" 4096 8448)
  (SPARSITY=70 residencyProfiles residencySites70 "$SITE_SECTIONS" 4096 8448)
  ;;
residencythreesparsity)
  (SPARSITY=30 residencyProfiles residencyThree30 "$SITE_SECTIONS" 12544)
  (SPARSITY=70 residencyProfiles residencyThree70 "$SITE_SECTIONS" 12544)
  ;;
stciters)
  recordGpu
  buildLifetime stc iterations || exit 1
  # Each shape twice: plain (the loop as every earlier row timed it) and with each iteration's end
  # marked; both builds' loop cycles side by side say what the iteration marks cost
  runs=("4096 14336 50 4" "4096 14336 50 8" "2048 14336 50 8" "4096 14336 70 4" "4096 14336 70 8"
    "2048 14336 70 8" "7168 7168 50 8" "7168 7168 70 8" "5120 7168 50 8" "8192 7168 50 8" "9216 9216 50 8"
    "14336 4096 50 8")
  lifetimeRuns stc stcItersPlain 1 0 stcItersPlain.tgz "${runs[@]}"
  lifetimeRuns stc stcIters 1 1 stcIters.tgz "${runs[@]}"
  ;;
l2sms)
  mapPartitions || exit 1
  metrics=$PARTITION_METRICS
  while read -r name list; do
    for f in 24 32 40 44 48 52 56 60 64; do
      echo "$name $(/tmp/l2Partitions streamsms $f "$list" 2048)"
    done
  done <"$OUT/smSets.txt" >"$OUT/streamSms.txt" 2>&1
  while read -r name list; do
    for f in 32 40 48 56 64; do
      echo "== streamsms $f MiB $name"
      timeout 120 ncu --clock-control none --cache-control none --metrics "$metrics" --kernel-name streamOnSms \
        --launch-skip 2 --launch-count 1 /tmp/l2Partitions streamsms $f "$list" 512 | grep -E "^\{|__"
    done
  done <"$OUT/smSets.txt" >"$OUT/streamSmsNcu.txt" 2>&1
  ;;
tpc)
  mapSms || exit 1
  python3 "$PROBES/smSets.py" tpcs "$OUT/smMap.jsonl" >"$OUT/tpcSets.txt" || exit 1
  while read -r name list; do
    for f in 24 1024; do
      echo "$name $(/tmp/l2Partitions streamsms $f "$list" 2048)"
    done
  done <"$OUT/tpcSets.txt" >"$OUT/tpcStreams.txt" 2>&1
  metrics="dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_ltcfabric_op_read.sum,gpu__time_duration.sum"
  grep -E "^(pairsOfBoth|onePerTpc|near) " "$OUT/tpcSets.txt" | while read -r name list; do
    echo "== streamsms 24 MiB $name"
    timeout 120 ncu --clock-control none --cache-control none --metrics "$metrics" --kernel-name streamOnSms \
      --launch-skip 2 --launch-count 1 /tmp/l2Partitions streamsms 24 "$list" 512 | grep -E "^\{|__"
  done >"$OUT/tpcStreamsNcu.txt" 2>&1
  ;;
flashiters)
  recordGpu
  buildLifetime flashllm iterations || exit 1
  runs=("4096 7168 50 8" "4352 7168 50 8" "5120 7168 50 8" "6144 7168 50 8" "7168 7168 50 8" "8448 7168 50 8"
    "12544 7168 50 8")
  # Most wanted first: Flash-LLM by iteration, then its plain build (what the marks cost), then the STC proxy.
  lifetimeRuns flashllm flashIters 0 1 flashIters.tgz "${runs[@]}"
  lifetimeRuns flashllm flashItersPlain 0 0 flashItersPlain.tgz "${runs[@]}"
  buildLifetime stc iterations || exit 1
  lifetimeRuns stc stcMixIters 0 1 stcMixIters.tgz "${runs[@]}"
  ;;
gridk)
  recordGpu
  [ -x .harness/kernel_comparison/spmm_perf ] || buildHarness >"$OUT/harness-build.log" 2>&1 || exit 1
  harnessEnv
  {
    for round in ${GRIDK_ROUNDS:-1 2 3}; do
      for k in 7168 28672; do
        for m in 1024 2048 3072 4096; do
          echo "== round $round M $m K $k N 8 sparsity 50 split-K 8"
          timeout 120 ./spmm_perf $m $k 8 50 8 | grep -E "Time/ms"
        done
      done
    done
  } >"$OUT/gridK.txt" 2>&1
  ;;
flashcopies)
  recordGpu
  runs=()
  for m in ${COPIES_ROWS:-512 1024 2048}; do runs+=("$m ${COPIES_K:-7168} 50 8"); done
  for copies in ${COPIES_LIST:-4 16}; do
    for kernel in flashllm stc; do
      LIFETIME_COPIES=$copies buildLifetime $kernel iterations || exit 1
      lifetimeRuns $kernel "$kernel-copies$copies" 0 1 "$kernel-copies$copies.tgz" "${runs[@]}"
    done
  done
  (cd "$OUT" && tar czf copies.tgz ./*-copies*.jsonl ./*-copies*.tgz && rm -f ./*-copies*.jsonl ./*-copies*.tgz)
  ;;
flashgrid)
  recordGpu
  # One block per SM on 16 … 128 SMs: how an iteration grows with the grid's blocks where no SM
  # holds two (its intercept the block's own, its slope the grid's burst), both kernels marked.
  runs=("512 7168 50 8" "1024 7168 50 8" "2048 7168 50 8" "3072 7168 50 8" "4096 7168 50 8")
  buildLifetime flashllm iterations || exit 1
  lifetimeRuns flashllm flashGrid 0 1 flashGrid.tgz "${runs[@]}"
  buildLifetime stc iterations || exit 1
  lifetimeRuns stc stcGrid 0 1 stcGrid.tgz "${runs[@]}"
  ;;
extractmio)
  recordGpu
  $NVCC -o /tmp/stsScatter "$PROBES/stsScatter.cu" || exit 1
  for sparsity in 30 50 70; do
    for order in scan balanced; do
      for ldsm in 0 20; do
        for blocks in 1 2 3; do /tmp/stsScatter $sparsity $blocks $order 16 4000 $ldsm; done
      done
    done
  done >"$OUT/extractMio.jsonl" 2>&1
  ;;
smcap)
  recordGpu
  buildL2Partitions || exit 1
  for list in 0 0,1; do
    for mib in 1024 24; do
      for inFlight in 1 2 4 8; do
        for blocks in 1 2 4 8; do
          /tmp/l2Partitions smstream $mib $list $blocks 256 $inFlight 1024
        done
      done
    done
  done >"$OUT/smCap.jsonl" 2>&1
  ;;
smdepth)
  buildDeepLoops || exit 1
  for mib in 1024 24; do
    for shape in "1 128" "1 256" "2 256" "4 256" "8 256"; do
      set -- $shape
      for inFlight in 1 2 4 8 12 16; do /tmp/l2Partitions smdepth $mib 0 $1 $2 $inFlight 1024; done
      for inFlight in 1 2 4 8; do /tmp/l2Partitions smstream $mib 0 $1 $2 $inFlight 1024; done
    done
  done >"$OUT/smDepth.jsonl" 2>&1
  ;;
smconst)
  buildDeepLoops || exit 1
  python3 "$PROBES/loopBody.py" "$OUT/streamLoops.sass" >"$OUT/loopBody.txt" 2>&1
  for round in 1 2; do
    for mib in 1024 24; do
      for blocks in 1 4 8; do
        for inFlight in 1 2 4 8; do
          [ $blocks = 8 ] && [ $inFlight = 8 ] && continue
          for probe in smdepth smconst smstream; do /tmp/l2Partitions $probe $mib 0 $blocks 256 $inFlight 1024; done
        done
      done
    done
  done >"$OUT/smConst.jsonl" 2>&1
  ;;
spread)
  recordGpu
  buildL2Partitions || exit 1
  for round in 1 2; do
    for mib in 1024 24; do
      for out in ${SPREAD_OUT:-4}; do
        for total in 128 256 512; do
          for sms in 8 16 32 64 128; do
            warps=$((total / sms))
            [ "$warps" -ge 1 ] && [ "$warps" -le 16 ] || continue
            # The deep loop's blocks take at most 256 threads: 16 warps an SM are two blocks of 8.
            blocks=$(((warps + 7) / 8))
            /tmp/l2Partitions smdepth $mib "$(spreadList $sms)" $blocks $((warps / blocks * 32)) $out 1024
          done
        done
        for sms in 8 16 32 64 96 128; do /tmp/l2Partitions smdepth $mib "$(spreadList $sms)" 1 128 $out 1024; done
      done
    done
  done >"$OUT/spread.jsonl" 2>&1
  ;;
spreadsteps)
  buildDeepLoops || exit 1
  for round in 1 2; do
    for out in 1 2 4; do
      for sms in 8 16 32 64 128; do /tmp/l2Partitions smsteps 1024 "$(spreadList $sms)" 1 128 $out 1024; done
    done
  done >"$OUT/spreadSteps.jsonl" 2>&1
  ;;
spacing)
  buildDeepLoops || exit 1
  for round in 1 2; do
    for out in 2 4; do
      for sms in 8 32 128; do
        for bytes in 512 2048 4096 16384 65536 262144; do
          # 4 warps an SM: the grid's threads × 16 B is sms × 2 KiB, and a spacing must divide it.
          [ $((sms * 2048 % bytes)) = 0 ] || continue
          /tmp/l2Partitions smsteps 1024 "$(spreadList $sms)" 1 128 $out 1024 $bytes
        done
      done
    done
  done >"$OUT/spacing.jsonl" 2>&1
  ;;
lonewarp)
  buildDeepLoops || exit 1
  # One warp (and four) on every SM, 1, 2 and 4 loads out, from DRAM and the L2: the calibration
  # table's 1 × 1 … 4 × 4 rows in whole steps, with each step timed (docs/system-model.md, the
  # streams' length: the model's four-out step is ≈ 45 ns short of silicon's).
  for round in 1 2; do
    for mib in 1024 24; do
      for out in 1 2 4; do
        for threads in 32 128; do /tmp/l2Partitions smsteps $mib "$(spreadList 132)" 1 $threads $out 1024; done
      done
    done
  done >"$OUT/loneWarp.jsonl" 2>&1
  ;;
dramclock)
  buildDramClock _Z11readClockedILb0EEvPKjmjjjbP5uint2PyPj dramClock.sass || exit 1
  # Rounds of one order read the same lines at the same positions: a read's wait is its latency less
  # the fastest round's. A second multiplier reads the same lines in another order.
  for run in "1024 scattered 6781 cold 1" "1024 scattered 6781 cold 2" "1024 scattered 6781 cold 3" \
    "1024 scattered 10923 cold 1" "1024 scattered 10923 cold 2" "1024 sequential 0 cold 1" \
    "1024 sequential 0 cold 2" "16 scattered 6781 warm 1"; do
    read -r mib order scatter start round <<<"$run"
    /tmp/dramClock $mib 262144 $order $start "$OUT/traces/$order${scatter#0}-$mib-$start-$round.bin" $scatter
  done >"$OUT/dramClock.jsonl" 2>&1
  packTraces
  ;;
dramclockpair)
  clockedThreads "2 262144 1" "2 262144 2" "2 262144 3" "8 32768 1" "8 32768 2" || exit 1
  ;;
dramclockwide)
  clockedThreads "32 16384 1" "32 16384 2" || exit 1
  ;;
dramclockpages)
  clockedThreads "32 16384 1 64" "32 16384 2 64" "128 16384 1 256" "128 16384 2 256" || exit 1
  ;;
dramclockstagger)
  clockedThreads "32 16384 1 64 512" "32 16384 2 64 512" "128 16384 1 256 128" "128 16384 2 256 128" || exit 1
  ;;
footprints)
  recordGpu
  buildL2Partitions || exit 1
  for round in 1 2; do
    for mib in 128 192 256 384 512 1024 2048; do
      for mapping in fixed rotating relaunch; do
        for total in 2048 4096; do /tmp/l2Partitions stream $mib $mapping $total; done
      done
    done
  done >"$OUT/footprints.jsonl" 2>&1
  ;;
spacingbits)
  buildDeepLoops || exit 1
  for round in 1 2; do
    for mib in 1024 24; do
      # The spacing must divide the grid's 128 SMs × warps × 512 B: 256 KiB with 4 warps, 1 MiB with 16.
      for shape in "1 128 262144" "2 256 1048576"; do
        read -r blocks threads largest <<<"$shape"
        for ((bytes = 512; bytes <= largest; bytes *= 2)); do
          /tmp/l2Partitions smsteps $mib "$(spreadList 128)" $blocks $threads 2 1024 $bytes
        done
      done
    done
  done >"$OUT/spacingBits.jsonl" 2>&1
  ;;
homemap)
  mapPartitions || exit 1
  mkdir -p "$OUT/lines"
  list=$(nearSms)
  for mib in 40 32; do
    timeout 120 /tmp/l2Partitions streamkeep $mib "$list" 1 36 0 "$OUT/lines/near-$mib-1" 1
  done >"$OUT/partitionLines.jsonl" 2>&1
  (cd "$OUT" && tar cJf lines.txz lines && rm -rf lines)
  ;;
gpc)
  mapSms || exit 1
  /tmp/l2Partitions gpcmap >"$OUT/gpcMap.jsonl" || exit 1
  python3 "$PROBES/smSets.py" gpcs "$OUT/smMap.jsonl" "$OUT/gpcMap.jsonl" >"$OUT/gpcSets.txt" || exit 1
  grep -v "^#" "$OUT/gpcSets.txt" | while read -r name list; do
    echo "$name $(/tmp/l2Partitions streamsms 24 "$list" 1024)"
  done >"$OUT/gpcStreams.txt" 2>&1
  ;;
passes)
  mapSms || exit 1
  for f in 48 52 56 60; do
    for p in 1 2 3 5 8 12 20 36 108; do /tmp/l2Partitions stream $f fixed $((p * f)); done
    /tmp/l2Partitions stream $f relaunch $((36 * f))
  done >"$OUT/streamPasses.jsonl" 2>&1
  # The footprints the L2 holds (24, 40 MiB), and one partition's SMs or half of each at 40 / 56 MiB, by passes.
  for f in 24 40; do
    for p in 1 3 36; do /tmp/l2Partitions stream $f fixed $((p * f)); done
  done >"$OUT/streamPassesHeld.jsonl" 2>&1
  python3 "$PROBES/smSets.py" partitions "$OUT/smMap.jsonl" >"$OUT/smSets.txt" || exit 1
  grep -E "^(near|half) " "$OUT/smSets.txt" | while read -r name list; do
    for f in 40 56; do
      for p in 3 36; do echo "$name $p $(/tmp/l2Partitions streamsms $f "$list" $((p * f)))"; done
    done
  done >"$OUT/streamSmsPasses.txt" 2>&1
  metrics=$PARTITION_METRICS
  for p in 3 8 36; do
    echo "== stream 56 MiB fixed, $p passes per launch"
    thirdLaunch "$metrics" "" /tmp/l2Partitions stream 56 fixed $((p * 56))
  done >"$OUT/streamPassesNcu.txt" 2>&1
  ;;
partpasses)
  mapPartitions || exit 1
  for run in 1 2; do
    grep -E "^(near|far) " "$OUT/smSets.txt" | while read -r name list; do
      for f in 24 32 40 48 56; do
        for p in 1 3 8 36; do echo "$run $name $f $p $(/tmp/l2Partitions streamsms $f "$list" $((p * f)))"; done
      done
    done
  done >"$OUT/partitionPasses.txt" 2>&1
  metrics=$PARTITION_METRICS
  list=$(nearSms)
  for f in 40 56; do
    for p in 3 36; do
      echo "== streamsms $f MiB near, $p passes per launch"
      timeout 120 ncu --clock-control none --cache-control none --metrics "$metrics" --kernel-name streamOnSms \
        --launch-skip 2 --launch-count 1 /tmp/l2Partitions streamsms $f "$list" $((p * f)) | grep -E "^\{|__"
    done
  done >"$OUT/partitionPassesNcu.txt" 2>&1
  ;;
partwarps)
  mapPartitions || exit 1
  list=$(nearSms)
  mkdir -p "$OUT/warps"
  for f in 24 40 48 56; do
    for p in 1 3 36; do echo "$f $p $(/tmp/l2Partitions streamsms $f "$list" $((p * f)) "$OUT/warps/$f-$p.csv")"; done
  done >"$OUT/partitionWarps.txt" 2>&1
  (cd "$OUT" && tar czf warps.tgz warps && rm -rf warps)
  ;;
partlines)
  mapPartitions || exit 1
  lineTimesSass
  mkdir -p "$OUT/lines"
  for set in near all; do
    list=$(grep -E "^$set " "$OUT/smSets.txt" | cut -d' ' -f2)
    footprints="24 32 40 48 56"
    [ $set = all ] && footprints="40 48 56"
    for f in $footprints; do
      # A round: twelve launches of 3 passes (36 in all) or two of 36 (72).
      for p in 3 36; do
        timeout 120 /tmp/l2Partitions streamkeep $f "$list" $p $((p == 3 ? 12 : 2)) 0 "$OUT/lines/$set-$f-$p" 3
      done
    done
  done >"$OUT/partitionLines.jsonl" 2>&1
  list=$(nearSms)
  timeout 120 /tmp/l2Partitions streamkeep 40 "$list" 1 36 0 "$OUT/lines/near-40-1" 3 >>"$OUT/partitionLines.jsonl" 2>&1
  (cd "$OUT" && tar cJf lines.txz lines && rm -rf lines)
  ;;
linepasses)
  mapPartitions || exit 1
  lineTimesSass
  mkdir -p "$OUT/lines"
  list=$(nearSms)
  for run in "32 3 12" "32 36 2" "40 1 36" "40 3 12" "40 36 2" "48 3 12" "48 36 2" "56 3 12" "56 36 2"; do
    set -- $run
    timeout 120 /tmp/l2Partitions streamkeep $1 "$list" $2 $3 0 "$OUT/lines/near-$1-$2" 3
  done >"$OUT/partitionLines.jsonl" 2>&1
  (cd "$OUT" && tar cJf lines.txz lines && rm -rf lines)
  ;;
homeorders)
  orderRuns homeOrders "fixed natural split halves" "" "40 3 12" "40 36 2" "48 36 2" "32 36 2" "24 36 2"
  ;;
homeonly)
  orderRuns homeOnly "near far" "" "40 36 2" "48 36 2" "56 3 12" "56 36 2"
  ;;
ordersteps)
  orderRuns orderSteps "natural split halves near" steps "40 3 12" "40 36 2" "24 36 2"
  ;;
loopsass)
  recordGpu
  nvcc --version | tail -2 >"$OUT/nvcc.txt"
  for src in "$PROBES/l2Partitions.cu" ${SASS_SOURCES:-}; do
    name=$(basename "$src" .cu)
    cp "$src" "/tmp/$name.cu" && cp "$PROBES"/*.cuh /tmp/ &&
      $NVCC -o "/tmp/$name" "/tmp/$name.cu" && streamLoopsSass "/tmp/$name" "$OUT/$name.sass"
  done
  ;;
rotsteps)
  recordGpu
  buildL2Partitions || exit 1
  # The rotating stream with each warp's steps counted by cycles (whole steps), beside the probe's
  # own rotating loop, at footprints from the L2 (24 MiB) to DRAM (1 GiB), launches of 2 GiB and,
  # at 80 MiB, of 512 MiB.
  mkdir -p /tmp/rotsteps
  for run in "24 2048" "56 2048" "80 2048" "128 2048" "1024 2048" "80 512"; do
    set -- $run
    /tmp/l2Partitions rotsteps $1 $2 "/tmp/rotsteps/rot-$1-$2"
    /tmp/l2Partitions stream $1 rotating $2
  done >"$OUT/rotSteps.jsonl" 2>&1
  tar cJf "$OUT/rotSteps.txz" -C /tmp rotsteps
  ;;
rotshift)
  recordGpu
  buildL2Partitions || exit 1
  # The rotating stream at a footprint and 64 KiB more, two rounds: in the model's SM-major grid the
  # extra 64 KiB moves a line's next reader one TPC on, into the other L2 partition, and the model
  # reads 80 MiB over 25.6 passes 26 % slower; where the scheduler deals blocks across the GPCs, the
  # two should read alike.
  for round in 1 2; do
    for mib in 56 56.0625 80 80.0625 128 128.0625; do /tmp/l2Partitions stream $mib rotating 2048; done
  done >"$OUT/rotShift.jsonl" 2>&1
  ;;
rotpart)
  mapPartitions || exit 1
  list=$(nearSms)
  # 512 B (1/2048 MiB) more moves every line's next reader into the other partition (nextReaderWarps odd).
  for round in 1 2; do
    for f in 24 24.00048828125 56 56.00048828125 80 80.00048828125 128 128.00048828125; do
      /tmp/l2Partitions rotpart $f 2048 "$list"
      /tmp/l2Partitions stream $f rotating 2048
    done
  done >"$OUT/rotPart.jsonl" 2>&1
  ;;
rotruns)
  mapPartitions || exit 1
  list=$(nearSms)
  for round in 1 2; do
    for mib in 48 56 64 80; do
      # 0, 1, 2 and 4 chunks of 512 B (1/2048 MiB) more
      for more in "" .00048828125 .0009765625 .001953125; do /tmp/l2Partitions rotpart "$mib$more" 2048 "$list" 4; done
      /tmp/l2Partitions rotpart "$mib.00048828125" 2048 "$list" 2
      /tmp/l2Partitions stream $mib rotating 2048
    done
  done >"$OUT/rotRuns.jsonl" 2>&1
  ;;
rotpartncu)
  mapPartitions || exit 1
  list=$(nearSms)
  metrics=$(sectorMetrics)
  echo "metrics: $metrics" >"$OUT/rotPartNcu.txt"
  for mib in 40 48 56 64 80 96 128; do
    for more in "" .00048828125; do
      echo "== rotpart $mib$more MiB over 2048"
      thirdLaunch "$metrics" streamRotatingByPartition /tmp/l2Partitions rotpart "$mib$more" 2048 "$list"
    done
    echo "== stream $mib MiB rotating 2048"
    thirdLaunch "$metrics" regex:^streamRotating /tmp/l2Partitions stream $mib rotating 2048
  done >>"$OUT/rotPartNcu.txt" 2>&1
  ;;
rotrunsncu)
  mapPartitions || exit 1
  list=$(nearSms)
  metrics=$(sectorMetrics)
  echo "metrics: $metrics" >"$OUT/rotRunsNcu.txt"
  for mib in 48 56 64 80; do
    for more in "" .00048828125 .0009765625 .001953125; do
      echo "== rotpart $mib$more runs of 4"
      thirdLaunch "$metrics" streamRotatingByPartition /tmp/l2Partitions rotpart "$mib$more" 2048 "$list" 4
    done
  done >>"$OUT/rotRunsNcu.txt" 2>&1
  ;;
rothome)
  homeWalks rotHome.jsonl "home mixed" plain || exit 1
  ;;
rothomencu)
  homeWalksNcu rotHomeNcu.txt "home mixed" plain || exit 1
  ;;
rotfar)
  homeWalks rotFar.jsonl "far home" || exit 1
  ;;
rotfarncu)
  homeWalksNcu rotFarNcu.txt "far home" || exit 1
  ;;
rotoneway)
  homeWalks rotOneway.jsonl "oneway far" || exit 1
  ;;
rotonewayncu)
  homeWalksNcu rotOnewayNcu.txt "oneway far" || exit 1
  ;;
replaypasses)
  mapPartitions || exit 1
  list=$(nearSms)
  metrics=$(sectorMetrics)
  # Nsight Compute collects the sector counts over several replays of the launch, one group of
  # counters each; DRAM's count alone, the lookups' alone and the whole set, with the number of
  # replays it printed: does each replay start from the L2 the one before it left?
  for mib in 24 40 48; do
    for walk in home far; do
      for set in dram__bytes_read.sum lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum "$metrics"; do
        echo "== rothome $mib MiB $walk: $set"
        thirdLaunch "$set" streamRotatingByHome /tmp/l2Partitions rothome $mib 2048 "$list" $walk
      done
    done
  done >"$OUT/replayPasses.txt" 2>&1
  ;;
dramalone)
  mapPartitions || exit 1
  list=$(nearSms)
  # DRAM's reads counted alone, in one replay that starts from the L2 the launches before it left,
  # for rothome's three walks, the plain rotating stream and rotpart with every next reader in the
  # own partition or the other, at 24–128 MiB
  for mib in 24 40 48 56 64 80 96 128; do
    for walk in home far oneway; do
      echo "== rothome $mib MiB $walk"
      thirdLaunch dram__bytes_read.sum streamRotatingByHome /tmp/l2Partitions rothome $mib 2048 "$list" $walk
    done
    echo "== stream $mib MiB rotating 2048"
    thirdLaunch dram__bytes_read.sum regex:^streamRotating /tmp/l2Partitions stream $mib rotating 2048
    for more in "" .00048828125; do
      echo "== rotpart $mib$more MiB over 2048"
      thirdLaunch dram__bytes_read.sum streamRotatingByPartition /tmp/l2Partitions rotpart "$mib$more" 2048 "$list"
    done
  done >"$OUT/dramAlone.txt" 2>&1
  ;;
dramhistory)
  mapPartitions || exit 1
  list=$(nearSms)
  # DRAM's reads counted alone in a run's first, third and sixth launch of the walk (each of 2 GiB):
  # does what the L2 keeps past its size grow with the launches before, as the model's does?
  for run in "40 far" "56 far" "80 far" "80 home" "80 oneway"; do
    set -- $run
    for skip in 0 2 5; do
      echo "== rothome $1 MiB $2, launch $((skip + 1))"
      launchAt $skip dram__bytes_read.sum streamRotatingByHome /tmp/l2Partitions rothome $1 2048 "$list" $2
    done
  done >"$OUT/dramHistory.txt" 2>&1
  for skip in 0 2 5; do
    echo "== stream 80 MiB rotating 2048, launch $((skip + 1))"
    launchAt $skip dram__bytes_read.sum regex:^streamRotating /tmp/l2Partitions stream 80 rotating 2048
  done >>"$OUT/dramHistory.txt" 2>&1
  ;;
hitsunder)
  buildHitsUnderLoad || exit 1
  {
    for walk in 1 2 16 4096 1048576; do
      for stream in 0 16 1024; do /tmp/hitsUnderLoad $walk $stream; done
    done
    # The walk's SM streaming too: its load among its own SM's
    for walk in 4096 1048576; do
      for stream in 16 1024; do /tmp/hitsUnderLoad $walk $stream 8192 0 8 shared; done
    done
  } >"$OUT/hitsUnder.jsonl" 2>&1
  ;;
hitsphases)
  buildHitsUnderLoad || exit 1
  sampleClocks 20
  {
    for run in "4096 16" "4096 0" "1048576 1024" "1048576 16" "16 16"; do
      mark "$run"
      /tmp/hitsUnderLoad $run 65536 0 8 alone 0
    done
    mark "1 16 late"
    /tmp/hitsUnderLoad 1 16 8192 0 8 alone 32768
  } >"$OUT/hitsPhases.jsonl" 2>&1
  kill $sampler
  ;;
h100walk)
  recordGpu
  $NVCC -o /tmp/l2Replacement "$PROBES/l2Replacement.cu" || exit 1
  {
    # threshold 400 cycles: near partition (≈ 290) against far; 600: far against DRAM (≈ 700)
    for mib in 8 12 14 16 18 20 22 23 24 25 26 28 30 32; do /tmp/l2Replacement $((mib * 1024)) 400 3 1; done
    for mib in 20 24; do /tmp/l2Replacement $((mib * 1024)) 400 3 2; done
    for mib in 28 32 36 40 44 48 52 56; do /tmp/l2Replacement $((mib * 1024)) 600 3 1; done
  } >"$OUT/replacement.jsonl" 2>"$OUT/replacement.err"
  ;;
orderncu)
  mapPartitions || exit 1
  list=$(nearSms)
  for run in "40 3 12" "40 36 2" "48 36 2"; do
    set -- $run
    for order in natural split halves; do
      echo "== streamkeep $1 MiB near, $2 passes per launch, $order"
      timeout 120 ncu --clock-control none --cache-control none --metrics "$PARTITION_METRICS" \
        --kernel-name streamOrdered --launch-skip $(($3 + $3 / 2)) --launch-count 1 \
        /tmp/l2Partitions streamkeep $1 "$list" $2 $3 0 /tmp/orderNcu 2 $order | grep -E "^\{|__"
    done
  done >"$OUT/orderNcu.txt" 2>&1
  ;;
*)
  # The steps are this file's case labels, so the list cannot fall behind them.
  echo "usage: gpu/probes/h200Batch.sh $(sed -n 's/^\([a-z0-9]*\))$/\1/p' "$0" | paste -sd'|')" >&2
  exit 2
  ;;
esac
