//! Random personal values, credentials and look-alikes, from a seeded
//! generator: the same seed writes the same values.

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
    pub fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + self.below(10) as u8))
            .collect()
    }
    pub fn chars_of(&mut self, set: &[u8], n: usize) -> String {
        (0..n)
            .map(|_| char::from(set[self.below(set.len())]))
            .collect()
    }
    pub fn hex(&mut self, n: usize) -> String {
        self.chars_of(b"0123456789abcdef", n)
    }
}

const FIRST: &[&str] = &[
    "Dana",
    "Priya",
    "Tomasz",
    "Aoife",
    "Kwame",
    "Mei",
    "Rafael",
    "Ingrid",
    "Oluwaseun",
    "Hannah",
    "Mateo",
    "Saoirse",
    "Yusuf",
    "Elena",
    "Kenji",
    "Fatima",
    "Liam",
    "Zofia",
    "Arjun",
    "Chloe",
    "Niamh",
    "Gustavo",
    "Leila",
    "Bartholomew",
    "Siobhán",
    "José",
    "Anneliese",
    "Darnell",
];
const LAST: &[&str] = &[
    "Whitfield",
    "Raman",
    "Kowalczyk",
    "Brennan",
    "Mensah",
    "Zhang",
    "Oliveira",
    "Lindqvist",
    "Adeyemi",
    "Fischer",
    "Navarro",
    "O'Sullivan",
    "Yilmaz",
    "Petrova",
    "Tanaka",
    "Haddad",
    "McAllister",
    "Nowak",
    "Iyer",
    "Dubois",
    "Gallagher",
    "Castellanos",
    "Farouk",
    "García",
    "Van der Berg",
    "Okonkwo",
];
const STREET_NAMES: &[&str] = &[
    "Maple",
    "Harbour",
    "Kingsbridge",
    "Elmwood",
    "Sycamore",
    "Riverside",
    "Orchard",
    "Wexford",
    "Larkspur",
    "Pinecrest",
    "Ashdown",
    "Hawthorn",
    "Millbrook",
    "Juniper",
    "Fenwick",
    "Old Mill",
    "West Pier",
    "Saint Anne's",
    "Lower Abbey",
    "North Circular",
    "5th",
    "42nd",
];
const SUFFIXES: &[&str] = &[
    "Street",
    "St",
    "Avenue",
    "Ave",
    "Road",
    "Rd",
    "Lane",
    "Ln",
    "Boulevard",
    "Blvd",
    "Drive",
    "Dr",
    "Way",
    "Court",
    "Ct",
    "Place",
    "Terrace",
    "Crescent",
    "Close",
    "Parkway",
    "Square",
    "Quay",
    "Grove",
    "Mews",
    "Hwy",
];
const UNITS: &[&str] = &["Apt 4B", "Suite 210", "Unit 7", "Flat 3", "Floor 2", "#12"];

pub fn name(r: &mut Rng) -> String {
    let first = r.pick(FIRST);
    let last = r.pick(LAST);
    match r.below(5) {
        0 => format!("{first} {}. {last}", r.pick(&["A", "J", "M", "R"])),
        _ => format!("{first} {last}"),
    }
}

