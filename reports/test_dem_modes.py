#!/usr/bin/python3
"""Tests of reports/sections/dem_modes.py on the small fixture in reports/fixtures_dem_modes/
(a reduced `contactbench run rolling_sphere`, series thinned, and the concave_edge fixture).

    /usr/bin/python3 reports/test_dem_modes.py      (exit status non-zero on failure)
"""
import json
import pathlib
import shutil
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
FIXTURES = HERE / "fixtures_dem_modes"

import common  # noqa: E402

section = common.load_section(HERE / "sections" / "dem_modes.py")


class Section(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_dem_modes_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def test_table_and_figure(self):
        html = section.render(FIXTURES, self.tmp)
        self.assertEqual(sorted(p.name for p in self.tmp.glob("*.png")), ["dem_modes_comparison.png"])
        self.assertEqual(html.count("<table>"), 1)
        self.assertEqual(html.count("<tr>"), 1 + len(section.MODES))
        # the concave-edge column holds each mode's largest force jump from the run
        doc = json.loads((FIXTURES / "run" / "concave_edge.json").read_text())
        for v in doc["summary"]:
            self.assertIn(common.esc(common.fmt_sci(v["largest_force_jump"])), html)
        # the trough column is the n = 32 run
        self.assertIn("trough period error (n = 32)", html)

    def test_one_input_missing(self):
        results = self.tmp / "results"
        shutil.copytree(FIXTURES, results)
        (results / "run" / "concave_edge.json").unlink()
        html = section.render(results, self.tmp)
        self.assertIn("The concave_edge scenario was not run", html)
        self.assertIn("<table>", html)

    def test_none_run(self):
        html = section.render(self.tmp, self.tmp)
        self.assertIn("The rolling_sphere scenario was not run", html)
        self.assertNotIn("<table>", html)

    def test_malformed_input_names_file_and_field(self):
        results = self.tmp / "results"
        shutil.copytree(FIXTURES, results)
        path = results / "run" / "concave_edge.json"
        doc = json.loads(path.read_text())
        doc["summary"] = {}
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("concave_edge.json: summary: expected a list", str(e.exception))


if __name__ == "__main__":
    unittest.main()
