#!/usr/bin/env python3
"""Validate the bundled example and the test fixtures.

Stdlib-only checks (always run):
  * format detection and structure of each session file
      - Anthropic Messages request: roles alternate user/assistant, every
        tool_use is answered by a tool_result in the next user message, ids
        unique, tools declared;
      - OpenAI Chat Completions request: every assistant tool_call is answered
        by a role "tool" message before the next non-tool message;
      - Pydantic AI history: request/response alternate, every tool-call part
        is answered by a tool-return or retry-prompt part in the next request;
  * kernel.toml / policy.toml schema (required keys, effect enum, RFC 3339
    expires_at, 64-hex sha256, regexes compile and use no lookaround);
  * cross-checks: kernel and pin tools exist in the session's tools, every
    pinned field occurs in at least one result of its tool;
  * examples/billing-dispute/key.toml facts occur in the session and its
    mission terms in the kernel;
  * planted personal data (examples/billing-dispute/planted-pii.txt) is
    present in the session, card numbers pass Luhn, IBANs pass mod-97, and
    the policy's fields/patterns cover every planted value;
  * tests/fixtures/invalid/* fail in the way their names say.
Typed checks (when the packages are importable): anthropic
MessageCreateParamsNonStreaming, openai CompletionCreateParamsNonStreaming and
pydantic_ai ModelMessagesTypeAdapter.

Also prints rough token estimates. Exit status 0 when everything passes.
"""
from __future__ import annotations

import json
import re
import sys
import tomllib
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EX = REPO / "examples" / "billing-dispute"
FX = REPO / "tests" / "fixtures"

PAIRS = [
    (EX / "session.json", EX / "kernel.toml", EX / "policy.toml", "anthropic"),
    (FX / "openai" / "ops-export.json", FX / "openai" / "ops-export.kernel.toml", FX / "openai" / "ops-export.policy.toml", "openai"),
    (FX / "pydantic" / "small.json", FX / "pydantic" / "small.kernel.toml", FX / "pydantic" / "small.policy.toml", "pydantic"),
]
EFFECTS = {"deny", "require_approval", "escalate"}

errors: list[str] = []


def fail(msg: str) -> None:
    errors.append(msg)
    print(f"  FAIL {msg}")


def ok(msg: str) -> None:
    print(f"  ok   {msg}")


# ---------------------------------------------------------------- formats
def detect(doc) -> str | None:
    if isinstance(doc, list) and doc and all(isinstance(m, dict) and m.get("kind") in ("request", "response") and isinstance(m.get("parts"), list) for m in doc):
        return "pydantic"
    if isinstance(doc, dict) and isinstance(doc.get("messages"), list) and doc["messages"]:
        msgs = doc["messages"]
        if any(m.get("role") in ("system", "tool", "developer") or "tool_calls" in m for m in msgs):
            return "openai"
        if "max_tokens" in doc and all(m.get("role") in ("user", "assistant") for m in msgs):
            return "anthropic"
    return None


def check_anthropic(doc) -> tuple[list[str], list[tuple[str, str]]]:
    tools = [t["name"] for t in doc.get("tools", [])]
    for t in doc.get("tools", []):
        if t.get("input_schema", {}).get("type") != "object":
            fail(f"tool {t.get('name')} has no object input_schema")
    msgs = doc["messages"]
    results: list[tuple[str, str]] = []
    seen: set[str] = set()
    if msgs[0]["role"] != "user":
        fail("first message is not a user message")
    for i, m in enumerate(msgs):
        if i and m["role"] == msgs[i - 1]["role"]:
            fail(f"messages {i - 1} and {i} have the same role")
        if m["role"] != "assistant":
            continue
        uses = [b for b in m["content"] if b["type"] == "tool_use"]
        for b in uses:
            if b["id"] in seen:
                fail(f"duplicate tool_use id {b['id']}")
            seen.add(b["id"])
            if b["name"] not in tools:
                fail(f"tool_use of undeclared tool {b['name']}")
        if uses:
            nxt = msgs[i + 1] if i + 1 < len(msgs) else None
            got = {b["tool_use_id"]: b for b in (nxt or {}).get("content", []) if b.get("type") == "tool_result"}
            for b in uses:
                if b["id"] not in got:
                    fail(f"tool_use {b['id']} not answered in the next user message")
                else:
                    c = got[b["id"]]["content"]
                    results.append((b["name"], c if isinstance(c, str) else json.dumps(c)))
    return tools, results


