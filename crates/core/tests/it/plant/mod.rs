//! A generator of sessions with planted personal data and credentials, in
//! six domains (IT export, cloud rollout, insurance claim, payroll,
//! healthcare scheduling, logistics) and six formats (JSON records,
//! `key=value` logs, `key: value` output, prose, Markdown tables, CSV),
//! with non-secret look-alikes beside them. Deterministic: a seed writes
//! the same session every time.

mod values;

use serde_json::{json, Value};
use values::Rng;

/// The vocabulary of one domain: what its records call a person, an
/// address, and the record itself.
pub struct Domain {
    pub name: &'static str,
    pub record: &'static str,
    pub roles: &'static [&'static str],
    pub address_keys: &'static [&'static str],
    pub tool: &'static str,
}

pub const DOMAINS: &[Domain] = &[
    Domain {
        name: "it-export",
        record: "ticket",
        roles: &[
            "assignee",
            "resolved_by",
            "reporter",
            "escalated_by",
            "approver",
        ],
        address_keys: &["office_address", "site_address", "address"],
        tool: "export_tickets",
    },
    Domain {
        name: "cloud-rollout",
        record: "change",
        roles: &[
            "owner",
            "approved_by",
            "on_call",
            "requested_by",
            "rollback_owner",
        ],
        address_keys: &["datacenter_address", "billing_address", "location"],
        tool: "list_changes",
    },
    Domain {
        name: "insurance-claim",
        record: "claim",
        roles: &[
            "adjuster",
            "claimant",
            "inspector",
            "policyholder",
            "witness",
        ],
        address_keys: &["property_address", "loss.location", "mailing_address"],
        tool: "get_claim",
    },
    Domain {
        name: "payroll",
        record: "payslip",
        roles: &[
            "employee_name",
            "manager",
            "approved_by",
            "payee",
            "prepared_by",
        ],
        address_keys: &["home_address", "mailing_address", "address"],
        tool: "payroll_run",
    },
    Domain {
        name: "healthcare-scheduling",
        record: "appointment",
        roles: &[
            "patient_name",
            "physician",
            "nurse",
            "scheduled_by",
            "referring_doctor",
        ],
        address_keys: &["patient_address", "clinic_address", "home_address"],
        tool: "list_appointments",
    },
    Domain {
        name: "logistics",
        record: "shipment",
        roles: &[
            "driver",
            "consignee",
            "recipient",
            "dispatched_by",
            "signed_by",
        ],
        address_keys: &["delivery_address", "pickup_location", "address"],
        tool: "track_shipment",
    },
];

