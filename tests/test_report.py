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


@pytest.fixture(scope="module")
def two_dice_report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("two-dice")
    build_report(str(folder), games=0, progress=False, variants=["two-dice"])
    return (folder / "report.md").read_text()


@pytest.mark.slow
def test_the_two_dice_report_reproduces_the_reference_tables(two_dice_report):
    text = two_dice_report
    # The opening rolls, best first, each value as the reference prints it (rounded to 6 decimals).
    openings = [(9, "0.101502"), (8, "0.084399"), (12, "0.079704"), (11, "0.072701"), (7, "0.071253"),
                (10, "0.069434"), (6, "0.064993"), (5, "0.061085"), (4, "0.055327"), (3, "0.051068"), (2, "0.045190")]
    rows = [line for line in text.splitlines() if line.startswith("| ") and "points |" in line and "%" in line]
    found = [(int(row.split(" | ")[0][2:]), row.split(" | ")[4]) for row in rows[:11]]
    assert found == openings
    assert "Four opening rolls improve on a fresh game's 7.143%: 9, 8, 12 and 11." in text
    # The ten best positions below certainty, at five decimals (the reference's order, equal values aside).
    top = ["| 124 | 7 | 18.210% | 0.18210 |", "| 34 | 7 | 17.593% | 0.17593 |", "| 25 | 7 | 17.284% | 0.17284 |",
           "| 16 | 7 | 16.667% | 0.16667 |", "| 7 | 7 | 16.667% | 0.16667 |", "| 125 | 8 | 15.895% | 0.15895 |",
           "| 134 | 8 | 15.818% | 0.15818 |", "| 234 | 9 | 15.509% | 0.15509 |", "| 35 | 8 | 15.123% | 0.15123 |",
           "| 1234 | 10 | 14.744% | 0.14744 |"]
    start = text.index("The ten positions most likely to be shut")
    assert text[start:].split("\n\n")[1].splitlines()[2:] == top
    assert ("512 positions (2^9 sets of open tiles, the shut box included) x 11 roll totals (2 to 12) = 5,632 "
            "(position, roll) pairs.") in text
    assert "4,040 of them have a legal move" in text
    assert "Greedy and the optimal strategy disagree in 167 of the 4040 (position, roll) decisions" in text
    assert "| Most Options | 6.757% | Most options (reference) | 6.746% | yes |" in text
    assert "| Highest Probability | 7.139% | Optimal (shut) | 7.143% | yes |" in text
    for heading in ("## 1. Strategies compared", "### two-dice rules", "## 2. Opening rolls (two-dice rules)",
                    "## 3. Best positions to reach (two-dice rules)", "## 4. Where the optimal move differs from "
                    "Greedy (two-dice rules)", "## 6. Simple rules to remember (two-dice rules)",
                    "## 7. The size of the game (two-dice rules)", "## 8. The reference project's benchmark"):
        assert heading in text, heading
    assert "### standard rules" not in text  # one rule set: section 1 shows it alone


def test_the_state_count_is_the_reference_count_by_brute_force():
    """4,040: the (position, roll) pairs of two dice with a set of open tiles making the roll, counted
    with itertools over all 512 sets (the shut box included)."""
    from itertools import combinations

    from shutthebox.games.shutthebox.solo.report import Analysis

    count = 0
    for k in range(10):
        for open_tiles in combinations(range(1, 10), k):
            makes = {sum(c) for j in range(1, k + 1) for c in combinations(open_tiles, j)}
            count += sum(1 for roll in range(2, 13) if roll in makes)
    assert count == 4040
    analysis = Analysis("two-dice", 0, 1, progress=False)
    assert analysis.state_count() == {"positions": 512, "totals": list(range(2, 13)), "pairs": 5632,
                                      "throwable": 5632, "valid": 4040}


@pytest.mark.parametrize("variant", ["standard", ("t6-2d4-opt6-max3", None)], ids=["standard", "optional"])
def test_a_rules_costs_add_up_to_its_loss_exactly(variant):
    """Where each simple rule costs most: over every decision the costs (chance the rule meets it x the
    optimal values' difference) add up exactly to its loss against optimal play, dice choices included."""
    from shutthebox.games.shutthebox.rules import Rules
    from shutthebox.games.shutthebox.solo.report import Analysis
    from shutthebox.games.shutthebox.solo.strategies import SIMPLE_RULES

    if not isinstance(variant, str):
        variant = (variant[0], Rules(tiles=6, sides=4, one_die_at_most=6, one_die_optional=True, max_move_tiles=3))
    analysis = Analysis(variant, 0, 1, progress=False)
    best = analysis.shut(analysis.start)
    for name in SIMPLE_RULES + ("most-options-reference",):
        strategy, exact, _ = analysis.row(name)
        costs = analysis.rule_costs(strategy)
        assert sum(row[6] for row in costs) == best - exact.start_shut, name
        assert all(row[4] > 0 and row[6] >= 0 for row in costs), name
    if not isinstance(variant, str):
        assert any(row[1] is None for name in SIMPLE_RULES for row in analysis.rule_costs(analysis.row(name)[0]))


@pytest.mark.slow
def test_report_subcommand_honours_the_rule_options(tmp_path):
    out = tmp_path / "r"
    result = run("report", "--tiles", "6", "--sides", "4", "--one-die", "5", "--out", str(out), "--games", "500")
    assert result.returncode == 0, result.stderr
    text = (out / "report.md").read_text()
    assert "- **t6-2d4-one5**: tiles 1-6, 2 dice with 4 sides, one die once the open tiles sum to 5 or less" in text
    for section in ("## 2. Opening rolls (t6-2d4-one5 rules)", "## 3. Best positions to reach (t6-2d4-one5 rules)",
                    "## 4. Where the optimal move differs from Greedy (t6-2d4-one5 rules)",
                    "## 6. Simple rules to remember (t6-2d4-one5 rules)", "## 7. The size of the game (t6-2d4-one5 rules)",
                    "| t6-2d4-one5 |", "| two-dice |"):
        assert section in text, section
    assert "## 8." not in text  # the reference's benchmark is for its own rules only
    bad = run("report", "--variant", "two-dice", "--tiles", "10", "--out", str(out))
    assert bad.returncode == 2 and "--variant two-dice is tiles 1-9" in bad.stderr and bad.stderr.count("\n") == 1
