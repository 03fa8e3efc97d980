#!/usr/bin/python3
"""Runs `allocsim reproduce STUDY --quick -o DIR` and checks the PASS/FAIL logic on its real
output: every comparison's difference and verdict recomputed from the published value (or, in a
quick run, the row's own quick reference), the tolerance and ours; rows a quick run cannot check
print "n/a (quick)" and do not count; the quick run exits 0 (everything it can check holds);
all_pass, the exit status, the "N of M PASS" line, the text table's verdicts and the Markdown
rows agree with the JSON; the figures it lists exist as PNG and PDF. `--list` instead checks the
study list and the error for an unknown study. Exit 77 = skipped (a study that needs traces
without ALLOCSIM_TRACE_DIR).

Usage: check_reproduction.py ALLOCSIM STUDY|--list trace|none WORKDIR
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys

STUDIES = ["bender-table1", "bender-fig2", "bender-mm-tight", "gabl", "gabl-wormhole",
           "cplant-curves", "cplant-contention", "agarwal-mapping", "agarwal-network",
           "mao-qcdoc", "mao-jlab"]
# Studies that draw figures (each must exist as PNG and PDF in the output folder).
FIGURE_STUDIES = ["gabl", "gabl-wormhole", "cplant-curves", "cplant-contention",
                  "agarwal-mapping", "agarwal-network", "mao-qcdoc", "mao-jlab"]


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def check_no_nan(markdown, where):
    """A note or row that prints a number it could not compute ("nan") fails."""
    for line in markdown.splitlines():
        if re.search(r"\bnan\b", line, re.IGNORECASE):
            fail("%s prints nan: %s" % (where, line[:300]))


def check_resume_without_job_tables(allocsim, workdir):
    """dragonfly-placement's bully runtimes come from per-job tables: a result file written
    without them (an older file resumed) must say so once and print no nan."""
    import h5py  # Debian's python3-h5py; only this study needs it
    with h5py.File(os.path.join(workdir, "dragonfly-placement-bully.h5"), "a") as f:
        del f["jobs"]
    run = subprocess.run([allocsim, "reproduce", "dragonfly-placement", "--quick", "--resume",
                          "-o", workdir], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        fail("resume: exit %d\n%s\n%s" % (run.returncode, run.stdout, run.stderr))
    with open(os.path.join(workdir, "dragonfly-placement.md")) as f:
        markdown = f.read()
    check_no_nan(markdown, "the resumed run without per-job tables")
    if "have no per-job table" not in markdown:
        fail("the resumed run without per-job tables does not say so")


def check_list(allocsim):
    out = subprocess.run([allocsim, "reproduce", "--list"], capture_output=True, text=True)
    if out.returncode != 0:
        fail("reproduce --list exited %d" % out.returncode)
    listed = [line.split()[0] for line in out.stdout.splitlines() if line.strip()]
    for study in STUDIES:
        if study not in listed:
            fail("%s missing from --list: %s" % (study, listed))
    bad = subprocess.run([allocsim, "reproduce", "bender-tabel1"], capture_output=True, text=True)
    if bad.returncode != 2 or "did you mean 'bender-table1'" not in bad.stderr:
        fail("unknown study: exit %d, %r" % (bad.returncode, bad.stderr))
    for study in listed:
        if study not in bad.stderr:
            fail("the error does not list %s: %r" % (study, bad.stderr))
    print("ok: %d studies listed" % len(listed))


def reference_of(c, quick):
    """The value a number is compared with, its tolerance and whether it is relative: the
    published one, or in a quick run the quick run's own reference when the row gives one."""
    if quick and c["quick_check"] == "reference":
        return c["quick_value"], c["quick_tolerance"], c["quick_relative"]
    return c["published"], c["tolerance"], c["relative"]


def expected_applicable(c, quick):
    return not quick or c["quick_check"] in ("same", "reference")


def expected_pass(c, quick):
    if not c["measured"]:
        return False
    if c["kind"] == "fact":
        return c["ours"] == 1
    reference, tolerance, relative = reference_of(c, quick)
    allowed = tolerance * (abs(reference) if relative else 1)
    return abs(c["ours"] - reference) <= allowed


