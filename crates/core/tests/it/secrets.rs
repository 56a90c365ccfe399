//! Credentials never reach a file the tool writes, and look-alikes (hashes,
//! UUIDs, digests, decorators, paths) reach it unchanged. The session is a
//! coding session written out here, with credentials where they turn up in
//! practice: a `cat .env`, a config file read, a curl with a bearer token, a
//! git remote with a password, a private key, `gh auth status`, an Azure
//! connection string and tokens the user pastes.

use continuity_core::compact::Strategy;
use continuity_core::error::Source;
use continuity_core::redact::{secrets, Redactor};
use continuity_core::summarize::{Summarizer, SummaryOutput, SummaryRequest};
use continuity_core::{formats, io, Compaction, MissionKernel, RetentionPolicy, Transcript};
use serde_json::{json, Value};

const GITHUB_PAT: &str = "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d";
const GITHUB_OAUTH: &str = "gho_pc94tnwlavyfErGPmpGXafq0fjzLczbttOof";
const OPENAI: &str = "sk-proj-YgCfrL1spNxnyVmihA-2O76UMFxFkM-R5Kjp1vRt_1fjORS-6ilI8ihN5KXSc7Tv";
const ANTHROPIC: &str = "sk-ant-api03-phP9nhFyJfm5di4PzJ59FHz5r1pY4OjE2jBMptUsGr7CmY_uCu3ZR1zTOlUcR64cXQLioDnkHIfxIq2HZt-PlJhx2jIclAA";
const AWS_KEY_ID: &str = "AKIAH7DNSIPZZ7FK4ZRI";
const AWS_SECRET: &str = "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";
const STRIPE: &str = "sk_live_MdgaKjIg8xNbe3nNyjOq9wMx";
const SLACK: &str = "xoxb-711777741215-4728038528084-P3fS2qHx6kwXoIIXGvOoNZYW";
const SENDGRID: &str = "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";
const HUGGING_FACE: &str = "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";
const GOOGLE: &str = "AIzaHkCiHp6bR1IqfEouHgxzNNAL5wIScGebcy8";
const NPM: &str = "npm_p7CgQ0PBQFI14zGtSnovm14TUOizwd1iaeOV";
const GITLAB: &str = "glpat-G3uhkWKFLf6xuI5aHUQP";
const PYPI: &str =
    "pypi-AgEIcHlwaS5vcmcpzNk8cL6j5IXAAjlsHUqJoUD-_Ydua_5ZMs1SWOpQaPRYpzbLGViYXjU2JgJ";
const TWILIO: &str = "SK319478da6bd0c621de49f145fda9988c";
const AZURE_ACCOUNT_KEY: &str =
    "T8em/UyRShbbRwh1Kw8VRLg1wOcZCX36hwHpIy8h8oEmh3hpduv8wyf1kxdlJ0upgptEBvYf+Ikyb/qUku3u7g==";
const JWT: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const DB_PASSWORD: &str = "Xq7!vLp2#Rm9";
const CONFIG_PASSWORD: &str = "Tz4$kW8n!Qe2";
const URL_PASSWORD: &str = "Vb6mQ2xLk9Pw";
const SPOKEN_PASSWORD: &str = "Hx9!Wq2vLm";
const PRIVATE_KEY_BODY: &str = "epr3yT1VUiZq/nDnqubaR2J8LlmvLqN6vIRnCtPE02vAiq0f/464QG4vin/EzOTdnwtBENny+gAlyO/lfzdyT0036isUAEB3E5tBgN85MiSZYsaFcgAFmuuOoXzzeH4O0p0cC2P";

