"""The exercise kinds, one module each, found by scanning this package: a module that defines `KIND` (a
grader.kinds.registry.Kind) is a kind, and importing this package registers it by name. A new kind is a new
module here; nothing lists the kinds by hand. Modules without `KIND` (registry, numeric) are shared parts."""

import importlib
import pkgutil

from grader.kinds.registry import register

for _found in sorted(pkgutil.iter_modules(__path__), key=lambda found: found.name):
    _kind = getattr(importlib.import_module(f"{__name__}.{_found.name}"), "KIND", None)
    if _kind is not None:
        register(_kind)
