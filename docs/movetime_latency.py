#!/usr/bin/env python3
"""go movetime latency: time from `go movetime N` to `bestmove` over book positions."""
import subprocess, sys, time, statistics
engine, variant, book, ms = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
count = int(sys.argv[5]) if len(sys.argv) > 5 else 100
fens = [l.split(' c0')[0].split(';')[0].strip() for l in open(book) if l.strip() and not l.startswith('#')][:count]
p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def wait(prefix):
    while True:
        line = p.stdout.readline()
        if line.startswith(prefix): return line
send("uci"); wait("uciok"); send(f"setoption name UCI_Variant value {variant}"); send("isready"); wait("readyok")
times = []
for fen in fens:
    fields = fen.split()
    fen = " ".join(fields[:6]) if variant != "jetan" else fen
    send("ucinewgame"); send(f"position fen {fen}"); send("isready"); wait("readyok")
    t = time.perf_counter(); send(f"go movetime {ms}"); wait("bestmove")
    times.append((time.perf_counter() - t) * 1000)
send("quit")
times.sort()
print(f"{variant} go movetime {ms}: {len(times)} positions, median {statistics.median(times):.1f} ms, "
      f"p99 {times[int(0.99*(len(times)-1))]:.1f} ms, max {times[-1]:.1f} ms, min {times[0]:.1f} ms")