/// Every planted credential: none may be written anywhere.
const SECRETS: &[&str] = &[
    GITHUB_PAT,
    GITHUB_OAUTH,
    OPENAI,
    ANTHROPIC,
    AWS_KEY_ID,
    AWS_SECRET,
    STRIPE,
    SLACK,
    SENDGRID,
    HUGGING_FACE,
    GOOGLE,
    NPM,
    GITLAB,
    PYPI,
    TWILIO,
    AZURE_ACCOUNT_KEY,
    JWT,
    DB_PASSWORD,
    CONFIG_PASSWORD,
    URL_PASSWORD,
    SPOKEN_PASSWORD,
    PRIVATE_KEY_BODY,
];

/// Text that looks like a credential, or like an email, and is not one:
/// every one must be written as it was.
const LOOK_ALIKES: &[&str] = &[
    "9fceb02d0ae598e95dc970b74767f19372d61af8",
    "9fceb02",
    "3b241101-e2bb-4255-8caf-4136c566a962",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "d41d8cd98f00b204e9800998ecf8427e",
    "sha256:4bc453b53cb3d914b45f4b250294236adba2c0e09ff6f03793949e7e39fd4cc1",
    "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "ci-7f3a9c2e1b",
    "/home/dev/billing/.env",
    "https://api.example.com/v1/invoices?limit=20",
    "postgres://app:",
    "@db.internal.example.net:5432/billing",
    "https://deploy:",
    "@git.example.com/acme/billing.git",
    "git@github.com:acme/billing.git",
    "@acme/billing-sdk",
    "logo@2x.png",
    "@click.group()",
    "@cli.command()",
    "@app.route(",
    "gho_************************************",
    "${DB_PASSWORD}",
    "Bearer $API_TOKEN",
    "--- PASS: TestInvoiceTotals (0.00s)",
    "password = getpass.getpass()",
    "AccountName=acmebilling",
    "-----BEGIN OPENSSH PRIVATE KEY-----",
];

fn tool_use(id: &str, command: &str) -> Value {
    json!({"type": "tool_use", "id": id, "name": "Bash", "input": {"command": command}})
}

fn tool_result(id: &str, output: &str) -> Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": output})
}

fn turn(id: &str, says: &str, command: &str, output: &str) -> [Value; 2] {
    [
        json!({"role": "assistant", "content": [{"type": "text", "text": says}, tool_use(id, command)]}),
        json!({"role": "user", "content": [tool_result(id, output)]}),
    ]
}

fn env_dump() -> String {
    format!(
        "# /home/dev/billing/.env\n\
         DATABASE_URL=postgres://app:{DB_PASSWORD}@db.internal.example.net:5432/billing\n\
         DB_PASSWORD={DB_PASSWORD}\n\
         AWS_ACCESS_KEY_ID={AWS_KEY_ID}\n\
         AWS_SECRET_ACCESS_KEY={AWS_SECRET}\n\
         export STRIPE_SECRET_KEY={STRIPE}\n\
         SLACK_BOT_TOKEN=\"{SLACK}\"\n\
         SENDGRID_API_KEY={SENDGRID}\n\
         HF_TOKEN={HUGGING_FACE}\n\
         ANTHROPIC_API_KEY={ANTHROPIC}\n\
         TWILIO_API_KEY={TWILIO}\n\
         GIT_SHA=9fceb02d0ae598e95dc970b74767f19372d61af8\n\
         BUILD_ID=ci-7f3a9c2e1b\n\
         LOG_LEVEL=info\n\
         PORT=8080\n"
    )
}

/// The config file as a tool returns it: JSON text, read as JSON.
fn config_file() -> String {
    json!({
        "database": {"host": "db.internal.example.net", "user": "billing", "password": CONFIG_PASSWORD},
        "google": {"api_key": GOOGLE, "project": "acme-billing"},
        "npm": {"registry": "https://registry.npmjs.org/", "token": NPM},
        "request_id": "3b241101-e2bb-4255-8caf-4136c566a962",
        "checksum": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "etag": "d41d8cd98f00b204e9800998ecf8427e",
        "integrity": "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==",
        "logo": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "icons": ["logo.png", "logo@2x.png"]
    })
    .to_string()
}

