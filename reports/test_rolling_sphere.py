#!/usr/bin/python3
"""Tests of reports/sections/rolling_sphere.py on the small fixture in
reports/fixtures_rolling_sphere/ (a reduced `contactbench run rolling_sphere` output).

    /usr/bin/python3 reports/test_rolling_sphere.py      (exit status non-zero on failure)
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
FIXTURES = HERE / "fixtures_rolling_sphere"

import common  # noqa: E402

section = common.load_section(HERE / "sections" / "rolling_sphere.py")


class Section(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_rolling_sphere_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def test_figures_and_tables(self):
        html = section.render(FIXTURES, self.tmp)
        pngs = sorted(p.name for p in self.tmp.glob("*.png"))
        self.assertEqual(pngs, ["rolling_sphere_force.png", "rolling_sphere_trough.png",
                                "rolling_sphere_woo_picture.png", "rolling_sphere_zone_map.png"])
        for tag in ("(a)", "(b)", "(c)", "(d)"):
            self.assertIn(tag, html)
        doc = json.loads((FIXTURES / "run" / "rolling_sphere.json").read_text())
        # the Woo caption quotes the computed resultants
        self.assertIn(f"{doc['woo_picture']['raw']['resultant'][0]:+.3g} N", html)
        self.assertEqual(html.count("<table>"), 3)
        self.assertIn("internal edges crossed", html)

    def test_not_run(self):
        html = section.render(self.tmp, self.tmp)
        self.assertIn("The rolling_sphere scenario was not run", html)

    def test_malformed_input_names_file_and_field(self):
        results = self.tmp / "results"
        shutil.copytree(FIXTURES, results)
        path = results / "run" / "rolling_sphere.json"
        doc = json.loads(path.read_text())
        doc["plane"][0]["series"]["x"] = doc["plane"][0]["series"]["x"][:-1]
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("rolling_sphere.json: plane[0].series: series of different lengths", str(e.exception))
        doc["scenario"] = "other"
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("scenario: expected 'rolling_sphere'", str(e.exception))


if __name__ == "__main__":
    unittest.main()
