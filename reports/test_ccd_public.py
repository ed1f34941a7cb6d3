#!/usr/bin/python3
"""Tests of reports/sections/ccd_public.py on the fixture reports/fixtures_ccd_public/run/ccd_public.json
(six queries in two folders: one fast false negative, two false positives).

    /usr/bin/python3 reports/test_ccd_public.py      (exit status non-zero on failure)
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

ccd_public = common.load_section(HERE / "sections" / "ccd_public.py")

FIXTURE = HERE / "fixtures_ccd_public"


def rows(fragment):
    """Table rows as lists of unescaped cell texts."""
    out = []
    for r in re.findall(r"<tr>(.*?)</tr>", fragment, re.S):
        out.append([html.unescape(c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)])
    return out


class CcdPublicSection(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_ccd_public_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def test_table_counts_per_folder_and_variant(self):
        page = ccd_public.render(FIXTURE, self.tmp)
        table = {(r[0], r[1]): r for r in rows(page) if len(r) == 9}
        # folder/kind, variant, queries, true, false negatives, false positives, median, mean, slowest
        self.assertEqual(table[("unit-tests/vertex-face", "fast")][2:6], ["3", "1", "0", "1"])
        self.assertEqual(table[("scene/edge-edge", "fast")][2:6], ["3", "1", "1", "1"])
        self.assertEqual(table[("all", "reference")][2:6], ["6", "2", "0", "0"])
        self.assertEqual(table[("all", "fast")][2:6], ["6", "2", "1", "2"])
        # median of 150, 50, 9000 ns and the slowest query's name
        self.assertEqual(table[("unit-tests/vertex-face", "fast")][6], "150 ns")
        self.assertIn("500 µs (scene/edge-edge/data_0_0.csv:9)", table[("all", "reference")][8])
        # a fast miss is flagged
        self.assertIn('<td class="bad">1</td>', page)

    def test_false_positives_listed_closest_first_and_plot_written(self):
        page = ccd_public.render(FIXTURE, self.tmp)
        fp = [r for r in rows(page) if len(r) == 8 and r[0] != "query"]
        self.assertEqual([r[0] for r in fp], ["scene/edge-edge/data_0_0.csv:1",
                                              "unit-tests/vertex-face/data_0_0.csv:17"])
        self.assertEqual([r[1] for r in fp], ["1e-18", "3e-17"])
        # the threshold the rule applied to each query, as check and eval print it: half of
        # 2^-38·kappa, kappa at the 2^16 cap (2^-23) and at its floor 4 (2^-37)
        self.assertEqual([r[2] for r in fp], ["1.19e-07", "7.28e-12"])
        self.assertEqual([r[7] for r in fp], ["false_positive", "false_positive"])
        self.assertNotIn('<td class="bad">1e-18</td>', page)
        self.assertTrue((self.tmp / "ccd_public_times.png").exists())
        self.assertIn('src="ccd_public_times.png"', page)

    def test_verdict_from_the_harness_marks_a_wrong_false_positive(self):
        # The section does not re-judge: a false positive the harness judged wrong is marked,
        # whatever its separation; an unknown verdict is rejected naming the field.
        results = self.tmp / "results"
        shutil.copytree(FIXTURE, results)
        path = results / "run" / "ccd_public.json"
        doc = json.loads(path.read_text())
        fp = next(q for q in doc["queries"] if q["name"] == "scene/edge-edge/data_0_0.csv:1")
        fp["verdict"] = "wrong"
        path.write_text(json.dumps(doc))
        self.assertIn('<td class="bad">1e-18</td>', ccd_public.render(results, self.tmp))
        fp["verdict"] = "maybe"
        path.write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            ccd_public.render(results, self.tmp)
        self.assertIn("verdict: expected one of", str(e.exception))

    def test_missing_input_says_so(self):
        page = ccd_public.render(self.tmp, self.tmp)
        self.assertIn("The ccd_public scenario was not run", page)
        self.assertFalse(list(self.tmp.glob("*.png")))

    def test_malformed_input_names_file_and_field(self):
        run = self.tmp / "run"
        run.mkdir()
        doc = json.loads((FIXTURE / "run" / "ccd_public.json").read_text())
        doc["queries"][2]["fast"]["hit"] = "yes"
        (run / "ccd_public.json").write_text(json.dumps(doc))
        with self.assertRaises(common.InputError) as e:
            ccd_public.render(self.tmp, self.tmp)
        self.assertIn("ccd_public.json: queries[2].fast", str(e.exception))


if __name__ == "__main__":
    unittest.main()