/// Source code returned inside JSON text: its line breaks are the two
/// characters `\n`, so a decorator reads `\n@click.group(`.
fn source_file() -> String {
    json!({
        "path": "billing/cli.py",
        "content": "import click\nfrom billing.app import app\n\n\n@click.group()\ndef cli():\n    pass\n\n\n@cli.command()\ndef serve():\n    password = getpass.getpass()\n    app.run()\n\n\n@app.route(\"/health\")\ndef health():\n    return \"ok\"\n"
    })
    .to_string()
}

fn private_key() -> String {
    format!(
        "-----BEGIN OPENSSH PRIVATE KEY-----\n{}\n{}\n-----END OPENSSH PRIVATE KEY-----\n",
        &PRIVATE_KEY_BODY[..70],
        &PRIVATE_KEY_BODY[70..]
    )
}

fn gh_auth_status() -> String {
    format!(
        "github.com\n  ✓ Logged in to github.com account octo-dev (keyring)\n  - Active account: true\n  - Git operations protocol: https\n  - Token: {GITHUB_OAUTH}\n  - Token scopes: 'gist', 'read:org', 'repo'\n\nghe.example.com\n  ✓ Logged in to ghe.example.com account octo-dev (keyring)\n  - Token: gho_************************************\n"
    )
}

fn session() -> Value {
    let mut messages = vec![json!({"role": "user", "content": format!(
        "Deploy the billing service. Use my GitHub token {GITHUB_PAT} and the OpenAI key {OPENAI}. \
         Mail jane.doe@example.com and a+b@sub.example.co.uk when done. The PyPI token is {PYPI}."
    )})];
    let azure = format!(
        "DefaultEndpointsProtocol=https;AccountName=acmebilling;AccountKey={AZURE_ACCOUNT_KEY};EndpointSuffix=core.windows.net"
    );
    let remote = format!(
        "origin\thttps://deploy:{URL_PASSWORD}@git.example.com/acme/billing.git (fetch)\n\
         gitlab\thttps://oauth2:{GITLAB}@gitlab.example.com/acme/billing.git (push)\n\
         github\tgit@github.com:acme/billing.git (push)"
    );
    let curl = format!(
        "curl -s -H \"Authorization: Bearer {JWT}\" https://api.example.com/v1/invoices?limit=20"
    );
    let docker = "sha256:4bc453b53cb3d914b45f4b250294236adba2c0e09ff6f03793949e7e39fd4cc1\n\
                  npm ls: @acme/billing-sdk@2.3.1\n\
                  compose: POSTGRES_PASSWORD: ${DB_PASSWORD}\n\
                  deploy.sh: curl -H \"Authorization: Bearer $API_TOKEN\" \"$URL\"\n\
                  --- PASS: TestInvoiceTotals (0.00s)\n\
                  commit 9fceb02 (HEAD -> main)";
    let turns = [
        turn("t1", "Reading the environment.", "cat .env", &env_dump()),
        turn(
            "t2",
            "Reading the config.",
            "cat config/settings.json",
            &config_file(),
        ),
        turn(
            "t3",
            "Reading the CLI.",
            "read billing/cli.py",
            &source_file(),
        ),
        turn(
            "t4",
            "Calling the API.",
            &curl,
            "{\"data\": [], \"has_more\": false}",
        ),
        turn("t5", "Checking the remotes.", "git remote -v", &remote),
        turn(
            "t6",
            "Reading the deploy key.",
            "cat ~/.ssh/id_ed25519",
            &private_key(),
        ),
        turn(
            "t7",
            "Checking the GitHub login.",
            "gh auth status --show-token",
            &gh_auth_status(),
        ),
        turn(
            "t8",
            "Fetching the storage connection.",
            "az storage account show-connection-string -n acmebilling",
            &azure,
        ),
        turn(
            "t9",
            "Checking the image and the tests.",
            "docker inspect billing && go test ./...",
            docker,
        ),
    ];
    messages.extend(turns.into_iter().flatten());
    messages.push(json!({"role": "assistant", "content": "The image and the tests are fine."}));
    messages.push(json!({"role": "user", "content": format!(
        "The staging database password is {SPOKEN_PASSWORD}; keep the deploy key out of the logs."
    )}));
    messages.push(json!({"role": "assistant", "content": "Understood."}));
    messages.push(json!({"role": "user", "content": "Go on with the deploy."}));
    json!({"model": "m", "max_tokens": 1024, "system": "You are a coding agent.", "messages": messages})
}

