#!/usr/bin/python3
"""Tests of reports/sections/pfc_static.py on the small fixture in reports/fixtures_pfc_static/
(`contactbench run pfc_static --param cells=12 --param thetas=0,5,10,20,180` and a short
`contactbench_bench --benchmark_filter=pfc_resolution/...` run).

    /usr/bin/python3 reports/test_pfc_static.py      (exit status non-zero on failure)
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
FIXTURES = HERE / "fixtures_pfc_static"

import common  # noqa: E402

section = common.load_section(HERE / "sections" / "pfc_static.py")


class Section(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_pfc_static_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def test_figures_and_tables(self):
        html = section.render(FIXTURES, self.tmp)
        pngs = sorted(p.name for p in self.tmp.glob("*.png"))
        self.assertEqual(pngs, ["pfc_static_cost.png", "pfc_static_rough_wall.png",
                                "pfc_static_rough_wall_map.png", "pfc_static_slivers.png"])
        doc = json.loads((FIXTURES / "run" / "pfc_static.json").read_text())
        rows = doc["rough_wall"]["rows"]
        # the Figure 7 caption quotes the computed counts at the first and last Θ
        self.assertIn(f"keeps {rows[0]['reduced']['active']} active contacts", html)
        self.assertIn(f"down to {rows[-1]['reduced']['effective']} at Θ = {rows[-1]['theta_deg']}°", html)
        # Figure 8: reduced -> full counts from the contacts
        self.assertIn("wedge 2 → 1", html)
        self.assertIn("segments 3 → 1", html)
        # tables: Θ rows, per-k cost, the family's query sets
        self.assertEqual(html.count("<table>"), 3)
        self.assertIn("<td>64</td>", html)
        self.assertIn("<td>random</td>", html)

    def test_without_bench(self):
        results = self.tmp / "results"
        shutil.copytree(FIXTURES / "run", results / "run")
        html = section.render(results, self.tmp)
        self.assertIn("bench.json not found", html)

    def test_not_run(self):
        html = section.render(self.tmp, self.tmp)
        self.assertIn("The pfc_static scenario was not run", html)

    def test_malformed_input_names_file_and_field(self):
        results = self.tmp / "results"
        shutil.copytree(FIXTURES, results)
        path = results / "run" / "pfc_static.json"
        doc = json.loads(path.read_text())
        del doc["rough_wall"]["rows"][1]["full"]["k_eff"]
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("pfc_static.json: rough_wall.rows[1].full: expected numbers", str(e.exception))
        doc["scenario"] = "other"
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("scenario: expected 'pfc_static'", str(e.exception))


if __name__ == "__main__":
    unittest.main()
