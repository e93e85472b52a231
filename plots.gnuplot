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

# 1. Throughput per configuration: one horizontal bar each (labels stay readable), linear unless
#    the rates span more than ten times, the image as tall as the bars need.
chart = "throughput"
if (has(chart)) { do for [fmt in formats] {
    bars = int(throughput_count)
    height = (bars * 24 + 230 > 500) ? bars * 24 + 230 : 500
    if (fmt eq "png") { set terminal pngcairo size 1280,height font "DejaVu Sans,11" noenhanced } else { set terminal svg size 1280,height font "DejaVu Sans,11" noenhanced }
    set output out . chart . "." . fmt
    set title "Throughput per configuration: longer is faster\n" . throughput_settings . "\nwhiskers: 95% CI of the median (min…max below 5 repetitions); " . throughput_limitnote noenhanced font ",11"
    set xlabel throughput_unit . (throughput_log eq "1" ? " (log scale)" : "")
    if (throughput_log eq "1") { set logscale x; set xrange [real(throughput_start):*] }
    else { set xrange [0:*] }
    set format x "%.0s%c"
    set grid xtics lc rgb "#dddddd"
    unset grid
    set grid xtics lc rgb "#dddddd"
    set ytics noenhanced nomirror font ",10"
    set yrange [0.4:bars + 0.6]
    set lmargin 34
    set key outside top center horizontal opaque font ",9"
    set style fill solid 0.55 border -1
    left = (throughput_log eq "1") ? real(throughput_start) : 0
    # The limit's ticks only when loadgen named them (a --no-limit run has no limit to draw).
    if (|throughput_series| > 1) {
        plot file(chart) using (left):1:(left):3:($1-0.32):($1+0.32):ytic(2) with boxxyerror lc rgb "#1b9e77" title throughput_series[1], \
             ''          using 3:1:4:5 with xerrorbars lc rgb "#333333" pt -1 notitle, \
             ''          using 6:($1-0.42):(0):(0.84) with vectors nohead lw 5 lc rgb "black" title throughput_series[2]
    } else {
        plot file(chart) using (left):1:(left):3:($1-0.32):($1+0.32):ytic(2) with boxxyerror lc rgb "#1b9e77" title throughput_series[1], \
             ''          using 3:1:4:5 with xerrorbars lc rgb "#333333" pt -1 notitle
    }
    unset output
    reset
    @common
} }

