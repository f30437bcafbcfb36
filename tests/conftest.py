"""Shared fixtures: the built-in catalog, and a writer for throw-away template files."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, settings

import physgen

settings.register_profile(
    "default", deadline=None, max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.register_profile(
    "ci", deadline=None, max_examples=150, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile("ci" if os.environ.get("CI") else "default")

GOOD: dict[str, Any] = {
    "id": "mechanics.demo_speed",
    "version": 1,
    "domain": "mechanics",
    "subdomain": ["kinematics"],
    "difficulty": 1,
    "question_type": "numerical",
    "source": "test fixture, CC0",
    "inputs": {
        "d": {"unit": "m", "range": [1, 10], "sig_figs": 3},
        "t": {"unit": "s", "nominal": 2.0, "perturb": 0.2},
    },
    "answers": {"v": {"expr": "d/t", "unit": "m/s", "ask": "the average speed"}},
    "text": [
        "A runner covers {{ d }} in {{ t }}. {{ asks }}",
        "{{ asks }} During a test lasting {{ t }}, a cart rolls a distance of {{ d }} along the track.",
        "Timing gates record that an object needs {{ t }} to travel {{ d }} in a straight line. {{ asks }}",
    ],
    "steps": ["v = d/t = {{ v }}"],
}


def good() -> dict[str, Any]:
    """A fresh copy of a valid template (mutate it to make a bad one)."""
    return copy.deepcopy(GOOD)


def write_template(root: Path, data: dict[str, Any] | str, name: str | None = None) -> Path:
    """Write a template file where its id says it belongs (or at ``name``) below ``root``."""
    if isinstance(data, str):
        rel = name or "mechanics/demo_speed.yaml"
        text = data
    else:
        if name is None:
            group, stem = str(data["id"]).split(".", 1)
            name = f"{group}/{stem}.yaml"
        rel = name
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def catalog() -> physgen.Catalog:
    return physgen.load_catalog()
