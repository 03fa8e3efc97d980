#!/usr/bin/python3
"""Runs one pytest file for ctest (tests/python/CMakeLists.txt): exit 77 (ctest's "skipped")
when every test of the file skipped, after printing each reason as a "SKIP: ..." line (what
scripts/list-skips.py reports)."""
import sys

import pytest


class Outcomes:
    """Counts passed and skipped tests and keeps the skip reasons."""

    def __init__(self):
        self.passed = 0
        self.skipped = []

    def pytest_runtest_logreport(self, report):
        if report.skipped:
            self.skipped.append(f"{report.nodeid}: {report.longrepr[-1]}")
        elif report.when == "call" and report.passed:
            self.passed += 1


def main(arguments):
    outcomes = Outcomes()
    status = pytest.main(["-q", "-p", "no:cacheprovider", *arguments], plugins=[outcomes])
    for reason in outcomes.skipped:
        print(f"SKIP: {reason}")
    if status == 0 and outcomes.skipped and not outcomes.passed:
        return 77
    return int(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
