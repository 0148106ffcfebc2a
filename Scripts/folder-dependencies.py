#!/usr/bin/env python3
"""Folder dependency graph of a Swift target: which folder uses a type declared in which other folder.

    Scripts/folder-dependencies.py Sources/RecordStoreCore    the graph, its loops and the edges in them
    Scripts/folder-dependencies.py --layers Sources/QueryServer
                                                               the folders by layer, top first: each sits
                                                               only on layers printed after it
    Scripts/folder-dependencies.py --check                    (CI) every target under Sources/ has no loop,
                                                               and every layout block of the documentation
                                                               matches its target; exits 1 otherwise

A folder is a directory of .swift files (`Store/Fetching` is a folder of its own, apart from `Store`;
`.` is the target's root). Folder A uses folder B when a file of A names a type declared at the top
level of a file of B (comments and string literals left out, `@_spi(...)` attributes too).

A layout block documents a target's folders as layers, top first, in a Markdown table between
`<!-- folder-layers: Sources/TARGET -->` and `<!-- end folder-layers -->`: the first cell of each row
names folders in backticks (`Store/Fetching/`, and `.` or `(root)` for the root). The check holds when
the rows name every folder of the target once and no folder uses one in a row above its own.
"""
import glob, os, re, sys

DECLARATION = re.compile(
    r'^(?:@\w+(?:\([^)]*\))?\s+)*'
    r'(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated)\s+)*'
    r'(?:class|struct|enum|protocol|actor|typealias)\s+(\w+)', re.M)
LAYOUT_BLOCK = re.compile(r'<!--\s*folder-layers:\s*(\S+?)\s*-->(.*?)<!--\s*end folder-layers\s*-->', re.S)


def strip(text):
    """Swift source without comments, string contents and `@_spi(...)` (which names no type it uses)."""
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    text = re.sub(r'"""(.*?)"""', '""', text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r'@_spi\(\w+\)\s*', '', text)
    return text


def folder_graph(root):
    """(folders, edges): edges maps (folder, used folder) to the type names that make the use."""
    files = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            if name.endswith('.swift'):
                files[os.path.join(dirpath, name)] = os.path.relpath(dirpath, root)
    texts = {path: strip(open(path, encoding='utf-8').read()) for path in files}
    owner = {}
    for path, text in sorted(texts.items()):
        # only top-level (column 0) declarations
        for match in DECLARATION.finditer(text):
            owner.setdefault(match.group(1), files[path])
    edges = {}
    for path, text in texts.items():
        source = files[path]
        for identifier in set(re.findall(r'\b[A-Z]\w*\b', text)):
            target = owner.get(identifier)
            if target and target != source:
                edges.setdefault((source, target), set()).add(identifier)
    return sorted(set(files.values())), edges


def strongly_connected(folders, edges):
    """Tarjan's strongly connected components of the folder graph."""
    graph = {folder: sorted(b for (a, b) in edges if a == folder) for folder in folders}
    index, low, stack, on_stack, components, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            components.append(sorted(component))

    sys.setrecursionlimit(10000)
    for folder in folders:
        if folder not in index:
            visit(folder)
    return components


def loops(folders, edges):
    return [component for component in strongly_connected(folders, edges) if len(component) > 1]


def layers(folders, edges):
    """The folders by height (a folder sits one layer above the highest folder it uses), top first.
    Only for a graph without loops."""
    height = {}

    def measure(folder):
        if folder not in height:
            height[folder] = 0
            height[folder] = 1 + max((measure(b) for (a, b) in edges if a == folder), default=-1)
        return height[folder]

    for folder in folders:
        measure(folder)
    return [sorted(f for f in folders if height[f] == level) for level in range(max(height.values(), default=-1), -1, -1)]


