"""The parts every exercise kind needs beyond its engine (grader/kinds/<kind>.py defining KIND): for each way
of answering it declares, an app panel (tui/answers/<way>.py defining PANEL) and a plain-line way
(tui/lines/answers/<way>.py defining WAY). Both faces find their parts by scanning their folder, so nothing
lists them by hand; what is missing is said at start-up, naming the file to add, instead of when a learner
first opens an exercise of the kind.

The check at start-up looks at file names only: the plain-line face must not import Textual's panels, nor
the app the plain-line ways. Each face's package checks, when imported, that its modules define their part.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from dataclasses import dataclass
from typing import Any

from grader.kinds.registry import KINDS, KindError


@dataclass(frozen=True)
class Face:
    """Where one face keeps a part per way of answering, and what the part is called."""

    part: str       # what the learner meets: "app panel"
    package: str    # "tui.answers": one module per way, named after it
    constant: str   # the module-level name that holds the part

    def file(self, way: str) -> str:
        return f"{self.package.replace('.', '/')}/{way}.py"

    def missing(self, kind: str, way: str) -> str:
        return f"kind {kind!r} has no {self.part} for the way {way!r}: add {self.file(way)} defining {self.constant}"

    def modules(self) -> set[str]:
        """The modules of the package, found without importing it (only the packages above it)."""
        spec = importlib.util.find_spec(self.package)
        folders = spec.submodule_search_locations if spec is not None else None
        return {module.name for module in pkgutil.iter_modules(list(folders or ()))}


APP = Face("app panel", "tui.answers", "PANEL")
LINES = Face("plain-line way", "tui.lines.answers", "WAY")


def missing_parts(ways: dict[Face, set[str]] | None = None) -> list[str]:
    """What every registered kind lacks in either face, as sentences naming the file to add (`ways`: the
    ways each face offers; by default, its modules on disk)."""
    offered = ways if ways is not None else {face: face.modules() for face in (APP, LINES)}
    return [face.missing(kind.name, way) for kind in KINDS.values() for way in kind.ways
            for face, names in offered.items() if way not in names]


def discover(face: Face, name_of: str) -> dict[str, Any]:
    """The parts of `face` by way: each module's `constant`, whose `name_of` attribute must be the module's own
    name (the way it serves). A way some kind declares with no part fails now, naming the file."""
    found: dict[str, Any] = {}
    for module in sorted(face.modules()):
        part = getattr(importlib.import_module(f"{face.package}.{module}"), face.constant, None)
        if part is None:
            continue
        if getattr(part, name_of) != module:
            raise KindError(f"{face.file(module)}'s {face.constant} serves the way {getattr(part, name_of)!r}: "
                            f"a way's {face.part} lives in {face.file(getattr(part, name_of))}")
        found[module] = part
    missing = missing_parts({face: set(found)})
    if missing:
        raise KindError("\n".join(missing))
    return found
