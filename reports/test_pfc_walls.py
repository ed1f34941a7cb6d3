#!/usr/bin/python3
"""Tests of reports/sections/pfc_walls.py on the small fixture in reports/fixtures_pfc_walls/
(`contactbench run <name> --param speed=5 --param every=50 --param reference_steps=50` for
pfc_coplanar, pfc_convex_edge, concave_edge and pfc_holes).

    /usr/bin/python3 reports/test_pfc_walls.py      (exit status non-zero on failure)
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
FIXTURES = HERE / "fixtures_pfc_walls"

import common  # noqa: E402

section = common.load_section(HERE / "sections" / "pfc_walls.py")


class Section(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_pfc_walls_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def test_figures_and_tables(self):
        html = section.render(FIXTURES, self.tmp)
        pngs = sorted(p.name for p in self.tmp.glob("*.png"))
        self.assertEqual(pngs, ["pfc_walls_concave_edge.png", "pfc_walls_convex_edge.png",
                                "pfc_walls_coplanar.png", "pfc_walls_holes.png"])
        for tag in ("(a)", "(b)", "(c)", "(d)"):
            self.assertIn(tag, html)
        # the coplanar caption quotes the computed full-mode shear difference
        doc = json.loads((FIXTURES / "run" / "pfc_coplanar.json").read_text())
        full = [v for v in doc["versus_one_facet"] if v["mode"] == "pfc_full"][0]
        self.assertIn(f"max difference {full['max_shear_difference']:.2g} N", html)
        # the agreement table has one row per run of the four scenarios
        runs = sum(len(json.loads((FIXTURES / "run" / f"{s}.json").read_text())["runs"])
                   for s in section.SCENARIOS)
        self.assertEqual(html.count("<table>"), 2)
        self.assertEqual(html.count("<tr>"), 1 + runs + 1 + 5)  # agreement + concave summary

    def test_one_scenario_missing(self):
        results = self.tmp / "results"
        shutil.copytree(FIXTURES, results)
        (results / "run" / "pfc_holes.json").unlink()
        out = self.tmp / "out"
        out.mkdir()
        html = section.render(results, out)
        self.assertIn("The pfc_holes scenario was not run", html)
        self.assertIn("pfc_walls_concave_edge.png", html)
        self.assertFalse((out / "pfc_walls_holes.png").exists())

    def test_malformed_input_names_file_and_field(self):
        results = self.tmp / "results"
        shutil.copytree(FIXTURES, results)
        path = results / "run" / "concave_edge.json"
        doc = json.loads(path.read_text())
        doc["runs"][1]["series"]["fx"] = doc["runs"][1]["series"]["fx"][:-1]
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("concave_edge.json: runs[1].series: series of different lengths", str(e.exception))
        doc["scenario"] = "other"
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("scenario: expected 'concave_edge'", str(e.exception))


if __name__ == "__main__":
    unittest.main()
