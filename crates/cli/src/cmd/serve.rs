//! `continuity serve`: the local proxy (crates/serve). Parses the flags,
//! loads the kernel and policy as `compact` does, and runs until Ctrl-C.

use std::net::SocketAddr;
use std::path::PathBuf;

use continuity_serve::config::{ANTHROPIC_UPSTREAM, DEFAULT_LISTEN, OPENAI_UPSTREAM};
use continuity_serve::{App, Config};

use super::Common;

/// The trigger when neither `--trigger-tokens`, `--target-tokens` nor
/// `--policy` sets one: live agents carry long harness prompts, and the
/// policy's default (sized for the recorded examples) would compact at
/// once.
pub const LIVE_TRIGGER: u64 = 120_000;

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (loopback only unless --allow-remote)
    #[arg(long, default_value = DEFAULT_LISTEN)]
    listen: SocketAddr,
    /// Listen on a non-loopback address (anyone who reaches it uses your keys' requests)
    #[arg(long)]
    allow_remote: bool,
    /// Anthropic API base URL
    #[arg(long, value_name = "URL", default_value = ANTHROPIC_UPSTREAM)]
    anthropic_upstream: String,
    /// OpenAI API base URL
    #[arg(long, value_name = "URL", default_value = OPENAI_UPSTREAM)]
    openai_upstream: String,
    /// Per-conversation state (audit, reports, policy pin), inspect output
    /// and log.jsonl [default: ~/.local/share/continuity/serve]
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Mission Kernel (TOML); without it each session's instructions and
    /// first user message are its mission, carried verbatim
    #[arg(long, value_name = "K.toml")]
    kernel: Option<PathBuf>,
    /// Retention policy (TOML); built-in defaults when absent
    #[arg(long, value_name = "P.toml")]
    policy: Option<PathBuf>,
    /// Compact a conversation's request once it is over N tokens, counted in
    /// the agent's tokens [default: the policy's, else 120000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    trigger_tokens: Option<u64>,
    /// Compact down to N tokens [default: 0.7 of the trigger]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    target_tokens: Option<u64>,
    /// Compute each compaction and write what would have been sent under
    /// DIR/inspect; send the original
    #[arg(long)]
    inspect: bool,
    /// Hold back the tool calls in answers that the kernel does not allow,
    /// each replaced by a text notice naming the rule (needs --kernel);
    /// without it every call's verdict is only recorded
    #[arg(long, requires = "kernel")]
    block_tool_calls: bool,
    /// Keep at most N conversations in memory; the least recently used idle
    /// one is read back from its state on disk when it returns
    #[arg(long, value_name = "N", default_value_t = continuity_serve::store::OPEN_CONVERSATIONS, value_parser = at_least_one)]
    open_conversations: usize,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let cfg = config(args.clone_parts())?;
    let allow_remote = args.allow_remote;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let listener = continuity_serve::bind(&cfg, allow_remote).await?;
        let addr = listener.local_addr()?;
        eprintln!(
            "continuity serve: listening on http://{addr}\n  Anthropic → {}\n  OpenAI    → {}\n  trigger {} tokens, target {}; data in {}{}\n  export ANTHROPIC_BASE_URL=http://{addr}  OPENAI_BASE_URL=http://{addr}/v1",
            cfg.anthropic_upstream,
            cfg.openai_upstream,
            cfg.trigger(),
            cfg.policy.compaction.target(),
            cfg.data_dir.display(),
            if cfg.inspect { " (inspect: originals are sent)" } else { "" },
        );
        if !cfg.kernel.constraints().is_empty() {
            let what = if cfg.block_tool_calls { "those not allowed are held back" } else { "verdicts recorded" };
            eprintln!(
                "  tool calls in answers: checked against kernel {} v{} ({what})",
                cfg.kernel.id, cfg.kernel.version
            );
        }
        let app = App::new(cfg)?;
        continuity_serve::serve(app, listener, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
        anyhow::Ok(())
    })
}

/// What `config` needs from the flags.
struct Parts {
    common: Common,
    listen: SocketAddr,
    anthropic: String,
    openai: String,
    data_dir: Option<PathBuf>,
    inspect: bool,
    block_tool_calls: bool,
    open_conversations: usize,
}

impl Args {
    fn clone_parts(&self) -> Parts {
        Parts {
            common: Common {
                kernel: self.kernel.clone(),
                policy: self.policy.clone(),
                target_tokens: self.target_tokens,
                trigger_tokens: self.trigger_tokens,
                summarizer: "extractive".into(),
                tokenizer: None,
            },
            listen: self.listen,
            anthropic: self.anthropic_upstream.clone(),
            openai: self.openai_upstream.clone(),
            data_dir: self.data_dir.clone(),
            inspect: self.inspect,
            block_tool_calls: self.block_tool_calls,
            open_conversations: self.open_conversations,
        }
    }
}

fn config(p: Parts) -> anyhow::Result<Config> {
    let c = &p.common;
    let live_default =
        c.policy.is_none() && c.trigger_tokens.is_none() && c.target_tokens.is_none();
    let common = Common {
        trigger_tokens: c.trigger_tokens.or(live_default.then_some(LIVE_TRIGGER)),
        ..p.common
    };
    let (kernel, mut policy) = super::load_rules(&common, chrono::Utc::now())?;
    // The live default is nobody's choice either: the target may grow over
    // long instructions, as with the policy's own default.
    policy.compaction.default_target |= live_default;
    let data_dir = match p.data_dir {
        Some(d) => d,
        None => default_data_dir()?,
    };
    let mut cfg = Config::new(data_dir)?;
    cfg.listen = p.listen;
    cfg.anthropic_upstream = p.anthropic;
    cfg.openai_upstream = p.openai;
    cfg.kernel = kernel;
    cfg.policy = policy;
    cfg.inspect = p.inspect;
    cfg.block_tool_calls = p.block_tool_calls;
    cfg.open_conversations = p.open_conversations;
    cfg.check_upstreams()?;
    Ok(cfg)
}

fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "expected a whole number of at least 1, got `{text}`"
        )),
    }
}

/// `$XDG_DATA_HOME/continuity/serve`, else `~/.local/share/continuity/serve`.
fn default_data_dir() -> anyhow::Result<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_DATA_HOME").filter(|x| !x.is_empty()) {
        return Ok(PathBuf::from(x).join("continuity/serve"));
    }
    let home = std::env::var_os("HOME")
        .ok_or_else(|| crate::exit::Usage("no HOME: pass --data-dir".into()))?;
    Ok(PathBuf::from(home).join(".local/share/continuity/serve"))
}
