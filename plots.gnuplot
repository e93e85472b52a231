# plots.gnuplot: every loadgen chart, from the data `loadgen plot` derives.
#
#   loadgen plot results/sweep.csv --timeline results/timeline.csv --out plots/       (runs this script)
#   gnuplot -e "data='plots/data'; out='plots/'; format='png'" plots.gnuplot         (again, after a tweak)
#   gnuplot -e "csv='results/sweep.csv'; timeline='results/timeline.csv'; out='plots/'" plots.gnuplot
#
# With `csv` (and optionally `timeline`, `history`, `baseline`) the script asks loadgen to derive the
# data first (`loadgen` may name the binary; default .build/release/loadgen). It reads only the
# `.dat` files loadgen writes (fixed columns, documented in their first line) and `vars.gp` (each
# chart's series titles), never a results CSV by column number. A chart whose data file is
# absent is skipped; loadgen says why.

if (!exists("out")) out = "plots/"
if (out[strlen(out):strlen(out)] ne "/") out = out . "/"
if (!exists("format")) format = "png"
if (!exists("loadgen")) loadgen = ".build/release/loadgen"
if (!exists("data") && exists("csv")) {
    extra = (exists("timeline") ? " --timeline '" . timeline . "'" : "") . (exists("history") ? " --history '" . history . "'" : "") \
          . (exists("baseline") ? " --baseline '" . baseline . "'" : "")
    status = system(sprintf("'%s' plot '%s'%s --out '%s' --data-only >&2; echo $?", loadgen, csv, extra, out))
    if (int(status) != 0) { print "plots.gnuplot: loadgen plot failed; see above"; exit status 1 }
    data = out . "data"
}
if (!exists("data")) { print "plots.gnuplot: give data='DIR' (from loadgen plot) or csv='FILE'"; exit status 1 }
load data . "/vars.gp"

has(name) = int(system(sprintf("test -s '%s/%s.dat' && echo 1 || echo 0", data, name)))
file(name) = data . "/" . name . ".dat"
formats = (format eq "both") ? "png svg" : format

# Sixteen line styles that stay apart in grey: colour, dash pattern and point shape differ from
# their neighbours, and no two share all three (the nightly trend has a line per strategy: 13).
set linetype 1 lc rgb "#1b9e77" lw 2 dt 1 pt 7 ps 1.1
set linetype 2 lc rgb "#d95f02" lw 2 dt 2 pt 5 ps 1.1
set linetype 3 lc rgb "#7570b3" lw 2 dt 3 pt 9 ps 1.3
set linetype 4 lc rgb "#e7298a" lw 2 dt 4 pt 11 ps 1.3
set linetype 5 lc rgb "#66a61e" lw 2 dt 5 pt 13 ps 1.3
set linetype 6 lc rgb "#e6ab02" lw 2 dt (10,4,2,4) pt 3 ps 1.3
set linetype 7 lc rgb "#a6761d" lw 2 dt (2,6) pt 6 ps 1.1
set linetype 8 lc rgb "#444444" lw 2 dt (12,4) pt 8 ps 1.3
set linetype 9 lc rgb "#7570b3" lw 2 dt (8,3,2,3,2,3) pt 4 ps 1.2
set linetype 10 lc rgb "#e7298a" lw 2 dt (1,2) pt 10 ps 1.3
set linetype 11 lc rgb "#66a61e" lw 2 dt (16,6) pt 12 ps 1.4
set linetype 12 lc rgb "#e6ab02" lw 2 dt (4,2) pt 14 ps 1.4
set linetype 13 lc rgb "#a6761d" lw 2 dt (8,2,1,2) pt 15 ps 1.4
set linetype 14 lc rgb "#444444" lw 2 dt (3,3,12,3) pt 1 ps 1.5
set linetype 15 lc rgb "#1b9e77" lw 2 dt (6,2,6,8) pt 2 ps 1.5
set linetype 16 lc rgb "#d95f02" lw 2 dt (1,4,8,4) pt 6 ps 1.1
set linetype cycle 16

# Settings every chart starts from (`reset` between charts keeps the line types above).
common = 'set termoption noenhanced; set grid lc rgb "#dddddd"; set key outside right top noenhanced box opaque; set datafile missing "NaN"'
@common