fn transcript() -> Transcript {
    formats::parse_value(&session(), &Source("t".into())).unwrap()
}

/// Every file `continuity compact` writes, as text.
fn written(c: &Compaction) -> Vec<(&'static str, String)> {
    io::serialize(c)
        .unwrap()
        .files
        .into_iter()
        .map(|(name, bytes)| (name, String::from_utf8(bytes).unwrap()))
        .collect()
}

/// A compaction that keeps every round verbatim (redacted), so that every
/// look-alike is in the request.
fn kept_whole() -> Compaction {
    let mut policy = RetentionPolicy::default();
    policy.compaction.set_target(1_000_000);
    policy.compaction.tail_rounds = 100;
    policy.compaction.stub_threshold_chars = 1_000_000;
    let kernel = MissionKernel::session(chrono::Utc::now()).unwrap();
    continuity_test_support::run(&transcript(), &kernel, &policy, Strategy::Governed, "none")
}

fn assert_no_secret(files: &[(&str, String)]) {
    for (name, text) in files {
        for secret in SECRETS {
            assert!(!text.contains(secret), "{name} holds {secret}");
        }
    }
}

#[test]
fn no_credential_is_written_and_every_look_alike_is() {
    let c = kept_whole();
    let files = written(&c);
    assert_no_secret(&files);
    let request = &files.iter().find(|(n, _)| *n == "request.json").unwrap().1;
    for look_alike in LOOK_ALIKES {
        assert!(request.contains(look_alike), "{look_alike} was altered");
    }
    for email in ["jane.doe@example.com", "a+b@sub.example.co.uk"] {
        assert!(!request.contains(email), "{email} was written");
    }
    let emails = c
        .redactions
        .iter()
        .filter(|r| r.rule == "personal_data.patterns.email")
        .map(|r| r.placeholder.as_str())
        .collect::<std::collections::BTreeSet<_>>();
    assert_eq!(emails.len(), 2, "only the two addresses: {emails:?}");
}

#[test]
fn every_kind_is_named_in_its_placeholder() {
    let c = kept_whole();
    let request = written(&c).remove(0).1;
    for kind in [
        "github-pat",
        "github-oauth",
        "openai-api-key",
        "anthropic-api-key",
        "aws-access-token",
        "stripe-access-token",
        "slack-bot-token",
        "sendgrid-api-token",
        "huggingface-access-token",
        "gcp-api-key",
        "npm-access-token",
        "gitlab-pat",
        "pypi-upload-token",
        "twilio-api-key",
        "azure-connection-string-key",
        "jwt",
        "private-key",
        "password",
        "secret",
        "url-password",
    ] {
        assert!(
            request.contains(&format!("<withheld:secret:{kind}:")),
            "no {kind} placeholder"
        );
    }
    // The context the agent needs stays: the variable, the scheme, the host.
    for kept in [
        "AWS_SECRET_ACCESS_KEY=<withheld:secret:",
        "Authorization: Bearer <withheld:secret:",
        "@git.example.com/acme/billing.git",
    ] {
        assert!(request.contains(kept), "{kept}");
    }
}

