"""physgen: unlimited, verifiable physics problems for testing and training language models.

>>> import physgen
>>> catalog = physgen.load_catalog()
>>> v = next(physgen.generate(catalog.filter(domain="optics"), n=1, seed=0))
>>> v.template_id.startswith("optics."), v.format
(True, 'free_form')
"""

from __future__ import annotations

from . import catalog, export, metrics, splits
from .catalog import Catalog, load_catalog
from .errors import CatalogError, InputError, PhysgenError, SamplingError, TemplateError
from .formats import register_format
from .generate import generate
from .grading import Grade, PartGrade, grade, grade_answer
from .instance import Instance
from .sampling import InstanceBatch
from .template import Template
from .units import ureg
from .variant import Answer, Metadata, ShownQuantity, Variant

__version__ = "0.1.0"

__all__ = [
    "Answer",
    "Catalog",
    "CatalogError",
    "Grade",
    "InputError",
    "Instance",
    "InstanceBatch",
    "Metadata",
    "PartGrade",
    "PhysgenError",
    "SamplingError",
    "ShownQuantity",
    "Template",
    "TemplateError",
    "Variant",
    "__version__",
    "catalog",
    "export",
    "generate",
    "grade",
    "grade_answer",
    "load_catalog",
    "metrics",
    "register_format",
    "splits",
    "ureg",
]
