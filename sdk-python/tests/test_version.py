from pathlib import Path

import hookwire


def test_the_package_has_the_one_version_of_the_cli_and_the_sdks() -> None:
    root = Path(__file__).resolve().parents[2]
    assert hookwire.__version__ == (root / "VERSION").read_text().strip()
    assert "__version__" in hookwire.__all__
