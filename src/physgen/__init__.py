"""physgen: unlimited, verifiable physics problems for testing and training language models.

>>> import physgen
>>> catalog = physgen.load_catalog()
>>> v = next(physgen.generate(catalog.filter(domain="optics"), n=1, seed=0))
>>> v.template_id.startswith("optics."), v.format
(True, 'free_form')

Importing physgen is cheap: names and submodules are imported on first use
(SymPy, Pint and Jinja2 only when something needs them).

>>> import physgen.generation as g
>>> g.__name__, physgen.generate is g.generate
('physgen.generation', True)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Public names, by the submodule that defines them.
_NAMES = {
    "Answer": "variant", "Metadata": "variant", "ShownQuantity": "variant", "Variant": "variant",
    "Catalog": "catalog", "load_catalog": "catalog",
    "ArgumentError": "errors", "CapacityWarning": "errors", "CatalogError": "errors",
    "FormatError": "errors", "InputError": "errors", "MissingColumnError": "errors",
    "MissingDependencyError": "errors", "OutputError": "errors",
    "PhysgenError": "errors", "SamplingError": "errors",
    "SourceTypeError": "errors", "TemplateError": "errors", "UnknownTemplateError": "errors",
    "register_format": "formats",
    "generate": "generation",
    "Grade": "grading", "PartGrade": "grading", "grade": "grading", "grade_answer": "grading",
    "Instance": "instance",
    "InstanceBatch": "batch",
    "Template": "template",
    "ureg": "units",
}
#: Submodules that are attributes of the package, imported on first use.
_SUBMODULES = ("catalog", "dataset", "export", "formats", "generation", "grading", "harness", "metrics",
               "plots", "report", "rewards", "scale", "splits", "units")

__all__ = [
    "Answer", "ArgumentError", "CapacityWarning", "Catalog", "CatalogError", "FormatError", "Grade",
    "InputError", "Instance", "InstanceBatch", "Metadata", "MissingColumnError", "MissingDependencyError",
    "OutputError", "PartGrade", "PhysgenError", "SamplingError",
    "ShownQuantity", "SourceTypeError", "Template", "TemplateError", "UnknownTemplateError", "Variant",
    "__version__", "catalog", "dataset", "export", "formats", "generate", "generation", "grade",
    "grade_answer", "grading", "harness", "load_catalog", "metrics", "plots", "register_format", "report",
    "rewards", "scale", "splits", "units", "ureg",
]


def __getattr__(name: str) -> Any:
    if name in _NAMES:
        value = getattr(importlib.import_module(f".{_NAMES[name]}", __name__), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module 'physgen' has no attribute {name!r}; see physgen.__all__")
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:
    from . import (
        catalog,
        export,
        formats,
        generation,
        grading,
        harness,
        metrics,
        plots,
        report,
        rewards,
        scale,
        splits,
        units,
    )
    from .batch import InstanceBatch
    from .catalog import Catalog, load_catalog
    from .dataset import dataset  # at run time the module, which is callable (see physgen.dataset)
    from .errors import (
        ArgumentError,
        CapacityWarning,
        CatalogError,
        FormatError,
        InputError,
        MissingColumnError,
        MissingDependencyError,
        OutputError,
        PhysgenError,
        SamplingError,
        SourceTypeError,
        TemplateError,
        UnknownTemplateError,
    )
    from .formats import register_format
    from .generation import generate
    from .grading import Grade, PartGrade, grade, grade_answer
    from .instance import Instance
    from .template import Template
    from .units import ureg
    from .variant import Answer, Metadata, ShownQuantity, Variant