def main():
    allocsim, study, needs, workdir = sys.argv[1:5]
    if study == "--list":
        check_list(allocsim)
        return
    if needs == "trace" and not os.environ.get("ALLOCSIM_TRACE_DIR"):
        print("ALLOCSIM_TRACE_DIR not set: reproduce %s --quick skipped" % study)
        sys.exit(77)
    shutil.rmtree(workdir, ignore_errors=True)
    run = subprocess.run([allocsim, "reproduce", study, "--quick", "-o", workdir],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        fail("exit %d\n%s\n%s" % (run.returncode, run.stdout, run.stderr))
    with open(os.path.join(workdir, study + ".json")) as f:
        report = json.load(f)
    with open(os.path.join(workdir, study + ".md")) as f:
        markdown = f.read()
    if report["study"] != study or not report["quick"]:
        fail("study/quick fields: %r %r" % (report["study"], report["quick"]))
    comparisons = report["comparisons"]
    if not comparisons:
        fail("no comparisons")
    measured = 0
    lines = {}
    for line in run.stdout.splitlines():
        if line.split() and line.split()[0] not in lines:
            lines[line.split()[0]] = line
    md_rows = {row.split("|")[1].strip(): row for row in markdown.splitlines()
               if row.startswith("| ") and not row.startswith("| quantity")}
    quick = report["quick"]
    checked = 0
    for c in comparisons:
        key = c["key"]
        if c["applicable"] != expected_applicable(c, quick):
            fail("%s: applicable=%r with quick_check %r" % (key, c["applicable"],
                                                            c["quick_check"]))
        if c["measured"] and c["applicable"]:
            measured += 1
        if c["measured"] and c["kind"] == "number":
            reference = reference_of(c, quick)[0]
            if c["reference"] != reference:
                fail("%s: compared with %r, expected %r" % (key, c["reference"], reference))
            if not math.isclose(c["difference"], c["ours"] - reference, rel_tol=1e-12,
                                abs_tol=1e-9):
                fail("%s: difference %r != ours - reference" % (key, c["difference"]))
        if c["applicable"]:
            checked += 1
            if c["pass"] != expected_pass(c, quick):
                fail("%s: pass=%r but the rule gives %r" % (key, c["pass"],
                                                            expected_pass(c, quick)))
        verdict = ("PASS" if c["pass"] else "FAIL") if c["applicable"] else "n/a (quick)"
        if key not in lines or not lines[key].rstrip().endswith(verdict):
            fail("%s: text table line %r does not end in %s" % (key, lines.get(key), verdict))
        if key not in md_rows or "| %s |" % verdict not in md_rows[key]:
            fail("%s: Markdown row %r lacks %s" % (key, md_rows.get(key), verdict))
        for field in ("source", "page"):
            if not c[field]:
                fail("%s: empty %s" % (key, field))
    if measured == 0:
        fail("nothing checkable was measured")
    passed = sum(c["pass"] for c in comparisons if c["applicable"])
    if report["all_pass"] != (checked > 0 and passed == checked):
        fail("all_pass %r with %d of %d checkable passing" % (report["all_pass"], passed, checked))
    if run.returncode != (0 if report["all_pass"] else 1):
        fail("exit %d but all_pass is %r" % (run.returncode, report["all_pass"]))
    # A quick run must check what it can and pass: every study marks its checkable rows.
    if quick and not report["all_pass"]:
        failed = [c["key"] for c in comparisons if c["applicable"] and not c["pass"]]
        fail("the quick run fails checks it can make: %s" % ", ".join(failed))
    if quick:
        summary = "%d of %d checkable PASS (%d n/a in a quick run)" % (
            passed, checked, len(comparisons) - checked)
    else:
        summary = "%d of %d PASS" % (passed, len(comparisons))
    if summary not in run.stdout or summary not in markdown:
        fail("'%s' missing from the text or Markdown" % summary)
    figures = report["figures"]
    if study in FIGURE_STUDIES and not figures:
        fail("no figures written")
    for figure in figures:
        for path in (figure, figure[:-len(".png")] + ".pdf"):
            full = os.path.join(workdir, path)
            if not os.path.isfile(full) or os.path.getsize(full) == 0:
                fail("figure %s missing or empty" % full)
        if "](%s)" % figure not in markdown:
            fail("figure %s not in the Markdown" % figure)
    check_no_nan(markdown, "the Markdown")
    if study == "dragonfly-placement":
        check_resume_without_job_tables(allocsim, workdir)
    print("ok: %s (%s; %d measured; %d figures)" % (study, summary, measured, len(figures)))


if __name__ == "__main__":
    main()
