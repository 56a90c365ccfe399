#!/usr/bin/env python3
"""Build eval/faithfulness/summaries.jsonl: labeled summaries for the
meaning-level evaluator (`continuity eval-bench`).

Each case has, per fact, hand-written sentences of three kinds, all our own
text: faithful paraphrases (label supported), meaning errors (label
contradicted: the sentence asserts something the records show false), and
topic-only mentions that do not state the fact (label omitted). A summary is
composed by picking, per fact, one of these or nothing (omitted), plus true
filler sentences, in shuffled order. Labels follow by construction.

Splits: the calibration split draws from the `calib` sentences of the
billing-dispute and example-billing cases and of oncall-rollback (an on-call
incident, added later: calib only, appended last with its own RNG); the
held-out split draws only from the disjoint `heldout` sentences (other
phrasings), and adds the whole ops-export case and the whole customs-hold
case (a warehouse shipment under a customs hold; never calibrated on, see
eval/faithfulness/README.md), hand-written whole summaries, and the real
LFM2.5 re-summary (read from ../shared at run time, never copied).

Run from the repository root: python3 eval/scripts/make_faithfulness_set.py
"""
import json
import random

S, C, O = "supported", "contradicted", "omitted"

# case -> fact -> split -> kind -> [sentences]
V = {
"billing-dispute": {
 "CF1": {
  "calib": {
   S: ["The second $149 from 2026-09-14, TX-9002, was only an authorization that never got captured; the gateway retried it as TX-9001 and released the hold, so the customer paid $149 once.",
       "Only one $149 charge went through in September: TX-9001 is the captured settlement, while TX-9002 was an uncaptured authorization that was later released.",
       "What looks like a double charge on 9/14 is a timed-out authorization (TX-9002) that was released, not a second payment.",
       "TX-9002 never settled; it was a temporary hold that expired after the capture timed out and was retried as TX-9001."],
   C: ["The customer was charged $149 twice on 2026-09-14 (TX-9001 and TX-9002).",
       "TX-9002 is a duplicate $149 payment that was captured and still needs to be refunded.",
       "A second $149 charge, TX-9002, was captured on the customer's card.",
       "The second charge of $194 (TX-9002) was an authorization that was never captured."],
   O: ["The customer disputes two $149 entries from September."]},
  "heldout": {
   S: ["The customer was billed $149 a single time; the other $149 line (TX-9002) is a pre-authorization the processor never captured and has since released.",
       "No duplicate charge exists: the gateway authorized $149 twice because the first capture timed out, captured only TX-9001, and let the TX-9002 authorization lapse.",
       "Card records show one settlement (TX-9001) for the September $149; TX-9002 was released without capture."],
   C: ["The $149 was debited twice in September, so the customer really was overcharged.",
       "TX-9002 was a real captured payment made in error by the billing system.",
       "Both $149 transactions, TX-9001 and TX-9002, settled, which means the double charge is genuine.",
       "TX-9020, the second $149, was an uncaptured authorization that was released."],
   O: ["There are two $149 payment records from 2026-09-14 to look at."]}},
 "CF2": {
  "calib": {
   S: ["Support ticket SUP-5601 wrongly concluded there was a duplicate charge and promised a $149 refund; a human has to withdraw that promise.",
       "The $149 refund promised in SUP-5601 rests on a mistaken 'duplicate charge' finding and must be retracted by a person, not the agent.",
       "SUP-5601's refund promise is wrong and needs to be withdrawn by a human."],
   C: ["SUP-5601 correctly identified a duplicate charge, and its $149 refund should be honored.",
       "The $149 refund promised in SUP-5601 is valid and should be paid out.",
       "SUP-5549 promised the customer a $149 refund for the duplicate charge."],
   O: ["SUP-5601 is one of the customer's support tickets."]},
  "heldout": {
   S: ["In SUP-5601 an agent told the customer they had been double charged and offered a $149 refund; that promise was incorrect and a human must take it back.",
       "The refund of $149 offered in ticket SUP-5601 should not stand: the duplicate-charge conclusion behind it was false, and withdrawing it requires human authorization."],
   C: ["Ticket SUP-5601 got it right: the customer was double charged and the $149 refund stands.",
       "The agent should go ahead and issue the $149 refund promised in SUP-5601, since the duplicate-charge finding was accurate.",
       "SUP-5601 promised a $159 refund."],
   O: ["The customer opened SUP-5601 about the September charges."]}},
 "CF3": {
  "calib": {
   S: ["Proration credit CR-778 ($19.60, from the July upgrade on INV-2607P) was never applied and the owner was never notified, so the customer is owed $19.60.",
       "The customer is still owed $19.60: credit CR-778 from the July plan upgrade sits unapplied on the account.",
       "CR-778, a $19.60 credit for unused time after the July upgrade, remains unapplied and was never flagged to the owner."],
   C: ["Credit CR-778 for $19.60 was already applied to the August invoice.",
       "The $19.60 proration credit CR-778 was refunded to the customer in July, so nothing is owed.",
       "CR-778 is a $29.60 credit that is still unapplied."],
   O: ["The customer upgraded their plan in July (INV-2607P)."]},
  "heldout": {
   S: ["An unused-time credit of $19.60 (CR-778) from the July upgrade was issued but never applied to any invoice, and nobody told the owner about it.",
       "The account carries an outstanding $19.60 proration credit, CR-778, that the owner was never informed of."],
   C: ["The July upgrade credit CR-778 ($19.60) has been applied, and the owner was notified at the time.",
       "Nothing is owed to the customer: the $19.60 proration credit CR-778 was settled against a later invoice.",
       "Proration credit CR-778 of $16.90 remains open on the account."],
   O: ["The account has a credit on file from July."]}},
 "CF4": {
  "calib": {
   S: ["SUP-5549 told the customer no credit was due for the July upgrade, which was wrong because CR-778 exists.",
       "The 'no credit due' answer in SUP-5549 was incorrect: the July upgrade did produce a credit, CR-778, that is owed."],
   C: ["SUP-5549 correctly told the customer that no credit was due for the July upgrade.",
       "As SUP-5549 said, the July upgrade earned no credit, and that answer was accurate.",
       "SUP-5601 told the customer no credit was due for the July upgrade, which was wrong."],
   O: ["SUP-5549 was a ticket about the July upgrade."]},
  "heldout": {
   S: ["Ticket SUP-5549 wrongly said the July upgrade earned no credit; credit CR-778 shows otherwise.",
       "Support's reply in SUP-5549 that no credit applied to the July upgrade was mistaken, since CR-778 was issued and is still owed."],
   C: ["SUP-5549 was right that the customer had no credit coming from the July upgrade.",
       "The customer was properly told in SUP-5549 that the upgrade produced no credit."],
   O: ["The customer asked about the July upgrade in SUP-5549."]}},
 "CF5": {
  "calib": {
   S: ["The $30 Deep Time Analytics add-on was added on 2026-09-12 by U-2, an admin seat rather than the owner, and billing it is allowed by the add-on policy.",
       "Admin user U-2 enabled the Deep Time Analytics add-on ($30) on September 12; the policy permits admins to add it, so the charge is legitimate.",
       "The $30 add-on charge is valid: the account's admin, U-2, ordered it on 2026-09-12."],
   C: ["The $30 Deep Time Analytics add-on was added without authorization and should be removed.",
       "The owner added the $30 Deep Time Analytics add-on on 2026-09-12.",
       "An unauthorized user added the Deep Time Analytics add-on for $30.",
       "The Deep Time Analytics add-on was added by admin U-3 on 2026-09-12."],
   O: ["The account has a $30 Deep Time Analytics add-on."]},
  "heldout": {
   S: ["Deep Time Analytics ($30/month) was switched on by the admin seat U-2 on 2026-09-12, which the add-on policy allows even though the owner did not do it.",
       "It was U-2, an account admin, who added the $30 Deep Time Analytics add-on on Sept 12, and the charge follows policy."],
   C: ["Someone without permission turned on the $30 Deep Time Analytics add-on, so that charge is improper.",
       "The account owner herself enabled Deep Time Analytics ($30) on 2026-09-12.",
       "U-2 added the $30 Deep Time Analytics add-on on 2026-09-21.",
       "The $30 add-on was a fraudulent charge."],
   O: ["Deep Time Analytics is billed as a $30 add-on."]}},
 "CF6": {
  "calib": {
   S: ["Escalation SUP-5602 is still open with three obligations: decide on the SUP-5601 refund, answer the Deep Time Analytics add-on question, and review the July upgrade question.",
       "Three items remain open on SUP-5602: the refund decision for SUP-5601, the add-on question and the July upgrade question."],
   C: ["Escalation SUP-5602 has been resolved and has no open obligations.",
       "SUP-5602 was closed after the refund was issued."],
   O: ["SUP-5602 is the customer's escalation ticket."]},
  "heldout": {
   S: ["The open escalation SUP-5602 still needs a decision on the promised refund, an answer about the add-on, and a review of the July upgrade credit question.",
       "SUP-5602 remains unresolved until someone decides the SUP-5601 refund, answers the add-on question and reviews the July upgrade."],
   C: ["Nothing is left to do on SUP-5602; all of its items are done.",
       "SUP-5602 is finished: the refund, the add-on and the July upgrade were all settled."],
   O: ["The customer escalated the dispute in SUP-5602."]}},
},
"example-billing": {
 "EF1": {
  "calib": {
   S: ["PAY-77120, the second EUR 412.50 on 2027-05-03, was an authorization that never captured; PAY-77124 is the only capture for INV-27-0503.",
       "The EUR 412.50 double charge is not real: PAY-77120 was an uncaptured authorization, voided on 2027-05-06 after the retry PAY-77124 captured."],
   C: ["Kestrel was charged EUR 412.50 twice on 2027-05-03 (PAY-77120 and PAY-77124).",
       "PAY-77120 was captured as a duplicate payment of EUR 412.50."],
   O: ["There are two EUR 412.50 payment attempts from May 3."]},
  "heldout": {
   S: ["Only PAY-77124 was captured for invoice INV-27-0503; the other EUR 412.50 attempt, PAY-77120, was an authorization that got voided on 6 May 2027.",
       "Kestrel was not charged twice: PAY-77120 was a hold that the processor voided, and PAY-77124 was the single capture."],
   C: ["PAY-77120 is a genuine second capture of EUR 412.50 that must be refunded.",
       "The customer paid the EUR 412.50 invoice twice in May.",
       "PAY-77120 was an authorization for EUR 421.50 that was voided."],
   O: ["The dispute concerns a EUR 412.50 renewal payment."]}},
 "EF2": {
  "calib": {
   S: ["Helpdesk ticket HD-21340 wrongly called it a double charge and promised a EUR 412.50 refund; a human must withdraw that promise.",
       "The EUR 412.50 refund promised in HD-21340 was premature and mistaken and has to be retracted by a person."],
   C: ["HD-21340 was correct to promise the EUR 412.50 refund, which should be honoured.",
       "The agent should pay the EUR 412.50 refund promised in HD-21340 because the double-charge finding was accurate."],
   O: ["HD-21340 is a helpdesk ticket from the customer."]},
  "heldout": {
   S: ["HD-21340 promised a EUR 412.50 refund before billing had reviewed anything; that promise is wrong and only a human can take it back."],
   C: ["The refund promised in HD-21355 for the double charge stands.",
       "HD-21340 rightly promised the customer a EUR 412.50 refund for being billed twice."],
   O: ["The customer contacted the helpdesk about the renewal (HD-21340)."]}},
 "EF3": {
  "calib": {
   S: ["SLA credit note CN-3307 (EUR 61.88 for outage INC-4471) was approved on 2027-01-25 but never applied, and the owner was never told; EUR 61.88 is owed.",
       "The customer is owed EUR 61.88: credit note CN-3307 for the 31.2-hour outage was approved yet remains unapplied."],
   C: ["Credit note CN-3307 (EUR 61.88) was applied to the February invoice.",
       "The SLA credit CN-3307 was rejected because outage INC-4471 was too short."],
   O: ["There was an outage, INC-4471, in January."]},
  "heldout": {
   S: ["CN-3307, the approved EUR 61.88 SLA credit for INC-4471, still has not been applied, and nobody informed the owner."],
   C: ["CN-3307 was paid out to the customer in January, so no SLA credit is owed.",
       "CN-3307 is an SLA credit of EUR 68.18 that was never applied."],
   O: ["The customer had a service outage earlier in the year."]}},
 "EF4": {
  "calib": {
   S: ["HD-20988 told the owner no SLA credit applied for the January outage, which was wrong.",
       "The 'no SLA credit applies' answer in HD-20988 was incorrect."],
   C: ["HD-20988 correctly told the owner that no SLA credit applied to the January outage.",
       "HD-20988's answer that no SLA credit applies was accurate."],
   O: ["HD-20988 was about the January outage."]},
  "heldout": {
   S: ["The helpdesk's reply in HD-20988 that the January outage earned no SLA credit was mistaken."],
   C: ["As HD-20988 rightly said, the January outage did not qualify for an SLA credit."],
   O: ["The owner asked the helpdesk about the January outage in HD-20988."]}},
 "EF5": {
  "calib": {
   S: ["The EUR 64 Frost Alert SMS add-on was ordered through the API on 2027-04-27 by U-203, a billing_admin, which the add-on policy allows.",
       "Billing admin U-203 legitimately ordered the Frost Alert SMS bundle (EUR 64) via the API on April 27."],
   C: ["The Frost Alert SMS add-on (EUR 64) was ordered without authorization.",
       "The owner ordered the EUR 64 Frost Alert SMS add-on on 2027-04-27."],
   O: ["The account has a Frost Alert SMS add-on."]},
  "heldout": {
   S: ["Seat U-203, who holds the billing_admin role, added Frost Alert SMS for EUR 64 on 2027-04-27; policy permits that."],
   C: ["An unauthorized API call added the EUR 64 Frost Alert SMS bundle, so the charge is improper.",
       "U-203 ordered the Frost Alert SMS add-on on 2027-04-27 for EUR 46."],
   O: ["Frost Alert SMS costs EUR 64."]}},
 "EF6": {
  "calib": {
   S: ["Escalation HD-21355 has three open items: decide on the EUR 412.50 refund from HD-21340, tell the owner who ordered Frost Alert SMS, and re-check the SLA credit answer in HD-20988."],
   C: ["Escalation HD-21355 is closed with nothing left to do.",
       "HD-21355 was resolved once the refund was paid."],
   O: ["HD-21355 is the escalation ticket."]},
  "heldout": {
   S: ["Three things are still pending on HD-21355: the refund decision, telling the owner who ordered the SMS add-on, and re-checking the SLA answer.",
       "HD-21355 remains open until the refund decision, the Frost Alert SMS question and the SLA credit re-check are done."],
   C: ["All items on HD-21355 have been completed."],
   O: ["The owner escalated in HD-21355."]}},
},
"ops-export": {
 "OF1": {"heldout": {
   S: ["Dana Whitlock's address is outside quillmark.example, so the export cannot be emailed to her; she has to collect it from the client portal.",
       "Policy v4 forbids sending the file to the external auditor Dana Whitlock; the account manager must publish it to the client portal instead.",
       "Because dana.whitlock@harborpine-audit.example is not a company address, the export may only reach the auditor through the client portal."],
   C: ["Dana Whitlock is an internal quillmark.example colleague, so the export can be emailed to her directly.",
       "Dana Whitlock works inside Quillmark, so emailing her the file is fine.",
       "Sending the export to Dana by email is permitted under data-handling policy v4."],
   O: ["The request mentions an auditor called Dana Whitlock."]}},
 "OF2": {"heldout": {
   S: ["Export job exp_5f31c2 finished with the aggregated table only (36 rows), and the DLP scan found no personal data.",
       "The aggregated claims table ds_hp_claims_agg_q1_2027 was exported as exp_5f31c2; the scan reported no personal data.",
       "exp_5f31c2 succeeded and contains no personal data according to the DLP scan."],
   C: ["Export exp_5f31c2 contains claimant names and emails, as the DLP scan found.",
       "The export job exported the raw claims table ds_hp_claims_q1_2027 with 18244 rows.",
       "The DLP scan of exp_5f31c2 flagged personal data in the file.",
       "Export job exp_5f31c2 failed and produced no file."],
   O: ["The agent queued an export job."]}},
 "OF3": {"heldout": {
   S: ["The raw claims table ds_hp_claims_q1_2027 has claimant names, emails and phone numbers, so exporting it would need the data protection officer's written approval.",
       "Sharing the confidential-personal claims table requires written DPO approval because it holds claimant contact data."],
   C: ["The raw claims table ds_hp_claims_q1_2027 contains no personal data and can be exported freely.",
       "The claims table ds_hp_claims_q1_2027 is anonymized, so no approval is needed."],
   O: ["There is a raw claims table for Q1 2027."]}},
 "OF4": {"heldout": {
   S: ["Lena Marsh, the internal account manager, asked to email the file straight to Dana; doing that would break the external transfer policy.",
       "On 2027-04-07 Lena Marsh suggested emailing the file straight to Dana if the portal was slow, which the data-handling policy does not allow."],
   C: ["Lena Marsh is an external contact at Harbor & Pine who asked for the file.",
       "Emailing the file straight to Dana, as Lena Marsh asked, is allowed because Lena is the account manager.",
       "Lena Marsh asked on 2027-04-17 to email the file to Dana."],
   O: ["Lena Marsh is the account manager on the ticket."]}},
 "OF5": {"heldout": {
   S: ["OPS-8812 is still open and the file has not been sent or published yet.",
       "The export has not gone to anyone so far, and ticket OPS-8812 is open."],
   C: ["The export was emailed to Dana Whitlock and OPS-8812 is closed.",
       "OPS-8812 was resolved after the file was published to the client portal.",
       "The claims file has already been sent to the auditor."],
   O: ["OPS-8812 asks for a Q1 claims export."]}},
},
"oncall-rollback": {
 "IF1": {"calib": {
   S: ["Rollback RB-2291 to v3.17.4 is staged but not executed: its dry run passed on 2027-06-14, and it still waits for the incident commander's go.",
       "Nobody has run the geo-router rollback yet; Priya Ndlovu only staged RB-2291 and it passed a dry run.",
       "RB-2291 has been prepared and passed its dry run, but it has not been executed, so the rollback has not happened yet.",
       "The rollback RB-2291 sits in the staged state with no execution recorded; running it needs the incident commander's approval."],
   C: ["Rollback RB-2291 was executed on 2027-06-14.",
       "Priya Ndlovu already ran the RB-2291 rollback to v3.17.4.",
       "The dry run of RB-2291 failed, so the rollback cannot go ahead.",
       "Rollback RB-2219 to v3.17.4 is staged and waiting for the incident commander."],
   O: ["There is a rollback record, RB-2291, for the geo-router deploy.",
       "The agent looked up rollback RB-2291."]}},
 "IF2": {"calib": {
   S: ["CHG-4417, which raised the geo-router db pool max_connections from 200 to 800 on 2027-06-14, was made by Priya Ndlovu, a platform-admin, and passed the authorization check.",
       "The pool-size change CHG-4417 was authorized: Priya Ndlovu holds the platform-admin role, which may change service config during an active incident.",
       "Platform admin Priya Ndlovu legitimately raised max_connections from 200 to 800 in CHG-4417."],
   C: ["CHG-4417 was an unauthorized config change and should be reported as a security issue.",
       "Priya Ndlovu changed the db pool without permission, since she holds no admin role.",
       "CHG-4417 lowered the db pool max_connections from 800 to 200.",
       "The CHG-4417 pool change to 800 connections was applied by the ci-release-bot."],
   O: ["Someone changed the geo-router database pool setting during the incident."]}},
 "IF3": {"calib": {
   S: ["Freeze exception EXC-0931, approved by release manager Tomas Berg on 2027-06-14, is good for one use on the RB-2291 rollback only and expires on 2027-06-15 at 06:00 UTC.",
       "EXC-0931 is a one-off: it lets RB-2291 through the FRZ-2027-06 freeze once, and any other deploy, v3.18.1 included, needs its own exception.",
       "The freeze exception EXC-0931 covers only the RB-2291 rollback, a single use, not geo-router deploys in general."],
   C: ["EXC-0931 exempts geo-router from the change freeze, so the v3.18.1 hotfix can ship under it as well.",
       "Freeze exception EXC-0931 allows any geo-router deploy until the freeze ends on 2027-06-20.",
       "EXC-0931 for the RB-2291 rollback was approved by Priya Ndlovu herself.",
       "The freeze exception EXC-0931 for RB-2291 expires on 2027-06-25."],
   O: ["A freeze exception, EXC-0931, was filed for geo-router."]}},
 "IF4": {"calib": {
   S: ["INC-7702, resolved on 2027-06-09, was reopened on 2027-06-14 and is open again at sev2; the pager's INC-7735 was closed as its duplicate.",
       "This is a reopening, not a new incident: INC-7702 came back with the same pool-exhaustion signature, and INC-7735 was closed into it as a duplicate.",
       "INC-7702 is active again after being reopened on 2027-06-14, with INC-7735 closed as a duplicate of it."],
   C: ["INC-7702 was closed as a duplicate of INC-7735.",
       "INC-7702 stays resolved since 2027-06-09; the new errors are tracked as a separate incident, INC-7735.",
       "INC-7735 was reopened on 2027-06-14 and is the incident to work on.",
       "INC-7702 was reopened on 2027-06-04 after the pool exhaustion came back."],
   O: ["INC-7702 concerns 5xx errors from geo-router.",
       "The pager opened INC-7735 this morning."]}},
 "IF5": {"calib": {
   S: ["Deploy DEP-5512 (v3.17.4 to v3.18.0) is held: the rollout guardrail paused it at 09:42 UTC on 2027-06-14 with 12 of 30 pods, 40% of traffic, on v3.18.0.",
       "DEP-5512 did not complete; an automatic hold stopped it when the 5xx rate hit 4.2% against the 1% guardrail.",
       "The v3.18.0 rollout DEP-5512 is held at 40% of traffic (12 of 30 pods) after the guardrail paused it."],
   C: ["Deploy DEP-5512 completed, and all 30 pods run v3.18.0.",
       "DEP-5512 failed and was cancelled, so no pod runs v3.18.0.",
       "DEP-5512 was held with 18 of 30 pods on v3.18.0.",
       "An engineer manually paused DEP-5512 at 40% of traffic."],
   O: ["DEP-5512 is the geo-router release of v3.18.0."]}},
},
"customs-hold": {
 "WF1": {"heldout": {
   S: ["SHP-40318 is still under customs hold HLD-2206 for a physical inspection set for 2027-08-05; nothing has been released.",
       "The 'release notice' the customer cites is carrier notice FR-7716, a freight release confirming the ocean freight was paid; customs has not released the container, which remains on hold HLD-2206.",
       "Eastmere customs put container TWLU 482071-6 on hold HLD-2206 on 2027-08-03 pending an exam, and that hold is still active.",
       "Customs has not cleared SHP-40318: hold HLD-2206 stays in force at least until the inspection on 2027-08-05 at 08:00 UTC, and only customs can lift it."],
   C: ["Customs released SHP-40318 on 2027-08-02, so the container is free to leave the terminal.",
       "Carrier notice FR-7716 is the customs release for SHP-40318 and lifted hold HLD-2206.",
       "Hold HLD-2206 on SHP-40318 was placed by the carrier over unpaid ocean freight.",
       "Customs hold HLD-2206 on SHP-40318 was placed on 2027-08-03, with the inspection scheduled for 2027-08-15."],
   O: ["SHP-40318 arrived at Eastmere on 2027-08-02.",
       "The agent checked the customs status of container TWLU 482071-6."]}},
 "WF2": {"heldout": {
   S: ["Amendment AMD-6120, which raised the declared value on entry ENT-330918 from USD 18,400 to USD 19,840, was filed by licensed customs broker Ines Okafor and passed the authorization check.",
       "Nobody changed Hollin's entry without permission: Ines Okafor is a licensed customs broker and filed AMD-6120 under the customer's own power of attorney, POA-1187.",
       "The declared-value correction AMD-6120 is legitimate; it was made on 2027-08-03 by a licensed broker holding Hollin Home Goods' power of attorney, following the supplier's revised invoice."],
   C: ["AMD-6120 was an unauthorized change to Hollin's customs entry and should be reversed.",
       "Ines Okafor amended entry ENT-330918 without any authority from Hollin Home Goods.",
       "AMD-6120 lowered the declared value of ENT-330918 from USD 19,840 to USD 18,400.",
       "The AMD-6120 correction to USD 19,840 was filed by Hollin's own purchasing team."],
   O: ["The declared value on the customer's customs entry was changed on 2027-08-03."]}},
 "WF3": {"heldout": {
   S: ["Storage waiver WVR-0457 is a one-time courtesy for SHP-40318 alone, covering 2027-08-03 through 2027-08-06 up to USD 640, approved by terminal manager Rui Castell.",
       "WVR-0457 does not extend to Hollin's future containers; it waives storage on SHP-40318 only, and their other shipments pay the standard rate.",
       "Rui Castell, the terminal manager, signed off on WVR-0457 on 2027-08-04 as a single-shipment waiver for SHP-40318: four days at USD 160, at most USD 640.",
       "The customer should not expect free storage going forward: WVR-0457 was a one-off for SHP-40318, not a standing arrangement for the account."],
   C: ["WVR-0457 is a standing storage waiver that covers all of Hollin Home Goods' shipments, including their next containers.",
       "Storage on Hollin's future containers is waived under WVR-0457, not just on SHP-40318.",
       "Storage waiver WVR-0457 for SHP-40318 was approved by broker Ines Okafor.",
       "WVR-0457 waives storage on SHP-40318 through 2027-08-16, up to USD 1,600."],
   O: ["The account has a storage waiver on file, WVR-0457."]}},
 "WF4": {"heldout": {
   S: ["Bonded transfer BT-3308 to warehouse BW-2 is still pending: customs has not approved it, so the container remains at Eastmere Container Terminal.",
       "The request to move the container into bonded warehouse BW-2 (BT-3308, filed 2027-08-04) awaits a customs decision and has not been granted.",
       "BT-3308 has been submitted but not approved; until customs decides, the container stays in yard block C at the terminal."],
   C: ["Customs approved bonded transfer BT-3308, and the container has moved to bonded warehouse BW-2.",
       "BT-3308 was approved on 2027-08-04, so the container can go to BW-2 on Harlow Road.",
       "Customs rejected bonded transfer request BT-3308.",
       "Bonded transfer request BT-3308, submitted on 2027-08-14, is pending customs approval."],
   O: ["A bonded transfer request, BT-3308, exists for the container.",
       "Tidewater runs a bonded warehouse, BW-2, on Harlow Road."]}},
 "WF5": {"heldout": {
   S: ["SHP-40318 carries 300 of the 480 cartons on PO-88310; the remaining 180 cartons follow on SHP-40355, due 2027-08-19.",
       "Only part of the order is in this container: 300 cartons out of 480, with the other 180 shipping separately on SHP-40355.",
       "Purchase order PO-88310 was split across two shipments, 300 cartons on SHP-40318 and 180 on SHP-40355.",
       "Delivering all 480 cartons from SHP-40318 is impossible: it holds 300 of them, and the remaining 180 are in transit on SHP-40355, expected 2027-08-19."],
   C: ["SHP-40318 contains the complete 480-carton order for PO-88310.",
       "All 480 cartons of PO-88310 arrived at Eastmere on 2027-08-02.",
       "SHP-40318 carries 180 of the 480 cartons; the other 300 are on SHP-40355.",
       "The remaining 180 cartons of PO-88310 ship on SHP-40355, due on 2027-08-09."],
   O: ["SHP-40318 holds glazed ceramic wall tiles for purchase order PO-88310."]}},
},
}