# Opens the output of chart `chart` in format `fmt`.
open = 'if (fmt eq "png") { set terminal pngcairo size 1280,800 font "DejaVu Sans,11" noenhanced } else { set terminal svg size 1280,800 font "DejaVu Sans,11" noenhanced }; set output out . chart . "." . fmt'

# 1. Throughput per configuration.
chart = "throughput"
if (has(chart)) { do for [fmt in formats] {
    @open
    limit = (|throughput_series| > 1) ? ", and the black bar is the limit (raw-sqlite on the same records)" : " (no limit in these runs: --no-limit)"
    set title "Throughput per configuration: taller is faster" . limit . "\nwhiskers: 95% CI of the median (min…max below 5 repetitions)" noenhanced font ",12"
    set ylabel "records per second (log scale)"
    set logscale y
    set grid ytics lc rgb "#dddddd"
    set style fill solid 0.55 border -1
    set boxwidth 0.6
    set xtics rotate by 90 right noenhanced font ",8" nomirror
    set bmargin 17
    set xrange [-1:*]
    # The limit's bars only when loadgen named them (a --no-limit run has no limit to draw).
    if (|throughput_series| > 1) {
        plot file(chart) using 1:3:4:5:(0.6):xticlabels(2) with boxerrorbars lc rgb "#1b9e77" title throughput_series[1], \
             ''          using ($1-0.38):6:(0.76):(0) with vectors nohead lw 4 lc rgb "black" title throughput_series[2]
    } else {
        plot file(chart) using 1:3:4:5:(0.6):xticlabels(2) with boxerrorbars lc rgb "#1b9e77" title throughput_series[1]
    }
    unset output
    reset
    @common
} }

# 2. Scaling: wall time and rate against rows.
chart = "scaling"
if (has(chart)) { do for [fmt in formats] {
    @open
    set multiplot layout 1,2 margins 0.08,0.68,0.11,0.86 spacing 0.09 title "Scaling: how wall time (left) and rate (right) follow the number of rows, log–log\na line of slope 1 on the left is a cost per row that does not grow with the data" font ",12"
    set logscale xy
    set xlabel "rows"
    set ylabel "wall time (s), bars min…max"
    set key at screen 0.99,0.86 right top noenhanced box opaque font ",9"
    plot for [i=1:|scaling_series|] file(chart) index (i-1) using 1:2:3:4 with yerrorlines lt i title scaling_series[i]
    set ylabel "records per second (median)"
    unset key
    plot for [i=1:|scaling_series|] file(chart) index (i-1) using 1:5 with linespoints lt i title scaling_series[i]
    unset multiplot
    unset logscale
    unset output
    reset
    @common
} }

# 3. Batch size: rate and memory.
chart = "batchsize"
if (has(chart)) { do for [fmt in formats] {
    @open
    set multiplot layout 1,2 margins 0.08,0.68,0.11,0.86 spacing 0.09 title "Batch size: records per second (left) and peak RSS (right) against --batch-size\nbigger batches commit less often and hold more objects" font ",12"
    set logscale x
    set xlabel "--batch-size (records per save or transaction, log scale)"
    set ylabel "rows/s (median; bars: 95% CI)"
    set key at screen 0.99,0.86 right top noenhanced box opaque font ",9"
    plot for [i=1:|batchsize_series|] file(chart) index (i-1) using 1:2:3:4 with yerrorlines lt i title batchsize_series[i]
    set ylabel "peak RSS (MB, median)"
    unset key
    plot for [i=1:|batchsize_series|] file(chart) index (i-1) using 1:5 with linespoints lt i title batchsize_series[i]
    unset multiplot
    unset logscale
    unset output
    reset
    @common
} }

# 4. Memory over rows processed.
chart = "memory"
if (has(chart)) { do for [fmt in formats] {
    @open
    set multiplot layout 1,2 margins 0.08,0.68,0.11,0.86 spacing 0.09 title "Memory while importing: save + reset() keeps memory flat (a sawtooth),\nan import that never resets grows with every row" font ",12"
    set xlabel "records processed"
    set ylabel "resident memory (MB)"
    set key at screen 0.99,0.86 right top noenhanced box opaque font ",9"
    plot for [i=1:|memory_series|] file(chart) index (i-1) using 1:2 with lines lt i title memory_series[i]
    set ylabel "heap allocated (MB)"
    unset key
    plot for [i=1:|memory_series|] file(chart) index (i-1) using 1:3 with lines lt i title memory_series[i]
    unset multiplot
    unset output
    reset
    @common
} }