pub fn email_for(r: &mut Rng, name: &str) -> String {
    let local: String = name
        .split_whitespace()
        .map(|w| {
            w.chars()
                .filter(char::is_ascii_alphabetic)
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(".")
        .to_lowercase();
    let domain = r.pick(&[
        "example.com",
        "mail.example.org",
        "corp.example.net",
        "example.ie",
    ]);
    format!("{local}{}@{domain}", r.below(90) + 10)
}

/// A postcode of one country and the city before it.
pub fn city_postcode(r: &mut Rng) -> (String, String) {
    let letters = b"ABDEFGHJLNPQRSTUWXYZ";
    let eir = b"ACDEFHKNPRTVWXY0123456789";
    match r.below(5) {
        0 => {
            let (city, state) = [
                ("Springfield", "IL"),
                ("Austin", "TX"),
                ("Portland", "OR"),
                ("Albany", "NY"),
                ("Madison", "WI"),
            ][r.below(5)];
            (city.to_string(), format!("{state} {}", r.digits(5)))
        }
        1 => {
            let (city, area) = [
                ("London", "SW1A"),
                ("Leeds", "LS6"),
                ("Manchester", "M14"),
                ("Bristol", "BS8"),
                ("Glasgow", "G12"),
            ][r.below(5)];
            (
                city.into(),
                format!("{area} {}{}", r.below(9) + 1, r.chars_of(letters, 2)),
            )
        }
        2 => {
            let (city, routing) = [
                ("Dublin", "D02"),
                ("Cork", "T12"),
                ("Galway", "H91"),
                ("Limerick", "V94"),
            ][r.below(4)];
            (city.into(), format!("{routing} {}", r.chars_of(eir, 4)))
        }
        3 => {
            let (city, fsa) = [
                ("Toronto, ON", "M5V"),
                ("Vancouver, BC", "V6B"),
                ("Ottawa, ON", "K1P"),
            ][r.below(3)];
            (
                city.into(),
                format!(
                    "{fsa} {}{}{}",
                    r.below(10),
                    r.chars_of(b"ABCEGHJKLMNPRSTVWXYZ", 1),
                    r.below(10)
                ),
            )
        }
        _ => {
            let (city, state) = [("Denver", "CO"), ("Seattle", "WA"), ("Boston", "MA")][r.below(3)];
            (
                city.to_string(),
                format!("{state} {}-{}", r.digits(5), r.digits(4)),
            )
        }
    }
}

/// A city and its postcode as written: a US state and ZIP after a comma.
pub fn city_and_code(r: &mut Rng, city: &str, code: &str) -> String {
    let us = code.len() >= 8
        && code.as_bytes()[2] == b' '
        && code[..2].chars().all(|c| c.is_ascii_uppercase())
        && code[3..].starts_with(|c: char| c.is_ascii_digit())
        && !code.contains(char::is_lowercase)
        && code[3..].chars().take(5).all(|c| c.is_ascii_digit());
    match us || r.below(2) == 0 {
        true => format!("{city}, {code}"),
        false => format!("{city} {code}"),
    }
}

/// A street address, with a unit, a city and a postcode at times.
pub fn address(r: &mut Rng) -> String {
    let number = format!(
        "{}{}",
        r.below(2400) + 1,
        if r.below(8) == 0 { "B" } else { "" }
    );
    let mut a = format!("{number} {} {}", r.pick(STREET_NAMES), r.pick(SUFFIXES));
    if r.below(4) == 0 {
        a = format!("{a}, {}", r.pick(UNITS));
    }
    if r.below(5) > 0 {
        let (city, code) = city_postcode(r);
        a = format!("{a}, {}", city_and_code(r, &city, &code));
    }
    a
}

/// A phone number valid by libphonenumber's rules, and whether it needs a
/// word before it (a national format with no `+`).
pub fn phone(r: &mut Rng) -> (String, bool) {
    let us_area = ["212", "305", "415", "617", "312", "206", "512", "702"];
    let area = us_area[r.below(us_area.len())];
    let exch = format!("{}{}", r.below(7) + 2, r.digits(2));
    let line = r.digits(4);
    match r.below(12) {
        0 => (format!("+1 {area} {exch} {line}"), false),
        1 => (format!("+1-{area}-{exch}-{line}"), false),
        2 => (format!("({area}) {exch}-{line}"), false),
        3 => (format!("+44 20 7946 0{}", r.digits(3)), false),
        4 => (format!("+44 161 496 0{}", r.digits(3)), false),
        5 => (format!("+353 1 {} {}", r.digits(3), r.digits(4)), false),
        6 => (format!("+353 87 {} {}", r.digits(3), r.digits(4)), false),
        7 => (format!("+61 2 9{} {}", r.digits(3), r.digits(4)), false),
        8 => (format!("0044 20 7946 0{}", r.digits(3)), false),
        9 => (format!("020 7946 0{}", r.digits(3)), true),
        10 => (format!("087 {} {}", r.digits(3), r.digits(4)), true),
        _ => (format!("+4930{}", r.digits(7)), false),
    }
}

pub fn account_number(r: &mut Rng) -> String {
    match r.below(3) {
        0 => r.digits(8),
        1 => format!("{}{}", r.below(9) + 1, r.digits(11)),
        _ => format!("{} {} {}", r.digits(4), r.digits(4), r.digits(4)),
    }
}

pub fn routing_number(r: &mut Rng) -> String {
    // ABA check digit: 3·d1 + 7·d2 + d3 + … ≡ 0 (mod 10).
    let mut d: Vec<u32> = (0..8).map(|_| r.below(10) as u32).collect();
    d[0] = r.below(3) as u32;
    let w = [3, 7, 1, 3, 7, 1, 3, 7];
    let sum: u32 = d.iter().zip(w).map(|(a, b)| a * b).sum();
    d.push((10 - sum % 10) % 10);
    d.iter()
        .map(|x| char::from_digit(*x, 10).unwrap_or('0'))
        .collect()
}

pub fn sort_code(r: &mut Rng) -> String {
    format!("{}-{}-{}", r.digits(2), r.digits(2), r.digits(2))
}

/// A national id and the words that name it in prose.
pub fn national_id(r: &mut Rng) -> (String, &'static str) {
    let ni = b"ABCEGHJKLMNPRSTWXYZ";
    match r.below(6) {
        0 => (
            format!("{}-{}-{}", r.below(600) + 100, r.digits(2), r.digits(4)),
            "SSN",
        ),
        1 => (
            format!("{}{}", r.below(600) + 100, r.digits(6)),
            "social security number",
        ),
        2 => (
            format!(
                "{} {} {} {} {}",
                r.chars_of(ni, 2),
                r.digits(2),
                r.digits(2),
                r.digits(2),
                r.pick(&["A", "B", "C", "D"])
            ),
            "NI number",
        ),
        3 => (
            format!("{}{}", r.digits(7), r.pick(&["T", "W", "TA", "FA"])),
            "PPS number",
        ),
        4 => (
            format!("{} {} {}", r.digits(3), r.digits(3), r.digits(3)),
            "SIN",
        ),
        _ => (format!("{}-{}", r.digits(2), r.digits(7)), "tax ID"),
    }
}

/// A Luhn-valid card number in groups of four.
pub fn card(r: &mut Rng) -> String {
    let mut d: Vec<u32> = (0..15).map(|_| r.below(10) as u32).collect();
    d[0] = 4;
    let sum: u32 = d
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &x)| {
            if i % 2 == 0 {
                let y = x * 2;
                if y > 9 {
                    y - 9
                } else {
                    y
                }
            } else {
                x
            }
        })
        .sum();
    d.push((10 - sum % 10) % 10);
    let s: String = d
        .iter()
        .map(|x| char::from_digit(*x, 10).unwrap_or('0'))
        .collect();
    format!("{} {} {} {}", &s[0..4], &s[4..8], &s[8..12], &s[12..16])
}

