#!/usr/bin/python3
"""Tests of reports/sections/ellipsoid_pour.py on the small fixture in
reports/fixtures_ellipsoid_pour/ (`contactbench run ellipsoid_pour --param N=120 --param
steps=500 --param certify_every=25 --param ref_n=30 --param ref_steps=60 --param
scaling=50,100,200 --param scaling_steps=200`).

    /usr/bin/python3 reports/test_ellipsoid_pour.py      (exit status non-zero on failure)
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
FIXTURES = HERE / "fixtures_ellipsoid_pour"

import common  # noqa: E402

section = common.load_section(HERE / "sections" / "ellipsoid_pour.py")

FIGURES = ["ellipsoid_pour_cost.png", "ellipsoid_pour_counts.png", "ellipsoid_pour_frames.png",
           "ellipsoid_pour_phases.png", "ellipsoid_pour_trajectory.png"]


class Section(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # one render of the fixture, shared by the read-only assertions (3D frames take seconds)
        cls.out = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_pour_out_"))
        cls.html = section.render(FIXTURES, cls.out)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, ignore_errors=True)

    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_pour_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.doc = json.loads((FIXTURES / "run" / "ellipsoid_pour.json").read_text())

    def results_copy(self):
        dst = self.tmp / "results"
        shutil.copytree(FIXTURES, dst)
        return dst

    def test_figures_and_captions(self):
        html = self.html
        self.assertEqual(sorted(p.name for p in self.out.glob("*.png")), FIGURES)
        for png in self.out.glob("*.png"):
            self.assertGreater(png.stat().st_size, 5000, png.name)
        self.assertEqual(html.count("<figure>"), len(FIGURES))
        self.assertEqual(html.count("<figcaption>"), len(FIGURES))

    def test_paper_table_from_the_run(self):
        html = self.html
        self.assertEqual(len(self.doc["table"]), 6)
        for r in self.doc["table"]:
            self.assertIn(f"<td>{r['step']}</td><td>{r['t']:.3f}</td><td>{r['colliding']}</td>"
                          f"<td>{r['contacts']}</td><td>{r['active']}</td><td>{r['ms_per_step']:.3f}</td>", html)

    def test_certification_and_trajectory(self):
        html = self.html
        c = self.doc["certification"]
        self.assertEqual(c["wrong"], 0)
        self.assertIn(f"<td>{c['steps']}</td><td>{c['queries']}</td><td>{c['agree']}</td>"
                      f"<td>{c['boundary']}</td><td>0</td>", html)
        self.assertIn(f"Reference-kernel trajectory (N = {self.doc['trajectory']['N']}", html)

    def test_scaling_table(self):
        html = self.html
        for r in self.doc["scaling"]["rows"]:
            self.assertIn(f"<td>{r['N']}</td><td>{r['contacts']:.0f}</td><td>{r['ms_per_step']:.3f}</td>", html)

    def test_fast_only_run_says_so(self):
        results = self.results_copy()
        path = results / "run" / "ellipsoid_pour.json"
        doc = json.loads(path.read_text())
        del doc["certification"], doc["trajectory"]
        path.write_text(json.dumps(doc))
        html = section.render(results, self.tmp)
        self.assertIn("No certification in this run", html)
        self.assertNotIn("ellipsoid_pour_trajectory.png", html)

    def test_not_run(self):
        html = section.render(self.tmp, self.tmp)
        self.assertIn("The ellipsoid_pour scenario was not run", html)

    def test_malformed_input_names_file_and_field(self):
        results = self.results_copy()
        path = results / "run" / "ellipsoid_pour.json"
        doc = json.loads(path.read_text())
        doc["series"]["contacts"] = doc["series"]["contacts"][:-1]
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        n = len(self.doc["series"]["t"])
        self.assertIn(f"ellipsoid_pour.json: series.contacts: expected {n} numbers, got {n - 1}", str(e.exception))
        doc = json.loads((FIXTURES / "run" / "ellipsoid_pour.json").read_text())
        doc["scenario"] = "other"
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("scenario: expected 'ellipsoid_pour'", str(e.exception))


if __name__ == "__main__":
    unittest.main()
