#!/usr/bin/env python3
"""Lists the functions in src/ longer than a limit (default 80 lines), longest
first: `python3 scripts/long-functions.py [LIMIT]`. A function runs from its
`fn` line to the line of its closing brace; test modules (`#[cfg(test)]` to
the end of the file, and `tests.rs` files) are left out. Exit 1 when any is
over the limit."""
import pathlib
import re
import sys

FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?fn\s+(\w+)")


def functions(path):
    lines = path.read_text().splitlines()
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip() == "#[cfg(test)]":
            break
        m = FN.match(line)
        if not m:
            i += 1
            continue
        depth, opened, j = 0, False, i
        while j < len(lines):
            code = re.sub(r'"(\\.|[^"\\])*"', '""', lines[j].split("//")[0])
            for ch in code:
                if ch == "{":
                    depth += 1
                    opened = True
                elif ch == "}":
                    depth -= 1
            if (opened and depth == 0) or (not opened and code.rstrip().endswith(";")):
                break
            j += 1
        out.append((j - i + 1, m.group(5), i + 1))
        i = j + 1 if opened else i + 1
    return out


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    root = pathlib.Path(__file__).resolve().parent.parent
    found = []
    for path in sorted((root / "src").rglob("*.rs")):
        if path.name == "tests.rs" or "tests" in path.parts:
            continue
        for n, name, line in functions(path):
            if n > limit:
                found.append((n, f"{path.relative_to(root)}:{line}", name))
    for n, where, name in sorted(found, reverse=True):
        print(f"{n:4} {where} {name}")
    print(f"{len(found)} functions over {limit} lines", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
