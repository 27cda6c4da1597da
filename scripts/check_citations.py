#!/usr/bin/env python3
"""Fails when a citation of the theorem catalogue or of a paper points nowhere in the repository.

The catalogue is docs/THEOREMS.md. Checked, in src/, proofs_checks/, tests/, docs/, spec/, python/,
bench/, scripts/ and README.md:

* every `THEOREMS.md <reference>` — a section (`B.11`, `C.5.3`, `0.2`, `§0.3`), a range (`B.8–B.10`),
  a part (`part D`, `Part E`), an item of a section (`E.10 H12`, `C.8 E3`, `B.9 (L1, L3)`) or an
  entry (`THEOREMS.md BG-DRV10-ADV`) — names something the catalogue defines;
* every theorem identifier (`HSV-L5.6`, `X-TREE`, `BG-KOV15-OPT`, …) is an entry of Part C;
* every paper citation of the form `TAG number` (`HSV D5.1`, `VW21 T1.5`, `LYU22 Lemma 3`,
  `KOV15 Thm 3.3`, `HSTVVXZ23 Alg 12`) uses a tag of the catalogue's source tables (0.1);
* every path `spec/theorems/ID.md` mentioned exists, every page there belongs to an entry of the
  catalogue, and every entry that names a registry page names an existing one;
* every relative Markdown link in docs/, spec/ and README.md resolves to a file;
* inside the catalogue, every bare section reference (`see B.7`) is a section of it.

Usage: check_citations.py [--root REPO]   (exit 0: all resolve; 1: one line per broken citation)
"""
from __future__ import annotations

import argparse
import pathlib
import re
import sys

SCANNED = ["src", "proofs_checks", "tests", "docs", "spec", "python", "bench", "scripts", "README.md"]
SKIP_DIRS = {"build", "__pycache__", ".git", "node_modules", ".pytest_cache", ".venv"}
SUFFIXES = {".cpp", ".hpp", ".h", ".py", ".md", ".txt", ".json", ".cmake", ".sh", ".toml", ".in", ".pyi"}

SOURCE_PREFIX = r"(?:BG|X|VW21|LYU22|HSTVVXZ23|HSV1?)"
# identifiers that tests use precisely because no entry has them (an unknown id, a false "theorem")
NOT_ENTRIES = {"HSV-T99.9", "X-FALSE"}
ENTRY_ID = re.compile(r"(?<![\w-])" + SOURCE_PREFIX + r"-[A-Z0-9][A-Za-z0-9.\-]*")
SECTION = re.compile(r"§?([A-E](?:\.\d+)+|0\.\d+)(?![\d])")
NUMBERED = (r"(?:Thm|Theorem|Thms|Lemma|Lemmas|Lem|Cor|Corollary|Def|Definition|Claim|Claims|Prop|"
            r"Proposition|Obs|Observation|Remark|Alg|Algorithm|Algs|Example|Ex|App\.|Appendix|Section|"
            r"Table|eq\.|eqs\.|footnote)\s*\(?[0-9A-Z]"
            r"|§\s*\d"
            r"|(?:CL|FN|[TLCDPOA])\d+(?:\.\d+)*\b")
PAPER_CITATION = re.compile(r"(?<![\w-])([A-Z][A-Za-z]*\d{2}|HSV1?)\s+(?:" + NUMBERED + r")")
PAGE_PATH = re.compile(r"spec/theorems/([A-Za-z0-9.\-]+)\.md")
LINK = re.compile(r"\]\(([^)\s]+)\)")
COMMENT_PREFIX = re.compile(r"^\s*(?:///?!?|#+(?=\s)|\*+(?=\s)|<!--|--)?\s?")


