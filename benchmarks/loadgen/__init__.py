"""The load benchmark's parts; ``benchmarks/load.py`` runs them (read its docstring first)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The project's top folder: the server and the workers run from there."""
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the project, when it is not installed