/// A generated session: its request body, every planted value with its
/// kind, and the look-alikes that must reach the output unchanged.
pub struct Session {
    pub body: Value,
    pub planted: Vec<(&'static str, String)>,
    pub look_alikes: Vec<String>,
}

/// One person's record: every kind once.
struct Person {
    name: String,
    email: String,
    phone: String,
    phone_national: bool,
    address: String,
    /// A city and postcode of their own, written without a street.
    city: String,
    postcode: String,
    account: String,
    routing: String,
    sort_code: String,
    national_id: (String, &'static str),
    card: String,
    iban: String,
    /// A credential: its kind, its value and the line that carries it.
    secret: (&'static str, String, String),
}

impl Person {
    fn new(r: &mut Rng) -> Self {
        let name = values::name(r);
        let email = values::email_for(r, &name);
        let (phone, phone_national) = values::phone(r);
        let (city, postcode) = values::city_postcode(r);
        Person {
            city,
            postcode,
            email,
            phone,
            phone_national,
            address: values::address(r),
            account: values::account_number(r),
            routing: values::routing_number(r),
            sort_code: values::sort_code(r),
            national_id: values::national_id(r),
            card: values::card(r),
            iban: values::iban(r),
            secret: values::secret(r),
            name,
        }
    }

    fn planted(&self) -> Vec<(&'static str, String)> {
        vec![
            ("name", self.name.clone()),
            ("email", self.email.clone()),
            ("phone", self.phone.clone()),
            ("address", self.address.clone()),
            ("postcode", self.postcode.clone()),
            ("bank_account", self.account.clone()),
            ("routing_number", self.routing.clone()),
            ("sort_code", self.sort_code.clone()),
            ("national_id", self.national_id.0.clone()),
            ("card_number", self.card.clone()),
            ("iban", self.iban.clone()),
            (self.secret.0, self.secret.1.clone()),
        ]
    }

    /// How the phone is written: a national number needs its word.
    fn phone_text(&self) -> String {
        match self.phone_national {
            true => format!("mobile {}", self.phone),
            false => self.phone.clone(),
        }
    }
}

/// A session of `domain` with `people` records, from `seed`.
pub fn session(domain: &Domain, seed: u64, people: usize) -> Session {
    let mut r = Rng::new(seed);
    let mut planted = Vec::new();
    let mut look_alikes = Vec::new();
    let mut messages = vec![
        json!({"role": "user", "content": format!("We are reviewing {} records for the {} export. Keep every id, version and path exact.", domain.record, domain.name)}),
    ];
    for i in 0..people {
        let p = Person::new(&mut r);
        let la: Vec<String> = (0..6).map(|_| values::look_alike(&mut r)).collect();
        let lines: Vec<String> = (0..2).map(|_| values::look_alike_line(&mut r)).collect();
        let format = (seed as usize + i) % 6;
        let (text, as_tool) = match format {
            0 => (json_record(domain, &p, &la, &mut r), true),
            1 => (key_value_log(domain, &p, &la, &mut r), true),
            2 => (colon_lines(domain, &p, &la, &mut r), true),
            3 => (prose(domain, &p, &la, &mut r), false),
            4 => (markdown_table(domain, &p, &la, &mut r), true),
            _ => (csv(domain, &p, &la, &mut r), true),
        };
        let text = format!("{text}\n{}\n", lines.join("\n"));
        let id = format!("call_{seed}_{i}");
        if as_tool {
            messages.push(json!({"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": domain.tool, "input": {"query": format!("{} {}", domain.record, la[0])}}]}));
            messages.push(json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": text}]}));
        } else {
            messages.push(json!({"role": "assistant", "content": "Reading the next report."}));
            messages.push(json!({"role": "user", "content": text}));
        }
        // The agent repeats values bare: withheld there too (the same value
        // wherever it appears again).
        messages.push(json!({"role": "assistant", "content": format!("Noted {} for {} {}; payout to {} pending, ref {}.", p.name, domain.record, la[1], p.account, la[2])}));
        let next = if i + 1 == people {
            "Summarise what is left to do."
        } else {
            "Next."
        };
        messages.push(json!({"role": "user", "content": next}));
        planted.extend(p.planted());
        look_alikes.extend(la);
        look_alikes.extend(lines);
    }
    let body = json!({"model": "m", "max_tokens": 1000, "messages": messages});
    Session {
        body,
        planted,
        look_alikes,
    }
}

fn role(domain: &Domain, r: &mut Rng) -> &'static str {
    domain.roles[r.below(domain.roles.len())]
}

fn address_key(domain: &Domain, r: &mut Rng) -> &'static str {
    domain.address_keys[r.below(domain.address_keys.len())]
}

fn json_record(domain: &Domain, p: &Person, la: &[String], r: &mut Rng) -> String {
    let addr_key = address_key(domain, r);
    let mut rec = json!({
        "id": la[0],
        "version": la[3],
        (role(domain, r)): p.name,
        "contact": {"email": p.email, "phone": p.phone},
        "bank": {"account_number": p.account, "routing_number": p.routing, "sort_code": p.sort_code, "iban": p.iban},
        "national_id": p.national_id.0,
        "depot": {"city": p.city, "postal_code": p.postcode},
        "card_number": p.card,
        "updated_at": la[4],
        "path": la[5],
        "config": p.secret.2,
    });
    match addr_key.split_once('.') {
        Some((outer, inner)) => rec[outer] = json!({(inner): p.address, "cause": "water"}),
        None => rec[addr_key] = json!(p.address),
    }
    rec.to_string()
}

