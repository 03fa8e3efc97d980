#!/usr/bin/env python3
"""Lists every skipped test of a ctest JUnit file (ctest --output-junit) with its reason.

The reason is the test's own words: a line with SKIP / Skipped / skipped in its output (a
GoogleTest GTEST_SKIP message, a script's "SKIP: ..." line). Used by scripts/test.sh, so that a
skip is never silent.
"""
import re
import sys
import xml.etree.ElementTree as ElementTree

REASON = re.compile(r"(SKIP|[Ss]kipped|[Ss]kipping)")


def main(path):
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as error:
        print(f"list-skips: cannot read {path}: {error}")
        return 1
    skipped = []
    for case in root.iter("testcase"):
        if case.find("skipped") is None:
            continue
        output = (case.findtext("system-out") or "") + (case.findtext("system-err") or "")
        reasons = [line.strip() for line in output.splitlines() if REASON.search(line)]
        skipped.append((case.get("name"), reasons[-3:] or ["(the test printed no reason)"]))
    if not skipped:
        print("skipped tests: none")
        return 0
    print(f"skipped tests: {len(skipped)}")
    for name, reasons in skipped:
        print(f"  {name}")
        for reason in reasons:
            print(f"      {reason[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "ctest-results.xml"))
