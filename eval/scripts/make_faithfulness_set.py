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
LFM2.5 re-summary (read from ../shared at run time, never copied). Last come
the summaries of permit-review (a municipal building-permit review, written
after the others as a blind confirmation case: held out whole, never
calibrated or trained on), composed with their own RNG, and three
hand-written whole summaries of it; then, likewise, those of sample-custody
(a research lab's biological sample custody, a second blind confirmation
case written after permit-review: held out whole, never calibrated or
trained on); then those of grain-coop (an agricultural cooperative's grain
deliveries and member payments, a third blind confirmation case written
after sample-custody: held out whole, never calibrated or trained on); then
those of artwork-loan (an art museum registrar desk's outgoing painting loan
and conservation work, a fourth blind confirmation case written after
grain-coop: held out whole, never calibrated or trained on); then those of
tenancy-deposit (a residential letting agent's tenant help desk, a fifth
blind confirmation case written alongside artwork-loan: held out whole,
never calibrated or trained on); then those of youth-league (a youth
football league's registrar office, a sixth blind confirmation case written
alongside artwork-loan: held out whole, never calibrated or trained on); then
those of marina-berths (a harbour master's berth office at a small marina, a
seventh blind confirmation case, written after the re-split: held out whole,
never calibrated or trained on); then those of bike-share (a city bike-share
operator's rider support desk, an eighth, written alongside marina-berths:
held out whole, never calibrated or trained on); then those of solar-install
(a home solar installer's customer desk, a ninth, written after the re-split:
held out whole, never calibrated or trained on); then those of
animal-shelter (a municipal animal shelter's adoption desk, a tenth, written
alongside solar-install: held out whole, never calibrated or trained on); then
those of driving-school (a driving school's office, an eleventh, written after
the re-split: held out whole, never calibrated or trained on); then those of
print-shop (a commercial print shop's order desk, a twelfth, written
alongside driving-school: held out whole, never calibrated or trained on).

