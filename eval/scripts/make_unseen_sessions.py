#!/usr/bin/env python3
"""Generate long agent sessions in domains and wording the engine was not
shaped on, with exact-answer questions, for `continuity retention`.

Each session (OpenAI Chat Completions request body) holds:
- values the user states in prose, some corrected later (the answer is the
  final value);
- assignments the user states ("X goes to Y");
- JSON tool records with an id, scalar fields and nested people (name,
  email, phone: planted personal data that must never be written out);
- text tool output with `key: value` lines, an exit code and a path;
- task status changes reported by a tool (the latest one is the answer);
- bulk listings and notes that declare themselves archived or unrelated.

Usage: python3 eval/scripts/make_unseen_sessions.py [--out eval/unseen]
Writes OUT/sessions/<domain>.json, OUT/questions/<domain>.json and
OUT/planted_personal.json (every personal value planted, per session).
Deterministic: the same seed gives the same files.
"""
import argparse
import hashlib
import json
import random
from pathlib import Path

DOMAINS = {
    "ferry-timetable": {
        "mission": "You coordinate the winter timetable change for a regional ferry operator.",
        "entity": "sailing", "prefix": "SL", "tool": "lookup_sailing",
        "fields": ["vessel", "berth", "departure", "capacity_cars", "status"],
        "values": ["Skarv", "Maren", "Terne", "Lomvi", "Havella", "Alke"],
        "settings": ["fuel surcharge", "minimum crew", "late check-in cutoff", "deck load limit", "tide margin"],
        "targets": ["north quay", "south quay", "dry dock", "relief berth"],
        "tasks": ["notice-to-passengers", "crew-roster", "harbour-permit", "ticketing-update"],
        "log": "voyage_log",
    },
    "seed-bank": {
        "mission": "You maintain the accession records of a community seed bank during its audit.",
        "entity": "accession", "prefix": "ACC", "tool": "get_accession",
        "fields": ["species", "drawer", "germination_pct", "harvest_year", "status"],
        "values": ["Vicia faba", "Pisum sativum", "Avena strigosa", "Linum usitatissimum", "Hordeum vulgare"],
        "settings": ["drying humidity", "freezer setpoint", "retest interval", "sample size", "viability threshold"],
        "targets": ["cold room A", "cold room B", "field station", "duplicate vault"],
        "tasks": ["germination-retest", "label-reprint", "donor-letters", "vault-shipment"],
        "log": "climate_probe",
    },
    "theatre-tour": {
        "mission": "You run the logistics of a touring theatre production across five venues.",
        "entity": "venue booking", "prefix": "VB", "tool": "fetch_booking",
        "fields": ["venue", "load_in", "truck", "seats_sold", "status"],
        "values": ["Kestrel Hall", "Old Mill Stage", "Harbour Playhouse", "Granary Arts", "Linden Theatre"],
        "settings": ["fly bar load", "get-out duration", "per diem", "rigging crew size", "curtain time"],
        "targets": ["truck one", "truck two", "the sprinter van", "local hire"],
        "tasks": ["set-transport", "rigging-plan", "hotel-block", "programme-print"],
        "log": "rig_check",
    },
    "water-utility": {
        "mission": "You prepare a district water utility's pipe-renewal work orders for the spring season.",
        "entity": "work order", "prefix": "WO", "tool": "read_work_order",
        "fields": ["street", "pipe_material", "diameter_mm", "crew", "status"],
        "values": ["Birch Lane", "Quarry Road", "Millrace Street", "Orchard Close", "Weir Avenue"],
        "settings": ["pressure test hold", "trench depth", "flushing time", "chlorine residual", "night work window"],
        "targets": ["crew east", "crew west", "contractor pool", "standby team"],
        "tasks": ["traffic-permit", "resident-notice", "valve-survey", "asphalt-booking"],
        "log": "pressure_test",
    },
}

FIRST = ["Ingrid", "Tomasz", "Aiyana", "Bartholomew", "Sunniva", "Rafferty", "Odalys", "Kwame", "Linnea", "Matthias", "Yusra", "Elspeth"]
LAST = ["Vandermeer", "Okonkwo-Reyes", "Haldorsen", "Przybylski", "Castellanos", "Fairweather", "Nakashima", "Thorvaldsen"]
ROLES = ["site lead", "coordinator", "inspector", "volunteer", "supervisor"]


def token(rng, n=10):
    return "".join(rng.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(n))


def person(rng, planted):
    name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    user = name.lower().replace(" ", ".").replace("-", "")
    email = f"{user}@{token(rng, 6)}.example"
    phone = f"+44 {rng.randint(1000, 9999)} {rng.randint(100000, 999999)}"
    planted.update([name, email, phone])
    return {"name": name, "email": email, "phone": phone, "role": rng.choice(ROLES)}


class Session:
    def __init__(self, domain, spec, seed):
        self.rng = random.Random(seed)
        self.d, self.spec = domain, spec
        self.messages = [{"role": "system", "content": spec["mission"] + " Keep exact values; do not guess."}]
        self.questions, self.planted = [], set()
        self.calls = 0

    def user(self, text):
        self.messages.append({"role": "user", "content": text})

    def assistant(self, text):
        self.messages.append({"role": "assistant", "content": text})

    def call(self, name, args, output):
        self.calls += 1
        cid = f"call_{self.d[:3]}_{self.calls:03d}"
        self.messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]})
        self.messages.append({"role": "tool", "tool_call_id": cid, "content": output})

    def ask(self, category, question, expected):
        n = sum(q["category"] == category for q in self.questions) + 1
        self.questions.append({"id": f"{self.d}-{category}-{n:02d}", "category": category,
                               "question": question, "expected": expected})


