"""CPU time of fresh processes, as multiples of ``python -c "import numpy"``, with and without the cache.

Each command runs in a new interpreter; its CPU time (user + system, of the
child) is the best of ``--repeat`` runs. "cold" runs use an empty cache folder
(so they compile and write it), "cached" runs read it, "no cache" runs set
``PHYSGEN_NO_CACHE=1``. Run: ``python benchmarks/startup.py`` (prints ratios,
asserts nothing).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile

SHOW = "mechanics.projectile_range"
COMMANDS = {
    "import numpy": ["-c", "import numpy"],
    "import physgen": ["-c", "import physgen"],
    "physgen list": ["-m", "physgen.cli", "list"],
    f"physgen show {SHOW}": ["-m", "physgen.cli", "show", SHOW],
    "first load_catalog()": ["-c", "import physgen; physgen.load_catalog()"],
}


def cpu(args: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one fresh interpreter running ``args``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *args], check=True, env=env, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs each")
    args = parser.parse_args()
    base = {k: v for k, v in os.environ.items() if not k.startswith("PHYSGEN_")}
    base.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")  # no thread pools spinning up
    with tempfile.TemporaryDirectory(prefix="physgen-startup-") as folder:
        cached = {**base, "PHYSGEN_CACHE_DIR": folder}
        uncached = {**base, "PHYSGEN_NO_CACHE": "1"}
        cold = min(cpu(COMMANDS["first load_catalog()"], {**base, "PHYSGEN_CACHE_DIR": f"{folder}/{k}"})
                   for k in range(2))  # compiles everything and writes a cache
        # Fill the cache used below with a full load: lazy loads (list, show) never write compiled
        # templates, so after `list` alone `show` would compile its template every time.
        cpu(COMMANDS["first load_catalog()"], cached)
        numpy = min(cpu(COMMANDS["import numpy"], base) for _ in range(args.repeat))
        print(f"import numpy: {numpy:.3f} CPU s (the unit below)\n")
        print(f"{'command':<44} {'cached':>14} {'no cache':>14}")
        for name, command in COMMANDS.items():
            if name == "import numpy":
                continue
            with_cache = min(cpu(command, cached) for _ in range(args.repeat))
            without = min(cpu(command, uncached) for _ in range(max(1, args.repeat // 2)))
            print(f"{name:<44} {with_cache:6.2f} s {with_cache / numpy:5.1f}x {without:6.2f} s "
                  f"{without / numpy:5.1f}x")
        print(f"{'first load_catalog(), writing the cache':<44} {cold:6.2f} s {cold / numpy:5.1f}x")


if __name__ == "__main__":
    main()
