#!/usr/bin/python3
"""Tests of reports/sections/square_drop.py on the small fixtures in
reports/fixtures_square_drop/: run/square_drop.json (`contactbench run square_drop --param
n_seg=2 --param steps=50`: both runs, not yet at rest) and bench.json (square_drop entries
in Google Benchmark format, a median aggregate for n_seg = 4).

    /usr/bin/python3 reports/test_square_drop.py      (exit status non-zero on failure)
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
FIXTURES = HERE / "fixtures_square_drop"

import common  # noqa: E402

section = common.load_section(HERE / "sections" / "square_drop.py")

FIGURES = ["square_drop_agreement.png", "square_drop_cost.png", "square_drop_energies.png",
           "square_drop_key_frames.png", "square_drop_min_height.png", "square_drop_newton.png"]


class Section(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_sd_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.doc = json.loads((FIXTURES / "run" / "square_drop.json").read_text())

    def results_copy(self):
        dst = self.tmp / "results"
        shutil.copytree(FIXTURES, dst)
        return dst

    def test_figures_and_captions(self):
        html = section.render(FIXTURES, self.tmp)
        self.assertEqual(sorted(p.name for p in self.tmp.glob("*.png")), FIGURES)
        for png in self.tmp.glob("*.png"):
            self.assertGreater(png.stat().st_size, 5000, png.name)
        self.assertEqual(html.count("<figure>"), len(FIGURES))
        self.assertEqual(html.count("<figcaption>"), len(FIGURES))

    def test_key_frames_from_the_run(self):
        html = section.render(FIXTURES, self.tmp)
        kf = self.doc["runs"]["fast"]["key_frames"]
        self.assertIn(f"<td>first within d̂ of the ground</td><td>{kf['first_within_dhat']}</td>", html)
        # maximum compression is the most deformed state, not the first contact: the smallest
        # height of the square (highest minus lowest node), shown in metres
        k = kf["max_compression"]
        heights = [max(x[1::2]) - min(x[1::2]) for x in self.doc["runs"]["fast"]["x"]]
        self.assertGreater(k, kf["first_within_dhat"])
        self.assertEqual(heights[k], min(heights))
        self.assertIn(f"<td>maximum compression (smallest bounding-box height)</td><td>{k}</td>"
                      f"<td>{k * 0.01:.2f}</td><td>{heights[k]:.4f}</td>", html)
        self.assertIn(f"at maximum compression the 1 m square is {heights[k]:.3f} m high", html)
        # 50 steps are not enough to come to rest: said so, not drawn
        self.assertEqual(kf["at_rest"], -1)
        self.assertIn("<td>at rest</td><td>not reached</td>", html)
        self.assertIn("not reached in this run: at rest", html)

    def test_agreement_and_smallest_height(self):
        html = section.render(FIXTURES, self.tmp)
        self.assertIn("the two runs take the same number in every step", html)
        lowest = min(min(r["min_height"]) for r in self.doc["runs"].values())
        self.assertIn(f"{lowest * 1000:.3f} mm &gt; 0", html)
        self.assertIn("<td>agree</td>", html)

    def test_verdict_read_from_the_scenario(self):
        results = self.results_copy()
        path = results / "run" / "square_drop.json"
        doc = json.loads(path.read_text())
        doc["comparison"]["within_bound"] = False
        path.write_text(json.dumps(doc))
        html = section.render(results, self.tmp)
        self.assertIn('<td class="bad">DISAGREE</td>', html)
        self.assertIn("the scenario judges them beyond the bound 1e-12 m", html)
        self.assertNotIn("stay within", html)

    def test_cost_from_bench_median(self):
        html = section.render(FIXTURES, self.tmp)
        # the median aggregate wins over the mean: 9.91905e-06 s
        self.assertIn("9.92 µs per step for n_seg = 4", html)

    def test_cost_falls_back_to_scenario_timings(self):
        results = self.results_copy()
        (results / "bench.json").unlink()
        html = section.render(results, self.tmp)
        self.assertIn("the scenario&#x27;s own step timings", html)

    def test_not_run(self):
        html = section.render(self.tmp, self.tmp)
        self.assertIn("The square_drop scenario was not run", html)

    def test_malformed_input_names_file_and_field(self):
        results = self.results_copy()
        path = results / "run" / "square_drop.json"
        doc = json.loads(path.read_text())
        doc["runs"]["reference"]["min_height"] = doc["runs"]["reference"]["min_height"][:-1]
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("square_drop.json: runs.reference.min_height: expected 51 numbers", str(e.exception))
        doc = json.loads((FIXTURES / "run" / "square_drop.json").read_text())
        doc["scenario"] = "other"
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(results, self.tmp)
        self.assertIn("scenario: expected 'square_drop'", str(e.exception))


if __name__ == "__main__":
    unittest.main()