def build(domain, spec, seed, rounds):
    s = Session(domain, spec, seed)
    rng = s.rng
    s.user(f"We start today. {spec['mission']} I will give you settings as we go; treat the latest one I give as binding.")
    s.assistant("Understood. I will keep the settings you give me and use the latest value of each.")
    settings = {}
    for i, name in enumerate(spec["settings"]):
        settings[name] = f"{rng.randint(2, 95)}.{rng.randint(0, 9)} units-{token(rng, 5)}"
        s.user(f"For the {name}, please use {settings[name]} from now on.")
        s.assistant(f"Noted the {name}.")
    tasks = {t: "open" for t in spec["tasks"]}
    assigned = {}
    records = {}
    for r in range(rounds):
        rid = f"{spec['prefix']}-{rng.randint(1000, 9999)}-{token(rng, 3).upper()}"
        contact = person(rng, s.planted)
        fields = {
            spec["fields"][0]: rng.choice(spec["values"]),
            spec["fields"][1]: f"{rng.choice('ABCDEFG')}{rng.randint(1, 40)}",
            spec["fields"][2]: str(rng.randint(10, 999)),
            spec["fields"][3]: f"{rng.choice(['alpha', 'delta', 'kilo', 'sierra'])}-{rng.randint(1, 99)}",
            spec["fields"][4]: rng.choice(["confirmed", "held", "pending review"]),
        }
        record = {"id": rid, **fields, "contacts": [contact], "history": [
            {"at": f"2026-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}", "note": f"checked by {contact['name']}"}]}
        s.user(f"Please pull up {spec['entity']} {rid}.")
        s.call(spec["tool"], {"id": rid}, json.dumps(record))
        s.assistant(f"{spec['entity'].capitalize()} {rid} is loaded; {contact['name']} is listed as {contact['role']}.")
        records[rid] = fields
        # Text output with key: value lines, an exit code and a path.
        path = f"/srv/{domain}/runs/{rid.lower()}/{token(rng, 6)}.log"
        reading = f"{rng.randint(100, 999)}.{rng.randint(10, 99)}"
        s.call(spec["log"], {"target": rid},
               f"run: {rid}\nreading: {reading}\nwritten: {path}\nexit code: {rng.choice([0, 0, 3])}\n")
        if r % 3 == 0:
            s.ask("tool_text", f"Which file did the {spec['log']} run for {rid} write?", path)
            s.ask("tool_text", f"What reading did the {spec['log']} run for {rid} report?", reading)
        if r % 2 == 0:
            f = spec["fields"][r % 4]
            s.ask("tool_record", f"What is the {f} of {spec['entity']} {rid}?", fields[f])
        # An assignment stated by the user.
        if r % 2 == 1:
            target = rng.choice(spec["targets"])
            assigned[rid] = target
            s.user(f"Put {rid} with {target}.")
            s.assistant(f"{rid} is with {target}.")
        # A task status reported by a tool.
        t = spec["tasks"][r % len(spec["tasks"])]
        tasks[t] = f"{rng.choice(['drafted', 'sent', 'approved', 'blocked'])}#{token(rng, 4)}"
        s.call("task_status", {"task": t}, json.dumps({"task": t, "state": tasks[t], "owner": contact["name"]}))
        # A correction of one stated setting.
        if r % 4 == 3:
            name = rng.choice(spec["settings"])
            settings[name] = f"{rng.randint(2, 95)}.{rng.randint(0, 9)} units-{token(rng, 5)}"
            s.user(f"Correction: the {name} changes to {settings[name]}. Ignore the earlier figure.")
            s.assistant(f"Updated the {name}.")
        # Bulk listings and notes that declare themselves unrelated.
        if r % 3 == 1:
            rows = "\n".join(f"{spec['prefix']}-{rng.randint(1000, 9999)}-{token(rng, 3).upper()}  {rng.choice(spec['values'])}  "
                             f"{rng.choice(['confirmed', 'held'])}" for _ in range(40))
            s.call("list_all", {"page": r}, rows)
            s.user("Archived note, unrelated to this work and kept only for the record: "
                   + " ".join(f"{token(rng, 7)}" for _ in range(120)))
            s.assistant("Noted; that archived note does not affect the current work.")
    for name, value in settings.items():
        s.ask("stated_value", f"What {name} must be used?", value)
    for rid, target in assigned.items():
        s.ask("relation", f"Who is {rid} with?", target)
    for t, state in tasks.items():
        if state != "open":
            s.ask("task_state", f"What is the latest state of {t}?", state)
    s.user("Continue with the next open task, using everything above.")
    body = {"model": "any", "messages": s.messages, "tools": [
        {"type": "function", "function": {"name": n, "description": f"{n} tool", "parameters": {"type": "object"}}}
        for n in [spec["tool"], spec["log"], "task_status", "list_all"]]}
    return body, s.questions, sorted(s.planted)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "unseen"))
    ap.add_argument("--rounds", type=int, default=48)
    args = ap.parse_args()
    out = Path(args.out)
    (out / "sessions").mkdir(parents=True, exist_ok=True)
    (out / "questions").mkdir(parents=True, exist_ok=True)
    planted = {}
    for domain, spec in DOMAINS.items():
        seed = int(hashlib.sha256(domain.encode()).hexdigest()[:8], 16)
        body, questions, personal = build(domain, spec, seed, args.rounds)
        (out / "sessions" / f"{domain}.json").write_text(json.dumps(body, indent=1) + "\n")
        (out / "questions" / f"{domain}.json").write_text(json.dumps({"id": domain, "questions": questions}, indent=1) + "\n")
        planted[domain] = personal
    (out / "planted_personal.json").write_text(json.dumps(planted, indent=1) + "\n")


if __name__ == "__main__":
    main()
