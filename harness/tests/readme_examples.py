#!/usr/bin/python3
"""Runs every example command of README.md as written, from a scratch copy of the repository
root, so the README's examples stay true (ctest entry `readme_examples`).

What counts as an example (the README's "Set-up" section says the same):
  - every line of a ```sh fenced block, in order, in one scratch folder (the set-up commands,
    the lines that call .ci/install, are what CI itself runs and are skipped here);
  - every inline code span, indented code line or line of an untagged fenced block in which a
    command starts with `contactbench`, `contactbench_bench` or `build/...` of them followed by
    arguments, except synopses (a word in [brackets] or <angle brackets>, or an ellipsis).
Each must exit 0. A bare `contactbench` fails: the set-up commands put it at
build/contactbench, not on the PATH.

--time-limit S stops waiting for an inline example after S seconds and counts it as started
without error (measurement commands in the family sections run for minutes); the lines of
```sh blocks, which later lines may depend on, always run to the end.

Usage: readme_examples.py --readme README.md --source DIR --build DIR [--time-limit S] [--list]
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

PROGRAM = re.compile(r"^(build/)?contactbench(_bench)?$")


def commands_of(text):
    """The simple commands of a shell line (split on ;, &&, ||, |), as token lists."""
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:
        return []
    out, cur = [], []
    for t in tokens:
        if t in (";", "&&", "||", "|", "&"):
            out.append(cur)
            cur = []
        else:
            cur.append(t)
    out.append(cur)
    return [c for c in out if c]


def is_example(text):
    cmds = commands_of(text)
    calls = [c for c in cmds if PROGRAM.match(c[0]) and len(c) > 1]
    if not calls:
        return False
    for c in calls:
        for t in c[1:]:
            if t.startswith("[") or t.startswith("<") or "…" in t or t == "...":
                return False  # a synopsis, not a command
    return True


def extract(readme):
    """[(kind, line number, command)]: kind "block" (```sh lines) or "inline"."""
    lines = readme.split("\n")
    out, prose = [], []
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*```(\w*)\s*$", lines[i])
        if m:
            lang, start = m.group(1), i
            i += 1
            while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
                body = lines[i].strip()
                if lang == "sh" and body and not body.startswith("#") and ".ci/install" not in body:
                    out.append(("block", i + 1, body))
                elif lang == "" and is_example(body.split(" #")[0]):
                    out.append(("inline", i + 1, body.split(" #")[0].strip()))
                i += 1
            i += 1
            prose.append((start + 1, ""))
            continue
        if lines[i].startswith("    ") and is_example(lines[i].strip()):
            out.append(("inline", i + 1, lines[i].strip()))
        prose.append((i + 1, lines[i]))
        i += 1
    # Inline code spans of the prose (a span may run over a line break, never a blank line).
    text = "\n".join(l for _, l in prose)
    numbers = [n for n, _ in prose]
    for m in re.finditer(r"`([^`]+)`", text):
        span = m.group(1)
        if "\n\n" in span:
            continue
        cmd = " ".join(span.split())
        if is_example(cmd):
            out.append(("inline", numbers[text.count("\n", 0, m.start())], cmd))
    return sorted(out, key=lambda e: e[1])


def scratch_root(source, build):
    """A folder that looks like the repository root: symlinks to its entries, `build` to the
    build folder, and its own results/ and reports/out/."""
    root = tempfile.mkdtemp(prefix="readme_examples_")
    for name in os.listdir(source):
        if name in ("build", "results", "reports") or name.startswith("build"):
            continue
        os.symlink(os.path.join(source, name), os.path.join(root, name))
    os.symlink(os.path.abspath(build), os.path.join(root, "build"))
    os.mkdir(os.path.join(root, "reports"))
    for name in os.listdir(os.path.join(source, "reports")):
        if name != "out":
            os.symlink(os.path.join(source, "reports", name), os.path.join(root, "reports", name))
    return root


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--readme", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--list", action="store_true", help="only print the examples")
    a = ap.parse_args()
    with open(a.readme, encoding="utf-8") as f:
        examples = extract(f.read())
    if a.list:
        for kind, line, cmd in examples:
            print(f"{a.readme}:{line}: [{kind}] {cmd}")
        return 0
    if not examples:
        print(f"{a.readme}: no examples found")
        return 1
    root = scratch_root(os.path.abspath(a.source), a.build)
    env = dict(os.environ)
    env["PATH"] = "/usr/bin:/bin"  # nothing of ours on the PATH, as after the set-up commands
    failures = 0
    for kind, line, cmd in examples:
        limit = a.time_limit if kind == "inline" else None
        proc = subprocess.Popen(["bash", "-c", "set -o pipefail; " + cmd], cwd=root, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=limit)
            status = "ok" if proc.returncode == 0 else f"FAILED (exit {proc.returncode})"
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            out, _ = proc.communicate()
            status = f"ok (started, stopped after {limit:g} s)"
        print(f"{a.readme}:{line}: {status}: {cmd}")
        if status.startswith("FAILED"):
            failures += 1
            tail = out.decode(errors="replace").strip().split("\n")[-5:]
            for t in tail:
                print(f"    | {t}")
    shutil.rmtree(root)
    print(f"{len(examples)} examples, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
