#!/usr/bin/python3
"""Tests of reports/report.py on the small fixture files in reports/fixtures/.

    /usr/bin/python3 reports/test_report.py      (exit status non-zero on failure)
"""
import html
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
REPORT = HERE / "report.py"
FIXTURES = HERE / "fixtures"


def run_report(results, out, *extra):
    p = subprocess.run([sys.executable, str(REPORT), "--results", str(results), "--out", str(out),
                        *extra], capture_output=True, text=True, timeout=300)
    return p


def scenario_section(page, scenario):
    """The part of the page the section plugin of `scenario` wrote."""
    return page.split(f'<h3 id="scenario-{scenario}">')[1].split("</section>")[0]


class Tmp(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_report_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def results_copy(self):
        """A writable copy of the fixtures (to break one file at a time)."""
        dst = self.tmp / "results"
        shutil.copytree(FIXTURES, dst)
        return dst


class FullReport(unittest.TestCase):
    """One report on the complete fixtures, shared by the assertions below."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_report_"))
        cls.out = cls.tmp / "out"
        cls.proc = run_report(FIXTURES, cls.out)
        index = cls.out / "index.html"
        cls.page = index.read_text(encoding="utf-8") if index.exists() else ""

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_exit_code_zero(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)

    def test_context(self):
        for text in ("a286f61", "GNU 12.2.0", "5.5.1", "2026-11-21T20:00:00Z"):
            self.assertIn(text, self.page)

    def summary_row(self, family):
        m = re.search(r"<tr><td>" + family + r"</td>.*?</tr>", self.page)
        self.assertIsNotNone(m, f"no summary row for {family}")
        return re.findall(r"<td[^>]*>(.*?)</td>", m.group(0)), m.group(0)

    def test_summary_counts(self):
        cells, _ = self.summary_row("closest_feature")
        self.assertEqual(cells[1:7], ["approximate", "10000", "9961", "37", "0", "2"])
        cells, _ = self.summary_row("ccd_ground")
        self.assertEqual(cells[1:7], ["conservative", "2000", "1995", "0", "5", "0"])

    def test_wrong_highlighted_only_when_nonzero(self):
        _, row = self.summary_row("closest_feature")
        self.assertIn('<td class="bad">2</td>', row)
        _, row = self.summary_row("ccd_ground")
        self.assertNotIn('class="bad">0<', row)

    def test_largest_error_vs_bound(self):
        _, row = self.summary_row("closest_feature")
        self.assertIn("closest_point: 2.3e-13 / 1e-14", row)
        self.assertIn("(over bound)", row)   # the fixture's closest_point max exceeds its bound
        self.assertIn("squared_distance_ulp: 6 / 8 ULPs", row)
        _, row = self.summary_row("ccd_ground")
        self.assertNotIn("over bound", row)

    def test_speed_ratios(self):
        _, row = self.summary_row("closest_feature")
        # random case, median aggregates 1000 ns / 25 ns (the means would give 39×) and 45 / 25
        self.assertIn("random: fast 40× faster than reference", row)
        self.assertIn("fast 1.8× faster than cgal_epick", row)
        _, row = self.summary_row("ccd_ground")
        self.assertIn("<td>—</td>", row)  # no benchmark for this family

    def test_certified_throughput(self):
        # closest_feature: 10,000 queries in 0.4 s CPU and 0.25 s wall -> 25,000 per CPU-second,
        # 2,400,000 per wall minute; ccd_ground has no check time and no row.
        table = self.page.split("Certified queries per second")[1].split("</table>")[0]
        row = re.search(r"<tr><td>closest_feature</td>.*?</tr>", table).group(0)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        self.assertEqual(cells[1:5], ["10,000", "0.4", "25,000", "2,400,000"])
        self.assertIn("fast 40× faster than reference", cells[5])
        self.assertNotIn("ccd_ground", table)

    def test_speed_chart_and_units(self):
        self.assertIn('src="speed.png"', self.page)
        # CPU time, time_unit converted: the boundary reference counts items (238,095 a
        # second: 4.2 µs each) against 30.3 ns of CPU for fast, 139×
        self.assertIn("<td>closest_feature/boundary</td><td>reference</td><td>4.2 µs</td>"
                      "<td>fast 139× faster than reference</td>", self.page)
        self.assertIn("<td>fast 2.0× faster than cgal_epick</td>", self.page)
        # one unit per chart: square_drop (a scenario section, not a family) is timed per step
        # in a chart of its own, 12.625 ms against 0.2525 ms of CPU
        self.assertIn('src="speed_per_step.png"', self.page)
        self.assertIn("<th>CPU time per query</th>", self.page)
        self.assertIn("<th>CPU time per time step</th>", self.page)
        per_step = self.page.split('src="speed_per_step.png"')[1]
        self.assertIn("<td>square_drop/n_seg=4</td><td>reference</td><td>12.6 ms</td>"
                      "<td>fast 50× faster than reference</td>", per_step)
        self.assertNotIn("<td>square_drop/", self.page.split('src="speed_per_step.png"')[0])
        # an entry with error_occurred is skipped and said so
        self.assertIn("closest_feature/degenerate/fast: skipped", self.page)

    def test_figures_exist_and_nonempty(self):
        srcs = re.findall(r'<img src="([^"]+)"', self.page)
        self.assertEqual(sorted(srcs), sorted(["errors_closest_feature.png", "errors_ccd_ground.png",
                                               "speed.png", "speed_per_step.png",
                                               "closest_feature_regions.png"]))
        for src in srcs:
            png = self.out / src
            self.assertTrue(png.is_file(), src)
            self.assertGreater(png.stat().st_size, 5000, src)
            self.assertEqual(png.read_bytes()[:8], b"\x89PNG\r\n\x1a\n", src)

    def test_every_figure_has_a_caption(self):
        figures = re.findall(r"<figure>.*?</figure>", self.page)
        self.assertEqual(len(figures), 5)
        for f in figures:
            self.assertRegex(f, r"<figcaption>[^<]{20,}</figcaption>")

    def test_error_caption_names_offending_field(self):
        self.assertIn("closest_point crosses its dashed bound line: its largest error is 23×", self.page)
        self.assertIn("the closest call is toi at 0.2 of its bound", self.page)

    def test_by_source_and_examples(self):
        self.assertIn("<td>degenerate</td><td>4980</td><td>4945</td><td>35</td>", self.page)
        self.assertIn("margin 0.42 &gt; bound 8.9e-16", self.page)  # a wrong example's detail
        self.assertIn("fast step 0.979 &lt; exact safe step 1", self.page)  # a false positive

    def test_closest_feature_section(self):
        fixture = json.loads((FIXTURES / "run" / "closest_feature_regions.json").read_text())
        n = sum(q["reference"] != q["fast"] for q in fixture["queries"])
        self.assertEqual(n, 4)
        self.assertIn(f"the {n} queries a plain double labels differently from the exact reference "
                      "all lie on region boundaries", self.page)
        # the table shows the family's verdicts, not a margin/bound comparison of its own
        section = scenario_section(self.page, "closest_feature_regions")
        self.assertEqual(section.count("<td>boundary</td>"), n)
        self.assertNotIn("<td>agree</td>", section)

    def test_anchors_keyed_by_stem_and_scenario(self):
        # summary first, one section per family and per scenario (every plugin in
        # reports/sections), the run context last
        ids = re.findall(r'<h[23] id="([^"]+)"', self.page)
        scenarios = sorted(p.stem for p in (HERE / "sections").glob("*.py") if not p.name.startswith("_"))
        self.assertEqual(ids, ["summary", "families", "family-closest_feature", "family-ccd_ground",
                               "mutation", "speed", "scenarios"]
                         + [f"scenario-{s}" for s in scenarios] + ["context"])
        self.assertIn("scenario-square_drop", ids)

    def test_table_of_contents_links_every_section(self):
        nav = self.page.split('<nav id="contents">')[1].split("</nav>")[0]
        links = re.findall(r'<a href="#([^"]+)">', nav)
        ids = set(re.findall(r' id="([^"]+)"', self.page))
        self.assertEqual(sorted(links), sorted(i for i in ids if i != "contents"))
        self.assertLess(self.page.index('<nav id="contents">'), self.page.index('id="summary"'))

    def test_headline_says_whether_the_gate_passes(self):
        # fixture: closest_feature 10000 queries with 2 wrong, ccd_ground 2000 with none
        self.assertIn('<p class="bad-line">2 families checked on 12,000 queries: ', self.page)
        self.assertIn("2 wrong. The gate FAILS: wrong answers in closest_feature.", self.page)

    def test_long_tables_folded(self):
        for table in re.findall(r"<table>.*?</table>", self.page, re.S):
            rows = table.count("<tr>") - 1
            if rows > 15:
                before = self.page[:self.page.index(table)]
                self.assertTrue(before.rstrip().endswith("click to show</summary>"), table[:200])

    def test_regime_table(self):
        self.assertIn("By regime of the generated queries", self.page)
        self.assertIn("<tr><td>shape</td><td>needle</td><td>3000</td><td>2960</td><td>38</td>"
                      "<td>0</td><td class=\"bad\">2</td><td>0</td></tr>", self.page)
        self.assertIn("<tr><td>scale</td><td>1e-3</td><td>9960</td>", self.page)
        # out-of-domain queries have their own column, in the summary too
        self.assertIn("<td class=\"bad\">2</td><td>30</td></tr>", self.page)
        self.assertIn("<th>out of domain</th>", self.page)

    def test_coverage_table_flags_unreached(self):
        self.assertIn("<tr><td>region</td><td>edge0</td><td>1200</td><td>310</td><td>322</td></tr>",
                      self.page)
        self.assertIn('<td class="bad">region=vertex2: no query reached it</td>', self.page)
        self.assertIn("Not reached, by design: region=vertex1: fixture explanation", self.page)

    def test_mutation_score(self):
        # planted faults are not families of the summary, but rows of the mutation section
        self.assertNotIn("<tr><td>closest_feature_planted_vertex_snap</td><td>approximate", self.page)
        self.assertIn('<tr><td>closest_feature</td><td class="bad">1/2</td></tr>', self.page)
        self.assertIn("<td>found</td><td>42</td><td>random 30, degenerate 12</td>"
                      "<td>shape=needle 42</td>", self.page)
        self.assertIn('<td class="bad">survived</td><td>0</td><td>—</td><td>—</td>', self.page)


class Failures(Tmp):
    def report_with_plugin(self, name, body):
        """The report on the fixtures with closest_feature_regions and one plugin `name`
        whose render() runs `body`: (process, page)."""
        sections = self.tmp / "sections"
        sections.mkdir()
        shutil.copy(HERE / "sections" / "closest_feature_regions.py", sections)
        (sections / f"{name}.py").write_text(f"def render(results_dir, out_dir):\n    {body}\n")
        p = run_report(FIXTURES, self.tmp / "out", "--sections", str(sections))
        return p, (self.tmp / "out" / "index.html").read_text(encoding="utf-8")

    def test_failing_plugin_is_reported_and_exit_nonzero(self):
        p, page = self.report_with_plugin("broken", "raise RuntimeError('planted plugin failure')")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertRegex(page, r'<p class="error">section broken .*RuntimeError: planted plugin failure</p>')
        # the rest of the report is still there, including the plugin after the broken one
        self.assertIn("closest_feature", page)
        self.assertIn("the 4 queries a plain double labels differently", page)
        self.assertIn("planted plugin failure", p.stderr)

    def test_new_section_joins_the_contents(self):
        # a section plugin added to the folder (as ellipsoid_pour will be) gets its own section
        # and a link in the table of contents, with no list kept by hand
        p, page = self.report_with_plugin("a_new_scenario", "return '<p>new section body</p>'")
        self.assertEqual(p.returncode, 0, p.stderr)
        nav = page.split('<nav id="contents">')[1].split("</nav>")[0]
        self.assertIn('<a href="#scenario-a_new_scenario">a_new_scenario</a>', nav)
        self.assertIn('<a href="#scenario-closest_feature_regions">closest_feature_regions</a>', nav)
        self.assertIn("<p>new section body</p>", scenario_section(page, "a_new_scenario"))

    def test_published_method_shown_not_failed(self):
        # A published method (check.json: gated false, published_method_of) is a summary row of
        # its own, labelled as such, its `wrong` count shown but not marked as a failure.
        results = self.results_copy()
        path = results / "check.json"
        doc = json.loads(path.read_text())
        fam = json.loads(json.dumps(doc["families"][0]))
        fam.update(family=fam["family"] + "_published_book", gated=False,
                   published_method_of=fam["family"], wrong=7)
        doc["families"].append(fam)
        path.write_text(json.dumps(doc))
        p = run_report(results, self.tmp / "out")
        self.assertEqual(p.returncode, 0, p.stderr)
        page = (self.tmp / "out" / "index.html").read_text(encoding="utf-8")
        self.assertIn(f"(published method of {doc['families'][0]['family']}, not gated)", page)
        self.assertIn("<td>7</td>", page)
        self.assertNotIn('<td class="bad">7</td>', page)
        # ... and a wrong-rate table by input class beside the family's own variant.
        self.assertIn("Published methods: wrong rates by input class", page)
        own = doc["families"][0]
        tag, c = next(iter(sorted(own["by_regime"].items())))
        judged = c["queries"] - c.get("out_of_domain", 0)
        if judged > 0:
            self.assertIn(f'{c["wrong"]:,} / {judged:,} ({100.0 * c["wrong"] / judged:.1f}%)', page)

    def test_missing_inputs_say_what_is_missing(self):
        results = self.tmp / "empty"
        results.mkdir()
        p = run_report(results, self.tmp / "out")
        self.assertEqual(p.returncode, 0, p.stderr)
        page = (self.tmp / "out" / "index.html").read_text(encoding="utf-8")
        self.assertIn("check.json not found", page)
        self.assertIn("bench.json not found", page)
        for scenario in ("ccd_public", "closest_feature_regions", "rolling_sphere", "square_drop"):
            self.assertIn(f"The {scenario} scenario was not run", page)
        self.assertNotIn("Traceback", p.stderr)

    def test_missing_results_directory(self):
        p = run_report(self.tmp / "does_not_exist", self.tmp / "out")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("check.json not found", (self.tmp / "out" / "index.html").read_text())

    def assert_one_error_line(self, p, path, fragment):
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn(str(path), lines[0])
        self.assertIn(fragment, lines[0])
        self.assertFalse((self.tmp / "out" / "index.html").exists())

    def test_truncated_check_json(self):
        results = self.results_copy()
        path = results / "check.json"
        path.write_text(path.read_text()[:500])
        self.assert_one_error_line(run_report(results, self.tmp / "out"), path, "line ")

    def test_wrong_schema_and_types(self):
        results = self.results_copy()
        path = results / "check.json"
        doc = json.loads(path.read_text())
        doc["schema"] = "contactbench.check/0"
        path.write_text(json.dumps(doc))
        self.assert_one_error_line(run_report(results, self.tmp / "out"), path, "schema")
        doc["schema"] = "contactbench.check/1"
        doc["families"][1]["wrong"] = "none"
        path.write_text(json.dumps(doc))
        self.assert_one_error_line(run_report(results, self.tmp / "out"), path,
                                   "families[1] (ccd_ground).wrong")

    def test_bad_check_seconds(self):
        results = self.results_copy()
        path = results / "check.json"
        doc = json.loads(path.read_text())
        doc["families"][0]["check_seconds"]["cpu"] = -1
        path.write_text(json.dumps(doc))
        self.assert_one_error_line(run_report(results, self.tmp / "out"), path,
                                   "families[0] (closest_feature).check_seconds.cpu")

    def test_malformed_bench_json(self):
        results = self.results_copy()
        path = results / "bench.json"
        doc = json.loads(path.read_text())
        doc["benchmarks"][0]["time_unit"] = "fortnights"
        path.write_text(json.dumps(doc))
        self.assert_one_error_line(run_report(results, self.tmp / "out"), path, "time_unit")

    def test_stale_page_removed_on_bad_input(self):
        out = self.tmp / "out"
        self.assertEqual(run_report(FIXTURES, out).returncode, 0)
        results = self.results_copy()
        (results / "check.json").write_text("{")
        self.assertEqual(run_report(results, out).returncode, 2)
        self.assertFalse((out / "index.html").exists())

    def test_malformed_run_file_fails_its_section(self):
        results = self.results_copy()
        path = results / "run" / "closest_feature_regions.json"
        doc = json.loads(path.read_text())
        doc["triangle"] = doc["triangle"][:2]
        path.write_text(json.dumps(doc))
        p = run_report(results, self.tmp / "out")
        self.assertEqual(p.returncode, 1, p.stderr)
        page = (self.tmp / "out" / "index.html").read_text(encoding="utf-8")
        self.assertIn("closest_feature_regions.json: triangle: expected three [x, y] points", page)

    def test_off_boundary_disagreement_is_not_called_boundary(self):
        results = self.results_copy()
        path = results / "run" / "closest_feature_regions.json"
        doc = json.loads(path.read_text())
        doc["queries"].append({"p": [1.0, 1.0, 0.5], "reference": "face", "fast": "edge1",
                               "margin": 0.3, "bound": 8.9e-16, "verdict": "wrong"})
        path.write_text(json.dumps(doc))
        p = run_report(results, self.tmp / "out")
        self.assertEqual(p.returncode, 0, p.stderr)
        page = (self.tmp / "out" / "index.html").read_text(encoding="utf-8")
        self.assertIn("5 queries are labelled differently by a plain double; 1 of them lie off "
                      "the region boundaries", page)
        self.assertNotIn("all lie on region boundaries", page)
        section = scenario_section(page, "closest_feature_regions")
        self.assertEqual(section.count('<td class="bad">wrong</td>'), 1)
        # a query the family judges wrong is listed even when both labels are the same
        doc["queries"].append({"p": [0.5, 0.5, 2.0], "reference": "face", "fast": "face",
                               "margin": 0.5, "bound": 8.9e-16, "verdict": "wrong"})
        path.write_text(json.dumps(doc))
        p = run_report(results, self.tmp / "out")
        page = (self.tmp / "out" / "index.html").read_text(encoding="utf-8")
        self.assertIn("; 1 queries with the same label are judged wrong (listed below)", page)
        section = scenario_section(page, "closest_feature_regions")
        self.assertEqual(section.count('<td class="bad">wrong</td>'), 2)

    def test_query_without_valid_verdict_fails_its_section(self):
        results = self.results_copy()
        path = results / "run" / "closest_feature_regions.json"
        doc = json.loads(path.read_text())
        for i, verdict in ((3, None), (5, "maybe")):
            if verdict is None:
                del doc["queries"][i]["verdict"]
            else:
                doc["queries"][i]["verdict"] = verdict
            path.write_text(json.dumps(doc))
            p = run_report(results, self.tmp / "out")
            self.assertEqual(p.returncode, 1, p.stderr)
            page = (self.tmp / "out" / "index.html").read_text(encoding="utf-8")
            self.assertIn(f"closest_feature_regions.json: queries[{i}].verdict: expected one of "
                          f"agree, boundary, wrong, got {verdict!r}", html.unescape(page))
            doc["queries"][i]["verdict"] = "agree"


if __name__ == "__main__":
    unittest.main(verbosity=2)