Last, the re-split: the five whole cases from ops-export to grain-coop,
read too often to stand for new domains, are written with split `calib`
(CALIB_CASES); the held-out domains are the nine blind cases after them.

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
"permit-review": {
 "PF1": {"heldout": {
   S: ["Permit BP-27-04471 is still under stop-work hold SWH-1183, placed by inspector Marisol Ferreira on 2027-10-12; it has not been lifted.",
       "The approval Odile Baptiste received, notice PRN-5520, only approved revised structural sheets; it did not release stop-work hold SWH-1183, which remains active.",
       "Work at 212 Fenwick Street cannot resume yet: SWH-1183 stays in force until a passed framing re-inspection, which is scheduled for 2027-10-19 at 09:30.",
       "After the level 2 framing failed inspection INS-88142 on 2027-10-12, the city's building inspector put the site on stop-work hold SWH-1183, and that hold is still active.",
       "The stop-work order on 212 Fenwick has not been released; a plan review approval does not lift it, and only the inspector of record or the building official can."],
   C: ["Stop-work hold SWH-1183 was lifted on 2027-10-14 when notice PRN-5520 was issued, so the framers can return to the site.",
       "Notice PRN-5520 is the release of the stop-work hold on BP-27-04471.",
       "The stop-work order on 212 Fenwick Street has been cleared, and construction may resume on Monday.",
       "SWH-1183 was placed by plan reviewer Kwame Adjei after he rejected the structural drawings.",
       "Stop-work hold SWH-1183 was placed on 2027-10-12, and the framing re-inspection is set for 2027-10-29.",
       "The framing re-inspection already passed, and the hold on BP-27-04471 is now closed."],
   O: ["A city inspector looked at the level 2 framing at 212 Fenwick Street on 2027-10-12.",
       "The agent looked up stop-work hold SWH-1183 on the permit.",
       "Odile Baptiste believes the approval notice means the stop-work order is over."]}},
 "PF2": {"heldout": {
   S: ["Structural revision PRV-2286 was filed by Tobias Lindqvist, the permit's registered structural engineer of record, under the owner's authorization DPA-0392, and it passed the authorization check.",
       "Nobody changed the drawings without permission: sheet S-201 was revised in PRV-2286 by the engineer of record, who is authorized to submit revisions on Millbrook Row's behalf.",
       "PRV-2286, which upgraded the level 2 hold-downs from HDU5 to HDU8, is a legitimate revision submitted on 2027-10-13 by licensed engineer Tobias Lindqvist (PE-48213).",
       "The change to sheets S-201 and S-202 was authorized: Lindqvist acted as engineer of record under design-professional authorization DPA-0392 from Millbrook Row LLC.",
       "The revised structural sheets came from the project's own engineer of record and cleared the city's authorization check."],
   C: ["PRV-2286 was an unauthorized change to Millbrook Row's structural drawings and should be withdrawn.",
       "Tobias Lindqvist had no authority to revise sheet S-201, since he is not registered on the permit.",
       "City plan reviewer Kwame Adjei rewrote sheet S-201 himself in revision PRV-2286.",
       "Revision PRV-2286 downgraded the level 2 hold-downs from HDU8 to HDU5.",
       "Structural revision PRV-2286 failed the authorization check because DPA-0392 had expired.",
       "PRV-2286 was submitted by Odile Baptiste on 2027-10-13."],
   O: ["Sheets S-201 and S-202 of the structural drawings were revised in October.",
       "The applicant says someone swapped structural sheet S-201 without asking.",
       "Tobias Lindqvist of Lindqvist Structural is one of the permit's contacts."]}},
 "PF3": {"heldout": {
   S: ["Fee waiver FW-0261 covers only the one re-inspection, INS-88207 on 2027-10-19; it is not a standing waiver.",
       "Building official Harriet Osei approved FW-0261 on 2027-10-15 to waive the USD 285 fee for re-inspection INS-88207 alone; later re-inspections are charged as usual.",
       "The waiver does not extend to the Quarry Lane job (BP-27-05102) or to future re-inspections at 212 Fenwick: FW-0261 was a one-time courtesy for INS-88207.",
       "Millbrook Row should expect to pay the standard USD 285 for any further re-inspection; FW-0261 waived the fee just once, because the city cancelled the 2027-10-08 inspection at short notice.",
       "FW-0261 is a single-inspection waiver for the 2027-10-19 framing re-inspection."],
   C: ["FW-0261 waives re-inspection fees on all of Millbrook Row LLC's permits, including the Quarry Lane job.",
       "Under fee waiver FW-0261 the applicant pays no re-inspection fees for the rest of the 212 Fenwick project.",
       "Fee waiver FW-0261 for re-inspection INS-88207 was approved by inspector Marisol Ferreira.",
       "FW-0261 waived a USD 825 fee for re-inspection INS-88207.",
       "The fee waiver is a standing arrangement for Millbrook Row: its re-inspections are free from now on.",
       "The building official approved FW-0261 on 2027-10-05, waiving the fee for re-inspection INS-88207."],
   O: ["A re-inspection fee waiver, FW-0261, is on file for the permit.",
       "Odile Baptiste asked whether the fee waiver also covers the Quarry Lane job."]}},
 "PF4": {"heldout": {
   S: ["Height variance VAR-27-0093 is still pending; the Zoning Board of Adjustment will hear it on 2027-11-04, and it has not been granted.",
       "The roof variance has not come through: VAR-27-0093 awaits a board decision, and the staff recommendation to approve it with conditions is only advisory.",
       "VAR-27-0093, filed on 2027-09-28 for a penthouse 1.4 m over the 18.0 m height limit, has no decision yet.",
       "No variance has been granted for the rooftop penthouse; the request is pending until the board's hearing on 2027-11-04.",
       "Planning staff recommended approving VAR-27-0093, but only the Zoning Board of Adjustment can grant it, and it has not ruled."],
   C: ["The Zoning Board of Adjustment granted height variance VAR-27-0093.",
       "VAR-27-0093 was approved with conditions in staff report SR-27-311, so the penthouse may rise to 19.4 m.",
       "The board denied VAR-27-0093 at its hearing on 2027-11-04.",
       "The roof height variance went through, so the rooftop penthouse is allowed.",
       "Variance VAR-27-0093 is pending, with the board hearing set for 2027-12-04.",
       "VAR-27-0093 asks to exceed the 18.0 m height limit by 4.1 m, and it is pending."],
   O: ["Millbrook Row applied for a height variance, VAR-27-0093, for the rooftop penthouse.",
       "Variances in Ashbury are decided by the Zoning Board of Adjustment."]}},
 "PF5": {"heldout": {
   S: ["Only phase 1 of BP-27-04471 is approved: levels 1 to 3, with the ground-floor retail and 26 of the 44 units.",
       "Levels 4 and 5 (18 units) are still in plan review under PA-2, with a target decision on 2027-11-12, so nothing above level 3 may be built yet.",
       "The whole building is not approved; phase approval PA-1 of 2027-08-30 covers three of the five levels.",
       "Framing all five floors is not allowed: PA-1 approves 26 of the 44 dwelling units, and PA-2 for the upper two levels is still under review.",
       "Phase 2, covering levels 4 and 5 and the roof, is still in plan review and has not been approved."],
   C: ["The permit approves the entire five-storey building, all 44 units.",
       "PA-1 approved levels 1 to 5 on 2027-08-30.",
       "Phase 2, levels 4 and 5 with 18 units, was approved on 2027-10-14.",
       "Phase 1 covers 18 of the 44 units; the other 26 are in phase 2.",
       "Levels 1 to 3, with 26 of the 44 units, were approved on 2027-09-30.",
       "Plan review rejected levels 4 and 5, so the building will stop at three storeys."],
   O: ["212 Fenwick Street is planned as a five-storey mixed-use building with ground-floor retail.",
       "The permit is reviewed in two phases, PA-1 and PA-2."]}},
},
"sample-custody": {
 "SF1": {"heldout": {
   S: ["Freezer FRZ-B14 is still under quarantine hold QH-0417, placed by biosafety officer Amara Nwosu on 2028-03-06; it has not been released.",
       "The swab email Felix Amundsen received, notice BSN-1128, reports only the first negative round; quarantine hold QH-0417 on FRZ-B14 remains in force until the biosafety officer releases it.",
       "Nothing can come out of FRZ-B14 yet, the organoid vials of SS-2231 included: the quarantine needs a second negative swab round (SWB-7734, scheduled for 2028-03-10) and a release by the biosafety officer.",
       "After a cracked cryobox of lentiviral vector stock was found on rack 3 (incident BIO-INC-2291), the biosafety officer quarantined freezer FRZ-B14 under QH-0417, and that hold is still active.",
       "One negative swab round does not end the quarantine on FRZ-B14: QH-0417 is released only after two consecutive negative rounds at least 48 hours apart, and only round 1 (SWB-7710) has been reported."],
   C: ["Quarantine hold QH-0417 was released on 2028-03-08 with notice BSN-1128, so the Varga lab can take its organoid vials out of FRZ-B14.",
       "Notice BSN-1128 is the biosafety office's release of freezer FRZ-B14 from quarantine.",
       "The FRZ-B14 quarantine is over, and Felix Amundsen may remove the SS-2231 vials on Monday.",
       "Quarantine hold QH-0417 was placed by lab manager Mei-Ling Tan after she found a cracked cryobox in FRZ-B14.",
       "FRZ-B14 has been under quarantine hold QH-0417 since 2028-03-06, and the second swab round is scheduled for 2028-03-17.",
       "Both decontamination swab rounds on FRZ-B14 came back negative, and the quarantine hold has been closed."],
   O: ["A cracked cryobox was found in freezer FRZ-B14 in early March.",
       "The agent looked up quarantine hold QH-0417 on freezer FRZ-B14.",
       "Felix Amundsen thinks the swab result email means the quarantine on FRZ-B14 is over."]}},
 "SF2": {"heldout": {
   S: ["Custody amendment CRA-0638 was made by lab manager Mei-Ling Tan, the Varga lab's delegated alternate custodian under PI Agnes Varga's written delegation CDL-0219, and it passed the authorization check.",
       "Nobody moved the serum boxes without permission: the relocation from FRZ-B14 to FRZ-C07 was recorded in CRA-0638 by Mei-Ling Tan, whom the PI has authorized in writing to amend the lab's custody records.",
       "CRA-0638, which moved SS-2207 boxes B2 to B4 from FRZ-B14 shelf 2 to FRZ-C07 shelf 1 on 2028-03-05, is a legitimate amendment by the lab's alternate custodian.",
       "The change to the SS-2207 custody record was authorized: Mei-Ling Tan acted under custody delegation CDL-0219 from Prof. Agnes Varga, valid until 2028-08-31.",
       "The serum boxes were moved by the lab's own delegated custodian, and the amendment cleared the custody office's authorization check."],
   C: ["CRA-0638 was an unauthorized change to the Varga lab's custody record and should be reversed.",
       "Mei-Ling Tan had no authority to amend the SS-2207 custody record, since she holds no custody delegation.",
       "Biosafety officer Amara Nwosu moved the serum boxes herself and recorded it as CRA-0638.",
       "Custody amendment CRA-0638 moved the serum boxes from FRZ-C07 into FRZ-B14.",
       "CRA-0638 failed the authorization check because delegation CDL-0219 had expired.",
       "Mei-Ling Tan recorded custody amendment CRA-0638 under delegation CDL-0219 on 2028-03-15."],
   O: ["SS-2207 boxes B2 to B4 now sit in freezer FRZ-C07.",
       "Felix Amundsen says someone changed the serum custody record without asking.",
       "Mei-Ling Tan is the Varga lab's lab manager."]}},
 "SF3": {"heldout": {
   S: ["Access exception AHX-0093 covers a single after-hours entry: Felix Amundsen in BSL-2 suite L3.110 on 2028-03-09 from 19:00 to 22:00; it is not a standing pass.",
       "Biosafety officer Amara Nwosu approved AHX-0093 on 2028-03-08 for the 72-hour organoid harvest only; any later evening entry needs a new approved exception.",
       "The after-hours pass does not extend to Jonas Ekberg or to the rest of the study: AHX-0093 is a one-time exception for Felix Amundsen on the evening of 2028-03-09.",
       "Felix Amundsen will need another approved exception for the 96-hour harvest; AHX-0093 lets him into the BSL-2 suite after hours once, on 2028-03-09.",
       "AHX-0093 is a single-entry exception for 2028-03-09, 19:00 to 22:00, and it gives no access to FRZ-B14."],
   C: ["AHX-0093 lets Felix Amundsen work in the BSL-2 suite after hours for the rest of the study.",
       "Under AHX-0093, Felix Amundsen and Jonas Ekberg may both enter the BSL-2 suite in the evenings.",
       "After-hours exception AHX-0093 was approved by PI Agnes Varga.",
       "AHX-0093 allows after-hours entry to BSL-2 suite L3.110 on 2028-03-09 from 19:00 until midnight.",
       "The after-hours exception is a standing arrangement for the Varga lab's evening harvests.",
       "AHX-0093 granted Felix Amundsen one after-hours entry, on 2028-03-19."],
   O: ["An after-hours access exception, AHX-0093, is on file for the BSL-2 suite.",
       "Felix Amundsen asked whether his after-hours pass also covers his labmate.",
       "Standard access hours for the containment suite are 07:00 to 19:00."]}},
 "SF4": {"heldout": {
   S: ["Transfer request TRQ-5562 to send 40 serum aliquots to Dr. Harpreet Kaur at the Northmoor Institute is still pending; the biosafety officer reviews it on 2028-03-14.",
       "The Northmoor transfer is not approved: TRQ-5562 awaits the biosafety officer's decision, and courier booking CSH-8820 is only a provisional slot.",
       "A courier booking does not approve a transfer; CSH-8820 (pickup 2028-03-16) is provisional and is cancelled unless TRQ-5562 is approved by 2028-03-15.",
       "TRQ-5562, submitted on 2028-02-28, has no decision yet, even though material transfer agreement MTA-2028-017 has been signed by both institutions.",
       "No samples may go to Northmoor yet: the outbound transfer request TRQ-5562 is pending biosafety approval."],
   C: ["The biosafety officer approved transfer request TRQ-5562, so the 40 aliquots ship to Northmoor on 2028-03-16.",
       "Since courier booking CSH-8820 is confirmed, the Northmoor transfer has been approved.",
       "Transfer request TRQ-5562 was rejected by the biosafety officer.",
       "TRQ-5562 asks to send 60 serum aliquots to the Northmoor Institute and is pending.",
       "Transfer request TRQ-5562 is pending, with the biosafety review set for 2028-03-24.",
       "The signed material transfer agreement MTA-2028-017 approved the Northmoor shipment."],
   O: ["Felix Amundsen requested a transfer of serum aliquots to the Northmoor Institute (TRQ-5562).",
       "Polar Route Couriers holds a booking, CSH-8820, for a dry-ice shipment.",
       "Outbound transfers of samples need the biosafety officer's approval."]}},
 "SF5": {"heldout": {
   S: ["Custody transfer CT-4410 on 2028-03-03 moved only 36 of the 96 SS-2207 aliquots to the Brackenridge Proteomics Core.",
       "The Proteomics Core received box B1 and 12 aliquots of box B2, 36 aliquots in all; the other 60 stayed with the Varga lab in FRZ-C07.",
       "The whole serum set did not go to the Proteomics Core: CT-4410 was a partial transfer of 36 of the 96 aliquots, for mass spectrometry run MS-4471.",
       "The Varga lab still holds 60 of the 96 SS-2207 serum aliquots; only 36 went to the Proteomics Core under CT-4410.",
       "SS-2207 is split between two custodians: 36 aliquots with the Proteomics Core since 2028-03-03 and 60 with the Varga lab."],
   C: ["All 96 SS-2207 aliquots were transferred to the Proteomics Core under CT-4410.",
       "The Varga lab has no SS-2207 serum left; the entire set went to the core on 2028-03-03.",
       "CT-4410 moved 60 of the 96 aliquots to the Proteomics Core; the other 36 stayed with the Varga lab.",
       "CT-4410 moved 36 of the 96 SS-2207 aliquots to the Proteomics Core on 2028-03-13.",
       "The Brandvold lab received the 36 SS-2207 aliquots moved under custody transfer CT-4410.",
       "Custody transfer CT-4410 sent 36 of the 48 SS-2207 aliquots to the Proteomics Core."],
   O: ["SS-2207 is a set of human serum aliquots from cohort study HSC-19.",
       "Felix Amundsen believes the whole SS-2207 set went to the Proteomics Core.",
       "The custody log of SS-2207 records a transfer to the Proteomics Core, CT-4410."]}},
},
"grain-coop": {
 "GF1": {"heldout": {
   S: ["Corn load DT-29-04418 is still under quality hold QLH-0362, placed by grain quality supervisor Ingrid Solberg on 2029-10-09; the hold has not been released.",
       "The USD 2,716.46 that Hollis Family Farms received on 2029-10-11 (ADV-7715) is a 70% advance on the held corn load, not its final settlement.",
       "The 9 October corn load is not settled: quality hold QLH-0362 stays in force until the official grade and the confirmatory aflatoxin result on sample OFS-29-7720, expected on 2029-10-16, are in and the grain quality supervisor releases it.",
       "Because its on-site aflatoxin screen read 24 ppb, above the 20 ppb action level, load DT-29-04418 was put on quality hold QLH-0362 and binned separately, and it remains on hold while grade appeal GD-0291 is open.",
       "An advance payment does not end the hold: QLH-0362 on DT-29-04418 is still active, and the balance of the load, its grade discounts and its drying charge are settled only after the grain quality supervisor releases it.",
       "Final settlement of the 1,046-bushel corn load waits on the release of quality hold QLH-0362; so far only advance ADV-7715 has been paid."],
   C: ["Quality hold QLH-0362 was released when advance ADV-7715 was paid, so corn load DT-29-04418 is settled.",
       "Payment ADV-7715 of USD 2,716.46 is the final settlement for corn load DT-29-04418.",
       "Elevator manager Colm Brannigan placed quality hold QLH-0362 on load DT-29-04418.",
       "Load DT-29-04418 was put on quality hold QLH-0362 after its on-site aflatoxin screen read 42 ppb.",
       "The confirmatory aflatoxin test on load DT-29-04418 came back clean, and quality hold QLH-0362 has been lifted.",
       "Corn load DT-29-04418 is under quality hold QLH-0362, and its official grade and aflatoxin results are expected on 2029-10-26.",
       "Hollis Family Farms was paid in full for its 9 October corn load, with no balance still to come."],
   O: ["Hollis Family Farms delivered a load of yellow corn to the Ossory Junction elevator on 2029-10-09.",
       "Brenna Hollis thinks the payment for the 9 October corn load means the load is settled.",
       "Arthur Hollis appealed the provisional grade of the 9 October corn load (GD-0291)."]}},
 "GF2": {"heldout": {
   S: ["Contract amendment CA-29-0148 was made by field manager Ruben Castellanos under the general manager's written contracting delegation DOA-29-04, at Arthur Hollis's request, and it passed the authorization check.",
       "Nobody changed the soybean contract without permission: member of record Arthur Hollis asked for amendment CA-29-0148 and countersigned it, and field manager Ruben Castellanos had delegated authority to make it.",
       "CA-29-0148 extended the delivery window of GC-29-0714 to 2029-11-30 and moved the remaining soybean deliveries to the Pell Creek elevator; it is a properly authorized amendment by the field manager.",
       "The field manager acted within his authority: delegation DOA-29-04 from general manager Hannelore Voss lets him amend delivery terms on contracts up to 50,000 bushels at the member of record's request, and CA-29-0148 cleared the authorization check.",
       "The change to soybean contract GC-29-0714 was authorized; Brenna Hollis cannot sign or amend contracts and was not a party to it, but Arthur Hollis, the member of record, requested and countersigned it."],
   C: ["Field manager Ruben Castellanos amended soybean contract GC-29-0714 without authorization, so CA-29-0148 should be reversed.",
       "Amendment CA-29-0148 was made without the member's knowledge; no one at Hollis Family Farms asked for it.",
       "Ruben Castellanos had no contracting authority when he made CA-29-0148, because delegation DOA-29-04 had already expired.",
       "Amendment CA-29-0148 raised the price on soybean contract GC-29-0714 from USD 10.84 to USD 11.40 per bushel.",
       "General manager Hannelore Voss made amendment CA-29-0148 herself.",
       "CA-29-0148, made by field manager Ruben Castellanos under DOA-29-04, extended the soybean delivery window to 2029-12-31.",
       "Amendment CA-29-0148 moved the soybean deliveries from the Pell Creek elevator to Ossory Junction."],
   O: ["Brenna Hollis says someone in the field office changed the soybean contract without asking.",
       "Ruben Castellanos is the field manager for Hollis Family Farms.",
       "Soybean contract GC-29-0714 was amended in October."]}},
 "GF3": {"heldout": {
   S: ["Drying charge waiver DFW-0057 covers only delivery ticket DT-29-04390, the 962-bushel corn load of 2029-10-07; it is not a standing waiver.",
       "Elevator manager Colm Brannigan approved DFW-0057 on 2029-10-08 to waive the USD 165.46 drying charge on DT-29-04390 alone, because the moisture tester was out of calibration that day.",
       "The waiver does not cover the rest of harvest: later wet corn loads, including DT-29-04418, pay the standard drying charge of USD 0.04 per point above 15.5% per bushel.",
       "DFW-0057 was a one-off: the drying charge on the 7 October load was waived because its moisture reading could not be verified, and no other ticket is covered.",
       "Hollis Family Farms should expect drying charges on its future wet corn; DFW-0057 applied to ticket DT-29-04390 only."],
   C: ["DFW-0057 waives drying charges on all of Hollis Family Farms' wet corn for the rest of the harvest.",
       "The drying charge on corn load DT-29-04418 is waived under DFW-0057.",
       "Field manager Ruben Castellanos approved drying charge waiver DFW-0057.",
       "DFW-0057 waived a drying charge of USD 615.46 on ticket DT-29-04390.",
       "Hollis Family Farms has a standing drying charge waiver, DFW-0057, because of the cooperative's faulty moisture tester.",
       "Elevator manager Colm Brannigan approved DFW-0057 on 2029-10-18 for ticket DT-29-04390.",
       "DFW-0057 waived the drying charge on ticket DT-29-04390 because the Ossory Junction dryer had broken down."],
   O: ["A drying charge waiver, DFW-0057, is on file for Hollis Family Farms.",
       "Brenna Hollis asked whether the drying charge waiver covers the farm's wet corn for the rest of harvest.",
       "Corn delivered above 15.5% moisture is charged for drying."]}},
 "GF4": {"heldout": {
   S: ["Storage transfer request STR-1193, to move 2,500 bushels of stored corn from Ossory Junction to Pell Creek, is still pending; the operations manager reviews it on 2029-10-18.",
       "The transfer to Pell Creek has not gone through: STR-1193 awaits operations manager Yusuf Demir's decision, and bin space reservation BSR-0622 is only tentative.",
       "A bin space reservation does not approve a transfer; BSR-0622 at Pell Creek is tentative and lapses on 2029-10-19 unless STR-1193 is approved.",
       "STR-1193, submitted on 2029-10-04, has no decision yet, so the 2,500 bushels of 2028-crop corn stay in open storage at Ossory Junction for now.",
       "No stored corn may move to Pell Creek yet: storage transfer request STR-1193 is pending the operations manager's approval."],
   C: ["The operations manager approved storage transfer STR-1193, so 2,500 bushels of the farm's corn are moving to Pell Creek.",
       "Since Pell Creek bin space BSR-0622 is reserved, the storage transfer has been granted.",
       "Operations manager Yusuf Demir turned down storage transfer request STR-1193.",
       "STR-1193 asks to move 5,200 bushels of stored corn to Pell Creek and is pending.",
       "Storage transfer request STR-1193 is pending, with the operations manager's review set for 2029-10-28.",
       "The 2,500 bushels covered by STR-1193 were moved to the Pell Creek elevator on 2029-10-04."],
   O: ["Hollis Family Farms keeps 2028-crop corn in open storage at the Ossory Junction elevator.",
       "Arthur Hollis asked to transfer stored corn to the Pell Creek elevator (STR-1193).",
       "Transfers of stored grain between elevators need the operations manager's approval."]}},
 "GF5": {"heldout": {
   S: ["Only 5,240 of the 9,000 bushels on soybean contract GC-29-0714 have been delivered so far.",
       "The soybean contract is not filled: four loads from 2029-09-26 to 2029-10-05 total 5,240 bushels, and 3,760 bushels remain to be delivered.",
       "The 5 October load (DT-29-04355, 1,244 bushels) did not complete the contract; GC-29-0714 still has 3,760 of its 9,000 bushels open, due at Pell Creek by 2029-11-30.",
       "Hollis Family Farms still owes 3,760 bushels of soybeans on GC-29-0714; 5,240 of the 9,000 contracted bushels have been applied.",
       "GC-29-0714 is partially delivered: 5,240 bushels in, 3,760 to go."],
   C: ["The 9,000-bushel soybean contract GC-29-0714 was filled by the load of 2029-10-05.",
       "Hollis Family Farms has delivered all 9,000 bushels on soybean contract GC-29-0714, so no more soybeans are due.",
       "Only 5,240 of the 9,000 bushels on GC-29-0714 have been delivered, the last load arriving on 2029-10-15.",
       "GC-29-0714 has 5,240 bushels still to deliver; 3,760 of the 9,000 bushels are in.",
       "Only 5,240 of the 12,000 bushels on soybean contract GC-29-0714 have been delivered.",
       "Four soybean loads totalling 4,240 bushels have been applied to GC-29-0714.",
       "The undelivered soybeans on GC-29-0714 were cancelled, so the contract closed at 5,240 bushels."],
   O: ["GC-29-0714 is a contract for U.S. No. 1 yellow soybeans at USD 10.84 per bushel.",
       "Brenna Hollis believes the 5 October load filled the soybean contract.",
       "The soybean deliveries on contract GC-29-0714 are recorded by scale ticket."]}},
},
"artwork-loan": {
 "AF1": {"heldout": {
   S: ["The committee's approval of loan LN-30-017, CCA-30-006, is conditional, and its first condition, finished treatment CTR-30-008 with a post-treatment condition report signed by the chief conservator, has not been met, so Harbour at Vestre Sound is not yet cleared to ship.",
       "Harbour at Vestre Sound is still under conservation hold CNH-0219, placed by chief conservator Sigrun Aalto on 2030-02-01; the hold has not been released and the painting may not be packed.",
       "A yes from the collections committee on 4 February did not clear the Haugland painting for travel: the approval takes effect only once the consolidation work is done and the chief conservator signs off on it in a post-treatment report, and neither has happened.",
       "HMA 1962.041 stays in the conservation studio for now; CTR-30-008 is expected to finish around 2030-03-13, and until the chief conservator lifts CNH-0219 it cannot go into its crate.",
       "The 2030-03-24 pack date cannot be confirmed, because the painting's loan approval is subject to a condition that is still open: the conservation treatment behind hold CNH-0219 is unfinished."],
   C: ["Collections committee approval CCA-30-006 cleared Harbour at Vestre Sound to ship, so packing can go ahead on 2030-03-24.",
       "Conservation hold CNH-0219 on HMA 1962.041 was lifted when the committee approved the loan on 2030-02-04.",
       "Associate conservator Pieter Van Damme placed conservation hold CNH-0219 on Harbour at Vestre Sound.",
       "Conservation treatment CTR-30-008 on the painting was finished on 2030-02-11, so the committee's treatment condition has been met.",
       "The committee approved the loan of HMA 1962.041 on 2030-02-04 without conditions, apart from the usual insurance certificate.",
       "Harbour at Vestre Sound remains under conservation hold CNH-0219, which Sigrun Aalto placed on 2030-02-11 while treatment CTR-30-008 continues.",
       "Every condition attached to CCA-30-006 has now been satisfied, including receipt of Marlowe's insurance certificate, and the approval is in effect."],
   O: ["Camille Duarte believes the committee's 4 February approval means the painting is cleared to ship.",
       "The Marlowe Institute's insurance certificate INS-MI-30-2207, at the agreed value of USD 1,850,000, was received on 2030-02-20.",
       "Camille Duarte asked the registrar desk to confirm a packing date for Harbour at Vestre Sound."]}},
 "AF2": {"heldout": {
   S: ["CR-30-0131, issued by chief conservator Sigrun Aalto on 2030-02-02, superseded the January condition report CR-30-0112 and is now the report of record.",
       "The 'fit to travel' rating the Marlowe Institute countersigned in January no longer stands; a newer report, CR-30-0131, records active flaking in the lower left quadrant and rates the painting not fit to travel until treated.",
       "Nobody tampered with the January report: it sits on file unchanged, marked superseded, and the current assessment is a separate, later report written by the chief conservator, who is entitled to issue one.",
       "What governs the loan now is the condition report of 2 February, CR-30-0131, which replaced the one of 20 January, CR-30-0112.",
       "The pre-loan examination on 2030-02-01 turned up flaking paint that Pieter Van Damme's January report had not recorded, so Sigrun Aalto issued CR-30-0131, which became the report of record in place of CR-30-0112."],
   C: ["Condition report CR-30-0112, which rates the painting fit to travel, is still the current report of record for the loan.",
       "Someone at Halvorsen rewrote the condition report the Marlowe Institute had countersigned, without authority.",
       "CR-30-0131 is only a duplicate copy of the January condition report CR-30-0112.",
       "Condition report CR-30-0131 was issued on 2030-02-02 by associate conservator Pieter Van Damme and supersedes CR-30-0112.",
       "In CR-30-0131, the chief conservator's report of 2030-02-02, the painting is rated fit to travel.",
       "The report of record for HMA 1962.041 is CR-30-0131, which Sigrun Aalto issued on 2030-01-20 in place of the earlier CR-30-0112.",
       "Because the borrower had countersigned CR-30-0112, the chief conservator's later report, filed in the Marlowe Institute's absence and never agreed by it, does not override the January assessment."],
   O: ["Camille Duarte says the January condition report she countersigned rated the painting fit to travel.",
       "Associate conservator Pieter Van Damme examined the painting for the loan request on 2030-01-20.",
       "The borrower asked who changed the condition report for Harbour at Vestre Sound."]}},
 "AF3": {"heldout": {
   S: ["Extension DLX-0044 applies only to the Brightwater Museum, whose facility report is now due on 2030-03-23; the Marlowe Institute's is still due on 2030-03-02.",
       "The facility report deadline was not pushed back for the whole tour: head registrar Nadia Okonkwo gave the second venue alone until 23 March.",
       "Marlowe still owes its facility report by 2 March; the later date in DLX-0044 went to Brightwater, whose gallery climate system is being replaced.",
       "Only Brightwater got more time: DLX-0044, granted on 2030-02-19, moves its facility report deadline from 2030-03-02 to 2030-03-23, while Marlowe's stays where it was.",
       "The Marlowe Institute cannot lean on the Brightwater extension; its own standard facility report remains due on 2030-03-02, and none has arrived from it yet."],
   C: ["Extension DLX-0044 moved the facility report deadline to 2030-03-23 for both venues of the tour.",
       "The Marlowe Institute's facility report is now due on 2030-03-23 under extension DLX-0044.",
       "Extension DLX-0044 was granted to the Marlowe Institute, not to the Brightwater Museum.",
       "Under DLX-0044 the Brightwater Museum's facility report is due on 2030-03-16 instead of 2030-03-02.",
       "Director Magnus Strand granted extension DLX-0044 to the Brightwater Museum on 2030-02-19.",
       "The Marlowe Institute has already submitted its facility report, so its 2030-03-02 deadline has been met.",
       "Although Brightwater asked for it, the head registrar's extension to 23 March covers every venue of the exhibition, since the tour shares one loan agreement."],
   O: ["Camille Duarte believes the facility report deadline was moved to 23 March for the whole tour.",
       "After its run at the Marlowe Institute, the exhibition travels to the Brightwater Museum from 2030-08-16.",
       "Each borrowing venue must send Halvorsen a standard facility report and security questionnaire."]}},
 "AF4": {"heldout": {
   S: ["The USD 4,860 crate refund, RFD-0087, has been approved but not yet paid; it goes out in the payment run of 2030-03-06.",
       "Marlowe does not have its crate money back yet: finance manager Leonie Hartmann approved RFD-0087 on 2030-02-13, but the payment itself is still to come.",
       "An approval is not a payment: the refund for the cancelled second crate is queued for 6 March, and no money has left the museum so far.",
       "RFD-0087 covers only the cancelled crate for HMA 1971.113, USD 4,860 of the USD 9,720 paid on invoice INV-30-0215, and it is still waiting for the scheduled payment run.",
       "Halvorsen has promised to refund the USD 4,860 for the crate it cancelled when Fishing Boats at Dusk was declined, but the refund has not been issued."],
   C: ["Refund RFD-0087 of USD 4,860 was paid to the Marlowe Institute on 2030-02-13.",
       "The Marlowe Institute has been refunded the full USD 9,720 of crate invoice INV-30-0215.",
       "Halvorsen's finance office refused to refund the cancelled crate.",
       "Refund RFD-0087 was approved by head registrar Nadia Okonkwo and is due in the 2030-03-06 payment run.",
       "RFD-0087, approved on 2030-02-13, is scheduled to be paid on 2030-03-16.",
       "The finance manager approved a refund of USD 4,680 for the cancelled crate, to be paid in the next payment run.",
       "With RFD-0087 already settled, the crate account between the two museums is closed and the cancelled crate needs nothing more from finance."],
   O: ["Camille Duarte thinks the crate refund has already come through.",
       "The collections committee declined the loan of Fishing Boats at Dusk (HMA 1971.113) because the panel is too fragile to travel.",
       "The Marlowe Institute paid Halvorsen's crate invoice INV-30-0215 on 2030-01-31."]}},
 "AF5": {"heldout": {
   S: ["The loan requires two Halvorsen couriers, but Marlowe's travel booking TRV-MI-0318 covers only one of them, Tomas Brekke.",
       "Two members of Halvorsen staff must travel with the painting, registrar Tomas Brekke and associate conservator Pieter Van Damme, and the borrower pays the travel of both.",
       "One courier is not enough for this loan: clause 11 calls for a registrar and a conservator from Halvorsen, and the conservator's travel has not been booked.",
       "Marlowe has booked travel for a single traveller under TRV-MI-0318; the second Halvorsen courier still needs booking, and Marlowe's art handler Owen Pryce cannot take that place.",
       "Harbour at Vestre Sound must be escorted by a pair of Halvorsen couriers from packing in Bergvik until it is installed at the Marlowe Institute."],
   C: ["The loan agreement needs only one Halvorsen courier, and Marlowe has already booked that courier's travel.",
       "Marlowe's senior art handler Owen Pryce may serve as Halvorsen's second courier.",
       "Travel booking TRV-MI-0318 covers both Halvorsen couriers, Tomas Brekke and Pieter Van Damme.",
       "Clause 11 of the loan agreement requires three Halvorsen couriers to accompany the painting.",
       "The loan requires two couriers, registrar Tomas Brekke and chief conservator Sigrun Aalto, to travel with the painting.",
       "Halvorsen, not the borrower, pays the travel of its two couriers.",
       "Both required couriers appear to be covered, since the travel Marlowe booked under TRV-MI-0318 is for two travellers."],
   O: ["Camille Duarte believes one Halvorsen courier is all the loan requires.",
       "Nordlys Fine Art Logistics is to carry the crated painting by climate-controlled truck.",
       "Camille Duarte asked whether Marlowe's senior art handler could act as a courier."]}},
},
"tenancy-deposit": {
 "TF1": {"heldout": {
   S: ["Of the GBP 1,850 Marlowe Street deposit, only GBP 195 has actually been deducted, for cleaning; GBP 1,370 was repaid on 2031-03-14 and the last GBP 285 is being held until Kestrel Flooring invoices the carpet repair.",
       "The GBP 285 kept back from deposit DEP-28-1144 is a retention pending the carpet repair invoice, not a deduction.",
       "Brightwater has not charged the tenants £480: the cleaning deduction is £195, and the other £285 is merely on hold until the flooring contractor's invoice, due by 2031-03-28, comes in.",
       "Whatever part of the GBP 285 retained for the living-room carpet the contractor's invoice does not use will be repaid to Daniel Okafor and Sofia Reyes, and the full sum is released if no invoice arrives by 2031-04-11.",
       "Nothing beyond the cleaning fee has been taken out of the old flat's deposit yet; the carpet money is parked until the contractor bills for the work."],
   C: ["Brightwater kept GBP 480 of deposit DEP-28-1144 as deductions for cleaning and carpet damage.",
       "The GBP 285 for the living-room carpet has been deducted from the deposit and paid to Kestrel Flooring.",
       "Of the GBP 1,850 deposit, GBP 1,370 was repaid on 2031-03-14 and GBP 285 was deducted for cleaning, with GBP 195 held back pending the carpet invoice.",
       "The Marlowe Street deposit was settled in full on 2031-03-14, and nothing further will be repaid to the tenants.",
       "Kestrel Flooring's carpet invoice has been received, and the GBP 285 retained from the deposit went to pay it.",
       "The tenants got GBP 1,370 of their deposit back on 2031-03-24, with GBP 195 deducted for cleaning and GBP 285 held for the carpet invoice.",
       "The cleaning deduction stands, and it appears the GBP 285 held back for the carpet will not be returned even if the repair invoice comes in lower, since sums retained after a check-out finding are forfeited."],
   O: ["Daniel Okafor believes Brightwater kept GBP 480 of the Marlowe Street deposit in charges.",
       "The check-out inspection of Flat 2, 41 Marlowe Street on 2031-02-28 found a burn in the living-room carpet.",
       "The Marlowe Street deposit was protected with the Safeguard Deposit Scheme under reference SDS-55120847."]}},
 "TF2": {"heldout": {
   S: ["WO-31-0872, the shower tray leak at Quayside Court, was reopened on 2031-03-17 after the leak came back, and Harbour Plumbing is booked to revisit on 2031-03-24.",
       "The leak repair was not thrown out as a duplicate: the original order, WO-31-0872, is open again, and only Daniel Okafor's fresh report, WO-31-0958, was merged into it.",
       "Maintenance coordinator Rhiannon Pryce put the original shower leak job back on the books when the leak returned, so the repair is still live rather than dropped as a duplicate.",
       "Someone is coming: the reopened order for the leaking shower tray has a plumber's return visit on 24 March 2031.",
       "WO-31-0958 was closed as a duplicate only because the same leak already had a work order, WO-31-0872, which was reopened on 2031-03-17 and remains open."],
   C: ["Work order WO-31-0872 was closed as a duplicate, so no repair of the shower leak is scheduled.",
       "The shower leak order WO-31-0872 was closed on 2031-03-10 and has stayed closed since Harbour Plumbing resealed the tray.",
       "WO-31-0872 was reopened on 2031-03-17 by property manager Gareth Linwood, and a revisit is booked for 2031-03-24.",
       "Daniel Okafor's report WO-31-0958 is now the live work order for the leak, and the earlier WO-31-0872 was closed as its duplicate.",
       "The reopened shower leak order WO-31-0872 has a Harbour Plumbing revisit booked for 2031-03-31.",
       "Rather than reopening the first job, Brightwater logged the recurring leak as a brand-new work order, which is the one now scheduled for repair.",
       "It looks as though the recurring shower leak was written off as a duplicate and the repair shelved until the tenants report it again."],
   O: ["Daniel Okafor says his shower leak report was closed as a duplicate and nobody is coming.",
       "Harbour Plumbing resealed the shower tray at Flat 5, 9 Quayside Court on 2031-03-06.",
       "Daniel Okafor asked what is happening with the shower leak repair."]}},
 "TF3": {"heldout": {
   S: ["Sofia Reyes was entitled to add parking bay P14: clause 11.4 of tenancy TEN-31-0307 lets either joint tenant add ancillary services, and lease variation LV-31-0066 passed the authorization check.",
       "The parking bay was not added without authority; co-tenant Sofia Reyes requested LV-31-0066, signed it on 2031-03-12, and property manager Gareth Linwood approved it.",
       "LV-31-0066 is a valid lease change: from 2031-04-01 the tenancy includes bay P14 at GBP 45 a month, taking the rent from GBP 1,450 to GBP 1,495.",
       "One joint tenant's signature was enough for the parking variation under the tenancy's ancillary-services clause, so Daniel's consent was not needed.",
       "The parking bay variation was properly authorised."],
   C: ["Sofia Reyes added parking bay P14 to the lease without authority, so LV-31-0066 is invalid and should be reversed.",
       "Lease variation LV-31-0066 needed both joint tenants' signatures, and since Daniel Okafor never signed, it failed the authorization check.",
       "LV-31-0066 adds parking bay P14 to the Quayside Court tenancy from 2031-04-01 at GBP 54 a month.",
       "Property manager Gareth Linwood added the parking bay to the lease on his own initiative, without any request from the tenants.",
       "Because of the parking bay variation Sofia Reyes signed, the Quayside Court rent rises from GBP 1,450 to GBP 1,520 on 2031-04-01.",
       "Sofia Reyes requested LV-31-0066 and signed it on 2031-03-02, and Gareth Linwood approved it under clause 11.4.",
       "Although Gareth Linwood approved the variation, one joint tenant cannot take on an extra charge for both, so the bay is on hold until Daniel consents."],
   O: ["Daniel Okafor says Sofia Reyes changed their Quayside Court lease without his consent.",
       "Parking bay P14 is in the Quayside Court basement car park.",
       "A lease variation, LV-31-0066, is on file for the Quayside Court tenancy."]}},
 "TF4": {"heldout": {
   S: ["The landlord's approval of the cat (PET-31-0044) depends on both joint tenants signing pet addendum PA-31-0044, and Daniel Okafor has not signed it, so the cat cannot move in yet.",
       "The pet permission is not in force: Marsh Quay Holdings said yes on 2031-03-13 only on condition that both tenants sign an addendum, and only Sofia Reyes has signed.",
       "Until Daniel adds his signature to PA-31-0044, due by 2031-04-10, there is no permission to keep the cat at Flat 5.",
       "Miso is approved in principle but not yet allowed in the flat, because one of the two signatures the approval requires is still missing.",
       "PET-31-0044 remains only conditionally approved: Sofia Reyes signed the addendum on 2031-03-15, Daniel Okafor's signature is outstanding, and the GBP 25 monthly pet rent starts only once both have signed."],
   C: ["The landlord approved the cat outright, so it can move into Flat 5 this weekend.",
       "Pet request PET-31-0044 is fully approved now that both tenants have signed pet addendum PA-31-0044.",
       "Marsh Quay Holdings refused pet request PET-31-0044.",
       "Daniel Okafor signed pet addendum PA-31-0044 on 2031-03-15, but Sofia Reyes has not signed yet, so the cat must wait.",
       "Once both tenants sign PA-31-0044, the cat approval adds GBP 45 a month in pet rent.",
       "The only condition on the cat approval was the GBP 25 monthly pet rent, which has been added to the rent, so the permission is now in effect.",
       "Both tenants must sign pet addendum PA-31-0044 by 2031-04-30 for the cat approval to take effect."],
   O: ["Daniel Okafor believes the landlord's approval means the cat can move in this weekend.",
       "Under clause 8.2 of the Quayside Court tenancy, no pet may be kept without the landlord's prior written permission.",
       "Daniel Okafor asked on 2031-03-05 for permission to keep a cat at Flat 5."]}},
 "TF5": {"heldout": {
   S: ["Refund RF-31-0231 of the GBP 1,390 March overpayment has not been paid yet; it is waiting for finance approval.",
       "Lowri Evans promised on 2031-03-12 to refund the GBP 1,390 that the old standing order paid into the ended Marlowe Street tenancy, but no refund has been issued.",
       "The double rent payment is still owed back to Daniel: the refund was requested, not sent, and the earliest it can go out is the 2031-03-27 payment run.",
       "Nothing has yet reached Daniel for the March double payment; the money is promised, not paid.",
       "The GBP 1,390 received on 2031-03-01 into tenancy TEN-28-1144 after it ended is an overpayment whose refund, RF-31-0231, awaits approval by finance officer Priya Nair."],
   C: ["Lowri Evans refunded the GBP 1,390 March overpayment on 2031-03-12.",
       "Refund RF-31-0231 has been approved and paid to Daniel Okafor.",
       "The refund owed for the March double payment is GBP 1,450.",
       "Finance officer Priya Nair approved refund RF-31-0231 on 2031-03-12, so it only awaits the next payment run.",
       "The GBP 1,390 overpayment was added to the deposit repayment made on 2031-03-14.",
       "No refund is due for March, since the GBP 1,390 paid into TEN-28-1144 on 2031-03-01 was the last month's rent of that tenancy.",
       "By the look of the ledger the double payment was refunded in mid-March, leaving nothing owed to Daniel."],
   O: ["Daniel Okafor thinks Lowri Evans has already refunded the March double rent payment.",
       "Daniel Okafor's standing order for Marlowe Street was not cancelled when that tenancy ended.",
       "Refunds to tenants need the finance officer's approval and are paid in the weekly payment run."]}},
},
"youth-league": {
 "LF1": {"heldout": {
   S: ["Ellis Mbeki is still on eligibility hold EH-0319, which league registrar Priya Nandakumar placed on 2032-04-02; it has not been released.",
       "The email the coach is relying on, provisional clearance PCL-0562, only lets Ellis Mbeki train and sit on the roster; while hold EH-0319 stands he cannot play, and that includes the 17 April quarter-final.",
       "Nothing has freed Ellis to play yet: the registrar office is still waiting on Ridgemoor & District FA's inter-association clearance, and until it comes in and the league registrar records a release, he stays ineligible for matches.",
       "PCL-0562 is not a release of EH-0319; Mbeki may train with Kestrel Park, but match play remains barred.",
       "Ellis Mbeki (PL-32-20863) remains barred from matches under eligibility hold EH-0319, pending Ridgemoor & District FA's reply to clearance request IAC-32-0331, which is due by 2032-04-23; his provisional clearance of 2032-04-08 covers training only."],
   C: ["Provisional clearance PCL-0562 lifted eligibility hold EH-0319, so Ellis Mbeki can play on 2032-04-17.",
       "Ridgemoor & District FA has sent Ellis Mbeki's full clearance, and he is now eligible to play for the Blues.",
       "Competitions secretary Lucia Ferreira placed eligibility hold EH-0319 on Ellis Mbeki.",
       "Eligibility hold EH-0319, placed on 2032-04-12 by the league registrar, keeps Ellis Mbeki out of matches until Ridgemoor & District FA's clearance arrives.",
       "Ellis Mbeki is under hold EH-0319 because he is still serving a suspension from his previous club.",
       "Although the league registrar released the hold on Ellis Mbeki on 2032-04-08, he still has to be named on the matchday team sheet before Saturday's quarter-final.",
       "The provisional clearance seems to have ended Ellis's hold, so he should be available for the cup tie."],
   O: ["Darren Pryce believes the provisional clearance email means Ellis Mbeki can play on Saturday.",
       "Ellis Mbeki joined Kestrel Park Juniors this season from Ridgemoor Town Youth.",
       "Ellis Mbeki's proof of age and photo ID were verified on 2032-04-08."]}},
 "LF2": {"heldout": {
   S: ["Roster change RC-32-0193 was made by assistant club secretary Femi Adeyemi under club secretary Helen Markham's written delegation DEL-KPJ-32-02, and it passed the authorization check.",
       "Jamie Holt and Sami Rahimi went to the Whites through a proper change: Femi Adeyemi holds the club secretary's lodged delegation for roster changes, and the head coach's agreement was not needed.",
       "Nobody overstepped on the Blues' squad list; the 7 April move of two players to the Whites (RC-32-0193) was an authorized change by the club's assistant secretary.",
       "RC-32-0193 took the U14 Blues from 18 to 16 registered players and is valid, since Helen Markham had delegated roster changes to Femi Adeyemi in writing, a delegation in force until 2032-07-31.",
       "The squad change Darren Pryce objects to was within the rules: it was made with the club secretary's written delegation, which is all a roster change needs."],
   C: ["Femi Adeyemi changed the U14 Blues roster without authority, so RC-32-0193 should be reversed.",
       "Roster change RC-32-0193 is invalid because head coach Darren Pryce did not consent to it.",
       "Club secretary Helen Markham made roster change RC-32-0193 herself.",
       "RC-32-0193 moved three players, Jamie Holt, Sami Rahimi and Toby Akande, to the U14 Whites.",
       "After roster change RC-32-0193 the U14 Blues have 14 registered players.",
       "Femi Adeyemi's delegation DEL-KPJ-32-02 had not been lodged with the registrar office when he made RC-32-0193 on 2032-04-07, though the change itself went through the system.",
       "Roster change RC-32-0193, made on 2032-04-07 by assistant club secretary Femi Adeyemi, moved Jamie Holt and Sami Rahimi from the U14 Whites to the U14 Blues."],
   O: ["Darren Pryce says someone at the club moved two of his players to the Whites without authority.",
       "Femi Adeyemi is Kestrel Park Juniors FC's assistant club secretary.",
       "The club committee decided on 2032-04-05 to balance the two U14 squads."]}},
 "LF3": {"heldout": {
   S: ["Age-group dispensation AGD-0093 covers Theo Vasquez for the Northvale Cup quarter-final against Millbrook Athletic on 2032-04-17 only.",
       "Theo Vasquez, an U13 player, may play up for the Blues in that one cup tie; his dispensation does not run for the rest of the season.",
       "Competitions secretary Lucia Ferreira granted AGD-0093 on 2032-04-10 because the Blues had only 10 available eligible players for the quarter-final; any other appearance by Theo Vasquez for the U14 side needs a fresh dispensation.",
       "AGD-0093 is a single-match dispensation, not a season-long one.",
       "Apart from the 17 April cup match, Theo is not cleared to turn out for the Blues, not even in the league game against the same opponents a week later."],
   C: ["AGD-0093 lets Theo Vasquez play for the U14 Blues for the rest of the season.",
       "Under dispensation AGD-0093, Theo Vasquez can play for the Blues in any match where they are short of players.",
       "League registrar Priya Nandakumar granted age-group dispensation AGD-0093.",
       "Dispensation AGD-0093 covers Theo Vasquez for the Blues' league match against Millbrook Athletic on 2032-04-24.",
       "Lucia Ferreira granted AGD-0093 on 2032-04-10 because the Blues had only 8 available eligible players for the quarter-final.",
       "AGD-0093 covers Theo Vasquez for the quarter-final on 2032-04-17 and also for any later Northvale Cup rounds the Blues reach.",
       "Theo Vasquez has a standing dispensation to play in the U14 age group this spring."],
   O: ["Darren Pryce asked whether Theo Vasquez's dispensation covers the rest of the season.",
       "Theo Vasquez is registered with Kestrel Park Juniors' U13 Reds.",
       "The Blues host Millbrook Athletic in the Northvale Cup quarter-final on 2032-04-17."]}},
 "LF4": {"heldout": {
   S: ["Callum Reyes's transfer TRF-32-0211 from Harrowgate Juniors FC has not taken effect: it was approved only on condition that Harrowgate return its signed release form, and that form has not arrived.",
       "Callum Reyes is still registered with Harrowgate Juniors and cannot play for Kestrel Park yet, because the conditional approval of 2032-04-06 is waiting on Harrowgate's release form.",
       "Transfers officer Graham Oduya's approval of TRF-32-0211 carries a condition that is still unmet, and if the release form is not in by 2032-05-06 the approval lapses.",
       "The 6 April decision did not complete Callum's move; without Harrowgate's release he remains their player.",
       "TRF-32-0211 is approved only subject to Form R2 from Harrowgate Juniors FC, which is outstanding, so Callum Reyes is not eligible for Kestrel Park on 2032-04-17."],
   C: ["Transfer TRF-32-0211 went through on 2032-04-06, so Callum Reyes is now a Kestrel Park Juniors player.",
       "Harrowgate Juniors FC has returned the signed release form, completing Callum Reyes's transfer.",
       "The league transfers officer refused Callum Reyes's transfer request TRF-32-0211.",
       "Callum Reyes's transfer was approved by league registrar Priya Nandakumar, subject to Harrowgate's release form.",
       "TRF-32-0211 was conditionally approved on 2032-04-16, and Callum Reyes stays a Harrowgate Juniors player until the release form arrives.",
       "The only condition on Callum Reyes's transfer is that Kestrel Park Juniors pay the outstanding balance of the Blues' entry fee.",
       "Callum ought to be able to play for Kestrel Park on Saturday, since his transfer looks to have been approved without conditions."],
   O: ["Darren Pryce thinks Callum Reyes's transfer went through when it was approved on 6 April.",
       "Club secretary Helen Markham submitted a transfer request for Callum Reyes on 2032-03-30.",
       "A transfer file, TRF-32-0211, is on record for Callum Reyes."]}},
 "LF5": {"heldout": {
   S: ["The U14 Blues' entry fee ENT-32-1406 is only partly paid: GBP 300 of GBP 450 has been received and GBP 150 is still owed.",
       "Kestrel Park Juniors still owes GBP 150 on the Blues' Spring 2032 entry; the league treasurer moved that team's deadline to 2032-04-30.",
       "Extension EXT-0071, to 2032-04-30, covers the U14 Blues alone, not the club's other teams, and the Blues' GBP 150 balance remains unpaid.",
       "A single GBP 300 payment on 2032-02-03 left GBP 150 of the Blues' GBP 450 entry fee outstanding.",
       "The Blues are not paid up, with a third of the fee still due, and only that team was given extra time, to the end of April."],
   C: ["The U14 Blues' team entry fee ENT-32-1406 has been paid in full.",
       "League treasurer Nadia Kowalczyk extended the fee deadline to 2032-04-30 for all Kestrel Park Juniors teams.",
       "GBP 150 of the Blues' GBP 450 entry fee has been paid, leaving GBP 300 outstanding.",
       "The Blues' entry fee balance of GBP 150 fell due on 2032-03-31 and is now overdue.",
       "The remaining GBP 150 on ENT-32-1406 must be paid by 2032-05-31 under extension EXT-0071.",
       "Kestrel Park Juniors paid GBP 300 towards ENT-32-1406 on 2032-02-03, and the league has since written off the remaining GBP 150.",
       "Extension EXT-0071 for the Blues' entry fee balance was granted by competitions secretary Lucia Ferreira."],
   O: ["Darren Pryce believes the Blues' entry fee is paid up.",
       "The Spring 2032 entry fee for each Kestrel Park Juniors team is GBP 450.",
       "Club secretary Helen Markham asked the league treasurer for more time on the Blues' entry fee."]}},
},
"marina-berths": {
 "MF1": {"heldout": {
   S: ["Declan Moorcroft's application WLA-31-0147 is third of 11 on the A pontoon waiting list, WL-A11, and no berth has been offered to him.",
       "A-04 has not gone to the Moorcrofts, who are further down the list: the berth was offered on 2033-04-07 to the applicant at position 1, who has until 2033-04-21 to reply.",
       "Being number 3 in the queue for a walk-ashore berth is not the same as having one; Declan will hold an A pontoon berth only once he accepts a written offer, and none has been made to him.",
       "Two applicants stand ahead of Declan Moorcroft on WL-A11, which he joined on 2031-11-17, so vacant berth A-04 went under offer OFR-0233 to the applicant at position 1 rather than to him.",
       "No A pontoon berth has been allocated to berth holder BH-2271; Declan Moorcroft's application is still waiting at position 3 of 11, with no offers received."],
   C: ["Declan Moorcroft is at the top of the A pontoon waiting list, and berth A-04 has been allocated to him.",
       "Berth A-04 was offered to Declan Moorcroft on 2033-04-07 under offer OFR-0233, and he has until 2033-04-21 to accept.",
       "Declan Moorcroft's application WLA-31-0147 is at position 1 of 11 on waiting list WL-A11.",
       "Application WLA-31-0147 stands at position 3 on WL-A11, and the applicant at position 1 must reply to the A-04 offer by 2033-04-12.",
       "The Moorcrofts have accepted offer OFR-0233 and now hold the licence for walk-ashore berth A-04.",
       "Although waiting list offers normally follow list order, the harbour master set that aside and gave A-04 to Declan Moorcroft on medical grounds, ahead of the two applicants above him.",
       "It looks as though Declan's place near the head of the queue has already secured him A-04, with only the paperwork left to do."],
   O: ["Sinead Moorcroft believes A-04 is theirs because Declan is at the top of the A pontoon waiting list.",
       "Walk-ashore berth A-04 on the A pontoon has been vacant since 2033-03-31.",
       "Sinead Moorcroft asked about Declan's place on the A pontoon waiting list."]}},
 "MF2": {"heldout": {
   S: ["Late-payment surcharge LPS-0418 was reduced, not cancelled: the harbour master halved it from GBP 159.20 to GBP 79.60 on 2033-04-05.",
       "The Moorcrofts still owe GBP 79.60 of the late fee on their 2033-34 renewal, payable by 2033-04-30.",
       "Declan's complaint about the renewal invoice going to his old email address won a 50% cut in the surcharge (adjustment ADJ-0112), not a waiver, so half of it is still due.",
       "Harbour master Morwenna Treloar cut the GBP 159.20 surcharge on invoice INV-33-1271 by half because the berth office had been slow to record the new email address; the other half still stands.",
       "The late fee has not gone away, it has only shrunk, from GBP 159.20 to GBP 79.60."],
   C: ["The late-payment surcharge on the C-14 renewal was cancelled after Declan Moorcroft complained.",
       "Adjustment ADJ-0112 wrote off the whole GBP 159.20 surcharge, so nothing more is owed on invoice INV-33-1271.",
       "Berth office manager Fergus Ogilvie reduced surcharge LPS-0418 to GBP 79.60 on 2033-04-05.",
       "The harbour master halved LPS-0418 to GBP 79.60, and the balance is due by 2033-05-30.",
       "Surcharge LPS-0418 was cut from GBP 159.20 to GBP 59.70.",
       "The harbour master halved the GBP 159.20 surcharge because the marina's card terminal had rejected the Moorcrofts' payment on the due date.",
       "Once the harbour master had looked into why the renewal invoice went astray, she decided the Moorcrofts should pay no surcharge at all, although the berth fee itself was still due and was paid on 2033-03-22."],
   O: ["Sinead Moorcroft thinks the late fee on their berth renewal was cancelled after Declan complained.",
       "The 2033-34 annual berth fee for C-14 was GBP 3,184.00, paid on 2033-03-22, three weeks after its due date.",
       "Declan Moorcroft asked the berth office to look again at the late-payment surcharge on his renewal."]}},
 "MF3": {"heldout": {
   S: ["Insurance restriction RST-0087 on Kittiwake II was lifted on 2033-04-03, and the boat is free to leave its berth.",
       "Kittiwake II is no longer restricted: a new Anchorline Marine certificate, ICR-33-0392, with GBP 3,000,000 of third-party cover was lodged and verified, and berth office manager Fergus Ogilvie lifted RST-0087 on 2033-04-03.",
       "The insurance problem is over; nothing now stops the Moorcrofts taking their yacht out or using the hoist and fuel berth.",
       "The restriction placed on 2033-03-03, after the old Harbourline Mutual certificate ran out on 2033-02-28, ended once the new policy, AMI-PL-558214, valid to 2034-03-31, had been checked.",
       "RST-0087 has been lifted, and no insurance restriction is in force on VSL-33-0418."],
   C: ["Kittiwake II is still restricted to berth C-14 under RST-0087 because of the insurance.",
       "The berth office rejected the new insurance certificate ICR-33-0392 because its third-party cover is below the marina minimum.",
       "Restriction RST-0087 was lifted on 2033-04-13, once the new certificate had been verified.",
       "Harbour master Morwenna Treloar lifted the insurance restriction on Kittiwake II on 2033-04-03.",
       "The new Anchorline Marine certificate gives Kittiwake II GBP 2,000,000 of third-party liability cover.",
       "Although the new certificate was lodged on 2033-04-02, RST-0087 remains in force until the berth office finishes verifying it.",
       "Kittiwake II was placed under restriction RST-0087 because of unpaid mooring fees."],
   O: ["Sinead Moorcroft believes Kittiwake II is still suspended over its insurance.",
       "Kittiwake II's old certificate from Harbourline Mutual expired on 2033-02-28.",
       "Vessels at Gullhaven Marina must carry at least GBP 3,000,000 of third-party liability insurance."]}},
 "MF4": {"heldout": {
   S: ["Only visitor booking VB-33-0561, for Halcyon, was cancelled; VB-33-0516, for Sea Wren, is still confirmed.",
       "Alun Pritchard's Sea Wren still has its rally berth: booking VB-33-0516 for visitor berth V-06 from 2033-05-02 to 2033-05-05 stands, with GBP 114.00 payable on arrival.",
       "The berth office did what was asked and no more: Priya Desai cancelled Halcyon's booking on 2033-04-08 after Declan's request, and the other rally booking was left untouched.",
       "VB-33-0516 and VB-33-0561 look alike, but the cancellation applied to VB-33-0561 alone.",
       "Sea Wren is still expected at Gullhaven for the Spring Rally; only Birgit Nyqvist's Halcyon booking was called off."],
   C: ["Both Spring Rally visitor bookings, VB-33-0516 and VB-33-0561, were cancelled.",
       "Visitor booking VB-33-0516 for Sea Wren was cancelled on 2033-04-08.",
       "The berth office cancelled VB-33-0516, while VB-33-0561 for Halcyon stays confirmed.",
       "Sea Wren's booking VB-33-0516 is confirmed on visitor berth V-06 from 2033-05-02 to 2033-05-05, with GBP 141.00 payable on arrival.",
       "Priya Desai cancelled Halcyon's booking VB-33-0561 on her own initiative, without any request from the Moorcrofts.",
       "VB-33-0516 remains confirmed for Sea Wren, but only for the nights of 2033-05-02 and 2033-05-03, the third night having been dropped when Halcyon's booking was cancelled.",
       "It seems the office cancelled the wrong rally booking, leaving Alun Pritchard's Sea Wren without a berth."],
   O: ["Sinead Moorcroft says the office cancelled both of their rally visitor bookings when they asked to cancel only one.",
       "Declan Moorcroft booked two visitor berths for friends coming to the Gullhaven Spring Rally.",
       "Sinead Moorcroft asked which of their rally visitor bookings had been cancelled."]}},
 "MF5": {"heldout": {
   S: ["Berth swap request BSW-0029 with Ruth Abernethy's B-09 was declined by the harbour master on 2033-04-02, and the Moorcrofts' appeal, APL-0011, is still open.",
       "The swap has not been approved: Kittiwake II is 3.45 m wide and B-09 takes no more than 3.30 m, so the harbour master turned it down, and Declan's appeal will be heard by the berthing committee on 2033-04-27.",
       "Nobody can move berths this Saturday: the swap was refused, and it can go ahead only if the berthing committee allows the pending appeal.",
       "Morwenna Treloar declined BSW-0029 because of Kittiwake II's beam; Declan Moorcroft appealed on 2033-04-06, and her decision stands until the committee rules.",
       "The C-14 and B-09 swap was turned down, not approved, and the appeal against that decision has not yet been decided."],
   C: ["Berth swap BSW-0029 was approved, so the Moorcrofts can move Kittiwake II to B-09 on Saturday.",
       "The berthing committee dismissed appeal APL-0011 on 2033-04-06, so the refusal of the swap is final.",
       "The harbour master declined BSW-0029 because the Moorcrofts' late-payment surcharge was still unpaid.",
       "BSW-0029 was declined on 2033-04-02 because Kittiwake II, at 9.85 m, is too long for B-09.",
       "Declan Moorcroft's appeal against the declined swap will be heard by the berthing committee on 2033-04-17.",
       "The berthing committee declined swap request BSW-0029, and Declan Moorcroft has appealed to the harbour master.",
       "Ruth Abernethy was right: the harbour master signed off the swap on 2033-04-02, subject only to a formal note at the berthing committee's meeting on 2033-04-27."],
   O: ["Sinead Moorcroft says Ruth Abernethy told her the berth swap to B-09 was approved.",
       "Ruth Abernethy holds annual berth B-09, where she keeps her boat Marram.",
       "The Moorcrofts asked to swap berths with Ruth Abernethy because B pontoon is nearer the shore gate."]}},
},
"bike-share": {
 "BF1": {"heldout": {
   S: ["E-bike EB-40718, which Tariq Wendell reported under DMG-5127, passed its inspection on 2034-02-20 and is back in service; no brake fault was found.",
       "Inspection INS-34-0917 measured the rear brake pad of EB-40718 at 2.1 mm, above the 1.5 mm minimum, and its stopping distance at 4.2 m, inside the 5.0 m limit, so the bike passed.",
       "Nothing on the e-bike Tariq reported needed fixing: the technician only noted that its rear pads should be swapped at the next routine service, due 2034-03-06, and it went straight back on the street.",
       "The advisory note on EB-40718 is not a defect; fleet technician Kwame Ostrowski found the brakes within tolerance, made no repair and returned the bike to service the day after the report.",
       "DMG-5127 was closed with no fault found, and EB-40718 was not kept off the road for repair."],
   C: ["EB-40718 failed its brake inspection and has been taken out of service for repair.",
       "Inspection INS-34-0917 found the rear brake pad of EB-40718 worn to 1.2 mm, below the 1.5 mm minimum.",
       "Fleet technician Kwame Ostrowski replaced the rear brake pads on EB-40718 before returning it to service on 2034-02-20.",
       "EB-40718 passed inspection INS-34-0917 within tolerance, but it is being kept at Depot North until its rear pads are replaced at the service due on 2034-03-06.",
       "Tariq Wendell's report was borne out: the inspection confirmed a weak rear brake on EB-40718 and logged it as a defect to be fixed at the next service.",
       "Fleet technician Kwame Ostrowski inspected EB-40718 on 2034-02-27 and passed it within tolerance.",
       "It looks as though the e-bike Tariq flagged did have a brake problem and is off the road for now, though the inspection record is brief."],
   O: ["Tariq Wendell believes the e-bike he reported on 19 February had failed brakes.",
       "Tariq Wendell filed damage report DMG-5127 about the rear brake of e-bike EB-40718.",
       "After DMG-5127 was filed, EB-40718 was collected from Mill Lane and taken to Depot North for inspection."]}},
 "BF2": {"heldout": {
   S: ["Overtime fee OTF-3317 was reduced from USD 16.75 to USD 5.50, not cancelled, and the USD 5.50 was charged on 2034-02-21.",
       "Support supervisor Renata Holmqvist cut the 17 February overtime fee by forgiving the 45 minutes Harbour Market was full; Tariq still paid USD 5.50 for the other 22 minutes.",
       "The fee on ride RD-87960 still stands in part: adjustment FA-0892 brought it down to USD 5.50, which went on the rider's card.",
       "The overtime charge from Tariq's 17 February ride was lowered, not dropped, and he has paid the smaller amount.",
       "RD-87960 ran 112 minutes, 67 past the 45 included, for an overtime fee of USD 16.75; FA-0892 of 2034-02-20 forgave the dock-full window from 18:02 to 18:47 and left USD 5.50, which was charged the next day."],
   C: ["Support supervisor Renata Holmqvist cancelled overtime fee OTF-3317 in full.",
       "After adjustment FA-0892 nothing is owed on ride RD-87960, and no overtime was ever charged.",
       "Overtime fee OTF-3317 was reduced from USD 16.75 to USD 5.50 by support agent Joel Pettersen.",
       "FA-0892 reduced the overtime fee on RD-87960 to USD 5.50, which is still waiting to be charged to Tariq's card.",
       "The overtime fee on ride RD-87960 was cut from USD 16.75 to USD 11.25.",
       "Because Harbour Market was full for the whole of his overtime, the supervisor forgave every overtime minute of the 17 February ride.",
       "The 2034-02-20 adjustment forgave the minutes when the destination station was full, and the USD 5.50 that remained was then refunded to Tariq's card on 2034-02-21."],
   O: ["Tariq Wendell thinks the overtime fee on his 17 February ride was cancelled.",
       "The Harbour Market station was full from 18:02 to 18:47 on 2034-02-17.",
       "Tariq Wendell asked about overtime fee OTF-3317 on ride RD-87960."]}},
 "BF3": {"heldout": {
   S: ["Suspension SUS-0418 was lifted early, on 2034-02-14, by rider compliance lead Odette Marchand, and Tariq Wendell's account has been active since then.",
       "The suspension ended more than a week ahead of schedule because Tariq finished the parking safety module, not because it was found to be wrong; parking incident PKI-0274 remains on his record until 2035-02-08.",
       "Lifting SUS-0418 early did not clear the parking strike: PKI-0274 is still on file.",
       "Tariq's 14-day suspension for leaving CB-0772 outside the Eastgate geofence, due to run until 2034-02-23, was cut short on 2034-02-14 after he completed the safety course the day before.",
       "He can ride again: the rider compliance lead ended SUS-0418 early once he had done the parking course, though the 8 February incident still counts against him for a year."],
   C: ["Tariq Wendell's account is still suspended under SUS-0418 until 2034-02-23.",
       "SUS-0418 was overturned as issued in error, and parking incident PKI-0274 has been removed from Tariq's record.",
       "Rider compliance officer Hugo Varela lifted suspension SUS-0418 early on 2034-02-14.",
       "Odette Marchand lifted the suspension early on 2034-02-14, and the parking incident behind it was cleared from the rider's record at the same time.",
       "Suspension SUS-0418 was lifted on 2034-02-19, after Tariq completed the parking safety module.",
       "SUS-0418 ran its full 14 days and expired on 2034-02-23.",
       "Since the suspension came off early, the parking strike behind it seems to have been withdrawn too, so Tariq starts again with a clean record."],
   O: ["Tariq Wendell thinks lifting his suspension early means it was a mistake.",
       "Parking incident PKI-0274 concerned classic bike CB-0772, left locked to a railing outside the Eastgate station geofence on 2034-02-08.",
       "Tariq Wendell asked about his account suspension, SUS-0418."]}},
 "BF4": {"heldout": {
   S: ["Plan change request PCR-0613 is on the E-Commuter waitlist at position 23; Tariq has not been given a place on the plan.",
       "Tariq is still on the Standard Annual plan: the E-Commuter plan is full, and his request sits 23rd in line with no offer made.",
       "Being number 23 in the queue is not a confirmed membership, so the E-Commuter plan has no 1 March start date for him.",
       "The move to the capped E-Commuter Annual plan, requested on 2034-02-16, is only waitlisted; until an offer is made and accepted, the Standard Annual plan at USD 96.00 a year stays in force.",
       "Nothing about Tariq's membership has changed yet, since PCR-0613 is only waitlisted."],
   C: ["Tariq Wendell's plan was switched to E-Commuter Annual, starting 2034-03-01.",
       "Memberships coordinator Yara Delacroix approved plan change request PCR-0613.",
       "PCR-0613 is on the E-Commuter waitlist at position 32.",
       "Tariq holds a confirmed place on the E-Commuter plan, number 23, and only needs to wait for his start date.",
       "Plan change request PCR-0613 was declined because the E-Commuter plan is full.",
       "PCR-0613 is waitlisted at position 23, and an offer was sent to Tariq on 2034-02-20 that he has seven days to accept.",
       "From the records, the E-Commuter switch appears to be confirmed, with Tariq's billing moving to USD 180.00 a year."],
   O: ["Tariq Wendell believes he is on the E-Commuter plan from 1 March.",
       "The E-Commuter Annual plan costs USD 180.00 a year and includes 60 e-bike minutes a day.",
       "Tariq Wendell asked about his request to change membership plans."]}},
 "BF5": {"heldout": {
   S: ["Ride credit RCR-2290 of USD 2.80 covers ride RD-88213 only; ride RD-88231 was not credited.",
       "Only the ride Tariq ended to report the brake, RD-88213 on EB-40718, had its fare refunded; his follow-on ride that morning, RD-88231, was charged USD 3.80 as normal.",
       "The credit does not cover both 19 February rides: Joel Pettersen refunded the USD 2.80 fare of RD-88213 on 2034-02-20, and the USD 3.80 for RD-88231 on EB-41206 stands.",
       "Of Tariq's two rides on 19 February, only the one on the reported e-bike got its fare back.",
       "RCR-2290 was issued for the ride that ended with damage report DMG-5127, and it does not extend to RD-88231 on EB-41206."],
   C: ["Ride credit RCR-2290 refunded both of Tariq Wendell's 19 February rides, RD-88213 and RD-88231.",
       "Ride credit RCR-2290 of USD 2.80 was applied to ride RD-88231.",
       "RCR-2290 refunded USD 3.80 for ride RD-88213 on EB-40718.",
       "The fault-report credit for RD-88213 was issued by support supervisor Renata Holmqvist.",
       "Tariq got his fare back for RD-88213, and the follow-on ride RD-88231 was credited as well, since it replaced the faulty bike.",
       "Ride credit RCR-2290 for RD-88213 was approved on 2034-02-20 but has not yet been refunded to Tariq's card.",
       "Ride RD-88231 on 2034-02-19 cost Tariq nothing, so no credit was needed for it."],
   O: ["Tariq Wendell thinks the credit he received covers both of his 19 February rides.",
       "On 2034-02-19 Tariq rode e-bike EB-40718 from Quayside to Mill Lane and then e-bike EB-41206 from Mill Lane to Harbour Market.",
       "Tariq Wendell asked about ride credit RCR-2290."]}},
},
"solar-install": {
 "HF1": {"heldout": {
   S: ["Installation job IJ-35-0619 was rescheduled, not cancelled; it now runs from 2035-07-08 to 2035-07-09.",
       "The Calloways' install is still going ahead: install scheduler Marta Lindqvist moved it to 8 and 9 July because the panels were backordered until 2035-07-02.",
       "The 9 June email only released the old 17 June slot; the same crew will put the system up in July, and the USD 1,000.00 deposit stays on the project.",
       "Nothing was called off: with panel delivery DLV-35-3318 now due on 2035-07-02, the roof work that had been booked for mid-June was pushed back about three weeks.",
       "IJ-35-0619 keeps Crew 3 and its permit; only its dates changed, from 2035-06-17 and 2035-06-18 to 2035-07-08 and 2035-07-09, after the supplier's backorder notice."],
   C: ["Installation job IJ-35-0619 has been cancelled, and the Calloways' USD 1,000.00 deposit is due back to them.",
       "Because the panels were backordered, the rooftop installation was moved to 2035-07-18 and 2035-07-19.",
       "Lead installer Dario Fenwick rescheduled the Calloways' installation on 2035-06-09 after the panel backorder.",
       "The install was pushed to July because the Harwell Falls building permit had not been issued, not because of any problem with the panels.",
       "Although the job record still names Crew 3, the June installation was cancelled outright, and a new order will have to be signed before anything is booked again.",
       "The installation goes ahead as first planned on 2035-06-17, since the panels are still due on 2035-06-12.",
       "It seems the install was taken off the calendar after the panel backorder and has not yet been given new dates."],
   O: ["Owen Calloway believes the installation is off because he got an email saying the appointment was cancelled.",
       "The 22 microinverters and the racking kit for the Calloways' system are already at the Amberlea warehouse.",
       "Owen Calloway asked whether the rooftop installation is still going ahead."]}},
 "HF2": {"heldout": {
   S: ["Rebate reservation RBT-35-07752 holds USD 3,157.00 for the project, but nothing has been paid yet.",
       "The state has not paid the Calloways' rebate: the USD 3,157.00 is only reserved under RBT-35-07752 and is paid after the system passes final inspection and the utility grants permission to operate.",
       "The letter Owen has confirms a reservation, not a payment; the Westmarch money comes only once the rebate coordinator files a completion claim after the utility lets the system operate.",
       "Until a completion claim goes in, the state money set aside for the project at 35 cents a watt stays unpaid, and it cannot be knocked off the contract price or the loan.",
       "RBT-35-07752 was reserved on 2035-06-02 and expires on 2035-12-02; its USD 3,157.00 has not been paid out."],
   C: ["The Westmarch State Energy Office paid the Calloways' USD 3,157.00 rebate on 2035-06-02.",
       "Rebate RBT-35-07752 has been paid and credited against the project's contract price.",
       "Rebate reservation RBT-35-07752 holds USD 3,517.00 for the project until it is claimed.",
       "The rebate reservation for the Calloways' system is good until 2035-11-30, after which the funds lapse unless a claim has been filed.",
       "The USD 3,157.00 rebate is reserved, and the state will pay it to Amberlea Solar once the rebate coordinator files the completion claim.",
       "With the rebate money already received, the amount the Calloways need to borrow can come down by USD 3,157.00.",
       "It appears the state has already released the rebate, since its confirmation went out on 2035-06-02."],
   O: ["Owen Calloway says the state has already paid the rebate and wants it taken off what they owe.",
       "The Westmarch Home Solar Rebate pays USD 0.35 per watt of DC capacity.",
       "Rebate coordinator Beatrix Holm handles the project's Westmarch Home Solar Rebate paperwork."]}},
 "HF3": {"heldout": {
   S: ["Pinecrest Valley Electric did not reject the first grid application: Amberlea withdrew IC-35-10482 on 2035-05-28 at the Calloways' request.",
       "Interconnection application IC-35-10482 was withdrawn by the applicant, not denied by the utility, after the change order dropped the garage panels; a new application, IC-35-10917, covers the 9.02 kW system.",
       "The 'withdrawn' status on the utility portal reflects Owen's own request of 26 May to refile for the smaller system; the utility never ruled on the 10.25 kW application.",
       "Interconnection coordinator Priyanka Osei pulled IC-35-10482 before the utility reviewed it, so there was no refusal, and its replacement IC-35-10917 has been with the utility for review since 2035-05-29.",
       "No utility refusal is on file; the original application was withdrawn on the homeowner's written request so it could be refiled."],
   C: ["Pinecrest Valley Electric rejected interconnection application IC-35-10482.",
       "The utility turned down the Calloways' first grid application as too large, so Amberlea had to refile it for 9.02 kW.",
       "Amberlea withdrew IC-35-10482 on its own initiative, without asking the homeowners.",
       "Interconnection application IC-35-10482 was withdrawn on 2035-05-28, and Pinecrest Valley Electric has since approved the replacement application IC-35-10917.",
       "At the Calloways' request, Amberlea withdrew IC-35-10917, the application for the 9.02 kW system.",
       "Owen Calloway asked on 2035-05-26 for the grid application to be withdrawn, but by then the utility had already refused IC-35-10482.",
       "Priyanka Osei withdrew IC-35-10482 on 2035-06-28, after the change order."],
   O: ["Owen Calloway thinks Pinecrest Valley Electric rejected the grid application.",
       "The utility's approval to interconnect is needed before the system is switched on.",
       "Owen Calloway asked what happened to the grid interconnection application."]}},
 "HF4": {"heldout": {
   S: ["The 74% solar access reading was taken before the maple was trimmed; re-measurement SHD-35-0187 after the trimming read 93%.",
       "After the Calloways' silver maple was cut back on 2035-05-20, site surveyor Tomasz Reyes measured the south roof again on 2035-05-23 and found 93% solar access, the figure the design uses.",
       "Owen is quoting an old number: the south roof got 74% in the 6 May survey only because the tree still overhung it, and the current design rests on the later 93% reading.",
       "The system was designed on 93% solar access for the south plane, from re-measurement SHD-35-0187, not on the pre-trim 74% from survey SVY-35-0442.",
       "Once the tree work was done, the south roof's sun exposure went from 74% to 93%."],
   C: ["The south roof gets only 74% solar access, and the system was designed on that figure.",
       "Re-measurement SHD-35-0187 on 2035-05-23 found the south roof's solar access at 84% after the maple was trimmed.",
       "The south roof measured 93% solar access before the maple was trimmed and 74% afterwards.",
       "The south roof was re-measured at 93% on 2035-05-23, but design DSN-35-2186-v2 still uses the 74% survey reading.",
       "Tomasz Reyes re-measured the south roof on 2035-05-13, a week before the maple was trimmed, and found 93% solar access.",
       "The maple at the south-west corner was never trimmed, so the 74% reading from the 6 May survey still describes the roof.",
       "Amberlea's own crew trimmed the silver maple on 2035-05-20, and the south roof then re-measured at 93%."],
   O: ["Owen Calloway worries that the roof gets only 74% sun and that the system will not make what was promised.",
       "The south roof plane has a 28-degree pitch and faces almost due south.",
       "Site surveyor Tomasz Reyes visited 14 Thornbury Lane on 2035-05-06 for site survey SVY-35-0442."]}},
 "HF5": {"heldout": {
   S: ["The USD 182.37 monthly payment in quote Q-35-2186-B is an estimate, not a final figure.",
       "Loan FIN-35-6630 with Cobalt Green Lending is credit-approved but not yet funded; the final monthly payment will be set when it funds after installation.",
       "Owen's USD 182.37 is the quote's estimate on USD 24,480.00 financed over 240 months at 6.49%; the lender fixes the real payment from the final contract price when the loan funds.",
       "Nothing about the loan payment is fixed yet: the lender sets it only when the loan funds after the installation, and until then the quoted figure is a projection.",
       "Quote Q-35-2186-B projects about USD 182.37 a month, but the amount financed and the payment become final only at funding, and no payment is due before the loan funds."],
   C: ["The Calloways' loan payment is fixed at USD 182.37 a month, with the first payment due on 1 July.",
       "Cobalt Green Lending funded loan FIN-35-6630 on 2035-05-30.",
       "Quote Q-35-2186-B estimates a monthly payment of USD 128.37 on USD 24,480.00 financed.",
       "The estimated payment in Q-35-2186-B assumes 6.49% APR over 15 years.",
       "The quote's USD 182.37 is an estimate, although the lender has already locked the amount financed at USD 24,480.00.",
       "Cobalt Green Lending declined the Calloways' credit application, so the financing quote no longer applies.",
       "It looks like the loan has been finalised at the quoted figure, so the USD 182.37 payment should hold."],
   O: ["Owen Calloway believes the loan payment is locked at USD 182.37 a month.",
       "Owen and Lena Calloway are both borrowers on the Cobalt Green Lending loan.",
       "Owen Calloway asked when the first loan payment is due."]}},
},
"animal-shelter": {
 "NF1": {"heldout": {
   S: ["Home visit HV-36-0218 was rescheduled, not cancelled, and is now set for 2036-01-21 at 17:30.",
       "The Marshes' application for Pepper, AP-36-0471, is still open; its home visit was only moved, from 2036-01-14 to 2036-01-21.",
       "Because the volunteer who was due to come fell ill, the coordinator pushed the Marshes' home check back a week to the evening of 21 January, and their request to adopt Pepper stays live in the meantime.",
       "The 'cancelled' email Helena Marsh got on 2036-01-13 was only the notice for the released 14 January slot; a second email minutes later gave the new booking, and HV-36-0218 is now with volunteer home visitor Sunita Rao on 2036-01-21.",
       "Nothing was called off: the home check for Pepper's application simply moved to Monday 21 January, and the application remains open."],
   C: ["Home visit HV-36-0218 was cancelled, and application AP-36-0471 for Pepper has been closed.",
       "The shelter cancelled the Marshes' home visit, so their application to adopt Pepper cannot go ahead.",
       "Home visit coordinator Dana Whitlock moved home visit HV-36-0218 to 2036-01-28 at 17:30.",
       "Home visit HV-36-0218 was moved to 2036-01-21 at the Marshes' request.",
       "The home visit for AP-36-0471 took place on 2036-01-14, and the Marshes' home passed.",
       "After volunteer home visitor Gareth Lowe went off sick, the home visit coordinator could not find anyone to replace him, so the visit for Pepper's application was dropped and the Marshes will have to book a new one themselves.",
       "It seems likely that the Marshes' home visit was cancelled outright rather than moved, though the booking history is not entirely clear."],
   O: ["Helena Marsh believes the shelter cancelled the home visit and that her application for Pepper is dead.",
       "A dog adoption at the Riverton shelter needs both an approved application and a passed home visit.",
       "Helena Marsh asked what has happened to the home visit for the Pepper application."]}},
 "NF2": {"heldout": {
   S: ["Application AP-36-0455 for the cat Juniper was withdrawn by co-applicant Tomas Marsh on 2036-01-09; the shelter did not decline it.",
       "No one at the shelter turned the Marshes down for Juniper: Tomas Marsh pulled that application himself through the adopter portal, saying they would go ahead with Pepper first.",
       "The Juniper application ended at the household's own request and was closed without any decision, so the Marshes are free to apply for her again.",
       "AP-36-0455 is marked withdrawn by the applicant, not refused.",
       "Tomas Marsh withdrew the cat application on 9 January before any reviewer looked at it, and Juniper (C36-0219) is still available for adoption."],
   C: ["The shelter declined the Marshes' application for Juniper, AP-36-0455.",
       "Application AP-36-0455 was withdrawn by Helena Marsh on 2036-01-09.",
       "AP-36-0455 was refused because the Marshes already have a cat at home.",
       "Tomas Marsh withdrew application AP-36-0455 through the adopter portal on 2036-01-19.",
       "Adoption counsellor Priya Nandakumar withdrew the Juniper application after the Marshes returned Otis.",
       "Because the Juniper application was turned down on 9 January, the household would need the adoption counsellor's approval before applying for another cat.",
       "The shelter appears to have rejected the Juniper application, although the record does not say why."],
   O: ["Helena Marsh thinks the shelter turned down her application for Juniper without explanation.",
       "The Marshes applied for the cat Juniper (C36-0219) on 2036-01-05.",
       "The Marsh household already has a cat, Biscuit, and had also applied for a second one, Juniper."]}},
 "NF3": {"heldout": {
   S: ["Pepper is still under medical hold MH-36-0093, which runs until 2036-01-24, so she cannot go home on Saturday 19 January.",
       "Shelter veterinarian Marguerite Osei placed MH-36-0093 on Pepper on 2036-01-10 for kennel cough; the hold is still active and lasts until 2036-01-24.",
       "Pepper no longer coughing has not lifted her hold: she has a two-week course of treatment to finish and a recheck on 2036-01-23, and she cannot leave before the hold ends on the 24th, and then only with the vet's clearance.",
       "The earliest Pepper could leave with an adopter is 2036-01-24, when her medical hold ends, and then only if the shelter veterinarian clears her.",
       "Pepper's medical hold is temporary, but its end date, 24 January, has not yet come."],
   C: ["Pepper's medical hold MH-36-0093 is over, so the Marshes can take her home on 2036-01-19.",
       "Medical hold MH-36-0093 ended on 2036-01-13, when Pepper stopped coughing.",
       "Pepper's medical hold MH-36-0093 runs until 2036-01-17.",
       "Home visit coordinator Dana Whitlock placed medical hold MH-36-0093 on Pepper.",
       "Pepper was put on medical hold MH-36-0093 on 2036-01-10 after testing positive for heartworm.",
       "Pepper passed her recheck on 2036-01-23, and the shelter veterinarian has ended her medical hold.",
       "With her cough gone and the vet's recheck apparently brought forward, Pepper's hold may well have been lifted already, so a weekend pickup looks possible once the record is updated."],
   O: ["Helena Marsh believes Pepper's medical hold is over and wants to collect her on Saturday 19 January.",
       "A kennel volunteer told Helena Marsh that Pepper had stopped coughing.",
       "Pepper (D36-0142) is a terrier mix of about three years, kept in the shelter's isolation ward."]}},
 "NF4": {"heldout": {
   S: ["Fee sponsorship FS-36-0027 of USD 100 is only reserved for Pepper's adoption and has not been paid.",
       "The Friends of Riverton Animal Shelter have set aside USD 100 toward Pepper's USD 175 fee, but the money moves only when an adoption contract is signed, so the adopter would still pay USD 75 at signing.",
       "Nobody has paid Pepper's adoption fee yet: the Friends' USD 100 sponsorship is a reservation that holds until 2036-02-12.",
       "FS-36-0027 was reserved on 2036-01-12 and will be paid to the shelter only once a contract for Pepper is signed; it covers USD 100 of the fee, not all of it.",
       "Pepper would not come free: the Friends' contribution to her fee is earmarked, not yet handed over, and leaves a USD 75 balance for the adopter."],
   C: ["The Friends of Riverton Animal Shelter paid Pepper's adoption fee in full through sponsorship FS-36-0027.",
       "Sponsorship FS-36-0027 of USD 100 was paid to the shelter on 2036-01-12.",
       "FS-36-0027 covers the whole USD 175 adoption fee for Pepper, so the Marshes owe nothing.",
       "Sponsorship FS-36-0027 puts USD 150 toward Pepper's fee, leaving a balance of USD 25.",
       "FS-36-0027 has been applied to Pepper's adoption, and the USD 75 balance has already been taken from the Marshes.",
       "The Friends' USD 100 sponsorship for Pepper is reserved only until 2036-01-24 and lapses if no contract has been signed by then.",
       "Although the Friends reserved their sponsorship on 2036-01-12 and have since transferred the USD 100 to the shelter, the other USD 75 of Pepper's fee is due only when the adoption contract is signed."],
   O: ["Helena Marsh believes the Friends of the shelter have paid Pepper's fee and that the household owes nothing.",
       "The shelter's adoption fee for an adult dog, USD 175, includes spay, vaccinations and a microchip.",
       "Adoption fee sponsorships at the shelter come from the Friends of Riverton Animal Shelter's Home Stretch fund."]}},
 "NF5": {"heldout": {
   S: ["Otis's pre-adoption assessment, BA-35-1204 of 2035-12-11, found him calm with the test cat; the 'not suitable for homes with cats' result comes from BA-36-0031, done on 2036-01-08 after his return.",
       "The shelter had no cat warning on Otis when the Marshes adopted him: the finding that he should not live with cats was made only after they brought him back.",
       "In December behaviour coordinator Lena Okafor judged Otis fine for a home with a calm adult cat; her reassessment on 8 January, two days after the return, reversed that.",
       "BA-36-0031, the post-return reassessment, is where Otis's 'no cats' rating comes from; his December assessment, BA-35-1204, raised no concern about cats.",
       "Otis's profile says 'no cats' because of the assessment done after the Marshes returned him on 2036-01-06, not because of anything recorded before his adoption on 2035-12-20."],
   C: ["Otis's assessment before his adoption, BA-35-1204, already rated him not suitable for homes with cats.",
       "The shelter knew Otis was unsafe with cats before the Marshes adopted him and did not tell them.",
       "Otis's 'no cats' rating comes from assessment BA-36-0031, carried out on 2035-12-11, before his adoption.",
       "Otis's reassessment after his return, BA-36-0031, found him calm with the test cat, just as his December assessment had.",
       "Otis's pre-adoption assessment BA-35-1204 on 2035-12-11 included no cat test, so nothing was known then about how he behaves with cats.",
       "Foster coordinator Ravi Chandran carried out both of Otis's behaviour assessments.",
       "Read together, the two assessments suggest the concern about cats was probably already noted in December and merely confirmed after Otis came back."],
   O: ["Helena Marsh believes the shelter knew before the adoption that Otis was not safe with cats.",
       "The Marshes returned Otis (D35-0877) to the shelter on 2036-01-06, and he now lives with volunteer foster carer Ines Duarte.",
       "Helena Marsh complained that Otis's profile now says 'no cats' and that nobody told her."]}},
},
"driving-school": {
 "DF1": {"heldout": {
   S: ["The GBP 84.00 for Zofia's cancelled mock test lesson is held on the Brennans' family account as lesson credit LC-37-0219; it was not refunded to Declan Brennan's card.",
       "Nothing has gone back to the Visa ending 4417: when the school called off the 24 March mock test because the instructor was ill, it kept the GBP 84 as credit on account FA-20583 for later lessons.",
       "Lesson credit LC-37-0219, created by accounts officer Mina Sorensen on 2037-03-24 after lesson LS-37-11842 was cancelled, still shows GBP 84.00 available and no card refund; the 'refund processed' email meant a credit, not money back.",
       "Declan's money for the lesson the school called off sits with Brightlane as a balance he can spend on further driving lessons or test-day hire; it would be paid back to his card only if he asked in writing after Zofia finishes her course.",
       "The statement for FA-20583 lists no card refunds; the GBP 84.00 of payment PAY-37-3318 now shows as a lesson credit held on account."],
   C: ["The GBP 84.00 for the cancelled mock test lesson was refunded to Declan Brennan's Visa ending 4417 on 2037-03-24.",
       "Lesson credit LC-37-0219 was paid back to the card on file, so the family account no longer holds any credit.",
       "The school cancelled Zofia's mock test lesson LS-37-11842 and is holding lesson credit LC-37-0219 of GBP 48.00 on the family account.",
       "Lesson LS-37-11842 was cancelled because Zofia did not turn up, and the GBP 84.00 was kept as a lesson credit.",
       "Since the mock test lesson was cancelled by the school, the GBP 84.00 is on its way back to Declan Brennan's card and should reach it within a few working days, as the refund email said.",
       "Although LC-37-0219 was first recorded as a credit on the family account, accounts officer Mina Sorensen has since turned it into a card refund, which is why the 'refund processed' email went out.",
       "It looks as though the GBP 84 was most likely refunded to the card rather than kept by the school, although the payment may still be in transit."],
   O: ["Declan Brennan believes the GBP 84 for Zofia's cancelled mock test lesson was refunded to his card.",
       "Zofia's mock test lesson on 2037-03-24 was booked as a two-hour session with instructor Priya Anand.",
       "Declan Brennan asked why the money for the cancelled mock test lesson has not reached his card."]}},
 "DF2": {"heldout": {
   S: ["Transfer TRF-37-0066 moved 3 unused lessons from Callum's package PK-37-0412 to Zofia's package PK-37-0587, not the other way round.",
       "The three lessons went the way Declan Brennan asked: out of Callum's finished package and into Zofia's, which rose from 2 lessons left to 5.",
       "On 2037-03-16 accounts officer Mina Sorensen credited Zofia with the three lessons her brother had not used before passing his test.",
       "Zofia gained lessons in the March transfer rather than losing them: her package PK-37-0587 received 3 from her brother's, and Callum's package PK-37-0412 is now closed with none left.",
       "The statement line that worried Declan names PK-37-0412 as the source of the three lessons; Callum's leftover lessons now belong to Zofia."],
   C: ["Transfer TRF-37-0066 moved 3 lessons from Zofia's package PK-37-0587 to Callum's package PK-37-0412.",
       "Three of Zofia's lessons were wrongly moved onto Callum's package, even though Callum had already passed his test.",
       "TRF-37-0066 moved 5 unused lessons from Callum's package to Zofia's.",
       "Callum's three unused lessons were transferred to Zofia's package on 2037-03-16 by bookings coordinator Kieran Walsh.",
       "Callum's three leftover lessons reached Zofia's package PK-37-0587 on 2037-03-26.",
       "After transfer TRF-37-0066, which took Zofia's package from 5 lessons left down to 2, Callum's package PK-37-0412 was closed.",
       "Going by the package records, it seems the three lessons probably ended up on Callum's package rather than Zofia's."],
   O: ["Declan Brennan thinks the office moved three of Zofia's lessons onto Callum's package by mistake.",
       "Callum Brennan passed his practical driving test on 2037-03-11.",
       "Declan Brennan asked about a transfer of lessons between his two children's packages."]}},
 "DF3": {"heldout": {
   S: ["Zofia did not pass her theory test first time: she failed on 2037-02-09 and passed on her second attempt on 2037-03-02.",
       "Her theory certificate TC-8841-2093 comes from the 2 March pass and is valid until 2039-03-01, not February 2039.",
       "At the 9 February sitting Zofia scored 39 of 75 on hazard perception, five below the pass mark of 44, so no certificate was issued; she passed both parts at her next attempt, TA-37-0498.",
       "It took Zofia two goes to get through the theory test, and her certificate dates from the successful resit in early March 2037.",
       "Theory certificate TC-8841-2093 was issued for attempt TA-37-0498, Zofia's second; her first attempt, TA-37-0311, was a fail."],
   C: ["Zofia passed her theory test at the first attempt on 2037-02-09.",
       "Zofia's theory certificate TC-8841-2093 is valid until 2039-02-08.",
       "Zofia failed the multiple choice part on 9 February but passed hazard perception; she passed both parts on 2037-03-02.",
       "Zofia passed her theory test on her second attempt, on 2037-03-12, and certificate TC-8841-2093 runs until 2039-03-11.",
       "Zofia has failed the theory test twice, so she has no valid theory certificate yet.",
       "On her first attempt Zofia scored 45 of 50 on the multiple choice and 57 of 75 on hazard perception, passing both and earning certificate TC-8841-2093.",
       "The records suggest that Zofia's theory pass probably dates from her February sitting, with the March test only a practice run."],
   O: ["Declan Brennan believes Zofia passed her theory test first time on 9 February.",
       "Zofia sat her theory tests at the Northvale theory test centre.",
       "On 2037-02-09 Zofia scored 45 of 50 on the multiple choice part of the theory test, above the pass mark of 43."]}},
 "DF4": {"heldout": {
   S: ["Instructor change request ICR-37-0154 was approved with changes: Zofia moves to Tom Keller, but on Tuesdays and Thursdays at 18:00 from 2037-04-07, not on Saturday mornings.",
       "Office manager Rosalind Achebe agreed to the switch to Tom Keller on 2037-03-30 but did not grant the Saturday slots, because he has none free before July.",
       "Tomorrow's lesson, Saturday 4 April at 09:00, is still with Priya Anand; Zofia's lessons with Tom Keller begin on Tuesday 7 April and run on Tuesday and Thursday evenings, because the office manager changed the Saturday request.",
       "The family got Tom Keller as Zofia's instructor, just not at the times they asked for: weekday evenings replace the Saturday mornings in the request.",
       "ICR-37-0154 was not approved as submitted; the office manager agreed to the new instructor but changed the days to Tuesday and Thursday evenings."],
   C: ["Instructor change request ICR-37-0154 was approved as asked, so Zofia has lessons with Tom Keller on Saturday mornings from 2037-04-04.",
       "Zofia's lesson on Saturday 2037-04-04 at 09:00 is with Tom Keller.",
       "Office manager Rosalind Achebe declined the request to move Zofia to Tom Keller, so she stays with Priya Anand.",
       "ICR-37-0154 moved Zofia from Tom Keller to Priya Anand, with lessons on Tuesdays and Thursdays at 18:00.",
       "The switch to Tom Keller was approved with changes by bookings coordinator Kieran Walsh, with lessons on Tuesday and Thursday evenings.",
       "Zofia moves to Tom Keller on Tuesday and Thursday evenings at 18:00, starting on 2037-04-14, after the office manager approved the change on 2037-03-30.",
       "While the office manager did adjust the request, moving Zofia to Tom Keller only from 7 April, she kept the Saturday morning slot the family asked for."],
   O: ["Declan Brennan believes Zofia's switch to Tom Keller on Saturday mornings was approved.",
       "Tom Keller was Callum Brennan's driving instructor.",
       "Declan Brennan asked for Zofia to change instructor so that she could have the one who taught her brother."]}},
 "DF5": {"heldout": {
   S: ["Zofia's practical test PT-4471-9920 is still on 2037-04-28 at 08:40, but at Harrow Lane Driving Test Centre instead of Kellbrook.",
       "The test was not cancelled: because Kellbrook is shut from 20 April to 8 May for building works, the driving test service moved it to Harrow Lane, keeping the same date, time and booking reference.",
       "Under notice TCN-37-0032, Zofia's test on 28 April has been switched to Harrow Lane; nothing else about the booking changed.",
       "Zofia should go to Harrow Lane, not Kellbrook, for her 08:40 test on 28 April; the Northvale Driving Test Service made the swap for every Kellbrook test in the closure period.",
       "Booking PT-4471-9920 keeps its date and time; only the test centre has changed, from Kellbrook to Harrow Lane."],
   C: ["Zofia's driving test PT-4471-9920 is at Kellbrook Driving Test Centre on 2037-04-28 at 08:40.",
       "Because Kellbrook is closing, Zofia's practical test PT-4471-9920 has been cancelled and must be rebooked.",
       "Zofia's test has moved to Harrow Lane Driving Test Centre and to a new date, 2037-05-12.",
       "The test at Harrow Lane keeps the same date, 2037-04-28, but now starts at 10:40.",
       "Brightlane's bookings coordinator Kieran Walsh moved Zofia's test from Kellbrook to Harrow Lane to get an earlier slot.",
       "Notice TCN-37-0032 moved Zofia's test from Harrow Lane to Kellbrook Driving Test Centre, keeping the same date and time.",
       "Although the Northvale Driving Test Service has announced building works at Kellbrook, they do not start until after 28 April, so Zofia's 08:40 test there is unaffected."],
   O: ["Declan Brennan believes Zofia's driving test on 28 April is at Kellbrook.",
       "Zofia will take her practical test in a Brightlane school car, and the GBP 62.00 test fee has been paid.",
       "Declan Brennan asked whether Tom Keller could give Zofia a warm-up lesson before her driving test."]}},
},
"print-shop": {
 "QF1": {"heldout": {
   S: ["Proof PRF-38-0417-1 of the spring catalogue was approved with changes, not as is: on 2038-01-08 brand manager Colette Ardern asked for two corrections before anything could be printed.",
       "Colette Ardern's sign-off on 8 January came with two edits she required, a Tarn 2 tent price of USD 279 on page 14 and the updated store map on page 31, so the first proof could not be used for printing.",
       "The catalogue went on press on 2038-01-12 from revised proof PRF-38-0417-2, which showed both requested changes and which Colette Ardern approved as is on 2038-01-11; the first proof had only been approved with changes.",
       "The first proofing round did not clear the job for the press: its approval carried edits to pages 14 and 31, and only the second round, signed off on 11 January, released it.",
       "Nothing could be printed from the 8 January proof, because the brand manager approved it subject to changes rather than as it stood."],
   C: ["Brand manager Colette Ardern approved proof PRF-38-0417-1 as is on 2038-01-08, so the catalogue could have gone to press that day.",
       "The spring catalogue was printed from the first proof, PRF-38-0417-1, with no changes requested.",
       "Marketing coordinator Imogen Tate approved proof PRF-38-0417-1 with changes on 2038-01-08.",
       "Colette Ardern approved the first proof with changes to pages 14 and 31, and revised proof PRF-38-0417-2 is still waiting for her approval.",
       "The page 14 correction on proof PRF-38-0417-1 took the Tarn 2 tent price down from USD 279 to USD 249.",
       "After the first proof came back approved with changes, prepress sent revised proof PRF-38-0417-2, which Colette Ardern approved as is on 2038-01-18, and the catalogue went on press the next day.",
       "Colette Ardern's 8 January approval seems to have asked for nothing more than optional notes, so the press was probably free to start that day and the lost days look like Ambergate's doing."],
   O: ["Imogen Tate believes Colette Ardern approved the catalogue proof as it was on 8 January and that the rush days were wasted.",
       "Colette Ardern, Wexcombe & Vane's brand manager, is the account's named proof approver.",
       "Imogen Tate asked why the spring catalogue did not go to press on 8 January."]}},
 "QF2": {"heldout": {
   S: ["Poster reprint RP-38-0061 failed its first press check, PC-38-0155, but passed the second, PC-38-0156, the same morning after the press was recalibrated.",
       "The posters are fixed: press supervisor Nadia Okonjo signed off the reprint's second press check, and the 400 reprinted A1 posters were delivered on 2038-01-18.",
       "The 'failed' email Imogen Tate received on 15 January reported only the first colour check (magenta Delta E 5.6, over the 3.0 limit); the check was repeated that morning, read 1.7, and passed.",
       "RP-38-0061 got through its colour check at the second try: PC-38-0156 passed at 11:25 on 2038-01-15 and the run went ahead.",
       "After one failed press check and a recalibration, the reprint of the misregistered posters passed, was run at Ambergate's cost and reached the distribution centre on 18 January."],
   C: ["Poster reprint RP-38-0061 failed its press check, so the in-store posters have still not been reprinted.",
       "Both press checks on reprint RP-38-0061 failed, and the reprint is waiting for a third attempt.",
       "Reprint RP-38-0061 passed its first press check, PC-38-0155, on 2038-01-15.",
       "Production manager Rosalind Haverty signed off press check PC-38-0156 on the poster reprint.",
       "The reprinted posters passed their second press check on 2038-01-15 and were delivered on 2038-01-28.",
       "The first press check on the poster reprint failed with a magenta Delta E of 5.6 against a 3.0 maximum, and Wexcombe & Vane is being charged for the reprint run that followed.",
       "Although the reprint's second press check is recorded as passed, the 400 posters appear not to have left Ambergate yet."],
   O: ["Imogen Tate says Ambergate's email of 15 January told her the poster reprint had failed its colour check.",
       "The first run of the A1 in-store posters, order ORD-38-0388, was misregistered, and the customer reported it on 2038-01-12.",
       "Imogen Tate asked whether the poster reprint has been finished."]}},
 "QF3": {"heldout": {
   S: ["The USD 450 rush fee on order ORD-38-0417 was credited to Wexcombe & Vane's account as credit note CN-38-0144, not refunded to the card.",
       "Nothing has gone back to the Visa card ending 4417: account manager Rhodri Pellow issued the rush fee credit on 2038-01-20 as a USD 450.00 balance held on account CU-61530 for future orders.",
       "CN-38-0144 sits on the account as credit; the money would go back to the card only if the customer's accounts payable contact asked in writing, and no such request has been made.",
       "Ambergate gave the USD 450 rush fee back as account credit, while card payment PAY-38-0912 of 2038-01-06 stands with no refund against it.",
       "The rush fee came back as credit usable against future orders, not as a card refund."],
   C: ["The USD 450 rush fee on order ORD-38-0417 was refunded to the customer's Visa card on 2038-01-20.",
       "Credit note CN-38-0144 returned the rush fee to the card that paid for the order.",
       "Account manager Rhodri Pellow credited USD 540.00 to account CU-61530 as credit note CN-38-0144.",
       "Press supervisor Nadia Okonjo issued credit note CN-38-0144 for the rush fee.",
       "Ambergate kept the USD 450 rush fee on order ORD-38-0417 and issued no credit for it.",
       "Account manager Rhodri Pellow issued credit note CN-38-0144 for the USD 450 rush fee on 2038-01-20 and sent the money back to the Visa card ending 4417 the following day.",
       "It looks as though the rush fee has already been paid back to Wexcombe & Vane's card, going by Ambergate's 20 January email about the credit."],
   O: ["Imogen Tate believes Ambergate refunded the rush fee to Wexcombe & Vane's card.",
       "Order ORD-38-0417 was a rush job, and its USD 450 rush fee was paid by Visa card on 2038-01-06 with the rest of the order.",
       "Imogen Tate asked what happened to the rush fee on the catalogue order."]}},
 "QF4": {"heldout": {
   S: ["Artwork transfer AT-38-0019 was inbound: Corbel Litho sent Wexcombe & Vane's stored artwork to Ambergate, where it was received on 2038-01-05.",
       "Ambergate did not send the customer's artwork to Corbel Litho; the files came the other way, from the old printer to Ambergate, on brand manager Colette Ardern's written instruction of 2038-01-04.",
       "The catalogue template, the logo masters and the 3 packaging dielines were received from Corbel Litho under AT-38-0019 and are kept in Ambergate's archive ART-61530, with no release to any other printer on record.",
       "Wexcombe & Vane's former printer handed its artwork over to Ambergate at the customer's own written request, and nothing has left Ambergate's archive.",
       "The log line Imogen Tate saw records an incoming transfer from Corbel Litho, which Colette Ardern had asked for in writing, not an outgoing one."],
   C: ["Ambergate sent Wexcombe & Vane's stored artwork to Corbel Litho under transfer AT-38-0019.",
       "Artwork transfer AT-38-0019 moved the customer's catalogue template and logo masters from Ambergate's archive to its former printer, Corbel Litho, on 2038-01-05.",
       "The artwork transfer between Ambergate and Corbel Litho was made without any instruction from Wexcombe & Vane.",
       "Imogen Tate instructed artwork transfer AT-38-0019 in writing on 2038-01-04.",
       "Corbel Litho sent the stored artwork to Ambergate on 2038-01-15 under AT-38-0019, at Colette Ardern's written instruction.",
       "AT-38-0019 brought in the catalogue template, the logo masters and 5 packaging dielines from Corbel Litho.",
       "From the transfer log it seems Ambergate released a copy of the customer's artwork to Corbel Litho after first receiving it from there."],
   O: ["Imogen Tate believes Ambergate sent the stored artwork to Corbel Litho without asking.",
       "Corbel Litho was Wexcombe & Vane's printer before Ambergate.",
       "Imogen Tate asked about a transfer log entry that names Corbel Litho."]}},
 "QF5": {"heldout": {
   S: ["Only 3,600 of the 6,000 spring catalogues on order ORD-38-0417 have been delivered.",
       "Three of the five store drops, 1,200 catalogues each, were delivered on 2038-01-19 and 2038-01-20; the Millbridge and Fellgate copies have not gone out yet.",
       "The 20 January carrier notice covered only the Oakhurst Park drop; 2,400 catalogues are still waiting on the bindery and are due on 2038-01-26.",
       "Not every store has its catalogues: the saddle stitcher broke down on 2038-01-14 after 3,600 copies were bound, so two stores' 2,400 copies are still to come.",
       "ORD-38-0417 is partially delivered, 3,600 copies in the stores and 2,400 outstanding."],
   C: ["All 6,000 spring catalogues were delivered to the stores by 2038-01-20.",
       "Catalogue order ORD-38-0417 has been delivered in full.",
       "Only 2,400 of the 6,000 catalogues have been delivered, and the remaining 3,600 are due on 2038-01-26.",
       "Three of the five store drops have been delivered, and the last 2,400 catalogues are due on 2038-01-29.",
       "The 2,400 undelivered catalogues for Millbridge and Fellgate have not been printed yet and will go on press once the bindery is repaired.",
       "Four of the five store drops have been delivered; only Fellgate's 1,200 copies are outstanding.",
       "The catalogues probably all reached the stores by 20 January, since the carrier's notice that day said the consignment had been delivered."],
   O: ["Imogen Tate believes all 6,000 catalogues were delivered on 20 January.",
       "All 6,000 copies of the spring catalogue were printed on Press 2 on 2038-01-12 and 2038-01-13.",
       "Imogen Tate asked whether the spring catalogues have reached every store."]}},
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
 "permit-review": ["Odile Baptiste of Millbrook Row LLC (APL-6093) raised her questions on help-desk ticket PD-77412.",
                   "The assistant may only look things up; it must not schedule inspections, change records or message the applicant.",
                   "The agent read the permit, the ticket, the stop-work hold, the structural revision and its review notice, the project contacts, the fee waiver, the variance, the phase 2 review and the inspection list.",
                   "Help-desk ticket PD-77412 is still open."],
 "sample-custody": ["Dr. Felix Amundsen of the Varga lab (LAB-0412) raised his questions on custody desk ticket SCD-30418.",
                    "The assistant may only look things up; it must not release holds, edit custody records, book couriers or message the researcher.",
                    "The agent read the ticket, the SS-2207 sample set, the quarantine hold, the swab notice, the custody amendment, the lab roster, the access exception, the transfer request, the courier booking and the custody log.",
                    "Custody desk ticket SCD-30418 is still open."],
 "grain-coop": ["Brenna Hollis of Hollis Family Farms (member M-20417) raised her questions on member services ticket MSD-51207.",
                "The assistant may only look things up; it must not release holds, issue payments, change contracts or move grain.",
                "The agent read the ticket, the member account, the corn delivery ticket, the quality hold, the grade appeal, the advance payment, the contract amendment, the drying charge waiver, the storage transfer request and the soybean contract's deliveries.",
                "Member services ticket MSD-51207 is still open."],
 "artwork-loan": ["Camille Duarte, registrar of the Marlowe Institute of Art, raised her questions on registrar desk ticket RGD-4127.",
                  "The assistant may only look things up; it must not release holds, clear shipments, issue refunds or change loan records.",
                  "The agent read the ticket, the loan record, the committee approval, the conservation hold, the treatment record, both condition reports, the deadline extension, the refund, the crate invoice and the courier travel booking.",
                  "Registrar desk ticket RGD-4127 is still open."],
 "tenancy-deposit": ["Daniel Okafor (tenant T-40917) raised his questions on help-desk ticket HD-31-40562.",
                     "The assistant may only look things up; it must not issue refunds, release deposits, change leases, close or reopen work orders, or message the tenant.",
                     "The agent read the ticket, the tenant account, the Marlowe Street deposit and its return, both shower leak work orders, the Quayside Court tenancy and its lease variation, the pet request, the addendum's signatures, the refund and the Marlowe Street rent ledger.",
                     "Help-desk ticket HD-31-40562 is still open."],
 "youth-league": ["Darren Pryce, head coach of Kestrel Park Juniors U14 Blues, raised his questions on registrar office ticket RD-60318.",
                  "The assistant may only look things up; it must not release holds, decide transfers, change rosters or record payments.",
                  "The agent read the ticket, the U14 Blues team record, Ellis Mbeki's registration, the eligibility hold, the provisional clearance, the roster change, the club's officials, the age-group dispensation, the transfer, the team entry and the Blues' fixtures.",
                  "Registrar office ticket RD-60318 is still open."],
 "marina-berths": ["Sinead Moorcroft, joint holder of annual berth C-14 (berth holder BH-2271), raised her questions on berth office ticket BO-33-0784.",
                   "The assistant may only look things up; it must not allocate berths, decide swaps, change fees, lift restrictions or cancel bookings.",
                   "The agent read the ticket, the berth holder record, Kittiwake II's vessel record, the A pontoon waiting list application, berth A-04, the renewal invoice and its surcharge adjustment, the insurance restriction and the new certificate, both rally visitor bookings, and the berth swap request and its appeal.",
                   "Berth office ticket BO-33-0784 is still open."],
 "bike-share": ["Tariq Wendell (rider account HB-20931) raised his questions on rider support ticket RSD-74215.",
                "The assistant may only look things up; it must not adjust fees, issue credits, lift suspensions, change plans or message the rider.",
                "The agent read the ticket, the rider account, the February rides, the damage report, the bike inspection, the ride credit, the second 19 February ride, the overtime fee, the Harbour Market station log, the suspension, the parking incident and the plan change request.",
                "Rider support ticket RSD-74215 is still open."],
 "solar-install": ["Owen Calloway (customer CU-48213, project PRJ-35-2186) raised his questions on customer desk ticket CSD-58904.",
                   "The assistant may only look things up; it must not move jobs, file or withdraw applications, claim rebates, change loans or message the customer.",
                   "The agent read the ticket, the customer account, the project, the installation job, the panel delivery, the customer notices, both interconnection applications, the change order, the site survey, the shading re-measurement, the rebate reservation and the financing plan.",
                   "Customer desk ticket CSD-58904 is still open."],
 "animal-shelter": ["Helena Marsh (adopter record ADP-30417) raised her questions on adoption desk ticket ADK-60912.",
                    "The assistant may only look things up; it must not decide applications, book home visits, end medical holds, record payments or message adopters.",
                    "The agent read the ticket, the adopter record, both adoption applications, the home visit, Pepper's animal record, her medical hold, the fee sponsorship, Otis's return record, both of his behaviour assessments and his foster placement.",
                    "Adoption desk ticket ADK-60912 is still open."],
 "driving-school": ["Declan Brennan (family account FA-20583) raised his questions about his daughter Zofia on office ticket OFC-37-2290.",
                    "The assistant may only look things up; it must not refund, move lessons, assign instructors, book or move tests, or message payers.",
                    "The agent read the ticket, the family account, the cancelled lesson, the lesson credit, the account statement, both lesson packages, the package transfer, the instructor change request, Zofia's theory attempts and certificate, the test booking and the test centre notice.",
                    "Office ticket OFC-37-2290 is still open."],
 "print-shop": ["Imogen Tate, marketing coordinator at Wexcombe & Vane Outdoor (customer account CU-61530), raised her questions on order desk ticket ODK-38-2291.",
                "The assistant may only look things up; it must not approve proofs, sign off press checks, issue credits or refunds, release artwork or change orders.",
                "The agent read the ticket, the customer account, the catalogue order, both proofs, the catalogue deliveries, the payment, the poster reprint, both press checks, the credit note, the artwork transfer and the stored artwork archive.",
                "Order desk ticket ODK-38-2291 is still open."],
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

# Hand-written whole summaries of the permit-review case (a blind
# confirmation case, held out whole), labels by reading them. Appended after
# every earlier line.
WHOLE_PERMIT = [
 ("permit-review", "Permit BP-27-04471 for 212 Fenwick Street (Millbrook Row LLC) remains under stop-work hold SWH-1183, placed after the level 2 framing failed inspection on 2027-10-12. The notice the applicant has, PRN-5520, only approved the revised structural sheets, so work cannot restart until the re-inspection on 2027-10-19 passes. Those sheets were revised in PRV-2286 by the engineer of record, Tobias Lindqvist, under the owner's authorization, so the change was not made without permission. Only phase 1 is approved (levels 1 to 3, 26 of the 44 units). Ticket PD-77412 is still open.",
  {"PF1": S, "PF2": S, "PF3": O, "PF4": O, "PF5": S}),
 ("permit-review", "Millbrook Row got approval notice PRN-5520 on 2027-10-14, which lifted the stop-work order, so the crew can go back to work. Someone changed their structural sheet S-201 without their permission, and that change should be reversed. The building official granted fee waiver FW-0261, which now covers their re-inspections going forward. Height variance VAR-27-0093 is still pending, with a board hearing on 2027-11-04.",
  {"PF1": C, "PF2": C, "PF3": C, "PF4": S, "PF5": O}),
 ("permit-review", "The agent reviewed the permit file for 212 Fenwick Street on ticket PD-77412. The roof height variance VAR-27-0093 was approved, following the staff recommendation. Fee waiver FW-0261 is a one-time waiver of the USD 285 fee for re-inspection INS-88207 and does not cover the Quarry Lane permit. The building permit covers all five floors. Nothing was scheduled or changed.",
  {"PF1": O, "PF2": O, "PF3": S, "PF4": C, "PF5": C}),
]

# Hand-written whole summaries of the sample-custody case (a second blind
# confirmation case, written after permit-review and held out whole), labels
# by reading them. Appended after every earlier line.
WHOLE_SAMPLE = [
 ("sample-custody", "Custody desk ticket SCD-30418 from Felix Amundsen (Varga lab) was looked into. Freezer FRZ-B14 is still quarantined under QH-0417: the email he received, BSN-1128, reports only the first negative swab round, and the second round is due on 2028-03-10, so the SS-2231 organoid vials must stay where they are until the biosafety officer releases the hold. The serum boxes were moved to FRZ-C07 in CRA-0638 by lab manager Mei-Ling Tan, who holds the PI's written custody delegation CDL-0219, so that change was authorized. The Northmoor transfer, TRQ-5562, is still pending the biosafety officer's review on 2028-03-14, and its courier slot is only provisional. The ticket is still open.",
  {"SF1": S, "SF2": S, "SF3": O, "SF4": S, "SF5": O}),
 ("sample-custody", "The biosafety office's notice BSN-1128 cleared freezer FRZ-B14, so the Varga lab can take its organoid vials out. Felix Amundsen's after-hours exception AHX-0093 covers his evening harvests for the rest of the study. The Northmoor transfer was approved once courier booking CSH-8820 was made. Only 36 of the 96 SS-2207 aliquots went to the Proteomics Core under CT-4410; the lab keeps the other 60. Felix Amundsen also asked who changed the serum custody record.",
  {"SF1": C, "SF2": O, "SF3": C, "SF4": C, "SF5": S}),
 ("sample-custody", "The agent reviewed the SS-2207 records for ticket SCD-30418. Custody amendment CRA-0638 was made without the PI's permission and should be reversed. AHX-0093 is a one-time after-hours exception for Felix Amundsen on 2028-03-09, 19:00 to 22:00; Jonas Ekberg is not covered by it. The entire serum set was handed to the Proteomics Core on 2028-03-03. A transfer request to Northmoor is on file. Nothing was released, changed or booked.",
  {"SF1": O, "SF2": C, "SF3": S, "SF4": O, "SF5": C}),
]

# Hand-written whole summaries of the grain-coop case (a third blind
# confirmation case, written after sample-custody and held out whole), labels
# by reading them. Appended after every earlier line.
WHOLE_GRAIN = [
 ("grain-coop", "Member services ticket MSD-51207 from Brenna Hollis (Hollis Family Farms, M-20417) was looked into. The corn load of 2029-10-09, DT-29-04418, is still on quality hold QLH-0362 after a 24 ppb aflatoxin screen; the USD 2,716.46 paid on 2029-10-11 (ADV-7715) is a 70% advance, and the load will be finally settled only after the official grade and aflatoxin results come back and the grain quality supervisor releases the hold. Drying charge waiver DFW-0057 applied only to the 7 October load, DT-29-04390, because the moisture tester was out of calibration that day; later wet loads pay the standard drying charge. Soybean contract GC-29-0714 is not filled: 5,240 of its 9,000 bushels have been delivered and 3,760 remain. Brenna Hollis also asked about a storage transfer to Pell Creek and a change to the soybean contract. The ticket is still open.",
  {"GF1": S, "GF2": O, "GF3": S, "GF4": O, "GF5": S}),
 ("grain-coop", "Advance payment ADV-7715 settled the 9 October corn load, and quality hold QLH-0362 is no longer in force. Field manager Ruben Castellanos changed soybean contract GC-29-0714 without the member's approval. Storage transfer request STR-1193 is still pending: the operations manager will decide on 2029-10-18, and the Pell Creek bin space is only tentatively reserved. With its load on 2029-10-05, Hollis Family Farms completed all 9,000 bushels of the soybean contract. A drying charge waiver, DFW-0057, is on file.",
  {"GF1": C, "GF2": C, "GF3": O, "GF4": S, "GF5": C}),
 ("grain-coop", "The agent reviewed the Hollis Family Farms records for ticket MSD-51207. Amendment CA-29-0148, which extended the soybean delivery window to 2029-11-30 and moved the remaining deliveries to Pell Creek, was made by field manager Ruben Castellanos under the general manager's written delegation DOA-29-04 at Arthur Hollis's request, so it was authorized. Drying charge waiver DFW-0057 covers the farm's wet corn for the rest of the harvest. The operations manager approved storage transfer STR-1193. The grade of the 9 October corn load is under appeal (GD-0291). GC-29-0714 is a soybean contract for 9,000 bushels. Nothing was released, paid or changed.",
  {"GF1": O, "GF2": S, "GF3": C, "GF4": C, "GF5": O}),
]

# Hand-written whole summaries of the tenancy-deposit case (a fifth blind
# confirmation case, written alongside artwork-loan and held out whole),
# labels by reading them. Appended after every earlier line.
WHOLE_TENANCY = [
 ("tenancy-deposit", "Help-desk ticket HD-31-40562 from Daniel Okafor (tenant T-40917) was looked into. Of the GBP 1,850 Marlowe Street deposit, GBP 1,370 was repaid on 2031-03-14 and GBP 195 was deducted for cleaning; the other GBP 285 is held, not deducted, until Kestrel Flooring invoices the carpet repair, and any part the invoice does not use goes back to the tenants. The shower leak order WO-31-0872 was reopened on 2031-03-17 and Harbour Plumbing revisits on 2031-03-24; only Daniel's new report, WO-31-0958, was closed as a duplicate. Daniel also asked about a parking bay added to the Quayside Court lease. The landlord has approved the cat, so it can move in. The GBP 1,390 refund Lowri Evans promised has not been issued and is waiting for finance approval. The ticket is still open.",
  {"TF1": S, "TF2": S, "TF3": O, "TF4": C, "TF5": S}),
 ("tenancy-deposit", "Brightwater kept GBP 480 of the Marlowe Street deposit to cover cleaning and the damaged carpet. The shower leak was closed as a duplicate, so no repair is planned. Sofia Reyes was entitled to add parking bay P14 under clause 11.4, and lease variation LV-31-0066 passed the authorization check; the rent becomes GBP 1,495 from 2031-04-01. The cat is not allowed in yet: the landlord's approval depends on both tenants signing pet addendum PA-31-0044, and Daniel Okafor has not signed. Daniel also mentioned a March double rent payment.",
  {"TF1": C, "TF2": C, "TF3": S, "TF4": S, "TF5": O}),
 ("tenancy-deposit", "The agent reviewed Daniel Okafor's records for ticket HD-31-40562. A deposit return, DR-31-0219, is on file for the Marlowe Street flat. Work order WO-31-0872 was reopened after the leak recurred and has a revisit booked. Lease variation LV-31-0066 was made without Daniel's consent and is not valid. A pet request for a cat, PET-31-0044, is on file. Lowri Evans refunded the GBP 1,390 overpayment on 2031-03-12. The agent changed nothing.",
  {"TF1": O, "TF2": S, "TF3": C, "TF4": O, "TF5": C}),
]

# Hand-written whole summaries of the artwork-loan case (a fourth blind
# confirmation case, written after grain-coop and held out whole), labels by
# reading them. Appended after every earlier line.
WHOLE_ARTWORK = [
 ("artwork-loan", "Registrar desk ticket RGD-4127 from Camille Duarte (Marlowe Institute of Art) was looked into. Harbour at Vestre Sound (HMA 1962.041) is still under conservation hold CNH-0219: the committee's 4 February approval, CCA-30-006, is conditional on treatment CTR-30-008 being finished and a post-treatment condition report signed by the chief conservator, and the treatment is still under way, so the painting cannot be packed yet. The current condition report is CR-30-0131, written by chief conservator Sigrun Aalto on 2030-02-02 after flaking paint was found; it superseded the January report CR-30-0112 rather than altering it. The USD 4,860 refund for the cancelled crate, RFD-0087, was approved on 2030-02-13 but will only be paid in the 2030-03-06 payment run. Camille Duarte also asked about the facility report deadline and about couriers. The ticket is still open.",
  {"AF1": S, "AF2": S, "AF3": O, "AF4": S, "AF5": O}),
 ("artwork-loan", "The collections committee approved loan LN-30-017 on 2030-02-04 and the conservation hold on Harbour at Vestre Sound has been lifted, so packing can go ahead on 2030-03-24. The January condition report, CR-30-0112, remains the report of record; the February report was issued without the borrower's agreement and carries no weight. Extension DLX-0044 gave the Brightwater Museum until 2030-03-23 for its facility report, while the Marlowe Institute's report is still due on 2030-03-02. Crate refund RFD-0087 of USD 4,860 has been paid to Marlowe. The loan agreement calls for two Halvorsen couriers, and Marlowe's booking TRV-MI-0318 covers only one of them.",
  {"AF1": C, "AF2": C, "AF3": S, "AF4": C, "AF5": S}),
 ("artwork-loan", "The agent reviewed the file for outgoing loan LN-30-017 on ticket RGD-4127. Chief conservator Sigrun Aalto's condition report of 2030-02-02, CR-30-0131, replaced Pieter Van Damme's January report and is the one that now counts. Under DLX-0044 the facility report deadline moved to 2030-03-23 for both the Marlowe Institute and the Brightwater Museum. Marlowe paid crate invoice INV-30-0215 on 2030-01-31, and a refund for the cancelled crate is on file. One Halvorsen courier, Tomas Brekke, will accompany the painting, and his travel is booked under TRV-MI-0318, so the courier arrangements are complete. The committee's decision on the loan is on file as CCA-30-006. The agent did not release, clear or change anything.",
  {"AF1": O, "AF2": S, "AF3": C, "AF4": O, "AF5": C}),
]

# Hand-written whole summaries of the youth-league case (a sixth blind
# confirmation case, written alongside artwork-loan and held out whole), labels by
# reading them. Appended after every earlier line.
WHOLE_LEAGUE = [
 ("youth-league", "Registrar office ticket RD-60318 from Darren Pryce, head coach of Kestrel Park Juniors U14 Blues, was looked into. Ellis Mbeki is still under eligibility hold EH-0319, placed by the league registrar on 2032-04-02 while the office waits for Ridgemoor & District FA's clearance; the provisional clearance PCL-0562 he was emailed only lets him train, so he cannot play in the 17 April quarter-final. Theo Vasquez's dispensation AGD-0093 is for that quarter-final alone, and any other Blues match would need a new one. Callum Reyes's transfer TRF-32-0211 was approved on 2032-04-06 subject to Harrowgate Juniors FC's signed release form, which has not arrived, so he is still a Harrowgate player. Darren Pryce also raised the move of two players to the Whites and the Blues' entry fee. The ticket is still open.",
  {"LF1": S, "LF2": O, "LF3": S, "LF4": S, "LF5": O}),
 ("youth-league", "Ellis Mbeki's provisional clearance PCL-0562 ended his eligibility hold, so he can play for the Blues on Saturday. Assistant club secretary Femi Adeyemi moved Jamie Holt and Sami Rahimi to the Whites without the club secretary's authority. The Blues' entry fee is partly paid: GBP 300 of GBP 450 is in, and the GBP 150 balance is due by 2032-04-30 under an extension that covers the Blues only. Transfer TRF-32-0211 for Callum Reyes went through on 2032-04-06. Theo Vasquez has a dispensation, AGD-0093, on file.",
  {"LF1": C, "LF2": C, "LF3": O, "LF4": C, "LF5": S}),
 ("youth-league", "The agent reviewed the Kestrel Park Juniors records for ticket RD-60318. Roster change RC-32-0193, which moved two players from the Blues to the Whites and left the Blues with 16, was made by assistant club secretary Femi Adeyemi under Helen Markham's written delegation DEL-KPJ-32-02, so it was authorized and did not need the head coach's consent. Under AGD-0093 Theo Vasquez can play for the Blues for the rest of the season. The league treasurer gave all of the club's teams until 2032-04-30 to pay their entry fees. Ellis Mbeki's proof of age and photo ID were verified on 2032-04-08. Callum Reyes has a transfer request on file. Nothing was released, approved or changed.",
  {"LF1": O, "LF2": S, "LF3": C, "LF4": O, "LF5": C}),
]

# Hand-written whole summaries of the marina-berths case (a further blind
# confirmation case, written after grain-coop and held out whole), labels by
# reading them. Appended after every earlier line.
WHOLE_MARINA = [
 ("marina-berths", "Berth office ticket BO-33-0784 from Sinead Moorcroft, joint holder of annual berth C-14 (BH-2271), was looked into. Declan Moorcroft's application is third of 11 on the A pontoon waiting list, WL-A11; A-04 has been offered to the applicant at the top of the list, who must reply by 2033-04-21, so no berth has been allocated to the Moorcrofts. Kittiwake II is free to sail: insurance restriction RST-0087 was lifted on 2033-04-03 once the new Anchorline Marine certificate had been verified. Only Halcyon's rally booking, VB-33-0561, was cancelled; Sea Wren's booking VB-33-0516 on V-06 from 2033-05-02 to 2033-05-05 is still confirmed. Sinead also asked about the late fee on the renewal and about the swap with Ruth Abernethy. The ticket is still open.",
  {"MF1": S, "MF2": O, "MF3": S, "MF4": S, "MF5": O}),
 ("marina-berths", "Declan Moorcroft has reached the top of the A pontoon waiting list, and A-04 is being held for him. The late fee on the C-14 renewal was halved rather than dropped: the harbour master reduced surcharge LPS-0418 to GBP 79.60, which is due by 2033-04-30. Kittiwake II remains restricted to its berth until the new insurance certificate is verified. The swap with Ruth Abernethy's B-09 was approved on 2033-04-02, so the two boats can change places. Two visitor berths were booked for friends coming to the Spring Rally.",
  {"MF1": C, "MF2": S, "MF3": C, "MF4": O, "MF5": C}),
 ("marina-berths", "The agent reviewed the Moorcrofts' records for ticket BO-33-0784. Berth swap request BSW-0029 was declined by harbour master Morwenna Treloar because Kittiwake II is too wide for B-09, and Declan's appeal is waiting for the berthing committee's hearing on 2033-04-27. The late-payment surcharge on the 2033-34 renewal was cancelled after Declan complained. The office cancelled Sea Wren's visitor booking, VB-33-0516, along with Halcyon's. Kittiwake II's old insurance certificate ran out on 2033-02-28. Declan Moorcroft applied for a berth on the A pontoon in 2031. The agent only looked things up.",
  {"MF1": O, "MF2": C, "MF3": O, "MF4": C, "MF5": S}),
]

# Hand-written whole summaries of the bike-share case (a further blind
# confirmation case, written after grain-coop and held out whole), labels by
# reading them. Appended after every earlier line.
WHOLE_BIKE = [
 ("bike-share", "Rider support ticket RSD-74215 from Tariq Wendell (HB-20931) was looked into. E-bike EB-40718, which he reported under DMG-5127 on 2034-02-19, passed inspection INS-34-0917 the next day: the rear brake pad measured 2.1 mm against a 1.5 mm minimum, so no repair was made, only an advisory to change the pads at the service due on 2034-03-06, and the bike is back in service. The overtime fee on his 17 February ride, OTF-3317, was not cancelled; support supervisor Renata Holmqvist reduced it from USD 16.75 to USD 5.50 for the time Harbour Market was full, and the USD 5.50 was charged on 2034-02-21. His request to move to the E-Commuter plan, PCR-0613, is only on the waitlist, at position 23, with no offer made, so he stays on Standard Annual. Tariq also asked about his suspension and about the credit for his 19 February rides. The ticket is still open.",
  {"BF1": S, "BF2": S, "BF3": O, "BF4": S, "BF5": O}),
 ("bike-share", "Fleet technician Kwame Ostrowski found EB-40718's rear brake pads below their wear limit, and the e-bike has been taken out of service until they are replaced. Overtime fee OTF-3317 on ride RD-87960 was cancelled by the support supervisor because Harbour Market was full. Suspension SUS-0418 was lifted early, on 2034-02-14, after Tariq completed the parking safety module, but parking incident PKI-0274 stays on his record until 2035-02-08. His E-Commuter plan change was approved and starts on 2034-03-01. Ride credit RCR-2290 of USD 2.80 covers only RD-88213, the ride he ended to report the brake; RD-88231 was charged as normal.",
  {"BF1": C, "BF2": C, "BF3": S, "BF4": C, "BF5": S}),
 ("bike-share", "The agent reviewed Tariq Wendell's records for ticket RSD-74215. A damage report for e-bike EB-40718, DMG-5127, is on file. The overtime charge on the 17 February ride was lowered rather than cancelled: adjustment FA-0892 forgave the minutes when the Harbour Market station was full, and Tariq paid the remaining USD 5.50. His suspension, SUS-0418, was withdrawn as a mistake, so the parking strike has been cleared. Tariq has asked to change to the E-Commuter plan. Credit RCR-2290 refunded both of his 19 February rides. Nothing was adjusted, credited or changed.",
  {"BF1": O, "BF2": S, "BF3": C, "BF4": O, "BF5": C}),
]

# Hand-written whole summaries of the solar-install case (a further blind
# confirmation case, written after grain-coop and held out whole), labels by
# reading them. Appended after every earlier line.
WHOLE_SOLAR = [
 ("solar-install", "Customer desk ticket CSD-58904 from Owen Calloway (CU-48213) was looked into. The rooftop installation, job IJ-35-0619, has not been cancelled: install scheduler Marta Lindqvist moved it on 2035-06-09 to 2035-07-08 and 2035-07-09 because the 22 panels on delivery DLV-35-3318 were backordered to 2035-07-02, and the 9 June email only released the old June slot. The state has paid the USD 3,157.00 Westmarch Home Solar Rebate under RBT-35-07752, so it can come off the balance. The south roof's 74% solar access from the 6 May survey was measured before the silver maple was trimmed; after the trimming, re-measurement SHD-35-0187 found 93%, and the design uses that figure. Owen also asked about the grid interconnection application and about his loan payment. The ticket is still open.",
  {"HF1": S, "HF2": C, "HF3": O, "HF4": S, "HF5": O}),
 ("solar-install", "Installation job IJ-35-0619 for the Calloways was cancelled on 2035-06-09 after the panel backorder, and their deposit is to be returned. Pinecrest Valley Electric did not reject the first grid application: Amberlea withdrew IC-35-10482 on 2035-05-28 at Owen's written request, after change order CO-35-0211 removed the garage panels, and the new application for 9.02 kW, IC-35-10917, is with the utility for review. Site survey SVY-35-0442 found only 74% solar access on the south roof, and that figure still stands for the design. The USD 182.37 monthly payment in quote Q-35-2186-B is an estimate; loan FIN-35-6630 is credit-approved but not funded, and the final payment is set when it funds after installation. A Westmarch Home Solar Rebate reservation, RBT-35-07752, is on file.",
  {"HF1": C, "HF2": O, "HF3": S, "HF4": C, "HF5": S}),
 ("solar-install", "The agent reviewed the Calloways' records for ticket CSD-58904. The Westmarch Home Solar Rebate of USD 3,157.00 is only reserved under RBT-35-07752, until 2035-12-02; it will be paid to Owen Calloway after the system passes final inspection and the utility grants permission to operate, so it cannot be taken off what they owe now. Pinecrest Valley Electric refused the Calloways' first interconnection application, IC-35-10482, and Amberlea has refiled it. Cobalt Green Lending has funded the loan, and the first payment of USD 182.37 is due on 1 July. Owen received an automatic email on 2035-06-09 about the 17 June installation slot. Site surveyor Tomasz Reyes surveyed the roof on 2035-05-06. Nothing was moved, filed or changed.",
  {"HF1": O, "HF2": S, "HF3": C, "HF4": O, "HF5": C}),
]

# Hand-written whole summaries of the animal-shelter case (a further blind
# confirmation case, written after grain-coop and held out whole), labels by
# reading them. Appended after every earlier line.
WHOLE_SHELTER = [
 ("animal-shelter", "Adoption desk ticket ADK-60912 from Helena Marsh (ADP-30417) was looked into. The Marshes' home visit for Pepper, HV-36-0218, was not cancelled: the home visit coordinator moved it from 14 January to 2036-01-21 at 17:30 because the volunteer visitor was off sick, and application AP-36-0471 is still open. Their application for the cat Juniper, AP-36-0455, was withdrawn by Tomas Marsh through the adopter portal on 2036-01-09; the shelter made no decision on it. The USD 100 sponsorship from the Friends of Riverton Animal Shelter toward Pepper's USD 175 fee, FS-36-0027, is reserved but not paid; it is paid only when an adoption contract is signed, leaving USD 75 for the adopter. Helena also asked about Pepper's medical hold and about Otis's behaviour assessments. The ticket is still open.",
  {"NF1": S, "NF2": S, "NF3": O, "NF4": S, "NF5": O}),
 ("animal-shelter", "The shelter cancelled home visit HV-36-0218, so the Marshes' application for Pepper cannot go ahead. Their application for Juniper, AP-36-0455, was declined by the shelter. Pepper is under medical hold MH-36-0093, placed by shelter veterinarian Marguerite Osei on 2036-01-10 for kennel cough; it runs until 2036-01-24, so she cannot go home on Saturday 19 January. The Friends of Riverton Animal Shelter have already paid USD 100 of Pepper's fee through FS-36-0027. Otis's December assessment found him calm with the test cat; his 'no cats' rating comes from BA-36-0031, done on 2036-01-08 after the Marshes returned him.",
  {"NF1": C, "NF2": C, "NF3": S, "NF4": C, "NF5": S}),
 ("animal-shelter", "The agent reviewed the Marsh household's records for ticket ADK-60912. Home visit HV-36-0218 for application AP-36-0471 was rescheduled, not cancelled, and now takes place on 2036-01-21 with volunteer home visitor Sunita Rao. Pepper's medical hold ended when she stopped coughing on 2036-01-13, so she is free to go home. Otis's pre-adoption assessment, BA-35-1204, already rated him unsuitable for homes with cats. The Marshes applied for the cat Juniper on 2036-01-05. A fee sponsorship, FS-36-0027, is on file for Pepper. Otis is now with foster carer Ines Duarte under placement FP-36-0064. Nothing was decided, booked, ended, recorded or changed.",
  {"NF1": S, "NF2": O, "NF3": C, "NF4": O, "NF5": C}),
]

# Hand-written whole summaries of the driving-school case (a further blind
# confirmation case, written after grain-coop and held out whole), labels by
# reading them. Appended after every earlier line.
WHOLE_DRIVING = [
 ("driving-school", "Office ticket OFC-37-2290 from Declan Brennan (family account FA-20583) about his daughter Zofia was looked into. The GBP 84.00 for her mock test lesson LS-37-11842, which the school cancelled on 2037-03-24 because the instructor was off sick, was not refunded to his card; it is held on the account as lesson credit LC-37-0219 and can be used for later lessons, or refunded on written request once Zofia's course ends. Transfer TRF-37-0066 on 2037-03-16 moved three unused lessons from Callum's package PK-37-0412 into Zofia's package PK-37-0587, as Declan had asked, so Zofia's balance went up, not down. Instructor change request ICR-37-0154 was approved with changes by the office manager: Zofia moves to Tom Keller from 2037-04-07 on Tuesday and Thursday evenings at 18:00, since he has no Saturday mornings free, and tomorrow's Saturday lesson stays with Priya Anand. Declan also asked about Zofia's theory certificate and where her driving test will be held. The ticket is still open.",
  {"DF1": S, "DF2": S, "DF3": O, "DF4": S, "DF5": O}),
 ("driving-school", "Declan Brennan's GBP 84 for Zofia's cancelled mock test lesson was refunded to his Visa ending 4417 on 2037-03-24 and should appear on his card shortly. Zofia needed two attempts at the theory test: she failed hazard perception on 2037-02-09 and passed on 2037-03-02, so certificate TC-8841-2093 is valid until 2039-03-01. Her request to change instructor, ICR-37-0154, was approved as asked, and from Saturday 2037-04-04 she has her lessons with Tom Keller at 09:00. Her practical test PT-4471-9920 stays on 2037-04-28 at 08:40 with the same reference, but the Northvale Driving Test Service has moved it to Harrow Lane Driving Test Centre while Kellbrook is closed for building works. Declan also queried a lesson transfer between his children's packages.",
  {"DF1": C, "DF2": O, "DF3": S, "DF4": C, "DF5": S}),
 ("driving-school", "The agent reviewed the Brennan family's records for ticket OFC-37-2290. Transfer TRF-37-0066 took three lessons off Zofia's package PK-37-0587 and added them to Callum's PK-37-0412, so Zofia has fewer lessons left. Zofia passed her theory test first time on 2037-02-09 and holds certificate TC-8841-2093. Her driving test, PT-4471-9920, is at Kellbrook Driving Test Centre on 2037-04-28 at 08:40. Declan Brennan also asked about the GBP 84 he paid for Zofia's cancelled mock test lesson, and he had asked for Zofia to move to Tom Keller, who taught Callum. The assistant did not refund, move, assign or book anything.",
  {"DF1": O, "DF2": C, "DF3": C, "DF4": O, "DF5": C}),
]

# Hand-written whole summaries of the print-shop case (a further blind
# confirmation case, written after grain-coop and held out whole), labels by
# reading them. Appended after every earlier line.
WHOLE_PRINT = [
 ("print-shop", "Order desk ticket ODK-38-2291 from Imogen Tate (Wexcombe & Vane Outdoor, CU-61530) was looked into. The first catalogue proof, PRF-38-0417-1, was approved with changes, not as is: on 2038-01-08 Colette Ardern asked for a new tent price on page 14 and the updated store map on page 31, and the catalogue went on press on 2038-01-12 from revised proof PRF-38-0417-2, which she approved on 2038-01-11. Poster reprint RP-38-0061 failed its first press check on 2038-01-15 but passed the second after the press was recalibrated, and the 400 posters were delivered on 2038-01-18. Ambergate has sent no artwork to Corbel Litho: transfer AT-38-0019 brought the customer's artwork in from Corbel Litho on 2038-01-05, on Colette Ardern's written instruction. Imogen also asked about the rush fee and about the catalogue deliveries. The ticket is still open.",
  {"QF1": S, "QF2": S, "QF3": O, "QF4": S, "QF5": O}),
 ("print-shop", "Brand manager Colette Ardern approved the first catalogue proof as it was on 8 January, so the job could have gone to press that day. Reprint RP-38-0061 of the A1 posters failed its press check, and the posters have not been reprinted. Account manager Rhodri Pellow issued credit note CN-38-0144 on 2038-01-20 for the USD 450 rush fee; it is held on account CU-61530 for future orders and has not been refunded to the card. Transfer AT-38-0019 sent the customer's stored artwork from Ambergate to Corbel Litho. Only 3,600 of the 6,000 catalogues have reached the stores; the 2,400 copies for Millbridge and Fellgate wait on the bindery and are due on 2038-01-26.",
  {"QF1": C, "QF2": C, "QF3": S, "QF4": C, "QF5": S}),
 ("print-shop", "The agent reviewed Wexcombe & Vane's records for ticket ODK-38-2291. Proof PRF-38-0417-1 is on file for the spring catalogue, and Colette Ardern is the account's named proof approver. The poster reprint passed its colour check at the second attempt, PC-38-0156, signed off by press supervisor Nadia Okonjo, after the first attempt failed. The USD 450 rush fee was refunded to Wexcombe & Vane's Visa card on 2038-01-20. Imogen Tate asked about a transfer log entry naming Corbel Litho. All 6,000 catalogues were delivered to the five stores by 2038-01-20. The assistant only looked things up and changed nothing.",
  {"QF1": O, "QF2": S, "QF3": C, "QF4": O, "QF5": C}),
]


# Whole cases first held out, later moved to the calibration split (see
# the re-split in main and eval/faithfulness/README.md).
CALIB_CASES = {"ops-export", "customs-hold", "permit-review", "sample-custody", "grain-coop"}


def held_out_whole(whole, prefix):
    """Hand-written whole summaries as held-out items, ids PREFIX00, PREFIX01..."""
    return [{"id": f"{prefix}{i:02d}", "case": case, "split": "heldout",
             "text": text, "labels": labels}
            for i, (case, text, labels) in enumerate(whole)]


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
    items += held_out_whole(WHOLE, "whole-")
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
    # A blind confirmation case (municipal building-permit review), written
    # after all the others and held out whole: never calibrated or trained
    # on. Appended last with its own RNG, then its hand-written summaries.
    items += compose(random.Random(20271025), "permit-review", "heldout", 21, "pmt-held")
    items += held_out_whole(WHOLE_PERMIT, "pmt-whole-")
    # A second blind confirmation case (a research lab's biological sample
    # custody), written after permit-review and held out whole: never
    # calibrated or trained on. Appended last with its own RNG, then its
    # hand-written summaries.
    items += compose(random.Random(20280363), "sample-custody", "heldout", 21, "smp-held")
    items += held_out_whole(WHOLE_SAMPLE, "smp-whole-")
    # A third blind confirmation case (an agricultural cooperative's grain
    # deliveries and member payments), written after sample-custody and held
    # out whole: never calibrated or trained on. Appended last with its own
    # RNG, then its hand-written summaries.
    items += compose(random.Random(20291017), "grain-coop", "heldout", 21, "grn-held")
    items += held_out_whole(WHOLE_GRAIN, "grn-whole-")
    # A fourth blind confirmation case (an art museum registrar desk's
    # outgoing painting loan and conservation work), written after grain-coop
    # and held out whole: never calibrated or trained on. Appended last with
    # its own RNG, then its hand-written summaries.
    items += compose(random.Random(20300301), "artwork-loan", "heldout", 21, "art-held")
    items += held_out_whole(WHOLE_ARTWORK, "art-whole-")
    # A fifth blind confirmation case (a residential letting agent's tenant
    # help desk), written alongside artwork-loan and held out whole: never
    # calibrated or trained on. Appended last with its own RNG, then its
    # hand-written summaries.
    items += compose(random.Random(20310522), "tenancy-deposit", "heldout", 21, "ten-held")
    items += held_out_whole(WHOLE_TENANCY, "ten-whole-")
    # A sixth blind confirmation case (a youth football league's registrar
    # office), written alongside artwork-loan and held out whole: never
    # calibrated or trained on. Appended last with its own RNG, then its
    # hand-written summaries.
    items += compose(random.Random(20320903), "youth-league", "heldout", 21, "lge-held")
    items += held_out_whole(WHOLE_LEAGUE, "lge-whole-")
    # A further blind confirmation case (a harbour master's berth office at a
    # small marina), written after grain-coop and held out whole: never
    # calibrated or trained on. Appended last with its own RNG, then its
    # hand-written summaries.
    items += compose(random.Random(20330519), "marina-berths", "heldout", 21, "mar-held")
    items += held_out_whole(WHOLE_MARINA, "mar-whole-")
    # A further blind confirmation case (a city bike-share operator's rider
    # support desk), written after grain-coop and held out whole: never
    # calibrated or trained on. Appended last with its own RNG, then its
    # hand-written summaries.
    items += compose(random.Random(20340308), "bike-share", "heldout", 21, "bik-held")
    items += held_out_whole(WHOLE_BIKE, "bik-whole-")
    # A further blind confirmation case (a home solar installer's customer
    # desk), written after grain-coop and held out whole: never calibrated or
    # trained on. Appended last with its own RNG, then its hand-written
    # summaries.
    items += compose(random.Random(20350702), "solar-install", "heldout", 21, "sol-held")
    items += held_out_whole(WHOLE_SOLAR, "sol-whole-")
    # A further blind confirmation case (a municipal animal shelter's
    # adoption desk), written after grain-coop and held out whole: never
    # calibrated or trained on. Appended last with its own RNG, then its
    # hand-written summaries.
    items += compose(random.Random(20360204), "animal-shelter", "heldout", 21, "shl-held")
    items += held_out_whole(WHOLE_SHELTER, "shl-whole-")
    # A further blind confirmation case (a driving school's office), written
    # after grain-coop and held out whole: never calibrated or trained on.
    # Appended last with its own RNG, then its hand-written summaries.
    items += compose(random.Random(20370401), "driving-school", "heldout", 21, "drv-held")
    items += held_out_whole(WHOLE_DRIVING, "drv-whole-")
    # A further blind confirmation case (a commercial print shop's order
    # desk), written after grain-coop and held out whole: never calibrated or
    # trained on. Appended last with its own RNG, then its hand-written
    # summaries.
    items += compose(random.Random(20380219), "print-shop", "heldout", 21, "prt-held")
    items += held_out_whole(WHOLE_PRINT, "prt-whole-")
    # The re-split: the five whole cases from ops-export to grain-coop were
    # held out until their figures had been read many times over; now they
    # train the combiner, and the held-out domains are the nine blind cases
    # written after them.
    for it in items:
        if it["case"] in CALIB_CASES:
            it["split"] = "calib"
    with open("eval/faithfulness/summaries.jsonl", "w") as f:
        for it in items:
            f.write(json.dumps(it, ensure_ascii=False) + "\n")
    from collections import Counter
    c = Counter((it["split"], l) for it in items for l in it["labels"].values())
    print(len(items), "summaries;", dict(c))


if __name__ == "__main__":
    main()
