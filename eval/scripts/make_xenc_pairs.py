#!/usr/bin/env python3
"""Generate FactCC-style synthetic (premise, hypothesis, label) pairs for the
small cross-encoder used by the meaning-level evaluator.

  premise     a fact statement (answer-key style: one fact, often several clauses)
  hypothesis  a summary clause
  label       entails | neutral | contradicts   (rules: eval/faithfulness/README.md)
  kind        the perturbation that produced the hypothesis
  source      the calibration case or invented template domain

Sources: the `statement` of each [[fact]] in the three calibration answer keys
(eval/billing-dispute/key.toml, examples/billing-dispute/key.toml,
eval/faithfulness/oncall-rollback/key.toml), copied below verbatim, and
invented template domains. Never the held-out cases (customs-hold,
ops-export), eval/faithfulness/summaries.jsonl or ../shared.

Labels (eval/faithfulness/README.md):
  entails      the clause states the fact's core claim (a faithful paraphrase,
               or a clause stating a real part of it);
  contradicts  the clause asserts something the fact shows false (a hold called
               a charge, an authorized change called unauthorized, a wrong
               amount / id / date, a one-off read as blanket, an open item
               called closed, a pending / staged / partial thing called done,
               negation);
  neutral      everything else: topic-only mentions, other facts, true side
               details that do not state the fact.

Deterministic (random.Random(20261130)); byte-identical on rerun.
    python3 eval/scripts/make_xenc_pairs.py            # writes eval/xenc/pairs.jsonl
    python3 eval/scripts/make_xenc_pairs.py --check    # exit 1 if the file differs
    python3 eval/scripts/make_xenc_pairs.py --out PATH
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO / "eval" / "xenc" / "pairs.jsonl"
SEED = 20261130

INSTANCES_PER_DOMAIN = 9     # slot fillings per template domain
PER_INSTANCE = {"entails": 5, "contradicts": 5, "topic_only": 3, "other_fact": 2}
IDENTITY_RATE = 0.3          # share of template premises also paired with themselves
UNRELATED_RATE = 0.06        # share of template premises given one unrelated clause
KEY_VARIANTS = 2             # alternation expansions per key-case template

ENTAIL_KINDS = ("identity", "paraphrase", "subclause", "drop_detail")
CONTRA_KINDS = ("negation", "status_swap", "amount_swap", "id_swap", "date_swap",
                "actor_swap", "scope_swap", "count_swap")
NEUTRAL_KINDS = ("other_fact", "topic_only", "unrelated")
LABEL_OF = {**{k: "entails" for k in ENTAIL_KINDS},
            **{k: "contradicts" for k in CONTRA_KINDS},
            **{k: "neutral" for k in NEUTRAL_KINDS}}


# ==========================================================================
# Template language: "[a|b|c]" picks one alternative (all alternatives of one
# group must keep the label); "{slot}" is filled from the instance's slots.

ALT_RE = re.compile(r"\[([^\[\]]*)\]")
SLOT_RE = re.compile(r"\{(\w+)\}")
SUFFIXES = ("_month_x", "_month", "_alt", "_x")


def expand(template: str, rng: random.Random) -> str:
    while True:
        m = ALT_RE.search(template)
        if not m:
            return template
        template = template[:m.start()] + rng.choice(m.group(1).split("|")) + template[m.end():]


def tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([,;:.])", r"\1", text)
    text = re.sub(r"\b(\w+s)'s\b", r"\1'", text)      # "Iris Florists's" -> "Iris Florists'"
    text = re.sub(r"\.\.$", ".", text)                   # "... Cobalt Print Co.." -> "... Co."
    if re.match(r"[a-z]+\b(?![-_.\d])", text):          # "the HR portal ..." but not "geo-router ..."
        text = text[0].upper() + text[1:]
    return text


def slot_names(template: str) -> set:
    return set(SLOT_RE.findall(template))


def base_name(slot: str) -> str:
    for suf in SUFFIXES:
        if slot.endswith(suf):
            return slot[: -len(suf)]
    return slot


class Fact:
    """One fact pattern: premise templates and hypothesis templates by kind."""

    def __init__(self, key, P, para=(), sub=(), drop=(), topic=(), **contra):
        self.key = key
        self.premises = list(P)
        self.entail = [("paraphrase", t) for t in para] + [("subclause", t) for t in sub] + \
                      [("drop_detail", t) for t in drop]
        names = {"neg": "negation", "status": "status_swap", "amount": "amount_swap",
                 "id": "id_swap", "date": "date_swap", "actor": "actor_swap",
                 "scope": "scope_swap", "count": "count_swap"}
        self.contra = []
        for short, templates in contra.items():
            self.contra += [(names[short], t) for t in templates]
        self.topic = [("topic_only", t) for t in topic]


class Domain:
    def __init__(self, name, slots, facts, other_ok=None):
        self.name, self.slots, self.facts = name, slots, facts
        # key-case facts: which other facts may serve as other_fact neutrals
        self.other_ok = other_ok


# ==========================================================================
# Slot values for invented domains.

FIRST = ["Amara", "Lena", "Diego", "Hana", "Farid", "Ingrid", "Kofi", "Mei", "Rafael", "Sofia",
         "Tariq", "Yara", "Oskar", "Nadia", "Joon", "Elif", "Camille", "Arjun", "Zanele", "Mateo",
         "Greta", "Idris", "Noor", "Paulo", "Signe", "Bruno", "Leila", "Anouk", "Ravi", "Maeve",
         "Chidi", "Ines", "Viktor", "Aiko", "Hugo", "Esme", "Dario", "Freya", "Kenji", "Lucia"]
LAST = ["Okafor", "Vogt", "Ramos", "Sato", "Haddad", "Dahl", "Mensah", "Lin", "Costa", "Novak",
        "Aziz", "Nunes", "Lind", "Petrov", "Park", "Demir", "Roux", "Mehta", "Dube", "Silva",
        "Brandt", "Keane", "Moreau", "Ilves", "Tanaka", "Quist", "Barros", "Halloran", "Osei", "Varga",
        "Jansen", "Rahman", "Ferreira", "Castell", "Nakamura", "Eriksen", "Adeyemi", "Kowalski",
        "Marsh", "Bianchi"]
COMPANIES = ["Alder & Finch Ltd", "Brightwater Dental", "Cobalt Print Co.", "Dunmore Roofing",
             "Ember Studio", "Fennel Catering", "Granite Legal LLP", "Halcyon Fitness", "Iris Florists",
             "Juniper Tutors", "Kingfisher Plumbing", "Lumen Solar", "Marlow Bakery", "Nettle & Sage",
             "Orchid Labs", "Quarry Hill Architects", "Redwing Media", "Saltmarsh Brewing",
             "Tallow Candle Works", "Umber Interiors", "Vantage Optics", "Willowby Vets",
             "Yarrow Software", "Zephyr Audio"]

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]

# (code, symbol or None, decimals, scale from USD-ish magnitudes)
CURRENCIES = [("USD", "$", 2, 1), ("EUR", "\u20ac", 2, 1), ("GBP", "\u00a3", 2, 1),
              ("CHF", None, 2, 1), ("CAD", "C$", 2, 1.3), ("AUD", "A$", 2, 1.5),
              ("JPY", "\u00a5", 0, 150), ("INR", "\u20b9", 0, 80), ("SEK", None, 2, 10)]


class Money:
    """An amount in minor units, rendered in the instance's style."""

    def __init__(self, g, minor):
        self.g, self.minor = g, minor

    def render(self, style, decimals=True):
        code, sym, dec, _ = self.g.cur
        if dec == 2:
            major, cents = divmod(self.minor, 100)
            num = f"{major:,}" + (f".{cents:02d}" if (decimals or cents) else "")
        else:
            num = f"{self.minor:,}"
        if style == 0 and sym:
            return sym + num
        if style == 2:
            return f"{num} {code}"
        return f"{code} {num}"

    def strings(self, rng, avoid=()):
        s = self.render(*self.g.mstyle)
        alts = [self.render(st, d) for st in (0, 1, 2) for d in (True, False)]
        alts = [a for a in dict.fromkeys(alts) if a != s]
        alt = rng.choice(alts) if alts else s
        x = self.wrong(rng, {s, alt, *avoid})    # never another amount of the same instance
        return s, alt, x

    def wrong(self, rng, avoid):
        dec = self.g.cur[2]
        unit = 100 if dec == 2 else 1
        v = self.minor
        cands = []
        digits = str(v // unit)
        for i in range(len(digits) - 1):
            if digits[i] != digits[i + 1] and not (i == 0 and digits[i + 1] == "0"):
                t = digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:]
                cands.append(int(t) * unit + v % unit)
        cands += [v * 2, v * 10, (v // 2 // unit) * unit + v % unit, v + max(unit, v // 10 // unit * unit)]
        if dec == 2:
            cands.append(v - v % 100 + (v % 100 + 40) % 100)
        rng.shuffle(cands)
        for c in cands:
            if c > 0 and c != v:
                r = Money(self.g, c).render(*self.g.mstyle)
                if r not in avoid:
                    return r
        return Money(self.g, v * 3).render(*self.g.mstyle)


class Day:
    def __init__(self, g, date):
        self.g, self.date = g, date

    def render(self, style, date=None):
        d = date or self.date
        if style == 0:
            return d.isoformat()
        if style == 1:
            return f"{d.day} {MONTHS[d.month - 1]} {d.year}"
        if style == 2:
            return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"
        return f"{d.day} {MONTHS[d.month - 1][:3]} {d.year}"

    def strings(self, rng):
        st = self.g.dstyle
        s = self.render(st)
        alt = self.render(rng.choice([k for k in range(4) if k != st]))
        shift = rng.choice([-9, -6, -4, -3, -2, -1, 1, 2, 3, 5, 7, 10, 30, -30])
        x = self.render(st, self.date + dt.timedelta(days=shift))
        month = MONTHS[self.date.month - 1]
        month_x = MONTHS[(self.date.month - 1 + rng.choice([-2, -1, 1, 2, 3])) % 12]
        return s, alt, x, month, month_x


class Ident:
    def __init__(self, text):
        self.text = text

    def wrong(self, rng):
        pos = [i for i, c in enumerate(self.text) if c.isdigit()]
        for _ in range(20):
            i = rng.choice(pos)
            c = rng.choice([d for d in "0123456789" if d != self.text[i]])
            t = self.text[:i] + c + self.text[i + 1:]
            if t != self.text:
                return t
        return self.text + "1"


class Num:
    def __init__(self, value, lo, hi):
        self.value, self.lo, self.hi = value, lo, hi

    def wrong(self, rng):
        cands = [v for v in range(max(self.lo, self.value - 3), min(self.hi, self.value + 3) + 1)
                 if v != self.value]
        return rng.choice(cands) if cands else self.value + 1


class Gen:
    """Slot generator for one domain instance (unique names and ids inside it)."""

    def __init__(self, rng):
        self.rng = rng
        self.cur = rng.choice(CURRENCIES)
        self.mstyle = (rng.randrange(3), rng.random() < 0.75)
        self.dstyle = rng.randrange(4)
        self.base = dt.date(2026, 1, 5) + dt.timedelta(days=rng.randrange(1000))
        self.used = set()

    def _unique(self, make):
        for _ in range(200):
            v = make()
            if v not in self.used:
                self.used.add(v)
                return v
        raise RuntimeError("slot pool exhausted")

    def person(self):
        return self._unique(lambda: f"{self.rng.choice(FIRST)} {self.rng.choice(LAST)}")

    def pick(self, pool):
        return self._unique(lambda: self.rng.choice(pool))

    def ident(self, fmt):
        def make():
            return "".join(self.rng.choice("0123456789") if c == "#" else
                           self.rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") if c == "@" else c for c in fmt)
        return Ident(self._unique(make))

    def money(self, lo, hi):
        code, sym, dec, scale = self.cur
        major = self.rng.randint(int(lo * scale), int(hi * scale))
        if dec == 0:
            return Money(self, max(10, round(major, -1)))
        cents = 0 if self.rng.random() < 0.4 else self.rng.choice([50, 25, 75, 99, 10, 40, 60, 80]
                                                                   + [self.rng.randint(1, 99)])
        return Money(self, major * 100 + cents)

    def split(self, total, lo=0.35, hi=0.8):
        unit = 100 if self.cur[2] == 2 else 10
        part = int(total.minor * self.rng.uniform(lo, hi)) // unit * unit
        return Money(self, part), Money(self, total.minor - part)

    def day(self, lo=0, hi=0):
        return Day(self, self.base + dt.timedelta(days=self.rng.randint(lo, hi)))

    def after(self, day, lo, hi):
        return Day(self, day.date + dt.timedelta(days=self.rng.randint(lo, hi)))

    def num(self, lo, hi, xlo=None, xhi=None):
        return Num(self.rng.randint(lo, hi), lo if xlo is None else xlo, hi if xhi is None else xhi)

    def flatten(self, raw):
        rng, out = self.rng, {}
        amounts = {v.render(*self.mstyle) for v in raw.values() if isinstance(v, Money)}
        for k, v in raw.items():
            if isinstance(v, Money):
                out[k], out[k + "_alt"], out[k + "_x"] = v.strings(rng, amounts)
            elif isinstance(v, Day):
                out[k], out[k + "_alt"], out[k + "_x"], out[k + "_month"], out[k + "_month_x"] = v.strings(rng)
            elif isinstance(v, Ident):
                out[k], out[k + "_x"] = v.text, v.wrong(rng)
            elif isinstance(v, Num):
                out[k], out[k + "_x"] = str(v.value), str(v.wrong(rng))
            else:
                out[k] = str(v)
        return out


# ==========================================================================
# Calibration cases. Premises are the answer-key statements, verbatim
# (checked against the key files at run time). No slots: hypotheses are
# written out, with [a|b] alternations.

KEY_FILES = {
    "billing-dispute": "eval/billing-dispute/key.toml",
    "example-billing": "examples/billing-dispute/key.toml",
    "oncall-rollback": "eval/faithfulness/oncall-rollback/key.toml",
}

STATEMENTS = {
    "CF1": "The second $149 on 2026-09-14 (TX-9002) is an authorization that was never captured; it timed out, was retried as the captured settlement TX-9001, and was released, so only one $149 was charged.",
    "CF2": "Support ticket SUP-5601 concluded 'duplicate charge' and promised a $149 refund before billing review; the promise is wrong and must be withdrawn by a human.",
    "CF3": "The $19.60 proration credit CR-778 from the July upgrade (INV-2607P) is still unapplied and the owner was never notified; the customer is owed $19.60.",
    "CF4": "Support ticket SUP-5549 told the customer 'no credit due' for the July upgrade; that answer was wrong because CR-778 exists and is owed.",
    "CF5": "The $30 Deep Time Analytics add-on was added on 2026-09-12 by the admin seat U-2 (not the owner) and was billed as the add-on policy allows.",
    "CF6": "The open escalation SUP-5602 still has three open obligations: decide on the refund promised in SUP-5601, answer the Deep Time Analytics add-on question, and review the July upgrade question.",
    "EF1": "The second EUR 412.50 on 2027-05-03 (PAY-77120) is an authorization that was never captured; it was re-attempted as PAY-77124, the only capture for INV-27-0503, and voided on 2027-05-06.",
    "EF2": "Helpdesk ticket HD-21340 called it a double charge and promised a EUR 412.50 refund before billing review; the promise must be withdrawn by a human.",
    "EF3": "SLA credit note CN-3307 (EUR 61.88, for the 31.2-hour outage INC-4471) was approved on 2027-01-25 but never applied, and the owner was never told; the customer is owed EUR 61.88.",
    "EF4": "Ticket HD-20988 told the owner 'no SLA credit applies' for the January outage; that answer was wrong.",
    "EF5": "The EUR 64 Frost Alert SMS add-on was ordered through the API on 2027-04-27 by seat U-203, a billing_admin, which the add-on policy allows.",
    "EF6": "Escalation HD-21355 has three open items: decide on the EUR 412.50 refund promised in HD-21340, tell the owner who ordered the Frost Alert SMS bundle, and re-check the SLA credit answer given in HD-20988.",
    "IF1": "Rollback RB-2291 of geo-router to v3.17.4 is only staged: Priya Ndlovu staged it on 2027-06-14 and its dry run passed, but it has not been executed and waits for the incident commander's go.",
    "IF2": "Config change CHG-4417 (geo-router db pool max_connections from 200 to 800, applied 2027-06-14) was made by Priya Ndlovu, who holds the platform-admin role, and passed the authorization check; it is not an unauthorized change.",
    "IF3": "Freeze exception EXC-0931, approved by release manager Tomas Berg on 2027-06-14, allows a single use for the RB-2291 rollback only and expires on 2027-06-15 at 06:00 UTC; it is not a blanket exemption from freeze FRZ-2027-06, so any other deploy such as v3.18.1 needs its own exception.",
    "IF4": "Incident INC-7702, resolved on 2027-06-09, was reopened on 2027-06-14 and is open again at sev2; INC-7735, opened automatically by the pager, is the duplicate that was closed into it.",
    "IF5": "Deploy DEP-5512 (v3.17.4 to v3.18.0) is held, not completed: the rollout guardrail paused it automatically at 09:42 UTC on 2027-06-14 with 12 of 30 pods (40% of traffic) on v3.18.0, after the 5xx rate reached 4.2% against a 1% guardrail.",
}


def K(key, **kw):
    return Fact(key, [STATEMENTS[key]], **kw)


# --- eval/billing-dispute (CF1..CF6) -------------------------------------
BILLING = [
    K("CF1",
      para=["TX-9002, the second $149 on 2026-09-14, was [only|just|merely] an authorization [and was never captured|that never got captured]; only one $149 was [actually charged|captured].",
            "Only one $149 was charged: the second entry (TX-9002) was an uncaptured authorization that [timed out and was released|was released after it timed out].",
            "The 2026-09-14 authorization TX-9002 timed out, was retried as the captured settlement TX-9001, and was released, so the customer paid $149 [once|only once].",
            "The customer was charged $149 [once|a single time], not twice; TX-9002 was an authorization that [never settled|was never captured].",
            "There was no second charge: the extra $149 line (TX-9002) was [an authorization hold|a card authorization] that was released without [capture|being captured].",
            "The retry TX-9001 is the only captured $149; TX-9002 was the timed-out authorization and [was released|got released].",
            "Money [moved|was taken] only once for the $149; the other September line was an authorization that lapsed [unused|without capture]."],
      sub=["TX-9002 was never captured.",
           "Only one $149 was [charged|captured].",
           "TX-9002 is an authorization, not a [charge|capture].",
           "The second $149 on 2026-09-14 was [never captured|not captured]."],
      drop=["The second $149 was only an authorization that was never captured.",
            "The second charge was just an uncaptured authorization; the customer was [only charged once|charged only once].",
            "The duplicate-looking entry was an authorization that was released, so only one payment went through."],
      status=["The customer was billed twice: a duplicate $149 payment [appears|was taken] on 2026-09-14.",
              "TX-9002 was captured [as a second charge|alongside TX-9001].",
              "TX-9002 is a duplicate charge that should be refunded.",
              "The second $149 (TX-9002) settled and the customer paid for it.",
              "Both $149 charges on 2026-09-14 went through."],
      neg=["TX-9002 was not an authorization; it was a [real|full] charge.",
           "It is not the case that only one $149 was charged.",
           "TX-9002 was never released."],
      count=["The customer was charged $149 twice on 2026-09-14.",
             "Two $149 captures were recorded on 2026-09-14."],
      amount=["The second authorization, TX-9002, was for $194.",
              "Only one $129 was charged; TX-9002 was an uncaptured authorization.",
              "The customer paid $298 in total for the September charges."],
      id=["TX-9001 was the authorization that was never captured.",
          "The captured settlement was TX-9002, and TX-9001 was released."],
      date=["The second $149 authorization, TX-9002, was [made|created] on 2026-09-15.",
            "TX-9002 is an uncaptured authorization from 2026-08-14."],
      topic=["The agent looked at TX-9002.",
             "The customer asked whether TX-9002 had been captured as a second charge.",
             "The two $149 entries on 2026-09-14 were [reviewed|examined].",
             "The customer [asked about|questioned] the second $149 on 2026-09-14.",
             "Billing [checked|pulled] the processor records for TX-9001 and TX-9002.",
             "The customer [says|claims] they were charged $149 twice.",
             "Card authorizations were [discussed|explained to the customer]."]),
    K("CF2",
      para=["SUP-5601 [concluded|decided] it was a duplicate charge and promised a $149 refund before billing review; that promise is wrong and a human [must|has to] withdraw it.",
            "The $149 refund promised in SUP-5601 was a mistake and must be withdrawn by a [person|human].",
            "Support promised a $149 refund in SUP-5601 before billing had reviewed it, and that promise [is wrong|was made in error] and has to be taken back by a human.",
            "The refund promise in ticket SUP-5601 should not stand; a person must withdraw it.",
            "A human [needs to|must] retract the $149 refund that SUP-5601 [wrongly|mistakenly] promised.",
            "The refund pledge made in SUP-5601 is wrong, and a staff member has to retract it."],
      sub=["The refund promised in SUP-5601 is wrong.",
           "A human must withdraw the SUP-5601 refund promise.",
           "The $149 refund promise in SUP-5601 [has to|must] be withdrawn."],
      drop=["The support ticket's refund promise was wrong and must be withdrawn by a human.",
            "The refund that support promised is wrong and has to be withdrawn by a person."],
      status=["The $149 refund promised in SUP-5601 [is valid|stands] and should be paid.",
              "SUP-5601 correctly [found|identified] a duplicate charge, and the $149 refund is due.",
              "The $149 refund from SUP-5601 has already been [issued|paid out].",
              "The refund promise in SUP-5601 was already withdrawn."],
      actor=["The SUP-5601 promise can be withdrawn automatically; no human is needed.",
             "Billing review promised the $149 refund in SUP-5601."],
      neg=["The refund promise in SUP-5601 is not wrong.",
           "The SUP-5601 promise does not need to be withdrawn."],
      amount=["SUP-5601 promised a $194 refund, which must be withdrawn.",
              "The $298 refund promised in SUP-5601 must be withdrawn."],
      id=["Support ticket SUP-5549 promised the $149 refund that must now be withdrawn.",
          "SUP-5602 promised a $149 refund before billing review, and that promise is wrong."],
      topic=["SUP-5601 was [opened|read|reviewed] during the investigation.",
             "The refund was discussed.",
             "The agent looked at the refund thread in SUP-5601.",
             "The customer asked about the $149 refund mentioned in SUP-5601.",
             "The customer says support promised a refund."]),
    K("CF3",
      para=["Credit CR-778 ($19.60, proration from the July upgrade on INV-2607P) [has still not been|was never] applied, and nobody told the owner; $19.60 is owed to the customer.",
            "The customer is still owed $19.60: proration credit CR-778 from the July upgrade was never applied, and the owner was never [informed|notified].",
            "CR-778, a $19.60 proration credit tied to INV-2607P, remains unapplied, and the account owner has not been notified.",
            "The July upgrade left a $19.60 proration credit (CR-778) that still hasn't been applied, and the owner was never told about it.",
            "$19.60 is still due back to the customer from the July upgrade; the credit CR-778 [sits unapplied|was never applied]."],
      sub=["CR-778 is still unapplied.",
           "The customer is owed $19.60.",
           "The owner was never notified about credit CR-778."],
      drop=["A proration credit from the July upgrade is still unapplied, and the customer is owed it.",
            "The July upgrade credit was never applied, and the owner was never told."],
      status=["Credit CR-778 was applied to the customer's [next|September] invoice.",
              "The $19.60 proration credit CR-778 has already been [applied|paid out|refunded].",
              "The owner was notified about CR-778 [in July|when it was issued].",
              "The customer has received the $19.60 credit, so nothing is owed."],
      neg=["The customer is not owed anything for the July upgrade.",
           "CR-778 is not outstanding."],
      amount=["CR-778 is a $16.90 proration credit.",
              "The customer is owed $196.00 from CR-778."],
      id=["The unapplied proration credit is CR-787.",
          "The unapplied $19.60 credit is CR-778 from invoice INV-2609P."],
      date=["The proration credit CR-778 came from the August upgrade.",
            "CR-778 is a proration credit from the June upgrade."],
      topic=["The agent looked at credit CR-778.",
             "The owner asked whether credit CR-778 had been applied.",
             "The July upgrade and invoice INV-2607P were reviewed.",
             "Proration credits were discussed.",
             "The owner asked about the July upgrade.",
             "CR-778 appears on the account's credit ledger."]),
    K("CF4",
      para=["SUP-5549's 'no credit due' answer about the July upgrade was wrong: credit CR-778 exists and is owed.",
            "The customer was [wrongly|incorrectly] told in SUP-5549 that no credit was due for the July upgrade; CR-778 is owed.",
            "Contrary to SUP-5549, a credit is due for the July upgrade (CR-778).",
            "Ticket SUP-5549 gave the customer an incorrect answer ('no credit due') about the July upgrade, since CR-778 [is still owed|exists and is owed].",
            "Support was mistaken when it told the customer nothing was owed for the July upgrade."],
      sub=["The 'no credit due' answer in SUP-5549 was wrong.",
           "SUP-5549 gave a wrong answer about the July upgrade credit."],
      drop=["A support ticket wrongly told the customer no credit was due for the July upgrade."],
      status=["SUP-5549 was right that no credit is due for the July upgrade.",
              "The July upgrade earned no credit, as SUP-5549 [said|correctly said].",
              "SUP-5549 told the customer a credit of $19.60 was due for the July upgrade."],
      neg=["The answer in SUP-5549 was not wrong.",
           "CR-778 does not exist."],
      id=["Ticket SUP-5601 told the customer 'no credit due' for the July upgrade.",
          "SUP-5602 wrongly told the customer that no credit was due for the July upgrade."],
      date=["SUP-5549 told the customer no credit was due for the August upgrade."],
      actor=["The customer told support in SUP-5549 that no credit was due."],
      topic=["SUP-5549 was [read|reviewed].",
             "The customer asked support about a credit for the July upgrade.",
             "SUP-5549 concerns the July upgrade.",
             "Support tickets about the July upgrade were pulled."]),
    K("CF5",
      para=["Admin seat U-2, not the owner, added the $30 Deep Time Analytics add-on on 2026-09-12, and the charge followed the add-on policy.",
            "The Deep Time Analytics add-on ($30) was [added|ordered] by admin U-2 on 2026-09-12; billing it was allowed under the add-on policy.",
            "The $30 add-on charge is legitimate: an admin seat (U-2) added Deep Time Analytics on 2026-09-12, which the policy permits.",
            "On 2026-09-12 the admin seat U-2 added Deep Time Analytics for $30, and it was billed in line with the add-on policy.",
            "An account administrator, rather than the owner, turned on the analytics add-on, and charging for it was permitted."],
      sub=["U-2, an admin seat, added the Deep Time Analytics add-on.",
           "The $30 Deep Time Analytics add-on was billed as the policy allows.",
           "The owner did not add the Deep Time Analytics add-on; admin U-2 did."],
      drop=["An admin seat, not the owner, added the analytics add-on, and it was billed as the policy allows."],
      status=["The Deep Time Analytics add-on was added without authorization.",
              "The $30 add-on charge was [unauthorized|a billing error] and [violates|breaks] the add-on policy.",
              "Nobody on the account ordered the Deep Time Analytics add-on.",
              "The add-on was billed in breach of the add-on policy and must be refunded."],
      actor=["The owner added the Deep Time Analytics add-on on 2026-09-12.",
             "U-2 is the owner seat, and it added the add-on."],
      neg=["U-2 is not an admin seat.",
           "The add-on policy does not allow the $30 charge."],
      amount=["The Deep Time Analytics add-on costs $39.",
              "Admin U-2 added a $300 add-on on 2026-09-12."],
      date=["U-2 added the add-on on 2026-09-21.",
            "The Deep Time Analytics add-on was added on 2026-09-14."],
      id=["Admin seat U-7 added the Deep Time Analytics add-on."],
      topic=["The Deep Time Analytics add-on was [discussed|looked into].",
             "The customer asked who added the Deep Time Analytics add-on.",
             "The agent checked the add-on policy.",
             "Seat U-2 appears on the account."]),
    K("CF6",
      para=["Escalation SUP-5602 is still open with three pending items: a decision on the SUP-5601 refund promise, an answer on the Deep Time Analytics add-on, and a review of the July upgrade question.",
            "Three things remain open on SUP-5602: deciding the refund promised in SUP-5601, answering the add-on question, and reviewing the July upgrade question.",
            "SUP-5602 remains open; its outstanding obligations are the SUP-5601 refund decision, the Deep Time Analytics question, and the July upgrade question."],
      sub=["Escalation SUP-5602 is still open.",
           "SUP-5602 still needs a decision on the refund promised in SUP-5601.",
           "The Deep Time Analytics add-on question in SUP-5602 is still [unanswered|open].",
           "The July upgrade question still has to be reviewed under SUP-5602."],
      drop=["The open escalation still has three obligations: the refund decision, the add-on question and the July upgrade question."],
      status=["Escalation SUP-5602 has been [resolved|closed].",
              "All obligations on SUP-5602 have been [completed|met].",
              "The refund decision for SUP-5601 has already been made.",
              "The Deep Time Analytics question was answered."],
      count=["SUP-5602 has only one open obligation left: the refund decision.",
             "SUP-5602 has five open obligations."],
      neg=["SUP-5602 has no open obligations.",
           "The July upgrade question does not need review."],
      id=["The open escalation is SUP-5601.",
          "SUP-5602 must decide on the refund promised in SUP-5549."],
      topic=["The agent read escalation SUP-5602.",
             "SUP-5602 mentions the Deep Time Analytics add-on.",
             "Escalations were discussed.",
             "SUP-5602 was [raised|opened] as an escalation."]),
]
BILLING_OTHER = {"CF1": ["CF3", "CF4", "CF5"], "CF2": ["CF3", "CF4", "CF5"],
                 "CF3": ["CF1", "CF2", "CF5"], "CF4": ["CF1", "CF2", "CF5"],
                 "CF5": ["CF1", "CF2", "CF3", "CF4"], "CF6": ["CF1", "CF3"]}

# --- examples/billing-dispute (EF1..EF6) ---------------------------------
EXAMPLE = [
    K("EF1",
      para=["PAY-77120, the second EUR 412.50 on 2027-05-03, was [only|just] an authorization that was never captured, and it was voided on 2027-05-06.",
            "Only one EUR 412.50 was captured for INV-27-0503 (PAY-77124); the other entry, PAY-77120, was an uncaptured authorization that was [later voided|voided on 2027-05-06].",
            "The EUR 412.50 authorization PAY-77120 never settled: it was re-attempted as PAY-77124 and voided on 2027-05-06.",
            "There was no double charge on INV-27-0503: PAY-77124 is the only capture, and PAY-77120 was a voided authorization.",
            "Only one of the two EUR 412.50 lines from 2027-05-03 was real money; the other was a card authorization that was voided."],
      sub=["PAY-77120 was never captured.",
           "PAY-77124 is the only capture for INV-27-0503.",
           "The authorization PAY-77120 was voided on 2027-05-06.",
           "PAY-77120 is an authorization, not a charge."],
      drop=["The second EUR 412.50 was only an authorization that was never captured and was later voided.",
            "The second payment was an uncaptured authorization; only one capture exists for the invoice."],
      status=["The customer was charged EUR 412.50 twice for INV-27-0503.",
              "PAY-77120 was captured as a second EUR 412.50 payment.",
              "PAY-77120 is a duplicate charge that has to be refunded.",
              "Both PAY-77120 and PAY-77124 were captured for INV-27-0503."],
      neg=["PAY-77120 was not voided.",
           "PAY-77124 is not the only capture for INV-27-0503."],
      count=["Two EUR 412.50 captures were recorded for INV-27-0503."],
      amount=["The second authorization, PAY-77120, was for EUR 421.50.",
              "The uncaptured authorization PAY-77120 was for EUR 142.50."],
      id=["PAY-77124 was the authorization that was never captured.",
          "PAY-77120 is the only capture for INV-27-0503."],
      date=["PAY-77120 was voided on 2027-05-03.",
            "The second EUR 412.50 authorization was made on 2027-05-06."],
      topic=["The agent looked at PAY-77120 and PAY-77124.",
             "The two EUR 412.50 rows for INV-27-0503 were examined.",
             "The customer reported being charged EUR 412.50 twice.",
             "Processor records for the 2027-05-03 payments were requested.",
             "Card authorizations were discussed."]),
    K("EF2",
      para=["The EUR 412.50 refund promised in HD-21340 has to be withdrawn by a [person|human].",
            "HD-21340 [labelled|called] it a double charge and promised a EUR 412.50 refund before billing had reviewed it; a human must retract that promise.",
            "A staff member needs to take back the refund promise made in helpdesk ticket HD-21340.",
            "The refund promised in HD-21340 before billing review cannot stand and must be withdrawn by a human."],
      sub=["The HD-21340 refund promise must be withdrawn.",
           "A human has to withdraw the refund promise in HD-21340."],
      drop=["The helpdesk's refund promise must be withdrawn by a human."],
      status=["The EUR 412.50 refund promised in HD-21340 stands and should be paid.",
              "HD-21340's refund promise has already been withdrawn.",
              "The EUR 412.50 refund from HD-21340 was paid out.",
              "HD-21340 correctly found a double charge, so the refund is owed."],
      actor=["The HD-21340 promise can be withdrawn automatically; no human needs to do it.",
             "Billing review promised the EUR 412.50 refund in HD-21340."],
      neg=["The refund promise in HD-21340 does not need to be withdrawn."],
      amount=["HD-21340 promised a EUR 421.50 refund, which must be withdrawn.",
              "HD-21340 promised a refund of EUR 825.00."],
      id=["Helpdesk ticket HD-20988 promised the EUR 412.50 refund that must be withdrawn.",
          "The refund promise that must be withdrawn is in HD-21355."],
      topic=["HD-21340 was read during the investigation.",
             "The refund was discussed.",
             "The customer says support promised a refund.",
             "The agent opened helpdesk ticket HD-21340."]),
    K("EF3",
      para=["Credit note CN-3307 for EUR 61.88 was approved on 2027-01-25 but has never been applied, and the owner was not informed; EUR 61.88 is owed.",
            "The customer is still owed the EUR 61.88 SLA credit (CN-3307) for outage INC-4471: approved, never applied, never communicated.",
            "CN-3307, the SLA credit for the 31.2-hour INC-4471 outage, was approved but never applied, and the owner was never told.",
            "Nobody told the owner about SLA credit note CN-3307, and it was never applied even though it was approved on 2027-01-25.",
            "The outage compensation was signed off in January but never reached the customer's bill, and the owner was kept in the dark."],
      sub=["CN-3307 was never applied.",
           "The customer is owed EUR 61.88.",
           "The owner was never told about CN-3307.",
           "CN-3307 was approved on 2027-01-25."],
      drop=["An approved SLA credit note was never applied, and the customer is owed it.",
            "The SLA credit for the outage was approved but never applied, and the owner was never told."],
      status=["CN-3307 was applied to the customer's account.",
              "The EUR 61.88 SLA credit has already been paid to the customer.",
              "The owner was told about CN-3307 when it was approved.",
              "CN-3307 was rejected, so no SLA credit is owed."],
      neg=["The customer is not owed any SLA credit.",
           "CN-3307 was never approved."],
      amount=["CN-3307 is for EUR 68.18.",
              "The customer is owed EUR 16.88 under CN-3307.",
              "CN-3307 is for the 21.3-hour outage INC-4471."],
      date=["CN-3307 was approved on 2027-01-19.",
            "CN-3307 was approved on 2027-05-25."],
      id=["The unapplied SLA credit note is CN-2911.",
          "CN-3307 covers outage INC-4417."],
      topic=["The agent looked up CN-3307.",
             "The owner asked whether the EUR 61.88 credit CN-3307 had been applied.",
             "Outage INC-4471 was discussed.",
             "SLA credit rules were checked.",
             "INC-4471 lasted 31.2 hours."]),
    K("EF4",
      para=["HD-20988 wrongly told the owner that no SLA credit applied to the January outage.",
            "The 'no SLA credit applies' answer given in ticket HD-20988 about the January outage was incorrect.",
            "Contrary to what HD-20988 said, an SLA credit does apply for the January outage.",
            "The owner got a wrong answer in HD-20988: it said the January outage earned no SLA credit.",
            "Support misinformed the owner when it said the January downtime didn't qualify for an SLA credit."],
      sub=["HD-20988's answer about the January outage was wrong."],
      drop=["A ticket wrongly told the owner that no SLA credit applied for the January outage."],
      status=["HD-20988 was right that no SLA credit applies for the January outage.",
              "HD-20988 correctly told the owner the January outage did not qualify for a credit.",
              "HD-20988 told the owner an SLA credit was due for the January outage."],
      neg=["The answer in HD-20988 was not wrong.",
           "No SLA credit applies for the January outage."],
      id=["Ticket HD-21340 told the owner 'no SLA credit applies' for the January outage."],
      date=["HD-20988 told the owner no SLA credit applies for the March outage."],
      actor=["The owner told support in HD-20988 that no SLA credit applied."],
      topic=["The agent read ticket HD-20988.",
             "The January outage was discussed.",
             "The owner asked support about an SLA credit.",
             "HD-20988 was about the January outage."]),
    K("EF5",
      para=["Seat U-203, a billing_admin, ordered the EUR 64 Frost Alert SMS add-on through the API on 2027-04-27, as the add-on policy allows.",
            "The Frost Alert SMS add-on (EUR 64) was a permitted order: billing_admin U-203 placed it via the API on 2027-04-27.",
            "The add-on policy allows what happened: U-203, who holds the billing_admin role, ordered Frost Alert SMS on 2027-04-27.",
            "U-203 ordered the Frost Alert SMS add-on through the API, and as a billing_admin it was allowed to.",
            "A billing administrator on the account legitimately bought the SMS alert add-on through the API."],
      sub=["U-203 is a billing_admin.",
           "U-203 ordered the Frost Alert SMS add-on.",
           "The add-on policy allows the Frost Alert SMS order."],
      drop=["A billing_admin seat ordered the SMS add-on through the API, which the add-on policy allows."],
      status=["Nobody on the account ordered the Frost Alert SMS add-on.",
              "The Frost Alert SMS add-on was ordered without authorization.",
              "The EUR 64 add-on violates the add-on policy and must be refunded.",
              "U-203 had no right to order the Frost Alert SMS add-on."],
      actor=["The owner ordered the Frost Alert SMS add-on on 2027-04-27.",
             "Support added the Frost Alert SMS add-on to the account."],
      neg=["U-203 is not a billing_admin."],
      amount=["The Frost Alert SMS add-on costs EUR 46.",
              "U-203 ordered a EUR 640 add-on."],
      date=["U-203 ordered the add-on on 2027-04-22.",
            "The Frost Alert SMS add-on was ordered on 2027-05-03."],
      id=["Seat U-201 ordered the Frost Alert SMS add-on."],
      topic=["The Frost Alert SMS add-on was discussed.",
             "The owner asked who ordered the Frost Alert SMS add-on.",
             "The agent checked the add-on policy.",
             "Seat U-203 appears in the account's seat list.",
             "The EUR 64 add-on charge was looked at."]),
    K("EF6",
      para=["Three items remain open on escalation HD-21355: the EUR 412.50 refund decision from HD-21340, telling the owner who ordered Frost Alert SMS, and re-checking the HD-20988 SLA credit answer.",
            "HD-21355 still needs a refund decision (HD-21340), an answer to the owner about who ordered the Frost Alert SMS bundle, and a re-check of the SLA credit answer in HD-20988.",
            "The open items on HD-21355 are: decide the promised refund, tell the owner who ordered the SMS bundle, and re-check the SLA credit answer."],
      sub=["HD-21355 still has to decide on the EUR 412.50 refund promised in HD-21340.",
           "The owner has not yet been told who ordered the Frost Alert SMS bundle.",
           "The SLA credit answer from HD-20988 still needs re-checking under HD-21355.",
           "Escalation HD-21355 has three open items."],
      drop=["The escalation has three open items: the refund decision, who ordered the SMS bundle, and the SLA credit answer."],
      status=["Escalation HD-21355 has been closed.",
              "All items on HD-21355 have been completed.",
              "The owner has already been told who ordered the Frost Alert SMS bundle.",
              "The refund decision for HD-21340 has been made and recorded in HD-21355."],
      count=["HD-21355 has only one open item left.",
             "Escalation HD-21355 has five open items."],
      neg=["HD-21355 has no open items."],
      id=["The open escalation is HD-21340.",
          "HD-21355 must re-check the SLA credit answer given in HD-21340."],
      amount=["HD-21355 must decide on a EUR 421.50 refund."],
      topic=["The agent read escalation HD-21355.",
             "The Frost Alert SMS bundle came up in HD-21355.",
             "Escalations were discussed.",
             "HD-21355 is an internal escalation."]),
]
EXAMPLE_OTHER = {"EF1": ["EF3", "EF4", "EF5"], "EF2": ["EF3", "EF4", "EF5"],
                 "EF3": ["EF1", "EF2", "EF5"], "EF4": ["EF1", "EF2", "EF5"],
                 "EF5": ["EF1", "EF2", "EF3", "EF4"], "EF6": ["EF1", "EF3"]}

# --- eval/faithfulness/oncall-rollback (IF1..IF5) ------------------------
ONCALL = [
    K("IF1",
      para=["RB-2291, the geo-router rollback to v3.17.4, is staged but has not been executed; it is waiting for the incident commander's go.",
            "Priya Ndlovu staged rollback RB-2291 on 2027-06-14 and the dry run passed, but nobody has executed it yet.",
            "The geo-router rollback (RB-2291) has not run: it is only staged, pending the incident commander's go-ahead.",
            "Rollback RB-2291 is staged, not executed; it still needs the incident commander's go.",
            "Although its dry run passed, RB-2291 has not been executed [yet|so far].",
            "The prepared geo-router rollback is sitting idle until the incident commander says go."],
      sub=["Rollback RB-2291 has not been executed.",
           "RB-2291 is waiting for the incident commander's go.",
           "Rollback RB-2291 is [only staged|staged]."],
      drop=["The rollback is only staged; it has not been executed and waits for the incident commander's go.",
            "The rollback was staged and its dry run passed, but it has not been executed."],
      status=["Rollback RB-2291 was executed on 2027-06-14.",
              "geo-router was rolled back to v3.17.4 by RB-2291.",
              "Priya Ndlovu ran the RB-2291 rollback after the dry run passed.",
              "The incident commander gave the go, and RB-2291 has been executed.",
              "RB-2291 completed and geo-router is back on v3.17.4."],
      neg=["RB-2291's dry run did not pass.",
           "RB-2291 is not waiting for anyone's go."],
      actor=["The incident commander staged RB-2291, and Priya Ndlovu has to give the go.",
             "RB-2291 is waiting for Priya Ndlovu's approval before it runs."],
      date=["Priya Ndlovu staged RB-2291 on 2027-06-12."],
      id=["Rollback RB-2219 is the one staged for geo-router.",
          "Rollback RB-2291 takes geo-router to v3.18.0."],
      topic=["The agent looked at rollback RB-2291.",
             "The incident commander asked whether RB-2291 had already been executed.",
             "Priya Ndlovu was asked about the rollback.",
             "The rollback plan for geo-router was discussed.",
             "RB-2291 targets geo-router.",
             "The dry-run log for RB-2291 was reviewed."]),
    K("IF2",
      para=["Priya Ndlovu, a platform-admin, made config change CHG-4417, and it passed the authorization check.",
            "CHG-4417, which raised geo-router's max_connections from 200 to 800, was an authorized change by platform-admin Priya Ndlovu.",
            "The 2027-06-14 pool change CHG-4417 is not unauthorized: Priya Ndlovu holds the platform-admin role, and the change passed the authorization check.",
            "CHG-4417 was made by someone with the platform-admin role and cleared the authorization check.",
            "Raising the connection limit on geo-router was within Priya Ndlovu's rights, and the check confirmed it."],
      sub=["CHG-4417 passed the authorization check.",
           "Priya Ndlovu holds the platform-admin role.",
           "CHG-4417 is not an unauthorized change."],
      drop=["A platform-admin made the config change, and it passed the authorization check."],
      status=["CHG-4417 was an unauthorized change to geo-router.",
              "Priya Ndlovu changed max_connections without permission.",
              "CHG-4417 failed the authorization check.",
              "The pool change CHG-4417 looks like a rogue edit and should be reverted."],
      neg=["Priya Ndlovu does not hold the platform-admin role.",
           "CHG-4417 was not authorized."],
      amount=["CHG-4417 raised max_connections from 200 to 2000.",
              "CHG-4417 lowered max_connections from 800 to 200."],
      date=["CHG-4417 was applied on 2027-06-09."],
      actor=["The ci-release-bot applied CHG-4417.",
             "Tomas Berg made config change CHG-4417."],
      id=["Priya Ndlovu's authorized config change was CHG-4471."],
      topic=["The audit entry for CHG-4417 was pulled.",
             "The on-call lead asked whether CHG-4417 was an unauthorized change.",
             "max_connections on geo-router was discussed.",
             "Priya Ndlovu's roles were looked up.",
             "CHG-4417 raised geo-router's max_connections from 200 to 800."]),
    K("IF3",
      para=["EXC-0931 is a one-time exception for the RB-2291 rollback only; it is not a blanket exemption from freeze FRZ-2027-06.",
            "Tomas Berg approved freeze exception EXC-0931 on 2027-06-14 for a single use by RB-2291, expiring 2027-06-15 at 06:00 UTC.",
            "The freeze exception covers only the RB-2291 rollback; any other deploy, including v3.18.1, needs its own exception.",
            "EXC-0931 does not open the freeze for other deploys: it allows one use, for RB-2291, until 06:00 UTC on 2027-06-15.",
            "Deploying v3.18.1 during the freeze would need a separate exception; the current one is reserved for the rollback."],
      sub=["EXC-0931 allows a single use for RB-2291 only.",
           "EXC-0931 is not a blanket exemption from the freeze.",
           "v3.18.1 needs its own freeze exception.",
           "EXC-0931 expires on 2027-06-15 at 06:00 UTC."],
      drop=["The freeze exception allows a single use for the rollback only; it is not a blanket exemption."],
      scope=["EXC-0931 exempts all deploys from freeze FRZ-2027-06.",
             "With EXC-0931 approved, v3.18.1 can also be deployed during the freeze.",
             "Tomas Berg granted a blanket freeze exemption for geo-router.",
             "EXC-0931 lifts the change freeze until 2027-06-15."],
      count=["EXC-0931 can be used several times for geo-router rollbacks.",
             "EXC-0931 allows two deploys during the freeze."],
      neg=["EXC-0931 was not approved."],
      date=["EXC-0931 expires on 2027-06-16 at 06:00 UTC.",
            "Tomas Berg approved EXC-0931 on 2027-06-12."],
      actor=["The incident commander approved freeze exception EXC-0931.",
             "Priya Ndlovu approved EXC-0931."],
      id=["EXC-0931 is reserved for the v3.18.1 deploy.",
          "The single-use exception for RB-2291 is EXC-0913."],
      topic=["The change freeze FRZ-2027-06 was discussed.",
             "Tomas Berg was asked about freeze exceptions.",
             "The agent looked up EXC-0931.",
             "Freeze FRZ-2027-06 is in effect."]),
    K("IF4",
      para=["INC-7702 was reopened on 2027-06-14 and is open again at sev2; INC-7735 is its duplicate and was closed into it.",
            "The pager's automatic INC-7735 is just a duplicate that was closed into INC-7702, which has been reopened.",
            "INC-7702, first resolved on 2027-06-09, is open again after being reopened on 2027-06-14.",
            "The live incident is INC-7702 (sev2, reopened); INC-7735 was closed as its duplicate.",
            "The incident resolved on June 9 is back in play at sev2, and the pager's new incident was folded into it."],
      sub=["INC-7702 was reopened on 2027-06-14.",
           "INC-7702 is open again at sev2.",
           "INC-7735 is a duplicate of INC-7702."],
      drop=["The incident was reopened and is open again; the automatic pager incident is its duplicate."],
      status=["INC-7702 was closed as a duplicate of INC-7735.",
              "INC-7702 remains resolved.",
              "INC-7702 is resolved and closed.",
              "INC-7702 is open again at sev1."],
      id=["INC-7735 was reopened on 2027-06-14.",
          "INC-7702 is the duplicate that was closed into INC-7735.",
          "INC-7735 is the active incident, and INC-7702 was closed into it."],
      neg=["INC-7702 was not reopened.",
           "INC-7735 is not a duplicate."],
      date=["INC-7702 was reopened on 2027-06-09.",
            "INC-7702 was first resolved on 2027-06-14."],
      actor=["Someone on the team opened INC-7735 by hand."],
      count=["Both INC-7702 and INC-7735 are open."],
      topic=["INC-7702 and INC-7735 were both looked at.",
             "The incident history for geo-router was reviewed.",
             "The incident commander was asked about INC-7702.",
             "The pager fired for geo-router."]),
    K("IF5",
      para=["DEP-5512 is held, not finished: the guardrail paused it at 09:42 UTC on 2027-06-14 with 12 of 30 pods on v3.18.0.",
            "The rollout guardrail automatically paused DEP-5512 after the 5xx rate hit 4.2%, so the deploy is held part-way.",
            "Only 12 of 30 pods (40% of traffic) are on v3.18.0; DEP-5512 was paused by the guardrail and has not completed.",
            "The v3.17.4-to-v3.18.0 deploy DEP-5512 is held part-way at 40% of traffic.",
            "The new version only reached part of the pods before an automatic brake stopped the rollout."],
      sub=["DEP-5512 is held.",
           "DEP-5512 has not completed.",
           "DEP-5512 was paused automatically by the rollout guardrail.",
           "12 of 30 pods are on v3.18.0."],
      drop=["The deploy is held, not completed; the guardrail paused it part-way."],
      status=["DEP-5512 completed and all pods are on v3.18.0.",
              "DEP-5512 finished rolling out v3.18.0.",
              "DEP-5512 was rolled back to v3.17.4.",
              "The deploy DEP-5512 is still rolling out."],
      actor=["An engineer paused DEP-5512 by hand.",
             "Priya Ndlovu paused DEP-5512 at 09:42 UTC."],
      count=["DEP-5512 was paused with 20 of 30 pods on v3.18.0.",
             "All 30 pods are on v3.18.0."],
      amount=["DEP-5512 was paused when the 5xx rate reached 2.4%.",
              "v3.18.0 was serving 60% of traffic when DEP-5512 was paused."],
      date=["The guardrail paused DEP-5512 at 09:24 UTC on 2027-06-14.",
            "DEP-5512 was paused on 2027-06-13."],
      id=["DEP-5521 is the held deploy."],
      neg=["DEP-5512 is not held."],
      topic=["The agent looked at deploy DEP-5512.",
             "Someone asked whether DEP-5512 had completed.",
             "The 5xx rate on geo-router reached 4.2%.",
             "The rollout guardrail settings were discussed.",
             "DEP-5512 moves geo-router from v3.17.4 to v3.18.0."]),
]
ONCALL_OTHER = {"IF1": ["IF2", "IF4", "IF5"], "IF2": ["IF1", "IF3", "IF4", "IF5"],
                "IF3": ["IF2", "IF4", "IF5"], "IF4": ["IF1", "IF2", "IF3", "IF5"],
                "IF5": ["IF1", "IF2", "IF3", "IF4"]}

KEY_CASES = [Domain("billing-dispute", None, BILLING, BILLING_OTHER),
             Domain("example-billing", None, EXAMPLE, EXAMPLE_OTHER),
             Domain("oncall-rollback", None, ONCALL, ONCALL_OTHER)]


# ==========================================================================
# Invented template domains. Each domain: a slot function (one instance of
# names, ids, amounts and dates) and four independent facts about distinct
# entities. Rules the templates keep (checked in check_templates):
#   * all premise variants of a fact use the same slots and state the same
#     claims, so every hypothesis holds for every variant;
#   * entailed clauses use only slots that are in the premise, never *_x;
#   * topic-only clauses never use *_x values.
# Slot suffixes: *_alt the same value in another format, *_x a wrong value,
# *_month the month name of a date.

# --- insurance claims ----------------------------------------------------
def slots_insurance(g):
    d4a = g.day(0, 40)
    return dict(cust=g.person(), adj=g.person(), clm=g.ident("CLM-#####"), pol=g.ident("POL-####-@"),
                amt=g.money(800, 9000), d1=g.day(0, 60),
                cust2=g.person(), clm2=g.ident("CLM-#####"), amt2=(a2 := g.money(2000, 20000)),
                amt2a=g.split(a2)[0], d2=g.day(0, 60),
                pol3=g.ident("POL-####-@"), agent3=g.person(), holder3=g.person(), d3=g.day(0, 60),
                clm4=g.ident("CLM-#####"), clm4b=g.ident("CLM-#####"), d4a=d4a, d4b=g.after(d4a, 5, 40))


INSURANCE = [
    Fact("reserve_not_paid",
         P=["Claim {clm} has a reserve of {amt} that adjuster {adj} set aside on {d1}; a reserve is not a payment, and nothing has been paid to {cust} yet.",
            "On {d1}, adjuster {adj} booked a {amt} reserve on claim {clm}; no payment has been made to the claimant, {cust}, so far."],
         para=["Adjuster {adj} [set aside|booked|earmarked] {amt_alt} on claim {clm} on {d1_alt} as a reserve, but [no payment has been made|nothing has been paid out] [yet|so far].",
               "The {amt} on claim {clm} is only a reserve[ set aside by {adj}|]; {cust} has not been paid.",
               "No money has reached {cust} yet: the {amt_alt} tied to claim {clm} is a reserve, not a payout.",
               "{cust} is still waiting to be paid on claim {clm}, which so far only has a {amt} reserve [booked|set aside] by {adj}.",
               "Claim {clm} remains unpaid; the {amt} figure is a reserve that {adj} [put in place|booked] on {d1}.",
               "Money has been earmarked for {cust}'s claim, but none of it has actually gone out."],
         sub=["Nothing has been paid to {cust} on claim {clm} yet.",
              "The {amt} on claim {clm} is a reserve, not a payment.",
              "Claim {clm} has not been paid out."],
         drop=["The adjuster only set aside a reserve; the claimant has not received any payment.",
               "The claim has a reserve but no payout yet."],
         status=["The insurer paid {cust} {amt} on claim {clm} on {d1_alt}.",
                 "Claim {clm} was settled with a {amt} payout to {cust}.",
                 "Adjuster {adj} [issued|released] the {amt_alt} payment on claim {clm}.",
                 "The {amt} for claim {clm} has already been [paid out|disbursed] to the claimant.",
                 "{cust} received the full {amt} for claim {clm}."],
         neg=["The {amt} on claim {clm} is not a reserve.",
              "It is not true that {cust} is still unpaid on claim {clm}."],
         amount=["Adjuster {adj} set aside a reserve of {amt_x} on claim {clm}.",
                 "The reserve on claim {clm} is {amt_x}, and nothing has been paid yet."],
         id=["The {amt} reserve that {adj} set aside belongs to claim {clm2}."],
         date=["Adjuster {adj} booked the reserve on claim {clm} on {d1_x}."],
         actor=["The reserve on claim {clm} was set by {cust}, not by the adjuster."],
         topic=["The reserve on claim {clm} was reviewed.",
                "{cust} asked whether the {amt} on claim {clm} had already been paid out.",
                "{cust} asked when claim {clm} would be paid.",
                "Adjuster {adj} was contacted about claim {clm}.",
                "The {amt} figure on claim {clm} came up during the call.",
                "Claim {clm} and its reserve were discussed[ with {adj}|]."]),
    Fact("partial_approval",
         P=["Claim {clm2} from {cust2} for water damage was partially approved on {d2}: {amt2a} of the {amt2} requested was approved, and the rest was denied under the flood exclusion.",
            "On {d2}, {cust2}'s water-damage claim {clm2} was approved only in part ({amt2a} of {amt2} requested); the remainder was denied under the flood exclusion."],
         para=["Only {amt2a} of the {amt2} requested on claim {clm2} was approved; the rest was [denied|turned down] under the flood exclusion.",
               "The water-damage claim {clm2} got a partial approval on {d2_alt}: {amt2a_alt} approved, the remainder denied.",
               "{cust2}'s claim {clm2} was approved in part, with the balance [refused|denied] because of the flood exclusion.",
               "Claim {clm2} was not approved in full: {amt2a} was allowed and the rest fell under the flood exclusion.",
               "The insurer agreed to cover some, but not all, of {cust2}'s water-damage claim; the flood exclusion knocked out the rest."],
         sub=["Claim {clm2} was only partially approved.",
              "Part of claim {clm2} was denied under the flood exclusion.",
              "{amt2a} of claim {clm2} was approved."],
         drop=["The water-damage claim was only partly approved; the rest was denied under the flood exclusion.",
               "Part of the claim was approved and the remainder was denied."],
         status=["Claim {clm2} was approved in full.",
                 "The insurer approved the entire {amt2} requested on claim {clm2}.",
                 "Claim {clm2} was denied outright; nothing was approved.",
                 "None of claim {clm2} was denied."],
         neg=["Claim {clm2} was not approved [at all|in any part].",
              "The flood exclusion was not applied to claim {clm2}."],
         amount=["{amt2a_x} of the {amt2} requested on claim {clm2} was approved.",
                 "Claim {clm2} asked for {amt2_x}, and {amt2a} of it was approved."],
         date=["Claim {clm2} was partially approved on {d2_x}."],
         id=["The partial approval under the flood exclusion was for claim {clm}."],
         topic=["The flood exclusion was discussed for claim {clm2}.",
                "{cust2} [asked about|called about] the decision on claim {clm2}.",
                "The agent opened claim {clm2} to check its status.",
                "Claim {clm2} is a water-damage claim."]),
    Fact("authorized_beneficiary_change",
         P=["The beneficiary on policy {pol3} was changed on {d3} by {agent3}, a licensed agent with policy-admin rights, at the signed request of the policyholder {holder3}; the change was authorized.",
            "{agent3}, a licensed agent holding policy-admin rights, changed the beneficiary on policy {pol3} on {d3} at policyholder {holder3}'s signed request; it was an authorized change."],
         para=["The {d3_alt} beneficiary change on policy {pol3} was authorized: {agent3}, who holds policy-admin rights, made it at {holder3}'s signed request.",
               "Policy {pol3}'s beneficiary was updated by licensed agent {agent3} on the policyholder's signed instructions, and the change was properly authorized.",
               "{agent3} had the rights to change the beneficiary on {pol3} and did so on {d3} because {holder3} asked in writing.",
               "The beneficiary edit on policy {pol3} was legitimate; it was made by an agent with policy-admin rights.",
               "Nothing improper happened on {pol3}: the named beneficiary was switched by a properly empowered agent at the holder's written request."],
         sub=["The beneficiary change on policy {pol3} was authorized.",
              "{agent3} has policy-admin rights and made the beneficiary change on {pol3}."],
         drop=["The beneficiary change was made by a licensed agent with admin rights and was authorized."],
         status=["The beneficiary on policy {pol3} was changed without authorization.",
                 "Someone without permission altered the beneficiary on policy {pol3} on {d3}.",
                 "The beneficiary change on {pol3} looks like tampering and should be reversed.",
                 "{agent3} made an unauthorized change to the beneficiary on policy {pol3}."],
         actor=["{holder3} changed the beneficiary on policy {pol3} [personally|through the online portal].",
                "{agent3} asked for the beneficiary change, and {holder3} carried it out."],
         neg=["The beneficiary change on {pol3} was not authorized.",
              "{agent3} does not have policy-admin rights.",
              "{holder3} never asked for the beneficiary on {pol3} to be changed."],
         date=["The beneficiary on policy {pol3} was changed on {d3_x}."],
         id=["{agent3} changed the beneficiary on policy {pol3_x}."],
         topic=["The beneficiary history of policy {pol3} was pulled up.",
                "{holder3} [says|claims] the beneficiary on policy {pol3} was changed without permission.",
                "{holder3} called about policy {pol3}.",
                "The audit log for policy {pol3} was checked.",
                "{agent3}'s role was looked up."]),
    Fact("reopened_claim",
         P=["Claim {clm4} was closed on {d4a} and reopened on {d4b} after new repair receipts arrived, so it is open again; {clm4b} is the duplicate that was filed by mistake and closed into it.",
            "Claim {clm4}, closed on {d4a}, was reopened on {d4b} when new repair receipts came in and is open again; the duplicate filed by mistake, {clm4b}, was closed into it."],
         para=["Claim {clm4} is open again: it was reopened on {d4b_alt} after new repair receipts came in.",
               "{clm4b} was the mistaken duplicate and was closed into {clm4}, which has been reopened.",
               "New repair receipts led to claim {clm4} being reopened on {d4b}; it had been closed on {d4a}.",
               "The live claim is {clm4}, reopened on {d4b}; {clm4b} is only a duplicate that was closed.",
               "After fresh receipts turned up, the insurer put {clm4} back into active handling."],
         sub=["Claim {clm4} was reopened on {d4b}.",
              "Claim {clm4} is open again.",
              "{clm4b} is a duplicate of {clm4}."],
         drop=["The claim was reopened after new repair receipts came in, and the mistaken duplicate was closed into it."],
         status=["Claim {clm4} was closed as a duplicate.",
                 "Claim {clm4} is [closed|still closed] and needs no further action.",
                 "{clm4} has remained closed since {d4a}."],
         id=["Claim {clm4b} was reopened on {d4b} after new repair receipts arrived.",
             "{clm4} is the duplicate that was closed into {clm4b}.",
             "{clm4b} is the active claim that was reopened."],
         neg=["Claim {clm4} was not reopened.",
              "{clm4b} is not a duplicate."],
         date=["Claim {clm4} was reopened on {d4b_x}."],
         count=["Two claims are open, {clm4} and {clm4b}."],
         topic=["Claim {clm4} was looked at[ again|].",
                "The new repair receipts for claim {clm4} were [mentioned|discussed].",
                "The history of claims {clm4} and {clm4b} was reviewed.",
                "The customer asked about claim {clm4b}."]),
]

# --- HR leave requests ---------------------------------------------------
def slots_hr(g):
    d4 = g.day(0, 60)
    b1 = g.rng.randint(4, 18)
    return dict(emp=g.person(), mgr=g.person(), lr=g.ident("LR-#####"), n=g.num(3, 15, 2, 20), d1=g.day(20, 90),
                emp2=g.person(), hr2=g.person(), n2=g.num(3, 10, 2, 12), yr=str(g.base.year + 1), d2=g.day(0, 60),
                hra=g.person(), emp3=g.person(), b1=str(b1), b2=g.num(b1 + 2, b1 + 9, b1 + 1, b1 + 12),
                d3=g.day(0, 60), tk3=g.ident("HR-####"),
                emp4=g.person(), mgr4=g.person(), sl=g.ident("SL-####"), d4=d4, d4b=g.after(d4, 3, 12))


HR = [
    Fact("leave_pending",
         P=["Leave request {lr} from {emp} for {n} days starting {d1} is still pending: their manager, {mgr}, has not approved or rejected it yet.",
            "{emp}'s request {lr} for {n} days of leave from {d1} has not been decided; manager {mgr} has neither approved nor rejected it."],
         para=["{mgr} has not yet [acted on|decided] {emp}'s {n}-day leave request {lr}, so it is still pending.",
               "Request {lr} ({n} days from {d1_alt}) is awaiting a decision from manager {mgr}.",
               "No decision has been made on {emp}'s leave request {lr}; it remains pending with {mgr}.",
               "The {n} days of leave {emp} asked for, starting {d1}, have been neither approved nor rejected by {mgr}.",
               "{emp}'s time off hasn't been signed off or turned down yet; it's sitting with {mgr}."],
         sub=["Leave request {lr} is still pending.",
              "{mgr} has not approved {emp}'s leave request yet."],
         drop=["The employee's leave request is still pending; the manager has not decided on it."],
         status=["{mgr} approved {emp}'s leave request {lr}.",
                 "Leave request {lr} was [rejected|turned down] by {mgr}.",
                 "{emp}'s {n} days of leave from {d1} have been [approved|signed off].",
                 "{mgr} signed off on {emp}'s time off starting {d1_alt}."],
         neg=["Request {lr} is no longer pending.",
              "{emp}'s leave request {lr} is not awaiting a decision."],
         count=["{emp} asked for {n_x} days of leave in request {lr}."],
         date=["{emp}'s pending leave request {lr} starts on {d1_x}."],
         actor=["Manager {mgr} asked for {n} days of leave in request {lr}, and {emp} has to approve it."],
         id=["The pending leave request from {emp} is {lr_x}."],
         topic=["{emp} asked HR about request {lr}.",
                "{emp} [thinks|believes] that request {lr} has already been approved.",
                "Leave request {lr} was [discussed|mentioned] in the team meeting.",
                "{mgr} is {emp}'s manager.",
                "The team's leave calendar for {d1_month} was checked."]),
    Fact("one_off_carry_over",
         P=["HR partner {hr2} approved a one-time exception on {d2} letting {emp2} carry {n2} unused leave days into {yr}; it applies to {emp2} only and does not change the carry-over policy for anyone else.",
            "On {d2}, {hr2} from HR approved a single exception for {emp2} to carry over {n2} unused days into {yr}; it covers {emp2} alone, and the carry-over policy is unchanged for everyone else."],
         para=["{emp2} may carry {n2} unused days into {yr} as a one-off exception approved by {hr2}; nobody else's carry-over rules change.",
               "The carry-over exception {hr2} approved on {d2_alt} is for {emp2} alone and covers {n2} days.",
               "Only {emp2} got the exception: {n2} unused days can roll into {yr}, and the general policy stays as it was.",
               "{hr2} signed off a one-time carry-over of {n2} days for {emp2}; it is not a policy change.",
               "This was a personal, single-use concession for {emp2}; the rules for the rest of staff are untouched."],
         sub=["The carry-over exception applies to {emp2} only.",
              "{emp2} can carry {n2} unused days into {yr}.",
              "The carry-over policy did not change for other employees."],
         drop=["HR approved a one-time carry-over exception for one employee; the policy itself is unchanged."],
         scope=["{hr2} changed the carry-over policy so that all employees can carry {n2} days into {yr}.",
                "The carry-over exception for {emp2} applies every year from now on.",
                "Everyone in the team can now carry over {n2} unused days, following {hr2}'s decision.",
                "{hr2}'s approval is a standing rule that lets staff carry unused days into {yr}."],
         status=["{hr2} refused {emp2}'s request to carry over unused days."],
         neg=["{emp2} cannot carry any unused days into {yr}.",
              "The exception for {emp2} was not approved."],
         count=["{emp2} may carry {n2_x} unused days into {yr}."],
         date=["{hr2} approved the carry-over exception for {emp2} on {d2_x}."],
         actor=["{emp2} approved the carry-over exception, not HR."],
         topic=["{emp2} asked about carrying unused leave into {yr}.",
                "The carry-over policy was discussed with {hr2}.",
                "{emp2}'s leave balance was checked.",
                "{hr2} handles leave questions for {emp2}'s team."]),
    Fact("authorized_balance_fix",
         P=["HR administrator {hra} corrected {emp3}'s leave balance from {b1} to {b2} days on {d3} under ticket {tk3}; {hra} has payroll-admin rights, and the correction was authorized.",
            "On {d3}, {emp3}'s leave balance was corrected from {b1} to {b2} days by {hra}, an HR administrator with payroll-admin rights, under ticket {tk3}; it was an authorized correction."],
         para=["{hra}, who has payroll-admin rights, made the authorized change to {emp3}'s balance ({b1} to {b2} days) under {tk3}.",
               "{emp3}'s leave balance went from {b1} to {b2} days on {d3_alt}; the change was made by HR admin {hra} and was authorized.",
               "The correction of {emp3}'s balance under ticket {tk3} was legitimate: an HR administrator with the right permissions made it.",
               "Ticket {tk3} records an authorized correction by {hra}, setting {emp3}'s balance to {b2} days.",
               "Nothing irregular here: a properly empowered HR admin fixed {emp3}'s day count."],
         sub=["The correction to {emp3}'s leave balance was authorized.",
              "{emp3}'s leave balance was corrected to {b2} days.",
              "{hra} has payroll-admin rights."],
         drop=["An HR administrator with the right permissions corrected the employee's leave balance, and the correction was authorized."],
         status=["{emp3}'s leave balance was changed without authorization.",
                 "Someone tampered with {emp3}'s leave balance on {d3}.",
                 "The change to {emp3}'s balance under {tk3} was unauthorized and must be reversed.",
                 "{hra} edited {emp3}'s balance without the required rights."],
         actor=["{emp3} changed their own leave balance from {b1} to {b2} days."],
         neg=["{hra} does not have payroll-admin rights.",
              "The correction under ticket {tk3} was not authorized."],
         count=["{emp3}'s balance was corrected from {b1} to {b2_x} days."],
         date=["{hra} corrected {emp3}'s balance on {d3_x}."],
         id=["The correction to {emp3}'s balance was made under ticket {tk3_x}."],
         topic=["Ticket {tk3} concerns {emp3}'s leave balance.",
                "{emp3} asked why their balance changed.",
                "The audit trail for {emp3}'s leave balance was reviewed.",
                "{hra} works in HR."]),
    Fact("sick_leave_rejected",
         P=["Sick-leave claim {sl} from {emp4} for {d4} was rejected by {mgr4} on {d4b} because no medical note was provided; it was not approved.",
            "{mgr4} rejected {emp4}'s sick-leave claim {sl} for {d4} on {d4b}, since no medical note was provided; the claim was not approved."],
         para=["{emp4}'s sick-leave claim {sl} was turned down by {mgr4} for lack of a medical note.",
               "Claim {sl} for {d4_alt} was rejected, not approved: {emp4} never provided a medical note.",
               "Because no medical note came in, {mgr4} rejected sick-leave claim {sl} on {d4b}.",
               "{mgr4} did not approve {emp4}'s sick leave for {d4}; the claim ({sl}) was rejected over the missing medical note.",
               "Without a doctor's note, {emp4}'s request to count {d4} as sick leave was refused."],
         sub=["Sick-leave claim {sl} was rejected.",
              "{emp4}'s sick-leave claim was not approved.",
              "No medical note was provided for claim {sl}."],
         drop=["The sick-leave claim was rejected because no medical note was provided."],
         status=["{mgr4} approved {emp4}'s sick-leave claim {sl}.",
                 "Sick-leave claim {sl} is still pending review.",
                 "{emp4}'s sick leave for {d4} was accepted.",
                 "Claim {sl} was approved once the medical note arrived."],
         neg=["Claim {sl} was not rejected.",
              "{mgr4} did not reject {emp4}'s claim."],
         date=["{mgr4} rejected claim {sl} on {d4b_x}.",
               "{emp4}'s rejected sick-leave claim was for {d4_x}."],
         actor=["{emp4} withdrew sick-leave claim {sl} before {mgr4} could decide."],
         id=["The rejected sick-leave claim from {emp4} was {sl_x}."],
         topic=["{emp4} was absent on {d4}.",
                "{mgr4} and {emp4} discussed claim {sl}.",
                "The medical-note rule for sick leave was mentioned.",
                "Claim {sl} was reviewed."]),
]

# --- library loans -------------------------------------------------------
TITLES = ["The Salt Road", "A Field Guide to Mosses", "Winter Orchards", "The Glass Archive",
          "Notes on Tidal Rivers", "The Clockmaker's Daughter", "Practical Beekeeping",
          "Maps of the Inner Sea", "The Quiet Engine", "Letters from Vilnius", "A Short History of Bread",
          "The Lantern Keeper"]
BRANCHES = ["Riverside", "Northgate", "Elm Street", "Old Town", "Westfield", "Hillcrest", "Central"]


def slots_library(g):
    d2 = g.day(0, 60)
    return dict(mem=g.person(), title=g.pick(TITLES), branch=g.pick(BRANCHES), branch_x=g.pick(BRANCHES),
                d1=g.day(0, 60),
                mem2=g.person(), title2=g.pick(TITLES), loan=g.ident("LN-######"), d2=d2, d3=g.after(d2, 14, 28),
                lib=g.person(), mem3=g.person(), loan3=g.ident("LN-######"), amt3=g.money(3, 25), d3w=g.day(0, 60),
                mem4=g.person(), title4=g.pick(TITLES), item=g.ident("ITM-#####"), amt4=g.money(15, 60),
                d4=g.day(0, 60))


LIBRARY = [
    Fact("on_hold_not_loaned",
         P=["The copy of '{title}' requested by member {mem} is on the hold shelf at the {branch} branch until {d1}; it has not been checked out to {mem} yet.",
            "'{title}' is being held for {mem} at the {branch} branch until {d1}; the book has not yet been checked out to {mem}."],
         para=["{mem}'s copy of '{title}' is waiting on the hold shelf at {branch} until {d1_alt}; it hasn't been borrowed yet.",
               "'{title}' is reserved for {mem} at the {branch} branch, but no loan has been made.",
               "The {branch} branch is holding '{title}' for {mem} until {d1}; checkout has not happened.",
               "{mem} has not yet checked out '{title}'; the copy is on hold for them at {branch}.",
               "The book {mem} asked for is set aside at {branch} and still needs to be picked up."],
         sub=["'{title}' has not been checked out to {mem} yet.",
              "'{title}' is on hold for {mem}."],
         drop=["The requested book is on the hold shelf and has not been checked out yet."],
         status=["{mem} checked out '{title}' from the {branch} branch.",
                 "'{title}' is on loan to {mem}.",
                 "{mem} has already borrowed '{title}'.",
                 "The hold on '{title}' expired, and the copy went back on the shelf.",
                 "{mem} picked up '{title}' from {branch}."],
         neg=["'{title}' is not on hold for {mem}."],
         date=["'{title}' is held for {mem} until {d1_x}."],
         id=["The copy of '{title}' is on hold for {mem} at the {branch_x} branch."],
         topic=["{mem} asked about '{title}'.",
                "{mem} asked whether '{title}' had already been checked out to them.",
                "The {branch} branch's hold shelf was checked.",
                "'{title}' came up in {mem}'s account history.",
                "{mem} has a library card at {branch}."]),
    Fact("renewed_once",
         P=["Loan {loan} of '{title2}' to {mem2} was renewed once, on {d2}, and is now due on {d3}; one more renewal is allowed.",
            "{mem2}'s loan {loan} of '{title2}' has been renewed a single time (on {d2}); the new due date is {d3}, and one further renewal is still allowed."],
         para=["'{title2}' ({loan}) was renewed one time on {d2_alt} and is due back on {d3_alt}.",
               "{mem2} renewed loan {loan} once; the book is now due {d3}, and another renewal is possible.",
               "After a single renewal on {d2}, {mem2}'s copy of '{title2}' is due on {d3}.",
               "Loan {loan} has one renewal left; it was renewed once already and is due on {d3}."],
         sub=["Loan {loan} is now due on {d3}.",
              "Loan {loan} was renewed once.",
              "{mem2} can renew '{title2}' one more time."],
         drop=["The loan was renewed once, and one more renewal is still allowed."],
         count=["Loan {loan} has been renewed twice.",
                "{mem2} has renewed '{title2}' several times.",
                "{mem2} has used up all renewals on loan {loan}."],
         neg=["Loan {loan} was never renewed.",
              "'{title2}' cannot be renewed again."],
         date=["Loan {loan} is now due on {d3_x}.",
               "{mem2} renewed loan {loan} on {d2_x}."],
         status=["{mem2} returned '{title2}' on {d2}."],
         id=["The loan that was renewed once is {loan_x}."],
         topic=["{mem2} asked about the due date of loan {loan}.",
                "The renewal rules were explained to {mem2}.",
                "'{title2}' is a popular title.",
                "Loan {loan} appears on {mem2}'s account."]),
    Fact("fine_waived_once",
         P=["Librarian {lib} waived the {amt3} overdue fine on loan {loan3} on {d3w} as a one-time courtesy; {mem3}'s other outstanding fines still stand.",
            "On {d3w}, {lib} waived {mem3}'s {amt3} overdue fine on loan {loan3}, once, as a courtesy; the other fines on {mem3}'s account still have to be paid."],
         para=["{lib} cancelled the {amt3_alt} fine on loan {loan3} as a one-off courtesy; {mem3}'s remaining fines are still owed.",
               "Only the fine on loan {loan3} was waived; the rest of {mem3}'s fines stand.",
               "The {d3w_alt} waiver by {lib} covered a single {amt3} fine, not {mem3}'s other fines.",
               "{mem3} no longer owes the {amt3} fine on {loan3}, which {lib} waived once as a courtesy.",
               "{lib} let one late fee go as a goodwill gesture; everything else on {mem3}'s account is still due."],
         sub=["The {amt3} overdue fine on loan {loan3} was waived.",
              "{mem3}'s other fines still stand.",
              "The waiver of the fine on {loan3} was a one-time courtesy."],
         drop=["The librarian waived one overdue fine as a one-time courtesy; the member's other fines still stand."],
         scope=["{lib} waived all of {mem3}'s fines.",
                "{mem3} will not be charged overdue fines from now on.",
                "{lib} cleared {mem3}'s fine balance in full.",
                "The waiver applies to all of {mem3}'s future late returns."],
         status=["{mem3} paid the {amt3} overdue fine on loan {loan3}.",
                 "The fine on loan {loan3} is still outstanding."],
         neg=["The fine on loan {loan3} was not waived."],
         amount=["{lib} waived a {amt3_x} fine on loan {loan3}."],
         id=["{lib} waived the overdue fine on loan {loan3_x}."],
         date=["The fine on loan {loan3} was waived on {d3w_x}."],
         topic=["{mem3} asked {lib} about the overdue fine on loan {loan3}.",
                "Overdue fines were discussed at the desk.",
                "Loan {loan3} was returned late.",
                "{lib} works at the front desk."]),
    Fact("item_lost",
         P=["Item {item} ('{title4}') was marked lost on {d4} after {mem4} failed to return it, and the {amt4} replacement fee is still unpaid; the item has not been returned.",
            "'{title4}' (item {item}), borrowed by {mem4}, was marked lost on {d4}; it has not come back, and the {amt4} replacement fee has not been paid."],
         para=["{mem4} never returned '{title4}', so item {item} was marked lost on {d4_alt}; the {amt4_alt} replacement fee is still owed.",
               "The replacement fee of {amt4} for lost item {item} remains unpaid, and the book has not been returned.",
               "Item {item} is recorded as lost, and {mem4} has neither returned it nor paid the {amt4} fee.",
               "The library is still waiting on {mem4} for either the missing copy of '{title4}' or the {amt4} to replace it."],
         sub=["Item {item} was marked lost.",
              "The {amt4} replacement fee for item {item} has not been paid.",
              "'{title4}' has not been returned."],
         drop=["The book was marked lost, and the replacement fee is still unpaid."],
         status=["{mem4} returned '{title4}' on {d4}.",
                 "{mem4} paid the {amt4} replacement fee for item {item}.",
                 "Item {item} was found and checked back in.",
                 "The replacement fee for item {item} was [settled|paid in full]."],
         neg=["Item {item} was not marked lost.",
              "{mem4} does not owe a replacement fee for item {item}."],
         amount=["The replacement fee for item {item} is {amt4_x}."],
         date=["Item {item} was marked lost on {d4_x}."],
         id=["The item marked lost is {item_x}."],
         topic=["{mem4} was sent a reminder about item {item}.",
                "The lost-item policy was [explained|mentioned].",
                "Item {item} is a copy of '{title4}'.",
                "{mem4}'s borrowing history was reviewed."]),
]

# --- software release approvals ------------------------------------------
SERVICES = ["billing-api", "search-indexer", "auth-gateway", "photo-service", "notification-hub",
            "report-builder", "mobile-backend", "pricing-engine", "calendar-sync", "checkout-web"]
FLAGS = ["new-checkout-flow", "dark-mode", "smart-search", "bulk-edit", "inline-comments",
         "usage-alerts", "sso-enforcement", "quick-reorder"]


def slots_release(g):
    a, b, c = g.rng.randint(1, 6), g.rng.randint(0, 24), g.rng.randint(0, 9)
    return dict(rel=g.ident("REL-####"), svc=g.pick(SERVICES), ver=f"v{a}.{b}.{c}", ver_x=f"v{a}.{b + 1}.0",
                rm=g.person(), d1=g.day(0, 60),
                flag=g.pick(FLAGS), pct=g.num(5, 45, 1, 45), d2=g.day(20, 80), svc2=g.pick(SERVICES),
                rm3=g.person(), hf=g.ident("HF-####"), svc3=g.pick(SERVICES), rel3=g.ident("REL-####"), d3=g.day(0, 60),
                adm4=g.person(), svc4=g.pick(SERVICES), chg4=g.ident("CHG-#####"), d4=g.day(0, 60))


RELEASE = [
    Fact("staged_not_promoted",
         P=["Release {rel} ({svc} {ver}) is staged in the canary environment and passed its smoke tests on {d1}; it has not been promoted to production and waits for release manager {rm}'s sign-off.",
            "On {d1}, release {rel} of {svc} {ver} was staged in canary and its smoke tests passed, but it has not been promoted to production; it is waiting for {rm}, the release manager, to sign off."],
         para=["{svc} {ver} ({rel}) is only in canary; it has not gone to production and needs {rm}'s sign-off first.",
               "Release {rel} has not been promoted to production yet; it is staged in canary pending {rm}'s sign-off.",
               "{rm} still has to sign off before release {rel} can be promoted; for now it sits in the canary environment.",
               "The {ver} release of {svc} is staged, not live in production.",
               "Production users are not running the new {svc} build yet: it's parked in canary until the release manager signs off."],
         sub=["Release {rel} has not been promoted to production.",
              "Release {rel} is waiting for {rm}'s sign-off.",
              "{svc} {ver} is staged in the canary environment."],
         drop=["The release is staged in canary and has not been promoted to production yet."],
         status=["Release {rel} was promoted to production on {d1}.",
                 "{svc} {ver} is live in production.",
                 "{rm} signed off on release {rel}, and it shipped to production.",
                 "Release {rel} rolled out to all production users.",
                 "{svc} {ver} was deployed to production after its smoke tests passed."],
         neg=["Release {rel} is not waiting for any sign-off.",
              "The smoke tests for {rel} did not pass."],
         actor=["{rm} is waiting for the {svc} team to sign off on release {rel}."],
         id=["Release {rel} staged {svc} {ver_x} in canary."],
         date=["Release {rel} passed its smoke tests on {d1_x}."],
         topic=["Release {rel} was discussed in the release channel.",
                "The {svc} team asked whether release {rel} was already live in production.",
                "{rm} asked for the smoke test results for {rel}.",
                "The canary environment for {svc} was checked.",
                "{svc} {ver} contains several bug fixes."]),
    Fact("flag_partial",
         P=["Feature flag {flag} in {svc2} is enabled for {pct}% of users, not for all users; the full rollout is scheduled for {d2} and has not happened yet.",
            "The {flag} flag is switched on for {pct}% of {svc2} users only; turning it on for all users is planned for {d2} and has not been done."],
         para=["Only {pct}% of {svc2} users have {flag} so far; the rollout to all users is planned for {d2_alt}.",
               "The {flag} flag is on for part of the user base ({pct}%), with the full rollout still to come on {d2}.",
               "Feature flag {flag} has not reached all users yet: it is at {pct}%, and the full rollout is set for {d2}.",
               "Most of {svc2}'s users still don't see {flag}; the rest are scheduled to get it on {d2}."],
         sub=["Feature flag {flag} is enabled for {pct}% of users.",
              "Feature flag {flag} has not been rolled out to all users.",
              "The full rollout of {flag} is scheduled for {d2}."],
         drop=["The feature flag is only on for a portion of users; the full rollout has not happened yet."],
         status=["Feature flag {flag} is enabled for all {svc2} users.",
                 "The rollout of {flag} is complete.",
                 "Feature flag {flag} was fully rolled out [on {d2}|last week].",
                 "The {flag} flag has been switched off for everyone."],
         amount=["Feature flag {flag} is enabled for {pct_x}% of users."],
         date=["The full rollout of {flag} is scheduled for {d2_x}."],
         neg=["Feature flag {flag} is not enabled for any users yet."],
         topic=["The {flag} flag was mentioned in the release notes.",
                "{svc2}'s feature flags were reviewed.",
                "The team asked how {flag} is performing.",
                "The {flag} flag controls a change in {svc2}."]),
    Fact("hotfix_only",
         P=["Release manager {rm3} approved hotfix {hf} for {svc3} on {d3}; the approval covers that hotfix only and does not extend to the other pending changes in release {rel3}.",
            "On {d3}, {rm3}, the release manager, approved hotfix {hf} for {svc3} and nothing else; the other pending changes in release {rel3} are not covered by that approval."],
         para=["{rm3}'s approval on {d3_alt} is limited to hotfix {hf}; the rest of {rel3} is not covered.",
               "Hotfix {hf} for {svc3} was approved by {rm3}, but that sign-off does not cover any other change in {rel3}.",
               "Only hotfix {hf} got {rm3}'s approval; the other pending changes in release {rel3} are outside it.",
               "The approval for {hf} is specific to that hotfix; it is not an approval of release {rel3} as a whole.",
               "{rm3} said yes to one {svc3} fix and nothing more."],
         sub=["{rm3} approved hotfix {hf}.",
              "The approval of {hf} does not cover the other changes in release {rel3}."],
         drop=["The release manager approved just the hotfix; the other pending changes are not covered."],
         scope=["{rm3} approved release {rel3} with all its pending changes.",
                "{rm3}'s approval of {hf} also covers the rest of release {rel3}.",
                "All pending {svc3} changes are approved for release, per {rm3}.",
                "{rm3} gave a blanket approval for {svc3} changes."],
         status=["{rm3} rejected hotfix {hf}.",
                 "Hotfix {hf} is still waiting for approval."],
         neg=["Hotfix {hf} was not approved."],
         actor=["The {svc3} team approved hotfix {hf} without the release manager."],
         date=["{rm3} approved hotfix {hf} on {d3_x}."],
         id=["{rm3} approved hotfix {hf_x} for {svc3}."],
         topic=["Hotfix {hf} was discussed with {rm3}.",
                "The pending changes in release {rel3} were listed.",
                "{rm3} asked for the test results of hotfix {hf}.",
                "{svc3} had an open bug that {hf} addresses."]),
    Fact("authorized_key_rotation",
         P=["The signing key for {svc4} was rotated on {d4} by {adm4}, a security admin, under change {chg4}; the rotation passed the authorization check and was not an unauthorized change.",
            "Change {chg4}, the rotation of {svc4}'s signing key on {d4}, was carried out by security admin {adm4} and passed the authorization check; it is not an unauthorized change."],
         para=["{adm4}, a security admin, rotated {svc4}'s signing key on {d4_alt} under {chg4}, and the rotation was authorized.",
               "The {svc4} key rotation ({chg4}) was a legitimate, authorized change made by {adm4}.",
               "Change {chg4} passed the authorization check: security admin {adm4} rotated the {svc4} signing key.",
               "The new {svc4} signing key was put in place by someone allowed to do it, through a proper change record."],
         sub=["The {svc4} key rotation was authorized.",
              "{adm4} is a security admin.",
              "{adm4} rotated the signing key for {svc4}."],
         drop=["A security admin rotated the signing key under a change record, and the rotation was authorized."],
         status=["The {svc4} signing key was rotated without authorization.",
                 "Change {chg4} failed the authorization check.",
                 "Someone tampered with the {svc4} signing key on {d4}.",
                 "The key rotation under {chg4} was a rogue change."],
         actor=["An automated job, not {adm4}, rotated the {svc4} signing key."],
         neg=["{adm4} is not a security admin.",
              "The rotation under {chg4} was not authorized."],
         date=["{adm4} rotated the {svc4} signing key on {d4_x}."],
         id=["{adm4} rotated the {svc4} signing key under change {chg4_x}."],
         topic=["The audit entry for change {chg4} was pulled.",
                "{adm4} was asked about the {svc4} signing key.",
                "Key rotation for {svc4} was discussed.",
                "{svc4} signs its tokens with a managed key."]),
]

# --- clinic appointments -------------------------------------------------
DRUGS = ["amoxicillin", "metformin", "lisinopril", "sertraline", "atorvastatin", "levothyroxine",
         "omeprazole", "amlodipine"]
SPECIALTIES = ["a cardiologist", "a dermatologist", "physiotherapy", "an ENT specialist", "a neurologist",
               "an allergist", "a rheumatologist"]


def slots_clinic(g):
    n2 = g.rng.choice([28, 30, 56, 60, 90])
    n1 = g.rng.randint(n2 // 5, n2 * 3 // 4)
    return dict(pat=g.person(), doc=g.person(), doc_x=g.person(), apt=g.ident("APT-#####"), d1=g.day(20, 80),
                rx=g.ident("RX-######"), drug=g.pick(DRUGS), n1=Num(n1, 1, n2 - 1), n2=str(n2),
                nr=Num(n2 - n1, 1, n2 - 1), d2=g.day(0, 60),
                doc3=g.person(), pat3=g.person(), spec=g.pick(SPECIALTIES), ref=g.ident("REF-#####"), d3=g.day(0, 60),
                apt4=g.ident("APT-#####"), pat4=g.person(), doc4=g.person(), d4=g.day(0, 60))


CLINIC = [
    Fact("booked_not_held",
         P=["Appointment {apt} for {pat} with Dr. {doc} on {d1} is booked but has not taken place yet; no consultation has been recorded.",
            "{pat}'s appointment {apt} with Dr. {doc} is scheduled for {d1} and has not happened yet; there is no consultation record for it."],
         para=["{pat} has not yet seen Dr. {doc}: appointment {apt} on {d1_alt} is still upcoming.",
               "No consultation has been recorded for appointment {apt}, which is booked with Dr. {doc} on {d1}.",
               "Appointment {apt} is only booked; the visit with Dr. {doc} has not taken place.",
               "The visit with Dr. {doc} is still ahead of {pat}, and nothing has been written up for it."],
         sub=["Appointment {apt} has not taken place yet.",
              "No consultation has been recorded for {apt}.",
              "{pat} has an appointment with Dr. {doc} on {d1}."],
         drop=["The appointment is booked but has not happened yet, so no consultation is recorded."],
         status=["{pat} saw Dr. {doc} at appointment {apt}.",
                 "Dr. {doc} recorded a consultation for appointment {apt}.",
                 "Appointment {apt} took place as planned.",
                 "Appointment {apt} was cancelled.",
                 "{pat} missed appointment {apt} and was marked as a no-show."],
         neg=["{pat} does not have an appointment with Dr. {doc}."],
         date=["{pat}'s appointment with Dr. {doc} is on {d1_x}."],
         actor=["Appointment {apt} is with Dr. {doc_x}."],
         id=["{pat}'s booking with Dr. {doc} is appointment {apt_x}."],
         topic=["{pat} called the clinic about appointment {apt}.",
                "Dr. {doc}'s schedule for {d1} was checked.",
                "Appointment reminders were discussed with {pat}.",
                "{pat} is registered with the clinic."]),
    Fact("partial_fill",
         P=["Prescription {rx} for {drug} was partially filled on {d2}: {n1} of the {n2} tablets were dispensed, and the remaining {nr} are still owed to the patient.",
            "On {d2}, only {n1} of the {n2} {drug} tablets on prescription {rx} were dispensed; the prescription is partially filled, and the other {nr} tablets are still owed."],
         para=["Prescription {rx} was only partly filled: {n1} {drug} tablets out of {n2} were dispensed on {d2_alt}.",
               "The patient is still owed {nr} tablets of {drug} on prescription {rx}.",
               "Prescription {rx} has not been filled completely; {nr} of the {n2} tablets are outstanding.",
               "On {d2}, the pharmacy handed over {n1} of the {n2} {drug} tablets for {rx}, leaving {nr} to come.",
               "The pharmacy could only supply part of the {drug} on {rx}; the balance is still to be handed over."],
         sub=["Prescription {rx} was partially filled.",
              "{n1} tablets of {drug} were dispensed on {d2}.",
              "{nr} tablets on prescription {rx} are still owed."],
         drop=["The prescription was only partially filled, and the rest of the tablets are still owed."],
         status=["Prescription {rx} was filled in full on {d2}.",
                 "All {n2} {drug} tablets on {rx} were dispensed.",
                 "Nothing is outstanding on prescription {rx}.",
                 "Prescription {rx} has not been filled at all."],
         count=["{n1_x} of the {n2} tablets on {rx} were dispensed.",
                "The patient is still owed {nr_x} tablets on prescription {rx}."],
         neg=["No tablets are owed on prescription {rx}."],
         date=["Prescription {rx} was partially filled on {d2_x}."],
         id=["The partially filled prescription is {rx_x}."],
         topic=["The pharmacist checked the stock of {drug}.",
                "The patient asked about prescription {rx}.",
                "The patient asked whether prescription {rx} had been filled in full.",
                "Prescription {rx} is for {drug}.",
                "{drug} dosing was discussed."]),
    Fact("single_referral",
         P=["Dr. {doc3} authorized referral {ref} for {pat3} to {spec} on {d3}; it covers a single visit only, not ongoing treatment.",
            "Referral {ref}, issued by Dr. {doc3} on {d3}, sends {pat3} to {spec} for one visit only; it does not cover ongoing treatment."],
         para=["{pat3}'s referral to {spec} ({ref}) is good for one visit, not a course of treatment.",
               "Dr. {doc3}'s referral {ref} from {d3_alt} covers just a single appointment with {spec}.",
               "Referral {ref} does not cover ongoing treatment; it allows {pat3} one visit to {spec}.",
               "Follow-up sessions with {spec} after the first are not covered by referral {ref}."],
         sub=["Referral {ref} covers a single visit only.",
              "Dr. {doc3} referred {pat3} to {spec}."],
         drop=["The doctor authorized a referral for one visit only, not ongoing treatment."],
         scope=["Referral {ref} covers {pat3}'s ongoing treatment with {spec}.",
                "{pat3} can see {spec} as often as needed under referral {ref}.",
                "Dr. {doc3} authorized a course of treatment with {spec} for {pat3}.",
                "Referral {ref} is an open-ended referral to {spec}."],
         count=["Referral {ref} covers three visits to {spec}."],
         neg=["Dr. {doc3} did not authorize a referral for {pat3}."],
         date=["Dr. {doc3} issued referral {ref} on {d3_x}."],
         actor=["{pat3} referred themselves to {spec} without a doctor's referral."],
         id=["{pat3}'s referral to {spec} is {ref_x}."],
         topic=["{pat3} asked about seeing {spec}.",
                "Referral {ref} was sent to the specialist's office.",
                "Dr. {doc3} reviewed {pat3}'s notes.",
                "The referral rules were explained to {pat3}."]),
    Fact("clinic_cancelled",
         P=["Appointment {apt4} on {d4} was cancelled by the clinic, not by the patient, because Dr. {doc4} was ill; {pat4} will not be charged a late-cancellation fee.",
            "The clinic cancelled {pat4}'s appointment {apt4} on {d4} because Dr. {doc4} was ill; the patient did not cancel it and will not be charged a late-cancellation fee."],
         para=["Dr. {doc4}'s illness led the clinic to cancel appointment {apt4}; {pat4} owes no late-cancellation fee.",
               "It was the clinic, not {pat4}, that cancelled appointment {apt4} on {d4_alt}.",
               "{pat4} will not pay a late-cancellation fee for {apt4}, which the clinic called off because Dr. {doc4} was sick.",
               "The patient did nothing wrong here: the clinic scrapped the {d4} slot because the doctor was unwell."],
         sub=["The clinic cancelled appointment {apt4}.",
              "{pat4} will not be charged a late-cancellation fee.",
              "{pat4} did not cancel appointment {apt4}."],
         drop=["The clinic cancelled the appointment because the doctor was ill, so the patient is not charged a fee."],
         actor=["{pat4} cancelled appointment {apt4} at short notice.",
                "Dr. {doc4} cancelled because {pat4} was ill."],
         status=["{pat4} will be charged a late-cancellation fee for appointment {apt4}.",
                 "Appointment {apt4} went ahead on {d4}.",
                 "{pat4} was marked as a no-show for appointment {apt4}."],
         neg=["The clinic did not cancel appointment {apt4}."],
         date=["Appointment {apt4} was for {d4_x}."],
         id=["The clinic cancelled appointment {apt4_x} because Dr. {doc4} was ill."],
         topic=["{pat4} asked to rebook appointment {apt4}.",
                "Dr. {doc4}'s appointments for {d4} were reviewed.",
                "The late-cancellation fee policy was mentioned.",
                "{pat4} phoned the clinic."]),
]

# --- bank transfers ------------------------------------------------------
def slots_bank(g):
    lim1 = g.money(500, 3000)
    return dict(trf=g.ident("TRF-########"), amt1=g.money(300, 15000), cust=g.person(), payee=g.pick(COMPANIES),
                d1=g.day(0, 60),
                pay=g.ident("CP-#######"), amt2=g.money(20, 900), merchant=g.pick(COMPANIES), cust2=g.person(),
                d2=g.day(0, 60),
                cust3=g.person(), payee3=g.pick(COMPANIES), amt3=g.money(50, 4000), d3=g.day(10, 70),
                acct=g.ident("ending ####"), lim1=lim1, lim2=Money(g, lim1.minor * g.rng.choice([2, 3, 4, 5])),
                bm=g.person(), cust4=g.person(), d4=g.day(0, 60))


BANK = [
    Fact("transfer_pending",
         P=["Transfer {trf} of {amt1} from {cust} to {payee}, submitted on {d1}, is pending compliance review; the funds have not left {cust}'s account.",
            "{cust}'s transfer {trf} of {amt1} to {payee}, submitted on {d1}, is still pending compliance review, and no money has left the account."],
         para=["The {amt1_alt} transfer to {payee} ({trf}) is still pending compliance review, and the money is still in {cust}'s account.",
               "{payee} has not received {cust}'s transfer {trf} yet; it is waiting on compliance.",
               "Compliance has not cleared transfer {trf}, so the {amt1} has not been sent.",
               "Transfer {trf}, submitted {d1_alt}, remains pending; no funds have moved.",
               "{cust}'s money is still sitting in the account while compliance looks at the payment to {payee}."],
         sub=["Transfer {trf} is pending compliance review.",
              "The {amt1} has not left {cust}'s account."],
         drop=["The transfer is pending compliance review, and the funds have not left the account."],
         status=["Transfer {trf} was completed, and {payee} received {amt1}.",
                 "The {amt1} transfer to {payee} went through on {d1}.",
                 "Transfer {trf} was rejected by compliance and cancelled.",
                 "The funds for transfer {trf} have already been debited from {cust}'s account.",
                 "Compliance cleared transfer {trf}."],
         neg=["Transfer {trf} is not pending."],
         amount=["{cust} is sending {amt1_x} to {payee} in transfer {trf}."],
         date=["Transfer {trf} was submitted on {d1_x}."],
         actor=["{payee} sent {amt1} to {cust} in transfer {trf}."],
         id=["The pending transfer to {payee} is {trf_x}."],
         topic=["{cust} asked when transfer {trf} would arrive.",
                "{payee} asked whether transfer {trf} of {amt1} had been sent.",
                "The compliance team's queue was discussed.",
                "{payee} is a regular payee of {cust}.",
                "Transfer {trf} was looked up."]),
    Fact("payment_reversed",
         P=["Card payment {pay} of {amt2} to {merchant} was reversed on {d2} at the merchant's request; the money was returned to {cust2}'s card.",
            "On {d2}, {merchant} asked for card payment {pay} ({amt2}) to be reversed, and the {amt2} went back to {cust2}'s card."],
         para=["{cust2} got the {amt2_alt} back: payment {pay} to {merchant} was reversed on {d2_alt}.",
               "Payment {pay} was reversed at {merchant}'s request, and the funds were returned to {cust2}.",
               "The {amt2} card payment to {merchant} ({pay}) no longer stands; it was reversed and returned to {cust2}'s card.",
               "{merchant} undid the card payment, so {cust2} has the money back."],
         sub=["Card payment {pay} was reversed.",
              "The {amt2} was returned to {cust2}'s card."],
         drop=["The card payment was reversed at the merchant's request, and the money was returned."],
         status=["{cust2} has not been refunded for payment {pay}.",
                 "Card payment {pay} to {merchant} still stands.",
                 "The reversal of payment {pay} is still pending.",
                 "{merchant} refused to reverse payment {pay}."],
         actor=["{cust2} reversed payment {pay} through a chargeback.",
                "The bank reversed payment {pay} on its own initiative."],
         neg=["Payment {pay} was not reversed."],
         amount=["Payment {pay} of {amt2_x} was reversed."],
         date=["Payment {pay} was reversed on {d2_x}."],
         topic=["{cust2} asked about payment {pay}.",
                "{cust2} [says|claims] payment {pay} to {merchant} was never reversed.",
                "{merchant}'s account with the bank was looked up.",
                "Card reversals were explained to {cust2}.",
                "Payment {pay} appears on {cust2}'s statement."]),
    Fact("one_time_payment",
         P=["{cust3} set up a one-time payment of {amt3} to {payee3} for {d3}; it is not a standing order and will not repeat.",
            "The {amt3} payment from {cust3} to {payee3} scheduled for {d3} is a single payment, not a standing order; it will not recur."],
         para=["{cust3}'s {amt3_alt} payment to {payee3} on {d3_alt} is a one-off and will not recur.",
               "No standing order was set up: {cust3} scheduled a single payment of {amt3} to {payee3}.",
               "The payment to {payee3} is scheduled once, for {d3}; nothing repeats after it.",
               "After {d3}, {payee3} will get nothing further from {cust3} under this instruction."],
         sub=["The payment to {payee3} will not repeat.",
              "{cust3} scheduled a payment of {amt3} to {payee3} for {d3}.",
              "The {amt3} payment is not a standing order."],
         drop=["The customer set up a one-time payment, not a standing order."],
         scope=["{cust3} set up a standing order of {amt3} to {payee3}.",
                "{payee3} will receive {amt3} from {cust3} every month.",
                "The {amt3} payment to {payee3} repeats [monthly|every week].",
                "{cust3} arranged recurring payments to {payee3} starting {d3}."],
         neg=["{cust3} did not schedule any payment to {payee3}."],
         amount=["{cust3} scheduled {amt3_x} to {payee3} for {d3}."],
         date=["The one-time payment to {payee3} is scheduled for {d3_x}."],
         actor=["{payee3} is paying {cust3} {amt3} on {d3}."],
         count=["{cust3} scheduled two payments of {amt3} to {payee3}."],
         topic=["{cust3} asked how standing orders work.",
                "{payee3}'s bank details were checked.",
                "{cust3} looked at scheduled payments in the app.",
                "{payee3} sent {cust3} an invoice."]),
    Fact("authorized_limit_change",
         P=["The daily transfer limit on {cust4}'s account {acct} was raised from {lim1} to {lim2} on {d4} by branch manager {bm}, who is authorized to make that change; it was not a fraudulent change.",
            "Branch manager {bm}, who has authority to do so, raised the daily transfer limit on {cust4}'s account {acct} from {lim1} to {lim2} on {d4}; the change was authorized, not fraudulent."],
         para=["{bm} was allowed to raise {cust4}'s daily limit and did so on {d4_alt}, from {lim1} to {lim2}.",
               "The limit increase on account {acct} to {lim2_alt} was an authorized change by branch manager {bm}.",
               "The higher daily transfer limit on account {acct} is legitimate; {bm} made the change with proper authority.",
               "Account {acct}'s daily limit went up to {lim2} on {d4}, and the change was authorized.",
               "There is no fraud in the limit increase: a manager with the right authority made it."],
         sub=["The limit change on account {acct} was authorized.",
              "The daily transfer limit on {acct} was raised to {lim2}.",
              "{bm} raised the daily transfer limit on account {acct}."],
         drop=["A branch manager with the proper authority raised the account's daily transfer limit; it was not fraud."],
         status=["The limit increase on account {acct} was fraudulent.",
                 "Someone raised the daily limit on {acct} without authorization.",
                 "{bm} exceeded their authority when changing the limit on {acct}.",
                 "The daily transfer limit on {acct} was lowered to {lim1}."],
         actor=["{cust4} raised the daily limit on account {acct} online."],
         neg=["{bm} is not authorized to change transfer limits."],
         amount=["The daily limit on {acct} was raised to {lim2_x}.",
                 "The limit on {acct} was raised from {lim1_x} to {lim2}."],
         date=["The limit on {acct} was changed on {d4_x}."],
         topic=["{cust4} asked about the daily transfer limit on {acct}.",
                "The limit history of account {acct} was reviewed.",
                "{bm} was contacted about {cust4}'s account.",
                "Fraud checks were discussed with {cust4}."]),
]

# --- IT access requests --------------------------------------------------
SYSTEMS = ["the finance ERP", "the HR portal", "the code repository", "the CRM", "the payroll system",
           "the analytics dashboard", "the ticketing system", "the document vault"]


def slots_it(g):
    emp3 = g.person()
    first, last = emp3.split()
    k = g.rng.randint(1, 8)
    d4a = g.day(0, 40)
    return dict(req=g.ident("REQ-####"), emp=g.person(), sys=g.pick(SYSTEMS), mgr=g.person(), d1=g.day(0, 60),
                emp2=g.person(), sys2=g.pick(SYSTEMS), req2=g.ident("REQ-####"), d2=g.day(0, 60),
                hrs=Num(g.rng.choice([24, 48, 72]), 12, 96),
                emp3=emp3, uid=f"{first[0].lower()}{last.lower()}{k}", uid_x=f"{first[0].lower()}{last.lower()}{k + 1}",
                n3=g.num(3, 10, 2, 12), d3=g.day(0, 60),
                tk=g.ident("IT-#####"), tk2=g.ident("IT-#####"), emp4=g.person(), d4a=d4a, d4b=g.after(d4a, 2, 20))


IT = [
    Fact("approved_not_provisioned",
         P=["Access request {req} for {emp} to {sys} was approved by {mgr} on {d1}, but the access has not been provisioned yet, so {emp} cannot sign in to it.",
            "{mgr} approved {emp}'s access request {req} for {sys} on {d1}; provisioning has not happened, so {emp} does not have access yet."],
         para=["{emp}'s request {req} is approved but not yet provisioned; access to {sys} is not live.",
               "{mgr} signed off on {req} on {d1_alt}, but {emp}'s access to {sys} has not been set up yet.",
               "Although approved, {emp} still cannot get into {sys}: request {req} has not been provisioned.",
               "Request {req} has {mgr}'s approval; the provisioning step is still outstanding.",
               "The approval is done, but the account work for {emp} on {sys} hasn't been carried out."],
         sub=["{mgr} approved access request {req}.",
              "{emp}'s access to {sys} has not been provisioned yet."],
         drop=["The access request was approved but has not been provisioned yet."],
         status=["{emp} now has access to {sys}.",
                 "Access request {req} was provisioned on {d1}.",
                 "{mgr} rejected access request {req}.",
                 "Request {req} is still waiting for {mgr}'s approval.",
                 "IT granted {emp} access to {sys} under {req}."],
         neg=["Request {req} was not approved."],
         actor=["{emp} approved {mgr}'s request for access to {sys}."],
         date=["{mgr} approved request {req} on {d1_x}."],
         id=["{emp}'s approved access request is {req_x}."],
         topic=["{emp} asked IT about request {req}.",
                "{emp} asked whether access request {req} to {sys} had been provisioned.",
                "The provisioning queue was discussed.",
                "{sys} is used by {emp}'s team.",
                "Request {req} was looked up."]),
    Fact("temporary_admin",
         P=["{emp2} was granted temporary admin access to {sys2} under {req2} for {hrs} hours; it expires on {d2} and is not permanent.",
            "Under {req2}, {emp2} has admin access to {sys2} for {hrs} hours only, until {d2}; the access is temporary, not permanent."],
         para=["{emp2}'s admin access to {sys2} is time-limited: it lasts {hrs} hours and ends on {d2_alt}.",
               "The admin rights {emp2} got under {req2} are temporary and expire on {d2}.",
               "{req2} gives {emp2} admin access to {sys2} only until {d2}; it is not a permanent grant.",
               "{emp2} will lose the elevated {sys2} rights on {d2}."],
         sub=["{emp2}'s admin access to {sys2} is temporary.",
              "{emp2}'s admin access expires on {d2}."],
         drop=["The employee was given temporary admin access that expires; it is not permanent."],
         scope=["{emp2} was given permanent admin access to {sys2}.",
                "{emp2}'s admin rights on {sys2} have no expiry.",
                "{emp2} is now a standing administrator of {sys2}.",
                "Request {req2} made {emp2} an admin of all company systems."],
         count=["{emp2}'s admin access lasts {hrs_x} hours."],
         date=["{emp2}'s temporary access expires on {d2_x}."],
         neg=["{emp2} was not granted admin access to {sys2}."],
         id=["The temporary admin access was granted under {req2_x}."],
         topic=["{emp2} asked for help with {sys2}.",
                "Admin access rules for {sys2} were discussed.",
                "Request {req2} was reviewed by IT.",
                "{emp2} works with {sys2}."]),
    Fact("locked_not_deleted",
         P=["{emp3}'s user account {uid} was locked on {d3} after {n3} failed sign-in attempts; it was locked, not deleted, and the help desk can unlock it.",
            "After {n3} failed sign-ins on {d3}, account {uid} ({emp3}) was locked; the account has not been deleted, and the help desk can unlock it."],
         para=["Account {uid} is locked, not deleted; the help desk can restore {emp3}'s access by unlocking it.",
               "{emp3} was locked out of {uid} on {d3_alt} after {n3} failed sign-ins.",
               "The {n3} failed sign-ins led to a lock on {uid}; the account itself still exists.",
               "{emp3}'s login still exists; it's just frozen until the help desk lifts the lock."],
         sub=["Account {uid} was locked.",
              "Account {uid} has not been deleted.",
              "The help desk can unlock account {uid}."],
         drop=["The account was locked after repeated failed sign-ins; it was not deleted."],
         status=["Account {uid} was deleted on {d3}.",
                 "{emp3}'s account {uid} was permanently removed.",
                 "Account {uid} is active and can be used normally.",
                 "The help desk cannot unlock {uid}; it has to be recreated."],
         count=["Account {uid} was locked after {n3_x} failed sign-ins.",
                "Account {uid} was locked after a single failed sign-in."],
         neg=["Account {uid} was not locked."],
         date=["Account {uid} was locked on {d3_x}."],
         id=["The locked account is {uid_x}."],
         topic=["{emp3} called the help desk about {uid}.",
                "Password rules were explained to {emp3}.",
                "Sign-in logs for {uid} were reviewed.",
                "Account {uid} belongs to {emp3}."]),
    Fact("reopened_ticket",
         P=["Ticket {tk} about {emp4}'s VPN access was resolved on {d4a} and reopened on {d4b} because the fix did not hold; it is open again, and {tk2} is the duplicate that was closed into it.",
            "{emp4}'s VPN ticket {tk}, resolved on {d4a}, was reopened on {d4b} because the fix did not hold and is open again; {tk2}, a duplicate, was closed into it."],
         para=["Ticket {tk} is open again: it was reopened on {d4b_alt} because the VPN fix for {emp4} did not hold.",
               "The VPN fix did not hold, so {tk} was reopened; {tk2} was a duplicate and was closed into {tk}.",
               "{tk2} was merged into {tk} as a duplicate, and {tk} itself is open again.",
               "The live ticket for {emp4}'s VPN issue is {tk}, reopened on {d4b}.",
               "{emp4}'s VPN trouble returned after the first fix, putting the original ticket back in play."],
         sub=["Ticket {tk} was reopened on {d4b}.",
              "{tk2} is a duplicate of {tk}.",
              "Ticket {tk} is open again."],
         drop=["The VPN ticket was reopened because the fix did not hold, and the duplicate was closed into it."],
         status=["Ticket {tk} was closed as a duplicate.",
                 "Ticket {tk} is resolved and closed.",
                 "{emp4}'s VPN issue has stayed fixed since {d4a}."],
         id=["{tk2} is the ticket that was reopened on {d4b}.",
             "{tk} is the duplicate that was closed into {tk2}."],
         neg=["Ticket {tk} was not reopened."],
         date=["Ticket {tk} was reopened on {d4b_x}."],
         count=["Both {tk} and {tk2} are open."],
         topic=["{emp4}'s VPN setup was discussed.",
                "Tickets {tk} and {tk2} were both looked at.",
                "{emp4} asked for an update on the VPN.",
                "The network team was copied on {tk}."]),
]

# --- hotel and travel bookings -------------------------------------------
HOTELS = ["Hotel Aurelia", "The Linden Inn", "Park Meridian", "Hotel Solenne", "The Alder House",
          "Casa Verde Suites", "Hotel Nordlys"]


def slots_hotel(g):
    d2a = g.day(20, 60)
    amt3 = g.money(300, 2500)
    kept, refunded = g.split(amt3, 0.15, 0.35)
    return dict(guest=g.person(), amt1=g.money(100, 600), hotel=g.pick(HOTELS), d1=g.day(0, 60),
                bk=g.ident("BK-######"), guest2=g.person(), tadm=g.person(), d2a=d2a, d2b=g.after(d2a, 3, 21),
                bk3=g.ident("BK-######"), guest3=g.person(), amt3=amt3, amt3a=refunded, amt3r=kept, d3=g.day(0, 60),
                guest4=g.person(), hotel4=g.pick(HOTELS), bk4=g.ident("BK-######"))


HOTEL = [
    Fact("incidentals_hold",
         P=["{hotel} placed a {amt1} pre-authorization on {guest}'s card at check-in on {d1} for incidentals; it is a hold, not a charge, and it will be released at checkout if nothing is billed.",
            "At check-in on {d1}, {hotel} put a {amt1} incidentals hold on {guest}'s card; the pre-authorization is not a charge and is released at checkout unless something is billed."],
         para=["The {amt1_alt} on {guest}'s card is only an incidentals hold from {hotel}, not a charge.",
               "{hotel} has not charged {guest} the {amt1}; it is a pre-authorization that gets released at checkout if nothing is billed.",
               "{guest}'s card carries a {amt1} pre-authorization from check-in on {d1_alt}, which is a hold rather than a payment.",
               "No money has actually been taken from {guest}'s card; the hotel just reserved {amt1} against it for extras."],
         sub=["The {amt1} on {guest}'s card is a hold, not a charge.",
              "{hotel} placed a pre-authorization on {guest}'s card at check-in."],
         drop=["The hotel put an incidentals hold on the guest's card at check-in; it is not a charge."],
         status=["{hotel} charged {guest} {amt1} at check-in.",
                 "{guest} was billed {amt1} for incidentals on {d1}.",
                 "The {amt1} was captured from {guest}'s card.",
                 "{guest} paid a {amt1} deposit that will be refunded after the stay.",
                 "{hotel} charged {guest}'s card twice at check-in."],
         neg=["The {amt1} on {guest}'s card is not a hold."],
         amount=["{hotel} placed a {amt1_x} hold on {guest}'s card."],
         date=["The incidentals hold on {guest}'s card was placed on {d1_x}."],
         topic=["{guest} asked about the amount on the card.",
                "{guest} asked whether {hotel} had charged the {amt1} to the card.",
                "The front desk at {hotel} explained its incidentals policy.",
                "{guest} checked in at {hotel} on {d1}.",
                "{guest}'s card statement was looked at."]),
    Fact("authorized_booking_change",
         P=["Booking {bk} for {guest2} was moved from {d2a} to {d2b} by {tadm}, the company's travel administrator, at {guest2}'s request; the change was authorized.",
            "{tadm}, the company's travel administrator, changed {guest2}'s booking {bk} from {d2a} to {d2b} because {guest2} asked; it was an authorized change."],
         para=["The date change on booking {bk} was authorized: travel administrator {tadm} moved it to {d2b_alt} at {guest2}'s request.",
               "{guest2} asked for booking {bk} to move to {d2b}, and {tadm}, the travel administrator, made the change.",
               "{tadm} was entitled to change booking {bk} and did so when {guest2} asked.",
               "The new travel date came from the traveller's own request, carried out by the company's travel administrator."],
         sub=["The change to booking {bk} was authorized.",
              "Booking {bk} was moved to {d2b}.",
              "{tadm} changed booking {bk} at {guest2}'s request."],
         drop=["The travel administrator moved the booking at the traveller's request, and the change was authorized."],
         status=["Booking {bk} was changed without authorization.",
                 "The date change on {bk} was never approved and should be reversed.",
                 "Someone moved {guest2}'s booking without {guest2}'s knowledge.",
                 "Booking {bk} was cancelled."],
         actor=["{guest2} moved booking {bk} to {d2b} without going through {tadm}.",
                "{tadm} moved booking {bk} on their own initiative, without a request from {guest2}."],
         neg=["{tadm} did not change booking {bk}."],
         date=["Booking {bk} was moved to {d2b_x}.",
               "Booking {bk} was moved from {d2a_x} to {d2b}."],
         id=["{tadm} moved booking {bk_x} at {guest2}'s request."],
         topic=["{guest2} asked about booking {bk}.",
                "The travel policy was mentioned to {guest2}.",
                "{tadm} handles bookings for the company.",
                "Booking {bk} was looked up."]),
    Fact("partial_refund",
         P=["For cancelled booking {bk3}, {amt3a} of the {amt3} paid by {guest3} was refunded on {d3}; the {amt3r} for the non-refundable first night was kept.",
            "Booking {bk3} was cancelled, and {guest3} received a partial refund on {d3}: {amt3a} of {amt3}, with {amt3r} kept for the non-refundable first night."],
         para=["{guest3} got {amt3a_alt} back for cancelled booking {bk3}; the non-refundable first night ({amt3r}) was not refunded.",
               "The refund on booking {bk3} was partial: {amt3r} for the first night was retained.",
               "Only part of the {amt3} for {bk3} was refunded to {guest3} on {d3_alt}.",
               "Cancelling {bk3} did not get {guest3} all the money back; the first night stayed non-refundable."],
         sub=["Booking {bk3} was only partially refunded.",
              "{amt3a} was refunded to {guest3}.",
              "The {amt3r} for the first night was kept."],
         drop=["The cancelled booking was only partly refunded; the first night was kept."],
         status=["{guest3} received a full refund of {amt3} for booking {bk3}.",
                 "Booking {bk3} was refunded in full.",
                 "No refund was given for cancelled booking {bk3}.",
                 "The first night of booking {bk3} was refunded as well."],
         amount=["{amt3a_x} was refunded for booking {bk3}.",
                 "The hotel kept {amt3r_x} for the first night of {bk3}."],
         date=["The partial refund for {bk3} was made on {d3_x}."],
         neg=["Booking {bk3} was not cancelled."],
         id=["The partial refund was for booking {bk3_x}."],
         topic=["{guest3} asked about the cancellation terms of {bk3}.",
                "Refund policies were discussed.",
                "The payment record of {bk3} was checked.",
                "{guest3} had booked {bk3} months in advance."]),
    Fact("one_time_upgrade",
         P=["{hotel4} granted {guest4} a one-time free room upgrade for stay {bk4}; it is not a standing benefit and does not apply to future stays.",
            "For stay {bk4} only, {hotel4} upgraded {guest4}'s room free of charge; the upgrade is a one-off, not a standing benefit for later stays."],
         para=["{guest4}'s free upgrade at {hotel4} applies to stay {bk4} alone.",
               "The upgrade on {bk4} was a one-off gesture by {hotel4}; it will not carry over to {guest4}'s future stays.",
               "{hotel4} did not give {guest4} a standing upgrade benefit; the free upgrade covers {bk4} only."],
         sub=["{guest4} got a free room upgrade for stay {bk4}.",
              "The upgrade does not apply to {guest4}'s future stays."],
         drop=["The hotel gave the guest a free upgrade for this stay only."],
         scope=["{guest4} will get free upgrades on all future stays at {hotel4}.",
                "{hotel4} made {guest4} eligible for a standing room upgrade.",
                "The free upgrade applies to every booking {guest4} makes at {hotel4}."],
         status=["{guest4} was charged for the room upgrade on {bk4}.",
                 "{hotel4} declined to upgrade {guest4}'s room."],
         neg=["{guest4} did not get an upgrade for stay {bk4}."],
         count=["{hotel4} gave {guest4} free upgrades on two stays."],
         id=["{guest4}'s free upgrade was for stay {bk4_x}."],
         topic=["{guest4} asked about room options for {bk4}.",
                "{hotel4}'s loyalty programme was mentioned.",
                "{guest4} has stayed at {hotel4} before.",
                "Stay {bk4} was reviewed."]),
]

# --- school grades and exams ---------------------------------------------
COURSES = ["Biology 201", "Statistics II", "Organic Chemistry", "Modern History", "Linear Algebra",
           "Microeconomics", "Spanish B2", "Data Structures", "Film Studies", "Thermodynamics"]
ASSIGNMENTS = ["lab report", "history essay", "research proposal", "term paper", "case study",
               "design portfolio"]
GRADES = ["C-", "C", "C+", "B-", "B", "B+", "A-", "A"]


def slots_school(g):
    i = g.rng.randint(0, 5)
    j = g.rng.randint(i + 1, min(i + 2, 7))
    return dict(student=g.person(), course=g.pick(COURSES), course_x=g.pick(COURSES), score=g.num(41, 94, 30, 99),
                student2=g.person(), course2=g.pick(COURSES), d2=g.day(20, 80),
                student3=g.person(), course3=g.pick(COURSES), g1=GRADES[i], g2=GRADES[j],
                g2_x=g.rng.choice([x for x in GRADES if x not in (GRADES[i], GRADES[j])]),
                reg=g.person(), d3=g.day(0, 60), app=g.ident("APL-####"),
                teacher=g.person(), student4=g.person(), assign=g.pick(ASSIGNMENTS), n4=g.num(2, 10, 1, 14),
                d4=g.day(10, 60))


SCHOOL = [
    Fact("provisional_mark",
         P=["{student}'s mark of {score} on the {course} final exam is provisional; it is under moderation and has not been finalised.",
            "The {course} final-exam mark for {student}, {score}, has not been finalised: it is provisional while moderation is under way."],
         para=["{student}'s {course} final mark ({score}) is still provisional pending moderation.",
               "Moderation of {student}'s {course} final is ongoing, so the {score} has not been confirmed.",
               "The {score} that {student} got on the {course} final is not final yet.",
               "{student}'s {course} result could still change, as the examiners are still moderating it."],
         sub=["{student}'s {course} mark has not been finalised.",
              "{student}'s {course} final is under moderation."],
         drop=["The student's exam mark is provisional and has not been finalised."],
         status=["{student}'s {course} mark of {score} has been finalised.",
                 "Moderation of {student}'s {course} final is complete.",
                 "{student}'s final grade for {course} is confirmed at {score}.",
                 "{student}'s {course} mark was published as final."],
         amount=["{student} scored {score_x} on the {course} final."],
         neg=["{student}'s {course} mark is not provisional."],
         id=["The provisional mark of {score} is on {student}'s {course_x} final."],
         topic=["{student} asked when the {course} results come out.",
                "{student} asked whether the {course} mark of {score} was final.",
                "Moderation procedures were explained to {student}.",
                "{student} is enrolled in {course}.",
                "The {course} final was marked by two examiners."]),
    Fact("one_resit",
         P=["The exam board allowed {student2} one resit of the {course2} exam, scheduled for {d2}; no further resits are permitted.",
            "{student2} was granted a single resit of {course2} by the exam board, set for {d2}; no further resit will be allowed."],
         para=["{student2} gets exactly one more attempt at {course2}, on {d2_alt}.",
               "The {course2} resit on {d2} is {student2}'s only permitted resit.",
               "The exam board granted {student2} one {course2} resit and ruled out any others.",
               "If the {d2} attempt goes badly, {student2} cannot sit {course2} again."],
         sub=["{student2} may resit {course2} once.",
              "{student2}'s {course2} resit is scheduled for {d2}.",
              "No further resits of {course2} are permitted for {student2}."],
         drop=["The student was allowed one resit, and no further resits are permitted."],
         count=["{student2} may resit {course2} twice.",
                "{student2} can take the {course2} resit as many times as needed.",
                "{student2} has two resit attempts left for {course2}."],
         status=["The exam board refused {student2} a resit of {course2}."],
         neg=["{student2} is not allowed to resit {course2}."],
         date=["{student2}'s {course2} resit is on {d2_x}."],
         actor=["{student2}'s tutor, not the exam board, granted the {course2} resit."],
         topic=["{student2} asked about {course2} resit dates.",
                "The resit rules were discussed.",
                "{student2} did not pass the first {course2} attempt.",
                "The {course2} exam timetable was checked."]),
    Fact("authorized_grade_change",
         P=["{student3}'s {course3} grade was changed from {g1} to {g2} on {d3} by the registrar, {reg}, after appeal {app} was upheld; the change was authorized.",
            "After appeal {app} was upheld, registrar {reg} changed {student3}'s {course3} grade from {g1} to {g2} on {d3}; it was an authorized change."],
         para=["The {g1}-to-{g2} change on {student3}'s {course3} grade was authorized, following the upheld appeal {app}.",
               "{reg}, the registrar, raised {student3}'s {course3} grade to {g2} on {d3_alt} once appeal {app} succeeded.",
               "Appeal {app} was upheld, and the registrar properly changed the {course3} grade from {g1} to {g2}.",
               "{student3}'s successful appeal led to an official, sanctioned grade correction in {course3}."],
         sub=["Appeal {app} was upheld.",
              "{student3}'s {course3} grade was changed to {g2}.",
              "The grade change for {student3} was authorized."],
         drop=["The registrar changed the student's grade after an upheld appeal, and the change was authorized."],
         status=["{student3}'s {course3} grade was changed without authorization.",
                 "Appeal {app} was rejected.",
                 "The grade change on {student3}'s record looks like tampering.",
                 "{student3}'s appeal {app} is still pending."],
         actor=["{student3}'s lecturer changed the grade without going through the registrar.",
                "{student3} changed the {course3} grade personally."],
         neg=["The registrar did not change {student3}'s grade."],
         amount=["{student3}'s {course3} grade went from {g1} to {g2_x}."],
         date=["The registrar changed {student3}'s grade on {d3_x}."],
         id=["The grade change followed appeal {app_x}."],
         topic=["{student3} submitted appeal {app}.",
                "The registrar's office was contacted about {student3}'s record.",
                "Grade appeals were discussed.",
                "{course3} is taught in the spring term."]),
    Fact("single_extension",
         P=["Teacher {teacher} granted {student4} an extension of {n4} days on the {assign}, moving its deadline to {d4}; the extension applies to that assignment only.",
            "{student4}'s {assign} is now due on {d4} after {teacher} granted an extension of {n4} days; no other assignment is covered by it."],
         para=["The {assign} deadline for {student4} moved to {d4_alt} thanks to an extension of {n4} days from {teacher}.",
               "{teacher}'s extension covers only {student4}'s {assign}, now due {d4}.",
               "{student4} has {n4} extra days for the {assign}; the extension does not cover other assignments.",
               "{student4} can hand in the {assign} later than planned, up to {d4}."],
         sub=["{student4}'s {assign} is now due on {d4}.",
              "The extension covers only the {assign}."],
         drop=["The teacher granted an extension that applies to that one assignment only."],
         scope=["{teacher} extended all of {student4}'s deadlines by {n4} days.",
                "{student4}'s extension applies to every assignment this term.",
                "{student4} now has an open-ended extension."],
         count=["{teacher} granted an extension of {n4_x} days on the {assign}."],
         date=["The {assign} is now due on {d4_x}."],
         status=["{teacher} refused {student4}'s extension request."],
         neg=["{student4} did not get an extension on the {assign}."],
         topic=["{student4} asked {teacher} about the {assign}.",
                "Extension policies were discussed in class.",
                "{student4} chose the topic of the {assign}.",
                "{teacher} teaches {student4}."]),
]

# --- utility meter readings and bills ------------------------------------
STREETS = ["Alder Road", "Birch Lane", "Cedar Street", "Dove Close", "Elm Avenue", "Fern Way",
           "Glebe Road", "Hawthorn Drive"]


def slots_utility(g):
    n3 = g.rng.choice([6, 10, 12])
    return dict(bill=g.ident("BL-#######"), acct=g.ident("AC-#######"), r1=g.num(180, 1400, 100, 2000),
                d1=g.day(10, 60), cust=g.person(),
                amt2=g.money(40, 600), bill2=g.ident("BL-#######"), dsp=g.ident("DSP-#####"), cust2=g.person(),
                cust3=g.person(), n3=Num(n3, 3, 24), k3=Num(g.rng.randint(2, n3 - 2), 1, n3 - 1),
                amt3=g.money(25, 300),
                mtr=g.ident("MTR-######"), addr=f"{g.rng.randint(2, 190)} {g.pick(STREETS)}", tech=g.person(),
                wo=g.ident("WO-#####"), d4=g.day(0, 60))


UTILITY = [
    Fact("estimated_reading",
         P=["Bill {bill} for account {acct} was based on an estimated reading of {r1} kWh, not an actual meter reading; a technician visit to read the meter is booked for {d1}.",
            "The reading of {r1} kWh on bill {bill} (account {acct}) is an estimate rather than an actual meter reading; a technician is booked to read the meter on {d1}."],
         para=["Nobody read the meter for bill {bill}; the {r1} kWh figure is estimated.",
               "Bill {bill} used an estimate of {r1} kWh, and an actual reading is planned for {d1_alt}.",
               "The {r1} kWh on account {acct}'s bill {bill} is estimated; a technician will read the meter on {d1}.",
               "The usage shown on bill {bill} was estimated, not measured; someone is booked to come on {d1} to read the meter."],
         sub=["Bill {bill} was based on an estimated reading.",
              "A technician visit to read the meter is booked for {d1}.",
              "The {r1} kWh reading is not an actual meter reading."],
         drop=["The bill used an estimated reading, not an actual one, and a technician visit is booked."],
         status=["Bill {bill} was based on an actual meter reading of {r1} kWh.",
                 "A technician read the meter for bill {bill}.",
                 "The {r1} kWh on bill {bill} was measured at the meter."],
         amount=["Bill {bill} was based on {r1_x} kWh."],
         date=["The technician visit for account {acct} is booked for {d1_x}."],
         neg=["The reading on bill {bill} is not an estimate."],
         id=["The estimated reading is on bill {bill_x}."],
         topic=["{cust} queried bill {bill}.",
                "Estimated readings were explained.",
                "Bill {bill} was reviewed.",
                "Account {acct} is on a standard tariff."]),
    Fact("dispute_hold",
         P=["Collection of the {amt2} that {cust2} disputes on bill {bill2} is on hold while dispute {dsp} is open; the amount has been neither written off nor paid.",
            "While dispute {dsp} remains open, collection of the {amt2} disputed by {cust2} on bill {bill2} is paused; it has not been written off or paid."],
         para=["The {amt2_alt} on bill {bill2} is neither paid nor written off; collection waits on dispute {dsp}.",
               "Dispute {dsp} is still open, so collection of the contested {amt2} is paused.",
               "{cust2} is not being chased for the disputed {amt2} while {dsp} is open, and the amount has not been cancelled.",
               "Nobody has paid or forgiven the contested sum on {bill2}; collection is simply frozen pending the dispute."],
         sub=["Dispute {dsp} is still open.",
              "Collection of the disputed {amt2} is on hold.",
              "The disputed {amt2} has not been written off."],
         drop=["Collection of the disputed amount is on hold while the dispute is open."],
         status=["The disputed {amt2} on bill {bill2} was written off.",
                 "{cust2} paid the disputed {amt2}.",
                 "Dispute {dsp} was resolved in {cust2}'s favour.",
                 "Dispute {dsp} has been closed.",
                 "The {amt2} was sent to collections."],
         amount=["{cust2} disputes {amt2_x} on bill {bill2}."],
         neg=["Collection of the {amt2} is not on hold."],
         id=["The disputed amount is on bill {bill2_x}.",
             "The open dispute about bill {bill2} is {dsp_x}."],
         topic=["{cust2} called about bill {bill2}.",
                "{cust2} asked whether the disputed {amt2} on bill {bill2} had been written off.",
                "The dispute process was explained.",
                "Dispute {dsp} was logged by the billing team.",
                "Bill {bill2} was reviewed."]),
    Fact("payment_plan_partial",
         P=["{cust3} agreed a payment plan of {n3} monthly instalments of {amt3}; {k3} of the {n3} instalments have been paid so far, so the plan is not complete.",
            "Under {cust3}'s payment plan ({n3} monthly instalments of {amt3}), {k3} instalments have been paid so far; the plan is still in progress, not complete."],
         para=["{cust3} has paid {k3} of {n3} instalments of {amt3_alt}; the payment plan is not finished.",
               "The payment plan is still running: {cust3} has made {k3} of the {n3} monthly payments.",
               "{cust3} is partway through paying off the balance under the agreed {n3}-instalment plan."],
         sub=["{cust3}'s payment plan is not complete.",
              "{k3} instalments of {cust3}'s plan have been paid.",
              "{cust3} agreed a payment plan of {n3} monthly instalments."],
         drop=["The customer is partway through a payment plan that is not yet complete."],
         status=["{cust3} has completed the payment plan.",
                 "{cust3}'s payment plan is fully paid.",
                 "{cust3} has not paid any instalments yet."],
         count=["{cust3} has paid {k3_x} of the {n3} instalments.",
                "{cust3}'s payment plan has {n3_x} instalments."],
         amount=["Each instalment in {cust3}'s plan is {amt3_x}."],
         neg=["{cust3} is not on a payment plan."],
         topic=["{cust3} asked about the next instalment date.",
                "Payment plans were discussed.",
                "{cust3}'s account balance was reviewed.",
                "{cust3} pays by direct debit."]),
    Fact("authorized_meter_swap",
         P=["Meter {mtr} at {addr} was replaced on {d4} by technician {tech}, who was authorised under work order {wo}; the replacement was not tampering.",
            "Technician {tech} replaced meter {mtr} at {addr} on {d4} under work order {wo}, which authorised the job; it was not tampering."],
         para=["The meter swap at {addr} was authorised: {tech} replaced {mtr} on {d4_alt} under {wo}.",
               "Work order {wo} authorised {tech} to replace meter {mtr}, so the change at {addr} was legitimate.",
               "{tech}'s replacement of meter {mtr} was an authorised job, not tampering.",
               "Nobody interfered with the meter at {addr}; a technician with a valid work order fitted the new one."],
         sub=["{tech} replaced meter {mtr}.",
              "The meter replacement at {addr} was authorised.",
              "The work on meter {mtr} was not tampering."],
         drop=["A technician replaced the meter under a work order, and the replacement was authorised."],
         status=["Meter {mtr} at {addr} was tampered with on {d4}.",
                 "The replacement of meter {mtr} was unauthorised.",
                 "Someone swapped meter {mtr} without a work order."],
         actor=["The resident at {addr} replaced meter {mtr} themselves."],
         neg=["{tech} was not authorised to replace meter {mtr}."],
         date=["Meter {mtr} was replaced on {d4_x}."],
         id=["{tech} replaced meter {mtr} under work order {wo_x}.",
             "The meter replaced at {addr} was {mtr_x}."],
         topic=["The residents at {addr} asked about the new meter.",
                "Work order {wo} was pulled up.",
                "{tech} was asked about meter readings at {addr}.",
                "The rules on meter tampering were explained."]),
]

# --- grant applications --------------------------------------------------
ORGS = ["Riverbend Youth Theatre", "Open Soil Collective", "Northlight Heritage Society",
        "Copperfield Literacy Trust", "Meadowlark Community Choir", "Stillwater Mental Health Network",
        "Tern Island Conservation", "Maple Street Food Bank", "Lantern Refugee Support", "Brookside Sports Club"]
FUNDS = ["Community Futures Fund", "Small Arts Grant", "Rural Health Programme", "Green Spaces Fund",
         "Youth Skills Fund"]
REPORTS = ["interim report", "mid-year report", "Q2 progress report", "annual impact report"]


def slots_grants(g):
    amt2 = g.money(8000, 90000)
    awarded, cut = g.split(amt2, 0.55, 0.85)
    return dict(app=g.ident("GA-####-##"), org=g.pick(ORGS), fund=g.pick(FUNDS), d1=g.day(0, 60),
                gr=g.ident("GR-#####"), org2=g.pick(ORGS), amt2=amt2, amt2a=awarded, amt2r=cut, d2=g.day(0, 60),
                po=g.person(), org3=g.pick(ORGS), d3=g.day(20, 80), rep=g.pick(REPORTS),
                app4=g.ident("GA-####-##"), org4=g.pick(ORGS), d4=g.day(0, 60))


GRANTS = [
    Fact("shortlisted_not_awarded",
         P=["Application {app} from {org} to the {fund} was shortlisted on {d1}, but no funding decision has been made; the grant has not been awarded.",
            "{org}'s application {app} to the {fund} made the shortlist on {d1}; no funding decision has been taken yet, and it has not been awarded a grant."],
         para=["{org} has been shortlisted for the {fund} but has not been awarded anything yet.",
               "No decision has been made on application {app}; it was shortlisted on {d1_alt}.",
               "Application {app}, shortlisted on {d1}, is still waiting for a funding decision.",
               "{org} is still in the running for the {fund}, with the panel yet to decide."],
         sub=["Application {app} was shortlisted.",
              "No funding decision has been made on application {app}.",
              "{org} has not been awarded the {fund} grant."],
         drop=["The application was shortlisted, but no funding decision has been made yet."],
         status=["{org} was awarded the {fund} grant.",
                 "Application {app} was funded on {d1}.",
                 "Application {app} was rejected.",
                 "The {fund} panel turned down {org}'s application.",
                 "{org} has received its {fund} award."],
         neg=["Application {app} was not shortlisted."],
         date=["Application {app} was shortlisted on {d1_x}."],
         id=["{org}'s shortlisted application is {app_x}."],
         topic=["{org} asked when the {fund} decisions will be announced.",
                "{org} asked whether application {app} had been awarded the grant.",
                "The {fund} shortlist was discussed.",
                "{org} has applied to the {fund} before.",
                "Application {app} was read by a panel member."]),
    Fact("partial_award",
         P=["Grant {gr} to {org2} was awarded on {d2} at {amt2a} of the {amt2} requested; the {amt2r} equipment budget was cut.",
            "On {d2}, {org2} received grant {gr} for {amt2a} rather than the {amt2} requested, because the {amt2r} equipment budget was cut."],
         para=["{org2} got less than it asked for: grant {gr} came to {amt2a_alt} of {amt2}.",
               "Grant {gr} was awarded only in part; the {amt2r} for equipment was cut.",
               "The award to {org2} ({gr}) covers {amt2a} of the requested {amt2}, without the equipment budget.",
               "The funders backed {org2}'s project but stripped out the equipment money."],
         sub=["Grant {gr} was awarded at {amt2a}.",
              "The {amt2r} equipment budget was cut from grant {gr}.",
              "{org2} did not receive the full {amt2} requested."],
         drop=["The grant was awarded at less than the amount requested, with the equipment budget cut."],
         status=["{org2} received the full {amt2} it requested.",
                 "Grant {gr} was awarded in full, including equipment.",
                 "{org2}'s application was rejected.",
                 "The equipment budget was kept in grant {gr}."],
         amount=["Grant {gr} was awarded at {amt2a_x}.",
                 "{org2} requested {amt2_x} for grant {gr}."],
         date=["Grant {gr} was awarded on {d2_x}."],
         neg=["Grant {gr} was not awarded."],
         id=["The reduced award to {org2} was grant {gr_x}."],
         topic=["{org2} asked about the equipment budget.",
                "The budget of grant {gr} was reviewed.",
                "{org2}'s project plan was discussed.",
                "Grant {gr} funds a project run by {org2}."]),
    Fact("one_time_report_extension",
         P=["Program officer {po} granted {org3} a one-time extension of its {rep} deadline to {d3}; later reports are still due on the original schedule.",
            "{org3}'s {rep} may be submitted as late as {d3} under a single extension from program officer {po}; all later reports keep their original deadlines."],
         para=["The {rep} from {org3} is now due {d3_alt}, a one-off extension granted by {po}.",
               "{po}'s extension covers {org3}'s {rep} only; subsequent reports keep the original schedule.",
               "{org3} got one extension, for the {rep}, to {d3}.",
               "{org3} has extra time on this one report, but none of its later deadlines move."],
         sub=["{org3}'s {rep} deadline is now {d3}.",
              "Later reports from {org3} are still due on the original schedule.",
              "{po} granted {org3} a one-time extension."],
         drop=["The program officer granted a one-time deadline extension; later reports keep the original schedule."],
         scope=["{po} extended all of {org3}'s reporting deadlines.",
                "{org3}'s later reports are also pushed back to new dates.",
                "{org3} now has a standing extension on its reports."],
         status=["{po} refused to extend {org3}'s {rep} deadline."],
         date=["{org3}'s {rep} is now due on {d3_x}."],
         neg=["{org3}'s {rep} deadline was not extended."],
         actor=["The grant committee, not {po}, granted {org3}'s extension."],
         topic=["{org3} asked {po} about reporting requirements.",
                "The {rep} template was shared with {org3}.",
                "Reporting deadlines were discussed.",
                "{po} oversees {org3}'s grant."]),
    Fact("withdrawn_not_rejected",
         P=["Application {app4} from {org4} was withdrawn by the applicant on {d4}; the panel did not reject it.",
            "{org4} withdrew its own application {app4} on {d4}; it was not rejected by the panel."],
         para=["The panel did not turn down {app4}; {org4} pulled the application itself on {d4_alt}.",
               "{org4} withdrew application {app4}; the panel never rejected it.",
               "Application {app4} ended because {org4} withdrew it, not because of a panel decision.",
               "It was {org4}'s own choice to drop application {app4} from the round."],
         sub=["{org4} withdrew application {app4}.",
              "The panel did not reject application {app4}."],
         drop=["The applicant withdrew the application; it was not rejected."],
         status=["The panel rejected {org4}'s application {app4}.",
                 "Application {app4} was turned down by the panel on {d4}.",
                 "Application {app4} is still under review.",
                 "{org4}'s application {app4} was funded."],
         neg=["{org4} did not withdraw application {app4}."],
         date=["{org4} withdrew application {app4} on {d4_x}."],
         actor=["The program office withdrew {app4} after an eligibility check."],
         id=["{org4} withdrew application {app4_x}."],
         topic=["{org4} contacted the program office about {app4}.",
                "Withdrawal procedures were explained.",
                "Application {app4} was submitted before the deadline.",
                "The panel met to review applications."]),
]

# --- facility maintenance tickets ----------------------------------------
ASSETS = ["passenger lift", "boiler", "air-handling unit", "fire door", "chiller", "rooftop fan",
          "kitchen extractor", "sprinkler pump"]
LEAKS = ["radiator", "sink", "roof drain", "water heater", "ceiling pipe", "shower valve"]
BUILDINGS = ["Building A", "Building C", "the Annex", "the North Wing", "the Library Block", "Tower 2"]
ROOMS = ["room 214", "the second-floor kitchen", "lab 3B", "meeting room Oak", "the staff lounge", "office 508"]


def slots_facility(g):
    n2 = g.rng.randint(8, 40)
    n1 = g.rng.randint(2, n2 - 2)
    d2a = g.day(0, 40)
    return dict(wo=g.ident("WO-#####"), asset=g.pick(ASSETS), bldg=g.pick(BUILDINGS), d1=g.day(0, 60),
                tk=g.ident("FM-#####"), tkb=g.ident("FM-#####"), asset2=g.pick(LEAKS), room=g.pick(ROOMS),
                d2a=d2a, d2b=g.after(d2a, 3, 30),
                n1=Num(n1, 1, n2 - 1), n2=str(n2), nr=Num(n2 - n1, 1, n2 - 1), fl3=g.num(1, 12, 1, 14),
                d3=g.day(0, 60),
                ven=g.pick(COMPANIES), bldg4=g.pick(BUILDINGS), pmt=g.ident("PMT-####"), fm=g.person(),
                d4=g.day(0, 60))


FACILITY = [
    Fact("awaiting_parts",
         P=["Work order {wo} for the broken {asset} in {bldg} is still open: the repair is waiting for parts ordered on {d1} and has not been carried out.",
            "The {asset} repair in {bldg} ({wo}) has not been done; the work order is still open and waiting for parts that were ordered on {d1}."],
         para=["Work order {wo} remains open because the repair is still waiting for the parts ordered on {d1_alt}.",
               "The {asset} in {bldg} has not been repaired yet; the job under {wo} awaits parts.",
               "No repair has been done yet on the {asset}; work order {wo} is open pending parts.",
               "Fixing the {asset} in {bldg} is stalled until the ordered parts come in."],
         sub=["Work order {wo} is still open.",
              "The {asset} repair has not been carried out.",
              "Work order {wo} is waiting for parts."],
         drop=["The repair is still open and waiting for parts; it has not been done."],
         status=["The {asset} in {bldg} was repaired under {wo}.",
                 "Work order {wo} was closed.",
                 "The {asset} in {bldg} is working again after the repair.",
                 "The parts for {wo} were fitted, and the job is complete.",
                 "Work order {wo} was cancelled."],
         neg=["Work order {wo} is not waiting for parts."],
         date=["The parts for {wo} were ordered on {d1_x}."],
         id=["The open work order for the {asset} in {bldg} is {wo_x}."],
         topic=["The facilities team discussed the {asset} in {bldg}.",
                "Staff in {bldg} asked whether the {asset} had been repaired under {wo}.",
                "Work order {wo} was viewed.",
                "{bldg}'s maintenance schedule was checked.",
                "Staff reported noise from the {asset}."]),
    Fact("reopened_leak",
         P=["Ticket {tk} for the leaking {asset2} in {room} was closed on {d2a} and reopened on {d2b} when the leak came back; it is open again, and {tkb} is the duplicate that was merged into it.",
            "{tk}, the ticket for the {asset2} leak in {room}, was closed on {d2a}, reopened on {d2b} after the leak came back, and is open again; {tkb} was a duplicate and was merged into it."],
         para=["The {asset2} leak in {room} came back, so {tk} was reopened on {d2b_alt} and is open again.",
               "{tkb} was merged into {tk} as a duplicate; {tk} itself is open again.",
               "Ticket {tk} is active again after being reopened on {d2b}; it had been closed on {d2a}.",
               "The first fix to the {asset2} in {room} did not last, and the original ticket is back in the queue."],
         sub=["Ticket {tk} was reopened.",
              "{tkb} is a duplicate of {tk}.",
              "Ticket {tk} is open again."],
         drop=["The leak ticket was reopened when the leak came back; the duplicate was merged into it."],
         status=["Ticket {tk} was closed as a duplicate of {tkb}.",
                 "Ticket {tk} is closed, and the {asset2} leak is fixed.",
                 "The {asset2} leak in {room} has not come back since {d2a}."],
         id=["Ticket {tkb} was reopened on {d2b}.",
             "{tk} was merged into {tkb} as a duplicate."],
         neg=["Ticket {tk} was not reopened."],
         date=["Ticket {tk} was reopened on {d2b_x}."],
         count=["Tickets {tk} and {tkb} are both open."],
         topic=["A plumber was called about the {asset2} in {room}.",
                "Tickets {tk} and {tkb} were reviewed.",
                "The people in {room} asked about the leak.",
                "Leak tickets were discussed."]),
    Fact("partial_relamping",
         P=["{n1} of the {n2} emergency lights on level {fl3} were replaced on {d3}; the remaining {nr} have not been replaced yet.",
            "On {d3}, the team replaced {n1} of the {n2} emergency lights on level {fl3}; the job is partial, and the other {nr} have not been replaced yet."],
         para=["The emergency-light replacement on level {fl3} is only partly done: {n1} out of {n2} were swapped on {d3_alt}.",
               "{nr} emergency lights on level {fl3} still need replacing after {n1} were done on {d3}.",
               "Not all emergency lights on level {fl3} have been replaced; {nr} remain.",
               "Part of the level {fl3} emergency-lighting job is still outstanding."],
         sub=["{n1} emergency lights on level {fl3} were replaced.",
              "The emergency-light replacement on level {fl3} is not complete."],
         drop=["Only some of the emergency lights were replaced; the rest are still to be done."],
         status=["All {n2} emergency lights on level {fl3} were replaced.",
                 "The emergency-light job on level {fl3} is complete.",
                 "None of the emergency lights on level {fl3} have been replaced."],
         count=["{n1_x} of the {n2} emergency lights on level {fl3} were replaced.",
                "{nr_x} emergency lights on level {fl3} are still waiting to be replaced."],
         date=["The level {fl3} emergency lights were replaced on {d3_x}."],
         neg=["No emergency lights remain to be replaced on level {fl3}."],
         id=["The partial emergency-light replacement was on level {fl3_x}."],
         topic=["Emergency lighting on level {fl3} was inspected.",
                "The lighting contractor was asked for a quote.",
                "Level {fl3} has a fire-safety check coming up.",
                "The emergency-light job was mentioned at the facilities meeting."]),
    Fact("authorized_shutoff",
         P=["Contractor {ven} shut off the water to {bldg4} on {d4} under permit {pmt}, approved by facilities manager {fm}; the shut-off was authorized.",
            "On {d4}, {ven} turned off the water supply to {bldg4}; permit {pmt}, approved by facilities manager {fm}, authorized the shut-off."],
         para=["The water shut-off at {bldg4} on {d4_alt} was authorized under permit {pmt}.",
               "{fm} approved permit {pmt}, which allowed {ven} to shut off the water to {bldg4}.",
               "{ven} had a permit approved by {fm} when it shut off the water to {bldg4}.",
               "Cutting the water to {bldg4} was sanctioned by facilities management beforehand."],
         sub=["The water shut-off at {bldg4} was authorized.",
              "{fm} approved permit {pmt}.",
              "{ven} shut off the water to {bldg4}."],
         drop=["The contractor shut off the water under an approved permit, so the shut-off was authorized."],
         status=["{ven} shut off the water to {bldg4} without a permit.",
                 "The water shut-off at {bldg4} was unauthorized.",
                 "Permit {pmt} was rejected by {fm}."],
         actor=["{fm} shut off the water to {bldg4} personally.",
                "{ven} approved the permit, and {fm} carried out the shut-off."],
         neg=["{fm} did not approve permit {pmt}."],
         date=["The water to {bldg4} was shut off on {d4_x}."],
         id=["The shut-off at {bldg4} was done under permit {pmt_x}."],
         topic=["Tenants of {bldg4} complained about the water.",
                "Permit {pmt} was pulled from the system.",
                "{ven}'s contract with the company was reviewed.",
                "Water shut-off procedures were discussed."]),
]

# --- subscription plans --------------------------------------------------
PLANS = [("Business", "Starter"), ("Pro", "Basic"), ("Enterprise", "Team"), ("Premium", "Standard"),
         ("Growth", "Lite")]


def slots_subscription(g):
    p1, p2 = g.rng.choice(PLANS)
    s1 = g.rng.randint(5, 40)
    return dict(cust=g.pick(COMPANIES), plan1=p1, plan2=p2,
                plan3=g.rng.choice([b for a, b in PLANS if b != p2]), d1=g.day(10, 40),
                ws=g.ident("WS-#####"), d2=g.day(0, 60),
                pct3=g.num(10, 30, 5, 40), inv=g.ident("INV-#####"), mgr3=g.person(), cust3=g.pick(COMPANIES),
                ws4=g.ident("WS-#####"), adm4=g.person(), s1=str(s1), s2=g.num(s1 + 2, s1 + 20, s1 + 1, s1 + 25),
                d4=g.day(0, 60))


SUBSCRIPTION = [
    Fact("downgrade_scheduled",
         P=["{cust}'s downgrade from the {plan1} plan to {plan2} is scheduled for the end of the billing period on {d1}; the account stays on {plan1} until then.",
            "{cust} is still on the {plan1} plan; its downgrade to {plan2} takes effect at the end of the billing period on {d1}."],
         para=["{cust} remains on {plan1} until {d1_alt}, when the downgrade to {plan2} takes effect.",
               "The move to {plan2} for {cust} has not happened yet; it is set for the end of the billing period.",
               "{cust} will switch to {plan2} on {d1}; for now the account is still on {plan1}.",
               "Until the current billing period closes, {cust} keeps its {plan1} plan."],
         sub=["{cust} is still on the {plan1} plan.",
              "{cust}'s downgrade to {plan2} is scheduled for {d1}."],
         drop=["The customer's downgrade is scheduled for the end of the billing period; until then the account stays on its current plan."],
         status=["{cust} has already been moved to the {plan2} plan.",
                 "{cust}'s downgrade to {plan2} took effect immediately.",
                 "{cust} cancelled the downgrade and stays on {plan1} for good.",
                 "{cust} is upgrading from {plan2} to {plan1}."],
         date=["{cust}'s downgrade takes effect on {d1_x}."],
         neg=["{cust} is not downgrading."],
         id=["{cust} is downgrading to the {plan3} plan."],
         topic=["{cust} asked what the {plan2} plan includes.",
                "{cust} asked whether the downgrade to {plan2} had already taken effect.",
                "Plan differences were explained to {cust}.",
                "{cust}'s billing period was checked.",
                "{cust} has been a customer for several years."]),
    Fact("trial_not_converted",
         P=["The free trial for workspace {ws} ended on {d2} without converting to a paid plan; the card on file was not charged.",
            "Workspace {ws}'s trial ended on {d2} and did not convert to a paid plan, so no charge was made to the card on file."],
         para=["Workspace {ws} did not convert after its trial ended on {d2_alt}; nothing was charged.",
               "No payment was taken for workspace {ws}: the trial lapsed without converting.",
               "The card on file for {ws} was not billed when the trial ended.",
               "{ws} never became a paying workspace, and its card was left alone."],
         sub=["The trial for workspace {ws} ended on {d2}.",
              "Workspace {ws} did not convert to a paid plan.",
              "The card on file for {ws} was not charged."],
         drop=["The trial ended without converting, and the card was not charged."],
         status=["Workspace {ws} converted to a paid plan on {d2}.",
                 "The card on file for {ws} was charged when the trial ended.",
                 "Workspace {ws} is now on a paid subscription.",
                 "The trial for {ws} was extended."],
         neg=["The trial for workspace {ws} has not ended."],
         date=["The trial for workspace {ws} ended on {d2_x}."],
         count=["The card for {ws} was charged twice after the trial."],
         id=["The workspace whose trial lapsed without converting is {ws_x}."],
         topic=["The owner of {ws} asked about paid plans.",
                "Trial terms were explained.",
                "Workspace {ws} has several members.",
                "{ws}'s usage during the trial was reviewed."]),
    Fact("one_time_discount",
         P=["The {pct3}% discount on {cust3}'s invoice {inv} was a one-time goodwill gesture approved by {mgr3}; it does not apply to future invoices.",
            "{mgr3} approved a goodwill discount of {pct3}% on invoice {inv} for {cust3} as a one-off; it does not apply to future invoices."],
         para=["The {pct3}% off on invoice {inv} was a one-off; {cust3}'s later invoices will not get it.",
               "{mgr3} approved the {inv} discount as a single goodwill gesture, not an ongoing rate.",
               "Of {cust3}'s invoices, only {inv} carries the {pct3}% goodwill discount; future ones do not.",
               "{cust3}'s future invoices go back to the undiscounted price; the reduction was a single courtesy."],
         sub=["{mgr3} approved a discount of {pct3}% on invoice {inv}.",
              "The discount on {inv} does not apply to future invoices."],
         drop=["The manager approved a one-time goodwill discount that does not apply to future invoices."],
         scope=["{cust3} gets a discount of {pct3}% on all future invoices.",
                "{mgr3} approved a permanent discount of {pct3}% for {cust3}.",
                "The {pct3}% goodwill discount is now {cust3}'s standing rate.",
                "The discount on {inv} will be applied every month going forward."],
         amount=["The discount on invoice {inv} was {pct3_x}%."],
         actor=["The discount on {inv} was applied automatically, without anyone approving it."],
         neg=["Invoice {inv} was not discounted."],
         id=["The one-time discount was on invoice {inv_x}."],
         status=["{mgr3} rejected the goodwill discount for {cust3}."],
         topic=["{cust3} asked for a discount.",
                "Invoice {inv} was sent to {cust3}.",
                "Goodwill gestures were discussed with {mgr3}.",
                "{cust3}'s pricing was reviewed."]),
    Fact("authorized_seat_change",
         P=["Seats on workspace {ws4} were increased from {s1} to {s2} on {d4} by {adm4}, a workspace admin, which the plan allows; the change was authorized.",
            "{adm4}, a workspace admin, raised {ws4}'s seat count from {s1} to {s2} on {d4}; the plan lets admins do this, so the change was authorized."],
         para=["The seat increase on {ws4} ({s1} to {s2}) was an authorized change by workspace admin {adm4}.",
               "{adm4} was allowed to add seats to {ws4} and did so on {d4_alt}.",
               "Workspace {ws4} went to {s2} seats through an authorized change by its admin {adm4}.",
               "The extra seats on {ws4} were added by someone with the right to add them."],
         sub=["The seat change on {ws4} was authorized.",
              "{adm4} is a workspace admin.",
              "The seats on {ws4} were increased to {s2}."],
         drop=["A workspace admin increased the seat count, which the plan allows."],
         status=["The seats on {ws4} were added without authorization.",
                 "{adm4} had no right to add seats to {ws4}.",
                 "The seat increase on {ws4} broke the plan's rules.",
                 "The seat count on {ws4} was reduced on {d4}."],
         actor=["The billing system added seats to {ws4} automatically.",
                "A regular member of {ws4}, not an admin, added the seats."],
         count=["The seats on {ws4} went from {s1} to {s2_x}."],
         date=["{adm4} added the seats to {ws4} on {d4_x}."],
         neg=["{adm4} is not a workspace admin."],
         topic=["The owner of {ws4} asked who added seats.",
                "Seat pricing was explained.",
                "{adm4} logged in to {ws4}.",
                "The seat history of {ws4} was reviewed."]),
]

# --- procurement purchase orders -----------------------------------------
PURCHASES = ["a laser cutter", "two laptops", "a trade-fair booth", "a 3D printer", "a server rack",
             "ten office chairs", "a projector"]


def slots_procurement(g):
    amt2 = g.money(2000, 60000)
    invoiced, open_ = g.split(amt2, 0.25, 0.75)
    return dict(po=g.ident("PO-######"), amt1=g.money(500, 40000), ven=g.pick(COMPANIES), mgr=g.person(),
                d1=g.day(0, 60),
                po2=g.ident("PO-######"), ven2=g.pick(COMPANIES), amt2=amt2, amt2a=invoiced, amt2r=open_,
                bh=g.person(), item3=g.pick(PURCHASES), po3=g.ident("PO-######"), ven3=g.pick(COMPANIES),
                d3=g.day(0, 60),
                po4=g.ident("PO-######"), buyer=g.person(), ven4=g.pick(COMPANIES), d4=g.day(0, 60))


PROCUREMENT = [
    Fact("approved_not_invoiced",
         P=["Purchase order {po} for {amt1} with {ven} was approved by {mgr} on {d1}; {ven} has not invoiced it yet, and nothing has been paid.",
            "{mgr} approved purchase order {po} ({amt1}, vendor {ven}) on {d1}; {ven} has not sent an invoice, and no payment has been made."],
         para=["{po} is approved but not yet invoiced or paid.",
               "Nothing has been paid on the {amt1_alt} purchase order {po}, which {mgr} approved on {d1_alt}.",
               "{ven} has yet to invoice {po}; the order was approved by {mgr}.",
               "No money has moved on {po} yet; only the approval step is done."],
         sub=["{mgr} approved purchase order {po}.",
              "Nothing has been paid on {po}.",
              "{ven} has not invoiced {po} yet."],
         drop=["The purchase order was approved, but the vendor has not invoiced and nothing has been paid."],
         status=["{po} was paid in full on {d1}.",
                 "{ven} invoiced {amt1} for {po}.",
                 "Purchase order {po} is still waiting for approval.",
                 "{mgr} rejected purchase order {po}.",
                 "The {amt1} for {po} has been paid to {ven}."],
         amount=["Purchase order {po} is for {amt1_x}."],
         date=["{mgr} approved {po} on {d1_x}."],
         actor=["{ven} approved purchase order {po}."],
         neg=["{po} was not approved."],
         id=["The approved purchase order with {ven} is {po_x}."],
         topic=["{ven} asked about the status of {po}.",
                "{ven} asked whether {po} for {amt1} had been paid.",
                "The approval thresholds for purchase orders were mentioned.",
                "{po} was looked up in the system.",
                "{mgr} handles purchasing approvals."]),
    Fact("partially_invoiced",
         P=["{ven2} has invoiced {amt2a} of the {amt2} on {po2}; the PO is partially invoiced, and {amt2r} remains open.",
            "{po2} ({amt2}) is only partially invoiced: {ven2} has billed {amt2a}, leaving {amt2r} open."],
         para=["Only {amt2a_alt} of {po2} has been invoiced by {ven2}; {amt2r} is still open.",
               "{po2} is not fully invoiced; {amt2r} of its {amt2} value remains open.",
               "{ven2} has billed part of {po2}: {amt2a} so far.",
               "Some of the {po2} value is still to be billed by {ven2}."],
         sub=["{po2} is partially invoiced.",
              "{amt2r} remains open on {po2}."],
         drop=["The purchase order is only partially invoiced, and part of it remains open."],
         status=["{po2} is fully invoiced.",
                 "{ven2} has invoiced the entire {amt2} on {po2}.",
                 "Nothing remains open on {po2}.",
                 "{ven2} has not invoiced anything on {po2}.",
                 "{po2} is closed."],
         amount=["{ven2} has invoiced {amt2a_x} on {po2}.",
                 "{amt2r_x} remains open on {po2}."],
         id=["The partially invoiced PO with {ven2} is {po2_x}."],
         topic=["{ven2} sent a statement for {po2}.",
                "Open purchase orders were reviewed.",
                "The accounts-payable team discussed {po2}.",
                "{po2}'s line items were checked."]),
    Fact("single_purchase_approval",
         P=["Budget holder {bh} approved a single purchase of {item3} from {ven3} under {po3} on {d3}; it is not a blanket approval for future orders from {ven3}.",
            "On {d3}, {bh}, the budget holder, approved one purchase, {item3} from {ven3} under {po3}; the approval is not a blanket approval and does not cover future orders from {ven3}."],
         para=["{bh}'s approval under {po3} covers one purchase from {ven3} only, not future orders.",
               "{bh} approved only {item3} under {po3}; future orders from {ven3} are not covered by that approval.",
               "The {po3} approval from {d3_alt} is a one-off for {item3}.",
               "{bh} signed off this particular {ven3} order and nothing beyond it."],
         sub=["{bh} approved the purchase of {item3} under {po3}.",
              "The approval under {po3} is not a blanket approval for {ven3}."],
         drop=["The budget holder approved a single purchase, not a blanket approval for future orders."],
         scope=["{bh} gave blanket approval for orders from {ven3}.",
                "Future orders from {ven3} are pre-approved under {po3}.",
                "{bh}'s approval covers all purchases from {ven3} this year.",
                "{ven3} can now be used for any order without further sign-off."],
         status=["{bh} rejected the purchase of {item3}."],
         neg=["{bh} did not approve {po3}."],
         date=["{bh} approved {po3} on {d3_x}."],
         count=["{bh} approved three separate purchases from {ven3}."],
         id=["{bh} approved the purchase of {item3} under {po3_x}."],
         topic=["{ven3} sent a quote for {item3}.",
                "{bh} asked about the {ven3} contract.",
                "The purchasing policy was discussed.",
                "{po3} was raised by the operations team."]),
    Fact("buyer_cancelled",
         P=["{po4} with {ven4} was cancelled on {d4} by buyer {buyer} because the requirement changed; {ven4} did not cancel it.",
            "Buyer {buyer} cancelled purchase order {po4} with {ven4} on {d4} after the requirement changed; the cancellation did not come from {ven4}."],
         para=["It was {buyer}, not {ven4}, who cancelled {po4}.",
               "{buyer} cancelled {po4} on {d4_alt} because the requirement had changed.",
               "{po4} was called off by the buyer; {ven4} was not the one who cancelled.",
               "The order with {ven4} was ended by the buyer after the need changed."],
         sub=["{po4} was cancelled.",
              "{buyer} cancelled purchase order {po4}.",
              "{ven4} did not cancel {po4}."],
         drop=["The buyer cancelled the purchase order because the requirement changed; the vendor did not cancel it."],
         actor=["{ven4} cancelled {po4}.",
                "{po4} was cancelled by {ven4} because it could not meet the order."],
         status=["{po4} is still active.",
                 "{po4} was completed as ordered."],
         neg=["{po4} was not cancelled."],
         date=["{buyer} cancelled {po4} on {d4_x}."],
         id=["{buyer} cancelled {po4_x}."],
         topic=["{ven4} asked whether {po4} would be reissued.",
                "{ven4} [says|claims] it cancelled {po4} itself.",
                "{buyer} spoke to {ven4}.",
                "Cancellation terms were discussed.",
                "{po4} was looked up."]),
]

# --- legal contract reviews ----------------------------------------------
MILESTONES = ["design", "prototype", "beta", "pilot", "launch", "testing"]


def slots_legal(g):
    d2s = g.day(0, 60)
    return dict(ctr=g.ident("CTR-####"), party=g.pick(COMPANIES), lawyer=g.person(), d1=g.day(0, 60),
                amd=g.ident("AMD-###"), ctr2=g.ident("CTR-####"), officer=g.person(), d2s=d2s,
                d2=g.after(d2s, 300, 800),
                party3=g.pick(COMPANIES), ms=g.pick(MILESTONES), ms_x=g.pick(MILESTONES), d3=g.day(0, 60),
                ctr4=g.ident("CTR-####"), party4=g.pick(COMPANIES), d4=g.day(0, 60))


LEGAL = [
    Fact("in_review_unsigned",
         P=["Contract {ctr} with {party} has been in legal review with counsel {lawyer} since {d1}; it has not been signed by either party.",
            "Counsel {lawyer} has been reviewing contract {ctr} with {party} since {d1}; neither party has signed it."],
         para=["Contract {ctr} is still unsigned; {lawyer} has had it in review since {d1_alt}.",
               "Neither the company nor {party} has signed {ctr}, which is under legal review.",
               "{lawyer} is still reviewing the {party} contract ({ctr}); no signatures yet.",
               "The {party} contract is not signed yet: the paperwork is still with the lawyers."],
         sub=["Contract {ctr} has not been signed.",
              "Contract {ctr} is in legal review with {lawyer}."],
         drop=["The contract is in legal review and has not been signed by either party."],
         status=["Contract {ctr} with {party} was signed on {d1}.",
                 "{party} signed contract {ctr}.",
                 "Legal review of {ctr} is complete, and the contract is executed.",
                 "{lawyer} finished the review and cleared {ctr} for signature.",
                 "Contract {ctr} is in force."],
         neg=["Contract {ctr} is not in legal review."],
         date=["Contract {ctr} went into legal review on {d1_x}."],
         actor=["{party}'s own lawyers, not {lawyer}, are reviewing contract {ctr}."],
         count=["Contract {ctr} has been signed by one of the two parties."],
         id=["The contract under review with {party} is {ctr_x}."],
         topic=["{party} asked when contract {ctr} would be ready.",
                "{party} asked whether contract {ctr} had been signed.",
                "{lawyer} raised questions about the liability clause in {ctr}.",
                "Contract templates were discussed.",
                "Contract {ctr} covers services for {party}."]),
    Fact("valid_amendment",
         P=["Amendment {amd} to contract {ctr2}, extending the term to {d2}, was signed on {d2s} by {officer}, the company's authorized signatory; the amendment is valid.",
            "{officer}, who is the company's authorized signatory, signed amendment {amd} on {d2s}; it extends contract {ctr2} to {d2} and is valid."],
         para=["Amendment {amd} is valid: {officer} signed it as authorized signatory on {d2s_alt}.",
               "Contract {ctr2} now runs to {d2} under amendment {amd}, signed by {officer}.",
               "The term extension in {amd} was signed by someone authorized to sign, {officer}, so it is valid.",
               "The extension of {ctr2} is properly signed and valid."],
         sub=["Amendment {amd} is valid.",
              "Amendment {amd} extends contract {ctr2} to {d2}.",
              "{officer} is the company's authorized signatory."],
         drop=["The amendment extending the contract was signed by an authorized signatory and is valid."],
         status=["Amendment {amd} is invalid because it was signed without authority.",
                 "Amendment {amd} has not been signed yet.",
                 "{officer} is not allowed to sign amendments, so {amd} is void."],
         neg=["Amendment {amd} does not extend contract {ctr2}."],
         date=["Amendment {amd} extends contract {ctr2} to {d2_x}.",
               "{officer} signed amendment {amd} on {d2s_x}."],
         actor=["The counterparty signed amendment {amd}, but no one at the company did."],
         id=["Amendment {amd} applies to contract {ctr2_x}."],
         topic=["{officer} was sent amendment {amd}.",
                "The renewal terms of {ctr2} were discussed.",
                "Amendment {amd} was filed in the contract system.",
                "The counterparty asked about contract {ctr2}."]),
    Fact("penalty_waived_once",
         P=["{party3} agreed on {d3} to waive the late-completion penalty once, for the {ms} milestone only; the penalty clause still applies to all other milestones.",
            "On {d3}, {party3} waived the late-completion penalty for the {ms} milestone as a one-off; every other milestone remains subject to the penalty clause."],
         para=["The {ms} milestone is the only one where {party3} waived the late-completion penalty.",
               "{party3}'s waiver from {d3_alt} covers the {ms} milestone alone; the penalty clause stays in force otherwise.",
               "The late-completion penalty still applies to all milestones except {ms}.",
               "If any other milestone slips, the late-completion penalty still applies."],
         sub=["{party3} waived the late-completion penalty for the {ms} milestone.",
              "The penalty clause still applies to the other milestones."],
         drop=["The counterparty waived the late-completion penalty once, for one milestone only."],
         scope=["{party3} waived the late-completion penalty for the whole contract.",
                "The penalty clause no longer applies to any milestone.",
                "{party3} agreed never to enforce the late-completion penalty.",
                "The waiver covers the {ms} milestone and all later ones."],
         status=["{party3} refused to waive the penalty for the {ms} milestone."],
         neg=["The late-completion penalty was not waived for the {ms} milestone."],
         date=["{party3} agreed to the penalty waiver on {d3_x}."],
         id=["{party3}'s one-off penalty waiver was for the {ms_x} milestone."],
         count=["{party3} waived the penalty twice, for two milestones."],
         topic=["The {ms} milestone was finished late.",
                "{party3} asked about the milestone schedule.",
                "Penalty clauses were discussed.",
                "The project team reported on the {ms} milestone."]),
    Fact("auto_renewed",
         P=["Contract {ctr4} with {party4} auto-renewed on {d4} for one year because neither side gave termination notice; it was not terminated.",
            "Since neither side gave termination notice, contract {ctr4} with {party4} renewed automatically on {d4} for another year; it has not been terminated."],
         para=["Contract {ctr4} is still in force: it auto-renewed for a year on {d4_alt}.",
               "No one terminated {ctr4}; with no notice given, it renewed automatically on {d4}.",
               "The {party4} contract ({ctr4}) rolled over for another year on {d4}.",
               "Because nobody served notice, the {party4} agreement simply carried on for another twelve months."],
         sub=["Contract {ctr4} auto-renewed on {d4}.",
              "Contract {ctr4} was not terminated."],
         drop=["The contract renewed automatically for a year because no termination notice was given."],
         status=["Contract {ctr4} with {party4} was terminated on {d4}.",
                 "Contract {ctr4} expired on {d4}.",
                 "{party4} gave notice and ended contract {ctr4}."],
         neg=["Contract {ctr4} did not renew."],
         date=["Contract {ctr4} auto-renewed on {d4_x}."],
         count=["Contract {ctr4} renewed for three years."],
         id=["The contract with {party4} that auto-renewed is {ctr4_x}."],
         topic=["{party4} asked about the renewal terms of {ctr4}.",
                "Notice periods were discussed.",
                "Contract {ctr4} was reviewed by legal.",
                "{party4} has worked with the company for some years."]),
]

DOMAINS = [
    Domain("insurance-claims", slots_insurance, INSURANCE),
    Domain("hr-leave", slots_hr, HR),
    Domain("library-loans", slots_library, LIBRARY),
    Domain("software-release", slots_release, RELEASE),
    Domain("clinic-appointments", slots_clinic, CLINIC),
    Domain("bank-transfers", slots_bank, BANK),
    Domain("it-access", slots_it, IT),
    Domain("hotel-travel", slots_hotel, HOTEL),
    Domain("school-exams", slots_school, SCHOOL),
    Domain("utility-meter", slots_utility, UTILITY),
    Domain("grant-applications", slots_grants, GRANTS),
    Domain("facility-maintenance", slots_facility, FACILITY),
    Domain("subscription-plans", slots_subscription, SUBSCRIPTION),
    Domain("procurement", slots_procurement, PROCUREMENT),
    Domain("legal-contracts", slots_legal, LEGAL),
]


# ==========================================================================
# Checks on the templates themselves.

def check_templates():
    problems = []
    for dom in KEY_CASES:
        for f in dom.facts:
            for _, t in f.entail + f.contra + f.topic:
                if slot_names(t):
                    problems.append(f"{f.key}: key-case template has slots: {t}")
    rng = random.Random(0)
    for dom in DOMAINS:
        g = Gen(rng)
        slots = g.flatten(dom.slots(g))
        for f in dom.facts:
            where = f"{dom.name}/{f.key}"
            psets = [slot_names(p) for p in f.premises]
            if any(s != psets[0] for s in psets):
                problems.append(f"{where}: premise variants use different slots {psets}")
            if any(n != base_name(n) for n in psets[0]):
                problems.append(f"{where}: premise uses a derived slot")
            if not (f.entail and f.contra and f.topic):
                problems.append(f"{where}: missing entail, contra or topic templates")
            for kind, t in f.entail + f.topic:
                for n in slot_names(t):
                    if n.endswith("_x"):
                        problems.append(f"{where}: {kind} uses wrong value {n}: {t}")
                    if kind != "topic_only" and base_name(n) not in psets[0]:
                        problems.append(f"{where}: {kind} uses slot {n} not in the premise: {t}")
            for kind, t in f.entail + f.contra + f.topic + [("premise", p) for p in f.premises]:
                try:
                    t.format_map(slots)
                except KeyError as e:
                    problems.append(f"{where}: unknown slot {e} in {kind}: {t}")
    if problems:
        raise SystemExit("template problems:\n  " + "\n  ".join(problems))


def check_key_statements():
    """The copied statements must equal the answer keys (skipped without tomllib)."""
    try:
        import tomllib
    except ImportError:
        return
    for case, rel in KEY_FILES.items():
        with open(REPO / rel, "rb") as fh:
            key = tomllib.load(fh)
        for fact in key["fact"]:
            if STATEMENTS.get(fact["id"]) != fact["statement"]:
                raise SystemExit(f"{rel}: statement of {fact['id']} differs from the copy in this script")


# ==========================================================================
# Generation.

class Collector:
    def __init__(self):
        self.rows, self.seen = [], {}
        self.entailed = []        # (source, clause): paraphrase/subclause clauses that name their entity
        self.premises = []        # (source, premise) of template instances, for unrelated clauses

    def add(self, premise, hyp, kind, source):
        label = LABEL_OF[kind]
        key = (premise, hyp)
        if key in self.seen:
            if self.seen[key] != label:
                raise SystemExit(f"conflicting labels for {key}: {self.seen[key]} vs {label}")
            return False
        if premise == hyp and kind != "identity":
            raise SystemExit(f"hypothesis equals premise ({kind}): {hyp}")
        self.seen[key] = label
        self.rows.append({"premise": premise, "hypothesis": hyp, "label": label, "kind": kind, "source": source})
        return True


def render(template, slots, rng):
    return tidy(expand(template, rng).format_map(slots))


def draw(decks, key, items, rng):
    """Next template from a shuffled deck; refills when empty, so every template gets used."""
    deck = decks.get(key)
    if not deck:
        deck = list(items)
        rng.shuffle(deck)
        decks[key] = deck
    return deck.pop()


def gen_key_case(dom, rng, out):
    hyps = {}
    for f in dom.facts:
        def variants(items):
            res = []
            for kind, t in items:
                for _ in range(KEY_VARIANTS):
                    h = tidy(expand(t, rng))
                    if (kind, h) not in res:
                        res.append((kind, h))
            return res
        hyps[f.key] = dict(entail=variants(f.entail), contra=variants(f.contra), topic=variants(f.topic))
    for f in dom.facts:
        premise = f.premises[0]
        h = hyps[f.key]
        out.add(premise, premise, "identity", dom.name)
        for kind, text in h["entail"] + h["contra"] + h["topic"]:
            out.add(premise, text, kind, dom.name)
        others = [text for k in dom.other_ok[f.key] for kind, text in hyps[k]["entail"]
                  if kind in ("paraphrase", "subclause")]
        n_other = max(4, len(h["entail"]) - len(h["topic"]))
        for text in rng.sample(others, min(n_other, len(others))):
            out.add(premise, text, "other_fact", dom.name)
        out.entailed += [(dom.name, text) for kind, text in h["entail"] if kind != "drop_detail"]
        for _ in range(2):
            out.premises.append((dom.name, premise))


def draw_distinct(decks, key, items, n, slots, rng, taken):
    res = []
    for _ in range(n * 4):
        if len(res) == n:
            break
        kind, t = draw(decks, key, items, rng)
        h = render(t, slots, rng)
        if h not in taken:
            taken.add(h)
            res.append((kind, h))
    return res


def gen_domain(dom, rng, out):
    decks = {}
    for _ in range(INSTANCES_PER_DOMAIN):
        g = Gen(rng)
        slots = g.flatten(dom.slots(g))
        inst = []
        for f in dom.facts:
            premise = render(rng.choice(f.premises), slots, rng)
            taken = {premise}
            ent = draw_distinct(decks, (f.key, "e"), f.entail, PER_INSTANCE["entails"], slots, rng, taken)
            con = draw_distinct(decks, (f.key, "c"), f.contra, PER_INSTANCE["contradicts"], slots, rng, taken)
            top = draw_distinct(decks, (f.key, "t"), f.topic, PER_INSTANCE["topic_only"], slots, rng, taken)
            inst.append((f, premise, ent, con, top))
        for f, premise, ent, con, top in inst:
            if rng.random() < IDENTITY_RATE:
                out.add(premise, premise, "identity", dom.name)
            for kind, text in ent + con + top:
                out.add(premise, text, kind, dom.name)
            others = [text for f2, _, ent2, _, _ in inst if f2 is not f
                      for kind, text in ent2 if kind in ("paraphrase", "subclause")]
            for text in rng.sample(others, min(PER_INSTANCE["other_fact"], len(others))):
                out.add(premise, text, "other_fact", dom.name)
            out.entailed += [(dom.name, text) for kind, text in ent if kind != "drop_detail"]
            if rng.random() < UNRELATED_RATE:
                out.premises.append((dom.name, premise))


def gen_unrelated(rng, out):
    for source, premise in out.premises:
        for _ in range(10):
            src2, text = rng.choice(out.entailed)
            if src2 != source and out.add(premise, text, "unrelated", source):
                break


def build():
    check_key_statements()
    check_templates()
    rng = random.Random(SEED)
    out = Collector()
    for dom in KEY_CASES:
        gen_key_case(dom, rng, out)
    for dom in DOMAINS:
        gen_domain(dom, rng, out)
    gen_unrelated(rng, out)
    rows = out.rows
    rng.shuffle(rows)
    return rows


def serialize(rows):
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def report(rows, path, size):
    n = len(rows)
    print(f"{path}: {n} pairs, {size / 1e6:.2f} MB")
    labels = Counter(r["label"] for r in rows)
    kinds = Counter(r["kind"] for r in rows)
    for label, group in (("entails", ENTAIL_KINDS), ("contradicts", CONTRA_KINDS), ("neutral", NEUTRAL_KINDS)):
        print(f"  {label:12s} {labels[label]:5d}  ({100 * labels[label] / n:.1f}%)")
        for k in group:
            print(f"      {k:12s} {kinds[k]:5d}")
    sources = Counter(r["source"] for r in rows)
    print("  by source: " + ", ".join(f"{s} {c}" for s, c in sorted(sources.items())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(DEFAULT_OUT), help="output path (default eval/xenc/pairs.jsonl)")
    ap.add_argument("--check", action="store_true",
                    help="regenerate in memory and compare with --out; exit 1 if different")
    args = ap.parse_args()
    rows = build()
    text = serialize(rows).encode("utf-8")
    path = Path(args.out)
    if args.check:
        if not path.exists() or path.read_bytes() != text:
            print(f"{path}: differs from a fresh generation (rerun without --check)", file=sys.stderr)
            sys.exit(1)
        print(f"{path}: up to date ({len(rows)} pairs)")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)
    report(rows, path, len(text))


if __name__ == "__main__":
    main()
