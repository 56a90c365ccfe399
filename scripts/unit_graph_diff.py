#!/usr/bin/env python3
"""Which dependencies the wheel's build would compile again after `cargo test`.

Cargo reuses a compiled unit only when its features, profile settings and
dependencies match. The wheel (maturin) resolves features for
continuity-python alone; `cargo test` resolves them for the whole workspace,
dev-dependencies included. This script asks cargo for both unit graphs
(`--unit-graph` needs a nightly cargo) and prints each unit of the wheel's
build that the test build has in no identical form. No output: the wheel
reuses every dependency.

    python3 scripts/unit_graph_diff.py            # uses `cargo +nightly`
"""
import hashlib
import json
import subprocess
import sys

TEST_BUILD = ["test", "--workspace", "--no-run"]
WHEEL_BUILD = ["build", "-p", "continuity-python", "--lib"]
WHEEL_CRATE = "_continuity"


def unit_graph(args):
    cmd = ["cargo", "+nightly", *args, "--unit-graph", "-Z", "unstable-options"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["units"]


def own_key(unit):
    """What the unit's hash is made of, less its dependencies; the profile's
    name (`test` or `dev`) is left out because cargo does not hash it."""
    profile = {k: v for k, v in unit["profile"].items() if k != "name"}
    return (
        unit["pkg_id"],
        unit["target"]["name"],
        unit["mode"],
        tuple(unit["features"]),
        json.dumps(profile, sort_keys=True),
        unit["platform"],
    )


def full_keys(units):
    """Each unit's own key together with its dependencies' full keys."""
    memo = {}

    def full(index):
        if index not in memo:
            deps = sorted(full(dep["index"]) for dep in units[index]["dependencies"])
            text = repr((own_key(units[index]), deps))
            memo[index] = hashlib.sha256(text.encode()).hexdigest()
        return memo[index]

    return [full(i) for i in range(len(units))]


def main():
    test_units, wheel_units = unit_graph(TEST_BUILD), unit_graph(WHEEL_BUILD)
    test_own = {own_key(u) for u in test_units}
    test_full = set(full_keys(test_units))
    differing = 0
    for unit, full in zip(wheel_units, full_keys(wheel_units)):
        if unit["target"]["name"] == WHEEL_CRATE or full in test_full:
            continue
        differing += 1
        why = "its dependencies differ" if own_key(unit) in test_own else "features or profile differ"
        print(f"{unit['pkg_id']} ({unit['target']['name']}, {unit['mode']}): {why}; features {unit['features']}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