# 2. Scaling: wall time and rate against rows.
chart = "scaling"
if (has(chart)) { do for [fmt in formats] {
    @open
    set multiplot layout 1,2 margins 0.07,0.98,0.11,0.86 spacing 0.08 title "Scaling: how wall time (left) and rate (right) follow the number of rows, log–log\na line of slope 1 on the left is a cost per row that does not grow with the data" font ",12"
    set logscale xy
    set format x "%.0s%c"
    set format y "%.0s%c"
    set xlabel "rows"
    set ylabel "wall time (s), bars min…max"
    set key inside top left opaque box noenhanced font ",8"
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
    set multiplot layout 1,2 margins 0.07,0.98,0.11,0.86 spacing 0.08 title "Batch size: records per second (left) and peak RSS (right) against --batch-size\nbigger batches commit less often and hold more objects" font ",12"
    set logscale x
    set format x "%.0s%c"
    set format y "%.0s%c"
    set xlabel "--batch-size (records per save or transaction, log scale)"
    set ylabel "rows/s (median; bars: 95% CI, series side by side)"
    set key inside bottom right opaque box noenhanced font ",8"
    # Each series' whiskers a little to the side of the others', so that they do not overlap.
    nb = |batchsize_series|
    plot for [i=1:nb] file(chart) index (i-1) using ($1*(1+0.05*(i-(nb+1)/2.0))):2:3:4 with yerrorlines lt i title batchsize_series[i]
    set ylabel "peak RSS (MB, median)"
    set format y "%g"
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
    set multiplot layout 1,2 margins 0.07,0.98,0.11,0.86 spacing 0.08 title "Memory while importing: save + reset() keeps memory flat (a sawtooth),\nan import that never resets grows with every row" font ",12"
    set xlabel "records processed"
    set format x "%.0s%c"
    set xtics rotate by -30
    set ylabel "resident memory (MB)"
    set key inside top left opaque box noenhanced font ",8"
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
    set multiplot layout 1,2 margins 0.07,0.98,0.11,0.86 spacing 0.08 title "Writers: duplicate rows (left) and merge conflicts (right) as writers are added\none writer, or a uniqueness constraint, keeps duplicates at 0; bars: min…max over the repetitions" font ",12"
    set xlabel "writers (concurrent producers)"
    set ylabel "duplicate rows (median)"
    set format y "%.0s%c"
    set key inside top left opaque box noenhanced font ",8"
    stats file(chart) using 4 nooutput
    if (STATS_max <= 0) { set yrange [0:1] } else { set yrange [0:*] }
    nw = |writers_series|
    plot for [i=1:nw] file(chart) index (i-1) using ($1*(1+0.02*(i-(nw+1)/2.0))):2:3:4 with yerrorlines lt i title writers_series[i]
    set ylabel "conflicts resolved by the merge policy (median)"
    unset key
    stats file(chart) using 7 nooutput
    if (STATS_max <= 0) { set yrange [0:1] }
    plot for [i=1:nw] file(chart) index (i-1) using ($1*(1+0.02*(i-(nw+1)/2.0))):5:6:7 with yerrorlines lt i title writers_series[i]
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

# 8. The nightly trend: each strategy relative to the baseline (1.0), the band the gate tolerates,
#    and a red mark where a strategy fell below it.
chart = "trend"
if (has(chart)) { do for [fmt in formats] {
    @open
    band = real(trend_band)
    # The panels' ranges (stats cannot read time data, so before `set xdata time`).
    stats file(chart) using 2 nooutput
    speedmin = STATS_min; speedmax = STATS_max
    stats file(chart) using 3 nooutput
    allocmin = STATS_min; allocmax = STATS_max
    set multiplot layout 2,1 margins 0.07,0.78,0.12,0.88 spacing 0.14 title sprintf("Nightly trend over %s nights: each strategy's vs_limit (top) and allocations per record (bottom) ÷ the baseline's\n1.0 is the baseline; grey: the ±%.0f%% band the gate tolerates; red ×: a night below it", trend_nights, band*100) font ",12"
    set xdata time
    set timefmt "%s"
    set format x "%m-%d\n%H:%M"
    set xtics font ",9"
    set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
    unset xlabel
    set ylabel "vs_limit ÷ baseline"
    # At least twice the band, so that nights equal to the baseline still have a scale.
    set yrange [(speedmin < 1-2*band ? speedmin : 1-2*band):(speedmax > 1+2*band ? speedmax : 1+2*band)]
    set key at screen 0.995,0.88 right top noenhanced box opaque font ",8" maxrows 40
    n = |trend_series|
    ns = int(trend_speedcount)
    # The red marks only when some night fell below the band (gnuplot warns of an empty block).
    if (int(trend_marks) > 0) {
        plot (1+band) with filledcurves y1=(1-band) lc rgb "#e8e8e8" notitle, \
             1 with lines lc rgb "black" lw 1 dt 1 title "baseline", \
             for [i=1:ns] file(chart) index (i-1) using 1:2 with linespoints lt i title trend_series[i], \
             file(chart) index n using 1:2 with points pt 2 ps 2 lw 2 lc rgb "red" title "below the band"
    } else {
        plot (1+band) with filledcurves y1=(1-band) lc rgb "#e8e8e8" notitle, \
             1 with lines lc rgb "black" lw 1 dt 1 title "baseline", \
             for [i=1:ns] file(chart) index (i-1) using 1:2 with linespoints lt i title trend_series[i]
    }
    set ylabel "allocations per record ÷ baseline"
    set yrange [(allocmin < 0.99 ? allocmin : 0.99):(allocmax > 1.01 ? allocmax : 1.01)]
    set xlabel "nightly run (start, UTC)"
    set key at screen 0.995,0.45 right top noenhanced box opaque font ",8" maxrows 40
    # Strategies without a vs_limit (updates, deletes, reads) have their titles here.
    if (n > ns) {
        plot 1 with lines lc rgb "black" lw 1 notitle, \
             for [i=ns+1:n] file(chart) index (i-1) using 1:3 with linespoints lt i title trend_series[i] . " (no vs_limit)", \
             for [i=1:ns] file(chart) index (i-1) using 1:3 with linespoints lt i notitle
    } else {
        unset key
        plot 1 with lines lc rgb "black" lw 1 notitle, \
             for [i=1:ns] file(chart) index (i-1) using 1:3 with linespoints lt i notitle
    }
    unset multiplot
    set xdata
    unset output
    reset
    @common
} }
