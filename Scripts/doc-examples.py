#!/usr/bin/env python3
"""Turns the Swift code blocks of the documentation into programs that run, and checks them.

Every ```swift block of README.md and of each DocC article (Sources/*/*.docc/*.md) becomes part
of the executable target `doc-examples` (Tests/DocumentationExamples/): one generated Swift file
per document, whose `run()` runs that document's blocks in order. The test target
DocumentationExamplesTests runs each document's program twice in one fresh directory and compares
what it prints with the output the text states, which this script writes into
Tests/DocumentationExamplesTests/ExpectedOutput.swift.

    python3 Scripts/doc-examples.py           # regenerates the files and lists the skipped blocks
    python3 Scripts/doc-examples.py --check   # exits 1, naming the document, if a file is stale

What a doc writer needs to know
-------------------------------

Programs. The blocks of a document run in order, in one scope, so a block uses the variables of
the blocks before it. A block that starts with an `import`, or that has a setup (below), starts a
new program: a new scope, so that two examples of one document may both say `let query`.
Imports go to the top of the generated file; a DocC article also imports the module of its catalog
(RecordStore for RecordStoreCore's, QueryServer for QueryServer's, RecordStorePostgres for
RecordStorePostgres's: the articles of the last two catalogs run only with their trait on). Types (`struct`, `enum`, `class`, `actor`, `protocol`,
`typealias`, with their attributes) are declared in the document's own namespace, so two
documents may both declare `Entity`. A program is synchronous, as the examples of the
synchronous API are written, unless its first block (or setup) uses `await`; a later block that
awaits in a synchronous program runs to its end on its own, and its variables stay its own.
Programs run in a fresh directory, twice: a relative path
such as "cities.sqlite" is a file of that directory, `Datasets/` is the package's, and the
second run must print what the first printed (save with `policy: .allKeys`, or insert models,
which replaces them, when an example saves the same record every time).

Output. What a block prints must be what the text says, line for line:

    print(predicate)          // name BEGINSWITH[c] "sa"      the print's output is the comment
    try compiled.evaluate(o)  // true                         an expression whose comment states
                                                              its value is printed, so checked
    store.count(...)                                          ...and also when the comment is
    // 2                                                      the line right below it
    try rules.validate(p)
    // throws: OR is not supported ...                        must throw; prints the error
    for city in cities { print(city) }
    // prints:                                                 every line of the comment lines
    // Paris                                                   below `// prints:` (or below any
    // Lyon                                                    `// prints ...:` line) is output

A comment may end with a note in parentheses after two or more spaces, which is not output:
`// 4   (an Int)`. A comment after `let`, `var`, `_ =`, an assignment or a declaration is only a
comment, and so is any comment inside braces.

Directives are HTML comments on the lines right before a block's opening fence (several may be
stacked). Readers of the rendered documents do not see them.

    <!-- not run: REASON -->            the block is not compiled (a Package.swift fragment, ...);
                                          every skip has a reason, and this script lists them
    <!-- setup: CODE -->                  hidden Swift that runs before the block (it may span
                                          lines); the block starts a new program
    <!-- runs until cancelled; meanwhile: CODE -->
                                          the block (a loop over live results, a server) runs in
                                          a task; CODE runs meanwhile, then the task is cancelled
    <!-- each line continues: EXPR; printing: MEMBER -->
                                          each line of the block (`.where(...)`) is a fragment
                                          appended to EXPR; a fragment with a comment prints
                                          `(EXPR fragment)MEMBER`; "; printing: MEMBER" may be left
                                          out when no line has a comment

PostgreSQL. A "postgres://..." string literal becomes the server of QUERY_TEST_POSTGRES_URL,
with the literal's `schema` parameter (or "doc_examples"). The test of a document that has one
is skipped with a note when the variable is not set, and fails under CI=true.

Traits. A document that imports RecordStorePostgres, QueryServer or uses @QueryModel is compiled
and tested only with the PostgreSQL, Server or Macros trait on.
"""

import argparse
import dataclasses
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES_DIR = "Tests/DocumentationExamples"
EXPECTED_FILE = "Tests/DocumentationExamplesTests/ExpectedOutput.swift"
DOCUMENTS_FILE = os.path.join(EXAMPLES_DIR, "Documents.swift")

