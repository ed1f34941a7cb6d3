#!/usr/bin/python3
"""The report as a reader's browser shows it. Every fixture folder of reports/ is gathered
into one results folder (check.json families and bench.json entries joined, run/ files
copied), report.py writes the page from it as test_report.py does, and Debian's headless
Chromium (package `chromium`, installed by .ci/install) loads index.html. Checked:

- every <img> of the page has loaded once the load event has fired: img.complete and
  naturalWidth > 0, recorded by a small script added to a copy of the page and read back
  from Chromium's --dump-dom;
- no figure is blank: each PNG the page shows is read back (matplotlib's PNG reader) and
  must not be one flat colour and must have coloured pixels (the data; axes, ticks and
  text are black or grey);
- every link of the table of contents leads to an anchor of the page.

    /usr/bin/python3 reports/test_browser.py      (exit status non-zero on failure)
"""
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402  (matplotlib, Agg backend)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHECK_SCRIPT = """<script>
window.addEventListener("load", function () {
  var lines = [];
  for (var img of document.images)
    lines.push((img.complete && img.naturalWidth > 0 ? "loaded " : "BROKEN ") + img.getAttribute("src"));
  var pre = document.createElement("pre");
  pre.id = "image-check";
  pre.textContent = lines.join("\\n");
  document.body.appendChild(pre);
});
</script>
"""


def complete_counts(c):
    """A section's fixture may hold only the counts its section reads (queries, wrong):
    the rest as check.json has them (agree = the remainder)."""
    for key in ("boundary", "false_positive"):
        c.setdefault(key, 0)
    c.setdefault("agree", c["queries"] - c["wrong"] - c["boundary"] - c["false_positive"])


def gather_fixtures(dst):
    """One results folder from every reports/fixtures*/ folder."""
    (dst / "run").mkdir(parents=True)
    check, benchmarks = None, []
    for folder in sorted(HERE.glob("fixtures*")):
        if (folder / "check.json").exists():
            doc = json.loads((folder / "check.json").read_text())
            for fam in doc["families"]:
                complete_counts(fam)
                for c in fam.get("by_regime", {}).values():
                    complete_counts(c)
                for h in fam.get("time_ns", {}).values():  # a median alone: no histogram
                    h.setdefault("counts", [])
                    h.setdefault("lo_log10", 0)
                    h.setdefault("bins_per_decade", 4)
                    h.setdefault("count", fam["queries"])
                if "_published_" in fam["family"]:
                    fam.setdefault("published_method_of", fam["family"].split("_published_")[0])
            if check is None:
                check = doc
            else:
                check["families"] += doc["families"]
        if (folder / "bench.json").exists():
            benchmarks += json.loads((folder / "bench.json").read_text())["benchmarks"]
        for f in sorted((folder / "run").glob("*")) if (folder / "run").is_dir() else []:
            shutil.copy(f, dst / "run" / f.name)
    (dst / "check.json").write_text(json.dumps(check))
    (dst / "bench.json").write_text(json.dumps({"context": {}, "benchmarks": benchmarks}))


def load_in_chromium(page, profile):
    """(DOM after the load event, None) or ("", what went wrong)."""
    try:
        p = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                            "--allow-file-access-from-files", f"--user-data-dir={profile}",
                            "--virtual-time-budget=20000", "--dump-dom", page.as_uri()],
                           capture_output=True, text=True, timeout=180)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "", f"cannot run {CHROMIUM} ({e}); Debian's package `chromium` is installed by .ci/install"
    if p.returncode != 0:
        return p.stdout, f"chromium exited {p.returncode}: {p.stderr[-2000:]}"
    return p.stdout, None


def image_lines(dom):
    """The recording script's lines, 'loaded <src>' or 'BROKEN <src>', or None."""
    m = re.search(r'<pre id="image-check">(.*?)</pre>', dom, re.S)
    return m.group(1).strip().splitlines() if m else None