#[test]
fn the_audit_names_kind_and_hash_never_the_value() {
    let c = kept_whole();
    let secret_records: Vec<_> = c
        .audit
        .iter()
        .filter(|r| r.rule.starts_with("secrets."))
        .collect();
    assert!(
        secret_records.len() >= SECRETS.len(),
        "{}",
        secret_records.len()
    );
    let audit = written(&c)
        .into_iter()
        .find(|(n, _)| *n == "audit.jsonl")
        .unwrap()
        .1;
    assert!(audit.contains("<withheld:secret:github-pat:"));
    for secret in SECRETS {
        assert!(!audit.contains(secret));
    }
}

#[test]
fn placeholders_are_the_same_across_runs() {
    let placeholders = |c: &Compaction| {
        c.redactions
            .iter()
            .filter(|r| r.rule.starts_with("secrets."))
            .map(|r| r.placeholder.clone())
            .collect::<std::collections::BTreeSet<_>>()
    };
    assert_eq!(placeholders(&kept_whole()), placeholders(&kept_whole()));
    let digest = continuity_core::digest::sha256_hex(GITHUB_PAT.as_bytes());
    assert!(placeholders(&kept_whole())
        .contains(&format!("<withheld:secret:github-pat:{}>", &digest[..6])));
}

#[test]
fn a_summary_of_the_session_holds_no_credential() {
    let mut policy = RetentionPolicy::default();
    policy.compaction.set_target(400);
    let kernel = MissionKernel::session(chrono::Utc::now()).unwrap();
    let c = continuity_test_support::run_fitting(
        &transcript(),
        &kernel,
        &policy,
        Strategy::SummaryOnly,
        "extractive",
    );
    assert!(!c.summary.is_empty());
    assert_no_secret(&written(&c));
}

/// A summarizer that writes credentials the input never showed it.
struct Leaky;

impl Summarizer for Leaky {
    fn name(&self) -> &str {
        "leaky"
    }
    fn summarize(
        &mut self,
        _: &SummaryRequest<'_>,
    ) -> Result<SummaryOutput, continuity_core::error::Error> {
        Ok(SummaryOutput {
            text: format!(
                "Deployed with {GITHUB_PAT}; the database takes password={DB_PASSWORD} and the API key {STRIPE}."
            ),
            metrics: None,
        })
    }
}

#[test]
fn model_written_summaries_are_redacted_too() {
    let mut policy = RetentionPolicy::default();
    policy.compaction.set_target(400);
    let kernel = MissionKernel::session(chrono::Utc::now()).unwrap();
    let t = transcript();
    let mut policy_fits = policy.clone();
    let c = loop {
        let mut redactor = Redactor::new(&policy_fits.personal_data).unwrap();
        let outcome = continuity_core::compact::compact(
            &continuity_core::compact::Inputs {
                transcript: &t,
                input_name: "t",
                kernel: &kernel,
                policy: &policy_fits,
                strategy: Strategy::SummaryOnly,
            },
            chrono::Utc::now(),
            &mut Leaky,
            &continuity_test_support::WordCount,
            &mut redactor,
        );
        match outcome {
            Ok(c) => break c,
            Err(continuity_core::error::Error::OverBudget { must_keep, .. }) => {
                policy_fits
                    .compaction
                    .set_target(must_keep + must_keep / 10 + 32);
            }
            Err(e) => panic!("{e}"),
        }
    };
    assert!(
        c.summary.contains("<withheld:secret:github-pat:"),
        "{}",
        c.summary
    );
    assert_no_secret(&written(&c));
}

#[test]
fn a_leak_check_knows_every_secret_value() {
    let mut redactor = Redactor::new(&RetentionPolicy::default().personal_data).unwrap();
    let _ = redactor.redact_transcript(&transcript());
    for secret in [
        GITHUB_PAT,
        DB_PASSWORD,
        AWS_SECRET,
        URL_PASSWORD,
        SPOKEN_PASSWORD,
    ] {
        let kind = redactor.find_leak(&format!("a file with {secret} in it"));
        assert!(
            kind.as_deref().is_some_and(|k| k.starts_with("secret:")),
            "{secret}: {kind:?}"
        );
    }
    // The private key is known in its JSON-escaped form too.
    let escaped = serde_json::to_string(&private_key()).unwrap();
    assert_eq!(
        redactor.find_leak(&escaped).as_deref(),
        Some("secret:private-key")
    );
    assert_eq!(redactor.find_leak("nothing secret here"), None);
}

