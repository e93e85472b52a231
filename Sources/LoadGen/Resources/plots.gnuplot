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

# Sixteen line styles: sixteen colours, and dash patterns and point shapes that also differ from
# their neighbours', so that no two series share a colour (nor, in grey, all three). A chart with
# more than sixteen series repeats them (the nightly trend has one per strategy: up to 24), so lines
# 17-32 take the same colours with other dashes and points.
set linetype 1 lc rgb "#1f77b4" lw 2 dt 1 pt 7 ps 1.1
set linetype 2 lc rgb "#d95f02" lw 2 dt 2 pt 5 ps 1.1
set linetype 3 lc rgb "#2ca02c" lw 2 dt 3 pt 9 ps 1.3
set linetype 4 lc rgb "#d62728" lw 2 dt 4 pt 11 ps 1.3
set linetype 5 lc rgb "#9467bd" lw 2 dt 5 pt 13 ps 1.3
set linetype 6 lc rgb "#8c564b" lw 2 dt (10,4,2,4) pt 3 ps 1.3
set linetype 7 lc rgb "#e377c2" lw 2 dt (2,6) pt 6 ps 1.1
set linetype 8 lc rgb "#17becf" lw 2 dt (12,4) pt 8 ps 1.3
set linetype 9 lc rgb "#7f7f7f" lw 2 dt (8,3,2,3,2,3) pt 4 ps 1.2
set linetype 10 lc rgb "#bcbd22" lw 2 dt (1,2) pt 10 ps 1.3
set linetype 11 lc rgb "#000080" lw 2 dt (16,6) pt 12 ps 1.4
set linetype 12 lc rgb "#800000" lw 2 dt (4,2) pt 14 ps 1.4
set linetype 13 lc rgb "#008080" lw 2 dt (8,2,1,2) pt 15 ps 1.4
set linetype 14 lc rgb "#ff00ff" lw 2 dt (3,3,12,3) pt 1 ps 1.5
set linetype 15 lc rgb "#556b2f" lw 2 dt (6,2,6,8) pt 2 ps 1.5
set linetype 16 lc rgb "#daa520" lw 2 dt (1,4,8,4) pt 6 ps 1.1
set linetype 17 lc rgb "#1f77b4" lw 3 dt 4 pt 4 ps 1.0
set linetype 18 lc rgb "#d95f02" lw 3 dt 5 pt 10 ps 1.0
set linetype 19 lc rgb "#2ca02c" lw 3 dt (2,4) pt 6 ps 1.0
set linetype 20 lc rgb "#d62728" lw 3 dt (12,2,2,2) pt 2 ps 1.0
set linetype 21 lc rgb "#9467bd" lw 3 dt (6,3) pt 8 ps 1.0
set linetype 22 lc rgb "#8c564b" lw 3 dt 3 pt 12 ps 1.0
set linetype 23 lc rgb "#e377c2" lw 3 dt (16,3,3,3) pt 1 ps 1.0
set linetype 24 lc rgb "#17becf" lw 3 dt 2 pt 14 ps 1.0
set linetype 25 lc rgb "#7f7f7f" lw 3 dt (1,3) pt 3 ps 1.0
set linetype 26 lc rgb "#bcbd22" lw 3 dt (5,5) pt 5 ps 1.0
set linetype 27 lc rgb "#000080" lw 3 dt 4 pt 13 ps 1.0
set linetype 28 lc rgb "#800000" lw 3 dt (9,3,1,3) pt 7 ps 1.0
set linetype 29 lc rgb "#008080" lw 3 dt 3 pt 9 ps 1.0
set linetype 30 lc rgb "#ff00ff" lw 3 dt (2,2,6,2) pt 11 ps 1.0
set linetype 31 lc rgb "#556b2f" lw 3 dt 5 pt 15 ps 1.0
set linetype 32 lc rgb "#daa520" lw 3 dt (14,4) pt 1 ps 1.0
set linetype cycle 32

# Settings every chart starts from (`reset` between charts keeps the line types above).
common = 'set termoption noenhanced; set grid lc rgb "#dddddd"; set key outside right top noenhanced box opaque; set datafile missing "NaN"'
@common

# Opens the output of chart `chart` in format `fmt`.
open = 'if (fmt eq "png") { set terminal pngcairo size 1280,800 font "DejaVu Sans,11" noenhanced } else { set terminal svg size 1280,800 font "DejaVu Sans,11" noenhanced }; set output out . chart . "." . fmt'

