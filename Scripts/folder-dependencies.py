#!/usr/bin/env python3
"""Folder dependency graph of a Swift target: which folder uses a type declared in which other folder."""
import os, re, sys, itertools
root = sys.argv[1]
decl = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+(\w+)', re.M)
files = {}
for dirpath, _, names in os.walk(root):
    for n in names:
        if n.endswith('.swift'):
            p = os.path.join(dirpath, n)
            folder = os.path.relpath(dirpath, root)
            files[p] = folder
owner = {}
def strip(text):
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    text = re.sub(r'"""(.*?)"""', '""', text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return text
texts = {p: strip(open(p).read()) for p in files}
for p, t in texts.items():
    # only top-level (column 0) declarations
    for m in re.finditer(r'^(?:(?:public|package|internal|private|fileprivate|final|indirect)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+(\w+)', t, re.M):
        owner.setdefault(m.group(1), files[p])
edges = {}
for p, t in texts.items():
    src = files[p]
    for ident in set(re.findall(r'\b[A-Z]\w*\b', t)):
        dst = owner.get(ident)
        if dst and dst != src:
            edges.setdefault((src, dst), set()).add(ident)
folders = sorted(set(files.values()))
graph = {f: set() for f in folders}
for (a, b) in edges: graph[a].add(b)
# Tarjan SCC
index = {}; low = {}; stack = []; on = set(); sccs = []; i = [0]
def strongconnect(v):
    index[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
    for w in graph[v]:
        if w not in index: strongconnect(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        sccs.append(comp)
sys.setrecursionlimit(10000)
for v in folders:
    if v not in index: strongconnect(v)
for f in folders:
    print(f"{f} -> {', '.join(sorted(graph[f])) or '(nothing)'}")
loops = [c for c in sccs if len(c) > 1]
print("loops:", len(loops))
for c in loops:
    print("  loop:", " <-> ".join(sorted(c)))
    for a in c:
        for b in c:
            if (a, b) in edges: print(f"    {a} -> {b}: {', '.join(sorted(edges[(a,b)])[:8])}")