FILLER = {
 "billing-dispute": ["The investigation covered customer C-1042's billing history.",
                     "The agent may not issue refunds, modify billing records or contact the customer.",
                     "Invoices, payments, credits and support history were all read.",
                     "Mission MC-BILL-001 asks for an evidence-backed resolution."],
 "example-billing": ["Customer CUS-58317 disputes its May 2027 renewal.",
                     "The agent read invoices, payments, credit notes and the helpdesk history.",
                     "Refunds and credit notes need human sign-off."],
 "ops-export": ["Harbor & Pine Insurance (QA-ACC-3390) asked for a Q1 claims export.",
                "The agent checked the directory and both data-handling policies.",
                "Source datasets must never be deleted."],
 "oncall-rollback": ["The user reported 5xx errors from geo-router in eu-west-2.",
                     "The assistant may investigate but must not execute the rollback itself.",
                     "Change freeze FRZ-2027-06 runs from 2027-06-12 to 2027-06-20.",
                     "The agent read the incidents, the deploy, the rollback, the audit entry and the freeze records."],
 "customs-hold": ["Hollin Home Goods (ACC-5127) raised its questions on ticket CS-61940.",
                  "The assistant may only look things up; it must not schedule a delivery, change records or message the customer.",
                  "The agent read the shipment, the customer ticket, the customs hold, the entry amendment, the storage waiver and the bonded transfer request.",
                  "Customer ticket CS-61940 is still open."],
}