# ------------------------------------------------------------------------------------ catalogue
class Catalogue:
    """What docs/THEOREMS.md defines: sections, parts, items per section, entries, source tags."""

    def __init__(self, path: pathlib.Path):
        self.path = path
        self.text = path.read_text(encoding="utf-8")
        self.sections: dict[str, str] = {}  # id -> its text (up to the next heading of any level)
        self.parts: set[str] = set()
        self.entries: set[str] = set()
        self.registered: dict[str, int] = {}  # entry id -> line of its "Registry:" page mention
        self.tags: set[str] = set()
        self._parse()

    def _parse(self) -> None:
        lines = self.text.splitlines()
        current, body = None, []
        heading = re.compile(r"^(#+)\s+(?:Part\s+([A-E])\b|(§?(?:[A-E](?:\.\d+)+|0\.\d+)))")
        for line in lines + ["# end"]:
            m = heading.match(line)
            if m or line.startswith("#"):
                if current is not None:
                    self.sections[current] = "\n".join(body)
                current, body = None, []
                if m and m.group(2):
                    self.parts.add(m.group(2))
                elif m and m.group(3):
                    current = m.group(3).lstrip("§")
                    body = [line]
                continue
            if current is not None:
                body.append(line)
        # entries: bold titles and first cells of table rows that start with an identifier
        for number, line in enumerate(lines, start=1):
            for span in re.findall(r"\*\*(.+?)\*\*", line) + re.findall(r"^\|\s*([^|]+?)\s*\|", line):
                m = re.match(r"(" + SOURCE_PREFIX + r")-([A-Z0-9][A-Za-z0-9.\-]*)", span)
                if not m:
                    continue
                self.entries.add(m.group(0).rstrip(".-"))
                # aliases in the same title: "HSV-CL6.3 / CL6.4", "HSV-C13.7, C13.8"
                for alias in re.findall(r"(?:/|,)\s*((?:CL|FN|[TLCDPOS])\d+(?:\.\d+)*)\b", span[m.end():]):
                    self.entries.add(m.group(1) + "-" + alias)
                for other in ENTRY_ID.findall(span[m.end():]):
                    if re.match(r"(?:X|BG)-", other) and span.startswith(("X-", "BG-")):
                        self.entries.add(other.rstrip(".-"))
            for page in re.findall(r"`spec/theorems/(" + SOURCE_PREFIX + r"-[A-Za-z0-9.\-]+)\.md`", line):
                self.registered.setdefault(page, number)
        # source tags: first column of the tables of 0.1
        for row in re.findall(r"^\|\s*([A-Za-z0-9]+)\s*\|", self.sections.get("0.1", ""), re.M):
            if row not in {"tag", "---"}:
                self.tags.add(row)

    def items(self, section: str) -> set[str]:
        """Labels the section defines: words in bold spans, first table cells and its heading."""
        text = self.sections.get(section, "")
        found: set[str] = set()
        spans = re.findall(r"\*\*(.+?)\*\*", text) + re.findall(r"^\|\s*([^|]+?)\s*\|", text, re.M)
        spans += text.splitlines()[:1]
        for span in spans:
            found.update(re.findall(r"\b[A-Z][A-Z0-9]{0,3}\b", span))
        return found


# ------------------------------------------------------------------------------------ files
def scanned_files(root: pathlib.Path):
    for name in SCANNED:
        path = root / name
        if path.is_file():
            yield path
        elif path.is_dir():
            for p in sorted(path.rglob("*")):
                if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in p.relative_to(root).parts):
                    continue
                if p.is_file() and (p.suffix in SUFFIXES or p.name == "CMakeLists.txt"):
                    yield p


def flatten(text: str) -> tuple[str, list[int]]:
    """The text with comment markers removed and lines joined by spaces, and the offset of each line."""
    parts, starts, offset = [], [], 0
    for line in text.splitlines():
        stripped = COMMENT_PREFIX.sub("", line, count=1).rstrip()
        starts.append(offset)
        parts.append(stripped)
        offset += len(stripped) + 1
    return " ".join(parts), starts


