#!/usr/bin/env python3
"""Refresh gitleaks.toml (beside this script) from gitleaks' default rules.

Usage: python3 update_gitleaks.py PATH/TO/gitleaks/config/gitleaks.toml COMMIT

gitleaks (https://github.com/gitleaks/gitleaks, MIT, Copyright (c) 2019
Zachary Rice) writes its rules for Go's RE2, where \\w, \\d, \\s and \\b are
ASCII; Rust's regex makes them Unicode, which is slower and matches more.
This script spells them as ASCII classes, keeps each rule's id, regex,
keywords, entropy, secret group and allowlist regexes and stopwords, and
drops the rules that need a file path or that the redactor's own context
rules replace (see SKIPPED).
"""

import re
import sys
import tomllib
from pathlib import Path

# generic-api-key: replaced by the key=value context rules, which know code
# from configuration. Path-only or path-scoped rules: the redactor sees text,
# never a file name.
SKIPPED = {
    "generic-api-key": "replaced by the context rules (key = value)",
    "pkcs12-file": "matches a file path only",
    "kubernetes-secret-yaml": "scoped to YAML files; the context rules cover data: values",
    "hashicorp-tf-password": "scoped to .tf files; the context rules cover password = ...",
    "private-key": "replaced by continuity.toml's, which keeps the BEGIN and END lines",
}

REPETITION = re.compile(r"\{\d+(?:,\d*)?\}")
# Rules that find a secret by the command around it, not by its format.
GENERIC = {"curl-auth-header", "curl-auth-user"}

OUTSIDE = {"w": "[0-9A-Za-z_]", "d": "[0-9]", "s": r"[\t\n\x0B\f\r ]",
           "S": r"[^\t\n\x0B\f\r ]", "b": r"(?-u:\b)", "B": r"(?-u:\B)"}
INSIDE = {"w": "0-9A-Za-z_", "d": "0-9", "s": r"\t\n\x0B\f\r ", "S": r"[^\t\n\x0B\f\r ]"}


def ascii_classes(regex: str) -> str:
    out, i, depth = [], 0, 0
    while i < len(regex):
        c = regex[i]
        if c == "\\" and i + 1 < len(regex):
            e = regex[i + 1]
            table = INSIDE if depth else OUTSIDE
            out.append(table.get(e, c + e))
            i += 2
            continue
        if c == "{" and not depth and not REPETITION.match(regex, i):
            # RE2 reads a brace that starts no repetition as a literal;
            # Rust's regex wants it escaped.
            out.append(r"\{")
            i += 1
            continue
        if c == "[":
            depth += 1
            out.append(c)
            # A ']' right after '[' or '[^' is a literal.
            if regex[i + 1: i + 2] == "^":
                out.append("^")
                i += 1
            if regex[i + 1: i + 2] == "]":
                out.append(r"\]")
                i += 1
        elif c == "]" and depth:
            depth -= 1
            out.append(c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def literal(s: str) -> str:
    if "'''" in s:
        raise ValueError(s)
    return "'''" + s + "'''"


def main() -> None:
    source, commit = Path(sys.argv[1]), sys.argv[2]
    rules = tomllib.loads(source.read_text())["rules"]
    lines = [
        "# Provider key formats from gitleaks' default rules, converted by",
        "# update_gitleaks.py (ASCII classes for \\w \\d \\s \\b, as RE2 reads them).",
        "#",
        f"# Source: https://github.com/gitleaks/gitleaks/blob/{commit}/config/gitleaks.toml",
        "# License: MIT. Copyright (c) 2019 Zachary Rice.",
        "# Permission is hereby granted, free of charge, to any person obtaining a copy",
        "# of this software and associated documentation files (the \"Software\"), to deal",
        "# in the Software without restriction, including without limitation the rights",
        "# to use, copy, modify, merge, publish, distribute, sublicense, and/or sell",
        "# copies of the Software, and to permit persons to whom the Software is",
        "# furnished to do so, subject to the following conditions: The above copyright",
        "# notice and this permission notice shall be included in all copies or",
        "# substantial portions of the Software.",
        "#",
        "# Left out: " + "; ".join(f"{k} ({v})" for k, v in SKIPPED.items()) + ".",
        "",
        "source = \"gitleaks\"",
        "",
    ]
    for r in rules:
        if r["id"] in SKIPPED or "regex" not in r:
            continue
        lines.append("[[rules]]")
        lines.append(f"id = \"{r['id']}\"")
        lines.append(f"description = {literal(r['description'])}")
        lines.append(f"regex = {literal(ascii_classes(r['regex']))}")
        lines.append("keywords = [" + ", ".join(literal(k) for k in r.get("keywords", [])) + "]")
        if "entropy" in r:
            lines.append(f"entropy = {float(r['entropy'])}")
        if r["id"] in GENERIC:
            lines.append("generic = true")
        if "secretGroup" in r:
            lines.append(f"secret_group = {r['secretGroup']}")
        allow, stop = [], []
        for a in r.get("allowlists", []):
            # Only allowlists on the secret itself; path and line lists need
            # context the redactor does not have.
            if a.get("regexTarget", "secret") == "secret" and "paths" not in a:
                allow += a.get("regexes", [])
                stop += a.get("stopwords", [])
        if allow:
            lines.append("allow = [" + ", ".join(literal(ascii_classes(x)) for x in allow) + "]")
        if stop:
            lines.append("stopwords = [" + ", ".join(literal(x) for x in stop) + "]")
        lines.append("")
    Path(__file__).with_name("gitleaks.toml").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