# The module a DocC catalog documents, imported by its articles' programs (a catalog not listed
# imports its own module).
CATALOG_IMPORTS = {
    "PredicateLanguage": "import PredicateLanguage",
    "RecordStoreCore": "import RecordStore",
    "QueryBuilder": "import QueryBuilder",
    "QueryServer": "import QueryServer",
    "RecordStorePostgres": "import RecordStorePostgres",
}
# The trait a module (or the macro) needs.
TRAITS_OF_IMPORTS = {"RecordStorePostgres": "PostgreSQL", "QueryServer": "Server"}
DECLARATION = re.compile(r"^(?:(?:public|private|fileprivate|internal|final)\s+)*(struct|enum|class|actor|protocol|typealias|extension)\b")
IMPORT = re.compile(r"^(?:@_spi\(\w+\)\s+)?(?:@testable\s+)?import\s+(\w+)")
STATEMENT_KEYWORD = re.compile(r"^(let|var|for|while|if|guard|switch|return|do|defer|func|throw|repeat|case|default|break|continue)\b|^_\s*=|^@|^}")
ATTRIBUTE_LINE = re.compile(r"^(@\w+(\([^)]*\))?\s*)+(//.*)?$")
AWAIT = re.compile(r"\bawait\b")
NOTE = re.compile(r"\s{2,}\(.*\)\s*$")
POSTGRES_LITERAL = re.compile(r'"(postgres(?:ql)?://[^"]*)"')


class DocumentError(Exception):
    """A document the generator cannot turn into a program; the message names it and the line."""


@dataclasses.dataclass
class Directives:
    skip_reason: str | None = None
    setup: list[str] = dataclasses.field(default_factory=list)
    meanwhile: list[str] | None = None
    continues: str | None = None
    printing: str | None = None


@dataclasses.dataclass
class Block:
    line: int                     # 1-based line of the opening fence
    lines: list[str]
    directives: Directives


@dataclasses.dataclass
class Statement:
    lines: list[str]              # the source lines, the trailing comment of the last one removed
    comment: str | None           # the comment after the last line, or the line right below
    comment_is_below: bool = False
    throws: str | None = None
    prints: list[str] | None = None


# Reading the documents -------------------------------------------------------------------------

def documents():
    """The documents, as (name, path relative to the package, default imports)."""
    found = [("README", "README.md", [])]
    for path in sorted(glob.glob(os.path.join(ROOT, "Sources/*/*.docc/*.md"))):
        relative = os.path.relpath(path, ROOT)
        catalog = os.path.basename(os.path.dirname(path))[: -len(".docc")]
        found.append((os.path.splitext(os.path.basename(path))[0], relative, [CATALOG_IMPORTS.get(catalog, f"import {catalog}")]))
    return found


