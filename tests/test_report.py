"""The report renders: Markdown and SVG, written atomically."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ElementTree

import pytest

from conftest import run

from shutthebox.games.shutthebox.solo.report import build_report


@pytest.mark.slow
def test_report_renders_markdown_and_svg(tmp_path):
    paths = build_report(str(tmp_path), games=2000, seed=1, progress=False)
    assert sorted(os.listdir(tmp_path)) == ["report.md", "strategies.svg"]
    text = (tmp_path / "report.md").read_text()
    for heading in ("## 1. Strategies compared", "## 2. Opening rolls", "## 3. Best positions to reach",
                    "## 4. Where the optimal move differs from Greedy", "## 5. How the rules change the odds"):
        assert heading in text
    assert "![Chance of shutting the box by strategy](strategies.svg)" in text
    assert "| two-dice | 7.143% |" in text
    assert "Best opening roll: **9**" in text
    root = ElementTree.parse(tmp_path / "strategies.svg").getroot()
    assert root.tag.endswith("svg") and len(list(root)) > 20
    assert sorted(os.path.basename(p) for p in paths) == ["report.md", "strategies.svg"]
    assert all(os.path.isfile(p) for p in paths)


def test_report_without_simulation_is_exact_only(tmp_path):
    build_report(str(tmp_path), games=0, progress=False)
    text = (tmp_path / "report.md").read_text()
    assert "simulated, 95% CI" not in text and "9.761%" in text


@pytest.mark.slow
def test_report_subcommand(tmp_path):
    out = tmp_path / "r"
    result = run("report", "--out", str(out), "--games", "1000")
    assert result.returncode == 0, result.stderr
    assert (out / "report.md").exists() and (out / "strategies.svg").exists()
    assert not [name for name in os.listdir(out) if name.startswith(".tmp-")]
    bad = run("report", "--games", "-1", "--out", str(out))
    assert bad.returncode == 2 and bad.stderr.startswith("ShutTheBox: ") and "Traceback" not in bad.stderr
