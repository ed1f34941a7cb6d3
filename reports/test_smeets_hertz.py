#!/usr/bin/python3
"""Tests of reports/sections/smeets_hertz.py on the small fixture in reports/fixtures_smeets/
(`contactbench run smeets_hertz --param max_level=2 --param spot_checks=4`).

    /usr/bin/python3 reports/test_smeets_hertz.py      (exit status non-zero on failure)
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
FIXTURES = HERE / "fixtures_smeets"

import common  # noqa: E402

section = common.load_section(HERE / "sections" / "smeets_hertz.py")


class Section(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_smeets_hertz_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def test_figure_and_tables(self):
        html = section.render(FIXTURES, self.tmp)
        self.assertEqual([p.name for p in self.tmp.glob("*.png")], ["smeets_hertz_convergence.png"])
        doc = json.loads((FIXTURES / "run" / "smeets_hertz.json").read_text())
        # the convergence table: one row per mesh plus the law's limit, one column per overlap
        self.assertEqual(html.count("<table>"), 2)
        for r in doc["rows"]:
            self.assertIn(f"{r['error_hertz']:+.3e}", html)
        for t in (20, 80, 320):
            self.assertIn(f"<td>{t}</td>", html)
        self.assertIn("limit of the law", html)
        self.assertIn("Spot checks", html)

    def test_fast_only_run_says_so(self):
        results = self.tmp / "results"
        shutil.copytree(FIXTURES, results)
        path = results / "run" / "smeets_hertz.json"
        doc = json.loads(path.read_text())
        doc["spot_checks"] = []
        path.write_text(json.dumps(doc))
        self.assertIn("No reference spot checks", section.render(results, self.tmp))

    def test_not_run(self):
        self.assertIn("The smeets_hertz scenario was not run", section.render(self.tmp, self.tmp))

    def test_malformed_input_names_file_and_field(self):
        results = self.tmp / "results"
        shutil.copytree(FIXTURES, results)
        path = results / "run" / "smeets_hertz.json"
        doc = json.loads(path.read_text())
        doc["rows"][1]["force"] = "big"
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("smeets_hertz.json: rows[1].force: expected a number, got 'big'", str(e.exception))


if __name__ == "__main__":
    unittest.main()