def check_openai(doc) -> tuple[list[str], list[tuple[str, str]]]:
    tools = [t["function"]["name"] for t in doc.get("tools", []) if t.get("type") == "function"]
    msgs = doc["messages"]
    results: list[tuple[str, str]] = []
    i = 0
    while i < len(msgs):
        m = msgs[i]
        calls = m.get("tool_calls") or []
        if m["role"] == "assistant" and calls:
            names = {}
            for c in calls:
                if c.get("type") != "function":
                    fail(f"tool call {c.get('id')} is not type function")
                names[c["id"]] = c["function"]["name"]
                json.loads(c["function"]["arguments"])  # arguments must be a JSON string
                if c["function"]["name"] not in tools:
                    fail(f"call of undeclared tool {c['function']['name']}")
            j = i + 1
            answered = set()
            while j < len(msgs) and msgs[j]["role"] == "tool":
                answered.add(msgs[j]["tool_call_id"])
                results.append((names.get(msgs[j]["tool_call_id"], "?"), msgs[j]["content"]))
                j += 1
            for cid in names:
                if cid not in answered:
                    fail(f"tool call {cid} not answered")
            i = j
        else:
            i += 1
    return tools, results


def check_pydantic(doc) -> tuple[list[str], list[tuple[str, str]]]:
    tools: list[str] = []
    results: list[tuple[str, str]] = []
    retry = False
    for i, m in enumerate(doc):
        if i and m["kind"] == doc[i - 1]["kind"]:
            fail(f"messages {i - 1} and {i} have the same kind")
        if m["kind"] != "response":
            continue
        calls = [p for p in m["parts"] if p["part_kind"] == "tool-call"]
        tools += [p["tool_name"] for p in calls]
        if calls:
            nxt = doc[i + 1] if i + 1 < len(doc) else {"parts": []}
            got = {p.get("tool_call_id"): p for p in nxt["parts"] if p["part_kind"] in ("tool-return", "retry-prompt")}
            for p in calls:
                if p["tool_call_id"] not in got:
                    fail(f"tool-call {p['tool_call_id']} not answered in the next request")
                else:
                    r = got[p["tool_call_id"]]
                    retry |= r["part_kind"] == "retry-prompt"
                    if r["part_kind"] == "tool-return":
                        c = r["content"]
                        results.append((p["tool_name"], c if isinstance(c, str) else json.dumps(c)))
    if not retry:
        fail("pydantic fixture has no retry-prompt part")
    return sorted(set(tools)), results


def typed(fmt: str, doc) -> None:
    try:
        if fmt == "pydantic":
            import warnings
            from pydantic_ai.messages import ModelMessagesTypeAdapter
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                msgs = ModelMessagesTypeAdapter.validate_json(json.dumps(doc))
            ok(f"typed: pydantic_ai ModelMessagesTypeAdapter.validate_json ({len(msgs)} messages)")
            return
        from pydantic import TypeAdapter
        if fmt == "anthropic":
            from anthropic.types.message_create_params import MessageCreateParamsNonStreaming as T
            name = "anthropic MessageCreateParamsNonStreaming"
        else:
            from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming as T
            name = "openai CompletionCreateParamsNonStreaming"
    except ImportError:
        print(f"  skip typed validation for {fmt} (package not installed)")
        return
    adapter = TypeAdapter(T)  # keep alive while the lazy iterators are consumed

    def deep(x):
        if isinstance(x, dict):
            return {k: deep(v) for k, v in x.items()}
        if x is None or isinstance(x, (str, bytes, int, float, bool)):
            return x
        return [deep(v) for v in x]

    try:
        out = deep(adapter.validate_python(doc))
    except Exception as e:  # pydantic ValidationError
        fail(f"typed {name}: {str(e)[:300]}")
        return
    if out != doc:
        fail(f"typed {name}: round trip changed the document")
    else:
        ok(f"typed: {name}")


# ---------------------------------------------------------------- kernel/policy
def check_kernel(path: Path, strict: bool = True) -> list[str]:
    problems: list[str] = []
    try:
        k = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        return [f"not TOML: {e}"]
    for key in ("id", "version", "objective", "permissions", "prohibition"):
        if key not in k:
            problems.append(f"missing {key}")
    if "sha256" in k and not re.fullmatch(r"[0-9a-f]{64}", k["sha256"]):
        problems.append("sha256 is not 64 lowercase hex characters")
    ids = set()
    for p in k.get("prohibition", []):
        for key in ("id", "text", "tools", "effect", "source", "version", "scope"):
            if key not in p:
                problems.append(f"prohibition {p.get('id', '?')}: missing {key}")
        if p.get("id") in ids:
            problems.append(f"duplicate prohibition id {p['id']}")
        ids.add(p.get("id"))
        if "effect" in p and p["effect"] not in EFFECTS:
            problems.append(f"prohibition {p.get('id')}: bad effect {p['effect']}")
        if "expires_at" in p:
            try:
                exp = datetime.fromisoformat(p["expires_at"].replace("Z", "+00:00"))
                if exp.tzinfo is None:
                    problems.append(f"prohibition {p['id']}: expires_at has no offset")
                elif exp < datetime.now(timezone.utc):
                    problems.append(f"prohibition {p['id']}: expired at {p['expires_at']}")
            except ValueError:
                problems.append(f"prohibition {p['id']}: expires_at is not RFC 3339")
    return problems