/// A valid IBAN (GB or IE), as banks print it.
pub fn iban(r: &mut Rng) -> String {
    let country = r.pick(&["GB", "IE"]);
    let bank = r.pick(&["NWBK", "AIBK", "BOFI", "MIDL"]);
    let bban = format!("{bank}{}", r.digits(14));
    let numeric: String = format!("{bban}{country}00")
        .chars()
        .map(|c| c.to_digit(36).unwrap_or(0).to_string())
        .collect();
    let rem = numeric.chars().fold(0u64, |acc, c| {
        (acc * 10 + c.to_digit(10).unwrap_or(0) as u64) % 97
    });
    let raw = format!("{country}{:02}{bban}", 98 - rem);
    raw.as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

const B62: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// A credential as it appears in a config, a header, a key file or a
/// paste: its kind, the value that must never be written, and the line
/// that carries it. A private key's value is its body lines, one per line.
pub fn secret(r: &mut Rng) -> (&'static str, String, String) {
    match r.below(16) {
        0..=7 => provider_token(r),
        8 => {
            let v = format!(
                "{}!{}#{}",
                r.chars_of(B62, 5),
                r.chars_of(B62, 4),
                r.chars_of(B62, 3)
            );
            ("password", v.clone(), format!("DB_PASSWORD={v}"))
        }
        9 => {
            let v = r.chars_of(B62, 40);
            let line =
                format!("curl -H \"Authorization: Bearer {v}\" https://api.example.com/v1/jobs");
            ("bearer-token", v, line)
        }
        10 => {
            let v = format!("{}{}", r.chars_of(B62, 10), r.digits(2));
            let line =
                format!("git remote add origin https://deploy:{v}@git.example.com/ops/infra.git");
            ("url-password", v, line)
        }
        11 => {
            // The header is the standard `{"alg":"HS256","typ":"JWT"}`.
            let v = format!(
                "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{}.{}",
                r.chars_of(B64URL, 46),
                r.chars_of(B64URL, 43)
            );
            ("jwt", v.clone(), format!("session cookie: {v}"))
        }
        12 => {
            let body = format!("{}\n{}", r.chars_of(B64, 64), r.chars_of(B64, 64));
            let line =
                format!("-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----");
            ("private-key", body, line)
        }
        13 => {
            let v = format!("{}==", r.chars_of(B64, 86));
            let line = format!(
                "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=ops{};AccountKey={v};EndpointSuffix=core.windows.net",
                r.digits(3)
            );
            ("connection-string", v, line)
        }
        14 => {
            let v = format!("{}{}", r.chars_of(B62, 30), r.digits(4));
            let line = format!("postgresql://svc_reports:{v}@db.internal:5432/reports");
            ("connection-string", v, line)
        }
        _ => {
            // Only the value's entropy says it is one: `key` names little.
            let v = r.chars_of(B64, 44);
            ("high-entropy", v.clone(), format!("key: {v}"))
        }
    }
}

/// A provider's token in the format its issuer prints.
fn provider_token(r: &mut Rng) -> (&'static str, String, String) {
    match r.below(8) {
        0 => {
            let v = format!("ghp_{}", r.chars_of(B62, 36));
            ("github-token", v.clone(), format!("GITHUB_TOKEN={v}"))
        }
        1 => {
            let v = format!(
                "AKIA{}",
                r.chars_of(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
            );
            (
                "aws-access-key-id",
                v.clone(),
                format!("aws_access_key_id = {v}"),
            )
        }
        2 => {
            let v = format!("sk_live_{}", r.chars_of(B62, 24));
            ("stripe-key", v.clone(), format!("\"stripe_key\": \"{v}\""))
        }
        3 => {
            let v = format!(
                "xoxb-{}-{}-{}",
                r.digits(12),
                r.digits(13),
                r.chars_of(B62, 24)
            );
            ("slack-token", v.clone(), format!("Slack bot token: {v}"))
        }
        4 => {
            let v = format!("glpat-{}", r.chars_of(B62, 20));
            ("gitlab-token", v.clone(), format!("api_token: {v}"))
        }
        5 => {
            let v = format!("sk-proj-{}", r.chars_of(B64URL, 64));
            (
                "openai-key",
                v.clone(),
                format!("use my key {v} for the eval run"),
            )
        }
        6 => {
            let v = format!("sk-ant-api03-{}AA", r.chars_of(B64URL, 93));
            (
                "anthropic-key",
                v.clone(),
                format!("ANTHROPIC_API_KEY=\"{v}\""),
            )
        }
        _ => {
            let v = format!("AIza{}", r.chars_of(B64URL, 35));
            ("google-api-key", v.clone(), format!("\"apiKey\": \"{v}\""))
        }
    }
}

/// Values that look like personal data or secrets and are neither.
pub fn look_alike(r: &mut Rng) -> String {
    match r.below(22) {
        0 => r.hex(40),
        1 => r.hex(7),
        2 => format!(
            "{}-{}-4{}-a{}-{}",
            r.hex(8),
            r.hex(4),
            r.hex(3),
            r.hex(3),
            r.hex(12)
        ),
        3 => format!("v{}.{}.{}", r.below(9) + 1, r.below(30), r.below(200)),
        4 => format!(
            "{}.{}.{}.{}",
            r.below(9) + 1,
            r.below(30),
            r.below(200),
            r.digits(4)
        ),
        5 => format!(
            "2024-0{}-1{}T0{}:2{}:5{}Z",
            r.below(9) + 1,
            r.below(9),
            r.below(9),
            r.below(9),
            r.below(9)
        ),
        6 => format!(
            "2024-1{}-2{} 1{}:3{}:0{}",
            r.below(3),
            r.below(9),
            r.below(9),
            r.below(9),
            r.below(9)
        ),
        7 => format!("ORD-2024-{}", r.digits(6)),
        8 => format!("/var/log/fleet/{}/worker-{}.log", r.digits(4), r.below(64)),
        9 => format!(
            "https://docs.example.com/guides/v{}/rollout",
            r.below(9) + 1
        ),
        10 => format!("port {}", 1024 + r.below(60000)),
        11 => format!("{}h{}m{}s", r.below(9), r.below(60), r.below(60)),
        12 => format!("{},{}{} ms", r.below(9) + 1, r.digits(2), r.below(10)),
        13 => format!("10.{}.{}.{}", r.below(255), r.below(255), r.below(255)),
        14 => format!("build {}", r.digits(10)),
        15 => format!("INC{}", r.digits(7)),
        16 => format!("0x{}", r.hex(12)),
        17 => format!("{}", 1_700_000_000_000u64 + r.next() % 100_000_000_000),
        18 => format!("src/scheduler/queue.rs:{}", r.below(900) + 10),
        19 => format!("{}/{}/2024", r.below(18) + 10, r.below(3) + 10),
        20 => format!("order {}", r.digits(10)),
        _ => format!("sha256:{}", r.hex(64)),
    }
}

/// Lines whose keys or shapes the detectors read, and that hold no
/// personal value: team and system names under role keys, network
/// addresses under address keys, code and counts beside numbers.
pub fn look_alike_line(r: &mut Rng) -> String {
    let n = r.below(900) + 100;
    match r.below(16) {
        0 => format!("owner: team-infra-{n}"),
        1 => "assignee: ops-bot".to_string(),
        2 => "approver: Change Advisory Board".to_string(),
        3 => format!("location: us-east-{}", r.below(2) + 1),
        4 => format!("address: 10.0.{}.{}:8080", r.below(255), r.below(255)),
        5 => format!("mac_address: 00:1a:2b:{}:{}:5e", r.hex(2), r.hex(2)),
        6 => format!("see line {n} Main function"),
        7 => format!("merged with a 3 Way diff in {n} files"),
        8 => format!("ticket number {}{}", r.below(7) + 2, r.digits(9)),
        9 => format!("version {}.04.{}", r.below(10) + 18, r.below(9)),
        10 => format!("retry in 1 {} ms", r.digits(3)),
        11 => "owner: Platform Team".to_string(),
        12 => format!("resolved_by: release-automation[bot] in {n}s"),
        13 => format!("customer: Acme Logistics Ltd, account_id {}", r.digits(12)),
        14 => format!("Step {} Review Board notes", r.below(9) + 1),
        _ => format!(
            "created_by: svc-deploy, uptime {}d {}h",
            r.below(90),
            r.below(24)
        ),
    }
}