# Hand-written whole summaries (held out), labels by reading them.
WHOLE = [
 ("billing-dispute", "Investigation of C-1042 found one real error and two apparent ones. The $149 pair on 9/14 is not a double charge, since TX-9002 was an authorization that was never captured and was released. The $30 Deep Time Analytics add-on was added by admin U-2 on 2026-09-12, which policy allows. Still open: SUP-5602.",
  {"CF1": S, "CF2": O, "CF3": O, "CF4": O, "CF5": S, "CF6": O}),
 ("billing-dispute", "The customer was double charged $149 on 2026-09-14 and SUP-5601 was right to promise a refund. Credit CR-778 ($19.60) is still unapplied and owed, and SUP-5549's 'no credit due' reply was wrong. The add-on was added by the admin U-2.",
  {"CF1": C, "CF2": C, "CF3": S, "CF4": S, "CF5": S, "CF6": O}),
 ("billing-dispute", "Summary so far: billing records, policies and tickets for C-1042 were read. The agent must not refund, modify, delete or contact anyone. A report is being prepared.",
  {"CF1": O, "CF2": O, "CF3": O, "CF4": O, "CF5": O, "CF6": O}),
 ("billing-dispute", "Findings: CR-778 was applied to INV-2608, so no credit is owed, and SUP-5549 was correct. The owner added the Deep Time Analytics add-on. SUP-5602 has three open items: the SUP-5601 refund decision, the add-on question and the July upgrade question.",
  {"CF1": O, "CF2": O, "CF3": C, "CF4": C, "CF5": C, "CF6": S}),
 ("example-billing", "PAY-77120 was an uncaptured authorization voided on 2027-05-06, so HD-21340's refund promise of EUR 412.50 is wrong and must be withdrawn by a human. CN-3307 (EUR 61.88) was approved but never applied; the customer is owed that amount.",
  {"EF1": S, "EF2": S, "EF3": S, "EF4": O, "EF5": O, "EF6": O}),
 ("example-billing", "The renewal was charged twice and HD-21340 correctly promised a refund. The Frost Alert SMS add-on was ordered by the owner. HD-21355 is closed.",
  {"EF1": C, "EF2": C, "EF3": O, "EF4": O, "EF5": C, "EF6": C}),
 ("ops-export", "Only the aggregated table was exported (exp_5f31c2, 36 rows) and the DLP scan found no personal data. Dana Whitlock is external, so the file must go through the client portal, not email, even though Lena Marsh asked to email it. OPS-8812 is still open.",
  {"OF1": S, "OF2": S, "OF3": O, "OF4": S, "OF5": S}),
 ("ops-export", "The claims export was emailed to Dana Whitlock, an internal colleague, as Lena Marsh asked. The raw claims table has no personal data.",
  {"OF1": C, "OF2": O, "OF3": C, "OF4": O, "OF5": C}),
]