def read_blocks(path):
    """The ```swift blocks of a Markdown file, with the directives of the comments before each."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        text = file.read().split("\n")
    blocks = []
    index = 0
    while index < len(text):
        fence = re.match(r"^(\s*)```swift\s*$", text[index])
        if not fence:
            if re.match(r"^\s*```", text[index]):  # another language's block: skip to its end
                index += 1
                while index < len(text) and not re.match(r"^\s*```\s*$", text[index]):
                    index += 1
            index += 1
            continue
        indent = len(fence.group(1))
        body = []
        end = index + 1
        while end < len(text) and not re.match(r"^\s*```\s*$", text[end]):
            body.append(text[end][indent:] if text[end][:indent].strip() == "" else text[end])
            end += 1
        if end == len(text):
            raise DocumentError(f"{path}:{index + 1}: the swift block never ends")
        blocks.append(Block(index + 1, body, read_directives(path, text, index)))
        index = end + 1
    return blocks


def read_directives(path, text, fence_index):
    """Parses the HTML comments that end on the lines right before the fence at `fence_index`."""
    comments = []
    end = fence_index - 1
    while end >= 0 and text[end].strip().endswith("-->"):
        start = end
        while start >= 0 and "<!--" not in text[start]:
            start -= 1
        if start < 0:
            raise DocumentError(f"{path}:{end + 1}: '-->' without '<!--'")
        comment = "\n".join(text[start:end + 1]).strip()
        comments.insert(0, (start + 1, comment[len("<!--"):-len("-->")]))
        end = start - 1
    directives = Directives()
    for line, comment in comments:
        body = comment.strip()
        if match := re.match(r"^not run:\s*(.*)$", body, re.S):
            if not match.group(1).strip():
                raise DocumentError(f"{path}:{line}: 'not run:' needs a reason")
            directives.skip_reason = " ".join(match.group(1).split())
        elif match := re.match(r"^setup:(.*)$", body, re.S):
            directives.setup = code_lines(match.group(1))
        elif match := re.match(r"^runs until cancelled;\s*meanwhile:(.*)$", body, re.S):
            directives.meanwhile = code_lines(match.group(1))
        elif match := re.match(r"^each line continues:\s*(.*?)(?:;\s*printing:\s*(.*))?$", body, re.S):
            directives.continues = match.group(1).strip()
            directives.printing = match.group(2).strip() if match.group(2) else None
        else:
            raise DocumentError(f"{path}:{line}: unknown directive <!--{comment}-->")
    return directives


def code_lines(text):
    """The lines of a directive's code: the first line's text, then the following lines dedented."""
    lines = text.split("\n")
    first = [lines[0].strip()] if lines[0].strip() else []
    rest = lines[1:]
    indent = min((len(line) - len(line.lstrip()) for line in rest if line.strip()), default=0)
    return first + [line[indent:] for line in rest if line.strip()]


# Splitting Swift into statements ---------------------------------------------------------------

def scan(line):
    """The bracket depth change of a line and the column of its `//` comment (or None).

    Strings ("..." with escapes, #"..."# raw strings) are skipped; good enough for examples."""
    depth = 0
    column = 0
    while column < len(line):
        character = line[column]
        if line.startswith("//", column):
            return depth, column
        if character == "#" and line.startswith('#"', column):
            close = line.find('"#', column + 2)
            column = len(line) if close < 0 else close + 2
            continue
        if character == '"':
            column += 1
            while column < len(line) and line[column] != '"':
                column += 2 if line[column] == "\\" else 1
            column += 1
            continue
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth -= 1
        column += 1
    return depth, None


def split_statements(lines, each_line_is_a_statement):
    """Splits a block into top-level statements, attaching the comments that state output."""
    statements = []
    depth = 0
    current = None          # the statement a line may continue, or a comment may describe
    pending_prints = None   # the output lines of a `// prints:` comment being read
    for raw in lines:
        stripped = raw.strip()
        if depth == 0 and pending_prints is not None:
            if stripped.startswith("//"):
                pending_prints.append(stripped[2:].removeprefix(" "))
                continue
            pending_prints = None
        if depth == 0 and stripped.startswith("//"):
            text = stripped[2:].strip()
            if re.match(r"^prints\b.*:$", text) or text.startswith("throws:"):
                if current is None:
                    raise DocumentError(f"'{stripped}' follows no statement")
                if text.startswith("throws:"):
                    current.throws = text[len("throws:"):].strip()
                else:
                    current.prints = []
                    pending_prints = current.prints
            elif current is not None and current.comment is None:
                current.comment = text
                current.comment_is_below = True
            continue
        if depth == 0 and not stripped:
            current = None
            continue
        change, comment_column = scan(raw)
        code = raw if comment_column is None else raw[:comment_column].rstrip()
        comment = None if comment_column is None else raw[comment_column + 2:].strip()
        after_attributes = current is not None and all(ATTRIBUTE_LINE.match(line.strip()) for line in current.lines)
        continues_current = current is not None and (after_attributes or (
            current.comment is None and not each_line_is_a_statement and (stripped.startswith(".") or stripped.startswith("}"))))
        if depth == 0 and not continues_current:
            current = Statement([], None)
            statements.append(current)
        current.lines.append(code)
        depth += change
        if ATTRIBUTE_LINE.match(code.strip()):
            current.lines[-1] = raw  # an attribute's comment stays with it
        elif comment is not None and depth == 0:
            current.comment = comment
        elif comment is not None:
            current.lines[-1] = raw  # a comment inside the statement stays where it is
    if depth != 0:
        raise DocumentError("unbalanced brackets")
    return statements


def is_expression(statement):
    """Whether a statement is an expression whose value a comment may state."""
    first = statement.lines[0].strip()
    if STATEMENT_KEYWORD.match(first) or DECLARATION.match(first) or IMPORT.match(first) or first.startswith("print("):
        return False
    text = "\n".join(statement.lines)
    depth = 0
    for index, character in enumerate(text):
        if character in "([{":
            depth += 1
        elif character in ")]}":
            depth -= 1
        elif character == "=" and depth == 0:
            before = text[index - 1] if index else ""
            after = text[index + 1] if index + 1 < len(text) else ""
            if after != "=" and before not in "=!<>":
                return False
    return True


def expected_text(comment):
    return NOTE.sub("", comment).strip()


# Writing the program ---------------------------------------------------------------------------

class Program:
    """The generated Swift of one document."""

    def __init__(self, name, path, default_imports):
        self.name = name
        self.path = path
        self.namespace = re.sub(r"\W", "", name) + "Example"
        self.imports = list(default_imports)
        # A catalog's module that needs a trait (QueryServer's, RecordStorePostgres's) puts the
        # programs of all its articles under that trait.
        self.traits = {TRAITS_OF_IMPORTS[IMPORT.match(line).group(1)] for line in default_imports
                       if IMPORT.match(line) and IMPORT.match(line).group(1) in TRAITS_OF_IMPORTS}
        self.declarations = []
        self.programs = []      # the `do { }` scopes of run(), one per program
        self.body = []          # the lines of the program being written
        self.program_line = 0
        self.program_is_async = False
        self.expected = []
        self.skipped = []
        self.needs_postgres = False
        self.scope_open = False
        self.tasks = 0
        self.scope_names = []
        self.run_count = 0

    def add_block(self, block):
        directives = block.directives
        if directives.skip_reason:
            self.skipped.append((block.line, directives.skip_reason))
            return
        self.run_count += 1
        setup = self.statements(directives.setup, False) if directives.setup else []
        statements = self.statements(block.lines, directives.continues is not None, block.line)
        first = statements[0].lines[0].strip() if statements else ""
        awaits = any(AWAIT.search(line) for line in directives.setup + block.lines + (directives.meanwhile or []))
        if directives.setup or IMPORT.match(first) or not self.scope_open:
            self.close_scope()
            self.program_line = block.line
            self.program_is_async = awaits
            self.scope_open = True
        else:
            self.body.append(f"// {self.path}, line {block.line}")
        body = self.body
        if awaits and not self.program_is_async:
            # A block that awaits in a synchronous program runs to its end on its own.
            self.body.append("try DocumentationExampleSupport.wait {")
            self.body = []
        self.add_statements(block, directives, setup, statements)
        if body is not self.body:
            body.extend("    " + line for line in self.body)
            body.append("}")
            self.body = body

    def add_statements(self, block, directives, setup, statements):
        for statement in setup:
            self.emit(statement, None, None, self.body)
        if directives.meanwhile is not None:
            self.tasks += 1
            task = f"example{self.tasks}"
            self.body.append(f"let {task} = Task {{")
            inner = []
            for statement in statements:
                self.emit(statement, directives.continues, directives.printing, inner, declare_names=False)
            self.body.extend("    " + line for line in inner)
            self.body.append("}")
            for statement in self.statements(directives.meanwhile, False):
                self.emit(statement, None, None, self.body)
            self.body.append(f"try await DocumentationExampleSupport.cancel({task})")
        else:
            for statement in statements:
                self.emit(statement, directives.continues, directives.printing, self.body)

    def statements(self, lines, each_line_is_a_statement, line=None):
        try:
            return split_statements(lines, each_line_is_a_statement)
        except DocumentError as error:
            raise DocumentError(f"{self.path}:{line or 'setup'}: {error}") from None

    def emit(self, statement, continues, printing, out, declare_names=True):
        lines = [self.substitute(line) for line in statement.lines]
        first = lines[0].strip()
        if match := IMPORT.match(first):
            self.imports.append(first)
            trait = TRAITS_OF_IMPORTS.get(match.group(1))
            if trait:
                self.traits.add(trait)
            return
        declaration_start = next((index for index, line in enumerate(lines) if not line.strip().startswith("@")), 0)
        if DECLARATION.match(lines[declaration_start].strip()) and not continues:
            if any(line.strip().startswith("@QueryModel") for line in lines[:declaration_start]):
                self.traits.add("Macros")
            self.declarations.append(lines)
            return
        if continues:
            if not first.startswith("."):
                raise DocumentError(f"{self.path}: '{first}' does not continue '{continues}'")
            expression = "DocumentationExampleSupport.evaluated(" + continues + "\n".join(lines) + ")"
            if statement.comment is not None and printing:
                out.append(f"print(try {expression}{printing})")
                self.expected.append(expected_text(statement.comment))
            else:
                out.append(f"_ = try {expression}")
            return
        if statement.throws is not None:
            out.append("do {")
            out.extend("    " + line for line in lines)
            out.append(f'    print("nothing was thrown; expected: " + {swift_string(statement.throws)})')
            out.append("} catch {")
            out.append("    print(error)")
            out.append("}")
            self.expected.append(statement.throws)
        elif statement.comment is not None and first.startswith("print("):
            out.extend(lines)
            self.expected.append(expected_text(statement.comment))
        elif statement.comment is not None and is_expression(statement):
            out.append("print(String(describing:")
            out.extend("    " + line for line in lines)
            out.append("))")
            self.expected.append(expected_text(statement.comment))
        elif is_expression(statement) and re.match(r"^(try|await)\b", first):
            out.append("_ = " + lines[0].lstrip())
            out.extend(lines[1:])
        else:
            out.extend(lines)
            if declare_names and (name := re.match(r"^(?:let|var)\s+(\w+)\b", first)):
                self.scope_names.append(name.group(1))
        if statement.prints is not None:
            self.expected.extend(statement.prints)

    def substitute(self, line):
        def replace(match):
            self.needs_postgres = True
            return f"DocumentationExampleSupport.postgresURL({swift_string(match.group(1))})"
        return POSTGRES_LITERAL.sub(replace, line)

    def close_scope(self):
        """Ends the current program: its lines become a function that run() calls."""
        if self.scope_open:
            # Reads each variable once, so that an example's unread results warn nobody.
            self.body.extend(f"_ = {name}" for name in dict.fromkeys(self.scope_names))
            number = len(self.programs) + 1
            effects = "async throws" if self.program_is_async else "throws"
            call = f"try await program{number}()" if self.program_is_async else f"try program{number}()"
            self.programs.append(([f"/// {self.path}, from line {self.program_line}.",
                                   f"static func program{number}() {effects} {{"]
                                  + ["    " + line for line in self.body] + ["}"], call))
        self.body = []
        self.scope_open = False
        self.scope_names = []

    def source(self):
        self.close_scope()
        condition = " && ".join(sorted(self.traits))
        out = [f"// Generated by Scripts/doc-examples.py from {self.path}; do not edit.", ""]
        if condition:
            out.append(f"#if {condition}")
        out.extend(sorted(set(self.imports), key=lambda line: IMPORT.match(line).group(1)))
        out.append("")
        out.append(f"/// The Swift blocks of {self.path}, run in order.")
        out.append(f"enum {self.namespace} {{")
        for declaration in self.declarations:
            out.extend(("    " + line).rstrip() for line in declaration)
            out.append("")
        out.append("    static func run() async throws {")
        out.extend(f"        {call}" for _, call in self.programs)
        out.append("    }")
        for lines, _ in self.programs:
            out.append("")
            out.extend(("    " + line).rstrip() for line in lines)
        out.append("}")
        if condition:
            out.append("#endif")
        return "\n".join(out) + "\n"


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def swift_raw_string(text):
    if '"#' in text:
        raise DocumentError(f'expected output contains "#: {text!r}')
    return '#"""\n' + text + '\n"""#' if text else '""'


def generate():
    """Every generated file, as {relative path: contents}, and the skipped blocks."""
    files = {}
    programs = []
    for name, path, default_imports in documents():
        blocks = read_blocks(path)
        if not blocks:
            continue
        program = Program(name, path, default_imports)
        for block in blocks:
            program.add_block(block)
        if program.run_count == 0:
            program.skipped and programs.append(program)
            continue
        programs.append(program)
        files[os.path.join(EXAMPLES_DIR, f"{name}.swift")] = program.source()
    runnable = [program for program in programs if program.run_count]
    documents_source = [
        "// Generated by Scripts/doc-examples.py; do not edit.",
        "",
        "/// The programs of the documents, by document name.",
        "enum Documents {",
        "    static let programs: [String: @Sendable () async throws -> Void] = {",
        "        var programs: [String: @Sendable () async throws -> Void] = [:]",
    ]
    for program in runnable:
        condition = " && ".join(sorted(program.traits))
        line = f"        programs[{swift_string(program.name)}] = {program.namespace}.run"
        documents_source.extend([f"        #if {condition}", line, "        #endif"] if condition else [line])
    documents_source.extend(["        return programs", "    }()", "}"])
    files[DOCUMENTS_FILE] = "\n".join(documents_source) + "\n"
    expected = [
        "// Generated by Scripts/doc-examples.py; do not edit.",
        "",
        "/// What each document's program prints, as its text states it.",
        "struct DocumentExample: Sendable, CustomStringConvertible {",
        "    /// The document's name (`README`, `GettingStarted`): the program's argument.",
        "    var name: String",
        "    /// The document, relative to the package.",
        "    var path: String",
        "    /// Whether the program needs the server of `QUERY_TEST_POSTGRES_URL`.",
        "    var needsPostgreSQL: Bool",
        "    /// The standard output of one run.",
        "    var expectedOutput: String",
        "",
        "    var description: String { path }",
        "",
        "    /// The documents whose programs this build has (a trait left out leaves some out).",
        "    static let all: [DocumentExample] = {",
        "        var all: [DocumentExample] = []",
    ]
    for program in runnable:
        condition = " && ".join(sorted(program.traits))
        output = "".join(line + "\n" for line in program.expected)
        entry = (f"all.append(DocumentExample(name: {swift_string(program.name)}, path: {swift_string(program.path)}, "
                 f"needsPostgreSQL: {'true' if program.needs_postgres else 'false'}, expectedOutput: {swift_raw_string(output)}))")
        entry_lines = entry.split("\n")
        if condition:
            expected.append(f"        #if {condition}")
        expected.extend("        " + line if index == 0 else line for index, line in enumerate(entry_lines))
        if condition:
            expected.append("        #endif")
    expected.extend(["        return all", "    }()", "}"])
    files[EXPECTED_FILE] = "\n".join(expected) + "\n"
    return files, programs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a generated file is stale")
    arguments = parser.parse_args()
    try:
        files, programs = generate()
    except DocumentError as error:
        print(f"doc-examples: {error}", file=sys.stderr)
        return 1
    stale = []
    for relative, contents in sorted(files.items()):
        path = os.path.join(ROOT, relative)
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if current == contents:
            continue
        if arguments.check:
            stale.append(f"{relative} is stale ({stale_documents(relative, contents, current or '', programs)})")
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as file:
                file.write(contents)
            print(f"doc-examples: wrote {relative}")
    generated = set(files)
    for path in glob.glob(os.path.join(ROOT, EXAMPLES_DIR, "*.swift")):
        relative = os.path.relpath(path, ROOT)
        if relative not in generated and open(path, encoding="utf-8").read().startswith("// Generated by Scripts/doc-examples.py"):
            if arguments.check:
                stale.append(f"{relative} is stale (its document has no swift block any more)")
            else:
                os.remove(path)
                print(f"doc-examples: removed {relative}")
    if stale:
        for problem in stale:
            print(f"doc-examples: {problem}: run python3 Scripts/doc-examples.py", file=sys.stderr)
        return 1
    if not arguments.check:
        for program in programs:
            print(f"doc-examples: {program.path}: {program.run_count} run, {len(program.skipped)} not run")
            for line, reason in program.skipped:
                print(f"doc-examples:   {program.path}:{line} not run: {reason}")
    return 0


def stale_documents(relative, contents, current, programs):
    """Names the documents whose part of a generated file differs from the file on disk."""
    changed = []
    for program in programs:
        if os.path.basename(relative) == f"{program.name}.swift":
            return f"from {program.path}"
        # A document's lines in the shared files (Documents.swift, ExpectedOutput.swift) name it.
        marker = swift_string(program.name)
        ours = [line for line in contents.split("\n") if marker in line]
        theirs = [line for line in current.split("\n") if marker in line]
        if ours != theirs or (ours and expected_block(contents, marker) != expected_block(current, marker)):
            changed.append(program.path)
    return "for " + ", ".join(changed) if changed else "its documents' list"


def expected_block(text, marker):
    """The lines from a document's entry to the end of its expected output."""
    start = text.find(marker)
    if start < 0:
        return None
    end = text.find('"""#', start)
    return text[start:end if end >= 0 else start + 1]


if __name__ == "__main__":
    sys.exit(main())
