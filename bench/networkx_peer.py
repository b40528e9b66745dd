"""Peer for the scale bench: the graph work of `seam check` done with networkx.

Reads the edge list written by bench/gen-graph.mjs (`n m`, a line of entry indices, then one
`from to` pair per line), then times, inside Python (start-up and file loading excluded):
  build: nx.DiGraph from the edge list,
  scc:   strongly connected components (the cycles behind unbounded-cycle / no-terminal-path),
  reach: the agents reachable from the entries (unreachable-agent).
Prints one JSON document: medians in ms over the timed runs, plus counts to cross-check
Seam's own answer, the process's peak RSS after the timed runs (getrusage, before tracemalloc
adds its own overhead), and the tracemalloc peak of one extra, untimed pass.

usage: networkx_peer.py EDGES_FILE RUNS
"""
import json
import resource
import statistics
import sys
import time
import tracemalloc

import networkx as nx


def load(path):
    with open(path, encoding="ascii") as fh:
        n, _m = (int(x) for x in fh.readline().split())
        entries = [int(x) for x in fh.readline().split()]
        edges = [tuple(int(x) for x in line.split()) for line in fh if line.strip()]
    return n, entries, edges


def analyse(n, entries, edges):
    """The measured work; returns (graph, components, reachable set)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    built = time.perf_counter()
    components = list(nx.strongly_connected_components(graph))
    reachable = set(entries)
    for entry in entries:
        reachable |= nx.descendants(graph, entry)
    return built, components, reachable


def main():
    path, runs = sys.argv[1], int(sys.argv[2])
    n, entries, edges = load(path)
    analyse(n, entries, edges)  # warm-up: imports, caches
    totals, without_build = [], []
    components = reachable = None
    for _ in range(runs):
        start = time.perf_counter()
        built, components, reachable = analyse(n, entries, edges)
        end = time.perf_counter()
        totals.append((end - start) * 1000)
        without_build.append((end - built) * 1000)
    # Linux reports ru_maxrss in KiB.
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    tracemalloc.start()
    analyse(n, entries, edges)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    cyclic = [c for c in components if len(c) > 1]
    print(json.dumps({
        "networkx": nx.__version__,
        "python": sys.version.split()[0],
        "runs": runs,
        "total_ms": statistics.median(totals),
        "without_build_ms": statistics.median(without_build),
        "peak_bytes": peak,
        "peak_rss_bytes": peak_rss,
        "components": len(components),
        "largest_component": max(len(c) for c in components),
        "cyclic_components": len(cyclic),
        "reachable": len(reachable),
    }))


if __name__ == "__main__":
    main()