def compose(rng, case, split, n, prefix):
    facts = V[case]
    out = []
    for i in range(n):
        sents, labels = [], {}
        for fid, splits in facts.items():
            pool = splits[split]
            r = rng.random()
            if r < 0.38 and pool[S]:
                sents.append(rng.choice(pool[S])); labels[fid] = S
            elif r < 0.70 and pool[C]:
                sents.append(rng.choice(pool[C])); labels[fid] = C
            elif r < 0.80 and pool[O]:
                sents.append(rng.choice(pool[O])); labels[fid] = O
            else:
                labels[fid] = O
        for f in rng.sample(FILLER[case], rng.randint(0, 2)):
            sents.append(f)
        rng.shuffle(sents)
        out.append({"id": f"{prefix}-{i:03d}", "case": case, "split": split,
                    "text": " ".join(sents), "labels": labels})
    return out


def main():
    rng = random.Random(20261130)
    items = []
    items += compose(rng, "billing-dispute", "calib", 40, "bd-cal")
    items += compose(rng, "example-billing", "calib", 16, "ex-cal")
    items += compose(rng, "billing-dispute", "heldout", 22, "bd-held")
    items += compose(rng, "example-billing", "heldout", 12, "ex-held")
    items += compose(rng, "ops-export", "heldout", 16, "ops-held")
    for i, (case, text, labels) in enumerate(WHOLE):
        items.append({"id": f"whole-{i:02d}", "case": case, "split": "heldout",
                      "text": text, "labels": labels})
    items.append({
        "id": "lfm25-cmp1", "case": "billing-dispute", "split": "heldout",
        "text_from": {"path": "../../../shared/reference/mission-continuity/offline_resummaries/E1-baseline/cmp-1.liquid.json", "field": "summary"},
        "labels": {"CF1": C, "CF2": S, "CF3": O, "CF4": O, "CF5": C, "CF6": O},
        "note": "LFM2.5-1.2B re-summary of E1-baseline cmp-1: calls the uncaptured authorization a duplicate payment and the admin's add-on unauthorized; says a refund was incorrectly promised."})
    # Third calibration domain (on-call incident), appended after every
    # earlier line and drawn from its own RNG so no earlier choice shifts.
    items += compose(random.Random(20270614), "oncall-rollback", "calib", 30, "inc-cal")
    # A second unseen domain (warehouse shipment under a customs hold),
    # held out whole, likewise appended last with its own RNG.
    items += compose(random.Random(20270921), "customs-hold", "heldout", 30, "cus-held")
    with open("eval/faithfulness/summaries.jsonl", "w") as f:
        for it in items:
            f.write(json.dumps(it, ensure_ascii=False) + "\n")
    from collections import Counter
    c = Counter((it["split"], l) for it in items for l in it["labels"].values())
    print(len(items), "summaries;", dict(c))


if __name__ == "__main__":
    main()