def print_graph(root):
    folders, edges = folder_graph(root)
    for folder in folders:
        used = sorted(b for (a, b) in edges if a == folder)
        print(f"{folder} -> {', '.join(used) or '(nothing)'}")
    found = loops(folders, edges)
    print("loops:", len(found))
    for component in found:
        print("  loop:", " <-> ".join(component))
        for a in component:
            for b in component:
                if (a, b) in edges:
                    print(f"    {a} -> {b}: {', '.join(sorted(edges[(a, b)])[:8])}")
    return found


def check_layout_block(document, target, name, table, problems):
    """A layout block's rows against its target's graph (`target` its folder, `name` as the block
    spells it); adds what does not hold to problems."""
    if not os.path.isdir(target):
        problems.append(f"{document}: the layout block names {name}, which is not a folder")
        return
    folders, edges = folder_graph(target)
    row_of = {}
    for row_number, line in enumerate(l for l in table.splitlines() if l.strip().startswith('|')):
        first_cell = line.strip().strip('|').split('|')[0]
        for spelled in re.findall(r'`([^`]+)`', first_cell):
            folder = '.' if spelled in ('.', '(root)', './') else spelled.rstrip('/')
            if folder in row_of:
                problems.append(f"{document}: {name}: `{spelled}` is named twice in its layout block")
            row_of[folder] = row_number
    for folder in sorted(set(row_of) - set(folders)):
        problems.append(f"{document}: {name}: the layout block names `{folder}/`, which holds no Swift file")
    for folder in sorted(set(folders) - set(row_of)):
        problems.append(f"{document}: {name}: the layout block leaves out `{folder}/`")
    for (a, b), names in sorted(edges.items()):
        if a in row_of and b in row_of and row_of[b] < row_of[a]:
            problems.append(f"{document}: {name}: `{a}/` uses `{b}/`, listed above it ({', '.join(sorted(names)[:4])})")


def check(repository):
    """Every target without loops, every layout block current: the problems found."""
    problems = []
    for target in sorted(glob.glob(os.path.join(repository, 'Sources', '*'))):
        if not os.path.isdir(target):
            continue
        folders, edges = folder_graph(target)
        if not folders:
            continue
        found = loops(folders, edges)
        print(f"{os.path.relpath(target, repository)}: {len(folders)} folders, {len(found)} loops")
        for component in found:
            problems.append(f"{os.path.relpath(target, repository)}: a loop through " + " <-> ".join(component)
                            + f" (`Scripts/folder-dependencies.py {os.path.relpath(target, repository)}` shows its edges)")
    documents = [os.path.join(repository, 'README.md')]
    documents += sorted(glob.glob(os.path.join(repository, 'docs', '**', '*.md'), recursive=True))
    documents += sorted(glob.glob(os.path.join(repository, 'Sources', '*', '*.docc', '**', '*.md'), recursive=True))
    for document in documents:
        if not os.path.isfile(document):
            continue
        for match in LAYOUT_BLOCK.finditer(open(document, encoding='utf-8').read()):
            target = os.path.join(repository, match.group(1))
            check_layout_block(os.path.relpath(document, repository), target, match.group(1), match.group(2), problems)
            print(f"{os.path.relpath(document, repository)}: layout block of {match.group(1)} checked")
    return problems


def main(arguments):
    if arguments[:1] == ['--check']:
        repository = arguments[1] if len(arguments) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
        problems = check(repository)
        for problem in problems:
            print("folder-dependencies:", problem, file=sys.stderr)
        return 1 if problems else 0
    if arguments[:1] == ['--layers'] and len(arguments) == 2:
        folders, edges = folder_graph(arguments[1])
        if loops(folders, edges):
            print("the folders have loops: run without --layers to see them", file=sys.stderr)
            return 1
        for layer in layers(folders, edges):
            print(", ".join(f"`{folder}/`" if folder != '.' else "`.`" for folder in layer))
        return 0
    if len(arguments) == 1 and not arguments[0].startswith('-'):
        print_graph(arguments[0])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