fn key_value_log(domain: &Domain, p: &Person, la: &[String], r: &mut Rng) -> String {
    let (id, id_word) = &p.national_id;
    format!(
        "ts={} level=info {}={} {}=\"{}\" {}=\"{}\" phone=\"{}\" email={}\npostcode=\"{}\" acct={} routing_number={} sort_code={} id_type=\"{id_word}\" national_id=\"{id}\" card=\"{}\" iban=\"{}\"\n{}\nref={} path={} took={}\n",
        la[4], domain.record, la[0], role(domain, r), p.name, address_key(domain, r).replace('.', "_"), p.address,
        p.phone, p.email, p.postcode, p.account, p.routing, p.sort_code, p.card, p.iban, p.secret.2, la[3], la[5], la[1]
    )
}

fn colon_lines(domain: &Domain, p: &Person, la: &[String], r: &mut Rng) -> String {
    let (id, id_word) = &p.national_id;
    format!(
        "{}: {}\n{}: {}\n{}: {}\nPhone: {}\nEmail: {}\nPostcode: {}\nAccount number: {}\nRouting number: {}\nSort code: {}\n{id_word}: {id}\nCard: {}\nIBAN: {}\n{}\nBuild: {}\nUpdated: {}\nLog: {}\n",
        domain.record, la[0], role(domain, r), p.name, address_key(domain, r), p.address,
        p.phone_text(), p.email, p.postcode, p.account, p.routing, p.sort_code, p.card, p.iban, p.secret.2, la[3], la[4], la[5]
    )
}

fn prose(domain: &Domain, p: &Person, la: &[String], r: &mut Rng) -> String {
    let (id, id_word) = &p.national_id;
    let opener = match r.below(3) {
        0 => format!(
            "{} ({}, {}) reports that {} {} is stuck since {}.",
            p.name,
            p.email,
            p.phone_text(),
            domain.record,
            la[0],
            la[4]
        ),
        1 => format!(
            "Contact: {}, {} or {}. The {} {} failed at {}.",
            p.name,
            p.phone_text(),
            p.email,
            domain.record,
            la[0],
            la[4]
        ),
        _ => format!(
            "Please reach {} at {} ({}) about {} {}, opened {}.",
            p.name,
            p.email,
            p.phone_text(),
            domain.record,
            la[0],
            la[4]
        ),
    };
    format!(
        "{opener} The site is {}; parcels go to the depot in {}. Pay the refund into account number {} (routing number {}, sort code {}); their {id_word} is {id}. Card on file {} and IBAN {}. Also: {}. Version {} is deployed, logs at {}.",
        p.address, values::city_and_code(r, &p.city, &p.postcode), p.account, p.routing, p.sort_code, p.card, p.iban, p.secret.2, la[3], la[5]
    )
}

fn markdown_table(domain: &Domain, p: &Person, la: &[String], r: &mut Rng) -> String {
    let role = role(domain, r);
    let addr = address_key(domain, r).replace('.', " ");
    format!(
        "| {} | {role} | {addr} | phone | zip | account_number | sort_code | national_id | version |\n|---|---|---|---|---|---|---|---|---|\n| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n\nRouting number {} on file; email {}; card {}; IBAN {}.\n{}\nPath: {}; updated {}.\n",
        domain.record, la[0], p.name, p.address, p.phone, p.postcode, p.account, p.sort_code, p.national_id.0, la[3],
        p.routing, p.email, p.card, p.iban, p.secret.2, la[5], la[4]
    )
}

fn csv(domain: &Domain, p: &Person, la: &[String], r: &mut Rng) -> String {
    let role = role(domain, r);
    let addr = address_key(domain, r).replace('.', "_");
    format!(
        "{}_id,{role},{addr},postcode,phone,email,bank_account,routing_number,sort_code,national_id,card_number,iban,version,updated_at\n{}\n# {}\n# source {}\n",
        domain.record,
        [&la[0], &p.name, &p.address, &p.postcode, &p.phone, &p.email, &p.account, &p.routing, &p.sort_code, &p.national_id.0, &p.card, &p.iban, &la[3], &la[4]]
            .iter()
            .map(|c| if c.contains(',') { format!("\"{c}\"") } else { c.to_string() })
            .collect::<Vec<_>>()
            .join(","),
        p.secret.2,
        la[5]
    )
}