# 5. Duplicates and conflicts against writers.
chart = "writers"
if (has(chart)) { do for [fmt in formats] {
    @open
    set multiplot layout 1,2 margins 0.08,0.68,0.11,0.86 spacing 0.09 title "Writers: duplicate rows (left) and merge conflicts (right) as writers are added\none writer, or a uniqueness constraint, keeps duplicates at 0" font ",12"
    set xlabel "writers (concurrent producers)"
    set ylabel "duplicate rows (median)"
    set key at screen 0.99,0.86 right top noenhanced box opaque font ",9"
    set yrange [0:*]
    plot for [i=1:|writers_series|] file(chart) index (i-1) using 1:2 with linespoints lt i title writers_series[i]
    set ylabel "conflicts resolved by the merge policy (median)"
    unset key
    plot for [i=1:|writers_series|] file(chart) index (i-1) using 1:3 with linespoints lt i title writers_series[i]
    unset multiplot
    set yrange [*:*]
    unset output
    reset
    @common
} }

# 6. SQL statements per row.
chart = "sqlperrow"
if (has(chart)) { do for [fmt in formats] {
    @open
    set title "SQL per record against rows: the N+1 pattern issues a query for every record,\nprefetching about one per batch" font ",12"
    set logscale x
    set xlabel "rows (log scale)"
    set ylabel "SQL statements per record (solid) and SELECTs per record (dashed)"
    set yrange [0:*]
    set key outside right top noenhanced box opaque font ",9"
    plot for [i=1:|sqlperrow_series|] file(chart) index (i-1) using 1:2 with linespoints lt i dt 1 title sqlperrow_series[i] . " statements", \
         for [i=1:|sqlperrow_series|] file(chart) index (i-1) using 1:3 with linespoints lt i dt 2 title sqlperrow_series[i] . " selects"
    unset logscale
    set yrange [*:*]
    unset output
    reset
    @common
} }

# 7. Open-loop latency.
chart = "latency"
if (has(chart)) { do for [fmt in formats] {
    @open
    set title "Open-loop latency, arrival to commit, against the offered rate: a batch waits for its last record\n(latency falls as the rate rises) until the strategy cannot keep up (then p99 and max climb)" font ",12"
    set xlabel "offered rate (records per second)"
    set ylabel "latency (ms, log scale): p50 solid, p99 dashed, max dotted"
    set logscale y
    set key outside right top noenhanced box opaque font ",9"
    plot for [i=1:|latency_series|] file(chart) index (i-1) using 1:2 with linespoints lt i dt 1 title latency_series[i] . " p50", \
         for [i=1:|latency_series|] file(chart) index (i-1) using 1:3 with linespoints lt i dt 2 title latency_series[i] . " p99", \
         for [i=1:|latency_series|] file(chart) index (i-1) using 1:4 with linespoints lt i dt 3 title latency_series[i] . " max"
    unset logscale
    unset output
    reset
    @common
} }

# 8. The nightly trend.
chart = "trend"
if (has(chart)) { do for [fmt in formats] {
    @open
    set multiplot layout 2,1 margins 0.08,0.68,0.12,0.88 spacing 0.14 title "Nightly trend: vs_limit per strategy (dashed: the baseline) and allocation requests per record\na step is a commit that changed the work" font ",12"
    set xdata time
    set timefmt "%s"
    set format x "%m-%d %H:%M"
    set xtics rotate by -30 font ",9"
    set offsets graph 0.04, graph 0.04, graph 0.05, graph 0.05
    unset xlabel
    set ylabel "vs_limit (median of the night)"
    set key at screen 0.99,0.86 right top noenhanced box opaque font ",9"
    plot for [i=1:|trend_series|] file(chart) index (i-1) using 1:2 with linespoints lt i title trend_series[i], \
         for [i=1:|trend_series|] file(chart) index (i-1) using 1:4 with lines lt i dt (4,4) lw 1 notitle
    set ylabel "allocations per record (median)"
    set xlabel "nightly run (start)"
    unset key
    plot for [i=1:|trend_series|] file(chart) index (i-1) using 1:3 with linespoints lt i title trend_series[i]
    unset multiplot
    set xdata
    unset output
    reset
    @common
} }