# 1. Throughput per configuration, one chart per operation: one horizontal bar each (labels stay
#    readable), grouped by workload, linear unless the rates span more than ten times, the image as
#    tall as the bars need. Bars that may not be recommended are hatched grey and say why; the
#    limit is one black line per workload at its own measured median.
do for [chart in "throughput throughput_update throughput_delete throughput_read"] {
if (has(chart)) { do for [fmt in formats] {
    bars = int(value(chart . "_count"))
    height = (bars * 24 + 260 > 500) ? bars * 24 + 260 : 500
    if (fmt eq "png") { set terminal pngcairo size 1280,height font "DejaVu Sans,11" noenhanced } else { set terminal svg size 1280,height font "DejaVu Sans,11" noenhanced }
    set output out . chart . "." . fmt
    caveats = value(chart . "_caveats")
    set title "Throughput per configuration: longer is faster\n" . value(chart . "_settings") . "\nwhiskers: 95% CI of the median (min…max below 5 repetitions); " . value(chart . "_limitnote") . (strlen(caveats) > 0 ? "\n" . caveats : "") noenhanced font ",11" offset -int(value(chart . "_margin")) / 2, 0
    islog = value(chart . "_log") eq "1"
    set xlabel value(chart . "_unit") . (islog ? " (log scale)" : "")
    if (islog) { set logscale x; set xrange [real(value(chart . "_start")):*]; set format x "%.0s%c" }
    else { set xrange [0:*]; set xtics real(value(chart . "_step")); set format x value(chart . "_format") }
    unset grid
    set grid xtics lc rgb "#dddddd"
    set ytics noenhanced nomirror font ",10"
    set yrange [0.4:bars + 0.6]
    set lmargin int(value(chart . "_margin"))
    set key outside top center horizontal opaque font ",9"
    left = islog ? real(value(chart . "_start")) : 0
    # Each kind of bar only when there is one (gnuplot warns of a plot with no points).
    apart = int(value(chart . "_apart"))
    limits = int(value(chart . "_limits"))
    # Built as a command: a kind of bar, or the limit, only when there is one (gnuplot warns
    # of a data set with no points).
    cmd = 'plot file(chart) index 0 using (left):1:(left):($6 == 0 ? $3 : NaN):($1-0.32):($1+0.32) with boxxyerror fs solid 0.55 border -1 lt 1 dt 1 lc rgb "#1b9e77" title value(chart . "_titleok")'
    if (apart > 0) { cmd = cmd . ', file(chart) index 0 using (left):1:(left):($6 == 1 ? $3 : NaN):($1-0.32):($1+0.32) with boxxyerror fs pattern 4 border -1 lt 1 dt 1 lc rgb "#888888" title value(chart . "_titleapart")' }
    if (int(value(chart . "_limitbar")) > 0) { cmd = cmd . ', file(chart) index 0 using (left):1:(left):($6 == 2 ? $3 : NaN):($1-0.32):($1+0.32) with boxxyerror fs solid 0.25 border -1 lt 1 dt 1 lc rgb "#444444" notitle' }
    cmd = cmd . ', file(chart) index 0 using 3:1:4:5 with xerrorbars lt 1 dt 1 lc rgb "#333333" pt -1 notitle, file(chart) index 0 using (left):1:ytic(2) with points ps 0 notitle'
    if (limits > 0) { cmd = cmd . ', file(chart) index 1 using 1:3:(0):($2-$3) with vectors nohead lt 1 dt 1 lw 3 lc rgb "black" title value(chart . "_titlelimit")' }
    eval cmd
    unset output
    reset
    @common
} }
}

# 2. Scaling: wall time and rate against rows.
chart = "scaling"
if (has(chart)) { do for [fmt in formats] {
    @open
    set multiplot layout 1,2 margins 0.07,0.98,0.11,0.86 spacing 0.08 title "Scaling: how wall time (left) and rate (right) follow the number of rows, log–log; a line of slope 1 on the left\nis a cost per row that does not grow with the data. " . scaling_settings noenhanced font ",12"
    set logscale xy
    set format x "%.0s%c"
    set format y "%.0s%c"
    set xlabel "rows"
    set ylabel "wall time (s), bars min…max"
    set key inside top left opaque box noenhanced font ",8"
    plot for [i=1:|scaling_series|] file(chart) index (i-1) using 1:2:3:4 with yerrorlines lt i title scaling_series[i]
    set ylabel scaling_unit . " (median)"
    unset key
    plot for [i=1:|scaling_series|] file(chart) index (i-1) using 1:5 with linespoints lt i title scaling_series[i]
    unset multiplot
    unset logscale
    unset output
    reset
    @common
} }