def blank_reason(png):
    """Why a figure counts as blank (None when it is not): one flat colour, or no coloured
    pixel at all (axes without data)."""
    img = common.plt.imread(str(png))[..., :3]
    if float(img.std()) < 0.02:
        return f"one flat colour (pixel standard deviation {float(img.std()):.3g})"
    chroma = img.max(axis=2) - img.min(axis=2)
    coloured = float((chroma > 0.2).mean())
    if coloured < 5e-4:
        return f"no data drawn (coloured pixels: {coloured:.2%})"
    return None


class Browser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp(prefix="contactbench_browser_"))
        results, cls.out = cls.tmp / "results", cls.tmp / "out"
        gather_fixtures(results)
        cls.report = subprocess.run([sys.executable, str(HERE / "report.py"), "--results", str(results),
                                     "--out", str(cls.out)], capture_output=True, text=True, timeout=300)
        index = cls.out / "index.html"
        cls.page = index.read_text(encoding="utf-8") if index.exists() else ""
        # A copy of the page with the recording script, beside it so the images resolve.
        cls.out.mkdir(parents=True, exist_ok=True)
        probe = cls.out / "index_image_check.html"
        probe.write_text(cls.page.replace("</body>", CHECK_SCRIPT + "</body>"), encoding="utf-8")
        cls.dom, cls.browser_error = load_in_chromium(probe, cls.tmp / "profile")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_report_written(self):
        self.assertEqual(self.report.returncode, 0, self.report.stderr)
        # every section plugin drew from its fixture: none says its scenario was not run
        self.assertNotIn("scenario was not run", self.page)

    def test_every_image_loads_in_chromium(self):
        self.assertIsNone(self.browser_error)
        lines = image_lines(self.dom)
        self.assertIsNotNone(lines, "the load-event script did not run:\n" + self.dom[-2000:])
        srcs = re.findall(r'<img src="([^"]+)"', self.page)
        self.assertGreaterEqual(len(srcs), 20)  # the families', the speed charts, every section's
        self.assertEqual(sorted(line.split(" ", 1)[1] for line in lines), sorted(srcs))
        broken = [line for line in lines if not line.startswith("loaded ")]
        self.assertEqual(broken, [])

    def test_broken_image_detected(self):
        # the browser check itself: a page naming one PNG that exists and one that does not
        shutil.copy(self.out / "speed.png", self.tmp / "present.png")
        page = self.tmp / "two_images.html"
        page.write_text('<!DOCTYPE html><html><body><img src="present.png"><img src="absent.png">'
                        + CHECK_SCRIPT + "</body></html>")
        dom, error = load_in_chromium(page, self.tmp / "profile2")
        self.assertIsNone(error)
        self.assertEqual(image_lines(dom), ["loaded present.png", "BROKEN absent.png"])

    def test_no_figure_is_blank(self):
        srcs = re.findall(r'<img src="([^"]+)"', self.page)
        self.assertTrue(srcs)
        blank = {src: blank_reason(self.out / src) for src in srcs}
        self.assertEqual({k: v for k, v in blank.items() if v}, {})

    def test_blank_detector_bites(self):
        # the detector itself, on figures made here: empty axes and a flat image are blank,
        # a line of data is not
        fig, ax = common.new_figure()
        ax.set_xlabel("x (m)")
        empty = common.save_figure(fig, self.tmp, "empty_axes")
        fig = common.plt.figure(figsize=(3, 2))
        flat = common.save_figure(fig, self.tmp, "flat")
        fig, ax = common.new_figure()
        ax.plot([0, 1], [0, 1], color="#1f77b4")
        drawn = common.save_figure(fig, self.tmp, "drawn")
        self.assertIn("no data drawn", blank_reason(self.tmp / empty))
        self.assertIn("one flat colour", blank_reason(self.tmp / flat))
        self.assertIsNone(blank_reason(self.tmp / drawn))

    def test_contents_links_resolve(self):
        nav = self.page.split('<nav id="contents">')[1].split("</nav>")[0]
        ids = set(re.findall(r' id="([^"]+)"', self.page))
        links = re.findall(r'href="#([^"]+)"', nav)
        self.assertGreater(len(links), 10)
        self.assertEqual([a for a in links if a not in ids], [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