/// Each provider rule on its own, in the shape the provider issues.
#[test]
fn each_provider_rule_finds_its_format() {
    let rules = secrets::rule_set().unwrap();
    let cases: &[(&str, &str)] = &[
        ("github-pat", GITHUB_PAT),
        ("github-oauth", GITHUB_OAUTH),
        ("github-app-token", "ghs_7Fq2LmZ8xR3vN9pK1wT5yB6cD4hJ0sA2eG8u"),
        (
            "github-fine-grained-pat",
            "github_pat_11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ012345678",
        ),
        ("gitlab-pat", GITLAB),
        ("openai-api-key", OPENAI),
        ("anthropic-api-key", ANTHROPIC),
        ("aws-access-token", AWS_KEY_ID),
        ("aws-access-token", "ASIAY34FZKBOKMUTVV7A"),
        ("stripe-access-token", STRIPE),
        ("stripe-access-token", "rk_live_51HxQk2Lm8Zp4Rt7Vw9Yb3Cd"),
        ("slack-bot-token", SLACK),
        ("sendgrid-api-token", SENDGRID),
        ("huggingface-access-token", HUGGING_FACE),
        ("gcp-api-key", GOOGLE),
        ("npm-access-token", NPM),
        ("pypi-upload-token", PYPI),
        ("twilio-api-key", TWILIO),
        ("jwt", JWT),
        ("url-password", "postgres://app:Pg7vQ2mZx9@db.example.net/x"),
        ("azure-connection-string-key", "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=Qm9vTGVhbjEyMzQ1Njc4OTBhYmNkZWZnaGlq="),
        ("bearer-token", "send Bearer 8fK2mQ9xLp3vR7tZ1wY5 with it"),
    ];
    for (kind, text) in cases {
        let found = secrets::scan(rules, text);
        assert!(
            found.iter().any(|f| f.kind == *kind),
            "{kind} not found in {text}: {found:?}"
        );
    }
}

#[test]
fn look_alikes_alone_are_no_secrets() {
    let rules = secrets::rule_set().unwrap();
    for text in LOOK_ALIKES.iter().copied().chain([
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Dev <dev@example.com>",
        "\"integrity\": \"sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==\"",
        "\"key\": \"3b241101-e2bb-4255-8caf-4136c566a962\"",
        "amqp://guest:guest@localhost:5672//",
        "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
        "token_type: bearer",
        "\"max_tokens\": 4096",
    ]) {
        assert_eq!(secrets::scan(rules, text), Vec::new(), "{text}");
    }
}

#[test]
fn the_leak_check_refuses_a_file_with_a_credential() {
    let mut redactor = Redactor::new(&RetentionPolicy::default().personal_data).unwrap();
    let _ = redactor.redact_transcript(&transcript());
    let files = io::OutputFiles {
        files: vec![(
            "summary.txt",
            format!("deployed with {STRIPE}\n").into_bytes(),
        )],
    };
    let err = io::check_leaks(&files, &mut redactor).unwrap_err();
    assert!(
        err.to_string().contains("secret:stripe-access-token"),
        "{err}"
    );
}

/// A compacted request compacted again: placeholders are left as they are,
/// never read as `secret: KIND:HASH`.
#[test]
fn redacting_twice_changes_nothing() {
    let policy = RetentionPolicy::default();
    let (once, _) = Redactor::new(&policy.personal_data)
        .unwrap()
        .redact_transcript(&transcript());
    let (twice, log) = Redactor::new(&policy.personal_data)
        .unwrap()
        .redact_transcript(&once);
    assert_eq!(formats::render(&once), formats::render(&twice));
    assert!(log.is_empty(), "{log:?}");
}
