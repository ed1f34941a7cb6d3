#!/usr/bin/python3
"""Tests of reports/sections/smeets_figures.py on the small fixture in reports/fixtures_smeets/
(`contactbench run smeets_figures --param samples=8`).

    /usr/bin/python3 reports/test_smeets_figures.py      (exit status non-zero on failure)
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

section = common.load_section(HERE / "sections" / "smeets_figures.py")


class Section(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_smeets_figures_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def test_figures_and_table(self):
        html = section.render(FIXTURES, self.tmp)
        self.assertEqual(sorted(p.name for p in self.tmp.glob("*.png")),
                         ["smeets_figures_delta_t.png", "smeets_figures_s1.png", "smeets_figures_s2.png"])
        for tag in ("(a) Figure S1", "(b) Figure S2", "(c) δ_t"):
            self.assertIn(tag, html)
        # the S2 table quotes the exact case's contact point (0.5, 0) and its pentagon
        self.assertIn("(0.5, 0)", html)
        self.assertIn("<td>5</td>", html)
        self.assertIn("verdict agree", html)

    def test_not_run(self):
        self.assertIn("The smeets_figures scenario was not run", section.render(self.tmp, self.tmp))

    def test_malformed_input_names_file_and_field(self):
        results = self.tmp / "results"
        shutil.copytree(FIXTURES, results)
        path = results / "run" / "smeets_figures.json"
        doc = json.loads(path.read_text())
        doc["delta_t_of_h"]["curve"]["h"].pop()
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("smeets_figures.json: delta_t_of_h.curve: expected {h: [...], delta_t: [...]} of equal lengths",
                      str(e.exception))
        doc = json.loads((FIXTURES / "run" / "smeets_figures.json").read_text())
        doc["s1"]["p"] = doc["s1"]["p"][:2]
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("s1.p: expected three [x, y, z] points", str(e.exception))


if __name__ == "__main__":
    unittest.main()
