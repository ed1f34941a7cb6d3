#!/usr/bin/python3
"""Tests of reports/sections/ellipsoid_contact.py on reports/fixtures_ellipsoid_contact/ (a
slide of two panels, seven points, whose differing states are counted by hand below, and a
check.json with 8 near-touching queries per method).

    /usr/bin/python3 reports/test_ellipsoid_contact.py      (exit status non-zero on failure)
"""
import html
import json
import pathlib
import re
import shutil
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import common  # noqa: E402

section = common.load_section(HERE / "sections" / "ellipsoid_contact.py")
FIXTURE = HERE / "fixtures_ellipsoid_contact"


def rows(fragment):
    out = []
    for r in re.findall(r"<tr>(.*?)</tr>", fragment, re.S):
        out.append([html.unescape(c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)])
    return out


class EllipsoidContactSection(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_ellipsoid_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def test_counts_figures_and_rates(self):
        page = section.render(FIXTURE, self.tmp)
        table = {r[0]: r for r in rows(page)}
        # identical panel: shortcut differs on all 4, FCL on 2 (the -0.9 and -0.8 points), fast on none
        self.assertEqual(table["identical shapes, equal orientation"][1:], ["4", "0", "4", "2"])
        # different shapes: fast and the shortcut differ at the 1e-15 point only, FCL nowhere
        self.assertEqual(table["different shapes"][1:], ["3", "1", "1", "0"])
        # near-touching wrong rates: 4 of 8 for the shortcut, 2 of 8 for FCL; check medians as times
        self.assertEqual(table["shortcut"][1:], ["130 ns (check median)", "50 %", "8"])
        self.assertEqual(table["fcl"][1:], ["800 ns (check median)", "25 %", "8"])
        self.assertEqual(table["reference"][2], "0 %")
        for png in ("ellipsoid_contact_slide.png", "ellipsoid_contact_speed_accuracy.png"):
            self.assertTrue((self.tmp / png).stat().st_size > 0, png)

    def test_missing_slide_says_how_to_make_it(self):
        res = self.tmp / "res"
        res.mkdir()
        shutil.copy(FIXTURE / "check.json", res)
        page = section.render(res, self.tmp)
        self.assertIn("reports/sections/ellipsoid_contact.py --results", page)
        self.assertIn("ellipsoid_contact_speed_accuracy.png", page)

    def test_malformed_point_names_the_field(self):
        res = self.tmp / "res"
        shutil.copytree(FIXTURE, res)
        path = res / "run" / "ellipsoid_contact.json"
        doc = json.loads(path.read_text())
        doc["panels"][0]["points"][1]["fcl"] = "colliding"
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            section.render(res, self.tmp)
        self.assertIn("panels[0].points[1]", str(e.exception))


if __name__ == "__main__":
    unittest.main()