def check_policy(path: Path) -> dict:
    pol = tomllib.loads(path.read_text())
    for key in ("id", "version", "compaction", "evidence", "personal_data", "may_persist"):
        if key not in pol:
            fail(f"{path.name}: missing {key}")
    for key in ("trigger_tokens", "min_new_tool_results", "tail_rounds", "stub_threshold_chars", "summary_words"):
        if not isinstance(pol.get("compaction", {}).get(key), int):
            fail(f"{path.name}: compaction.{key} missing or not an integer")
    for name, pat in pol.get("personal_data", {}).get("patterns", {}).items():
        if re.search(r"\(\?<?[=!]", pat) or "\\Z" in pat:
            fail(f"{path.name}: pattern {name} uses lookaround / \\Z (not Rust regex)")
        re.compile(pat)
    if not isinstance(pol.get("may_persist", {}).get("budget"), int):
        fail(f"{path.name}: may_persist.budget missing")
    return pol


def field_values(obj, path: str) -> list:
    cur = [obj]
    for k in path.split("."):
        nxt = []
        for c in cur:
            items = c if isinstance(c, list) else [c]
            for e in items:
                if isinstance(e, dict) and k in e:
                    nxt.append(e[k])
        cur = nxt
    return cur


def records(obj) -> list[dict]:
    """Record candidates: the object itself and dicts in its top-level arrays."""
    out = [obj] if isinstance(obj, dict) else []
    if isinstance(obj, dict):
        for v in obj.values():
            if isinstance(v, list):
                out += [e for e in v if isinstance(e, dict)]
    return out


# ---------------------------------------------------------------- pii
def luhn(n: str) -> bool:
    total = 0
    for i, d in enumerate(reversed(n)):
        d = int(d)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def iban_ok(s: str) -> bool:
    r = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in r)) % 97 == 1


def estimate(fmt: str, doc) -> int:
    """Characters of model-visible text (no JSON framing of the request)."""
    n = 0
    if fmt == "anthropic":
        n += len(doc.get("system", "")) + len(json.dumps(doc.get("tools", [])))
        for m in doc["messages"]:
            for b in m["content"]:
                n += len(b.get("text", "")) + len(json.dumps(b.get("input", ""))) * (b["type"] == "tool_use")
                c = b.get("content", "")
                n += len(c if isinstance(c, str) else json.dumps(c))
    elif fmt == "openai":
        n += len(json.dumps(doc.get("tools", [])))
        for m in doc["messages"]:
            n += len(m.get("content") or "")
            n += sum(len(c["function"]["name"]) + len(c["function"]["arguments"]) for c in m.get("tool_calls", []))
    else:
        for m in doc:
            n += len(m.get("instructions") or "") * (m["kind"] == "request")
            for p in m["parts"]:
                c = p.get("content", p.get("args", ""))
                n += len(c if isinstance(c, str) else json.dumps(c))
    return n


