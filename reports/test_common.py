#!/usr/bin/python3
"""Tests of the helpers every section shares (reports/common.py): the one bench.json reader
and the one reader of a scenario's output with its "scenario not run" paragraph.

    /usr/bin/python3 reports/test_common.py      (exit status non-zero on failure)
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

import common  # noqa: E402


def entry(name, real_time, unit="ns", **extra):
    return {"name": name, "run_name": name, "run_type": "iteration", "iterations": 10,
            "real_time": real_time, "cpu_time": real_time, "time_unit": unit, **extra}


class BenchReader(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_common_"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)

    def write(self, benchmarks, context=None):
        doc = {"benchmarks": benchmarks}
        if context is not None:
            doc["context"] = context
        (self.tmp / "bench.json").write_text(json.dumps(doc))
        return common.load_bench(self.tmp)

    def test_absent_file(self):
        self.assertIsNone(common.load_bench(self.tmp))

    def test_median_of_repetitions_for_time_and_counters(self):
        # three repetitions, no aggregate: the middle value of each, in ns (3, 1, 2 µs)
        bench = self.write([entry("x/c/fast/real_time", t, "us", steps=k)
                            for t, k in ((3, 30), (1, 10), (2, 20))], {"host_name": "h"})
        self.assertEqual(bench.ns, {("x", "c", "fast"): 2000.0})
        self.assertEqual(bench.counters, {("x", "c", "fast"): {"steps": 20}})
        self.assertEqual(bench.context, {"host_name": "h"})

    def test_median_aggregate_wins_over_mean_and_iterations(self):
        bench = self.write([
            entry("x/c/fast", 100, steps=1),
            dict(entry("x/c/fast_mean", 70, steps=2), run_name="x/c/fast", run_type="aggregate",
                 aggregate_name="mean"),
            dict(entry("x/c/fast_median", 60, steps=3), run_name="x/c/fast", run_type="aggregate",
                 aggregate_name="median"),
        ])
        self.assertEqual(bench.ns, {("x", "c", "fast"): 60})
        self.assertEqual(bench.counters[("x", "c", "fast")], {"steps": 3})

    def test_skipped_entries_are_noted(self):
        bench = self.write([entry("x/fast", 5),
                            dict(entry("x/c/fast", 0), error_occurred=True, error_message="boom")])
        self.assertEqual(bench.ns, {})
        self.assertEqual(bench.notes, ["x/fast: skipped, not named <stem>/<case>/<impl>",
                                       "x/c/fast: skipped, the benchmark reported an error: boom"])

    def test_fixture_square_drop_counters(self):
        bench = common.load_bench(HERE / "fixtures_square_drop")
        # the median aggregate of n_seg=4 (not its mean), the single iteration of n_seg=8
        self.assertEqual(bench.counters[("square_drop", "n_seg=4", "fast")]["seconds_per_step"], 9.91905e-06)
        self.assertEqual(bench.counters[("square_drop", "n_seg=8", "fast")]["newton_per_step"], 2.14)
        # CPU time per iteration (7.78 ms of CPU, 12.0 ms of wall time): no items counted
        self.assertEqual(bench.ns[("square_drop", "n_seg=8", "fast")], 7.78e6)
        self.assertEqual(bench.repetitions[("square_drop", "n_seg=8", "fast")], 1)
        self.assertEqual(bench.counters[("barrier", "random", "fast")], {})

    def test_malformed_entry_names_file_and_field(self):
        with self.assertRaises(common.InputError) as e:
            self.write([entry("x/c/fast", 5), entry("x/c/reference", -1)])
        self.assertIn("bench.json: benchmarks[1].cpu_time: expected a positive number", str(e.exception))

    def test_cpu_time_per_item(self):
        # A benchmark that counts items (here 100 time steps per iteration) is timed per item
        # from items_per_second, a rate on CPU time: 2 ms of CPU per 100 steps = 20 µs a step,
        # whatever the wall time (5 ms on a busy machine).
        bench = self.write([dict(entry("s/n=4/fast", 5, "ms"), cpu_time=2, items_per_second=50000.0)])
        self.assertAlmostEqual(bench.ns[("s", "n=4", "fast")], 20000.0)
        self.assertEqual(bench.counters[("s", "n=4", "fast")], {})

    def test_repetitions_counted(self):
        bench = self.write([dict(entry("x/c/fast_median", 60), run_name="x/c/fast", run_type="aggregate",
                                 aggregate_name="median", repetitions=5)])
        self.assertEqual(bench.repetitions[("x", "c", "fast")], 5)
        bench = self.write([entry("x/c/fast", t) for t in (1, 2, 3)])
        self.assertEqual(bench.repetitions[("x", "c", "fast")], 3)


class SpeedPhrase(unittest.TestCase):
    def test_ratios(self):
        self.assertEqual(common.speed_phrase(25, 1000, "reference"), "fast 40× faster than reference")
        self.assertEqual(common.speed_phrase(10, 7, "plain"), "fast 1.4× slower than plain")
        # within 5% either way: no "1.0× slower"
        for other in (9.6, 10.0, 10.4):
            self.assertEqual(common.speed_phrase(10, other, "peer"), "fast as fast as peer (within 5%)")


class FoldedTable(unittest.TestCase):
    def test_long_tables_fold_short_ones_do_not(self):
        short = common.table(["a", "b"], [[i, i] for i in range(common.FOLD_ROWS)])
        self.assertTrue(short.startswith("<table>"))
        long_ = common.table(["a", "b"], [[i, i] for i in range(common.FOLD_ROWS + 1)])
        self.assertTrue(long_.startswith(f"<details><summary>Table of {common.FOLD_ROWS + 1} rows"))
        self.assertEqual(long_.count("<tr>"), common.FOLD_ROWS + 2)  # header + every row, inside
        self.assertTrue(common.table(["a"], [[1]] * 40, fold=False).startswith("<table>"))


class ReadRun(unittest.TestCase):
    def test_not_run_paragraph(self):
        doc, not_run = common.read_run("no_results", "square_drop", load=None)
        self.assertIsNone(doc)
        self.assertEqual(not_run, '<p class="missing">The square_drop scenario was not run '
                         "(no_results/run/square_drop.json not found; `contactbench run "
                         "square_drop` writes it).</p>\n")

    def test_present_file_goes_to_the_section_loader(self):
        doc, not_run = common.read_run(HERE / "fixtures", "closest_feature_regions",
                                       load=lambda path: path.name)
        self.assertEqual((doc, not_run), ("closest_feature_regions.json", None))


if __name__ == "__main__":
    unittest.main()