def line_of(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1


# ------------------------------------------------------------------------------------ citations
def check_reference_list(cat: Catalogue, text: str, pos: int) -> list[str]:
    """Parses the references after "THEOREMS.md" at pos; returns the problems found."""
    problems: list[str] = []
    i = pos
    n = len(text)

    def skip(pattern: str) -> bool:
        nonlocal i
        m = re.compile(pattern).match(text, i)
        if m:
            i = m.end()
            return True
        return False

    skip(r"`?\s*")
    last_section: str | None = None
    first = True
    while i < n:
        if not first:
            m = re.compile(r"\s*(,|/|;|–|and\b|&)\s*").match(text, i)
            if not m:
                break
            after = m.end()
            # after a separator, continue only with another reference
            nxt = re.compile(r"(?:catalogue\b|[Pp]arts?\s|§|\(|[A-E](?:\.\d|,\s*preamble|\b)|0\.\d|"
                             + SOURCE_PREFIX + r"-|[A-Z]{1,2}\d+\b)").match(text, after)
            word = re.compile(r"[A-Za-z0-9]+").match(text, after)
            if not nxt or (word and word.group(0) in cat.tags):
                break
            i = after
        first = False
        skip(r"catalogue,?\s*")
        m = re.compile(r"[Pp]arts?\s+([A-Z](?:\s*(?:/|,|and)\s*[A-Z])*)\b(?!\.\d)").match(text, i)
        if m:
            for letter in re.findall(r"[A-Z]", m.group(1)):
                if letter not in cat.parts:
                    problems.append(f"part {letter} is not a part of the catalogue")
            i, last_section = m.end(), None
            continue
        m = re.compile(r"([A-E]),\s*preamble").match(text, i)
        if m:
            if m.group(1) not in cat.parts:
                problems.append(f"part {m.group(1)} is not a part of the catalogue")
            i, last_section = m.end(), None
            continue
        m = re.compile(SOURCE_PREFIX + r"-[A-Z0-9][A-Za-z0-9.\-]*").match(text, i)
        if m:
            ident = m.group(0).rstrip(".-")
            if ident not in cat.entries:
                problems.append(f"{ident} is not an entry of the catalogue")
            i, last_section = m.end(), None
            continue
        m = SECTION.match(text, i)
        if m:
            sec = m.group(1)
            if sec not in cat.sections:
                problems.append(f"section {sec} does not exist")
            i, last_section = m.end(), sec
            r = re.compile(r"\s*[–-]\s*§?([A-E](?:\.\d+)+)").match(text, i)
            if r:
                if r.group(1) not in cat.sections:
                    problems.append(f"section {r.group(1)} does not exist")
                i, last_section = r.end(), r.group(1)
            # items right after the section: "E.10 H12", "B.9 (L1, L3)", "C.8 E3"
            m2 = re.compile(r"\s*\(?\s*([A-Z][A-Z0-9]{0,3}(?:\s*,\s*[A-Z][A-Z0-9]{0,3})*)(?=[\s,;:)—.]|$)").match(text, i)
            if m2 and last_section:
                labels = [x.strip() for x in m2.group(1).split(",")]
                if all(x not in cat.tags and not re.fullmatch(r"[A-E]", x) for x in labels) and \
                        all(re.fullmatch(r"[A-Z]{1,2}\d+|[A-Z]{2,4}", x) for x in labels):
                    defined = cat.items(last_section)
                    for label in labels:
                        if label not in defined:
                            problems.append(f"{label} is not an item of section {last_section}")
                    i = m2.end()
                    skip(r"\s*\)")
            continue
        m = re.compile(r"([A-Z]{1,2}\d+)\b").match(text, i)
        if m and last_section and m.group(1) not in cat.tags:  # "E.2, N2": an item of the last section
            if m.group(1) not in cat.items(last_section):
                problems.append(f"{m.group(1)} is not an item of section {last_section}")
            i = m.end()
            continue
        break
    return problems


def check(root: pathlib.Path) -> list[str]:
    cat = Catalogue(root / "docs" / "THEOREMS.md")
    out: list[str] = []
    pages_dir = root / "spec" / "theorems"
    pages = {p.stem for p in pages_dir.glob("*.md") if p.name != "README.md"}
    catalogue_path = cat.path.resolve()

    for path in scanned_files(root):
        rel = path.relative_to(root)
        try:
            raw = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if path.resolve() == (root / "scripts" / "check_citations.py").resolve():
            continue
        text, starts = flatten(raw)
        for m in re.finditer(r"THEOREMS\.md", text):
            for problem in check_reference_list(cat, text, m.end()):
                out.append(f"{rel}:{line_of(starts, m.start())}: THEOREMS.md citation: {problem}")
        for m in ENTRY_ID.finditer(text):
            ident = re.sub(r"\.md$", "", m.group(0)).rstrip(".-")
            if ident not in cat.entries and ident not in NOT_ENTRIES:
                out.append(f"{rel}:{line_of(starts, m.start())}: {ident} is not an entry of docs/THEOREMS.md part C")
        for m in PAPER_CITATION.finditer(text):
            if m.group(1) not in cat.tags:
                out.append(f"{rel}:{line_of(starts, m.start())}: paper tag {m.group(1)} (in \"{m.group(0)}\") is not "
                           "in the source tables of docs/THEOREMS.md 0.1")
        for m in PAGE_PATH.finditer(raw):
            if m.group(1) not in pages and m.group(1) != "ID" and m.group(1) != "README":
                out.append(f"{rel}:{raw.count(chr(10), 0, m.start()) + 1}: {m.group(0)} does not exist")
        if path.suffix == ".md" and rel.parts[0] in {"docs", "spec"} or rel.name == "README.md":
            prose = re.sub(r"```.*?```", lambda c: "\n" * c.group(0).count("\n"), raw, flags=re.S)
            prose = re.sub(r"`[^`\n]*`", "", prose)
            for m in LINK.finditer(prose):
                target = m.group(1).split("#", 1)[0]
                if not target or re.match(r"[a-z]+:", target):
                    continue
                if not (path.parent / target).exists():
                    out.append(f"{rel}:{prose.count(chr(10), 0, m.start()) + 1}: link to {m.group(1)} does not resolve")
        if path.resolve() == catalogue_path:
            for m in re.finditer(r"(?<![\w.§])([A-E](?:\.\d+)+)(?![\w.]?\d)", raw):
                before = raw[max(0, m.start() - 10):m.start()]
                if re.search(r"(?:App\.|Appendix|§)\s*$", before):
                    continue
                if m.group(1) not in cat.sections:
                    out.append(f"{rel}:{raw.count(chr(10), 0, m.start()) + 1}: section {m.group(1)} does not exist")

    for page in sorted(pages):
        if page not in cat.entries:
            out.append(f"spec/theorems/{page}.md: {page} has a registry page but no entry in docs/THEOREMS.md")
        elif page not in cat.registered:
            out.append(f"docs/THEOREMS.md: the entry {page} does not name its page spec/theorems/{page}.md")
    for ident, number in sorted(cat.registered.items()):
        if ident not in pages:
            out.append(f"docs/THEOREMS.md:{number}: {ident} names a registry page that does not exist")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent.parent,
                        help="the repository (default: this script's parent folder)")
    args = parser.parse_args()
    problems = check(args.root)
    for p in problems:
        print(p)
    if problems:
        print(f"check_citations: {len(problems)} citation(s) point nowhere", file=sys.stderr)
        return 1
    print("check_citations: every catalogue, paper and page citation resolves inside the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