# 3. Batch size: rate and memory, one chart per operation (a fetch's batch is not a save's).
do for [chart in "batchsize batchsize_update batchsize_delete batchsize_read"] {
if (has(chart)) { do for [fmt in formats] {
    @open
    unit = value(chart . "_unit")
    set multiplot layout 1,2 margins 0.07,0.98,0.11,0.84 spacing 0.08 title "Batch size: " . unit . " (left) and peak RSS (right) against the batch size\n" . value(chart . "_settings") . "\n" . value(chart . "_headline") noenhanced font ",12"
    set logscale x
    set format x "%.0s%c"
    set xlabel value(chart . "_axis")
    set ylabel unit . " (median; bars: 95% CI, min…max below 5 repetitions)"
    set format y "%g"
    set key inside bottom right opaque box noenhanced font ",8"
    # The whiskers of each series a little to the side of the others, so that they do not overlap.
    nb = int(value(chart . "_n"))
    plot for [i=1:nb] file(chart) index (i-1) using ($1*(1+0.05*(i-(nb+1)/2.0))):2:3:4 with yerrorlines lt i title value(sprintf("%s_title%d", chart, i))
    set ylabel "peak RSS (MB, median)"
    unset key
    plot for [i=1:nb] file(chart) index (i-1) using 1:5 with linespoints lt i notitle
    unset multiplot
    unset logscale
    unset output
    reset
    @common
} }
}

# 4. Memory over rows processed.
chart = "memory"
if (has(chart)) { do for [fmt in formats] {
    @open
    set multiplot layout 1,2 margins 0.07,0.98,0.11,0.86 spacing 0.08 title "Memory over records processed (the first repetition of each strategy in the longest run)\n" . memory_headline noenhanced font ",12"
    set xlabel "records processed"
    set xtics real(memory_step); set format x memory_format
    set xtics rotate by -30
    set ylabel "resident memory (MB)"
    set key inside top left opaque box noenhanced font ",8"
    # Each line is named at its end (the names pushed apart where lines end together).
    set offsets 0, graph 0.25, 0, 0
    # The run's --max-rss, where it asked for one: what the memory question is judged against.
    if (memory_cap ne "") { set arrow from graph 0, first (memory_cap + 0) to graph 1, first (memory_cap + 0) nohead dt 2 lw 2 lc rgb "#c00000" front; \
                            set label "--max-rss " . memory_cap . " MB" at graph 0.02, first (memory_cap + 0) offset 0, char 0.6 tc rgb "#c00000" font ",8" front }
    plot for [i=1:|memory_series|] file(chart) index (i-1) using 1:2 with lines lt i title memory_series[i], \
         file(chart) index |memory_series| using 1:2:3 with labels left offset char 0.5,0 font ",7" notitle
    set ylabel "heap allocated (MB)"
    unset key
    unset arrow
    unset label
    plot for [i=1:|memory_series|] file(chart) index (i-1) using 1:3 with lines lt i title memory_series[i], \
         file(chart) index (|memory_series| + 1) using 1:2:3 with labels left offset char 0.5,0 font ",7" notitle
    unset multiplot
    unset output
    reset
    @common
} }

# 5. Duplicates and conflicts against writers.
chart = "writers"
if (has(chart)) { do for [fmt in formats] {
    @open
    set multiplot layout 1,2 margins 0.07,0.98,0.11,0.86 spacing 0.08 title "Writers: duplicate rows (left) and merge conflicts (right) as writers are added; bars: min…max over the repetitions\n" . writers_settings . "\n" . writers_headline noenhanced font ",12"
    set xlabel "writers (concurrent producers)"
    set ylabel "duplicate rows (median)"
    # Counts in full: SI prefixes with no decimal printed 1000, 1200 and 1400 all as "1k".
    set format y "%g"
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
    set title "SQL per record against rows: statements (solid) and SELECTs (dashed) per record\n" . sqlperrow_headline noenhanced font ",12"
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
    set title "Open-loop latency, arrival to commit, against the offered rate\n" . latency_settings . "\n" . latency_headline noenhanced font ",12"
    set xlabel "offered rate (records per second)"
    set ylabel "latency (ms, log scale): p50 solid, p99 dashed, max dotted"
    set logscale y
    set key outside right top noenhanced box opaque font ",9"
    # One offered rate: a range around it (gnuplot's own would be empty), the statistics told
    # apart by their points: p50 a circle, p99 a triangle, max a square.
    if (latency_single_rate ne "") { single = latency_single_rate + 0; set xrange [single * 0.8:single * 1.2] }
    # The run's --max-latency, where it asked for one.
    if (latency_cap ne "") { set arrow from graph 0, first (latency_cap + 0) to graph 1, first (latency_cap + 0) nohead dt 2 lw 2 lc rgb "#c00000" front; \
                             set label "--max-latency " . latency_cap . " ms" at graph 0.02, first (latency_cap + 0) offset 0, char 0.6 tc rgb "#c00000" font ",8" front }
    # At one rate the three statistics stand side by side (p99 and max are often equal, and
    # one point would hide the other).
    dx = (latency_single_rate ne "") ? 0.02 : 0
    if (dx > 0) { set xlabel "offered rate (records per second): all at " . latency_single_rate . "; p50, p99 and max drawn side by side" }
    plot for [i=1:|latency_series|] file(chart) index (i-1) using 1:2 with linespoints lt i dt 1 pt 7 title latency_series[i] . " p50", \
         for [i=1:|latency_series|] file(chart) index (i-1) using ($1 * (1 + dx)):3 with linespoints lt i dt 2 pt 9 title latency_series[i] . " p99", \
         for [i=1:|latency_series|] file(chart) index (i-1) using ($1 * (1 + 2 * dx)):4 with linespoints lt i dt 3 pt 5 title latency_series[i] . " max"
    unset logscale
    unset output
    reset
    @common
} }

