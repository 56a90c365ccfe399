#!/usr/bin/env python3
"""Split the native-vs-text fixtures (OpenAI Responses items) into one
request body and one questions file per conversation, for `continuity
retention`: as Responses requests (`--responses`, read natively) or converted
to Chat Completions (to compare the two readers on the same conversations).

Usage: responses_to_chat.py [--responses] FIXTURES.json OUT_DIR
Writes OUT_DIR/sessions/<id>.json (model, tools, the history and shared tail)
and OUT_DIR/questions/<id>.json ({"id", "questions": [...]}, the shape
`continuity retention --questions` reads). Nothing else is changed: message
text, call ids, arguments and outputs are copied as they are.
"""
import json
import os
import sys


def text_of(content):
    if isinstance(content, str):
        return content
    return "\n".join(c.get("text", "") for c in content if "text" in c)


def chat(items):
    out = []
    for it in items:
        kind = it.get("type", "message")
        if kind == "message":
            role = it["role"]
            if role == "developer":
                role = "system"
            out.append({"role": role, "content": text_of(it["content"])})
        elif kind == "function_call":
            call = {"id": it["call_id"], "type": "function",
                    "function": {"name": it["name"], "arguments": it.get("arguments", "{}")}}
            last = out[-1] if out else None
            # Consecutive calls after an assistant message belong to it.
            if last and last["role"] == "assistant" and not any(
                    m["role"] == "tool" for m in out[-1:]):
                last.setdefault("tool_calls", []).append(call)
            else:
                out.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif kind == "function_call_output":
            out.append({"role": "tool", "tool_call_id": it["call_id"],
                        "content": it["output"] if isinstance(it["output"], str)
                        else json.dumps(it["output"])})
        else:
            raise SystemExit(f"unknown item type {kind}")
    return out


def main():
    argv = sys.argv[1:]
    responses = "--responses" in argv
    argv = [a for a in argv if a != "--responses"]
    if len(argv) != 2:
        raise SystemExit(__doc__)
    src, dst = argv
    os.makedirs(os.path.join(dst, "sessions"), exist_ok=True)
    os.makedirs(os.path.join(dst, "questions"), exist_ok=True)
    for f in json.load(open(src)):
        tools = [{"type": "function", "function": {
            "name": t["name"], "description": t.get("description", ""),
            "parameters": t.get("parameters", {"type": "object"})}} for t in f.get("tools", [])]
        items = f["history"] + f.get("sharedTail", [])
        if responses:
            body = {"model": "gpt-5.6-sol", "tools": f.get("tools", []), "input": items}
        else:
            body = {"model": "gpt-5.6-sol", "tools": tools, "messages": chat(items)}
        with open(os.path.join(dst, "sessions", f["id"] + ".json"), "w") as fh:
            json.dump(body, fh, indent=1)
        with open(os.path.join(dst, "questions", f["id"] + ".json"), "w") as fh:
            json.dump({"id": f["id"], "questions": f["questions"]}, fh, indent=1)
        print(f["id"], len(items), "items,", len(f["questions"]), "questions")


if __name__ == "__main__":
    main()