# ---------------------------------------------------------------- main
def main() -> int:
    for session, kernel, policy, want in PAIRS:
        print(f"{session.relative_to(REPO)}")
        doc = json.loads(session.read_text())
        fmt = detect(doc)
        if fmt != want:
            fail(f"detected format {fmt}, expected {want}")
            continue
        ok(f"format {fmt}")
        tools, results = {"anthropic": check_anthropic, "openai": check_openai, "pydantic": check_pydantic}[fmt](doc)
        ncalls = len(results) + (1 if fmt == "pydantic" else 0)
        ok(f"structure: {len(tools)} tools, {ncalls} tool calls answered")
        typed(fmt, doc)

        probs = check_kernel(kernel)
        for p in probs:
            fail(f"{kernel.name}: {p}")
        k = tomllib.loads(kernel.read_text())
        effects = [p["effect"] for p in k.get("prohibition", [])]
        if not probs:
            ok(f"kernel {k['id']}: {len(effects)} prohibitions ({', '.join(effects)})")
        declared = set(tools)
        if fmt != "pydantic":
            for p in k.get("prohibition", []):
                for t in p["tools"]:
                    if t not in declared:
                        fail(f"kernel tool {t} is not declared in the session's tools")

        pol = check_policy(policy)
        by_tool: dict[str, list] = {}
        for name, content in results:
            try:
                by_tool.setdefault(name, []).append(json.loads(content))
            except json.JSONDecodeError:
                pass
        for tool_name, fields in pol["evidence"]["pins"].items():
            if tool_name not in by_tool:
                fail(f"{policy.name}: pinned tool {tool_name} never returns in the session")
                continue
            recs = [r for obj in by_tool[tool_name] for r in records(obj) if fields and fields[0] in r] if fields else []
            for f in fields:
                if not any(field_values(r, f) for r in recs):
                    fail(f"{policy.name}: {tool_name}.{f} not found in any result")
        ok(f"policy {pol['id']}: {len(pol['evidence']['pins'])} pinned/bulk tools checked against results")

        chars = estimate(fmt, doc)
        print(f"  info ~{chars} chars model-visible: ~{chars // 4} tokens at 4 chars/token, "
              f"~{int(chars / 2.3)} at 2.3 chars/token (Claude-like on ID-heavy JSON)")

    # planted PII in the bundled example
    print("examples/billing-dispute/planted-pii.txt")
    text = (EX / "session.json").read_text()
    body = json.loads(text)
    pol = tomllib.loads((EX / "policy.toml").read_text())
    pats = [re.compile(p) for p in pol["personal_data"]["patterns"].values()]
    fields = set(pol["personal_data"]["fields"])
    field_vals: set[str] = set()

    def walk(o):
        if isinstance(o, dict):
            for kk, vv in o.items():
                if kk in fields and isinstance(vv, str):
                    field_vals.add(vv)
                walk(vv)
        elif isinstance(o, list):
            for vv in o:
                walk(vv)

    for m in body["messages"]:
        for b in m["content"]:
            if b["type"] == "tool_result":
                walk(json.loads(b["content"]))
    planted = [l for l in (EX / "planted-pii.txt").read_text().splitlines() if l.strip()]
    for v in planted:
        if v not in text:
            fail(f"planted value not in session: {v}")
        covered = v in field_vals or any(p.fullmatch(v) for p in pats)
        if not covered:
            fail(f"planted value not covered by policy fields or patterns: {v}")
        digits = re.sub(r"\D", "", v)
        if re.fullmatch(r"\d{13,19}", v) and not luhn(v):
            fail(f"card number fails Luhn: {v}")
        if re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", v) and not iban_ok(v):
            fail(f"IBAN fails mod-97: {v}")
    owner = planted[0]
    in_thread = any(owner in json.dumps(json.loads(b["content"]).get("thread", ""))
                    for m in body["messages"] for b in m["content"] if b["type"] == "tool_result")
    in_assistant = any(owner in b.get("text", "") for m in body["messages"] if m["role"] == "assistant" for b in m["content"])
    if not (in_thread and in_assistant):
        fail("owner name must appear in a ticket thread and in assistant text")
    ok(f"{len(planted)} planted values present and covered; owner name in ticket thread and assistant text")

    # the example's tracked facts and mission terms occur in the session / kernel
    key = tomllib.loads((EX / "key.toml").read_text())
    visible = [body["system"]]
    for m in body["messages"]:
        for b in m["content"]:
            visible.append(b.get("text") or b.get("content") or json.dumps(b.get("input")))
    low = "\n".join(visible).lower()
    kernel_low = (EX / "kernel.toml").read_text().lower()
    for f in key["fact"]:
        if not all(t.lower() in low for t in f["key_terms"]):
            fail(f"key.toml {f['id']}: key terms not all in the session")
    for t in key["mission_terms"]:
        if t.lower() not in kernel_low:
            fail(f"key.toml mission term {t!r} not in kernel.toml")
    ok(f"key.toml: {len(key['fact'])} facts found in the session, {len(key['mission_terms'])} mission terms in the kernel")

    # invalid fixtures must fail
    print("tests/fixtures/invalid")
    inv = FX / "invalid"
    try:
        json.loads((inv / "malformed.json").read_text())
        fail("malformed.json parses")
    except json.JSONDecodeError:
        ok("malformed.json does not parse")
    if detect(json.loads((inv / "unknown-format.json").read_text())) is None:
        ok("unknown-format.json is valid JSON of no known format")
    else:
        fail("unknown-format.json detected as a known format")
    p = check_kernel(inv / "kernel-missing-fields.toml")
    (ok if any("missing" in x for x in p) else fail)(f"kernel-missing-fields.toml: {p}")
    p = check_kernel(inv / "kernel-expired.toml")
    (ok if any("expired" in x for x in p) and len(p) == 1 else fail)(f"kernel-expired.toml: {p}")
    p = check_kernel(inv / "kernel-bad-hash.toml")
    h = tomllib.loads((inv / "kernel-bad-hash.toml").read_text()).get("sha256", "")
    (ok if not p and re.fullmatch(r"[0-9a-f]{64}", h) else fail)(
        "kernel-bad-hash.toml: well-formed kernel with a 64-hex sha256 (must not match its content hash)")

    print()
    if errors:
        print(f"{len(errors)} problem(s)")
        return 1
    print("all fixtures valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
