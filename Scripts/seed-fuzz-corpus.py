#!/usr/bin/env python3
"""Seeds Fuzz/corpus with predicate strings taken from the language tests.

    Scripts/seed-fuzz-corpus.py [LIMIT]     # default 150

Collects the Swift string literals ("...", #"..."#) in Tests/PredicateLanguageTests that look like
predicates, keeps up to LIMIT distinct ones (spread over the files), and writes each to
Fuzz/corpus/<sha1 of its bytes>, the naming libFuzzer uses.
"""
import hashlib, os, re, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
limit = int(sys.argv[1]) if len(sys.argv) > 1 else 150
tests = os.path.join(root, "Tests", "PredicateLanguageTests")
raw_literal = re.compile(r'#"(.*?)"#')
plain_literal = re.compile(r'(?<![#\\])"((?:[^"\\\n]|\\.)*)"')
looks_like_predicate = re.compile(
    r"(==|!=|<>|>=|<=|=>|=<|[<>=]|\bBEGINSWITH\b|\bENDSWITH\b|\bCONTAINS\b|\bLIKE\b|\bMATCHES\b|\bIN\b|"
    r"\bBETWEEN\b|\bTRUEPREDICATE\b|\bFALSEPREDICATE\b|\bSUBQUERY\b|\bANY\b|\bALL\b|\bNONE\b|\bSOME\b|"
    r"distanceToLocation|tokenize|FUNCTION|CAST)", re.IGNORECASE)

def unescape(text):
    replacements = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", '"': '"', "'": "'", "\\": "\\"}
    out, index = [], 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            follower = text[index + 1]
            if follower in replacements:
                out.append(replacements[follower]); index += 2; continue
            if follower == "u":
                match = re.match(r"u\{([0-9a-fA-F]+)\}", text[index + 1:])
                if match:
                    out.append(chr(int(match.group(1), 16))); index += 1 + len(match.group(0)); continue
            if follower == "(":
                return None  # interpolation: not a literal predicate
        out.append(char); index += 1
    return "".join(out)

per_file = []
for folder, _, names in sorted(os.walk(tests)):
    for name in sorted(names):
        if not name.endswith(".swift"):
            continue
        source = open(os.path.join(folder, name), encoding="utf-8").read()
        found = []
        for match in raw_literal.finditer(source):
            found.append(match.group(1))
        for match in plain_literal.finditer(raw_literal.sub("", source)):
            text = unescape(match.group(1))
            if text is not None:
                found.append(text)
        found = [text for text in found if 3 <= len(text) <= 400 and looks_like_predicate.search(text)]
        per_file.append(list(dict.fromkeys(found)))

chosen, seen = [], set()
while len(chosen) < limit and any(per_file):
    for texts in per_file:  # round robin over the files, so every file contributes
        while texts:
            text = texts.pop(0)
            if text not in seen:
                seen.add(text); chosen.append(text); break
        if len(chosen) >= limit:
            break

corpus = os.path.join(root, "Fuzz", "corpus")
os.makedirs(corpus, exist_ok=True)
for text in chosen:
    data = text.encode("utf-8")
    with open(os.path.join(corpus, hashlib.sha1(data).hexdigest()), "wb") as handle:
        handle.write(data)
print(f"wrote {len(chosen)} inputs to Fuzz/corpus")