# 8. Reads against rows: heap per row (what a list of that size holds) and rows read per second.
chart = "reads"
if (has(chart)) { do for [fmt in formats] {
    @open
    set multiplot layout 1,2 margins 0.07,0.98,0.11,0.84 spacing 0.08 title "Reads against rows: peak heap per row (left) and rows read per second (right), log x\n" . reads_headline . "\n" . reads_settings noenhanced font ",12"
    set logscale x
    set format x "%.0s%c"
    set xlabel "rows in the store (log scale)"
    set ylabel "peak heap per row (bytes, median)"
    set format y "%g"
    set yrange [0:*]
    # Head room above the lines for the key.
    set offsets 0, 0, graph 0.6, 0
    set key inside top left opaque box noenhanced font ",8" maxrows 4
    plot for [i=1:|reads_series|] file(chart) index (i-1) using 1:2 with linespoints lt i title reads_series[i]
    set offsets 0, 0, 0, 0
    set format y reads_format
    set ytics reads_step
    set ylabel "rows read per second (median)"
    unset key
    plot for [i=1:|reads_series|] file(chart) index (i-1) using 1:3 with linespoints lt i title reads_series[i]
    unset multiplot
    unset logscale
    set yrange [*:*]
    unset output
    reset
    @common
} }

# 9. The nightly trend: each strategy's vs_limit change against the baseline in units of its own
#    configurations' thresholds (0 the baseline, ±1 each one's threshold: 7.5 % or twice its drift),
#    and a red mark where a strategy fell below it; allocations per record ÷ the baseline's below.
chart = "trend"
if (has(chart)) { do for [fmt in formats] {
    @open
    band = real(trend_band)
    # The ranges of the panels (stats cannot read time data, so before `set xdata time`).
    stats file(chart) using 2 nooutput
    speedmin = STATS_min; speedmax = STATS_max
    stats file(chart) using 3 nooutput
    allocmin = STATS_min; allocmax = STATS_max
    set multiplot layout 2,1 margins 0.07,0.78,0.12,0.88 spacing 0.14 title sprintf("Nightly trend over %s nights: the vs_limit change of each strategy (top), in units of its own threshold,\nand allocations per record ÷ those of the baseline (bottom); grey: the threshold (%.1f %% or twice the drift of the configuration); red ×: a night past it", trend_nights, band*100) font ",12"
    set xdata time
    set timefmt "%s"
    set format x "%m-%d\n%H:%M"
    set xtics font ",9"
    set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
    # One night: half a day either side, so that its points sit on an axis a reader can read.
    if (int(trend_first) == int(trend_last)) { set xrange [int(trend_first) - 43200:int(trend_last) + 43200] }
    unset xlabel
    set ylabel "vs_limit change ÷ its threshold"
    # At least twice the threshold, so that nights equal to the baseline still have a scale.
    set yrange [(speedmin < -2 ? speedmin : -2):(speedmax > 2 ? speedmax : 2)]
    set key at screen 0.995,0.88 right top noenhanced box opaque font ",8" maxrows 40
    n = |trend_series|
    ns = int(trend_speedcount)
    # The red marks only when some night fell below the band (gnuplot warns of an empty block).
    if (int(trend_marks) > 0) {
        plot 1 with filledcurves y1=-1 lc rgb "#e8e8e8" notitle, \
             0 with lines lc rgb "black" lw 1 dt 1 title "baseline", \
             for [i=1:ns] file(chart) index (i-1) using 1:2 with linespoints lt i title trend_series[i], \
             file(chart) index n using 1:2 with points pt 2 ps 2 lw 2 lc rgb "red" title "below the band"
    } else {
        plot 1 with filledcurves y1=-1 lc rgb "#e8e8e8" notitle, \
             0 with lines lc rgb "black" lw 1 dt 1 title "baseline", \
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
