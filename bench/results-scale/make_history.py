#!/usr/bin/env python3
"""Writes a results history of a given size from a results file: the file's rows repeated once
per simulated night, each night with its own run ids and start times a day apart, as a year of
`scripts/nightly` appends to results/history.csv.

Usage: make_history.py SOURCE.csv OUT.csv [MEGABYTES]     (default 100)
"""
import csv
import datetime
import sys

source, out = sys.argv[1], sys.argv[2]
target = float(sys.argv[3] if len(sys.argv) > 3 else 100) * 1_000_000
with open(source, newline="") as f:
    records = list(csv.reader(f))
header, rows = records[0], records[1:]
run_id, started = header.index("run_id"), header.index("started_at")
first = datetime.datetime(2025, 12, 1, 2, 0, 0)
runs: dict[str, int] = {}
with open(out, "w", newline="") as f:
    writer = csv.writer(f, lineterminator="\r\n")
    writer.writerow(header)
    night = 0
    while f.tell() < target:
        day = first + datetime.timedelta(days=night)
        for k, row in enumerate(rows):
            row = list(row)
            # One id per source run and night, its repetition suffix kept: rows of two runs
            # (two command lines) under one id are refused as edited.
            prefix, _, suffix = row[run_id].rpartition("-")
            run = runs.setdefault(prefix, len(runs))
            row[run_id] = f"{night:05x}{run:03x}-{suffix or k + 1}"
            row[started] = (day + datetime.timedelta(seconds=10 * k)).strftime("%Y-%m-%dT%H:%M:%SZ")
            writer.writerow(row)
        night += 1
print(f"{out}: {night} nights, {night * len(rows)} rows", file=sys.stderr)
