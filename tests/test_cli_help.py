"""The command's own texts: its version, and every command's help as a reader sees it."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from cardz_core.cli import COMMANDS
from cardz_core.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def test_version_is_the_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert capsys.readouterr().out.strip() == f"cardz {version}"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_commands_help_shows_its_percent_signs_once(command: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # argparse formats help strings with %, not descriptions: "%%" there is printed as it is
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"usage: cardz {command}") and "%%" not in shown
